"""One unreadable game is quarantined while every other game and every timer carries on;
background work survives a full disk and resumes when it is freed.

The real HerdBot plays the tiny game in the sandbox on a SQLite file. A bad row is written
with sqlite3 directly (as a hand edit or a newer herdbot would); a full disk is the
database refusing every write with SQLite's own error ("database or disk is full").
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import aiosqlite
import pytest

from bot.runtime import GameUnreadable, ManualClock
from bot.runtime.supervisor import Supervisor
from bot.store import sqlite
from tests.faults.common import make_bot, start_tiny
from tests.support import footer, headline, rows
from tests.support import table_lines as shown

NO = "\N{NO ENTRY SIGN} "
UNREADABLE = (NO + "This game's saved data could not be read; the host or a member with "
              "Manage Server can end it with /game end.")
STORE_DOWN = (NO + "herdbot cannot save anything right now (its database is full or "
              "unavailable), so this was not done. Please try again in a few minutes.")
FULL = "database or disk is full"
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@contextmanager
def full_disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, bool]]:
    """While ``flag["full"]`` is True, every write statement on every aiosqlite connection
    fails as SQLite fails on a full disk (reads still work, as they do on a full disk)."""
    flag = {"full": True}
    original = aiosqlite.Connection.execute
    statement = sqlite.sqlite_statement

    def execute(self: aiosqlite.Connection, sql: str, parameters: Any = None) -> Any:
        if flag["full"] and sql.lstrip().upper().startswith(WRITES):
            async def refuse() -> Any:
                raise sqlite3.OperationalError(FULL)
            return refuse()
        return original(self, sql, parameters)

    def on_thread(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> Any:
        # the backend's own statements (bot.store.sqlite.sqlite_statement), on aiosqlite's thread
        if flag["full"] and sql.lstrip().upper().startswith(WRITES):
            raise sqlite3.OperationalError(FULL)
        return statement(conn, sql, args)

    monkeypatch.setattr(aiosqlite.Connection, "execute", execute)
    monkeypatch.setattr(sqlite, "sqlite_statement", on_thread)
    yield flag


async def until(check: Callable[[], Any], what: str, seconds: float = 10.0) -> None:
    """Let the loop (and the background tasks the sandbox does not wait for) run until
    ``await check()`` is truthy; fail after ``seconds`` real seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not await check():
        assert loop.time() < deadline, f"timed out waiting for: {what}"
        await asyncio.sleep(0.005)


def texts(thread: Any) -> list[str]:
    return [headline(m) for m in thread.all_messages]


TOLD = ("\N{ALARM CLOCK} <@", "\N{BULLET} Time ran out")


def lines(caplog: pytest.LogCaptureFixture, logger: str, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == logger and r.levelno == level]


