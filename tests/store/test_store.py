"""Store: migrations, one-transaction commits, seats, timers, settings, stats - on both
backends (``[sqlite]`` and ``[postgres]``; see tests/support/databases.py), plus what only
PostgreSQL has: several processes on one database (row locks, timer leases), a lost
connection, an unreachable server at start."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from typing import Any

import asyncpg
import pytest
import pytest_asyncio

from bot.store import (
    STORE_FAILURES,
    GuildSettings,
    PostgresUnavailable,
    StaleVersion,
    Store,
    StoreDown,
    postgres,
    sqlite,
    stop_tracking,
    tracking_writes,
)
from bot.store.migrations import MIGRATIONS, SCHEMA_VERSION
from bot.store.url import postgres_address
from tests.support.databases import PG_URL, SKIP_REASON, CuttableProxy, databases

needs_pg = pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)


async def test_migrate_from_empty_reaches_latest(store):
    assert await store.user_version() == SCHEMA_VERSION == len(MIGRATIONS) == 13


async def test_sqlite_file_is_wal_with_foreign_keys(tmp_path):
    store = await Store.open(tmp_path / "a.db")
    assert store.dialect == "sqlite"
    assert (await store._one("PRAGMA journal_mode"))[0] == "wal"
    assert (await store._one("PRAGMA foreign_keys"))[0] == 1
    await store.close()


@pytest.mark.parametrize("start", range(0, SCHEMA_VERSION + 1))
async def test_migrate_from_each_earlier_version(database, start):
    store = await Store.open(database, migrate=False)
    assert await store.migrate(target=start) == start
    await store.close()
    if start >= 1:  # rows as that schema holds them: a lobby, a game with its table posted,
        # a finished game (written with the columns of migration 1 only)
        store = await Store.open(database, migrate=False)
        async with store._tx() as db:
            for table_message_id, status, state, version in [
                    (None, "lobby", None, 0), (99, "active", "{}", 4), (98, "finished", "{}", 9)]:
                await db.execute(
                    "INSERT INTO games (kind, guild_id, channel_id, table_message_id, host_id,"
                    " status, seed, state, version, created_at, updated_at) VALUES"
                    " ('tiny', 1, 2, ?, 3, ?, 7, ?, ?, 0, 0)",
                    (table_message_id, status, state, version))
            await db.execute("INSERT INTO seats (game_id, seat, position, user_id, name)"
                             " VALUES (1, 's0', 0, 3, 'Ana')")
        await store.close()
    store = await Store.open(database)
    assert await store.user_version() == SCHEMA_VERSION
    if start >= 1:
        seats = await store.seats(1)
        assert [(s.seat, s.name, s.missed_turns, s.ai_takeover) for s in seats] == [
            ("s0", "Ana", 0, False)
        ]
    if 1 <= start < 6:
        # A table posted before migration 6 counts as showing the stored version, and a
        # game finished before it as scored.
        assert [(g.id, g.table_version) for g in await store.games_with_status(
            "lobby", "active", "finished")] == [(1, None), (2, 4), (3, 9)]
        rows = await store._all("SELECT id, result_recorded FROM games ORDER BY id")
        assert [tuple(r) for r in rows] == [(1, 0), (2, 0), (3, 1)]
    await store.close()


def _family(declared: str) -> str:
    """The kind of value a column holds, as both dialects name it."""
    declared = declared.lower()
    if "int" in declared:
        return "integer"
    if declared in ("real", "double precision"):
        return "float"
    if declared == "text":
        return "text"
    raise AssertionError(f"unexpected column type {declared}")


@needs_pg
@pytest.mark.parametrize("number", range(1, SCHEMA_VERSION + 1))
async def test_each_migration_gives_the_same_tables_and_columns_in_both_dialects(
        tmp_path, number):
    """Migration ``number`` in SQLite and in PostgreSQL: the same tables, the same columns
    in the same order, each holding the same kind of value and the same NOT NULL."""
    sqlite_store = await Store.open(tmp_path / "s.db", migrate=False)
    await sqlite_store.migrate(target=number)
    tables = [r[0] for r in await sqlite_store._all(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name")]
    lite = {t: [(r["name"], _family(r["type"]), bool(r["notnull"] or r["pk"]))
                for r in await sqlite_store._all(f"PRAGMA table_info({t})")] for t in tables}
    await sqlite_store.close()
    async with databases("postgres", tmp_path) as new:
        pg_store = await Store.open(await new(), migrate=False)
        await pg_store.migrate(target=number)
        rows = await pg_store._all(
            "SELECT table_name, column_name, data_type, is_nullable FROM"
            " information_schema.columns WHERE table_schema=current_schema()"
            " AND table_name <> 'herdbot_schema' ORDER BY table_name, ordinal_position")
        await pg_store.close()
    pg: dict[str, list[tuple[str, str, bool]]] = {}
    for r in rows:
        pg.setdefault(r["table_name"], []).append(
            (r["column_name"], _family(r["data_type"]), r["is_nullable"] == "NO"))
    assert pg == lite


@pytest_asyncio.fixture
async def opened(new_database):
    """``await opened()``: a migrated store on a fresh database of this run's backend;
    ``await opened(target)`` another store on the same database. All closed after."""
    stores: list[Store] = []

    async def _open(target=None, **kw):
        store = await Store.open(target or await new_database(), **kw)
        stores.append(store)
        return store

    yield _open
    for store in stores:
        await store.close()


async def _active_game(store: Store) -> int:
    rec = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                  host_name="Ana", options={}, seed=7)
    await store.start_game(rec.id, state='{"v": 0}', version=0)
    return rec.id


async def test_commit_action_writes_state_and_action_together(opened):
    store = await opened()
    gid = await _active_game(store)
    await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1, seat="s0",
                              action={"type": "add", "n": 1}, events=[{"type": "add"}])
    rec = await store.get_game(gid)
    assert (rec.version, rec.state) == (1, '{"v": 1}')
    log = await store.actions(gid)
    assert [(a.version, a.seat, a.action) for a in log] == [(1, "s0", {"type": "add", "n": 1})]


async def test_stale_version_writes_nothing(opened):
    store = await opened()
    gid = await _active_game(store)
    with pytest.raises(StaleVersion) as info:
        await store.commit_action(gid, expected_version=5, state="{}", version=6, seat="s0",
                                  action={}, events=[])
    assert (info.value.expected, info.value.actual) == (5, 0)
    assert (await store.get_game(gid)).version == 0
    assert await store.actions(gid) == []


@pytest.mark.parametrize("together", [False, True], ids=["one-statement", "in-turn"])
async def test_a_commit_with_no_move_from_an_older_version_writes_nothing(opened, together):
    """A commit with no move (timers, seat flags, missed turns: a catch-up, "I'm back", a
    turn timeout the AI had no move for) computed from version 0 after another move
    stored version 1: StaleVersion, and the timers and seats the newer version stored
    stay. ``together``: a seat both flagged and counted, which PostgreSQL writes as
    statements in turn rather than as one. Before, it overwrote them."""
    store = await opened()
    gid = await _active_game(store)
    await store.commit_moves(gid, expected_version=0, state='{"v": 1}',
                             moves=[(1, "s0", {}, [])],
                             timers=[(gid, "turn", "v1", 200.0, {"seats": ["s1"]})])
    with pytest.raises(StaleVersion) as info:
        await store.commit_moves(
            gid, expected_version=0, timers=[(gid, "turn", "v0", 100.0, {"seats": ["s0"]})],
            drop_timers=["idle"], seats={"s0": {"ai_takeover": True}},
            missed_turns=(["s0"], 3) if together else None)
    assert (info.value.expected, info.value.actual) == (0, 1)
    assert [(t.kind, t.key, t.due_at, t.payload) for t in await store.timers()] == [
        ("turn", "v1", 200.0, {"seats": ["s1"]})]
    assert [(s.missed_turns, s.ai_takeover) for s in await store.seats(gid)] == [(0, False)]
    # from the stored version, it writes
    _, missed = await store.commit_moves(
        gid, expected_version=1, timers=[(gid, "turn", "v1b", 300.0, {})],
        seats={"s0": {"ai_takeover": True}}, missed_turns=(["s0"], 3) if together else None)
    assert missed == ({"s0": 1} if together else {})
    assert [(t.key, t.due_at) for t in await store.timers()] == [("v1b", 300.0)]
    assert [(s.missed_turns, s.ai_takeover) for s in await store.seats(gid)] == [
        (1 if together else 0, True)]


async def test_a_missed_turn_is_counted_from_the_stored_count_in_the_moves_transaction(
        opened):
    """``missed_turn`` adds one to the seat's stored count with the move (the AI takes the
    seat over at the limit) and returns it; ``miss_turn`` does the same with no move; a
    seat that does not exist counts 0 and nothing changes."""
    store = await opened()
    gid = await _active_game(store)
    seats = await store.seats(gid)
    assert [(s.seat, s.missed_turns, s.ai_takeover) for s in seats] == [("s0", 0, False)]
    await store.set_seat(gid, "s0", missed_turns=1)
    assert await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1,
                                     seat="s0", action={}, events=[],
                                     missed_turn=("s0", 3)) == 2
    assert [(s.missed_turns, s.ai_takeover) for s in await store.seats(gid)] == [(2, False)]
    assert await store.commit_action(gid, expected_version=1, state='{"v": 2}', version=2,
                                     seat="s0", action={}, events=[]) is None
    assert await store.miss_turn(gid, "s0", 3) == 3
    assert [(s.missed_turns, s.ai_takeover) for s in await store.seats(gid)] == [(3, True)]
    assert await store.miss_turn(gid, "s7", 3) == 0
    with pytest.raises(StaleVersion):  # a refused move counts nothing
        await store.commit_action(gid, expected_version=0, state="{}", version=1, seat="s0",
                                  action={}, events=[], missed_turn=("s0", 3))
    assert [(s.missed_turns, s.ai_takeover) for s in await store.seats(gid)] == [(3, True)]


async def test_failed_action_insert_rolls_back_the_state(opened):
    """A crash between the state write and the action write cannot leave half a move:
    a duplicate action row makes the INSERT fail, and the state UPDATE is rolled back."""
    store = await opened()
    gid = await _active_game(store)
    await store._backend.write(
        "INSERT INTO actions (game_id, version, seat, action, events, created_at)"
        " VALUES (?, 1, 's9', '{}', '[]', 0)", (gid,))
    expected = sqlite3.IntegrityError if store.dialect == "sqlite" else StoreDown
    with pytest.raises(expected) as info:
        await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1,
                                  seat="s0", action={}, events=[])
    if store.dialect == "postgres":
        assert info.value.lost is False
        assert type(info.value.__cause__).__name__ == "UniqueViolationError"
    rec = await store.get_game(gid)
    assert (rec.version, rec.state) == (0, '{"v": 0}')


def count_trips(conn) -> list[str]:
    """Record (by function name) every trip the aiosqlite connection ``conn`` makes to its
    thread from now on; returns the list it appends to."""
    trips: list[str] = []
    real = conn._execute

    async def counted(fn, *args, **kw):
        trips.append(getattr(fn, "__name__", "?"))
        return await real(fn, *args, **kw)

    conn._execute = counted
    return trips


async def test_sqlite_transactions_take_one_trip_per_statement_plus_the_commit(tmp_path):
    """BEGIN IMMEDIATE goes with a transaction's first statement; a statement is one trip
    to aiosqlite's thread (no separate cursor close); a failed first statement (its BEGIN
    done) is rolled back and the next transaction works."""
    store = await Store.open(tmp_path / "a.db")
    try:
        gid = await _active_game(store)
        conn = store._backend._db
        trips = count_trips(conn)
        assert await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1,
                                         seat="s0", action={}, events=[]) is None
        assert trips == ["_sqlite_begin_then", "_sqlite_rowcount", "_sqlite_rowcount",
                         "_sqlite_rowcount"]  # SELECT, UPDATE, INSERT, COMMIT
        trips.clear()
        assert await store._backend.write("UPDATE games SET seed=8 WHERE id=?", (gid,)) == 1
        assert trips == ["_sqlite_rowcount"]
        trips.clear()
        with pytest.raises(sqlite3.OperationalError):
            async with store._backend.tx() as db:
                await db.execute("UPDATE no_such_table SET x=1")
        assert trips == ["_sqlite_begin_then", "_sqlite_rollback"]
        assert not conn._conn.in_transaction
        async with store._backend.tx():
            pass  # no statement: nothing begins, nothing is sent
        await store.mark_shown(gid, 1)
        assert (await store.get_game(gid)).table_version == 1
    finally:
        await store.close()


async def test_sqlite_reads_run_at_once_on_a_query_only_connection(tmp_path):
    """Outside a transaction a read takes no trip to aiosqlite's thread; it sees every
    committed write and never a transaction in flight; the connection refuses writes. An
    in-memory database (a second connection would be another database) reads as before."""
    store = await Store.open(tmp_path / "a.db")
    try:
        gid = await _active_game(store)
        conn = store._backend._db
        trips = count_trips(conn)
        assert (await store.get_game(gid)).version == 0
        assert trips == []
        async with store._backend.tx() as db:
            await db.execute("UPDATE games SET version=5 WHERE id=?", (gid,))
            assert (await db.fetchrow("SELECT version FROM games WHERE id=?", (gid,)))[0] == 5
            assert (await store.get_game(gid)).version == 0  # not committed yet
        assert (await store.get_game(gid)).version == 5
        assert trips == ["_sqlite_begin_then", "_execute_fetchall", "_sqlite_rowcount"]
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store._backend.reader.direct.execute("DELETE FROM games")
    finally:
        await store.close()
    assert store._backend.reader.direct is None
    memory = await Store.open(":memory:")
    try:
        assert memory._backend.reader.direct is None
        assert (await memory.get_game(await _active_game(memory))).version == 0
    finally:
        await memory.close()


async def test_seats_refuse_duplicates_and_overflow(opened):
    store = await opened()
    rec = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                  host_name="Ana", options={}, seed=7)
    assert await store.add_seat(rec.id, user_id=3, name="Ana", is_ai=False, max_seats=2) is None
    bo = await store.add_seat(rec.id, user_id=4, name="Bo", is_ai=False, max_seats=2)
    assert (bo.seat, bo.position) == ("s1", 1)
    assert await store.add_seat(rec.id, user_id=5, name="Cy", is_ai=False, max_seats=2) is None
    assert await store.remove_seat(rec.id, "s1") is True
    ai = await store.add_seat(rec.id, user_id=None, name="AI", is_ai=True, max_seats=2)
    assert (ai.seat, ai.is_ai) == ("s1", True)


async def test_discord_sized_ids_round_trip(opened):
    """Discord ids are 64-bit: 1_300_000_000_000_000_000 fits both backends' columns."""
    store = await opened()
    big = 1_300_000_000_000_000_000
    rec = await store.create_game(kind="tiny", guild_id=big, channel_id=big + 1, host_id=big + 2,
                                  host_name="Ana", options={"x": 1}, seed=2**31 - 1)
    await store.update_game(rec.id, thread_id=big + 3)
    got = await store.game_by_thread(big + 3)
    assert (got.guild_id, got.channel_id, got.host_id, got.options, got.seed) == (
        big, big + 1, big + 2, {"x": 1}, 2**31 - 1)
    assert [g.id for g in await store.active_games_of(big + 2, big)] == [rec.id]
    assert await store.active_games_of(big + 2, 5) == []


