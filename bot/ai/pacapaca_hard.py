"""The Hard AI seat of Alpaca Pacapaca: determinized search (:mod:`bot.ai.search`).

What the view hides: which of the cards nobody has seen are in the game (the primary set
always is; the random extra cards are not shown), the deck order, the face-down pile
(except the viewer's own discards still in it) and another player's two drawn cards.
:func:`determinize` picks the hidden cards (every unseen primary card, the rest drawn at
random from the unseen extra cards so the counts of the view add up) and deals them at
random into the deck, the others' part of the pile and the drawn cards. Playouts use
:func:`rollout` (cheap rules on the sampled state; the Normal heuristic for the rare
negotiation steps, through the sampled state's view) and :func:`evaluate` (the Normal
heuristic's projected points, margin against the best opponent).

Every decision is searched: draw / take the pile / open a negotiation with each partner,
which drawn card to keep, and in a negotiation accept, decline, give up and the proposal
the Normal heuristic would make (``Propose`` deals are too many to search one by one).
The search plays every candidate on the same samples (paired rounds) for about one round
of turns and compares the Normal heuristic's projected points then; the Normal
heuristic's choice wins ties. (Playouts to the end of the game, and keeping Normal's
choice unless beaten by a margin, did worse in 100-game trials: see bench/README.md.)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from bot.ai.pacapaca import evaluate as projected
from bot.ai.pacapaca import heuristic_policy, kept_length
from bot.ai.search import Budget, ismcts, squash
from bot.games.base import Action
from bot.games.pacapaca.cards import catalog
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import (
    Alpaca,
    Draw2,
    Keep,
    Negotiation,
    PacapacaOptions,
    PacapacaState,
    PacapacaView,
    Pass,
    PileCard,
    Propose,
    TakePile,
)

ENGINE = PacapacaEngine()
#: Playouts per decision and decisions per playout (sized for p99 < 300 ms, bench/ai.py).
BUDGET = Budget(iterations=60, depth=8, paired=True)
#: A margin of this many projected points is worth tanh(1) of a win.
MARGIN_SCALE = 5.0
#: In playouts a seat takes the pile when what it knows of it is worth more than
#: :data:`DRAW_GAIN`: its own discards at their value, each card another seat put there
#: at :data:`UNKNOWN_GAIN` (a seat does not see those, even in a sample).
DRAW_GAIN = 2.0
UNKNOWN_GAIN = 1.0


def _pools() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(primary set, other neck cards, babies) card ids."""
    cat = catalog()
    primary = tuple(cat.primary_ids())
    rest = tuple(c for c in cat.neck_deck if c not in set(primary))
    return primary, rest, tuple(cat.baby_ids)


_PRIMARY, _REST, _BABIES = _pools()


def determinize(view: PacapacaView, rng: random.Random) -> PacapacaState:
    """A full state that shows ``view`` exactly (module docstring). Reads nothing but
    ``view``."""
    me = view.viewer
    seen: set[int] = set(view.my_discards) | set(view.drawn)
    for a in view.alpacas:
        seen.update(a.neck)
        seen.update(a.babies)
    others_drawn = view.drawn_count if not view.drawn else 0
    hidden_n = view.deck_size + view.pile_size - len(view.my_discards) + others_drawn
    hidden = [c for c in _PRIMARY if c not in seen]
    extra = [c for c in (_REST + _BABIES if view.babies else _REST) if c not in seen]
    need = max(0, hidden_n - len(hidden))
    hidden += rng.sample(extra, min(need, len(extra)))
    rng.shuffle(hidden)
    deck = hidden[: view.deck_size]
    rest = hidden[view.deck_size:]
    drawn = list(view.drawn) if view.drawn else rest[:others_drawn]
    rest = rest[len(drawn) if not view.drawn else 0:]
    others = [s for s in view.seats if s != me] or list(view.seats)
    pile = [PileCard(card=c, by=me or others[0]) for c in view.my_discards]
    pile += [PileCard(card=c, by=others[i % len(others)]) for i, c in enumerate(rest)]
    rng.shuffle(pile)
    neg = None
    if view.negotiation is not None:
        n = view.negotiation
        neg = Negotiation(
            partner=n.partner, active_gives=list(n.active_gives),
            partner_gives=list(n.partner_gives), deal_version=n.deal_version,
            accepted=list(n.accepted), proposals=n.proposals, proposed_by=n.proposed_by)
    seats = list(view.seats)
    return PacapacaState(
        seats=seats, seed=rng.getrandbits(62), version=0,
        options=PacapacaOptions(babies=view.babies), babies=view.babies,
        alpacas={a.seat: Alpaca(head=a.head, body=a.body, neck=list(a.neck),
                                babies=list(a.babies)) for a in view.alpacas},
        deck=deck, pile=pile,
        active=seats.index(view.active) if view.active is not None else 0,
        turn_number=view.turn_number, phase=view.phase, drawn=drawn, negotiation=neg,
        negotiated=view.negotiated, final_turns_left=view.final_turns_left,
        pool_size=view.pool_size)


