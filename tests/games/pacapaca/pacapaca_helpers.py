"""Shared helpers for the Alpaca Pacapaca tests."""

from __future__ import annotations

from collections import Counter

from bot.games.pacapaca.cards import catalog
from bot.games.pacapaca.models import Alpaca, PacapacaState


def c(kind: str, i: int = 0) -> int:
    """The id of copy ``i`` of ``kind`` (``c("mud", 3)``)."""
    k = catalog().kind(kind)
    assert 0 <= i < k.count
    return k.first_id + i


def state(
    necks: dict[str, list[int]],
    *,
    babies: dict[str, list[int]] | None = None,
    deck: list[int] | None = None,
    active: int = 0,
) -> PacapacaState:
    """A hand-made state: seats in ``necks`` order, heads 100.., bodies 200.."""
    babies = babies or {}
    seats = list(necks)
    return PacapacaState(
        seats=seats,
        seed=1,
        alpacas={
            p: Alpaca(
                head=100 + i, body=200 + i, neck=list(necks[p]), babies=list(babies.get(p, []))
            )
            for i, p in enumerate(seats)
        },
        deck=list(deck if deck is not None else [c("neck", 0), c("neck", 1), c("neck", 2)]),
        active=active,
        pool_size=60,
    )


CARD_KEYS = {
    "neck",
    "babies",
    "my_discards",
    "drawn",
    "active_gives",
    "partner_gives",
    "kept",
    "removed",
    "before",
}


def cards_in(dump: object) -> set[int]:
    """Every card id a view dump exposes (ints in card-list fields, recursively)."""
    out: set[int] = set()
    if isinstance(dump, dict):
        for k, v in dump.items():
            if k in CARD_KEYS and isinstance(v, list):
                for x in v:  # a list of card ids, or of lists of them ("before")
                    out.update([x] if isinstance(x, int) else
                               [y for y in x if isinstance(y, int)] if isinstance(x, list)
                               else [])
            elif k in CARD_KEYS and type(v) is int:  # "kept" of a discard (not a bool)
                out.add(v)
            else:
                out |= cards_in(v)
    elif isinstance(dump, list):
        for v in dump:
            out |= cards_in(v)
    return out


def all_cards(s: PacapacaState) -> Counter[int]:
    """Every card of the game's pool where it lies: deck, discard pile, drawn cards, necks
    and babies (a multiset, so a duplicated or lost card shows)."""
    cnt = Counter(s.deck)
    cnt.update(p.card for p in s.pile)
    cnt.update(s.drawn)
    for a in s.alpacas.values():
        cnt.update(a.neck)
        cnt.update(a.babies)
    return cnt
