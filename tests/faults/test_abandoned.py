"""Nothing lives forever. A lobby nobody starts closes after an hour; a game nobody moves in
ends after 14 days (where the server allows it, the default), its thread told a day before;
new servers get a 24 h turn timer, the AI playing a missed turn.

The real HerdBot plays the tiny game in the sandbox; the bot's manual clock is advanced
(days at a time) and :func:`fire` runs the due timers and waits for what they started (the
background timer loop is not waited for by the sandbox: polling it in real time let a starved
loop fire day 13's timer on day 30, while the test already changed the setting).
"""

from __future__ import annotations

import sqlite3
from typing import cast

import pytest

from bot import app
from bot.config import Settings
from bot.discord.bot import HerdBot
from bot.runtime import GameService, ManualClock, Update
from bot.sandbox import Sandbox
from bot.store import Store
from tests.discord.conftest import TINY_EXTENSIONS
from tests.faults.common import make_bot, start_tiny
from tests.faults.test_isolation import texts
from tests.support import body, description, fields, footer, headline, rows
from tests.support.tinygame import Add, tiny_registry

DAY = 86400
NOTICE = "\N{HOURGLASS WITH FLOWING SAND} This game will end in 24 hours unless someone moves."
ENDED = ("\N{BLACK SQUARE FOR STOP} Nobody has moved for 14 days, so this game has ended; "
         "no scores are recorded.")


async def fire(sb: Sandbox) -> int:
    """Fire every timer due at the clock's time and settle what the handlers started;
    return how many fired here. ``fire_due`` takes the timer service's lock, so a pass the
    background loop is in the middle of finishes first and nothing due is left after it."""
    fired = await cast(HerdBot, sb.bot).service.timers.fire_due()
    await sb.settle()
    return fired


def status(db, game_id: int) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("SELECT status FROM games WHERE id=?", (game_id,)).fetchone()[0])


async def test_a_lobby_nobody_starts_closes_after_an_hour_across_a_restart(world, clock, tmp_path):
    """Before: a lobby nobody started stayed open, with live buttons, for ever."""
    db = tmp_path / "bot.sqlite3"
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    sb = await world.connect(make_bot(db, clock))
    opened = clock.now()
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    assert body(lobby) == (
        f"A test game: race the counter to 20.\n\nThis lobby closes <t:{int(opened) + 3600}:R> "
        "unless the host starts the game.")
    assert [(t.kind, t.due_at) for t in await sb.bot.store.timers()] == [("lobby", opened + 3600)]
    # A lobby that starts loses its expiry.
    started = await start_tiny(world, cy, [ana])
    assert [(t.game_id, t.kind) for t in await sb.bot.store.timers()
            if t.kind == "lobby"] == [(1, "lobby")]
    await world.disconnect()

    sb = await world.connect(make_bot(db, clock))  # the expiry is stored: it survives
    clock.advance(3599)
    await fire(sb)
    assert status(db, 1) == "lobby" and "Join" in lobby.labels
    clock.advance(1)
    await fire(sb)
    message = world.message(lobby.id)
    assert footer(message) == (
        "Nobody started this lobby within an hour, so it has closed.")
    assert body(message) == "A test game: race the counter to 20."
    assert status(db, 1) == "cancelled" and status(db, 2) == "active"
    assert [t.kind for t in await sb.bot.store.timers() if t.kind == "lobby"] == []
    assert footer(started.thread.last_message) == "Move 0"
    await world.disconnect()


