"""The Hard AI seat of Llamas & Alpacas: determinized search (:mod:`bot.ai.search`).

What the view hides in this game is only where the unseen cards lie: the order of the
draw pile and which cards are in the discard pile under its top card (the view shows both
piles' counts and the top card). :func:`determinize` deals the cards the view does not
show (82 minus row, boards, starting cards, the held card and the discard top) at random
into those two piles. Playouts use :func:`rollout`, a cheap greedy player working on the
sampled state (the Normal heuristic's board promise, cached per board), and
:func:`evaluate` scores a position by points plus board promise.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from bot.ai.llamas_alpacas import POINT_WEIGHT, TREAT_VALUE
from bot.ai.llamas_alpacas import _potential as _board_promise
from bot.ai.search import Budget, SearchGame, ismcts, squash
from bot.games.base import Action
from bot.games.llamas_alpacas.cards import cards_by_id
from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.games.llamas_alpacas.models import (
    TREAT_LIMIT,
    Keep,
    KeepChoice,
    LlamasAlpacasState,
    LlamasAlpacasView,
    Move,
    Place,
    PlayerState,
    RowSlot,
    Take,
)
from bot.games.llamas_alpacas.scoring import Key, card_key, payment, score_keys

ENGINE = LlamasAlpacasEngine()
#: Playouts per decision and decisions per playout (sized for p99 < 300 ms, bench/ai.py).
BUDGET = Budget(iterations=48, depth=10, c=0.6)
#: Moves searched besides the takes (the best by board value after the move).
MOVE_CANDIDATES = 3
#: A margin of this many points is worth tanh(1) of a win.
MARGIN_SCALE = 6.0

_KEY: dict[int, Key] = {cid: card_key(c) for cid, c in cards_by_id().items()}
_ANIMAL = {cid: c.animal for cid, c in cards_by_id().items()}
_ALL_IDS = tuple(sorted(cards_by_id()))

Keys = tuple[Key | None, ...]


def determinize(view: LlamasAlpacasView, rng: random.Random) -> LlamasAlpacasState:
    """A full state that shows ``view`` exactly, the unseen cards dealt at random into the
    draw pile (``view.draw_count`` cards) and under the discard top. Reads nothing but
    ``view``."""
    seen: set[int] = {r.card.id for r in view.row}
    players = []
    for p in view.players:
        board = [None if c is None else c.id for c in p.board]
        seen.update(c for c in board if c is not None)
        start = None if p.start_card is None else p.start_card.id
        if start is not None:
            seen.add(start)
        players.append(PlayerState(
            seat=p.seat, board=board, clovers=p.clovers, carrots=p.carrots, score=p.score,
            turns=p.turns, start_card=start, lines=list(p.lines)))
    held = None if view.held is None else view.held.id
    if held is not None:
        seen.add(held)
    top = None if view.discard_top is None else view.discard_top.id
    if top is not None:
        seen.add(top)
    unseen = [c for c in _ALL_IDS if c not in seen]
    rng.shuffle(unseen)
    draw = unseen[: view.draw_count]
    under = max(0, view.discard_count - (1 if top is not None else 0))
    discard = unseen[view.draw_count: view.draw_count + under]
    if top is not None:
        discard.append(top)
    seats = list(view.seats)
    first = seats.index(view.first)
    active = seats.index(view.active) if view.active is not None else first
    keep = None if view.keep is None else KeepChoice(
        clovers=view.keep.clovers, carrots=view.keep.carrots, target=view.keep.target)
    return LlamasAlpacasState(
        seats=seats, seed=rng.getrandbits(62), version=view.version, phase=view.phase,
        players=players,
        row=[RowSlot(card=r.card.id, clovers=r.clovers, carrots=r.carrots) for r in view.row],
        draw=draw, discard=discard, first=first, active=active, held=held, keep=keep,
        end_triggered=view.end_triggered, turn_no=sum(p.turns for p in view.players))


@lru_cache(maxsize=65536)
def _potential(keys: Keys) -> float:
    """The Normal heuristic's board promise (``bot.ai.llamas_alpacas``), cached."""
    return _board_promise(keys)


@lru_cache(maxsize=65536)
def _landed(keys: Keys, space: int) -> float:
    """Value of a board (``keys``, the new card already on ``space``): points scored
    (x POINT_WEIGHT) plus the promise of what stays."""
    res = score_keys(keys, space)
    if res.removed:
        left = list(keys)
        for s in res.removed:
            left[s] = None
        keys = tuple(left)
    return POINT_WEIGHT * res.points + _potential(keys)