async def test_lobby_limit_counts_open_lobbies(opened):
    store = await opened()
    for _ in range(2):
        await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                host_name="Ana", options={}, seed=7, max_open=2)
    with pytest.raises(Exception) as info:
        await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                host_name="Ana", options={}, seed=7, max_open=2)
    assert (type(info.value).__name__, info.value.open) == ("LobbyLimit", 2)
    assert await store.count_games() == {"lobby": 2}


async def test_timers_upsert_and_order(opened):
    store = await opened()
    gid = await _active_game(store)
    await store.upsert_timer(gid, "rules", "k1", 50.0, {"a": 1})
    await store.upsert_timer(gid, "rules", "k2", 40.0, {"a": 2})
    await store.upsert_timer(gid, "turn", "t", 45.0, {})
    timers = await store.timers()
    assert [(t.kind, t.key, t.due_at, t.payload) for t in timers] == [
        ("rules", "k2", 40.0, {"a": 2}), ("turn", "t", 45.0, {})]
    assert await store.next_due() == 40.0
    assert [t.kind for t in await store.due_timers(44.0)] == ["rules"]
    assert await store.delete_timer(gid, "turn") == 1
    assert await store.delete_timer(gid) == 1
    assert await store.timers() == []
    assert await store.next_due() is None


async def test_game_and_deadlines_reads_the_game_and_its_table_timers_in_one_query(opened):
    store = await opened()
    gid = await _active_game(store)
    assert await store.game_and_deadlines(gid) == (await store.get_game(gid), {})
    await store.upsert_timer(gid, "rules", "k1", 50.5, {"a": 1})
    await store.upsert_timer(gid, "archive", "a", 90.0, {})
    record, due = await store.game_and_deadlines(gid)
    assert (record, due) == (await store.get_game(gid), {"rules": 50.5})
    await store.upsert_timer(gid, "turn", "t", 45.0, {})
    assert (await store.game_and_deadlines(gid))[1] == {"rules": 50.5, "turn": 45.0}
    other = await _active_game(store)
    assert await store.game_and_deadlines(other) == (await store.get_game(other), {})
    assert await store.game_and_deadlines(999) == (None, {})


