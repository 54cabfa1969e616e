"""Take-back points of every game (``Engine.take_back_point``) and the log replay with
take-backs (``bot.games.takeback``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bot.games.base import Engine
from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.games.llamas_alpacas.models import Keep, LlamasAlpacasOptions, Move, Place, Take
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import Draw2, PacapacaOptions, StartNegotiation, TakePile
from bot.games.pacapaca.models import Keep as PKeep
from bot.games.takeback import (
    TakeBack,
    is_take_back,
    parse_logged,
    replay_log,
    take_back_event,
    taken_back,
)
from bot.games.unleashed.engine import UnleashedEngine
from bot.games.unleashed.models import ChooseBaby, DrawCard, UnleashedOptions
from tests.games.llamas_alpacas.la_helpers import turn_state

LA, PC, UL = LlamasAlpacasEngine(), PacapacaEngine(), UnleashedEngine()


def playout(engine: Engine[Any, Any], state: Any, seed: int, steps: int) -> Counter[tuple[str, bool]]:
    """Random legal play from ``state``: how often each action type was (or was not) a
    take-back point, and (key ``("finished", True)``) whether the game ended. Rules
    deadlines run out now and then (the system seat)."""
    r = random.Random(seed)
    seen: Counter[tuple[str, bool]] = Counter()
    for _ in range(steps):
        if engine.result(state) is not None:
            seen[("finished", True)] += 1
            break
        pending = engine.pending(state)
        if pending.timeouts and r.random() < 0.1:
            timeout = pending.timeouts[0]
            state, _ = engine.apply(state, timeout.seat, engine.parse_action(timeout.action))
            continue
        seat = r.choice(pending.seats)
        legal = engine.legal_actions(state, seat)
        if not legal:
            break
        action = legal[r.randrange(len(legal))]
        after, _ = engine.apply(state, seat, action)
        point = engine.take_back_point(state, seat, action, after)
        seen[(action.type, point)] += 1
        if point:  # a take-back point never draws nor ends the game
            assert after.rng_calls == state.rng_calls
            assert engine.result(after) is None
        state = after
    return seen


# -- Llamas & Alpacas ------------------------------------------------------------------


def test_llamas_alpacas_points_in_whole_games():
    kinds: dict[tuple[str, bool], int] = Counter()
    for seed in range(6):
        state = LA.new_game(["s0", "s1", "s2"], seed=seed, options=LlamasAlpacasOptions())
        kinds.update(playout(LA, state, seed, 3000))
    # Take draws a row card: never. Place, Move, Keep: always, except the move that ends
    # the game (one per game, a Place or a Move).
    assert {k for k in kinds} <= {("take", False), ("place", True), ("place", False),
                                  ("move", True), ("move", False), ("keep", True),
                                  ("finished", True)}
    assert kinds[("finished", True)] == 6
    assert kinds[("place", False)] + kinds[("move", False)] == 6
    assert kinds[("take", True)] == 0 and kinds[("take", False)] > 0
    assert kinds[("keep", True)] > 0 and kinds[("move", True)] > 0


def test_llamas_alpacas_each_point_exactly():
    s = LA.new_game(["s0", "s1"], seed=3, options=LlamasAlpacasOptions())
    after, _ = LA.apply(s, "s0", Place(space=4))
    assert LA.take_back_point(s, "s0", Place(space=4), after) is True
    t = turn_state()
    seat = t.seats[t.active]
    took, _ = LA.apply(t, seat, Take(position=1))
    assert LA.take_back_point(t, seat, Take(position=1), took) is False
    assert len(took.draw) == len(t.draw) - 1  # the revealed refill
    space = next(i for i, c in enumerate(took.players[t.active].board) if c is None)
    placed, _ = LA.apply(took, seat, Place(space=space))
    assert LA.take_back_point(took, seat, Place(space=space), placed) is True
    t.players[t.active].board[0] = t.draw.pop()  # a card of its own to move
    move = Move(src=0, dst=1)
    moved, _ = LA.apply(t, seat, move)
    assert LA.take_back_point(t, seat, move, moved) is True
    # The same Move, had it ended the game, may not be taken back.
    ended = moved.model_copy(update={"phase": "finished"})
    assert LA.take_back_point(t, seat, move, ended) is False
    keep = Keep(clovers=5, carrots=5)
    assert LA.take_back_point(t, seat, keep, moved) is True
    drew = moved.model_copy(update={"rng_calls": moved.rng_calls + 1})
    assert LA.take_back_point(t, seat, keep, drew) is False


# -- Alpaca Pacapaca ---------------------------------------------------------------------


def test_pacapaca_points_in_whole_games():
    kinds: Counter[tuple[str, bool]] = Counter()
    for seed in range(4):
        state = PC.new_game(["s0", "s1", "s2"], seed=seed, options=PacapacaOptions())
        kinds.update(playout(PC, state, seed, 600))
    assert {k for k, point in kinds if point and k != "finished"} == {"negotiate"}
    assert kinds[("negotiate", False)] == 0
    for kind in ("draw2", "keep", "take_pile", "propose", "accept", "decline", "give_up"):
        assert kinds[(kind, True)] == 0


def test_pacapaca_each_point_exactly():
    s = PC.new_game(["s0", "s1"], seed=5, options=PacapacaOptions())
    active = s.seats[s.active]
    drew, _ = PC.apply(s, active, Draw2())
    assert PC.take_back_point(s, active, Draw2(), drew) is False
    kept, _ = PC.apply(drew, active, PKeep(card=drew.drawn[0]))
    assert PC.take_back_point(drew, active, PKeep(card=drew.drawn[0]), kept) is False
    other = kept.seats[kept.active]
    talk = StartNegotiation(partner=active)  # the first player's neck card can be traded
    opened, _ = PC.apply(kept, other, talk)
    assert PC.take_back_point(kept, other, talk, opened) is True
    took, _ = PC.apply(kept, other, TakePile())
    assert PC.take_back_point(kept, other, TakePile(), took) is False


# -- Llamas Unleashed --------------------------------------------------------------------


def test_unleashed_points_in_whole_games():
    kinds: Counter[tuple[str, bool]] = Counter()
    for seed in range(4):
        state = UL.new_game(["s0", "s1", "s2"], seed=seed, options=UnleashedOptions())
        kinds.update(playout(UL, state, seed, 300))
    assert {k for k, point in kinds if point and k != "finished"} == {"baby"}
    # 12 Babies in 4 games, one chosen by the set-up timeout; of the 11 chosen: 6 named
    # while others still chose (points), 4 the last (the deal follows), 1 at random
    assert (kinds[("baby", True)], kinds[("baby", False)]) == (6, 5)


def test_unleashed_each_point_exactly():
    s = UL.new_game(["s0", "s1"], seed=2, options=UnleashedOptions())
    baby = ChooseBaby(card=s.nursery[0])
    first, _ = UL.apply(s, "s0", baby)
    assert UL.take_back_point(s, "s0", baby, first) is True
    last = ChooseBaby(card=first.nursery[0])
    dealt, _ = UL.apply(first, "s1", last)
    assert dealt.phase != "setup"
    assert UL.take_back_point(first, "s1", last, dealt) is False
    rand, _ = UL.apply(s, "s0", ChooseBaby())
    assert UL.take_back_point(s, "s0", ChooseBaby(), rand) is False
    mover = UL.pending(dealt).seats[0]
    if any(isinstance(a, DrawCard) for a in UL.legal_actions(dealt, mover)):
        drew, _ = UL.apply(dealt, mover, DrawCard())
        assert UL.take_back_point(dealt, mover, DrawCard(), drew) is False


# -- the log ------------------------------------------------------------------------------


def test_replay_log_restores_the_state_before_at_the_next_version():
    s0 = LA.new_game(["s0", "s1"], seed=8, options=LlamasAlpacasOptions())
    rows: list[tuple[str, dict[str, Any]]] = [
        ("s0", Place(space=4).model_dump()),
        ("s1", Place(space=0).model_dump()),
        ("s1", TakeBack(version=2).model_dump()),
        ("s1", Place(space=8).model_dump()),
    ]
    history = replay_log(LA, s0, rows)
    assert sorted(history) == [0, 1, 2, 3, 4]
    assert history[3].model_dump() == {**history[1].model_dump(), "version": 3}
    assert history[3] is not history[1]
    assert history[4].players[1].board[8] is not None
    assert history[4].players[1].board[0] is None
    again = replay_log(LA, s0, rows)
    assert again[4].model_dump_json() == history[4].model_dump_json()


def test_logged_take_back_parses_and_tells():
    raw = TakeBack(version=7).model_dump()
    assert raw == {"type": "take_back", "version": 7}
    assert is_take_back(raw) and not is_take_back({"type": "place", "space": 1})
    assert parse_logged(LA, raw) == TakeBack(version=7)
    assert parse_logged(LA, {"type": "place", "space": 1}) == Place(space=1)
    event = take_back_event("s1", 7)
    assert (event.type, event.text, event.to, event.data) == (
        "took_back", "s1 took back their last move, with the table's consent.", None,
        {"seat": "s1", "version": 7})
    s = LA.new_game(["s0", "s1"], seed=1, options=LlamasAlpacasOptions())
    assert taken_back(s, 9).version == 9 and s.version == 0


def test_a_take_back_of_a_version_never_reached_is_refused():
    s0 = LA.new_game(["s0", "s1"], seed=8, options=LlamasAlpacasOptions())
    with pytest.raises(KeyError):
        replay_log(LA, s0, [("s0", TakeBack(version=5).model_dump())])
