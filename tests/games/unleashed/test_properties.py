"""Property tests: random legal playouts with 2-8 players end (or reach a step cap) without
error, conserve all 128 cards, never leak a hand or the deck, and round-trip through JSON."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from bot.games.base import Event
from bot.games.unleashed.engine import UnleashedEngine
from bot.games.unleashed.models import Play, UnleashedOptions, UnleashedState, UnleashedView

E = UnleashedEngine()
STEP_CAP = 1500


def _zones(st: UnleashedState) -> list[int]:
    out = st.deck + st.discard + st.nursery + [i.card for i in st.stack]
    for s in st.seats:
        out += st.hands[s] + st.fields[s]
    return out


def _view_ids(v: UnleashedView) -> set[int]:
    ids = {c.id for c in v.hand or []} | {c.id for c in v.discard} | {c.id for c in v.nursery}
    ids |= {i.card.id for i in v.stack}
    for f in v.fields.values():
        ids |= {c.id for c in f.animals + f.upgrades + f.downgrades}
    return ids


def _check_views(st: UnleashedState) -> None:
    for viewer in [None, *st.seats]:
        v = E.view(st, viewer)
        secret = set(st.deck)
        for s in st.seats:
            if s != viewer:
                secret |= set(st.hands[s])
        assert not (_view_ids(v) & secret)
        if viewer is None:
            assert v.hand is None and v.choice is None
        if v.choice is not None:
            assert st.choice is not None and st.choice.seat == viewer
        if viewer is not None:
            assert v.hand is not None
            assert [c.id for c in v.hand] == st.hands[viewer]
        assert v.hand_sizes == {s: len(st.hands[s]) for s in st.seats}


def _check_events(before: UnleashedState, after: UnleashedState, ev: list[Event]) -> None:
    def hidden(st: UnleashedState) -> set[int]:
        out = set(st.deck)
        for s in st.seats:
            out |= set(st.hands[s])
        return out

    still_hidden = hidden(before) & hidden(after)
    for e in ev:
        # A search shows its card by the rules; a played card is face up (it may end in
        # the deck again within the same apply, e.g. under Greener Pastures' reshuffle).
        if e.to is not None or e.type in ("search", "play", "respond"):
            continue
        named = set()
        for k in ("card", "target", "saved"):
            if isinstance(e.data.get(k), int):
                named.add(e.data[k])
        named |= set(e.data.get("cards", []))
        assert not (named & still_hidden), (e.type, e.text)


def playout(n: int, seed: int, policy_seed: int, check_every: int = 1,
            open_windows: bool = False) -> UnleashedState:
    rnd = random.Random(policy_seed)
    st = E.new_game([f"p{i}" for i in range(n)], seed=seed,
                    options=UnleashedOptions(open_windows=open_windows))
    for step in range(STEP_CAP):
        if st.phase == "over":
            break
        p = E.pending(st)
        assert p.seats
        seat = rnd.choice(p.seats)
        legal = E.legal_actions(st, seat)
        assert legal
        for other in p.seats:
            assert E.legal_actions(st, other)
        # the fast validation in apply agrees with legal_actions on plays
        for s in st.seats:
            for c in st.hands[s][:3]:
                for f in (None, *st.seats[:3]):
                    play = Play(card=c, field=f)
                    assert E._legal(st, s, play) == (play in E.legal_actions(st, s))
        new, ev = E.apply(st, seat, rnd.choice(legal))
        assert new.version == st.version + 1
        zones = _zones(new)
        assert len(zones) == 128 and set(zones) == set(range(128))
        if step % check_every == 0:
            _check_views(new)
            _check_events(st, new, ev)
            assert UnleashedState.model_validate_json(new.model_dump_json()) == new
        st = new
    return st


@settings(max_examples=14, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st_.integers(2, 8), seed=st_.integers(0, 10**6), policy_seed=st_.integers(0, 10**6),
       open_windows=st_.booleans())
def test_random_playouts_are_sound(n, seed, policy_seed, open_windows):
    st = playout(n, seed, policy_seed, check_every=3, open_windows=open_windows)
    if st.phase == "over":
        r = E.result(st)
        assert r is not None and set(r.scores) == set(st.seats)
        assert len(r.winners) <= 1


def test_random_games_end():
    ended = sum(playout(2 + g % 7, g, g, check_every=50).phase == "over" for g in range(20))
    assert ended == 20


def test_replay_reproduces_the_state():
    rnd = random.Random(5)
    st = E.new_game(["a", "b", "c"], seed=77)
    log = []
    for _ in range(150):
        if st.phase == "over":
            break
        seat = rnd.choice(E.pending(st).seats)
        a = rnd.choice(E.legal_actions(st, seat))
        log.append((seat, E.parse_action(a.model_dump())))
        st, _ = E.apply(st, seat, a)
    again = E.replay(["a", "b", "c"], seed=77, options=st.options, actions=log)
    assert again == st


def test_apply_never_mutates_its_input():
    rnd = random.Random(9)
    st = E.new_game(["a", "b"], seed=4)
    for _ in range(120):
        if st.phase == "over":
            break
        seat = rnd.choice(E.pending(st).seats)
        before = st.model_dump_json()
        new, _ = E.apply(st, seat, rnd.choice(E.legal_actions(st, seat)))
        assert st.model_dump_json() == before
        st = new