async def test_load_game_gives_the_seats_and_timers_the_full_reads_give(opened):
    """One query (``load_game``) reads every stored field of the game's seats and timers,
    exactly as the reads of whole rows do: a seat with every field set away from its
    default, and a timer due at a time that needs all 17 digits of a double."""
    store = await opened()
    gid = (await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                   host_name="Ana", options={}, seed=7)).id
    await store.add_seat(gid, user_id=None, name="AI Bo", is_ai=True, max_seats=4,
                         ai_level="hard")
    await store.start_game(gid, state='{"v": 0}', version=0)
    for seat in await store.seats(gid):
        await store.set_seat(gid, seat.seat, missed_turns=2, ai_takeover=True,
                             dm_hand="7:[1, 2]")
    await store.upsert_timer(gid, "rules", "k1", 1764835200.1234567, {"a": [1, "b"]})
    await store.upsert_timer(gid, "turn", "t", 45.0, {})
    bundle = await store.load_game(gid)
    assert bundle is not None
    assert bundle.record == await store.get_game(gid)
    assert bundle.seats == await store.seats(gid)
    assert [s.ai_level for s in bundle.seats] == ["normal", "hard"]
    assert bundle.timers == {"rules": await store.timer(gid, "rules"),
                             "turn": await store.timer(gid, "turn")}
    assert bundle.timers["rules"].due_at == 1764835200.1234567


