"""Easy AI seats: legal, mostly sensible moves with the mistakes a beginner makes.

Each policy has the interface of every seat policy, ``policy(view, legal, rng) -> Action``:
``view`` is the acting seat's own view (never the state), ``legal`` the engine's legal
actions for that seat, ``rng`` a ``random.Random``; the choice is one of ``legal``. All
raise ``ValueError`` when ``legal`` is empty.

A beginner looks only at what a move gives right now, never at what it sets up or at what
the others could do, and now and then plays on a whim (:data:`WHIM`: a uniformly random
legal action). Per game:

- Llamas & Alpacas: takes the row card whose best space scores the most points at once
  (ignoring what the board promises, what the card costs, and moving cards); places it
  where it scores most now; keeps its treats at random.
- Alpaca Pacapaca: takes the pile once it holds :data:`PILE_GRAB` cards, whatever they
  are, else draws two (it never opens a negotiation), and
  keeps the card that adds more points now (ignoring pieces that may still complete);
  asked to deal, it accepts any deal that helps itself, whatever the partner gains.
- Llamas Unleashed: plays an Animal into its own Field when it can, else an Upgrade into
  its own Field or a Downgrade into another's, else draws (it never plays Magic); never
  answers with an Instant, never uses an optional start-of-turn effect, and picks targets
  and cards at random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.ai.pacapaca import deal_gains, evaluate, kept_length
from bot.games.base import Action
from bot.games.llamas_alpacas.models import Keep, Move, Place, Take
from bot.games.llamas_alpacas.scoring import score_placement
from bot.games.unleashed.models import (
    Activate,
    Choose,
    ChooseBaby,
    DrawCard,
    Pass,
    Play,
    Proceed,
    Respond,
)

#: An Easy Pacapaca seat takes the pile once it holds this many cards, whatever they are.
PILE_GRAB = 3

#: How often an Easy seat plays a uniformly random legal action instead of its rule.
WHIM = 0.2


def _pick(legal: Sequence[Action], rng: random.Random) -> Action | None:
    """A whim: a random legal action with probability :data:`WHIM`, else ``None``.
    Raises ``ValueError`` when ``legal`` is empty."""
    if not legal:
        raise ValueError("no legal action")
    if len(legal) == 1:
        return legal[0]
    return rng.choice(list(legal)) if rng.random() < WHIM else None


def _best(scored: list[tuple[float, Action]], rng: random.Random) -> Action:
    """The highest-scored action, ties broken by ``rng``."""
    top = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v == top])


# -- Llamas & Alpacas ---------------------------------------------------------------------


def llamas_alpacas_easy(view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
    """Easy Llamas & Alpacas seat (see the module docstring)."""
    whim = _pick(legal, rng)
    if whim is not None:
        return whim
    seat = view.viewer or view.active
    me = next(p for p in view.players if p.seat == seat)
    board = list(me.board)

    def now(card: Any, spaces: Sequence[int] | None = None) -> float:
        empty = [i for i, c in enumerate(board) if c is None]
        best = 0.0
        for s in spaces if spaces is not None else (empty or range(9)):
            b = list(board)
            b[s] = card
            best = max(best, float(score_placement(b, s).points))
        return best

    scored: list[tuple[float, Action]] = []
    for action in legal:
        if isinstance(action, Take):
            scored.append((now(view.row[action.position - 1].card), action))
        elif isinstance(action, Place):
            card = view.held if view.phase == "choose_space" else me.start_card
            scored.append((0.0 if card is None else now(card, [action.space]), action))
        elif isinstance(action, Keep):
            scored.append((0.0, action))
        elif isinstance(action, Move):
            scored.append((-1.0, action))  # a beginner does not think of moving cards
    return _best(scored, rng)


# -- Alpaca Pacapaca ----------------------------------------------------------------------


def pacapaca_easy(view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
    """Easy Alpaca Pacapaca seat (see the module docstring)."""
    whim = _pick(legal, rng)
    if whim is not None:
        return whim
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a.type, []).append(a)
    me = view.viewer
    if view.phase == "drawn" and "keep" in by_type and me is not None:
        alpaca = view.alpaca(me)
        mine = [*alpaca.neck, *alpaca.babies]
        # The value with no hope: only the points the card adds now.
        return _best([(_value_now(view, me, [*mine, a.card]), a)  # type: ignore[attr-defined]
                      for a in by_type["keep"]], rng)
    if view.phase == "negotiation" and me is not None and view.negotiation is not None:
        neg = view.negotiation
        if (neg.active_gives or neg.partner_gives) and "accept" in by_type:
            ga, gp = deal_gains(view, neg.active, neg.partner, neg.active_gives,
                                neg.partner_gives)
            if (ga if me == neg.active else gp) > 0:
                return by_type["accept"][0]
        for kind in ("decline", "give_up", "accept"):
            if kind in by_type:
                return by_type[kind][0]
        return legal[0]
    if "take_pile" in by_type and view.pile_size >= PILE_GRAB:
        return by_type["take_pile"][0]
    for kind in ("draw2", "take_pile", "pass"):
        if kind in by_type:
            return by_type[kind][0]
    return rng.choice([a for a in legal if a.type != "negotiate"] or list(legal))


def _value_now(view: Any, me: str, cards: Sequence[int]) -> float:
    """Points of ``me``'s alpaca with ``cards`` as things stand (no hope for pieces that
    may still complete)."""
    others = {a.seat: kept_length([*a.neck, *a.babies]) for a in view.alpacas if a.seat != me}
    return evaluate(cards, others, 0.0, me=me)


# -- Llamas Unleashed ---------------------------------------------------------------------


def unleashed_easy(view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
    """Easy Llamas Unleashed seat (see the module docstring)."""
    whim = _pick(legal, rng)
    if whim is not None:
        return whim
    me = view.viewer
    kinds = {type(a) for a in legal}
    if ChooseBaby in kinds or Choose in kinds:
        return rng.choice(list(legal))
    if Pass in kinds:
        return next(a for a in legal if isinstance(a, Pass))
    if Activate in kinds and Proceed in kinds:
        return next(a for a in legal if isinstance(a, Proceed))
    hand = {c.id: c for c in view.hand or []}
    scored: list[tuple[float, Action]] = []
    for a in legal:
        if isinstance(a, Play):
            c = hand.get(a.card)
            kind = c.type if c is not None else ""
            if kind in ("basic", "magical") and a.field == me:
                scored.append((3.0, a))
            elif kind == "upgrade" and a.field == me or kind == "downgrade" and a.field != me:
                scored.append((2.0, a))
        elif isinstance(a, DrawCard):
            scored.append((1.0, a))
        elif isinstance(a, Proceed):
            scored.append((0.0, a))
        elif not isinstance(a, Respond | Activate):
            scored.append((-1.0, a))
    if not scored:
        return rng.choice(list(legal))
    return _best(scored, rng)