async def test_a_game_nobody_moves_in_ends_after_14_days_told_a_day_before(
        world, sb, clock, tmp_path):
    """Before: with no turn timer, a game whose players walked away stayed active, with
    its thread, for ever (seen after 30 simulated days)."""
    db = tmp_path / "bot.sqlite3"
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    await ana.click(thread.last_message, "Add 1")
    table = thread.last_message
    moved = clock.now()
    assert [(t.kind, t.due_at, t.payload) for t in await sb.bot.store.timers()] == [
        ("idle", moved + 13 * DAY, {"stage": "notice", "version": 1})]
    count = len(thread.all_messages)

    clock.advance(13 * DAY - 1)
    await fire(sb)
    assert len(thread.all_messages) == count
    clock.advance(1)
    await fire(sb)
    assert texts(thread)[count:] == [f"{NOTICE} Waiting for {bo.mention}."]
    assert [int(u["id"]) for u in thread.last_message.data["mentions"]] == [bo.id]  # pinged

    clock.advance(DAY - 1)
    await fire(sb)
    assert status(db, 1) == "active" and len(thread.all_messages) == count + 1
    clock.advance(1)
    await fire(sb)
    assert status(db, 1) == "ended"
    assert texts(thread)[count:] == [f"{NOTICE} Waiting for {bo.mention}.", ENDED]
    assert rows(world.message(table.id)) == []
    assert await sb.bot.store.stats(world.guild_id) == []
    assert [t.kind for t in await sb.bot.store.timers()] == ["archive"]
    clock.advance(599)
    await fire(sb)
    assert not thread.archived
    clock.advance(1)
    await fire(sb)
    assert thread.archived


async def test_a_move_after_the_notice_keeps_the_game(world, sb, clock, tmp_path):
    db = tmp_path / "bot.sqlite3"
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    table = thread.last_message
    clock.advance(13 * DAY)
    await fire(sb)
    assert texts(thread)[-1] == f"{NOTICE} Waiting for {ana.mention}."
    await ana.click(table, "Add 2")
    moved = clock.now()
    clock.advance(DAY)
    await fire(sb)
    assert status(db, 1) == "active"
    assert footer(thread.last_message) == "Move 1"
    assert [(t.kind, t.due_at) for t in await sb.bot.store.timers()] == [
        ("idle", moved + 13 * DAY)]


async def test_a_server_that_turns_idle_ending_off_keeps_its_games(world, sb, clock, tmp_path):
    db = tmp_path / "bot.sqlite3"
    ana, bo, mo = world.member("Ana"), world.member("Bo"), world.member("Mo")
    await mo.slash("settings", end_idle_games=False)
    assert headline(mo.last_reply).endswith("End games after 14 days without a move: off")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    count = len(thread.all_messages)
    started = clock.now()
    for _ in range(30):  # 30 days, a day at a time
        clock.advance(DAY)
        await fire(sb)
    assert status(db, 1) == "active" and len(thread.all_messages) == count
    # Looked at on day 13 and every day since; the next look is on day 31.
    assert [(t.key, t.due_at, t.payload) for t in await sb.bot.store.timers()] == [
        ("off:0", started + 31 * DAY, {"stage": "notice", "version": 0})]

    # Turned on again: the game is looked at again within a day, then warned and ended.
    await mo.slash("settings", end_idle_games=True)
    assert headline(mo.last_reply).endswith("End games after 14 days without a move: on")
    clock.advance(DAY)
    await fire(sb)
    assert texts(thread)[count:] == [f"{NOTICE} Waiting for {ana.mention}."]
    assert [(t.key, t.due_at) for t in await sb.bot.store.timers()] == [
        ("end:0", started + 32 * DAY)]
    clock.advance(DAY - 1)
    await fire(sb)
    assert status(db, 1) == "active"
    clock.advance(1)
    await fire(sb)
    assert status(db, 1) == "ended"
    assert texts(thread)[count:] == [f"{NOTICE} Waiting for {ana.mention}.", ENDED]


async def test_new_servers_get_a_24h_turn_timer_and_the_ai_plays_a_missed_turn(
        world, clock, tmp_path):
    """Before: the default turn timer was off, so a turn nobody played waited for ever."""
    assert Settings(_env_file=None).default_turn_timer == "24h"
    db = tmp_path / "bot.sqlite3"
    bot = app.make_bot(Settings(database_path=db, _env_file=None), registry=tiny_registry(),
                       clock=clock, extensions=TINY_EXTENSIONS)
    ana, bo, mo = world.member("Ana"), world.member("Bo"), world.member("Mo")
    sb = await world.connect(bot)
    lobby = await start_tiny(world, ana, [bo])
    started = clock.now()
    assert "Turn timer: 24 hours per turn" in fields(lobby)[1]["value"]
    thread = lobby.thread
    assert description(thread.last_message) == (
        "**Ana**'s turn: add 1 or 2.\n\N{ALARM CLOCK} Turn timer: the AI plays for you "
        f"<t:{int(started) + DAY}:R>.")
    clock.advance(DAY)
    await fire(sb)
    # The note leads the new table's lines (no message of its own).
    assert texts(thread)[-2:] == ["\N{ALARM CLOCK} " + ana.mention + ", half your time is gone: "
                                  f"the AI plays for you <t:{int(started) + DAY}:R>.", bo.mention]
    assert description(thread.last_message) == (
        "\N{BULLET} Time ran out for Ana: the AI played their turn.\n\N{BULLET} Ana adds 2: 2."
        "\n\n**Bo**'s turn: add 1 or 2.\n\N{ALARM CLOCK} Turn timer: the AI plays for you "
        f"<t:{int(started) + 2 * DAY}:R>.")
    assert footer(thread.last_message) == "Move 1"
    assert headline(thread.last_message) == bo.mention

    # The server can choose no timer for its new games.
    await mo.slash("settings", turn_timer="off")
    await bo.slash("play", game="tiny")
    assert "Turn timer: No turn timer" in fields(bo.last_reply)[1]["value"]
    await world.disconnect()