async def test_settings_prefs_and_stats(opened):
    store = await opened()
    assert (await store.guild_settings(9)).turn_timer is None
    await store.save_guild_settings(GuildSettings(guild_id=9, turn_timer="10m", dm_notifications=False))
    await store.save_guild_settings(GuildSettings(guild_id=9, turn_timer="2m", dm_notifications=False,
                                                  max_open_lobbies=4))
    s = await store.guild_settings(9)
    assert (s.turn_timer, s.dm_notifications, s.max_open_lobbies) == ("2m", False, 4)
    await store.set_member_prefs(4, dm_closed=True)
    await store.set_member_prefs(4, turn_notices=True)
    assert await store.member_prefs(4) == {"dm_opt_out": False, "dm_closed": True,
                                           "dm_closed_told": False, "turn_notices": True}
    await store.record_result(9, "tiny", [(4, True, 12), (5, False, 8)])
    await store.record_result(9, "tiny", [(4, False, 15), (5, True, 20)])
    await store.record_result(9, "tiny", [(5, False, 3)])
    rows = await store.stats(9, kind="tiny")
    assert [(r.user_id, r.played, r.won, r.best_score) for r in rows] == [(4, 2, 1, 15), (5, 3, 1, 20)]
    assert [r.user_id for r in await store.stats(9, user_id=5)] == [5]
    assert await store.forget_stats(4, 9) == 1
    assert [r.user_id for r in await store.stats(9)] == [5]
    assert await store.forget_stats(5) == 1


async def test_a_final_move_writes_its_stats_in_the_same_transaction(store):
    """commit_action with ``result`` adds the stats rows; a stale version writes neither the
    move nor the stats."""
    game = await store.create_game(kind="tiny", guild_id=9, channel_id=2, host_id=4,
                                   host_name="Ana", options={}, seed=7)
    await store.start_game(game.id, state="{}", version=0)
    with pytest.raises(StaleVersion):
        await store.commit_action(game.id, expected_version=3, state="{}", version=4, seat="s0",
                                  action={}, events=[], status="finished",
                                  result=(9, "tiny", [(4, True, 20)]))
    assert await store.stats(9) == []
    await store.commit_action(game.id, expected_version=0, state="{}", version=1, seat="s0",
                              action={}, events=[], status="finished",
                              result=(9, "tiny", [(4, True, 20), (5, False, 12)]))
    rows = [(r.user_id, r.played, r.won, r.best_score) for r in await store.stats(9)]
    assert rows == [(4, 1, 1, 20), (5, 1, 0, 12)]
    assert (await store.get_game(game.id)).status == "finished"