@lru_cache(maxsize=65536)
def _length(cards: tuple[int, ...]) -> int:
    return kept_length(cards)


@lru_cache(maxsize=65536)
def _value(cards: tuple[int, ...], others: tuple[int, ...], hope: float) -> float:
    """The Normal heuristic's projected points of an alpaca with ``cards`` (sorted) against
    the other alpacas' kept lengths ``others`` (cached)."""
    return projected(cards, {f"o{i}": n for i, n in enumerate(others)}, hope)


def _hope(state: PacapacaState) -> float:
    turns_left = len(state.deck) / (2 * max(1, len(state.seats)))
    return max(0.0, min(1.0, turns_left / 4))


def _cards(a: Alpaca) -> tuple[int, ...]:
    return tuple(sorted((*a.neck, *a.babies)))


def _seat_value(state: PacapacaState, seat: str, add: Sequence[int] = ()) -> float:
    others = tuple(sorted(_length(_cards(a)) for s, a in state.alpacas.items() if s != seat))
    mine = _cards(state.alpacas[seat])
    if add:
        mine = tuple(sorted((*mine, *add)))
    return _value(mine, others, round(_hope(state), 2))


def rollout(state: PacapacaState, seat: str, legal: Sequence[Action],
            rng: random.Random) -> Action:
    """A cheap player for playouts on a sampled state: keeps the drawn card worth more;
    takes the pile when what the seat knows of it (its own discards; the others' cards
    at an average value) beats drawing (:data:`DRAW_GAIN`), else draws; never opens a
    negotiation; inside one it plays as the Normal heuristic."""
    phase = state.phase
    if phase == "negotiation":
        return heuristic_policy(ENGINE.view(state, seat), legal, rng)
    if phase == "drawn":
        keeps = [a for a in legal if isinstance(a, Keep)]
        return max(keeps, key=lambda a: (_seat_value(state, seat, (a.card,)), rng.random()))
    can_draw = any(isinstance(a, Draw2) for a in legal)
    if state.pile:
        own = [pc.card for pc in state.pile if pc.by == seat]
        gain = UNKNOWN_GAIN * (len(state.pile) - len(own))
        if own:
            gain += _seat_value(state, seat, own) - _seat_value(state, seat)
        if gain > DRAW_GAIN or not can_draw:
            return next(a for a in legal if isinstance(a, TakePile))
    if can_draw:
        return next(a for a in legal if isinstance(a, Draw2))
    return next((a for a in legal if isinstance(a, Pass)), legal[0])


def evaluate(state: PacapacaState, me: str) -> float:
    """The Normal heuristic's projected points of ``me`` against the best opponent,
    squashed into (0, 1). A player caught holding two drawn cards is counted with the
    better one added (a playout may stop between the draw and the keep)."""
    mine = 0.0
    other = -1e9
    holder = state.seats[state.active] if state.phase == "drawn" and state.drawn else None
    for seat in state.seats:
        if seat == holder:
            v = max(_seat_value(state, seat, (c,)) for c in state.drawn)
        else:
            v = _seat_value(state, seat)
        if seat == me:
            mine = v
        elif v > other:
            other = v
    return squash(mine - other, MARGIN_SCALE)


class _Game:
    rollout = staticmethod(rollout)
    evaluate = staticmethod(evaluate)


GAME = _Game()


def _candidates(view: PacapacaView, legal: Sequence[Action], rng: random.Random) -> list[Action]:
    """The Normal heuristic's choice first (it wins ties), then every other action but
    ``Propose``."""
    pick = heuristic_policy(view, legal, random.Random(rng.random()))
    return [pick, *(a for a in legal if not isinstance(a, Propose) and a != pick)]


def hard_policy(view: PacapacaView, legal: Sequence[Action], rng: random.Random) -> Action:
    """The Hard seat: :func:`bot.ai.search.ismcts` over samples of what ``view`` hides,
    :data:`BUDGET` playouts. Deterministic for ``rng``'s state. Raises ``ValueError`` when
    ``legal`` is empty."""
    if not legal:
        raise ValueError("no legal action")
    me = view.viewer
    if me is None:
        raise ValueError("the Hard seat needs its own view")
    return ismcts(ENGINE, GAME, lambda r: determinize(view, r), me, legal, rng, BUDGET, _candidates(view, legal, rng))
