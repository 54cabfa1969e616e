"""Recording a posted table: a table posted but not recorded (a full disk) is adopted by the
catch-up, not posted twice; a database failure while an update with no click behind it is
shown is one WARNING line; a cog's memory of a game is dropped when the game ends."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from bot.store import Store
from tests.faults.common import make_bot, start_tiny
from tests.faults.test_isolation import FULL, until
from tests.support import description, headline, texts

BULLET = "\N{BULLET}"


def full_while_recording_tables(monkeypatch: Any) -> dict[str, Any]:
    """While ``flag["on"]``, recording a posted table (``Store.update_game`` with a
    ``table_message_id``) fails as SQLite fails on a full disk; ``flag["times"]`` counts
    the refusals and ``flag["once"]`` turns the fault off after the first."""
    flag: dict[str, Any] = {"on": True, "times": 0, "once": False}
    original = Store.update_game

    async def update_game(self: Store, game_id: int, **fields: Any) -> None:
        if flag["on"] and "table_message_id" in fields:
            flag["times"] += 1
            if flag["once"]:
                flag["on"] = False
            raise sqlite3.OperationalError(FULL)
        await original(self, game_id, **fields)

    monkeypatch.setattr(Store, "update_game", update_game)
    return flag


async def test_a_table_posted_but_not_recorded_is_adopted_at_restart_not_posted_again(
        world, clock, tmp_path, monkeypatch):
    """Before: the restart's catch-up posted the same table a second time and pinged Bo
    twice (the first table's id and ping were never recorded)."""
    db = tmp_path / "bot.sqlite3"
    ana, bo = world.member("Ana"), world.member("Bo")
    await world.connect(make_bot(db, clock))
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    old_table = thread.last_message
    disk = full_while_recording_tables(monkeypatch)
    count = len(thread.all_messages)
    await ana.click(old_table, "Add 1")
    await world.settle()
    posted = [m for m in thread.all_messages[count:] if not m.ephemeral]
    assert [headline(m) for m in posted] == [bo.mention]
    assert disk["times"] == 2  # the click's post, then the catch-up it started: both refused
    await world.disconnect()

    disk["on"] = False
    sb = await world.connect(make_bot(db, clock))
    job = sb.bot.service.supervisor.jobs["herdbot-reconcile-timers"]

    async def caught_up() -> bool:
        return job.done
    await until(caught_up, "the catch-up")
    await world.settle()
    # no second table, no second ping: the posted one is recorded as the table
    assert [headline(m) for m in thread.all_messages[count:] if not m.ephemeral] == [bo.mention]
    record = await sb.bot.store.get_game(1)
    table = posted[0]
    assert (record.version, record.table_version, record.table_message_id) == (1, 1, table.id)
    assert record.pinged_key == "turn:turn:1:s1"
    assert world.message(old_table.id).labels == []  # the older table is retired
    assert table.labels == ["Add 1", "Add 2", "Wait", "My hand", "Watch"]
    # and play goes on from the adopted table
    await bo.click(table, "Add 2")
    assert headline(thread.last_message) == ana.mention
    assert description(thread.last_message) == (
        f"{BULLET} Bo adds 2: 3.\n\n**Ana**'s turn: add 1 or 2.")
    assert world.message(table.id).labels == []
    await world.disconnect()


async def test_a_timer_update_hitting_a_database_failure_logs_one_warning(
        world, clock, tmp_path, monkeypatch, caplog):
    """A turn timer runs out (no click behind the update) and recording its new table
    fails once: one WARNING line and no traceback; the catch-up then records the posted
    table without posting it again."""
    caplog.set_level(logging.INFO)
    db = tmp_path / "bot.sqlite3"
    ana, bo = world.member("Ana"), world.member("Bo")
    sb = await world.connect(make_bot(db, clock))
    try:
        lobby = await start_tiny(world, ana, [bo], timer="2m")
        thread = lobby.thread
        disk = full_while_recording_tables(monkeypatch)
        disk["once"] = True
        count = len(thread.all_messages)
        caplog.clear()
        clock.advance(121)
        assert await sb.bot.service.timers.fire_due() == 2  # the reminder, then the turn
        await world.settle()
        job = sb.bot.service.supervisor.jobs["herdbot-reconcile-timers"]

        async def caught_up() -> bool:
            return job.done and disk["times"] == 1
        await until(caught_up, "the catch-up")
        await world.settle()
        loud = [(r.name, r.levelname, r.getMessage(), r.exc_info) for r in caplog.records
                if r.levelno >= logging.WARNING]
        assert loud == [(
            "bot.runtime.service", "WARNING",
            "game 1: showing timeout stopped: database error (OperationalError: database or "
            "disk is full); the catch-up shows it once writes work", None)]
        tables = [m for m in thread.all_messages[count:] if texts(m) and not m.ephemeral]
        assert len(tables) == 1
        record = await sb.bot.store.get_game(1)
        assert (record.version, record.table_version, record.table_message_id) == (
            1, 1, tables[0].id)
    finally:
        await world.disconnect()


async def test_a_cog_forgets_a_game_when_it_ends(world, clock, tmp_path):
    """The lines a table shows, the followup that posted it and its post lock are kept
    per game while it runs, and dropped when it ends (here: /game end)."""
    ana, bo = world.member("Ana"), world.member("Bo")
    sb = await world.connect(make_bot(tmp_path / "bot.sqlite3", clock))
    try:
        lobby = await start_tiny(world, ana, [bo])
        thread = lobby.thread
        await ana.click(thread.last_message, "Add 1")
        cog = sb.bot.game_cog("tiny")
        assert cog is not None
        assert list(cog._shown) == [1] and list(cog._posted) == [1]
        assert list(cog._post_locks) == [1]
        await ana.slash("game end", in_channel=thread)
        await ana.click(ana.last_reply, "Yes, end the game")
        assert (cog._shown, cog._posted, cog._post_locks) == ({}, {}, {})
    finally:
        await world.disconnect()
