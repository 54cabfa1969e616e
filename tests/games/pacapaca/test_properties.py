"""Property tests: random legal playouts end, never raise, conserve cards, round-trip
through JSON, replay exactly and never leak hidden cards into another seat's view."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import SYSTEM_SEAT
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import PacapacaOptions, PacapacaState
from tests.games.pacapaca.pacapaca_helpers import all_cards, cards_in

E = PacapacaEngine()
HIDDEN_KEYS = ("card", "cards", "active_gives", "partner_gives")


def public_cards(s: PacapacaState) -> set[int]:
    return {c for a in s.alpacas.values() for c in [*a.neck, *a.babies]}


def check_views(s: PacapacaState) -> None:
    public = public_cards(s)
    active = s.seats[s.active] if s.phase != "finished" else None
    for viewer in [None, *s.seats]:
        seen = cards_in(E.view(s, viewer).model_dump())
        own = {p.card for p in s.pile if p.by == viewer}
        if viewer is not None and viewer == active:
            own |= set(s.drawn)
        assert seen == public | own, (viewer, seen - public - own)


def playout(seed: int, n: int, babies: bool, *, check_every: int = 1):
    r = random.Random(seed)
    seats = [f"p{i}" for i in range(n)]
    s = E.new_game(seats, seed=seed, options=PacapacaOptions(babies=babies))
    start = all_cards(s)
    assert sum(start.values()) == s.pool_size
    log = []
    for step in range(3000):
        if s.phase == "finished":
            break
        pend = E.pending(s)
        movers = [p for p in s.seats if E.legal_actions(s, p)]
        assert set(pend.seats) <= set(movers)
        if pend.kind == "negotiation" and r.random() < 0.05:
            seat = SYSTEM_SEAT
        else:
            seat = r.choice(pend.seats)
        legal = E.legal_actions(s, seat)
        kinds = sorted({a.type for a in legal})
        kind = r.choice(kinds)
        action = r.choice([a for a in legal if a.type == kind])
        before = s.model_dump_json()
        s2, events = E.apply(s, seat, action)
        assert s.model_dump_json() == before  # input untouched
        assert s2.version == s.version + 1
        s = s2
        log.append((seat, action))
        assert all_cards(s) == start
        pub = public_cards(s)
        for ev in events:
            if ev.to is None:
                for key in HIDDEN_KEYS:
                    val = ev.data.get(key)
                    vals = val if isinstance(val, list) else [] if val is None else [val]
                    assert set(vals) <= pub, (ev.type, key)
        if step % check_every == 0:
            assert PacapacaState.model_validate_json(s.model_dump_json()) == s
            check_views(s)
    assert s.phase == "finished", "playout did not end"
    res = E.result(s)
    assert res is not None
    assert set(res.winners) <= set(seats) and res.winners
    assert max(res.scores.values()) == res.scores[res.winners[0]]
    return s, log


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), n=st.integers(2, 6), babies=st.booleans())
def test_random_playouts(seed, n, babies):
    s, log = playout(seed, n, babies, check_every=3)
    again = E.replay(s.seats, seed=seed, options=PacapacaOptions(babies=babies), actions=log)
    assert again == s
    assert PacapacaState.model_validate_json(s.model_dump_json()) == s


def test_many_seeded_playouts_end_and_conserve():
    for seed in range(60):
        playout(seed, 2 + seed % 5, seed % 2 == 0, check_every=10)


def test_actions_round_trip_through_json():
    _, log = playout(3, 4, True, check_every=50)
    for _, a in log:
        assert E.parse_action(a.model_dump_json()) == a
        assert E.parse_action(a.model_dump()) == a
