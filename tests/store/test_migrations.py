"""Store migrations on both backends: from empty and from each earlier version, and the
same tables and columns in SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from bot.store import (
    Store,
)
from bot.store.migrations import MIGRATIONS, SCHEMA_VERSION
from tests.support.databases import PG_URL, SKIP_REASON, databases

needs_pg = pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)



async def test_migrate_from_empty_reaches_latest(store):
    assert await store.user_version() == SCHEMA_VERSION == len(MIGRATIONS) == 14


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
