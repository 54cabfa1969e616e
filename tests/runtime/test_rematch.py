"""Rematch: one lobby per finished game with its seats and options, started by itself once
every member of the last game joined."""

from __future__ import annotations

import asyncio

import pytest

from bot.runtime import GameError, GameService, UpdateKind
from bot.runtime.rematch import Rematch
from bot.store import StaleVersion
from tests.support.tinygame import Add, tiny_registry

ANA, BO, CY, ED = 10, 11, 12, 14


async def _finished(service: GameService) -> int:
    """A finished Tiny Race: Ana, Bo, Cy and a hard AI seat, unrated, target 3, timer 1h."""
    up = await service.create_lobby("tiny", guild_id=1, channel_id=2, host_id=ANA,
                                    host_name="Ana", seed=42,
                                    options={"target": 3, "rated": False, "turn_timer": "1h"})
    gid = up.record.id
    await service.join(gid, BO, "Bo")
    await service.join(gid, CY, "Cy")
    await service.add_ai(gid, ANA)
    await service.store.set_seat(gid, "s3", ai_level="hard")
    await service.start(gid, ANA)
    await service.act(gid, "s0", Add(n=2))
    done = await service.act(gid, "s1", Add(n=1))
    assert done.record.status == "finished"
    return gid


def _seats(rematch: Rematch) -> list[tuple[str, int | None, str, bool, str]]:
    return [(s.seat, s.user_id, s.name, s.is_ai, s.ai_level) for s in rematch.update.seats]


async def test_rematch_opens_a_lobby_with_the_same_seats_options_and_channel(service):
    gid = await _finished(service)
    rematch = await service.rematch(gid, BO, "Bo")
    lobby = rematch.update.record
    assert (rematch.opened, rematch.invited, rematch.note) == (True, [ANA, CY], "")
    assert (rematch.update.kind, lobby.status, lobby.kind, lobby.guild_id, lobby.channel_id,
            lobby.host_id, lobby.rematch_of) == (UpdateKind.LOBBY, "lobby", "tiny", 1, 2, BO, gid)
    assert _seats(rematch) == [("s0", BO, "Bo", False, "normal"),
                               ("s1", None, "AI Pancho", True, "hard")]
    assert {k: v for k, v in lobby.options.items() if k != "expires_at"} == {
        "target": 3, "rated": False, "turn_timer": "1h"}
    assert lobby.options["expires_at"] == service.clock.now() + 3600
    assert (await service.get(gid)).rematch_id == lobby.id
    assert await service.awaited(lobby, rematch.update.seats) == [ANA, CY]


async def test_the_game_starts_by_itself_when_every_member_joined(service):
    gid = await _finished(service)
    lobby = (await service.rematch(gid, BO, "Bo")).update.record.id
    up = await service.join(lobby, CY, "Cy")
    assert (up.kind, up.record.status) == (UpdateKind.LOBBY, "lobby")
    up = await service.join(lobby, ANA, "Ana")
    assert (up.kind, up.record.status) == (UpdateKind.STARTED, "active")
    assert [(s.seat, s.name) for s in up.seats] == [
        ("s0", "Bo"), ("s1", "AI Pancho"), ("s2", "Cy"), ("s3", "Ana")]
    assert up.state is not None and up.state.target == 3


async def test_the_host_starts_with_whoever_joined_when_some_never_join(service):
    gid = await _finished(service)
    lobby = (await service.rematch(gid, BO, "Bo")).update.record.id
    await service.join(lobby, CY, "Cy")
    up = await service.start(lobby, BO)
    assert (up.kind, up.record.status) == (UpdateKind.STARTED, "active")
    assert [s.name for s in up.seats] == ["Bo", "AI Pancho", "Cy"]


async def test_seats_are_kept_for_the_last_players(service):
    gid = await _finished(service)
    lobby = (await service.rematch(gid, BO, "Bo")).update.record.id
    with pytest.raises(GameError) as info:
        await service.join(lobby, ED, "Ed")
    assert (info.value.code, info.value.message) == (
        "full", "The other seats are kept for the last game's players.")
    await service.remove_ai(lobby, BO)
    up = await service.join(lobby, ED, "Ed")  # the AI's seat is free now
    assert [s.name for s in up.seats] == ["Bo", "Ed"]


async def test_a_second_press_points_to_the_lobby_already_open(service):
    gid = await _finished(service)
    first = await service.rematch(gid, BO, "Bo")
    again = await service.rematch(gid, BO, "Bo")
    other = await service.rematch(gid, ANA, "Ana")
    for press in (again, other):
        assert (press.opened, press.invited, press.update.record.id, press.note) == (
            False, [], first.update.record.id, "The rematch lobby is already open: join it there.")


