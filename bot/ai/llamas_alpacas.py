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
from typing import Any

from bot.ai.weighed import Weighed
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
from bot.games.llamas_alpacas.scoring import (
    LINES,
    Key,
    LineCheck,
    card_key,
    check_line,
    score_placement,
)

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


def _value(view: LlamasAlpacasView, me: PlayerView, board: list[Card | None],
           action: Action) -> float:
    """The heuristic's score of ``action`` (see :func:`heuristic_policy`)."""
    if isinstance(action, Take):
        slot = view.row[action.position - 1]
        value, _ = _best_space(board, slot.card)
        cost = slot.cost
        paid = 0 if cost is None else cost.clovers + cost.carrots
        held = me.clovers + me.carrots - paid + slot.clovers + slot.carrots
        return value + TREAT_VALUE * (min(held, TREAT_LIMIT) - (me.clovers + me.carrots))
    if isinstance(action, Move):
        b = list(board)
        b[action.dst], b[action.src] = b[action.src], None
        return _outcome(b, action.dst)
    if isinstance(action, Place):
        card = view.held if view.phase == "choose_space" else me.start_card
        if card is None:
            return 0.0
        if view.phase == "setup":
            return 1.0 if action.space == 4 else 0.0
        return _best_space(board, card, [action.space])[0]
    if isinstance(action, Keep):
        return -abs(action.clovers - _wanted_clovers(view))
    return 0.0  # pragma: no cover - no other actions exist


def _wanted_clovers(view: LlamasAlpacasView) -> int:
    """Keep the treat the next cards in the row ask for: clovers by the llamas among the
    first three row cards."""
    llamas = sum(1 for r in view.row[:3] if r.card.animal == "llama")
    return round(TREAT_LIMIT * (llamas + 0.5) / 4)


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
    scored = [(_value(view, me, board, action), rng.random(), action) for action in legal]
    return max(scored, key=lambda t: (t[0], t[1]))[2]


def _landing(view: LlamasAlpacasView, me: PlayerView, board: list[Card | None],
             action: Action) -> tuple[Card | None, int | None, list[Card | None]]:
    """Where ``action`` puts a card: (card, space, the board before it lands)."""
    if isinstance(action, Take):
        card = view.row[action.position - 1].card
        return card, _best_space(board, card)[1], board
    if isinstance(action, Move):
        b = list(board)
        moved, b[action.src] = b[action.src], None
        return moved, action.dst, b
    if isinstance(action, Place) and view.phase == "choose_space":
        return view.held, action.space, board
    return None, None, board


def _conditions(check: LineCheck) -> dict[str, Any]:
    """A scoring line's met conditions as data, each ``None`` when not met: ``animal``
    (``"llama"``/``"alpaca"``), ``colour`` (``white_as``: a white card counts as it) and
    ``digits`` (three digits, equal or a run); the presenter words them."""
    return {"animal": check.animal, "colour": check.colour, "white_as": check.white_as,
            "digits": list(check.digits) if check.digits else None}


def _scores(view: LlamasAlpacasView, me: PlayerView, board: list[Card | None],
            action: Action) -> tuple[int, list[dict[str, Any]]]:
    """(points ``action`` scores now, the met conditions of each scoring line as data:
    :func:`_conditions`)."""
    card, space, before = _landing(view, me, board, action)
    if card is None or space is None:
        return 0, []
    b = list(before)
    b[space] = card
    res = score_placement(b, space)
    return res.points, [_conditions(line.check) for line in res.lines]


def weigh(view: LlamasAlpacasView, legal: Sequence[Action], rng: random.Random) -> Weighed:
    """:func:`heuristic_policy`'s move for ``(view, legal, rng)`` and why (tags:
    ``"start"``, ``"keep"``, ``"take"``, ``"place"``, ``"move"``; facts: ``card`` (a
    :class:`Card`), ``space`` (0-8 where it lands), ``src`` (a move's), ``position`` (a
    take's), ``points`` it scores now, ``lines`` (each scoring line's met conditions as data:
    :func:`_conditions`), ``treats``
    gained on the card, ``others_points`` (the most any other move scores now),
    ``clovers``/``carrots`` kept and ``llamas`` among the first three row cards).
    Raises ``ValueError`` when ``legal`` is empty."""
    action = heuristic_policy(view, legal, rng)
    me = _me(view)
    board = list(me.board)
    rest = [a for a in legal if a != action]
    runner = max((_value(view, me, board, a) for a in rest), default=None)
    value = _value(view, me, board, action)
    if isinstance(action, Keep):
        llamas = sum(1 for r in view.row[:3] if r.card.animal == "llama")
        return Weighed(action, "keep", {"clovers": action.clovers, "carrots": action.carrots,
                                        "llamas": llamas}, value, runner)
    if isinstance(action, Place) and view.phase == "setup":
        return Weighed(action, "start", {"space": action.space, "card": me.start_card},
                       value, runner)
    card, space, _ = _landing(view, me, board, action)
    points, lines = _scores(view, me, board, action)
    facts = {"card": card, "space": space, "points": points, "lines": lines,
             "others_points": max((_scores(view, me, board, a)[0] for a in rest), default=0)}
    if isinstance(action, Take):
        slot = view.row[action.position - 1]
        facts |= {"position": action.position, "treats": slot.clovers + slot.carrots}
        return Weighed(action, "take", facts, value, runner)
    if isinstance(action, Move):
        return Weighed(action, "move", {**facts, "src": action.src}, value, runner)
    return Weighed(action, "place", facts, value, runner)