async def test_shown_version_result_once_and_idle_setting_on_each_backend(store):
    """The catch-up columns (migrations 5-6): ``table_version`` only grows and a finished
    game behind it is listed; a result given with ``game_id`` is recorded once; a reset
    lobby forgets its table and ping; ``end_idle_games`` and 64-bit ids round-trip."""
    gid = await _active_game(store)
    await store.update_game(gid, pinged_key="turn:s0", table_message_id=1_400_000_000_000_000_002)
    await store.mark_shown(gid, 3)
    await store.mark_shown(gid, 2)  # an older post never lowers it
    assert (await store.get_game(gid)).table_version == 3
    await store.commit_action(gid, expected_version=0, state="{}", version=4, seat="s0",
                              action={}, events=[], status="finished")
    assert [g.id for g in await store.finished_games_behind()] == [gid]
    await store.mark_shown(gid, 4)
    assert await store.finished_games_behind() == []
    rows = [(4, True, 20)]
    assert await store.record_result(9, "tiny", rows, game_id=gid) is True
    assert await store.record_result(9, "tiny", rows, game_id=gid) is False
    assert [(r.user_id, r.played, r.won) for r in await store.stats(9)] == [(4, 1, 1)]
    other = await _active_game(store)
    await store.update_game(other, pinged_key="turn:s0", table_version=0)
    assert await store.reset_to_lobby(other) is True
    row = await store._one("SELECT status, pinged_key, table_version FROM games WHERE id=?",
                           (other,))
    assert tuple(row) == ("lobby", None, None)
    await store.save_guild_settings(GuildSettings(guild_id=1_300_000_000_000_000_000,
                                                  end_idle_games=False))
    assert (await store.guild_settings(1_300_000_000_000_000_000)).end_idle_games is False
    await store.save_guild_settings(GuildSettings(guild_id=1_300_000_000_000_000_000,
                                                  end_idle_games=True, turn_timer="24h"))
    got = await store.guild_settings(1_300_000_000_000_000_000)
    assert (got.end_idle_games, got.turn_timer) == (True, "24h")
    assert got.one_message is None
    await store.save_guild_settings(got.model_copy(update={"one_message": True}))
    got = await store.guild_settings(1_300_000_000_000_000_000)
    assert (got.one_message, got.end_idle_games, got.turn_timer) == (True, True, "24h")


async def test_dm_channel_kept_beside_the_member_preferences(store):
    assert await store.dm_channel(8) is None
    await store.set_member_prefs(8, turn_notices=True)
    await store.set_dm_channel(8, 777)
    await store.set_member_prefs(8, dm_opt_out=True)
    assert await store.dm_channel(8) == 777
    assert (await store.member_prefs(8))["turn_notices"] is True


async def test_an_unreadable_timer_row_is_skipped_noted_and_dropped_only_while_unreadable(store):
    game = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                   host_name="Ana", options={}, seed=7)
    tid = (await store.upsert_timer(game.id, "turn", "k1", 10.0, {"seats": ["s0"]})).id
    await store._backend.write("UPDATE timers SET payload='{x' WHERE id=?", (tid,))
    assert await store.due_timers(20.0) == [] and await store.timer(game.id, "turn") is None
    assert store.unreadable_timers == {tid: (game.id, "'turn' timer: JSONDecodeError: Expecting "
                                             "property name enclosed in double quotes: line 1 "
                                             "column 2 (char 1)")}
    # Written again over the same game and kind (same row id): the new timer is kept.
    await store.upsert_timer(game.id, "turn", "k2", 30.0, {})
    assert await store.delete_timer_row(tid) is False
    assert [(t.id, t.key, t.due_at) for t in await store.timers()] == [(tid, "k2", 30.0)]
    if store.dialect == "sqlite":
        # A due time that is not a number is never due, and next_due ignores it.
        await store._backend.write("UPDATE timers SET due_at='soon' WHERE id=?", (tid,))
        assert await store.next_due() is None and await store.due_timers(1e12) == []
    else:  # a PostgreSQL due_at holds numbers only: unreadable by its payload again
        await store._backend.write("UPDATE timers SET payload='[' WHERE id=?", (tid,))
        assert await store.due_timers(1e12) == [] and await store.next_due() == 30.0
    assert await store.delete_timer_row(tid) is True
    assert await store.timers() == []


# -- PostgreSQL: several processes on one database ------------------------------------


@pytest_asyncio.fixture
async def pg_database(tmp_path):
    """A fresh PostgreSQL schema's URL (skipped without a server)."""
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    async with databases("postgres", tmp_path) as new:
        yield await new()


async def test_a_due_timer_is_claimed_by_exactly_one_process_until_its_lease_ends(pg_database):
    """Two stores stand for two processes: both ask for the due timers at once; one gets
    the timer, the other nothing, and the other waits for the lease's end. After the lease
    (the claimer died while firing) the other takes it over."""
    a, b = await Store.open(pg_database), await Store.open(pg_database)
    try:
        gid = await _active_game(a)
        await a.upsert_timer(gid, "rules", "k", 100.0, {})
        got_a, got_b = await asyncio.gather(a.due_timers(150.0), b.due_timers(150.0))
        assert sorted([len(got_a), len(got_b)]) == [0, 1]
        winner, other = (a, b) if got_a else (b, a)
        row = await a._one("SELECT claimed_by, lease_until FROM timers")
        assert (row["claimed_by"], row["lease_until"]) == (winner.claimant, 150.0 + 60.0)
        assert await other.due_timers(209.0) == []
        assert await other.next_due() == 210.0
        assert await winner.next_due() == 100.0  # its own claim: retry after a failure
        assert [t.key for t in await winner.due_timers(160.0)] == ["k"]  # renews its lease
        taken = await other.due_timers(220.0)  # lease of 160 + 60 is over
        assert [t.key for t in taken] == ["k"]
        # Rescheduling the timer drops the claim: anyone may fire the new deadline.
        await winner.upsert_timer(gid, "rules", "k2", 300.0, {})
        row = await a._one("SELECT claimed_by, lease_until FROM timers")
        assert (row["claimed_by"], row["lease_until"]) == (None, None)
    finally:
        await a.close()
        await b.close()


