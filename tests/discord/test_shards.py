"""Sharding in the sandbox: two HerdBots in one process serve shards 0 and 1 of 2 against
one world (two guilds) and one PostgreSQL database. Guilds land on the shard
``(guild_id >> 22) % 2`` (READY per shard, interactions routed by guild), and a button
clicked in a DM (Discord delivers it to shard 0) works for a game of a guild of shard 1."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
import pytest_asyncio

from bot.sandbox import SandboxError, World
from bot.sandbox.model import SimChannel, SimMessage
from tests.discord.conftest import make_bot
from tests.support import footer, headline, table_lines, title
from tests.support.databases import PG_URL, SKIP_REASON, databases
from tests.support.dms import dm_with_buttons


@pytest_asyncio.fixture
async def pg_url(tmp_path):
    """A fresh PostgreSQL schema's URL (skipped without a server)."""
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    async with databases("postgres", tmp_path) as new:
        yield await new()


@pytest.fixture
def sharded_world() -> World:
    """Two shards; the main guild, plus one guild on each shard."""
    w = World()
    w.shard_count = 2
    for name in ("Ana", "Bo"):
        w.add_member(name)
    return w


async def connect_shards(world: World, db: str, clock: Any) -> list[Any]:
    """Shards 0 and 1 of 2: one HerdBot each, both on ``db``."""
    out = []
    for shard in (0, 1):
        bot = make_bot(db, clock, shard_count=2, shard_ids=[shard])
        out.append(await world.connect(bot))
    return out


@pytest_asyncio.fixture
async def west_shards(sharded_world, pg_url, clock):
    """``(West, shard 0's sandbox, shard 1's sandbox)``: a guild "West" of shard 1, then
    both shards connected (disconnected after the test, passed or failed)."""
    west = sharded_world.add_guild("West", shard=1)
    sb0, sb1 = await connect_shards(sharded_world, pg_url, clock)
    try:
        yield west, sb0, sb1
    finally:
        await sharded_world.disconnect()


async def start_tiny(world: World, guild: SimChannel) -> SimMessage:
    """Ana opens a Tiny Race lobby in ``guild``, Bo joins, Ana starts it; the lobby."""
    ana = world.member("Ana")
    await ana.slash("play", in_channel=guild, game="tiny")
    lobby = ana.last_reply
    assert lobby is not None
    await world.member("Bo").click(lobby, "Join")
    await ana.click(lobby, "Start")
    return lobby


async def test_each_guild_lands_on_its_shard_and_its_commands_reach_that_bot(
        sharded_world, pg_url, clock):
    world = sharded_world
    east = world.add_guild("East", shard=0)
    west = world.add_guild("West", shard=1)
    assert ((east.guild_id >> 22) % 2, (west.guild_id >> 22) % 2) == (0, 1)
    sb0, sb1 = await connect_shards(world, pg_url, clock)
    try:
        on0 = {g.id for g in sb0.bot.guilds}
        on1 = {g.id for g in sb1.bot.guilds}
        main_shard = (world.guild_id >> 22) % 2
        assert on0 == {east.guild_id} | ({world.guild_id} if main_shard == 0 else set())
        assert on1 == {west.guild_id} | ({world.guild_id} if main_shard == 1 else set())
        assert (sb0.bot.shard_count, sb0.bot.shard_ids, sb1.bot.shard_ids) == (2, [0], [1])
        assert [g.shard_id for g in sb1.bot.guilds] == [1] * len(on1)
        assert world.shards == {0: sb0, 1: sb1}
        ana = world.member("Ana")
        before0, before1 = len(sb0.requests), len(sb1.requests)
        await ana.slash("play", in_channel=west, game="tiny")
        lobby = ana.last_reply
        assert title(lobby) == "Tiny Race: lobby #1"
        assert len(sb0.requests) == before0 and len(sb1.requests) > before1
        record = await sb1.bot.store.get_game(1)
        assert (record.guild_id, record.channel_id) == (west.guild_id, west.id)
        await ana.slash("play", in_channel=east, game="tiny")
        assert (await sb0.bot.store.get_game(2)).guild_id == east.guild_id
        assert len(sb0.requests) > before0
    finally:
        await world.disconnect()
    assert world.shards == {}


