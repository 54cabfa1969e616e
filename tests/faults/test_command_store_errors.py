"""A slash command refused by the database says truly whether something was stored: a
``/game leave`` that stored the AI's takeover, whose AI move could not be written, does not
answer "so this was not done".

The real HerdBot plays the tiny game in the sandbox; a full disk is the full-disk fixture
of tests/faults/test_isolation.py (every write refused with SQLite's own error), switched
on by the test in the middle of a command, right after a chosen write went through.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import asyncpg
import pytest
import pytest_asyncio

from bot.discord.bot import OOPS_AFTER_CHANGE, STORE_DOWN_AFTER_CHANGE
from bot.runtime import GameService
from bot.sandbox import SimChannel
from bot.store import Store, postgres, sqlite
from tests.faults.common import make_bot, start_tiny
from tests.faults.test_isolation import FULL, STORE_DOWN, full_disk, texts, until
from tests.support import footer, headline
from tests.support.databases import PG_URL, SKIP_REASON, databases

NO = "\N{NO ENTRY SIGN} "
SAVED_BUT_DOWN = NO + STORE_DOWN_AFTER_CHANGE


async def test_leave_stored_then_a_full_disk_says_it_was_saved_and_the_game_catches_up(
        world, sb, clock, monkeypatch):
    """``/game leave`` stores the AI's takeover of Ana's seat and the AI's move for it in one
    transaction, whose COMMIT is applied and then raises (the checkpoint after it fails on
    a disk that is now full): Ana is told it was saved, the catch-up posts the table once
    (pinging Bo) though it cannot record it, and records it (no second post, no second
    ping) once the disk has room."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    store = sb.bot.store
    count = len(thread.all_messages)
    with full_disk(monkeypatch) as disk:
        disk["full"] = False

        def fill() -> None:  # the disk fills right after the takeover is stored
            disk["full"] = True
        with commit_raises(monkeypatch, "UPDATE seats SET ai_takeover", then=fill) as raised:
            it = await ana.slash("game leave", in_channel=thread)
        assert raised == ["disk I/O error"]
        assert it.original is not None and it.followups == []
        assert headline(it.original) == SAVED_BUT_DOWN and it.original.ephemeral
        assert [(s.seat, s.ai_takeover) for s in await store.seats(1)] == [
            ("s0", True), ("s1", False)]
        # the AI's move (Ana's turn) went with the takeover, in the same transaction
        assert [(r.version, r.seat) for r in await store.actions(1)] == [(1, "s0")]
        job = sb.bot.service.supervisor.jobs["herdbot-reconcile-timers"]

        async def failing() -> bool:
            return job.failures >= 1
        await until(failing, "the catch-up's first try")
        # it posted the table, then could not record it
        assert thread.all_messages[count:] == [it.original, thread.last_message]
        table = thread.last_message
        assert footer(table) == "Move 1"
        assert headline(table) == bo.mention  # Bo's turn, Bo pinged

        disk["full"] = False
        task = sb.bot.service.start_catch_up()  # the one the error started
        clock.advance(1)  # its backoff after the refused try
        await asyncio.wait_for(task, 10)
    await sb.settle()
    assert [(r.version, r.seat) for r in await store.actions(1)] == [(1, "s0")]
    assert thread.all_messages[count:] == [it.original, table]  # not posted again
    assert (await store.get_game(1)).table_message_id == table.id
    assert texts(thread)[-1] == bo.mention  # Bo's turn, Bo pinged once


async def test_leave_on_a_full_disk_says_nothing_was_done(world, sb, monkeypatch):
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    with full_disk(monkeypatch):
        await ana.slash("game leave", in_channel=lobby.thread)
    assert headline(ana.last_reply) == STORE_DOWN and ana.last_reply.ephemeral
    assert [(s.seat, s.ai_takeover) for s in await sb.bot.store.seats(1)] == [
        ("s0", False), ("s1", False)]


async def test_play_stored_then_a_full_disk_says_the_lobby_was_saved(world, sb, monkeypatch):
    """``/play`` stores the lobby and its expiry, posts it, then stores the lobby message's
    id: when only that last write is refused, the lobby is there, and the member is told
    so (before: "so this was not done" under a lobby anyone could join)."""
    ana, bo = world.member("Ana"), world.member("Bo")
    with full_disk(monkeypatch) as disk:
        disk["full"] = False
        original = Store.upsert_timer

        async def upsert_timer(self: Store, game_id: int, kind: str, *args: Any) -> Any:
            timer = await original(self, game_id, kind, *args)
            disk["full"] = kind == "lobby"  # the disk fills right after the lobby's expiry
            return timer
        monkeypatch.setattr(Store, "upsert_timer", upsert_timer)
        it = await ana.slash("play", game="tiny")
        disk["full"] = False
    lobby = it.original
    assert lobby is not None and not lobby.ephemeral and "Join" in lobby.labels
    assert [(headline(m), m.ephemeral) for m in it.followups] == [(SAVED_BUT_DOWN, True)]
    assert (await sb.bot.store.get_game(1)).lobby_message_id is None  # the refused write
    await bo.click(lobby, "Join")  # the lobby works all the same
    assert [s.name for s in await sb.bot.store.seats(1)] == ["Ana", "Bo"]


