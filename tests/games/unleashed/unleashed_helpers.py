"""Builders for Llamas Unleashed tests: place named cards in zones of a fresh state."""

from __future__ import annotations

from bot.games.base import Event
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.engine import UnleashedEngine
from bot.games.unleashed.models import Choose, DrawCard, Play, UnleashedState

E = UnleashedEngine()


def build(
    n: int = 2,
    *,
    hands: dict[str, list[str]] | None = None,
    fields: dict[str, list[str]] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    active: str = "s0",
    phase: str = "action",
    seed: int = 1,
    deck_rest: bool = True,
    plays: int = 2,
) -> UnleashedState:
    """A state in ``phase`` with the named cards placed (design keys). ``deck`` lists the
    top cards, top first; every other deck card lies under them (Instants lowest, so
    nobody draws one by accident) (unless ``deck_rest`` is
    False, then they go to the discard pile bottom). Unused Babies stay in the Nursery.
    ``plays``: plays left in the Action phase (2 keeps the turn in the Action phase after
    one card resolves, so a test sees only that card's effect)."""
    cat = catalog()
    used: set[int] = set()

    def take(key: str) -> int:
        for cid in cat.ids_of(key):
            if cid not in used:
                used.add(cid)
                return cid
        raise ValueError(f"no free copy of {key}")

    seats = [f"s{i}" for i in range(n)]
    st = E.new_game(seats, seed=seed)
    st.hands = {s: [take(k) for k in (hands or {}).get(s, [])] for s in seats}
    st.fields = {s: [take(k) for k in (fields or {}).get(s, [])] for s in seats}
    st.discard = [take(k) for k in discard or []]
    top = [take(k) for k in deck or []]
    rest = [c for c in cat.deck_ids if c not in used]
    rest.sort(key=lambda c: cat[c].type != "instant")  # Instants at the bottom
    if deck_rest:
        st.deck = rest + list(reversed(top))
    else:
        st.deck = list(reversed(top))
        st.discard = rest + st.discard
    st.nursery = [c for c in cat.nursery_ids if c not in used]
    st.babies_chosen = list(seats)
    st.phase = phase  # type: ignore[assignment]
    st.active = active
    st.turn = 1
    st.start_done = phase != "start"
    st.plays_left = plays if phase == "action" else 0
    return st


def ids(st: UnleashedState, key: str) -> list[int]:
    """Physical ids of design ``key`` (all copies)."""
    return catalog().ids_of(key)


def find(st: UnleashedState, key: str, zone: list[int]) -> int:
    """The id of a ``key`` card in ``zone``. Raises ``ValueError``."""
    for c in zone:
        if catalog()[c].key == key:
            return c
    raise ValueError(f"{key} not in zone")


def keys(zone: list[int]) -> list[str]:
    """Design keys of the cards in ``zone`` (in order)."""
    return [catalog()[c].key for c in zone]


def act(st: UnleashedState, seat: str, action) -> tuple[UnleashedState, list[Event]]:
    """Apply and also check the JSON round trip of the result."""
    new, ev = E.apply(st, seat, action)
    assert UnleashedState.model_validate_json(new.model_dump_json()) == new
    return new, ev


def play(st: UnleashedState, seat: str, key: str, field: str | None = None):
    """Play the ``key`` card from ``seat``'s hand (into ``field`` for Field cards)."""
    cid = find(st, key, st.hands[seat])
    if field is None and catalog()[cid].type != "magic":
        field = seat
    return act(st, seat, Play(card=cid, field=field))


def pick(st: UnleashedState, value: str):
    """Answer the pending choice with the option whose value is ``value`` ("yes", "c12",
    "ss1", "o0", "done")."""
    assert st.choice is not None, "no pending choice"
    values = [o.value for o in st.choice.options]
    assert value in values, f"{value} not in {values}"
    return act(st, st.choice.seat, Choose(option=values.index(value)))


def pick_key(st: UnleashedState, key: str):
    """Answer the pending choice with the first option naming a ``key`` card."""
    assert st.choice is not None
    for o in st.choice.options:
        if o.card is not None and catalog()[o.card].key == key:
            return pick(st, o.value)
    raise AssertionError(f"{key} not offered: {[o.label for o in st.choice.options]}")


def total(st: UnleashedState) -> int:
    """Cards across every zone (must always be 128)."""
    n = len(st.deck) + len(st.discard) + len(st.nursery) + len(st.stack)
    return n + sum(map(len, st.hands.values())) + sum(map(len, st.fields.values()))


def pass_turn(st: UnleashedState, seat: str = "s1") -> UnleashedState:
    """``seat`` (active, in its Action phase with one play) draws; the next turn begins."""
    st, _ = act(st, seat, DrawCard())
    return st