async def test_a_second_bot_for_a_served_shard_is_refused(sharded_world, pg_url, clock):
    world = sharded_world
    await world.connect(make_bot(pg_url, clock, shard_count=2, shard_ids=[1]))
    try:
        with pytest.raises(SandboxError) as info:
            await world.connect(make_bot(pg_url, clock, shard_count=2, shard_ids=[0, 1]))
        assert str(info.value) == "shard(s) [1] already served; await world.disconnect() first"
    finally:
        await world.disconnect()


async def test_a_dm_click_reaches_shard_0_and_plays_a_game_of_a_shard_1_guild(
        sharded_world, west_shards):
    world = sharded_world
    west, sb0, sb1 = west_shards
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, west)
    thread = lobby.thread
    assert thread.guild_id == west.guild_id
    assert sb0.bot.get_guild(west.guild_id) is None  # shard 0 never saw this guild
    dm = dm_with_buttons(world, ana, thread.last_message)
    served0 = len(sb0.requests)
    click = await ana.click(dm, "Add 2")
    # Shard 0 answered the DM click and showed the move in the thread of shard 1's
    # guild: the new table posted, the old one edited, Ana's panel as a followup. The old
    # table is a V2 message shard 1 drew: shard 0 reads it once to edit it in again
    # without its buttons (a V2 message's components are sent whole).
    table = thread.all_messages[0]
    assert [(r.method, r.path, r.status) for r in sb0.requests[served0:]] == [
        ("POST", f"/interactions/{click.id}/{click.token}/callback", 200),
        ("POST", f"/channels/{thread.id}/messages", 200),
        ("GET", f"/channels/{thread.id}/messages/{table.id}", 200),
        ("PATCH", f"/channels/{thread.id}/messages/{table.id}", 200),
        ("POST", f"/webhooks/{world.application_id}/{click.token}", 200)]
    assert click.responded and not click.failed
    record = await sb1.bot.store.get_game(1)
    state = sb1.bot.registry["tiny"].engine.load_state(record.state)
    assert (record.version, state.counter, state.turn) == (1, 2, 1)
    assert [a.action for a in await sb1.bot.store.actions(1)] == [{"type": "add", "n": 2}]
    assert [(m.text, m.ephemeral_for) for m in ana.dms] == [
        ("Your turn.", None), (f"Your token is {state.secrets['s0']}.", ana.id)]
    # The thread (in shard 1's guild) shows the move: Bo's turn, posted by shard 0.
    assert "**Bo**'s turn: add 1 or 2." in thread.last_message.text
    # The same DM button again: the table has moved on (the version check), nothing lost.
    await ana.click(dm, "Add 2")
    assert headline(ana.last_reply) == "This table has moved on. Here is the current one:"
    assert (await sb0.bot.store.get_game(1)).version == 1
    # The thread's own buttons still reach shard 1.
    served1 = len(sb1.requests)
    await bo.click(thread.last_message, "Add 1")
    assert len(sb1.requests) > served1
    assert (await sb1.bot.store.get_game(1)).version == 2


async def test_dm_events_go_to_shard_0_and_guild_events_to_their_shard(sharded_world,
                                                                       west_shards):
    world = sharded_world
    west, sb0, sb1 = west_shards
    seen: dict[str, list[int]] = {"sb0": [], "sb1": []}
    for name, sb in (("sb0", sb0), ("sb1", sb1)):
        async def on_thread_update(before: Any, after: Any, name: str = name) -> None:
            seen[name].append(after.id)
        sb.bot.add_listener(on_thread_update)
    await start_tiny(world, west)
    thread = world.threads[-1]
    world.moderate_thread(thread, locked=True)
    await world.settle()
    assert seen == {"sb0": [], "sb1": [thread.id]}


