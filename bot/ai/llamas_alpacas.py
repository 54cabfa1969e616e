"""AI seat policies for Llamas & Alpacas. Each sees only the seat's view.

``policy(view, legal, rng) -> Action``: ``view`` is a
:class:`~bot.games.llamas_alpacas.engine.LlamasAlpacasView` for the acting seat,
``legal`` the engine's ``legal_actions`` for that seat (non-empty), ``rng`` a
``random.Random``. Both raise ``ValueError`` when ``legal`` is empty.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from bot.games.base import Action
from bot.games.llamas_alpacas.cards import Card, cards_by_id
from bot.games.llamas_alpacas.models import (
    TREAT_LIMIT,
    Keep,
    LlamasAlpacasView,
    Move,
    Place,
    PlayerView,
    Take,
)
from bot.games.llamas_alpacas.scoring import LINES, Key, card_key, check_line, score_placement

#: Weights of the heuristic (a board's promise is measured in points).
POINT_WEIGHT = 1.5  # points scored now are certain: worth more than promise
TREAT_VALUE = 0.3
DEAD_LINE = -1.2
ONE_CARD_LINE = 0.25
TWO_CARD_MEAN = 0.5  # x the mean points a random card from the deck would score there
TWO_CARD_BEST = 0.1  # x the best points one more card could score there
NO_HOPE_LINE = -0.6


def random_policy(view: LlamasAlpacasView, legal: Sequence[Action], rng: random.Random) -> Action:
    """A uniformly random kind of action (take, move, place, keep), then a uniformly
    random action of that kind. Raises ``ValueError`` when ``legal`` is empty."""
    if not legal:
        raise ValueError("no legal action")
    kinds = sorted({a.type for a in legal})
    kind = rng.choice(kinds)
    return rng.choice([a for a in legal if a.type == kind])


@cache
def _deck_keys() -> tuple[Key, ...]:
    return tuple(card_key(c) for c in cards_by_id().values())


@cache
def _two_card_hope(keys: tuple[Key | None, Key | None, Key | None]) -> float:
    """Promise of a line with one empty space (``None``): a mix of the mean points a
    random card of the deck would score there and the best points any card could."""
    gap = keys.index(None)
    pts = [
        check_line(tuple(k if i == gap else keys[i] for i in range(3))).points  # type: ignore[arg-type]
        for k in _deck_keys()
    ]
    return TWO_CARD_MEAN * sum(pts) / len(pts) + TWO_CARD_BEST * max(pts)


def _potential(keys: Sequence[Key | None]) -> float:
    """How promising a board is (9 card keys or ``None``), line by line."""
    total = 0.0
    for _, spaces in LINES:
        line = tuple(keys[s] for s in spaces)
        n = 3 - line.count(None)
        if n == 3:
            total += DEAD_LINE
        elif n == 2:
            hope = _two_card_hope(line)
            total += hope if hope else NO_HOPE_LINE
        elif n == 1:
            total += ONE_CARD_LINE
    return total


def _outcome(board: list[Card | None], space: int) -> float:
    """Value of a board right after a card landed on ``space``: points + what is left."""
    res = score_placement(board, space)
    keys: list[Key | None] = [None if c is None else card_key(c) for c in board]
    for s in res.removed:
        keys[s] = None
    return POINT_WEIGHT * res.points + _potential(keys)


def _best_space(
    board: list[Card | None], card: Card, spaces: Sequence[int] | None = None
) -> tuple[float, int]:
    """(value, space) of the best place for ``card`` (an empty space, or any when full)."""
    if spaces is None:
        empty = [i for i, c in enumerate(board) if c is None]
        spaces = empty or list(range(9))
    best: tuple[float, int] | None = None
    for s in spaces:
        b = list(board)
        b[s] = card
        value = _outcome(b, s)
        if best is None or value > best[0]:
            best = (value, s)
    assert best is not None
    return best


def _me(view: LlamasAlpacasView) -> PlayerView:
    seat = view.viewer or view.active
    return next(p for p in view.players if p.seat == seat)


def heuristic_policy(
    view: LlamasAlpacasView, legal: Sequence[Action], rng: random.Random
) -> Action:
    """A greedy one-step player: scores each legal action by the points it makes now plus
    the promise left on its board (lines one card from scoring count, dead full lines
    count against it) plus 0.3 per treat gained or kept, and plays the best (ties broken
    by ``rng``). Raises ``ValueError`` when ``legal`` is empty."""
    if not legal:
        raise ValueError("no legal action")
    me = _me(view)
    board = list(me.board)
    scored: list[tuple[float, float, Action]] = []
    for action in legal:
        if isinstance(action, Take):
            slot = view.row[action.position - 1]
            value, _ = _best_space(board, slot.card)
            cost = slot.cost
            paid = 0 if cost is None else cost.clovers + cost.carrots
            held = me.clovers + me.carrots - paid + slot.clovers + slot.carrots
            value += TREAT_VALUE * (min(held, TREAT_LIMIT) - (me.clovers + me.carrots))
        elif isinstance(action, Move):
            b = list(board)
            b[action.dst], b[action.src] = b[action.src], None
            value = _outcome(b, action.dst)
        elif isinstance(action, Place):
            card = view.held if view.phase == "choose_space" else me.start_card
            if card is None:
                value = 0.0
            elif view.phase == "setup":
                value = 1.0 if action.space == 4 else 0.0
            else:
                value, _ = _best_space(board, card, [action.space])
        elif isinstance(action, Keep):
            # Keep the treat the next cards in the row ask for.
            llamas = sum(1 for r in view.row[:3] if r.card.animal == "llama")
            want_clovers = round(TREAT_LIMIT * (llamas + 0.5) / 4)
            value = -abs(action.clovers - want_clovers)
        else:  # pragma: no cover - no other actions exist
            value = 0.0
        scored.append((value, rng.random(), action))
    return max(scored, key=lambda t: (t[0], t[1]))[2]
