"""Alpaca Pacapaca seat policies: ``heuristic_policy`` and ``random_policy``.

Both take ``(view, legal, rng)``: the seat's :class:`PacapacaView` (never the state), the
engine's legal actions for that seat, and a ``random.Random``; they return one of
``legal``. Ask a policy only for seats listed in ``engine.pending(state).seats`` (during a
negotiation a seat that already accepted is waiting and has nothing useful to do).

The heuristic scores an alpaca with the real points (RULES.md: Alpaca Pacapaca, scoring)
plus a "hope" bonus for incomplete illustrations that shrinks as the deck runs out; it
keeps the better drawn card, takes the pile when it beats drawing, accepts a deal only when
it gains more than its partner, and opens a negotiation only for a clear 1-card win that
the partner should like too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from bot.ai.weighed import Weighed
from bot.games.base import Action
from bot.games.pacapaca.cards import catalog, kind_table
from bot.games.pacapaca.models import (
    Draw2,
    Keep,
    PacapacaView,
    Pass,
    Propose,
    StartNegotiation,
    TakePile,
)
from bot.games.pacapaca.scoring import PENDANTS, length_points

# -- evaluation -------------------------------------------------------------------------


def kept_length(cards: Sequence[int]) -> int:
    """Neck length after removing incomplete illustrations (babies ignored)."""
    kt = kind_table()
    return kept_length_of(Counter(kt[c] for c in cards))


def kept_length_of(k: Mapping[str, int]) -> int:
    """:func:`kept_length` of an alpaca given as kind -> copies (every kind a key, or a
    ``Counter``)."""
    n = sum(v for key, v in k.items() if not key.startswith("baby"))
    ribbons = min(k["ribbon_left"], k["ribbon_right"])
    scarves = min(k["scarf_top"], k["scarf_bottom"])
    loose = k["ribbon_left"] + k["ribbon_right"] - 2 * ribbons
    loose += k["scarf_top"] + k["scarf_bottom"] - 2 * scarves
    if not scarves:
        loose += k["scarf_middle"]
    return n - loose


def fashion_points(cards: Sequence[int], hope: float = 0.0) -> float:
    """Fashion points of an alpaca whose neck cards and babies are ``cards`` (step 3 of
    the scoring), plus ``hope`` (0..1) times a bonus for parts that may still complete."""
    kt = kind_table()
    return fashion_points_of(Counter(kt[c] for c in cards), hope)


def fashion_points_of(k: Mapping[str, int], hope: float = 0.0) -> float:
    """:func:`fashion_points` of an alpaca given as kind -> copies (every kind a key, or
    a ``Counter``)."""
    pts = catalog().points
    ribbons = min(k["ribbon_left"], k["ribbon_right"])
    scarves = min(k["scarf_top"], k["scarf_bottom"])
    scarf_cards = 2 * scarves + (k["scarf_middle"] if scarves else 0)
    pend = sum(k[p] for p in PENDANTS)
    kinds = sum(1 for p in PENDANTS if k[p])
    v = float(pts.ribbon * ribbons + pts.scarf_per_card * scarf_cards + pts.pendant * pend)
    v += pts.all_pendants_bonus if kinds == len(PENDANTS) else 0
    v += pts.mud * k["mud"]
    v += pts.baby * (k["baby_male"] if scarves else 0)
    v += pts.baby * (k["baby_female"] if ribbons else 0)
    if hope > 0:
        loose_rib = min(2, abs(k["ribbon_left"] - k["ribbon_right"]))
        v += hope * 2.5 * loose_rib
        if not scarves:
            ends = min(2, k["scarf_top"] + k["scarf_bottom"])
            v += hope * 2.0 * ends
            v += hope * (1.2 if ends else 0.6) * k["scarf_middle"]
        if not scarves:
            v += hope * 1.5 * k["baby_male"]
        if not ribbons:
            v += hope * 1.5 * k["baby_female"]
        if kinds == 3:
            v += hope * 2.0
    return v


def evaluate(
    cards: Sequence[int], other_lengths: dict[str, int], hope: float, me: str = "@me"
) -> float:
    """Projected points of an alpaca with ``cards`` (neck + babies) against the other
    alpacas' kept neck lengths: fashion points with hope, neck-length points, and a small
    tie-breaker for length."""
    length = kept_length(cards)
    lp = length_points({me: length, **other_lengths})[me]
    return fashion_points(cards, hope) + lp + 0.15 * length


def _hope(view: PacapacaView) -> float:
    my_turns_left = view.deck_size / (2 * max(1, len(view.seats)))
    return max(0.0, min(1.0, my_turns_left / 4))


def _all(view: PacapacaView, seat: str) -> list[int]:
    a = view.alpaca(seat)
    return [*a.neck, *a.babies]


def _lengths(view: PacapacaView, skip: Sequence[str], changes: dict[str, list[int]]) -> dict:
    out = {}
    for a in view.alpacas:
        if a.seat in skip:
            continue
        out[a.seat] = kept_length(changes.get(a.seat, [*a.neck, *a.babies]))
    return out


def seat_value(
    view: PacapacaView,
    seat: str,
    cards: Sequence[int] | None = None,
    changes: dict[str, list[int]] | None = None,
) -> float:
    """Projected value for ``seat`` if its cards were ``cards`` (others changed per
    ``changes``: seat -> card list)."""
    changes = changes or {}
    mine = list(cards) if cards is not None else _all(view, seat)
    return evaluate(mine, _lengths(view, [seat], changes), _hope(view), me=seat)


def unseen_weights(view: PacapacaView) -> Counter:
    """Kind -> estimated copies still hidden (deck or others' discards)."""
    cat = catalog()
    kt = kind_table()
    w = Counter({k.kind: k.count for k in cat.kinds if k.group != "baby" or view.babies})
    seen = [c for a in view.alpacas for c in [*a.neck, *a.babies]]
    seen += view.my_discards + view.drawn
    w.subtract(Counter(kt[c] for c in seen))
    return +w


def _gains(view: PacapacaView, seat: str) -> dict[str, float]:
    """Kind -> value gained by adding one card of that kind to ``seat``'s alpaca."""
    base = seat_value(view, seat)
    mine = _all(view, seat)
    out = {}
    for kind in unseen_weights(view) | Counter({k.kind: 1 for k in catalog().kinds}):
        out[kind] = seat_value(view, seat, [*mine, catalog().kind(kind).first_id]) - base
    return out


def draw_value(view: PacapacaView, seat: str) -> float:
    """Expected gain of A: the better of two cards drawn from the hidden kinds."""
    w = unseen_weights(view)
    total = sum(w.values())
    if total == 0:
        return 0.0
    g = _gains(view, seat)
    kinds = list(w)
    ev = 0.0
    for a in kinds:
        for b in kinds:
            pa = w[a] / total
            pb = (w[b] - (1 if a == b else 0)) / max(1, total - 1)
            if pb > 0:
                ev += pa * pb * max(g[a], g[b])
    if total == 1:
        ev = g[kinds[0]]
    return ev


def pile_value(view: PacapacaView, seat: str) -> float:
    """Expected gain of B: my known discards plus the average hidden card for the rest."""
    known = list(view.my_discards)
    unknown = view.pile_size - len(known)
    mine = _all(view, seat)
    gain = seat_value(view, seat, [*mine, *known]) - seat_value(view, seat)
    if unknown:
        w = unseen_weights(view)
        total = sum(w.values())
        if total:
            g = _gains(view, seat)
            avg = sum(w[k] * g[k] for k in w) / total
            gain += unknown * avg * 0.9
    return gain


def deal_gains(
    view: PacapacaView,
    active: str,
    partner: str,
    active_gives: Sequence[int],
    partner_gives: Sequence[int],
) -> tuple[float, float]:
    """(active's gain, partner's gain) in projected value if the deal ran."""
    a0, p0 = _all(view, active), _all(view, partner)
    a1 = [c for c in a0 if c not in active_gives] + list(partner_gives)
    p1 = [c for c in p0 if c not in partner_gives] + list(active_gives)
    changes = {active: a1, partner: p1}
    ga = seat_value(view, active, a1, changes) - seat_value(view, active)
    gp = seat_value(view, partner, p1, changes) - seat_value(view, partner)
    return ga, gp


def _relative(mine: float, theirs: float, players: int) -> float:
    return mine - theirs / max(1, players - 1)


def _candidate_deals(view: PacapacaView, me: str, other: str) -> list[tuple[list[int], list[int]]]:
    kt = kind_table()

    def one_per_kind(cards: list[int]) -> list[int]:
        seen: dict[str, int] = {}
        for c in sorted(cards):
            seen.setdefault(kt[c], c)
        return list(seen.values())

    mine, theirs = one_per_kind(_all(view, me)), one_per_kind(_all(view, other))
    out: list[tuple[list[int], list[int]]] = [([g], []) for g in mine]
    out += [([], [t]) for t in theirs]
    out += [([g], [t]) for g in mine for t in theirs]
    return out


def best_deal(
    view: PacapacaView, me: str, other: str, *, active: bool, min_gain: float = 0.5
) -> tuple[float, list[int], list[int]] | None:
    """The proposal (my relative gain, give, get) that helps ``me`` most among deals the
    other side should accept (its relative gain > 0.5); ``None`` if there is none.

    Deals whose one-card parts cannot add up to ``min_gain`` for ``me`` are skipped
    before the full evaluation (it keeps 6-player turns fast)."""
    n = len(view.seats)
    mine = _all(view, me)
    base = seat_value(view, me)
    solo: dict[int, float] = {}
    for c in {c for g, t in _candidate_deals(view, me, other) for c in (*g, *t)}:
        cards = [x for x in mine if x != c] if c in mine else [*mine, c]
        solo[c] = seat_value(view, me, cards) - base
    best = None
    for give, get in _candidate_deals(view, me, other):
        if sum(solo[c] for c in (*give, *get)) < min_gain:
            continue
        if active:
            gm, go = deal_gains(view, me, other, give, get)
        else:
            go, gm = deal_gains(view, other, me, get, give)
        if _relative(go, gm, n) <= 0.5:
            continue
        rel = _relative(gm, go, n)
        if best is None or rel > best[0]:
            best = (rel, give, get)
    return best


# -- policies ---------------------------------------------------------------------------


def random_policy(view: PacapacaView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Pick an action type uniformly, then one action of that type uniformly."""
    types = sorted({a.type for a in legal})
    kind = rng.choice(types)
    return rng.choice([a for a in legal if a.type == kind])


def heuristic_policy(view: PacapacaView, legal: Sequence[Action], rng: random.Random) -> Action:
    """A sensible seat: see the module docstring. Raises ``ValueError`` if ``legal`` is
    empty (the seat has nothing to decide)."""
    if not legal:
        raise ValueError("no legal action")
    me = view.viewer
    if me is None or len(legal) == 1:
        return legal[0]
    if view.phase == "drawn":
        return _keep(view, me, legal)
    if view.phase == "negotiation":
        return _negotiate(view, me, legal, rng)
    return _turn(view, me, legal)


def _keep(view: PacapacaView, me: str, legal: Sequence[Action]) -> Action:
    mine = _all(view, me)
    keeps = [a for a in legal if isinstance(a, Keep)]
    return max(keeps, key=lambda a: (seat_value(view, me, [*mine, a.card]), -a.card))


def _turn(view: PacapacaView, me: str, legal: Sequence[Action]) -> Action:
    options: list[tuple[float, Action]] = []
    for a in legal:
        if isinstance(a, Draw2):
            options.append((draw_value(view, me), a))
        elif isinstance(a, TakePile):
            options.append((pile_value(view, me), a))
        elif isinstance(a, Pass):
            options.append((0.0, a))
    base = max((v for v, _ in options), default=-99.0)
    for a in legal:
        if isinstance(a, StartNegotiation):
            deal = best_deal(view, me, a.partner, active=True, min_gain=3.0)
            if deal is not None and deal[0] >= 3.0 and deal[0] > base + 1.0:
                options.append((deal[0], a))
    if not options:
        return legal[0]
    return max(options, key=lambda o: o[0])[1]


def _negotiate(view: PacapacaView, me: str, legal: Sequence[Action], rng: random.Random) -> Action:
    neg = view.negotiation
    assert neg is not None
    n = len(view.seats)
    am_active = me == neg.active
    other = neg.partner if am_active else neg.active
    has_deal = bool(neg.active_gives or neg.partner_gives)
    by_type = {a.type: a for a in legal if not isinstance(a, Propose)}
    can_propose = any(isinstance(a, Propose) for a in legal)
    if has_deal and "accept" in by_type:
        ga, gp = deal_gains(view, neg.active, neg.partner, neg.active_gives, neg.partner_gives)
        mine, theirs = (ga, gp) if am_active else (gp, ga)
        if mine > 0 and _relative(mine, theirs, n) > 0.5:
            return by_type["accept"]
        if not am_active:
            return by_type.get("decline", by_type["accept"])
    # no acceptable deal on the table: propose our best if any, else give up
    if can_propose and neg.proposals < 4:
        deal = best_deal(view, me, other, active=am_active)
        if deal is not None and deal[0] > 0.5:
            current = (neg.active_gives, neg.partner_gives)
            give, get = deal[1], deal[2]
            mine_now = (give, get) if am_active else (get, give)
            if (list(mine_now[0]), list(mine_now[1])) != (list(current[0]), list(current[1])):
                return Propose(give=give, get=get)
    if "give_up" in by_type:
        return by_type["give_up"]
    if "decline" in by_type:
        return by_type["decline"]
    if "accept" in by_type:
        return by_type["accept"]
    return rng.choice(list(legal))


def weigh(view: PacapacaView, legal: Sequence[Action], rng: random.Random) -> Weighed:
    """:func:`heuristic_policy`'s move for ``(view, legal, rng)`` and why. Tags and facts
    (gains in projected points, from the seat's own view): ``"only"`` (one choice);
    ``"keep"`` (``card``, ``other``, ``gain``, ``other_gain``); ``"draw"``, ``"pile"``,
    ``"pass"`` (``draw``, ``pile``: the expected gains of drawing two and of taking the
    pile, ``None`` when not offered); ``"negotiate"`` (``partner``, ``give``, ``get``,
    ``gain``, ``base``: the best of drawing or the pile); ``"propose"`` (``give``,
    ``get``, ``gain``); ``"accept"`` / ``"decline"`` (``gain``, ``partner_gain``);
    ``"give_up"``. Raises ``ValueError`` when ``legal`` is empty."""
    action = heuristic_policy(view, legal, rng)
    me = view.viewer
    if me is None or len(legal) == 1:
        return Weighed(action, "only")
    if isinstance(action, Keep):
        mine = _all(view, me)
        base = seat_value(view, me)
        left = next((c for c in view.drawn if c != action.card), action.card)
        return Weighed(action, "keep", {
            "card": action.card, "other": left,
            "gain": seat_value(view, me, [*mine, action.card]) - base,
            "other_gain": seat_value(view, me, [*mine, left]) - base})
    neg = view.negotiation
    if neg is not None and not isinstance(action, (Draw2, TakePile, Pass)):
        other = neg.partner if me == neg.active else neg.active
        if isinstance(action, Propose):
            deal = best_deal(view, me, other, active=me == neg.active)
            gain = deal[0] if deal is not None else 0.0
            return Weighed(action, "propose", {"give": list(action.give), "get": list(action.get),
                                               "gain": gain, "partner": other}, gain)
        ga, gp = deal_gains(view, neg.active, neg.partner, neg.active_gives, neg.partner_gives)
        gain, theirs = (ga, gp) if me == neg.active else (gp, ga)
        tag = action.type if action.type in ("accept", "decline", "give_up") else "give_up"
        return Weighed(action, tag, {"gain": gain, "partner_gain": theirs, "partner": other},
                       gain)
    offered = {a.type for a in legal}
    draw = draw_value(view, me) if "draw2" in offered else None
    pile = pile_value(view, me) if "take_pile" in offered else None
    facts: dict[str, object] = {"draw": draw, "pile": pile}
    if isinstance(action, StartNegotiation):
        deal = best_deal(view, me, action.partner, active=True, min_gain=3.0)
        gain, give, get = deal if deal is not None else (0.0, [], [])
        base = max((v for v in (draw, pile) if v is not None), default=0.0)
        return Weighed(action, "negotiate", {**facts, "partner": action.partner, "give": give,
                                             "get": get, "gain": gain, "base": base},
                       gain, base)
    tag = {"draw2": "draw", "take_pile": "pile"}.get(action.type, "pass")
    value = draw if tag == "draw" else pile if tag == "pile" else 0.0
    runner = pile if tag == "draw" else draw if tag == "pile" else None
    return Weighed(action, tag, facts, value or 0.0, runner)


__all__ = [
    "weigh",
    "heuristic_policy",
    "random_policy",
    "evaluate",
    "kept_length",
    "fashion_points",
    "draw_value",
    "pile_value",
    "deal_gains",
    "best_deal",
]