async def test_a_timer_of_a_shard_1_game_fires_once_whichever_process_claims_it(
        sharded_world, west_shards, clock):
    """Both processes run their timer service on the one database: the 30 s window Ana
    opened with Wait times out once, and the thread in shard 1's guild shows it once,
    whichever of the two claimed the timer."""
    world = sharded_world
    west, sb0, sb1 = west_shards
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, west)
    await ana.click(lobby.thread.last_message, "Wait")
    assert [t.kind for t in await sb0.bot.store.timers()].count("rules") == 1
    timeouts: list[str] = []
    for name, sb in (("shard 0", sb0), ("shard 1", sb1)):
        async def seen(update: Any, name: str = name) -> None:
            if update.kind == "timeout":
                timeouts.append(name)
        sb.bot.service.subscribe(seen)
    clock.advance(30)  # wakes both timer loops; both processes also fire at once here
    await asyncio.gather(sb0.bot.service.timers.fire_due(),
                         sb1.bot.service.timers.fire_due())
    await world.settle()
    assert len(timeouts) == 1
    assert [t.kind for t in await sb1.bot.store.timers()].count("rules") == 0
    record = await sb1.bot.store.get_game(1)
    state = sb1.bot.registry["tiny"].engine.load_state(record.state)
    assert (record.version, state.waiting, state.turn) == (2, False, 1)
    assert table_lines(lobby.thread)[-4:] == [
        f"<@{bo.id}>", "\N{BULLET} Ana stops waiting.", "", "**Bo**'s turn: add 1 or 2."]
    assert table_lines(lobby.thread).count("\N{BULLET} Ana stops waiting.") == 1


async def test_one_process_serving_both_shards_on_sqlite_gets_every_guild(
        sharded_world, tmp_path, clock):
    """SQLite allows a shard count when this process serves every shard: one READY per
    shard, every guild with its shard id, commands in each guild."""
    world = sharded_world
    east = world.add_guild("East", shard=0)
    west = world.add_guild("West", shard=1)
    sb = await world.connect(make_bot(tmp_path / "bot.sqlite3", clock, shard_count=2))
    try:
        assert world.shards == {0: sb, 1: sb}
        shards = {g.id: g.shard_id for g in sb.bot.guilds}
        assert shards == {world.guild_id: (world.guild_id >> 22) % 2, east.guild_id: 0,
                          west.guild_id: 1}
        assert sorted(sb.bot.shards) == [0, 1]
        ana = world.member("Ana")
        await ana.slash("play", in_channel=west, game="tiny")
        assert title(ana.last_reply) == "Tiny Race: lobby #1"
        assert (await sb.bot.store.get_game(1)).guild_id == west.guild_id
    finally:
        await world.disconnect()


def posted(thread: SimChannel, since: int) -> list[SimMessage]:
    """The thread's public messages from index ``since`` on."""
    return [m for m in thread.all_messages[since:] if not m.ephemeral]


async def test_a_dm_click_whose_table_could_not_be_shown_is_caught_up_by_shard_0(
        sharded_world, west_shards):
    """Shard 0 takes Ana's DM click for a game of shard 1's guild; the move is stored, then
    the database fails while shard 0 shows it (the table is posted, recording it fails).
    Shard 0's catch-up shows it once the database answers: the table of move 1 with Bo's
    ping, posted once (the catch-up adopts the posted table); shard 1
    catching up its own games afterwards (a restart) posts nothing more. (Before: shard 0's
    catch-up looked at its own shard's games only, so the thread kept showing move 0 until
    shard 1 restarted.)"""
    from bot.discord.bot import STORE_DOWN_AFTER_CHANGE
    from bot.store import StoreDown
    from tests.faults.test_isolation import until

    world = sharded_world
    west, sb0, sb1 = west_shards
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, west)
    thread = lobby.thread
    dm = dm_with_buttons(world, ana, thread.last_message)
    down = {"armed": False, "refused": 0}
    write = sb0.bot.store.update_game

    async def update_game(game_id: int, **fields: Any) -> Any:
        if down["armed"]:  # the first write while showing the move: the server is away
            down["armed"] = False
            down["refused"] += 1
            raise StoreDown(ConnectionResetError("connection lost"), lost=True)
        return await write(game_id, **fields)

    publisher = sb0.bot.publisher

    async def away_while_showing(update: Any) -> None:
        down["armed"] = update.kind == "action"
        await publisher(update)

    sb0.bot.store.update_game = update_game  # type: ignore[method-assign]
    subscribers = sb0.bot.service._subscribers
    subscribers[subscribers.index(publisher)] = away_while_showing
    count = len(thread.all_messages)
    click = await ana.click(dm, "Add 2")
    assert [headline(m) for m in click.followups] == [
        "\N{NO ENTRY SIGN} " + STORE_DOWN_AFTER_CHANGE]
    assert down["refused"] == 1
    job = sb0.bot.service.supervisor.jobs["herdbot-reconcile-timers"]

    async def caught_up() -> bool:
        return job.done
    await until(caught_up, "shard 0's catch-up")
    await world.settle()
    new = posted(thread, count)
    assert [headline(m) for m in new] == [bo.mention]
    assert footer(new[0]) == "Move 1"
    assert new[0].labels == ["Add 1", "Add 2", "Wait", "My hand", "Watch"]
    record = await sb1.bot.store.get_game(1)
    assert (record.version, record.table_version, record.table_message_id) == (
        1, 1, new[0].id)
    assert await sb1.bot.service.reconcile_timers() == 1
    await world.settle()
    assert posted(thread, count) == new
    await bo.click(new[0], "Add 1")  # and the game plays on from it
    assert footer(thread.last_message) == "Move 2"