async def _idle_game(store: Store, clock: ManualClock) -> tuple[GameService, int]:
    """A started tiny game (Ana, Bo) on a service whose timers only fire when
    ``fire_due`` is called; returns the service and the game's id."""
    svc = GameService(store, tiny_registry(), clock=clock)
    up = await svc.create_lobby("tiny", guild_id=1, channel_id=2, host_id=10,
                                host_name="Ana", seed=42)
    gid = up.record.id
    await svc.join(gid, 11, "Bo")
    await svc.start(gid, 10)
    return svc, gid


@pytest.mark.parametrize("where", ["reading the server's setting", "telling the thread"])
async def test_the_24_hours_count_from_the_notice_when_the_clock_moves_meanwhile(
        store, clock, where):
    """Before: the notice stage read the time before its awaits and armed the end from
    it, before the notice went out. When a day passed meanwhile (here: the clock moves by
    a day while the handler reads the setting, or while the thread is told), the end was
    due at once and the game ended with the notice, its 24 hours never given."""
    svc, gid = await _idle_game(store, clock)
    told: list[float] = []
    if where == "telling the thread":
        async def deliver(update: Update) -> None:
            if update.kind == "idle_notice":
                clock.advance(DAY)
                told.append(clock.now())
        svc.subscribe(deliver)
    else:
        setting = svc.ends_idle_games

        async def slow_setting(guild_id: int | None) -> bool:
            clock.advance(DAY)
            return await setting(guild_id)
        svc.ends_idle_games = slow_setting  # type: ignore[method-assign]

        async def note(update: Update) -> None:
            if update.kind == "idle_notice":
                told.append(clock.now())
        svc.subscribe(note)
    clock.advance(13 * DAY)
    assert await svc.timers.fire_due() == 1
    assert told == [clock.now()]
    assert [(t.key, t.due_at) for t in await store.timers()] == [("end:0", told[0] + DAY)]
    clock.advance(DAY - 1)
    assert await svc.timers.fire_due() == 0
    assert (await svc.get(gid)).status == "active"
    if where == "reading the server's setting":
        svc.ends_idle_games = setting  # type: ignore[method-assign]
    clock.advance(1)
    assert await svc.timers.fire_due() == 1
    assert (await svc.get(gid)).status == "ended"


async def test_a_move_while_the_notice_goes_out_keeps_its_own_idle_timer(store, clock):
    """The end armed before the notice is armed again after it only while it is still the
    game's idle timer: a move made while the thread is told restarts the 14 days, and the
    late re-arm must not put back the old version's end (which would then do nothing,
    leaving the game with no idle timer at all)."""
    svc, gid = await _idle_game(store, clock)
    kinds: list[str] = []

    async def move_meanwhile(update: Update) -> None:
        kinds.append(update.kind)
        if update.kind == "idle_notice":
            clock.advance(60)
            await svc.act(gid, "s0", Add(n=1))
    svc.subscribe(move_meanwhile)
    clock.advance(13 * DAY)
    assert await svc.timers.fire_due() == 1
    assert kinds == ["idle_notice", "action"]
    assert [(t.key, t.due_at, t.payload) for t in await store.timers()] == [
        ("notice:1", clock.now() + 13 * DAY, {"stage": "notice", "version": 1})]