async def test_leave_stored_then_a_bug_says_it_was_saved(world, sb, monkeypatch):
    """The same for an unexpected error: "nothing was changed" only when nothing was."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    original = Store.commit_moves

    async def commit_moves(self: Store, game_id: int, **kw: Any) -> Any:
        await original(self, game_id, **kw)  # the takeover (and the AI's move) stored
        raise RuntimeError("a bug after the write")
    monkeypatch.setattr(Store, "commit_moves", commit_moves)
    with sb.allow_errors() as errors:
        it = await ana.slash("game leave", in_channel=lobby.thread)
    assert it.original is not None and it.original.ephemeral
    assert headline(it.original) == NO + OOPS_AFTER_CHANGE
    assert [(s.seat, s.ai_takeover) for s in await sb.bot.store.seats(1)] == [
        ("s0", True), ("s1", False)]
    assert [str(e.exc) for e in errors] == ["a bug after the write"]


async def test_a_refused_command_has_the_game_it_changed_caught_up(world, sb, monkeypatch):
    """The catch-up a refused ``/game leave`` starts names game 1, the one it changed, so
    it is caught up whichever shard serves its server (before: a catch-up naming no game,
    which looks only at the games of the servers this process serves)."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    with full_disk(monkeypatch) as disk:
        disk["full"] = False

        def fill() -> None:  # the disk fills right after the takeover is stored
            disk["full"] = True
        with commit_raises(monkeypatch, "UPDATE seats SET ai_takeover", then=fill):
            it = await ana.slash("game leave", in_channel=lobby.thread)
        assert it.original is not None and headline(it.original) == SAVED_BUT_DOWN
        assert sb.bot.service._behind == {1}
        disk["full"] = False


async def test_a_refused_command_in_a_dm_claims_no_change_to_the_members_games(
        world, sb, monkeypatch):
    """``/notify`` in a DM changes no game. Refused by the database while Ana's game in
    the server changed (another player's move, here its options), it says truly that it
    was not done and starts no catch-up (before: "What you did was saved", and a catch-up
    started: a DM command noted every game of the member in every server)."""
    ana, bo = world.member("Ana"), world.member("Bo")
    await start_tiny(world, ana, [bo])
    dm = SimChannel(world, world.clock.snowflake(), "dm", recipient_id=ana.id)
    world.dm_channels[ana.id] = world.channels[dm.id] = dm
    store = sb.bot.store
    with full_disk(monkeypatch) as disk:
        disk["full"] = False
        original = Store.set_member_prefs

        async def set_member_prefs(self: Store, user_id: int, **fields: Any) -> None:
            game = await self.get_game(1)
            assert game is not None
            await self.update_game(1, options={**game.options, "x": 1})
            disk["full"] = True
            await original(self, user_id, **fields)  # refused
        monkeypatch.setattr(Store, "set_member_prefs", set_member_prefs)
        it = await ana.slash("notify", in_channel=dm, direct_messages="off")
        disk["full"] = False
    assert it.original is not None and headline(it.original) == STORE_DOWN
    assert (await store.get_game(1)).options["x"] == 1
    assert sb.bot.service._behind == set()


def hold(monkeypatch: Any, name: str, disk: dict[str, bool],
         sb: Any) -> tuple[asyncio.Event, asyncio.Event]:
    """Patch ``GameService.<name>`` so that, once the member's request reaches it, it waits
    for the test (``reached`` set; the test sets ``go``), then the disk fills and the real
    method runs (its write refused). What the test does meanwhile runs in the test's own
    task: another member's interaction, as Discord would deliver it. The sandbox ``sb``
    counts the held request as waiting for input."""
    reached, go = asyncio.Event(), sb.input_event(asyncio.Event())
    original = getattr(GameService, name)

    async def held(self: GameService, *args: Any, **kwargs: Any) -> Any:
        reached.set()
        await go.wait()
        disk["full"] = True
        return await original(self, *args, **kwargs)
    monkeypatch.setattr(GameService, name, held)
    return reached, go