async def test_one_unreadable_game_is_quarantined_and_every_other_timer_fires(
        world, clock, tmp_path, caplog):
    """Before: the start-up reconciliation task died on game 1's ValidationError ("Task
    exception was never retrieved") before re-arming games 2 and 3's turn timers; game 1's
    players got "Something went wrong" and /game end failed on it too."""
    caplog.set_level(logging.INFO)
    db = tmp_path / "bot.sqlite3"
    ana, bo, cy, di, ed = (world.member(n) for n in ("Ana", "Bo", "Cy", "Di", "Ed"))
    await world.connect(make_bot(db, clock))
    lobbies = [await start_tiny(world, a, [b], timer="2m")
               for a, b in ((ana, bo), (cy, di), (ed, ana))]
    threads = [lobby.thread for lobby in lobbies]
    old_table = threads[0].last_message
    await world.disconnect()

    # Game 1's state gains a field this herdbot does not know; games 2 and 3 lost their
    # timers (as after a kill between a move's commit and its timers' upsert).
    with sqlite3.connect(db) as conn:
        state = json.loads(conn.execute("SELECT state FROM games WHERE id=1").fetchone()[0])
        state["future_field"] = 1
        conn.execute("UPDATE games SET state=? WHERE id=1", (json.dumps(state),))
        conn.execute("DELETE FROM timers WHERE game_id IN (2, 3)")
    caplog.clear()

    sb = await world.connect(make_bot(db, clock))
    svc, store = sb.bot.service, sb.bot.store
    assert sb.bot._reconcile.done() and sb.bot._reconcile.exception() is None
    now = clock.now()
    for gid in (2, 3):
        assert [(t.kind, t.due_at) for t in await store.timers()
                if t.game_id == gid and t.kind != "idle"] == [
            ("remind", now + 60), ("turn", now + 120)]
    quarantine = [m for m in lines(caplog, "bot.runtime.service", logging.WARNING)]
    # pydantic's words for an unknown field of a dataclass state (every game's kind)
    assert quarantine == [
        "game 1 quarantined: its saved data could not be read (state: 1 validation "
        "error(s): future_field: Unexpected keyword argument); its players are told, "
        "and the host can end it with /game end"]
    assert set(svc.quarantined) == {1}

    # Every timer fires through the background loop once the clock passes it.
    clock.advance(121)

    # The AI plays the missed turn; the new table pings whose turn it is now.
    expected = {1: ["\N{BULLET} Time ran out for Cy: the AI played their turn.", f"<@{di.id}>"],
                2: ["\N{BULLET} Time ran out for Ed: the AI played their turn.", f"<@{ana.id}>"]}

    async def fired() -> bool:
        return all(headline(threads[i].last_message) == ping
                   and note in shown(threads[i])[-8:] for i, (note, ping) in expected.items())
    await until(fired, "games 2 and 3's turn timers")
    await sb.settle()
    for i in expected:
        assert footer(threads[i].last_message) == "Move 1"
        assert [t for t in shown(threads[i]) if t.startswith(TOLD)] == [
            f"\N{ALARM CLOCK} {(cy, ed)[i - 1].mention}, half your time is gone: the AI plays "
            f"for you <t:{int(now) + 120}:R>.", expected[i][0]]
    for gid, seat in ((2, "s0"), (3, "s0")):
        assert [(r.version, r.seat) for r in await store.actions(gid)] == [(1, seat)]
    assert (await store.get_game(1)).version == 0  # the bad game was not touched
    # Its turn timers went; its idle timer goes in the same way when it comes due.
    assert [t.kind for t in await store.timers() if t.game_id == 1] == ["idle"]
    assert not any(t.startswith(TOLD) for t in shown(threads[0]))

    # Its players get one clear sentence on any button or command; the log stays quiet.
    await bo.click(old_table, "Add 1")
    assert headline(bo.last_reply) == UNREADABLE and bo.last_reply.ephemeral
    await ana.click(old_table, "My hand")
    assert headline(ana.last_reply) == UNREADABLE
    for command in ("game hand", "game status", "game leave", "game log"):
        await bo.slash(command, in_channel=threads[0])
        assert headline(bo.last_reply) == UNREADABLE, command
    with pytest.raises(GameUnreadable) as info:
        await svc.act(1, "s0", {"type": "add", "n": 1})
    assert (info.value.code, info.value.game_id) == ("game_unreadable", 1)
    assert len(lines(caplog, "bot.runtime.service", logging.WARNING)) == 1
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []

    # Bo is not the host; Ana is, and ends it without its state ever being loaded.
    await bo.slash("game end", in_channel=threads[0])
    assert headline(bo.last_reply) == NO + "Only the host (or a server manager) can end the game."
    await ana.slash("game end", in_channel=threads[0])
    assert headline(ana.last_reply) == "End Tiny Race #1 for everyone? No scores are recorded."
    await ana.click(ana.last_reply, "Yes, end the game")
    assert headline(ana.last_reply) == "The game has ended."
    assert (await store.game_header(1)).status == "ended"
    assert threads[0].last_message.content == (
        "\N{BLACK SQUARE FOR STOP} This game was ended early; no scores are recorded.")
    assert rows(world.message(old_table.id)) == []
    clock.advance(601)  # the archive delay

    async def archived() -> bool:
        return bool(threads[0].archived)
    await until(archived, "game 1's thread archived")
    await sb.settle()
    assert len(lines(caplog, "bot.runtime.service", logging.WARNING)) == 1


