"""The playout path of the engine contract (``bot/games/base.py``): ``play`` carries out
an action in place without events, ``fork`` gives a state ``play`` may change. Both must
agree exactly with ``apply``, for every game (Llamas Unleashed uses the base ``play``).
Refusals on both paths are covered action by action in ``tests/faults/test_fuzz_engines``.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Literal

import pytest
from pydantic import ValidationError

from bench.engine import new_state, playout, playout_apply
from bot.app import builtin_games
from bot.games.base import (
    SYSTEM_SEAT,
    IllegalAction,
    Pending,
    PlainGameState,
    PlainState,
    Timeout,
)
from bot.games.llamas_alpacas.models import Move, Take

SPECS = {spec.key: spec for spec in builtin_games()}
CASES = [
    (key, players, seed)
    for key, spec in sorted(SPECS.items())
    for players in sorted({spec.min_players, spec.max_players})
    for seed in (3, 11)
]


def _choose(engine, state, rand):
    for seat in engine.pending(state).seats:
        legal = engine.legal_actions(state, seat)
        if legal:
            return seat, rand.choice(legal)
    raise AssertionError("a running game always has a seat with a legal action")


@pytest.mark.parametrize(("key", "players", "seed"), CASES)
def test_play_in_place_matches_apply_step_by_step(key, players, seed):
    """``play``, ``play_legal`` and ``apply_legal`` reach what ``apply`` reaches, step by
    step, events included."""
    spec = SPECS[key]
    engine = spec.engine
    by_apply = new_state(spec, players, seed)
    by_play = engine.fork(by_apply)
    by_legal = engine.fork(by_apply)  # play_legal: the same step, without the check
    rand = random.Random(seed)
    log = []
    steps = 0
    while engine.result(by_apply) is None and steps < 3000:
        seat, action = _choose(engine, by_apply, rand)
        before = by_apply.model_dump()
        checked_free, free_events = engine.apply_legal(by_apply, seat, action)
        by_apply, events = engine.apply(by_apply, seat, action)
        assert checked_free.model_dump() == by_apply.model_dump()
        assert free_events == events
        engine.play(by_play, seat, action)
        engine.play_legal(by_legal, seat, action)
        log.append((seat, action))
        steps += 1
        assert by_play.model_dump() == by_apply.model_dump() == by_legal.model_dump()
        assert by_play.version == before["version"] + 1
    assert engine.result(by_apply) is not None, "the random game ended"
    assert engine.result(by_play) == engine.result(by_apply)
    # The in-place state is a valid state: it survives a JSON round trip and replays.
    assert engine.load_state(by_play.model_dump_json()) == by_play
    seats = list(by_apply.seats)
    replayed = engine.replay(seats, seed=seed, options=by_apply_options(spec, players),
                             actions=log)
    assert replayed.model_dump() == by_play.model_dump()


def test_which_engines_let_only_the_deciding_seats_act():
    assert {key: spec.engine.only_pending_act for key, spec in SPECS.items()} == {
        "llamas-alpacas": True, "pacapaca": False, "llamas-unleashed": True}


@pytest.mark.parametrize(("key", "players", "seed"),
                         [c for c in CASES if SPECS[c[0]].engine.only_pending_act])
def test_a_seat_not_deciding_has_no_legal_action(key, players, seed):
    """With ``only_pending_act``, ``legal_actions`` is empty for every seat not in
    ``pending(state).seats``, at every step of a random game (the Discord tables skip
    asking for those seats)."""
    spec = SPECS[key]
    engine = spec.engine
    state = new_state(spec, players, seed)
    rand = random.Random(seed)
    checked = 0
    while engine.result(state) is None and checked < 3000:
        deciding = set(engine.pending(state).seats)
        for seat in state.seats:
            if seat not in deciding:
                assert engine.legal_actions(state, seat) == []
        seat, action = _choose(engine, state, rand)
        state, _ = engine.apply(state, seat, action)
        checked += 1
    assert engine.result(state) is not None
    assert all(engine.legal_actions(state, s) == [] for s in state.seats)


def by_apply_options(spec, players):
    fields = spec.options_model.model_fields
    return spec.options_model.model_validate({"players": players} if "players" in fields else {})


@pytest.mark.parametrize("key", sorted(SPECS))
def test_fork_is_independent_of_the_original(key):
    spec = SPECS[key]
    engine = spec.engine
    state = new_state(spec, spec.min_players, 5)
    rand = random.Random(5)
    for _ in range(8):  # some way into the game, through apply (structure is shared)
        if engine.result(state) is not None:
            break
        state, _ = engine.apply(state, *_choose(engine, state, rand))
    assert engine.result(state) is None, "pick a seed whose game is still running"
    before = state.model_dump()
    mine = engine.fork(state)
    for _ in range(40):
        if engine.result(mine) is not None:
            break
        engine.play(mine, *_choose(engine, mine, rand))
    assert state.model_dump() == before
    assert mine.version > state.version


def test_llamas_alpacas_take_in_place_leaves_the_fork_source_untouched():
    """Taking pays treats onto earlier row cards; those slots are replaced in the playing
    state, never changed in place, so a state forked from it keeps its treats."""
    spec = SPECS["llamas-alpacas"]
    engine = spec.engine
    state = new_state(spec, 2, 1)
    for seat in state.seats:
        engine.play(state, seat, engine.legal_actions(state, seat)[0])
    active = state.seats[state.active]
    copy = engine.fork(state)
    engine.play(copy, active, Take(position=3))
    assert [(r.clovers, r.carrots) for r in state.row[:2]] == [(0, 0), (0, 0)]
    assert sum(r.clovers + r.carrots for r in copy.row) == 2  # two skipped cards, one treat each
    assert state.players[state.active].clovers + state.players[state.active].carrots == 6


def test_play_refuses_and_changes_nothing():
    spec = SPECS["llamas-alpacas"]
    engine = spec.engine
    state = new_state(spec, 2, 1)
    before = state.model_dump()
    with pytest.raises(IllegalAction) as info:
        engine.play(state, state.seats[0], Move(src=0, dst=1))  # set-up: place first
    assert info.value.code == "wrong_step"
    with pytest.raises(IllegalAction) as info:
        engine.play(state, SYSTEM_SEAT, Take(position=1))
    assert info.value.code == "not_in_game"
    assert state.model_dump() == before


@pytest.mark.parametrize("key", sorted(SPECS))
def test_bench_playout_paths_play_the_same_game(key):
    spec = SPECS[key]
    times: list[float] = []
    assert playout(spec, spec.min_players, 7) == playout_apply(spec, spec.min_players, 7, times)
    steps, finished = playout(spec, spec.min_players, 7)
    assert finished and steps == len(times) > 0


def test_pending_is_a_plain_state_with_the_pydantic_round_trip():
    timeout = Timeout(seat=SYSTEM_SEAT, action={"type": "negotiation_timeout"})
    p = Pending(seats=["s0", "s1"], kind="negotiation", key="neg:4", seconds=60.0,
                timeouts=[timeout])
    assert p.model_dump() == {
        "seats": ["s0", "s1"], "kind": "negotiation", "key": "neg:4", "seconds": 60.0,
        "timeouts": [{"seat": SYSTEM_SEAT, "action": {"type": "negotiation_timeout"}}],
    }
    assert Pending.model_validate_json(p.model_dump_json()) == p
    assert Pending(seats=["s0"]) == Pending(seats=["s0"], kind="turn", key="", seconds=None,
                                            timeouts=[])
    assert Pending(seats=["s0"]).timeouts is not Pending(seats=["s0"]).timeouts


@dataclasses.dataclass(slots=True, kw_only=True)
class _Part(PlainState):
    name: str
    cards: list[int] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(slots=True, kw_only=True)
class _Whole(PlainGameState):
    parts: dict[str, _Part] = dataclasses.field(default_factory=dict)
    mode: Literal["a", "b"] = "a"


@dataclasses.dataclass(slots=True, kw_only=True, frozen=True)
class _Slot(PlainState):
    card: int


def test_plain_state_loads_validated_and_refuses_what_does_not_fit():
    whole = _Whole(seats=["s0"], seed=9, parts={"x": _Part(name="x", cards=[3, 1])})
    text = whole.model_dump_json()
    assert text == ('{"seats":["s0"],"seed":9,"rng_calls":0,"version":0,'
                    '"parts":{"x":{"name":"x","cards":[3,1]}},"mode":"a"}')
    loaded = _Whole.model_validate_json(text)
    assert loaded == whole and type(loaded.parts["x"]) is _Part
    for bad in (text.replace('"mode":"a"', '"mode":"c"'),             # not a Literal value
                text.replace('"cards":[3,1]', '"cards":[3,"one"]'),  # not an int
                text.replace('"mode":"a"', '"mode":"a","extra":1'),  # unknown field
                text.replace('"seed":9,', '')):                      # missing field
        with pytest.raises(ValidationError):
            _Whole.model_validate_json(bad)


def test_plain_state_copies():
    whole = _Whole(seats=["s0"], seed=9, parts={"x": _Part(name="x", cards=[3])})
    deep = whole.model_copy(deep=True)
    deep.parts["x"].cards.append(4)
    deep.seats.append("s1")
    assert whole.parts["x"].cards == [3] and whole.seats == ["s0"]
    shallow = whole.model_copy(update={"mode": "b"})
    assert shallow.mode == "b" and whole.mode == "a" and shallow.parts is whole.parts
    deep_b = whole.model_copy(update={"mode": "b"}, deep=True)
    assert deep_b.mode == "b" and deep_b.parts == whole.parts and deep_b.parts is not whole.parts
    with pytest.raises(TypeError):  # not a field
        whole.model_copy(update={"nosuch": 1})
    slot = _Slot(card=1)
    assert slot.model_copy(update={"card": 2}) == _Slot(card=2) and slot.card == 1  # frozen
    with pytest.raises(AttributeError):  # slotted: a misspelt field is refused
        whole.mdoe = "b"  # type: ignore[attr-defined]


@pytest.mark.parametrize("key", sorted(SPECS))
def test_apply_input_and_output_can_both_be_played_on(key):
    """``apply`` shares only parts no step changes in place, so playing on its input never
    reaches its output, nor the other way round (a search keeping child states relies on
    it). Found by a review: Llamas & Alpacas once shared the other players' boards."""
    spec = SPECS[key]
    engine = spec.engine
    rand = random.Random(2)
    for seed in range(6):
        s0 = new_state(spec, spec.min_players, seed)
        for _ in range(rand.randrange(0, 6)):
            if engine.result(s0) is not None:
                break
            s0, _ = engine.apply(s0, *_choose(engine, s0, rand))
        if engine.result(s0) is not None:
            continue
        s1, _ = engine.apply(s0, *_choose(engine, s0, rand))
        dump0, dump1 = s0.model_dump(), s1.model_dump()
        for _ in range(12):  # play on the input: the output stays
            if engine.result(s0) is not None:
                break
            engine.play(s0, *_choose(engine, s0, rand))
        assert s1.model_dump() == dump1
        s0b = engine.fork(s0)
        for _ in range(12):  # play on the output: the (played) input stays
            if engine.result(s1) is not None:
                break
            engine.play(s1, *_choose(engine, s1, rand))
        assert s0.model_dump() == s0b.model_dump()
        assert dump0 != s0.model_dump() or engine.result(s0) is not None