async def test_concurrent_moves_from_two_processes_apply_once(pg_database):
    """The row lock on the game plus the version check: 20 commits of version 1 from two
    stores at once, exactly one is applied and 19 are StaleVersion; the log has one row."""
    a, b = await Store.open(pg_database), await Store.open(pg_database)
    try:
        gid = await _active_game(a)

        async def move(store: Store, n: int) -> None:
            await store.commit_action(gid, expected_version=0, state=f'{{"n": {n}}}', version=1,
                                      seat="s0", action={"n": n}, events=[])

        results = await asyncio.gather(*(move(a if n % 2 else b, n) for n in range(20)),
                                       return_exceptions=True)
        assert sum(r is None for r in results) == 1
        assert sum(isinstance(r, StaleVersion) and r.actual == 1 for r in results) == 19
        log = await a.actions(gid)
        assert len(log) == 1 and (await b.get_game(gid)).state == f'{{"n": {log[0].action["n"]}}}'
    finally:
        await a.close()
        await b.close()


async def test_a_lost_connection_refuses_and_the_store_recovers_by_itself(pg_database):
    """The connection to PostgreSQL is cut (a proxy drops it and refuses new ones): a move
    fails with StoreDown(lost=True) and writes nothing; once the server is reachable again
    the same store commits the move without being reopened."""
    proxy = await CuttableProxy(*postgres_address(PG_URL)).start()
    store = await Store.open(proxy.url(pg_database))
    try:
        gid = await _active_game(store)
        await proxy.cut()
        with pytest.raises(StoreDown) as info:
            await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1,
                                      seat="s0", action={}, events=[])
        assert info.value.lost is True
        assert str(info.value).startswith("herdbot: PostgreSQL connection lost (")
        with pytest.raises(StoreDown):  # still down: refused again, quickly
            await store.get_game(gid)
        await proxy.restore()
        await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1,
                                  seat="s0", action={}, events=[])
        assert [(a.version, a.seat) for a in await store.actions(gid)] == [(1, "s0")]
    finally:
        await store.close()
        await proxy.cut()


@pytest.mark.parametrize("applied", [True, False], ids=["applied", "not-applied"])
async def test_a_move_sent_alone_whose_connection_is_lost_is_asked_about_once_released(
        pg_database, monkeypatch, applied):
    """A pool of one connection (every connection of the pool lost at once, as in a disk
    stall): a move sent as one statement alone loses its connection; the server is asked
    what became of it once that connection is back in the pool. Applied: the game is
    noted; not applied (the connection ended before the statement arrived): nothing is.
    Before, the question waited for a free connection while holding the only one: for
    ever."""
    monkeypatch.setattr(postgres.PgBackend, "POOL_SIZE", 1)
    store = await Store.open(pg_database)
    try:
        gid = await _active_game(store)
        with commits_fail(store, monkeypatch, applied=applied):
            noted = await asyncio.wait_for(noted_by(store.commit_moves(
                gid, expected_version=0, state='{"v": 1}', moves=[(1, "s0", {}, [])]),
                COMMIT_ERROR["postgres"] if applied else None), 10)
        assert noted == ({gid} if applied else set())
        game = await store.get_game(gid)
        assert (game.version, [a.version for a in await store.actions(gid)]) == (
            (1, [1]) if applied else (0, []))
    finally:
        await store.close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_an_unreachable_postgresql_at_open_names_host_and_port():
    port = _closed_port()
    with pytest.raises(PostgresUnavailable) as info:
        await Store.open(f"postgresql://herdbot:secret@127.0.0.1:{port}/herdbot")
    assert str(info.value) == (
        f"herdbot: cannot use PostgreSQL at 127.0.0.1:{port} (HERDBOT_DATABASE): connection "
        "refused (no server listening there).")


def test_herdbot_run_on_an_unreachable_postgresql_prints_one_line_and_exits_1(tmp_path):
    port = _closed_port()
    env = {**os.environ, "DISCORD_TOKEN": "x" * 60,
           "HERDBOT_DATABASE": f"postgresql://herdbot:secret@127.0.0.1:{port}/herdbot"}
    proc = subprocess.run([sys.executable, "-m", "bot", "run"], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=60)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == (
        f"herdbot: cannot use PostgreSQL at 127.0.0.1:{port} (HERDBOT_DATABASE): connection "
        "refused (no server listening there).\n")


# -- HERDBOT_DATABASE: a file or a URL ------------------------------------------------


def test_herdbot_database_is_a_file_path_or_a_postgresql_url():
    from pathlib import Path

    from bot.config import Settings

    pg = Settings(_env_file=None, HERDBOT_DATABASE="postgresql://hb:pw@db:5433/herdbot")
    assert (pg.database_url, pg.sqlite_path) == ("postgresql://hb:pw@db:5433/herdbot", None)
    assert postgres_address(pg.database_url) == ("db", 5433)
    assert postgres_address("postgresql:///herdbot") == ("localhost", 5432)
    lite = Settings(_env_file=None, HERDBOT_DATABASE="data/bot.sqlite3")
    assert (lite.database_url, lite.sqlite_path) == (None, Path("data/bot.sqlite3"))


