"""GameService: lobby rules, act with version checks and one lock, AI seats, timers."""

from __future__ import annotations

import asyncio
import dataclasses
import math
import sqlite3

import pytest

from bot.runtime import GameError, GameService, Update
from tests.support.tinygame import Add


async def _lobby(service: GameService, **kw) -> int:
    up = await service.create_lobby("tiny", guild_id=1, channel_id=2, host_id=10,
                                    host_name="Ana", seed=42, **kw)
    return up.record.id


async def test_unknown_game_is_refused(service):
    with pytest.raises(GameError) as info:
        await service.create_lobby("chess", guild_id=1, channel_id=2, host_id=1, host_name="A")
    assert info.value.code == "unknown_game"


async def test_lobby_join_leave_full_and_host_rules(service):
    gid = await _lobby(service)
    await service.join(gid, 11, "Bo")
    with pytest.raises(GameError) as info:
        await service.join(gid, 11, "Bo")
    assert info.value.code == "already_joined"
    await service.join(gid, 12, "Cy")
    await service.join(gid, 13, "Di")
    with pytest.raises(GameError) as info:
        await service.join(gid, 14, "Ed")
    assert (info.value.code, info.value.message) == ("full", "This table is full (4 players).")
    up = await service.leave_lobby(gid, 12)
    assert [s.name for s in up.seats] == ["Ana", "Bo", "Di"]
    with pytest.raises(GameError) as info:
        await service.start(gid, 11)
    assert info.value.code == "not_host"
    with pytest.raises(GameError) as info:
        await service.leave_lobby(gid, 10)
    assert info.value.code == "host_leave"


async def test_double_join_applies_once(service):
    gid = await _lobby(service)
    results = await asyncio.gather(*(service.join(gid, 11, "Bo") for _ in range(10)),
                                   return_exceptions=True)
    assert sum(isinstance(r, Update) for r in results) == 1
    assert [s.user_id for s in await service.store.seats(gid)] == [10, 11]


async def test_start_needs_min_players(service):
    gid = await _lobby(service)
    with pytest.raises(GameError) as info:
        await service.start(gid, 10)
    assert (info.value.code, info.value.message) == ("too_few", "Tiny Race needs at least 2 players.")


async def test_act_checks_turn_version_and_persists(service):
    gid = await _lobby(service)
    await service.join(gid, 11, "Bo")
    up = await service.start(gid, 10)
    assert up.state.version == 0 and up.record.status == "active"
    with pytest.raises(GameError) as info:
        await service.act(gid, "s1", Add(n=1))
    assert info.value.code == "not_your_turn"
    up = await service.act(gid, "s0", Add(n=2), expected_version=0)
    assert (up.state.counter, up.state.version) == (2, 1)
    with pytest.raises(GameError) as info:
        await service.act(gid, "s1", Add(n=1), expected_version=0)
    assert (info.value.code, info.value.message) == ("stale", "This table has moved on.")
    log = await service.store.actions(gid)
    assert [(a.version, a.seat, a.action) for a in log] == [(1, "s0", {"type": "add", "n": 2})]


async def test_simultaneous_identical_clicks_apply_once(service):
    gid = await _lobby(service)
    await service.join(gid, 11, "Bo")
    await service.start(gid, 10)
    results = await asyncio.gather(
        *(service.act(gid, "s0", Add(n=1), expected_version=0) for _ in range(50)),
        return_exceptions=True)
    applied = [r for r in results if isinstance(r, Update)]
    refused = [r for r in results if isinstance(r, GameError)]
    assert (len(applied), len(refused)) == (1, 49)
    assert {r.code for r in refused} == {"stale"}
    assert (await service.get(gid)).version == 1


async def test_ai_seat_moves_until_a_human_must_act(service):
    gid = await _lobby(service)
    await service.add_ai(gid, 10)
    await service.start(gid, 10)
    up = await service.act(gid, "s0", Add(n=1))
    # The AI (s1) adds 2 right after the human's move: counter 1 + 2 = 3, human to play.
    assert [(s.seat, s.action, s.by_ai) for s in up.steps] == [
        ("s0", Add(n=1), False), ("s1", Add(n=2), True)]
    assert up.state.counter == 3


def test_an_ai_choice_outside_the_legal_actions_is_logged_and_the_first_legal_one_played(
        service, caplog):
    """The AI's choice is applied without a second check (``Engine.apply_legal``), so a
    policy that answers an action outside the list it was given plays the first legal
    action instead, with one ERROR line naming it."""
    spec = dataclasses.replace(service.registry["tiny"], policy=lambda view, legal, rand: Add(n=7))
    state = spec.engine.new_game(["s0", "s1"], seed=1, options=spec.options_model())
    with caplog.at_level("ERROR", logger="bot.runtime.advance"):
        choice = service.ai_action(spec, state, "s0")
    assert choice == spec.engine.legal_actions(state, "s0")[0] == Add(n=1)
    assert [r.getMessage() for r in caplog.records] == [
        "the normal AI playing seat s0 chose an action that is not legal: Add(type='add', n=7)"]


