"""Property tests: random legal playouts of Llamas & Alpacas (hypothesis)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import IllegalAction
from bot.games.llamas_alpacas.models import LlamasAlpacasState, Move, Place, Take
from tests.games.llamas_alpacas.la_helpers import ENGINE, all_cards, total_treats

MAX_ACTIONS = 3000


def _check_invariants(s: LlamasAlpacasState) -> None:
    cards = all_cards(s)
    assert sorted(cards) == list(range(1, 83)), "every card in exactly one place"
    assert total_treats(s) == 6 * len(s.seats)
    for p in s.players:
        assert p.clovers >= 0 and p.carrots >= 0
        if s.phase != "keep_treats":
            assert p.clovers + p.carrots <= 10
    assert len(s.row) <= 6


def _bad_actions(s: LlamasAlpacasState, seat: str, r: random.Random):
    """A few actions that are probably illegal now (checked against legal_actions)."""
    legal = ENGINE.legal_actions(s, seat)
    cands = [
        Take(position=r.randint(1, 6)),
        Move(src=r.randint(0, 8), dst=r.randint(0, 8)),
        Place(space=r.randint(0, 8)),
    ]
    return [a for a in cands if a not in legal and not (isinstance(a, Move) and a.src == a.dst)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_random_playouts_end_and_keep_invariants(seed, players):
    seats = [f"s{i}" for i in range(players)]
    s = ENGINE.new_game(seats, seed=seed)
    r = random.Random(seed)
    steps = 0
    while s.phase != "finished":
        assert steps < MAX_ACTIONS, "the playout did not end"
        pend = ENGINE.pending(s)
        assert pend.seats
        seat = r.choice(pend.seats)
        legal = ENGINE.legal_actions(s, seat)
        assert legal, "a pending seat always has an action"
        for other in seats:
            if other not in pend.seats:
                assert ENGINE.legal_actions(s, other) == []
        if steps % 7 == 0:
            for bad in _bad_actions(s, seat, r):
                before = s.model_dump_json()
                try:
                    ENGINE.apply(s, seat, bad)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{bad} was accepted but is not legal")
                assert s.model_dump_json() == before
        # Take/Move chosen by kind first so games stay short enough.
        kinds = sorted({a.type for a in legal})
        kind = r.choice(kinds)
        action = r.choice([a for a in legal if a.type == kind])
        before = s.model_dump_json()
        s2, events = ENGINE.apply(s, seat, action)
        assert s.model_dump_json() == before, "apply must not mutate its input"
        assert s2.version == s.version + 1
        assert all(e.to is None and e.text for e in events)
        s = s2
        _check_invariants(s)
        if steps % 25 == 0:
            assert LlamasAlpacasState.model_validate_json(s.model_dump_json()) == s
        steps += 1
    assert LlamasAlpacasState.model_validate_json(s.model_dump_json()) == s
    res = ENGINE.result(s)
    assert res is not None and res.winners
    assert max(res.scores.values()) >= 18
    for seat in seats:
        assert sum(x.points for x in res.breakdown[seat]) == res.scores[seat]
    # Everyone had the same number of turns.
    assert len({p.turns for p in s.players}) == 1


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), shuffle_seed=st.integers(0, 2**32), steps=st.integers(0, 60))
def test_view_hides_draw_pile_order(seed, shuffle_seed, steps):
    s = ENGINE.new_game(["s0", "s1", "s2"], seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        if s.phase == "finished":
            break
        seat = ENGINE.pending(s).seats[0]
        s, _ = ENGINE.apply(s, seat, r.choice(ENGINE.legal_actions(s, seat)))
    t = s.model_copy(deep=True)
    random.Random(shuffle_seed).shuffle(t.draw)
    for viewer in [None, "s0", "s1", "s2"]:
        v = ENGINE.view(s, viewer)
        assert v == ENGINE.view(t, viewer)
        dumped = v.model_dump_json()
        assert '"draw"' not in dumped and v.draw_count == len(s.draw)