async def test_a_refused_command_while_another_player_moves_says_it_was_not_done(
        world, sb, monkeypatch):
    """Ana's ``/game leave`` is refused by the database while Bo's move in the same game is
    stored meanwhile: Ana is told truly that her leave was not done (before: "What you did
    was saved", because the game's version had changed), Bo's move stays, no catch-up."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    store = sb.bot.store
    await ana.click(thread.last_message, "Add 1")  # Bo's turn now
    with full_disk(monkeypatch) as disk:
        disk["full"] = False
        reached, go = hold(monkeypatch, "set_takeover", disk, sb)
        slash = asyncio.create_task(ana.slash("game leave", in_channel=thread))
        await asyncio.wait_for(reached.wait(), 10)
        await bo.click(thread.last_message, "Add 2")  # stored while Ana's command waits
        assert [(r.version, r.seat) for r in await store.actions(1)] == [(1, "s0"), (2, "s1")]
        go.set()
        it = await slash
        await sb.settle()
        disk["full"] = False
    assert it.original is not None and it.followups == []
    assert headline(it.original) == STORE_DOWN and it.original.ephemeral
    assert [(s.seat, s.ai_takeover) for s in await store.seats(1)] == [
        ("s0", False), ("s1", False)]
    assert [(r.version, r.seat) for r in await store.actions(1)] == [(1, "s0"), (2, "s1")]
    assert (await store.get_game(1)).version == 2
    assert sb.bot.service._behind == set()


async def test_a_refused_lobby_click_while_another_member_joins_says_it_was_not_done(
        world, sb, monkeypatch):
    """The same for a button: Ana's "Add AI seat" is refused while Bo joins the lobby
    meanwhile (its seats changed, not by Ana): "so this was not done" (before: "What you
    did was saved"), and Bo keeps his seat."""
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    assert lobby is not None
    with full_disk(monkeypatch) as disk:
        disk["full"] = False
        reached, go = hold(monkeypatch, "add_ai", disk, sb)
        click = asyncio.create_task(ana.click(lobby, "Add AI seat"))
        await asyncio.wait_for(reached.wait(), 10)
        await bo.click(lobby, "Join")  # stored while Ana's click waits
        go.set()
        it = await click
        await sb.settle()
        disk["full"] = False
    assert [(headline(m), m.ephemeral) for m in it.followups] == [(STORE_DOWN, True)]
    assert [(s.name, s.is_ai) for s in await sb.bot.store.seats(1)] == [
        ("Ana", False), ("Bo", False)]
    assert sb.bot.service._behind == set()


async def test_a_refused_lobby_click_that_stored_its_change_says_it_was_saved(
        world, sb, monkeypatch):
    """The click's own write counts: Ana's "Add AI seat" stores the seat, then the
    database fails: "What you did was saved", and the seat is there."""
    ana = world.member("Ana")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    assert lobby is not None
    original = Store.add_seat

    async def add_seat(self: Store, game_id: int, **fields: Any) -> Any:
        await original(self, game_id, **fields)
        raise sqlite3.OperationalError(FULL)  # the disk fills right after the seat is stored
    monkeypatch.setattr(Store, "add_seat", add_seat)
    it = await ana.click(lobby, "Add AI seat")
    assert [(headline(m), m.ephemeral) for m in it.followups] == [(SAVED_BUT_DOWN, True)]
    assert [(s.name, s.is_ai) for s in await sb.bot.store.seats(1)] == [
        ("Ana", False), ("AI Pancho", True)]


@contextmanager
def commit_raises(monkeypatch: Any, after: str = "INSERT INTO actions",
                  then: Callable[[], None] | None = None) -> Iterator[list[str]]:
    """The COMMIT of the next transaction with a statement starting with ``after`` (by
    default: one that stores a move) is applied, then raises: in SQLite "disk I/O error"
    (the automatic checkpoint that runs right after a commit failing on the disk, reported
    as the COMMIT's error), in PostgreSQL the connection lost right after the server
    committed (or after a statement it ran alone, holding ``after``); ``then()`` runs
    between the two. Yields the errors raised so far."""
    raised: list[str] = []
    pending = {"move": False}
    statement, commit, execute = sqlite.sqlite_statement, postgres.pg_commit, \
        postgres.PgConn.execute
    executemany = postgres.PgConn.executemany
    alone = postgres.pg_alone

    def on_thread(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> Any:
        if sql.startswith(after):
            pending["move"] = True
        if sql != "COMMIT" or not pending["move"]:
            return statement(conn, sql, args)
        pending["move"] = False
        statement(conn, sql, args).close()
        if then is not None:
            then()
        raised.append("disk I/O error")
        raise sqlite3.OperationalError("disk I/O error")

    async def pg_execute(self: postgres.PgConn, sql: str, args: Any = ()) -> int:
        pending["move"] = pending["move"] or sql.startswith(after)
        return await execute(self, sql, args)

    async def pg_executemany(self: postgres.PgConn, sql: str, rows: Any) -> None:
        pending["move"] = pending["move"] or sql.startswith(after)
        await executemany(self, sql, rows)

    async def pg_commit(con: Any, transaction: Any) -> None:
        await commit(con, transaction)
        if pending["move"]:
            pending["move"] = False
            if then is not None:
                then()
            raised.append("connection lost")
            raise asyncpg.ConnectionDoesNotExistError(
                "connection was closed in the middle of operation")

    async def pg_alone(con: Any, op: Any) -> Any:  # a statement committed on its own
        out = await alone(con, op)
        if after not in op.sql:
            return out
        if then is not None:
            then()
        raised.append("connection lost")
        raise asyncpg.ConnectionDoesNotExistError(
            "connection was closed in the middle of operation")

    with monkeypatch.context() as patch:
        patch.setattr(sqlite, "sqlite_statement", on_thread)
        patch.setattr(postgres.PgConn, "execute", pg_execute)
        patch.setattr(postgres.PgConn, "executemany", pg_executemany)
        patch.setattr(postgres, "pg_commit", pg_commit)
        patch.setattr(postgres, "pg_alone", pg_alone)
        yield raised


async def a_move_whose_commit_raised(world: Any, sb: Any, monkeypatch: Any) -> list[str]:
    """Ana's "Add 1" is stored, its COMMIT raises: she is told it was saved, and the
    catch-up her click's error started posts the table with the move and pings Bo.
    Returns the COMMIT errors raised."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    assert thread is not None
    store = sb.bot.store
    table = thread.last_message
    assert table is not None
    count = len(thread.all_messages)
    with commit_raises(monkeypatch) as raised:
        it = await ana.click(table, "Add 1")
    assert [(headline(m), m.ephemeral) for m in it.followups] == [(SAVED_BUT_DOWN, True)]
    assert [(r.version, r.seat) for r in await store.actions(1)] == [(1, "s0")]
    # the catch-up the error started (the database works again) posted the table
    assert thread.all_messages[count:-1] == it.followups
    shown = thread.last_message
    assert shown is not None and footer(shown) == "Move 1"
    assert headline(shown) == bo.mention  # Bo's turn, Bo pinged
    assert "Add 1" in shown.labels
    assert sb.bot.service._behind == set()
    return raised


async def test_a_move_whose_commit_raised_after_it_was_applied_says_it_was_saved(
        world, sb, monkeypatch):
    """A move whose COMMIT the database applied but that raised all the same (SQLite: the
    checkpoint after the commit failed on the disk) says "What you did was saved" and has
    the table caught up (before: "so this was not done" over a move that was stored, and
    the table stayed on the move before)."""
    assert await a_move_whose_commit_raised(world, sb, monkeypatch) == ["disk I/O error"]


@pytest_asyncio.fixture
async def pg_sb(world, clock, tmp_path):
    """The real bot on a fresh PostgreSQL schema (skipped without the test server)."""
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    async with databases("postgres", tmp_path) as new:
        sandbox = await world.connect(make_bot(await new(), clock))
        try:
            yield sandbox
        finally:
            await world.disconnect()


async def test_a_move_whose_commit_lost_its_postgresql_connection_says_it_was_saved(
        world, pg_sb, monkeypatch):
    """The same on PostgreSQL: the server committed Ana's move, and the connection was
    lost before its answer came back; asked afterwards, the server says "committed"."""
    assert await a_move_whose_commit_raised(world, pg_sb, monkeypatch) == ["connection lost"]


async def test_a_command_whose_commit_raised_after_it_was_applied_says_it_was_saved(
        world, sb, monkeypatch):
    """The same for a slash command (the command tree's error path): ``/game leave``
    stores the AI's takeover of Ana's seat, whose COMMIT raises after it was applied. Ana
    is told it was saved, and the catch-up has the AI make her move (before: "so this was
    not done", and the game waited on a seat the AI had taken over)."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    assert thread is not None
    with commit_raises(monkeypatch, "UPDATE seats SET ai_takeover") as raised:
        it = await ana.slash("game leave", in_channel=thread)
    assert raised == ["disk I/O error"]
    assert it.original is not None and it.followups == []
    assert headline(it.original) == SAVED_BUT_DOWN and it.original.ephemeral
    store = sb.bot.store
    assert [(s.seat, s.ai_takeover) for s in await store.seats(1)] == [
        ("s0", True), ("s1", False)]
    await sb.settle()
    assert [(r.version, r.seat) for r in await store.actions(1)] == [(1, "s0")]
    shown = thread.last_message
    assert shown is not None and footer(shown) == "Move 1"
    assert texts(thread)[-1] == bo.mention  # Bo's turn, Bo pinged
    assert sb.bot.service._behind == set()