async def test_rules_timer_fires_when_the_clock_passes_the_deadline(service, clock):
    gid = await _lobby(service)
    await service.join(gid, 11, "Bo")
    await service.start(gid, 10)
    published: list[Update] = []

    async def grab(update: Update) -> None:
        published.append(update)

    service.subscribe(grab)
    await service.act(gid, "s0", {"type": "wait"})
    timer = await service.store.timer(gid, "rules")
    assert timer.due_at == clock.now() + 30
    clock.advance(29)
    assert await service.timers.fire_due() == 0
    clock.advance(1)
    await asyncio.sleep(0)
    await service.timers.fire_due()
    state = service.registry["tiny"].engine.load_state((await service.get(gid)).state)
    assert (state.waiting, state.turn) == (False, 1)
    assert published[-1].kind == "timeout"
    assert [(t.kind, t.due_at) for t in await service.store.timers()] == [
        ("idle", clock.now() + 13 * 86400)]  # restarted by the timeout's move


async def test_a_timer_beaten_by_another_processs_move_logs_one_info_line(
        service, clock, caplog, monkeypatch):
    """The version check refuses a timer's move when another process moved the game
    first (tests/runtime/test_multiprocess.py shows that race on PostgreSQL): one INFO line, no
    ERROR traceback, nothing stored."""
    from bot.store import StaleVersion

    gid = await _lobby(service)
    await service.join(gid, 11, "Bo")
    await service.start(gid, 10)
    await service.act(gid, "s0", {"type": "wait"})
    version = (await service.get(gid)).version

    async def beaten(*args, **kwargs):
        raise StaleVersion(kwargs["expected_version"], kwargs["expected_version"] + 1)

    monkeypatch.setattr(service.store, "commit_moves", beaten)
    clock.advance(30)
    with caplog.at_level("INFO", logger="bot.runtime"):
        await service.timers.fire_due()
    assert (await service.get(gid)).version == version
    assert [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name.startswith("bot.runtime")] == [
        ("INFO", f"timer rules of game {gid}: the game moved on before it fired")]


async def test_a_move_whose_commit_raises_after_it_was_applied_wakes_the_timer_loop(
        service, clock, monkeypatch):
    """The commit of a move that stores a rules timer (30 s) is applied, then raises (a
    disk error after the commit, a connection lost after the server committed): the
    error reaches the caller and the timer loop, asleep until a later time, wakes and
    sleeps until the new deadline. Before, it slept on, so the deadline passed unseen."""
    gid = await _lobby(service)
    await service.join(gid, 11, "Bo")
    await service.start(gid, 10)
    await _until(lambda: service.timers._sleeps_until not in (None, math.inf))
    later = service.timers._sleeps_until
    assert later is not None and later > clock.now() + 30
    commit = service.store.commit_moves

    async def applied_then_raises(*args, **kwargs):
        await commit(*args, **kwargs)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(service.store, "commit_moves", applied_then_raises)
    with pytest.raises(sqlite3.OperationalError):
        await service.act(gid, "s0", {"type": "wait"})
    # (the loop passes through "no deadline" while it reads the timers again)
    await _until(lambda: service.timers._sleeps_until == clock.now() + 30)
    assert service.timers._sleeps_until == clock.now() + 30


async def _until(condition, seconds: float = 5.0) -> None:
    """Let the loop run until ``condition()`` holds (at most ``seconds``)."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)


async def test_timers_survive_a_restart_and_due_ones_fire_at_start(store, clock):
    svc = GameService(store, __import__("tests.support.tinygame", fromlist=["x"]).tiny_registry(),
                      clock=clock)
    gid = await _lobby(svc)
    await svc.join(gid, 11, "Bo")
    await svc.start(gid, 10)
    await svc.act(gid, "s0", {"type": "wait"})
    await svc.timers.stop()
    clock.advance(120)  # the bot is down while the deadline passes
    svc2 = GameService(store, svc.registry, clock=clock)
    assert [t.kind for t in await store.timers()] == ["rules", "idle"]
    assert await svc2.timers.start() == 2
    for _ in range(500):  # up to 5 s: the start-up firing runs in a task (slow under load)
        await asyncio.sleep(0.01)
        if [t.kind for t in await store.timers()] == ["idle"]:
            break
    state = svc2.registry["tiny"].engine.load_state((await svc2.get(gid)).state)
    assert (state.waiting, state.turn) == (False, 1)
    await svc2.timers.stop()


async def test_turn_timer_lets_the_ai_play_and_takes_over_after_three(service, clock):
    gid = await _lobby(service, options={"turn_timer": "2m"})
    await service.join(gid, 11, "Bo")
    await service.start(gid, 10)
    for missed in (1, 2, 3):
        # s0 times out; then s1 (human Bo) plays 1 by hand.
        clock.advance(120)
        await service.timers.fire_due()
        seat = (await service.store.seats(gid))[0]
        assert seat.missed_turns == missed
        if missed < 3:
            await service.act(gid, "s1", Add(n=1))
    seat = (await service.store.seats(gid))[0]
    assert seat.ai_takeover is True
    await service.set_takeover(gid, 10, False)
    seat = (await service.store.seats(gid))[0]
    assert (seat.ai_takeover, seat.missed_turns) == (False, 0)