def test_llamas_alpacas_review_repro_other_players_board():
    spec = SPECS["llamas-alpacas"]
    engine = spec.engine
    s0 = engine.new_game(["s0", "s1"], seed=1)
    from bot.games.llamas_alpacas.models import Place

    s1, _ = engine.apply(s0, "s0", Place(space=0))
    engine.play(s0, "s1", Place(space=4))
    assert s1.players[1].board[4] is None
    assert s0.players[1].board[4] is not None


def test_pacapaca_play_takes_the_same_action_forms_as_apply():
    spec = SPECS["pacapaca"]
    engine = spec.engine
    state = new_state(spec, 2, 4)
    seat = state.seats[state.active]
    by_apply, _ = engine.apply(state, seat, {"type": "draw2"})
    engine.play(state, seat, '{"type": "draw2"}')
    assert state.model_dump() == by_apply.model_dump()


def test_pacapaca_shared_legal_actions_are_frozen():
    from pydantic import ValidationError

    spec = SPECS["pacapaca"]
    engine = spec.engine
    state = new_state(spec, 2, 4)
    for action in engine.legal_actions(state, state.seats[state.active]):
        with pytest.raises(ValidationError):
            action.type = "pass"


def test_the_default_play_works_on_plain_states_too():
    """``Engine.play``'s default (apply, then copy the fields back) on a plain state
    (Pacapaca's), compared with Pacapaca's own ``play``."""
    from bot.games.base import Engine

    spec = SPECS["pacapaca"]
    engine = spec.engine
    by_default = new_state(spec, 3, 5)
    by_engine = engine.fork(by_default)
    rand = random.Random(5)
    for _ in range(40):
        seat, action = _choose(engine, by_engine, rand)
        Engine.play(engine, by_default, seat, action)
        engine.play(by_engine, seat, action)
        assert by_default == by_engine