async def test_a_game_with_an_unreadable_seat_can_be_ended_by_a_server_manager(
        world, clock, tmp_path, caplog):
    """A seat row that no longer validates (a hand-edited count): the game is quarantined, the
    other game plays on, and Mo (Manage Server, not seated) ends it."""
    caplog.set_level(logging.INFO)
    db = tmp_path / "bot.sqlite3"
    ana, bo, cy, mo = (world.member(n) for n in ("Ana", "Bo", "Cy", "Mo"))
    sb = await world.connect(make_bot(db, clock))
    first = await start_tiny(world, ana, [bo])
    second = await start_tiny(world, cy, [ana])
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE seats SET missed_turns='two' WHERE game_id=1 AND seat='s1'")
    await bo.click(first.thread.last_message, "Add 1")
    assert headline(bo.last_reply) == UNREADABLE
    await cy.click(second.thread.last_message, "Add 2")
    assert (await sb.bot.store.get_game(2)).version == 1
    await mo.slash("game end", in_channel=first.thread)
    await mo.click(mo.last_reply, "Yes, end the game")
    assert headline(mo.last_reply) == "The game has ended."
    assert (await sb.bot.store.game_header(1)).status == "ended"
    assert lines(caplog, "bot.runtime.service", logging.WARNING) == [
        "game 1 quarantined: its saved data could not be read (seat 's1': 1 validation "
        "error(s): missed_turns: Input should be a valid integer, unable to parse string as an "
        "integer); its players are told, and the "
        "host can end it with /game end"]


async def test_a_full_disk_then_freed_the_overdue_turn_timer_fires_without_a_restart(
        world, sb, clock, monkeypatch, caplog):
    """Before: the timer task died with OperationalError: database or disk is full and
    stayed dead after space was freed; overdue turn timers never fired until a restart."""
    caplog.set_level(logging.DEBUG, logger="bot.runtime.supervisor")
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo], timer="2m")
    thread, store = lobby.thread, sb.bot.store
    table = thread.last_message
    before = [(r.version, r.seat, r.action) for r in await store.actions(1)]
    await ana.click(table, "Add 1")
    await bo.click(thread.last_message, "Add 2")
    stored = [(r.version, r.seat, r.action) for r in await store.actions(1)]
    assert len(stored) == len(before) + 2 and (await store.get_game(1)).version == 2
    table = thread.last_message

    with full_disk(monkeypatch) as disk:
        # A move is refused in words; nothing is stored, nothing is lost.
        await ana.click(table, "Add 2")
        assert headline(ana.last_reply) == STORE_DOWN and ana.last_reply.ephemeral
        assert [(r.version, r.seat, r.action) for r in await store.actions(1)] == stored
        assert (await store.get_game(1)).version == 2
        await bo.slash("play", game="tiny")  # a command is refused the same way
        assert headline(bo.last_reply) == STORE_DOWN and bo.last_reply.ephemeral
        assert await store.get_game(2) is None
        # The deadline passes: the reminder is posted (no write), then the loop fails on
        # the writes; it is retried with backoff (1 s, 2 s, 4 s ...) and logged once.
        clock.advance(121)
        jobs = sb.bot.service.supervisor.jobs

        async def failed(n: int) -> Callable[[], Any]:
            async def check() -> bool:
                return jobs["herdbot-timers"].failures >= n
            return check
        await until(await failed(1), "the timer loop's first failure")
        for n, step in ((2, 1), (3, 2)):
            clock.advance(step)
            await until(await failed(n), f"failure {n}")
        reminders = [t for t in texts(thread) if t.startswith("\N{ALARM CLOCK}")]
        assert len(reminders) == 1
        assert not any(t.startswith(TOLD[1]) for t in shown(thread))
        disk["full"] = False
        clock.advance(4)

        async def fired() -> bool:
            return any(t.startswith(TOLD[1]) for t in shown(thread)) and (
                jobs["herdbot-timers"].streak == 0)
        await until(fired, "the overdue turn timer and the loop's recovery")
    await sb.settle()
    assert [t for t in shown(thread) if t.startswith(TOLD)] == [
        reminders[0], "\N{BULLET} Time ran out for Ana: the AI played their turn."]
    rows = [(r.version, r.seat) for r in await store.actions(1)]
    assert rows[:2] == [(v, s) for v, s, _ in stored] and rows[2] == (3, "s0")
    assert [s.missed_turns for s in await store.seats(1)] == [1, 0]
    assert footer(thread.last_message) == "Move 3"
    assert [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name == "bot.runtime.supervisor"] == [
        ("WARNING", f"background job herdbot-timers failed (OperationalError: {FULL}); "
                    "retrying in 1 s"),
        ("DEBUG", f"background job herdbot-timers failed (OperationalError: {FULL}); "
                  "retrying in 2 s"),
        ("DEBUG", f"background job herdbot-timers failed (OperationalError: {FULL}); "
                  "retrying in 4 s"),
        ("INFO", "background job herdbot-timers recovered after 3 failed attempt(s)"),
    ]
    assert not any(r.exc_info for r in caplog.records if r.name.startswith("bot."))
    # Playing on works and re-arms the turn timer.
    await bo.click(thread.last_message, "Add 1")
    assert (await store.get_game(1)).version == 4
    assert (await store.timer(1, "turn")) is not None