@lru_cache(maxsize=65536)
def _best_place(keys: Keys, key: Key) -> tuple[float, int]:
    """(value, space) of the best space for a card with scoring ``key``."""
    empty = [i for i in range(9) if keys[i] is None] or list(range(9))
    best = (-1e9, empty[0])
    for s in empty:
        b = list(keys)
        b[s] = key
        v = _landed(tuple(b), s)
        if v > best[0]:
            best = (v, s)
    return best


def _keys(board: list[int | None]) -> Keys:
    return tuple(None if c is None else _KEY[c] for c in board)


def _keep_choice(state: LlamasAlpacasState, legal: Sequence[Action]) -> Action:
    """Keep the treat the next row cards ask for (as the Normal heuristic)."""
    llamas = sum(1 for r in state.row[:3] if _ANIMAL[r.card] == "llama")
    want = round(TREAT_LIMIT * (llamas + 0.5) / 4)
    return min(legal, key=lambda a: abs(a.clovers - want) if isinstance(a, Keep) else 99)


def rollout(state: LlamasAlpacasState, seat: str, legal: Sequence[Action],
            rng: random.Random) -> Action:
    """A cheap greedy player for playouts on a sampled state: takes (never moves, unless
    it cannot take) the card whose best space, minus treats paid, is worth most, with a
    little noise; places on the best space; keeps treats as the Normal heuristic."""
    phase = state.phase
    p = state.players[state.seats.index(seat)]
    if phase == "setup":
        return Place(space=4)
    if phase == "keep_treats":
        return _keep_choice(state, legal)
    keys = _keys(p.board)
    if phase == "choose_space":
        assert state.held is not None
        return Place(space=_best_place(keys, _KEY[state.held])[1])
    takes = [a for a in legal if isinstance(a, Take)]
    if not takes:
        return rng.choice(list(legal))
    animals = [_ANIMAL[r.card] for r in state.row]
    treats = p.clovers + p.carrots
    best: tuple[float, Action] | None = None
    for a in takes:
        slot = state.row[a.position - 1]
        value = _best_place(keys, _KEY[slot.card])[0]
        paid = payment(animals, p.clovers, p.carrots, a.position) or []
        cost = sum(x + y for x, y in paid)
        held = min(treats - cost + slot.clovers + slot.carrots, TREAT_LIMIT)
        value += TREAT_VALUE * (held - treats) + rng.random() * 0.4
        if best is None or value > best[0]:
            best = (value, a)
    assert best is not None
    return best[1]


def _worth(p: PlayerState) -> float:
    return p.score + _potential(_keys(p.board)) / POINT_WEIGHT + 0.1 * (p.clovers + p.carrots)


def evaluate(state: LlamasAlpacasState, me: str) -> float:
    """Points plus board promise (in points) plus a little for treats, of ``me`` against
    the best opponent, squashed into (0, 1)."""
    mine = 0.0
    other = -1e9
    for p in state.players:
        w = _worth(p)
        if p.seat == me:
            mine = w
        elif w > other:
            other = w
    return squash(mine - other, MARGIN_SCALE)


GAME = SearchGame(rollout, evaluate)


def _candidates(view: LlamasAlpacasView, legal: Sequence[Action]) -> list[Action]:
    """Every take and place, and the :data:`MOVE_CANDIDATES` best moves."""
    moves = [a for a in legal if isinstance(a, Move)]
    others = [a for a in legal if not isinstance(a, Move)]
    if len(moves) <= MOVE_CANDIDATES:
        return others + moves
    me = next(p for p in view.players if p.seat == view.viewer)
    keys = tuple(None if c is None else card_key(c) for c in me.board)

    def after(m: Move) -> float:
        b = list(keys)
        b[m.dst], b[m.src] = b[m.src], None
        return _landed(tuple(b), m.dst)

    moves.sort(key=after, reverse=True)
    return others + moves[:MOVE_CANDIDATES]


def hard_policy(view: LlamasAlpacasView, legal: Sequence[Action], rng: random.Random) -> Action:
    """The Hard seat: :func:`bot.ai.search.ismcts` over samples of what ``view`` hides,
    :data:`BUDGET` playouts. Deterministic for ``rng``'s state. Raises ``ValueError`` when
    ``legal`` is empty."""
    if not legal:
        raise ValueError("no legal action")
    me = view.viewer
    if me is None:
        raise ValueError("the Hard seat needs its own view")
    return ismcts(ENGINE, GAME, lambda r: determinize(view, r), me, legal, rng, BUDGET, _candidates(view, legal))
