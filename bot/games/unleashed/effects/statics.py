"""Card designs by id and the continuous effects of the cards in a Field.

A static is a :class:`~bot.games.unleashed.cards.Static` printed on a card; it applies
while the card is in a Field (RULES.md: Llamas Unleashed, "Effects that are Triggered and
Continuous"). The queries here read them for one seat's Field: kinds, entry bans,
protection, hand limit, the Animals needed to win, Instants allowed, extra plays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.unleashed.cards import CardDesign, Static, catalog
from bot.games.unleashed.models import UnleashedState

_CARDS: list[CardDesign] = []


def card(cid: int) -> CardDesign:
    """The design of physical card ``cid``."""
    if not _CARDS:
        _CARDS.extend(catalog().cards)
    return _CARDS[cid]


def name(cid: int) -> str:
    """The printed name of card ``cid``."""
    return card(cid).name


#: Per-card tables by name (:func:`per_card`).
_TABLES: dict[str, tuple[Any, ...]] = {}


def per_card(name: str, of: Callable[[CardDesign], Any]) -> tuple[Any, ...]:
    """``of(design)`` for every physical card id, indexed by id: worked out on the first
    call under ``name`` (one ``name`` per ``of``) and kept, for what the rules read at
    every step. Bound whole, so a thread (AI seats decide in threads) never sees a table
    half built."""
    table = _TABLES.get(name)
    if table is None:
        table = _TABLES[name] = tuple(of(card(cid)) for cid in range(len(catalog().cards)))
    return table


def field_statics(st: UnleashedState, seat: str, q: str) -> list[Static]:
    """The statics of kind ``q`` of the cards in ``seat``'s Field, in Field order, then
    each card's own order (from the per-card table named ``q``)."""
    table = _TABLES.get(q)
    if table is None:
        table = per_card(q, lambda d: tuple(x for x in d.static if x.q == q))
    return [x for cid in st.fields[seat] for x in table[cid]]


def kinds(st: UnleashedState, cid: int, seat: str | None) -> list[str]:
    """The kinds card ``cid`` has in ``seat``'s Field (``kind_override`` applies to Animals
    there); a card not in a Field has its printed kind."""
    d = card(cid)
    if d.kind is None:
        return []
    if seat is not None and d.is_animal:
        for s in field_statics(st, seat, "kind_override"):
            if s.kind:
                return [s.kind]
    return [d.kind]


def can_enter(st: UnleashedState, cid: int, seat: str) -> bool:
    """Whether ``cid`` may enter ``seat``'s Field (``ban_kind`` Downgrades)."""
    d = card(cid)
    if not d.is_animal:
        return d.type in ("upgrade", "downgrade")
    banned = {s.kind for s in field_statics(st, seat, "ban_kind")}
    return not banned or not (set(kinds(st, cid, seat)) & banned)


def can_be_destroyed(st: UnleashedState, cid: int, seat: str) -> bool:
    """Whether ``cid`` in ``seat``'s Field can be destroyed (``indestructible``, ``protect``,
    the Alpaca Herd shield). A Herd Bonus holds once granted, whatever other cards do
    afterwards (rulebook, Herd Bonus): the shield covers an Animal of the shielded kind as
    printed even when a card (Goat Costume) makes it count as another kind now."""
    d = card(cid)
    if any(s.q == "indestructible" for s in d.static):
        return False
    for s in field_statics(st, seat, "protect"):
        if d.type in s.types:
            return False
    shielded = st.shields.get(seat)
    if not shielded or not d.is_animal:
        return True
    return d.kind not in shielded and not set(kinds(st, cid, seat)) & set(shielded)


def hand_limit(st: UnleashedState, seat: str) -> int:
    """Hand limit: 7 plus ``hand_limit`` statics in the seat's Field, never below 0."""
    return max(0, 7 + sum(s.v for s in field_statics(st, seat, "hand_limit")))


def base_to_win(st: UnleashedState) -> int:
    """7 Animals with 2-5 players, 6 with 6-8 (rulebook, The Game Ends)."""
    return 7 if len(st.seats) <= 5 else 6


def _animal_value(d: CardDesign) -> int:
    """What card ``d`` adds to the Animal count in a Field: an Animal 1, or its first
    ``animal_value`` static; other cards 0."""
    vals = [s.v for s in d.static if s.q == "animal_value"]
    return (vals[0] if vals else 1) if d.is_animal else 0


def animals_to_win(st: UnleashedState, seat: str) -> int:
    """Animals ``seat`` needs: the base plus ``win`` statics in their Field."""
    return base_to_win(st) + sum(s.v for s in field_statics(st, seat, "win"))


def animal_count(st: UnleashedState, seat: str) -> int:
    """Animals in ``seat``'s Field; a card with ``animal_value`` counts that many."""
    value = per_card("animal value", _animal_value)
    return sum([value[c] for c in st.fields[seat]])


def _instant_stops(d: CardDesign) -> tuple[bool, bool]:
    mine = others = False
    for s in d.static:
        if s.q == "no_instants":
            if s.scope == "you":
                mine = True
            else:
                others = True
    return mine, others


def instant_stops_table() -> tuple[tuple[bool, bool], ...]:
    """:func:`instant_stops` of every physical card id, indexed by id."""
    return per_card("instant stops", _instant_stops)


def instant_stops(cid: int) -> tuple[bool, bool]:
    """(stops its owner, stops everyone else): whether card ``cid`` carries a
    ``no_instants`` static of scope you, and one of another scope (in a Field)."""
    return instant_stops_table()[cid]


def may_play_instants(st: UnleashedState, seat: str) -> bool:
    """False when a ``no_instants`` static in the seat's own Field (scope you) or in any
    other Field (scope others) forbids it (:func:`instant_stops`)."""
    for owner in st.seats:
        for cid in st.fields[owner]:
            mine, others = instant_stops(cid)
            if mine if owner == seat else others:
                return False
    return True


def extra_plays(st: UnleashedState, seat: str) -> int:
    """Extra plays per Action phase from ``extra_plays`` statics."""
    return sum(s.v for s in field_statics(st, seat, "extra_plays"))


def skips_draw(st: UnleashedState, seat: str) -> bool:
    """True when a ``skip_draw`` static makes the seat skip the Draw phase."""
    return bool(field_statics(st, seat, "skip_draw"))


def herd_kinds(st: UnleashedState, seat: str) -> list[str]:
    """Kinds with at least the Herd size of Animals in the seat's Field (counted by kind as
    the cards count now; each Animal card counts once here)."""
    size = catalog().card_set.herd.size
    counts: dict[str, int] = {}
    for cid in st.fields[seat]:
        if card(cid).is_animal:
            for k in kinds(st, cid, seat):
                counts[k] = counts.get(k, 0) + 1
    return [k for k in ("llama", "alpaca", "goat", "ram") if counts.get(k, 0) >= size]


