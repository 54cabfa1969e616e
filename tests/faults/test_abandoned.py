"""Issue 14, item 6: nothing lives forever. A lobby nobody starts closes after an hour; a
game nobody moves in ends after 14 days (where the server allows it, the default), its
thread told a day before; new servers get a 24 h turn timer, the AI playing a missed turn.

The real HerdBot plays the tiny game in the sandbox; the bot's manual clock is advanced
(days at a time) and the background timer loop fires what is due.
"""

from __future__ import annotations

import sqlite3

from bot.config import Settings
from bot.discord.bot import HerdBot
from tests.discord.conftest import TINY_EXTENSIONS
from tests.faults.common import make_bot, start_tiny
from tests.faults.test_isolation import texts, until
from tests.support.tinygame import tiny_registry

DAY = 86400
NOTICE = "\N{HOURGLASS WITH FLOWING SAND} This game will end in 24 hours unless someone moves."
ENDED = ("\N{BLACK SQUARE FOR STOP} Nobody has moved for 14 days, so this game has ended; "
         "no scores are recorded.")


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
    assert lobby.embeds[0]["description"] == (
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
    await world.settle()
    assert status(db, 1) == "lobby" and "Join" in lobby.labels
    clock.advance(1)

    async def closed() -> bool:  # the timer loop runs in the background
        return world.message(lobby.id).components == [] and not [
            t for t in await sb.bot.store.timers() if t.kind == "lobby"]
    await until(closed, "the lobby's expiry")
    await world.settle()
    message = world.message(lobby.id)
    assert message.embeds[0]["footer"]["text"] == (
        "Nobody started this lobby within an hour, so it has closed.")
    assert message.embeds[0]["description"] == "A test game: race the counter to 20."
    assert status(db, 1) == "cancelled" and status(db, 2) == "active"
    assert [t.kind for t in await sb.bot.store.timers() if t.kind == "lobby"] == []
    assert started.thread.last_message.embeds[0]["footer"]["text"] == "Move 0"
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
    await world.settle()
    assert len(thread.all_messages) == count
    clock.advance(1)

    async def told() -> bool:
        return len(thread.all_messages) > count
    await until(told, "the 24-hour notice")
    await world.settle()
    assert texts(thread)[count:] == [f"{NOTICE} Waiting for {bo.mention}."]
    assert [int(u["id"]) for u in thread.last_message.data["mentions"]] == [bo.id]  # pinged

    clock.advance(DAY - 1)
    await world.settle()
    assert status(db, 1) == "active" and len(thread.all_messages) == count + 1
    clock.advance(1)

    async def ended() -> bool:
        return (status(db, 1) == "ended" and texts(thread)[-1] == ENDED
                and world.message(table.id).components == [])
    await until(ended, "the game's end")
    await world.settle()
    assert texts(thread)[count:] == [f"{NOTICE} Waiting for {bo.mention}.", ENDED]
    assert world.message(table.id).components == []
    assert await sb.bot.store.stats(world.guild_id) == []
    assert [t.kind for t in await sb.bot.store.timers()] == ["archive"]
    clock.advance(600)

    async def archived() -> bool:
        return bool(thread.archived)
    await until(archived, "the thread archived")


async def test_a_move_after_the_notice_keeps_the_game(world, sb, clock, tmp_path):
    db = tmp_path / "bot.sqlite3"
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    table = thread.last_message
    clock.advance(13 * DAY)

    async def told() -> bool:
        return texts(thread)[-1] == f"{NOTICE} Waiting for {ana.mention}."
    await until(told, "the 24-hour notice")
    await ana.click(table, "Add 2")
    moved = clock.now()
    clock.advance(DAY)
    await world.settle()
    assert status(db, 1) == "active"
    assert thread.last_message.embeds[0]["footer"]["text"] == "Move 1"
    assert [(t.kind, t.due_at) for t in await sb.bot.store.timers()] == [
        ("idle", moved + 13 * DAY)]


async def test_a_server_that_turns_idle_ending_off_keeps_its_games(world, sb, clock, tmp_path):
    db = tmp_path / "bot.sqlite3"
    ana, bo, mo = world.member("Ana"), world.member("Bo"), world.member("Mo")
    await mo.slash("settings", end_idle_games=False)
    assert mo.last_reply.content.endswith("End games after 14 days without a move: off")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    count = len(thread.all_messages)
    for _ in range(30):  # 30 days, a day at a time
        clock.advance(DAY)
        await world.settle()
    assert status(db, 1) == "active" and len(thread.all_messages) == count

    # Turned on again: the game is looked at again within a day, then warned and ended.
    await mo.slash("settings", end_idle_games=True)
    assert mo.last_reply.content.endswith("End games after 14 days without a move: on")
    clock.advance(DAY)

    async def told() -> bool:
        return texts(thread)[count:] == [f"{NOTICE} Waiting for {ana.mention}."]
    await until(told, "the 24-hour notice")
    clock.advance(DAY)

    async def ended() -> bool:
        return status(db, 1) == "ended"
    await until(ended, "the game's end")


async def test_new_servers_get_a_24h_turn_timer_and_the_ai_plays_a_missed_turn(
        world, clock, tmp_path):
    """Before: the default turn timer was off, so a turn nobody played waited for ever."""
    assert Settings(_env_file=None).default_turn_timer == "24h"
    db = tmp_path / "bot.sqlite3"
    bot = HerdBot(Settings(database_path=db, _env_file=None), registry=tiny_registry(),
                  clock=clock, extensions=TINY_EXTENSIONS)
    ana, bo, mo = world.member("Ana"), world.member("Bo"), world.member("Mo")
    await world.connect(bot)
    lobby = await start_tiny(world, ana, [bo])
    started = clock.now()
    assert "Turn timer: 24 hours per turn" in lobby.embeds[0]["fields"][1]["value"]
    thread = lobby.thread
    assert thread.last_message.embeds[0]["description"] == (
        "**Ana**'s turn: add 1 or 2.\n\N{ALARM CLOCK} Turn timer: the AI plays for you "
        f"<t:{int(started) + DAY}:R>.")
    clock.advance(DAY)

    async def played() -> bool:  # the timer loop runs in the background
        return texts(thread)[-2:] == ["Time ran out for Ana: the AI played their turn.",
                                      bo.mention]
    await until(played, "the turn timer and the new table")
    await world.settle()
    assert thread.last_message.embeds[0]["footer"]["text"] == "Move 1"
    assert thread.last_message.content == bo.mention

    # The server can choose no timer for its new games.
    await mo.slash("settings", turn_timer="off")
    await bo.slash("play", game="tiny")
    assert "Turn timer: No turn timer" in bo.last_reply.embeds[0]["fields"][1]["value"]
    await world.disconnect()