async def missed_table(world: Any, west: Any) -> tuple[Any, Any, Any]:
    """Ana and Bo's tiny game in West (game 1, shard 1's guild), whose first move's table
    Discord refused to post (403 Missing Permissions); returns (Ana, Bo, the thread)."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, west)
    world.faults.fail("POST", r"^/webhooks/\d+/[^/]+$", 403, code=50013,
                      message="Missing Permissions")
    thread = lobby.thread
    assert thread is not None
    await ana.click(thread.last_message, "Add 2")
    return ana, bo, thread


async def test_two_processes_catching_up_one_game_at_once_post_its_table_once(
        sharded_world, west_shards):
    """Game 1 (shard 1's guild) missed its table (Discord refused the post). Shard 0, which
    failed to show it, and shard 1, whose game it is, catch up at the same moment: its table
    is posted once, with one ping."""
    world = sharded_world
    west, sb0, sb1 = west_shards
    ana, bo, thread = await missed_table(world, west)
    assert headline(ana.last_reply) == (
        "Your move was made, but I could not post the table in the game's thread (I am "
        "missing a permission there). See /game status.")
    record = await sb1.bot.store.get_game(1)
    assert (record.version, record.table_version) == (1, 0)
    # Each process that finds the table behind waits (up to 1 s) until the other one
    # found it behind too, before posting: without the catch-up claim both would.
    behind: list[str] = []
    both = asyncio.Event()
    for name, sb in (("shard 0", sb0), ("shard 1", sb1)):
        original = sb.bot.service._reconcile_game

        async def meet(game_id: int, _original: Any = original, name: str = name) -> Any:
            update = await _original(game_id)
            if update is not None:
                behind.append(name)
                if len(behind) == 2:
                    both.set()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(both.wait(), 1.0)
            return update
        sb.bot.service._reconcile_game = meet  # type: ignore[method-assign]
    count = len(thread.all_messages)
    await asyncio.gather(sb0.bot.service.start_catch_up(1),
                         sb1.bot.service.start_catch_up())
    await world.settle()
    assert len(behind) == 1
    new = posted(thread, count)
    assert [headline(m) for m in new] == [bo.mention]
    assert footer(new[0]) == "Move 1"
    record = await sb1.bot.store.get_game(1)
    assert (record.table_version, record.table_message_id) == (1, new[0].id)


async def test_a_game_noted_behind_while_a_catch_up_runs_is_caught_up_by_that_run(
        sharded_world, west_shards):
    """Game 1 (shard 1's guild) missed its table. Shard 0 is running a catch-up pass that
    has already listed its games when it is told game 1 is behind (a DM click it failed
    to show): the running pass is returned as is, and catches game 1 up before it ends
    (it used to wait for the next catch-up, which might never come)."""
    world = sharded_world
    west, sb0, sb1 = west_shards
    ana, bo, thread = await missed_table(world, west)
    count = len(thread.all_messages)
    store = sb0.bot.service.store
    listed, go_on = asyncio.Event(), asyncio.Event()
    original = store.finished_games_behind

    async def slow_list() -> Any:
        games = await original()
        listed.set()
        await go_on.wait()
        return games
    store.finished_games_behind = slow_list  # type: ignore[method-assign]
    running = sb0.bot.service.start_catch_up()
    await listed.wait()
    assert sb0.bot.service.start_catch_up(1) is running
    store.finished_games_behind = original  # type: ignore[method-assign]
    go_on.set()
    await running
    await world.settle()
    new = posted(thread, count)
    assert [headline(m) for m in new] == [bo.mention]
    assert footer(new[0]) == "Move 1"
    assert sb0.bot.service._behind == set()