async def test_the_start_up_reconciliation_is_retried_after_a_full_disk(
        world, clock, tmp_path, monkeypatch, caplog):
    """The reconciliation at start-up writes timers; on a full disk it fails, is logged
    once, and runs again after its backoff once writes work, arming the missing timer."""
    caplog.set_level(logging.INFO, logger="bot.runtime.supervisor")
    db = tmp_path / "bot.sqlite3"
    ana, bo = world.member("Ana"), world.member("Bo")
    await world.connect(make_bot(db, clock))
    await start_tiny(world, ana, [bo], timer="10m")
    await world.disconnect()
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM timers")
    with full_disk(monkeypatch) as disk:
        sb = await world.connect(make_bot(db, clock))
        reconcile = sb.bot._reconcile
        assert not reconcile.done()
        assert sb.bot.service.supervisor.jobs["herdbot-reconcile-timers"].failures == 1
        assert await sb.bot.store.timers() == []
        disk["full"] = False
        clock.advance(1)
        await asyncio.wait_for(reconcile, 5)
    assert reconcile.exception() is None
    assert [(t.kind, t.due_at) for t in await sb.bot.store.timers()] == [
        ("remind", clock.now() + 300), ("turn", clock.now() + 600),  # armed at the retry
        ("idle", clock.now() + 13 * 86400)]
    assert [r.getMessage() for r in caplog.records if r.name == "bot.runtime.supervisor"] == [
        f"background job herdbot-reconcile-timers failed (OperationalError: {FULL}); "
        "retrying in 1 s",
        "background job herdbot-reconcile-timers recovered after 1 failed attempt(s)",
    ]
    await world.disconnect()


async def test_supervisor_backoff_doubles_to_its_cap_and_resets_on_progress(caplog):
    clock = ManualClock()
    sup = Supervisor(clock, first_delay=1, max_delay=8)
    assert [sup.backoff(n) for n in range(1, 7)] == [1, 2, 4, 8, 8, 8]
    runs: list[float] = []

    async def job() -> None:
        runs.append(clock.now() - 1_800_000_000.0)
        if len(runs) < 4:
            raise RuntimeError(f"boom {len(runs) % 2}")
        sup.ok("j")
        await asyncio.Event().wait()

    sup.start("j", job)
    for step in (0, 1, 2, 4):
        clock.advance(step)
        for _ in range(5):
            await asyncio.sleep(0)
    assert runs == [0, 1, 3, 7]
    assert sup.jobs["j"].failures == 3 and sup.jobs["j"].streak == 0
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["background job j failed (RuntimeError: boom 1); retrying in 1 s",
                        "background job j failed (RuntimeError: boom 0); retrying in 2 s",
                        "background job j failed (RuntimeError: boom 1); retrying in 4 s"]
    await sup.stop()
    assert sup._tasks == {}
