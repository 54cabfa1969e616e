"""Store test helpers: a started game, and COMMITs that fail on each backend."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from typing import Any

import asyncpg
import pytest

from bot.store import STORE_FAILURES, Store, postgres, sqlite, tracking_writes
from tests.support.databases import PG_URL


async def active_game(store: Store) -> int:
    """A started game of kind ``tiny`` (state version 0) in ``store``; its id."""
    rec = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                  host_name="Ana", options={}, seed=7)
    await store.start_game(rec.id, state='{"v": 0}', version=0)
    return rec.id


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