def test_another_url_scheme_is_refused_without_showing_the_password():
    from pydantic import ValidationError

    from bot.config import Settings, describe_errors

    with pytest.raises(ValidationError) as info:
        Settings(_env_file=None, HERDBOT_DATABASE="mysql://hb:pw@db/herdbot")
    assert describe_errors(info.value) == [
        "herdbot: HERDBOT_DATABASE='mysql://hb:***@db/herdbot' is not allowed; use a file "
        "path, or a PostgreSQL URL postgresql://user:password@host:port/db (set in the "
        "environment or .env)."]


def test_herdbot_backup_of_a_postgresql_database_points_to_pg_dump(tmp_path):
    env = {**os.environ, "HERDBOT_DATABASE": "postgresql://hb:pw@127.0.0.1:5/herdbot"}
    proc = subprocess.run([sys.executable, "-m", "bot", "backup", str(tmp_path / "b")],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == ("herdbot: `herdbot backup` copies a SQLite file, and "
                           "HERDBOT_DATABASE is a PostgreSQL database: back it up with "
                           "pg_dump.\n")


async def test_a_request_notes_the_games_its_committed_writes_changed_and_no_others(store):
    """bot.store.tracking: a committed change of a game's play (lobby, seats, start, move,
    options, status) notes the game for the request tracking its writes; bookkeeping of
    what is shown, timers, refused and rolled-back writes note nothing; tasks the request
    creates count for it, background jobs (``stop_tracking``) and untracked code do not."""
    untracked = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                        host_name="Ana", options={}, seed=7)
    with tracking_writes() as lobby:
        rec = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=4,
                                      host_name="Bo", options={}, seed=7)
    assert lobby == {rec.id} and untracked.id != rec.id
    with tracking_writes() as seated:
        await store.add_seat(untracked.id, user_id=None, name="AI", is_ai=True, max_seats=4)
    assert seated == {untracked.id}
    with tracking_writes() as shown:
        assert await store.update_game(rec.id, lobby_message_id=9, pinged_key="k")
        await store.mark_shown(rec.id, 0)
        await store.set_seat(rec.id, "s0", dm_hand="hand")
        await store.upsert_timer(rec.id, "lobby", "k", 100.0, {})
    assert shown == set()
    gid = await _active_game(store)
    with tracking_writes() as refused:
        with pytest.raises(StaleVersion):  # rolled back
            await store.commit_action(gid, expected_version=5, state="{}", version=6,
                                      seat="s0", action={}, events=[])
        assert not await store.remove_seat(gid, "s0")  # not a lobby: nothing removed
        assert not await store.update_game(gid, when_status="lobby", status="cancelled")
        assert await store.add_seat(gid, user_id=None, name="AI", is_ai=True,
                                    max_seats=4) is None
    assert refused == set()
    with tracking_writes() as played:
        await store.commit_action(gid, expected_version=0, state="{}", version=1, seat="s0",
                                  action={}, events=[])
        await asyncio.create_task(store.update_game(rec.id, options={"x": 1}))

        async def background() -> None:
            stop_tracking()
            await store.set_seat(untracked.id, "s0", ai_takeover=True)
        await asyncio.create_task(background())
    assert played == {gid, rec.id}
    with tracking_writes() as outer:
        with tracking_writes() as inner:
            await store.set_seat(gid, "s0", missed_turns=1)
        await store.update_game(gid, status="finished")
    assert (outer, inner) == ({gid}, {gid})


#: The error each backend's COMMIT raises in :func:`commits_fail` (PostgreSQL: as
#: ``StoreDown``, the connection lost after the server committed).
COMMIT_ERROR = {
    "sqlite": "disk I/O error",
    "postgres": "herdbot: PostgreSQL connection lost (ConnectionDoesNotExistError: connection "
                "was closed in the middle of operation)",
}


