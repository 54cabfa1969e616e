"""Bad rows: a quarantined lobby can be closed by its host (or a member with Manage Server);
an unreadable timer row is dropped once, logged once, and every other timer fires; a full
disk after a stored move says that the move was saved, and the game catches up by itself
once writes work again.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import pytest

from bot.store import Store
from tests.faults.common import make_bot, start_tiny
from tests.faults.test_command_store_errors import commit_raises
from tests.faults.test_isolation import FULL, full_disk, lines, shown, until
from tests.support import description, fields, footer, headline, rows

NO = "\N{NO ENTRY SIGN} "
UNREADABLE_LOBBY = (NO + "This lobby's saved data could not be read; the host or a member "
                    "with Manage Server can close it with its Cancel button.")
SAVED_BUT_DOWN = (NO + "What you did was saved, but herdbot cannot save anything more right "
                  "now (its database is full or unavailable). The game carries on by itself "
                  "as soon as it can save again.")


def status(db, game_id: int) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("SELECT status FROM games WHERE id=?", (game_id,)).fetchone()[0])


async def test_a_quarantined_lobby_can_be_closed_by_its_host_or_a_server_manager(
        world, sb, clock, tmp_path, caplog):
    """Before: Cancel loaded the seats and failed with the quarantine sentence, which sent
    the host to /game end, which refuses lobbies: the lobby could not be closed."""
    caplog.set_level(logging.INFO)
    db = tmp_path / "bot.sqlite3"
    ana, bo, cy, mo = (world.member(n) for n in ("Ana", "Bo", "Cy", "Mo"))
    await ana.slash("play", game="tiny")
    bad_seat = ana.last_reply
    await bo.click(bad_seat, "Join")
    await cy.slash("play", game="tiny")
    bad_row = cy.last_reply
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE seats SET missed_turns='two' WHERE game_id=1 AND seat='s1'")
        conn.execute("UPDATE games SET options='{not json' WHERE id=2")

    await cy.click(bad_seat, "Join")
    assert headline(cy.last_reply) == UNREADABLE_LOBBY and cy.last_reply.ephemeral
    await bo.click(bad_row, "Join")
    assert headline(bo.last_reply) == UNREADABLE_LOBBY
    await bo.click(bad_seat, "Cancel")
    assert headline(bo.last_reply) == NO + "Only the host (or a server manager) can cancel."
    assert status(db, 1) == "lobby"

    await ana.click(bad_seat, "Cancel")  # the host
    await mo.click(bad_row, "Cancel")  # Manage Server
    seats = {1: ("Seats (0/4)", "(could not be read)"),  # its seat rows do not validate
             2: ("Seats (1/4)", f"1. {cy.mention} \N{CROWN} host\n2. *open seat*")}
    for message, gid in ((bad_seat, 1), (bad_row, 2)):
        shown = world.message(message.id)
        assert footer(shown) == "This lobby was cancelled."
        assert (fields(shown)[0]["name"], fields(shown)[0]["value"]) == seats[gid]
        assert rows(world.message(message.id)) == []
        assert status(db, gid) == "cancelled"
    assert [t for t in await sb.bot.store.timers()] == []  # their expiry timers went
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_an_unreadable_timer_row_is_dropped_once_and_every_other_timer_fires(
        world, clock, tmp_path, caplog):
    """Before: a timer row whose payload was not JSON made every read of the due timers
    fail, so the timer loop failed and retried for ever and no timer fired again."""
    caplog.set_level(logging.INFO)
    db = tmp_path / "bot.sqlite3"
    ana, bo, cy, di = (world.member(n) for n in ("Ana", "Bo", "Cy", "Di"))
    await world.connect(make_bot(db, clock))
    first = await start_tiny(world, ana, [bo], timer="2m")
    second = await start_tiny(world, cy, [di], timer="2m")
    await world.disconnect()
    with sqlite3.connect(db) as conn:
        rows = dict(conn.execute(
            "SELECT game_id || kind, id FROM timers WHERE kind IN ('turn', 'remind')"))
        conn.execute("UPDATE timers SET payload='{not json' WHERE game_id=1 AND kind='turn'")
        conn.execute("UPDATE timers SET due_at='soon' WHERE game_id=2 AND kind='remind'")
    caplog.clear()

    sb = await world.connect(make_bot(db, clock))
    restarted = clock.now()
    jobs = sb.bot.service.supervisor.jobs

    async def rearmed() -> bool:  # the timer loop runs in the background
        return len([t for t in await sb.bot.store.timers() if t.kind in ("turn", "remind")
                    and t.due_at > restarted]) == 4
    await until(rearmed, "both games' timers re-armed")
    await world.settle()
    assert [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name == "bot.runtime.timers"] == [
        ("WARNING", f"timer row {rows['1turn']} of game 1 dropped: it could not be read "
                    "('turn' timer: JSONDecodeError: Expecting property name enclosed in "
                    "double quotes: line 1 column 2 (char 1)); the game's timers are re-armed "
                    "from its state"),
        ("WARNING", f"timer row {rows['2remind']} of game 2 dropped: it could not be read "
                    "('remind' timer: 1 validation error(s): due_at: Input should be a valid "
                    "number, unable to parse string as a number); the game's timers are "
                    "re-armed from its state")]
    # Both games' turn timers and reminders are armed again, from the restart.
    assert sorted((t.game_id, t.kind, t.due_at) for t in await sb.bot.store.timers()
                  if t.kind in ("turn", "remind")) == [
        (1, "remind", restarted + 60), (1, "turn", restarted + 120),
        (2, "remind", restarted + 60), (2, "turn", restarted + 120)]
    clock.advance(121)

    async def fired() -> bool:  # the note leads the next table's lines
        return all(f"\N{BULLET} Time ran out for {name}: the AI played their turn."
                   in shown(lobby.thread) for lobby, name in ((first, "Ana"), (second, "Cy")))
    await until(fired, "both turn timers")
    await world.settle()
    assert jobs["herdbot-timers"].failures == 0
    assert len(lines(caplog, "bot.runtime.timers", logging.WARNING)) == 2
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    await world.disconnect()


async def test_a_full_disk_after_a_stored_move_says_it_was_saved_and_the_game_catches_up(
        world, sb, clock, monkeypatch):
    """Before: the member was told "so this was not done" although the move was stored and
    only the AI's answer failed; the game then waited on the AI until a restart. Now the
    move and the AI's answer are one transaction: its COMMIT is applied, then raises (the
    checkpoint after it fails on a disk that is now full). The member is told it was
    saved; the catch-up posts the table once though it cannot record it, and records it
    (no second post) once the disk has room."""
    ana = world.member("Ana")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await ana.click(lobby, "Add AI seat")
    await ana.click(lobby, "Start")
    thread = lobby.thread
    with full_disk(monkeypatch) as disk:
        disk["full"] = False

        def fill() -> None:  # the disk fills right after the moves are stored
            disk["full"] = True
        count = len(thread.all_messages)
        with commit_raises(monkeypatch, then=fill) as raised:
            await ana.click(thread.last_message, "Add 1")
        assert raised == ["disk I/O error"]
        told = ana.last_reply
        assert headline(told) == SAVED_BUT_DOWN and told.ephemeral
        store = sb.bot.store
        assert [(r.version, r.seat) for r in await store.actions(1)] == [(1, "s0"), (2, "s1")]
        job = sb.bot.service.supervisor.jobs["herdbot-reconcile-timers"]

        async def failing() -> bool:
            return job.failures >= 1
        await until(failing, "the catch-up's first try")
        # it posted the table, then could not record it
        table = thread.last_message
        assert thread.all_messages[count:] == [told, table]

        disk["full"] = False
        clock.advance(1)  # the catch-up's backoff

        async def caught_up() -> bool:
            return job.done
        await until(caught_up, "the catch-up")
    await world.settle()
    assert [(r.version, r.seat) for r in await store.actions(1)] == [(1, "s0"), (2, "s1")]
    assert thread.all_messages[count:] == [told, table]  # not posted again
    assert headline(table) == ana.mention
    assert description(table) == (
        "\N{BULLET} Ana adds 1: 1.\n\N{BULLET} AI Pancho adds 2: 3.\n\n**Ana**'s turn: add 1 or 2.")
    assert footer(table) == "Move 2"
    assert (await store.get_game(1)).table_message_id == table.id


async def test_a_full_disk_while_the_table_is_recorded_says_the_move_was_saved(
        world, sb, clock, monkeypatch):
    """The publisher shows a click's change after the service stored it; when the database
    fails while the new table is recorded, the member is told the move was saved (not
    "something went wrong"), and the catch-up records the table already posted (it neither
    posts it again nor pings twice)."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    full = {"on": True}
    original = Store.update_game

    async def update_game(self: Store, game_id: int, **fields: Any) -> None:
        if full["on"] and "table_message_id" in fields:
            full["on"] = False  # once: the catch-up can write again
            raise sqlite3.OperationalError(FULL)
        await original(self, game_id, **fields)
    monkeypatch.setattr(Store, "update_game", update_game)

    count = len(thread.all_messages)
    it = await ana.click(thread.last_message, "Add 1")
    # the new table (its id not recorded), then the answer (the catch-up, started in the
    # click's task, posts after it, so last_reply is not the answer here)
    assert [(headline(m), m.ephemeral) for m in it.followups] == [
        (bo.mention, False), (SAVED_BUT_DOWN, True)]
    assert not full["on"]
    store = sb.bot.store
    assert [(r.version, r.seat) for r in await store.actions(1)] == [(1, "s0")]
    job = sb.bot.service.supervisor.jobs["herdbot-reconcile-timers"]

    async def caught_up() -> bool:
        return job.done
    await until(caught_up, "the catch-up")
    await world.settle()
    record = await store.get_game(1)
    assert (record.version, record.table_version) == (1, 1)
    assert record.table_message_id == thread.last_message.id == it.followups[0].id
    assert footer(thread.last_message) == "Move 1"
    # one table, one ping: the click's table, now recorded, with its buttons
    assert [headline(m) for m in thread.all_messages[count:] if not m.ephemeral] == [bo.mention]
    assert world.message(it.followups[0].id).labels == ["Add 1", "Add 2", "Wait", "My hand",
                                                        "Watch"]


@pytest.fixture
def members() -> tuple[str, ...]:
    return ("Ana", "Bo", "Cy", "Di")
