"""What an Alpaca Pacapaca alpaca is worth to the Hard seat, cached by kind counts.

The Normal heuristic's projected points (``bot.ai.pacapaca``: fashion points, neck-length
points against the other alpacas, a little for length) depend only on how many cards of
each kind an alpaca holds, so the values here are cached by that signature
(:func:`_sig`): alpacas holding other copies of the same kinds share their entries. The
floats are the heuristic's own (the same sums in the same order).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from bot.ai.pacapaca import fashion_points_of, kept_length_of
from bot.games.pacapaca.cards import catalog, kind_table
from bot.games.pacapaca.models import Alpaca, PacapacaState, PacapacaView
from bot.games.pacapaca.scoring import length_points


def _kinds() -> tuple[tuple[str, int, int, bool], ...]:
    """(kind, copies, first card id, is a baby) of every kind."""
    return tuple((k.kind, k.count, k.first_id, k.group == "baby") for k in catalog().kinds)


#: (kind, copies, first card id, is a baby) of every kind, in the catalogue's order.
KINDS = _kinds()
#: Card id -> its kind.
KIND_OF = kind_table()
#: Kind -> its index in :data:`KINDS`.
KIND_INDEX = {k: i for i, (k, *_) in enumerate(KINDS)}
#: Card id -> its kind's index in :data:`KINDS`.
_KIND_POS = {c: KIND_INDEX[k] for c, k in KIND_OF.items()}
_KIND_NAMES = tuple(k for k, *_ in KINDS)


#: The caches below are small: they serve mostly within one decision, and bigger ones cost
#: memory and garbage-collection time.
@lru_cache(maxsize=16384)
def _sig(cards: tuple[int, ...]) -> tuple[int, ...]:
    """How many cards of each kind of :data:`KINDS` are among ``cards`` (cached). What
    an alpaca is worth depends on nothing else, so the caches below are keyed by it:
    alpacas holding other copies of the same kinds share their entries."""
    counts = [0] * len(KINDS)
    pos = _KIND_POS
    for c in cards:
        counts[pos[c]] += 1
    return tuple(counts)


def _kind_counts(sig: tuple[int, ...]) -> dict[str, int]:
    """Kind -> copies (every kind a key) for the kind counts ``sig``."""
    return dict(zip(_KIND_NAMES, sig, strict=True))


def kept_length(cards: tuple[int, ...]) -> int:
    """:func:`bot.ai.pacapaca.kept_length` of ``cards`` (cached by kinds)."""
    return _length_sig(_sig(cards))


@lru_cache(maxsize=16384)
def _length_sig(sig: tuple[int, ...]) -> int:
    return kept_length_of(_kind_counts(sig))


def alpaca_value(cards: tuple[int, ...], others: tuple[int, ...], hope: float) -> float:
    """The Normal heuristic's projected points of an alpaca with ``cards`` against the
    other alpacas' kept lengths ``others`` (sorted; cached by kinds)."""
    return _value_sig(_sig(cards), others, hope)


def _value_sig(sig: tuple[int, ...], others: tuple[int, ...], hope: float) -> float:
    """:func:`bot.ai.pacapaca.evaluate` of an alpaca with the kinds ``sig`` (the same
    sum in the same order, so the same float), from cached parts."""
    length = _length_sig(sig)
    return _fashion_sig(sig, hope) + _length_points(length, others) + 0.15 * length


@lru_cache(maxsize=16384)
def _fashion_sig(sig: tuple[int, ...], hope: float) -> float:
    return fashion_points_of(_kind_counts(sig), hope)


@lru_cache(maxsize=16384)
def _length_points(length: int, others: tuple[int, ...]) -> int:
    """Neck-length points of a neck of kept ``length`` against the ``others``."""
    return length_points({"@me": length, **{f"o{i}": n for i, n in enumerate(others)}})["@me"]


def deal_gains(view: PacapacaView, active: str, partner: str,
               active_gives: Sequence[int], partner_gives: Sequence[int]
               ) -> tuple[float, float]:
    """:func:`bot.ai.pacapaca.deal_gains` (the same floats) from the caches keyed by
    kinds: (active's gain, partner's gain) in projected value if the deal ran."""
    hope = hope_n(view.deck_size, len(view.seats))
    cards = {a.seat: (*a.neck, *a.babies) for a in view.alpacas}
    lengths = {s: kept_length(c) for s, c in cards.items()}
    gives = set(active_gives)
    takes = set(partner_gives)
    a1 = (*(c for c in cards[active] if c not in gives), *partner_gives)
    p1 = (*(c for c in cards[partner] if c not in takes), *active_gives)
    after = {**lengths, active: kept_length(a1), partner: kept_length(p1)}

    def value(seat: str, mine: tuple[int, ...], lens: dict[str, int]) -> float:
        others = tuple(sorted(n for s, n in lens.items() if s != seat))
        return alpaca_value(mine, others, hope)

    ga = value(active, a1, after) - value(active, cards[active], lengths)
    gp = value(partner, p1, after) - value(partner, cards[partner], lengths)
    return ga, gp


def hope_n(deck: int, seats: int) -> float:
    """The Normal heuristic's ``hope`` (0..1) with ``deck`` cards left for ``seats``
    players: shrinks as the deck runs out."""
    return max(0.0, min(1.0, deck / (2 * max(1, seats)) / 4))


def state_hope(state: PacapacaState) -> float:
    """:func:`hope_n` of ``state``."""
    return hope_n(len(state.deck), len(state.seats))


def alpaca_cards(a: Alpaca) -> tuple[int, ...]:
    """The neck cards and babies of ``a``, sorted."""
    return tuple(sorted((*a.neck, *a.babies)))


def seat_value(state: PacapacaState, seat: str, add: Sequence[int] = ()) -> float:
    """:func:`alpaca_value` of ``seat``'s alpaca in ``state``, with the cards ``add``
    added, against the other alpacas."""
    others = tuple(sorted(kept_length(alpaca_cards(a))
                          for s, a in state.alpacas.items() if s != seat))
    mine = alpaca_cards(state.alpacas[seat])
    if add:
        mine = tuple(sorted((*mine, *add)))
    return alpaca_value(mine, others, round(state_hope(state), 2))


def kind_gains(mine: tuple[int, ...], others: tuple[int, ...], hope: float
               ) -> tuple[float, ...]:
    """Per kind of :data:`KINDS`: what one more card of it adds to ``mine``'s value."""
    return _kind_gains_sig(_sig(mine), others, hope)


@lru_cache(maxsize=4096)
def _kind_gains_sig(sig: tuple[int, ...], others: tuple[int, ...], hope: float
                    ) -> tuple[float, ...]:
    base = _value_sig(sig, others, hope)
    return tuple(_value_sig((*sig[:i], sig[i] + 1, *sig[i + 1:]), others, hope) - base
                 for i in range(len(sig)))