@contextmanager
def commits_fail(store: Store, monkeypatch: pytest.MonkeyPatch, *,
                 applied: bool) -> Iterator[dict[str, bool]]:
    """While ``flag["on"]``, every COMMIT of ``store``'s backend raises: after the database
    applied it (``applied``: SQLite's automatic checkpoint failing on the disk right after
    the commit; PostgreSQL's connection lost right after the server committed) or before
    (SQLite refusing it, ``database is locked``, the transaction still open; PostgreSQL's
    connection ended by the server before the COMMIT arrives: pg_terminate_backend)."""
    flag = {"on": True}
    if store.dialect == "sqlite":
        statement = sqlite.sqlite_statement

        def on_thread(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> Any:
            if not (flag["on"] and sql == "COMMIT"):
                return statement(conn, sql, args)
            if not applied:
                raise sqlite3.OperationalError("database is locked")
            statement(conn, sql, args).close()
            raise sqlite3.OperationalError("disk I/O error")
        monkeypatch.setattr(sqlite, "sqlite_statement", on_thread)
    else:
        commit = postgres.pg_commit

        async def pg_commit(con: Any, transaction: Any) -> None:
            if flag["on"] and not applied:
                killer = await asyncpg.connect(PG_URL)
                try:
                    assert await killer.fetchval("SELECT pg_terminate_backend($1, 5000)",
                                                 con.get_server_pid()) is True
                finally:
                    await killer.close()
            await commit(con, transaction)
            if flag["on"]:
                raise asyncpg.ConnectionDoesNotExistError(
                    "connection was closed in the middle of operation")
        alone = postgres.pg_alone

        async def pg_alone(con: Any, op: Any) -> Any:  # a statement committed on its own
            if not flag["on"]:
                return await alone(con, op)
            if not applied:
                con.terminate()
            await alone(con, op)
            raise asyncpg.ConnectionDoesNotExistError(
                "connection was closed in the middle of operation")
        monkeypatch.setattr(postgres, "pg_commit", pg_commit)
        monkeypatch.setattr(postgres, "pg_alone", pg_alone)
    yield flag


async def noted_by(call: Awaitable[Any], error: str | None = None) -> set[int]:
    """The games ``call`` (a store write whose COMMIT raises) noted for the request; its
    error's text is ``error`` when given."""
    with tracking_writes() as games:
        with pytest.raises(STORE_FAILURES) as info:
            await call
    if error is not None:
        assert str(info.value) == error
    return games


async def test_a_commit_that_raises_after_it_was_applied_notes_the_game(store, monkeypatch):
    """Every write of a game's play whose COMMIT the database applied, though the COMMIT
    raised, notes the game for the request (PostgreSQL asks the server, which answers
    "committed"; SQLite cannot tell, so it notes: the request's before/after comparison
    decides). Before: nothing was noted, so a member whose move was saved was told "this
    was not done". Bookkeeping of what is shown notes nothing, as when it commits."""
    error = COMMIT_ERROR[store.dialect]
    with commits_fail(store, monkeypatch, applied=True) as fail:
        assert await noted_by(store.create_game(
            kind="tiny", guild_id=1, channel_id=2, host_id=3, host_name="Ana", options={},
            seed=7), error) == {1}
        assert await noted_by(store.add_seat(1, user_id=None, name="AI", is_ai=True,
                                             max_seats=4), error) == {1}
        assert await noted_by(store.add_seat(1, user_id=4, name="Bo", is_ai=False,
                                             max_seats=4), error) == {1}
        assert await noted_by(store.remove_seat(1, "s1"), error) == {1}
        assert await noted_by(store.update_game(1, options={"x": 1}), error) == {1}
        assert await noted_by(store.renumber_seats(1), error) == {1}
        assert await noted_by(store.start_game(1, state='{"v": 0}', version=0), error) == {1}
        assert await noted_by(store.commit_action(
            1, expected_version=0, state='{"v": 1}', version=1, seat="s0", action={},
            events=[]), error) == {1}
        assert await noted_by(store.set_seat(1, "s0", ai_takeover=True), error) == {1}
        assert await noted_by(store.record_result(1, "tiny", [(3, True, 1)], game_id=1),
                              error) == {1}
        assert await noted_by(store.mark_shown(1, 1), error) == set()
        assert await noted_by(store.update_game(1, table_message_id=5), error) == set()
        assert await noted_by(store.set_seat(1, "s0", dm_hand="h"), error) == set()
        assert await noted_by(store.reset_to_lobby(1), error) == {1}
        fail["on"] = False
    game = await store.get_game(1)  # every write above was applied
    assert (game.status, game.version, game.options, game.table_message_id) == (
        "lobby", 0, {"x": 1}, None)
    assert [(s.seat, s.name, s.ai_takeover, s.dm_hand) for s in await store.seats(1)] == [
        ("s0", "Ana", True, "h"), ("s1", "Bo", False, None)]
    assert [(r.user_id, r.played, r.won, r.best_score)
            for r in await store.stats(1, kind="tiny")] == [(3, 1, 1, 1)]


async def test_a_statement_or_commit_that_fails_before_it_is_applied_notes_nothing(
        store, monkeypatch):
    """A transaction that did not get through notes nothing: a statement that raises
    before the COMMIT (rolled back), and a COMMIT the database did not apply (SQLite
    refused it: the backend rolls the still open transaction back - before, it stayed
    open and the next write failed, "cannot start a transaction within a transaction";
    PostgreSQL lost the connection before the COMMIT arrived: the server, asked, answers
    "aborted", so a concurrent move cannot be taken for this one)."""
    gid = await _active_game(store)
    move = {"seat": "s0", "action": {}, "events": []}
    with commits_fail(store, monkeypatch, applied=False) as fail:
        assert await noted_by(store.commit_action(
            gid, expected_version=0, state='{"v": 1}', version=1, **move)) == set()
        fail["on"] = False
        assert await store.update_game(gid, options={"x": 1})  # the next write works
        fail["on"] = True
        assert await noted_by(store.update_game(gid, options={"x": 2})) == set()
        fail["on"] = False
    if store.dialect == "sqlite":
        statement = sqlite.sqlite_statement

        def on_thread(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> Any:
            if sql.startswith("INSERT INTO actions"):
                raise sqlite3.OperationalError("database or disk is full")
            return statement(conn, sql, args)
        monkeypatch.setattr(sqlite, "sqlite_statement", on_thread)
    else:
        execute = postgres.PgConn.execute

        async def lost(self: postgres.PgConn, sql: str, args: Any = ()) -> int:
            if sql.startswith("INSERT INTO actions"):
                self._target.terminate()  # the connection drops before the statement
            return await execute(self, sql, args)
        monkeypatch.setattr(postgres.PgConn, "execute", lost)
    assert await noted_by(store.commit_action(
        gid, expected_version=0, state='{"v": 1}', version=1, **move)) == set()
    monkeypatch.undo()
    game = await store.get_game(gid)  # nothing refused was applied
    assert (game.version, game.options, await store.actions(gid)) == (0, {"x": 1}, [])
    with tracking_writes() as games:  # and the next write goes through
        await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1, **move)
    assert games == {gid}
    assert [a.version for a in await store.actions(gid)] == [1]