async def test_presses_at_once_open_one_lobby(service):
    gid = await _finished(service)
    presses = await asyncio.gather(*(service.rematch(gid, m, n) for m, n in
                                     [(ANA, "Ana"), (BO, "Bo"), (CY, "Cy")] * 3))
    assert sum(p.opened for p in presses) == 1
    assert len({p.update.record.id for p in presses}) == 1
    assert await service.store.game_header(gid + 2) is None


async def test_a_press_after_a_restart_finds_the_stored_lobby(service, store, clock):
    gid = await _finished(service)
    first = await service.rematch(gid, CY, "Cy")
    restarted = GameService(store, tiny_registry(), clock=clock)
    again = await restarted.rematch(gid, ANA, "Ana")
    assert (again.opened, again.update.record.id) == (False, first.update.record.id)
    up = await restarted.join(first.update.record.id, ANA, "Ana")
    assert up.kind == UpdateKind.LOBBY
    up = await restarted.join(first.update.record.id, BO, "Bo")
    assert (up.kind, up.record.status) == (UpdateKind.STARTED, "active")


async def test_two_stores_pressing_at_once_link_one_lobby(service, store, clock):
    """The store's compare-and-set, without the process's lock: the loser is refused."""
    gid = await _finished(service)
    first = await store.create_rematch(gid, replaces=None, host_id=ANA, host_name="Ana",
                                       channel_id=2, options={}, seed=1, ai_seats=[])
    with pytest.raises(StaleVersion):
        await store.create_rematch(gid, replaces=None, host_id=BO, host_name="Bo",
                                   channel_id=2, options={}, seed=1, ai_seats=[])
    assert (await store.get_game(gid)).rematch_id == first.id
    assert await store.game_header(first.id + 1) is None


async def test_a_non_player_is_refused(service):
    gid = await _finished(service)
    with pytest.raises(GameError) as info:
        await service.rematch(gid, ED, "Ed")
    assert (info.value.code, info.value.message) == (
        "not_player", "Only the players of this game can ask for a rematch.")


async def test_a_press_after_the_rematch_started_says_so(service):
    gid = await _finished(service)
    lobby = (await service.rematch(gid, BO, "Bo")).update.record.id
    await service.join(lobby, CY, "Cy")
    await service.start(lobby, BO)
    with pytest.raises(GameError) as info:
        await service.rematch(gid, ANA, "Ana")
    assert (info.value.code, info.value.message) == (
        "rematch_started", "The rematch has already started: look for its thread in the channel.")
    with pytest.raises(GameError) as info:
        await service.join(lobby, ANA, "Ana")
    assert (info.value.code, info.value.message) == (
        "not_lobby", "This lobby is closed: the game has started or ended.")


async def test_a_rematch_lobby_that_closed_unstarted_is_replaced(service):
    gid = await _finished(service)
    first = (await service.rematch(gid, BO, "Bo")).update.record.id
    await service.cancel(first, BO)
    second = await service.rematch(gid, ANA, "Ana")
    assert second.opened and second.update.record.id != first
    assert (second.invited, (await service.get(gid)).rematch_id) == (
        [BO, CY], second.update.record.id)


async def test_a_game_still_on_has_no_rematch(service):
    up = await service.create_lobby("tiny", guild_id=1, channel_id=2, host_id=ANA,
                                    host_name="Ana", seed=42)
    await service.join(up.record.id, BO, "Bo")
    await service.start(up.record.id, ANA)
    with pytest.raises(GameError) as info:
        await service.rematch(up.record.id, ANA, "Ana")
    assert (info.value.code, info.value.message) == (
        "not_finished", "A rematch can be asked for once this game is over.")


async def test_a_returning_player_takes_any_free_seat(service):
    """The host's extra AI seat used a kept seat: a returning player still finds a free
    one, and once the table is full the last one is told so."""
    gid = await _finished(service)
    lobby = (await service.rematch(gid, BO, "Bo")).update.record.id
    await service.add_ai(lobby, BO)
    up = await service.join(lobby, ANA, "Ana")
    assert (up.kind, [s.name for s in up.seats]) == (
        UpdateKind.LOBBY, ["Bo", "AI Pancho", "AI Dolly", "Ana"])
    with pytest.raises(GameError) as info:
        await service.join(lobby, CY, "Cy")
    assert (info.value.code, info.value.message) == ("full", "This table is full (4 players).")
