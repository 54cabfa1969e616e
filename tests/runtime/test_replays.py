"""Replays from the store: every step's state is the engine's replay of the log up to it
(kept states every CHECKPOINT_EVERY steps), batches follow the stored times, and a log
that no longer plays to the stored end is refused in a sentence."""

from __future__ import annotations

import pytest

from bot.games.takeback import replay_log, taken_back
from bot.runtime import GameService
from bot.runtime.replays import CHECKPOINT_EVERY, ReplayRefused, open_replay
from tests.support.tinygame import tiny_registry


async def long_game(store, clock) -> tuple[GameService, int]:
    """A finished tiny game of 2 seats played through the service: 70 waits and their
    ends, then the adds; the clock moves a second between moves."""
    service = GameService(store, tiny_registry(), clock=clock)
    lobby = await service.create_lobby("tiny", guild_id=1, channel_id=2, host_id=10,
                                       host_name="Ana", seed=7, options={"turn_timer": "off"})
    gid = lobby.record.id
    await service.join(gid, 11, "Bo")
    await service.start(gid, 10)
    moves = 0
    while (record := await service.get(gid)).status == "active":
        _, _, spec, state = await service.load(gid)
        seat = spec.engine.pending(state).seats[0]
        legal = spec.engine.legal_actions(state, seat)
        action = next((a for a in legal if a.type in ("wait", "stop_waiting")), legal[0]) \
            if moves < 140 else next(a for a in legal if a.type in ("add", "stop_waiting"))
        await service.act(gid, seat, action, expected_version=record.version)
        clock.advance(1)
        moves += 1
    return service, gid


async def test_every_step_is_the_engine_replay_up_to_it(store, clock):
    service, gid = await long_game(store, clock)
    replay = await open_replay(service, gid, 1)
    record = await service.get(gid)
    assert replay.last == record.version > 140
    engine = replay.spec.engine
    seats = [s.seat for s in replay.seats]
    for step in (replay.last, 0, 1, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY,
                 CHECKPOINT_EVERY + 1, 100, 3, replay.last - 1):
        expected = engine.replay(seats, seed=record.seed, options=replay.options,
                                 actions=[(m.seat, m.action) for m in replay.moves[:step]])
        assert replay.state_at(step).model_dump() == expected.model_dump(), step
    assert sorted(replay.kept) == list(range(0, replay.last + 1, CHECKPOINT_EVERY))
    assert replay.checked
    # one move per batch here (the clock moved between them); a turn is a seat's
    turns = replay.turn_starts(lambda st: st.turn_count)
    expected = [0] + [n for n in range(1, replay.last + 1)
                      if replay.state_at(n).turn_count != replay.state_at(n - 1).turn_count
                      or n == replay.last]
    assert turns == expected and 30 < len(turns) < replay.last
    assert replay.batch_events(0) is None
    assert [e.text for e in replay.batch_events(1)] == ["s0 starts a 30 second wait."]


async def test_refusals(store, clock):
    service, gid = await long_game(store, clock)
    with pytest.raises(ReplayRefused, match="^no_game: There is no game #1 in this server.$"):
        await open_replay(service, gid, 2)
    with pytest.raises(ReplayRefused, match="^no_game: There is no game #9 in this server.$"):
        await open_replay(service, 9, 1)
    replay = await open_replay(service, gid, 1)
    replay.moves.pop()  # a log that does not reach the stored end
    with pytest.raises(ReplayRefused, match="moves no longer play as they were played"):
        replay.state_at(replay.last)


async def test_a_take_back_in_the_log_restores_the_state_before_the_move(store, clock):
    """s0 adds 1, takes it back (version 2 is the deal's state again), then the game plays
    on to its end: each step is :func:`bot.games.takeback.replay_log`'s state."""
    service = GameService(store, tiny_registry(), clock=clock)
    lobby = await service.create_lobby("tiny", guild_id=1, channel_id=2, host_id=10,
                                       host_name="Ana", seed=7, options={"turn_timer": "off",
                                                                          "target": 3})
    gid = lobby.record.id
    await service.join(gid, 11, "Bo")
    await service.start(gid, 10)
    _, _, spec, first = await service.load(gid)
    engine = spec.engine
    rows = [("s0", {"type": "add", "n": 1}), ("s0", {"type": "take_back", "version": 1}),
            ("s0", {"type": "add", "n": 2}), ("s1", {"type": "add", "n": 2})]
    history = replay_log(engine, first, rows)
    moves = [(v, seat, action, []) for v, (seat, action) in enumerate(rows, start=1)]
    await store.commit_moves(gid, expected_version=0, state=history[4].model_dump_json(),
                             moves=moves, status="finished")
    replay = await open_replay(service, gid, 1)
    assert replay.last == 4
    for step in (4, 0, 1, 2, 3):
        assert replay.state_at(step).model_dump() == history[step].model_dump(), step
    assert replay.state_at(2).model_dump() == taken_back(first, 2).model_dump()
    assert replay.checked
