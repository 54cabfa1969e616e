"""The SQLite backend (aiosqlite, the default): one connection, every write transaction
behind one asyncio lock; reads outside a transaction on a second, query-only connection
once the file is in WAL mode (:class:`SqliteReader`)."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.db import ROLLED_BACK, UNKNOWN, Backend, Conn, Op, Refused, Row
from bot.store.errors import DatabaseGone, StoreUnavailable, unavailable_cause

log = logging.getLogger(__name__)


class SqliteConn(Conn):
    """The SQLite connection (aiosqlite; one thread runs every statement in order)."""

    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, args: Iterable[Any] = ()) -> int:
        return await self._run(_sqlite_rowcount, sql, tuple(args))

    async def fetch(self, sql: str, args: Iterable[Any] = ()) -> list[Row]:
        return list(await self._db.execute_fetchall(sql, tuple(args)))

    async def insert_id(self, sql: str, args: Iterable[Any] = ()) -> int:
        return await self._run(_sqlite_lastrowid, sql, tuple(args))

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        await self._run(_sqlite_many, sql, tuple(tuple(r) for r in rows))

    def json_rows(self, table: str, where: str, order: str) -> str:
        # every column, by name: SQLite has no row-to-JSON of its own
        # (a REAL as text with 17 digits: json_object keeps only 15 of a double's)
        obj = ", ".join(f"'{c}', printf('%!.17g', {c})" if c in _SQLITE_REALS else f"'{c}', {c}"
                        for c in _SQLITE_COLUMNS[table])
        return (f"(SELECT json_group_array(json(r.j)) FROM (SELECT json_object({obj}) AS j"
                f" FROM {table} WHERE {where} ORDER BY {order}) r)")

    async def _run(self, fn: Callable[[sqlite3.Connection, str, tuple[Any, ...]], int],
                   sql: str, args: tuple[Any, ...]) -> int:
        """``fn(connection, sql, args)`` on aiosqlite's thread: one trip to that thread
        (``Connection.execute`` then ``Cursor.close`` were two). Raises ``ValueError``
        when the connection is closed, and sqlite3's errors, as ``execute`` does."""
        db = self._db
        return int(await db._execute(fn, db._conn, sql, args))


class SqliteTxConn(SqliteConn):
    """The connection inside :meth:`SqliteBackend.tx`: its first statement is sent to
    aiosqlite's thread together with ``BEGIN IMMEDIATE`` (run first, in the same trip);
    :attr:`begun` tells whether that was sent (then the transaction ends with COMMIT or
    :func:`_sqlite_rollback`)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        super().__init__(db)
        self.begun = False
        #: set once a ``batch(last=True)`` ended the transaction (committed or not).
        self.ended = False

    async def batch(self, ops: list[Op], *, last: bool = False,
                    check: Op | None = None) -> list[Any]:
        if self.begun or not last:
            return await super().batch(ops, last=last)
        self.begun = self.ended = True
        db = self._db
        out, outcome, error = await db._execute(_sqlite_whole_tx, db._conn, ops)
        if error is not None:
            self.commit_outcome = outcome
            raise error
        return list(out)

    async def execute(self, sql: str, args: Iterable[Any] = ()) -> int:
        if self.begun:
            return await super().execute(sql, args)
        self.begun = True
        return int(await self._first(_sqlite_rowcount, sql, tuple(args)))

    async def fetch(self, sql: str, args: Iterable[Any] = ()) -> list[Row]:
        if self.begun:
            return await super().fetch(sql, args)
        self.begun = True
        return list(await self._first(_sqlite_fetchall, sql, tuple(args)))

    async def insert_id(self, sql: str, args: Iterable[Any] = ()) -> int:
        if self.begun:
            return await super().insert_id(sql, args)
        self.begun = True
        return int(await self._first(_sqlite_lastrowid, sql, tuple(args)))

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        if self.begun:
            return await super().executemany(sql, rows)
        self.begun = True
        await self._first(_sqlite_many, sql, tuple(tuple(r) for r in rows))

    async def _first(self, fn: Callable[[sqlite3.Connection, str, tuple[Any, ...]], Any],
                     sql: str, args: tuple[Any, ...]) -> Any:
        db = self._db
        return await db._execute(_sqlite_begin_then, fn, db._conn, sql, args)


def sqlite_statement(conn: sqlite3.Connection, sql: str,
                     args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
    """Run one statement on ``conn`` (on aiosqlite's thread): every statement the backend
    sends with its own functions (writes, BEGIN/COMMIT/ROLLBACK, a transaction's first
    read) goes through here, a place to simulate a failing disk in tests."""
    return conn.execute(sql, args)


def file_identity(path: str | Path) -> tuple[int, int] | None:
    """``(st_dev, st_ino)`` of the file at ``path`` (symbolic links followed): the same
    pair is the same file; ``None`` when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _sqlite_begin_then(fn: Callable[[sqlite3.Connection, str, tuple[Any, ...]], Any],
                       conn: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> Any:
    """``BEGIN IMMEDIATE``, then ``fn(conn, sql, args)`` (on aiosqlite's thread). When
    ``fn`` fails the transaction stays open for the caller's rollback."""
    sqlite_statement(conn, "BEGIN IMMEDIATE").close()
    return fn(conn, sql, args)


def _sqlite_ops(conn: sqlite3.Connection, ops: list[Op]) -> list[Any]:
    """Run :meth:`Conn.batch`'s ``ops`` in the open transaction (on aiosqlite's thread)."""
    out: list[Any] = []
    for index, op in enumerate(ops):
        if op.rows is not None:
            out.append(_sqlite_many(conn, op.sql, tuple(op.rows)))
        elif op.fetch:
            out.append(_sqlite_fetchall(conn, op.sql, op.args))
        else:
            count = _sqlite_rowcount(conn, op.sql, op.args)
            if op.expect is not None and count != op.expect:
                raise Refused(index, count)
            out.append(count)
    return out


def _sqlite_whole_tx(conn: sqlite3.Connection, ops: list[Op]
                     ) -> tuple[list[Any], str | None, BaseException | None]:
    """One whole transaction on aiosqlite's thread: ``BEGIN IMMEDIATE``, ``ops``, ``COMMIT``.
    Returns the results, and for a failure the COMMIT's outcome (``None``: it failed before
    the COMMIT, rolled back) and the error, for the caller to raise on the loop."""
    try:
        sqlite_statement(conn, "BEGIN IMMEDIATE").close()
        out = _sqlite_ops(conn, ops)
    except Exception as exc:
        _sqlite_rollback(conn)
        return [], None, exc
    try:
        sqlite_statement(conn, "COMMIT").close()
    except Exception as exc:
        return [], _sqlite_after_failed_commit(conn), exc
    return out, None, None


def _sqlite_rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if one is open (its BEGIN may have failed)."""
    if conn.in_transaction:
        sqlite_statement(conn, "ROLLBACK").close()


def _sqlite_after_failed_commit(conn: sqlite3.Connection) -> str:
    """After a COMMIT raised (on aiosqlite's thread): a transaction still open (SQLite
    keeps it after a refused COMMIT, e.g. ``SQLITE_BUSY``) is rolled back:
    :data:`ROLLED_BACK`. One already ended is :data:`UNKNOWN`: SQLite rolled it back itself
    (an I/O error or a full disk while committing), or it was committed and the automatic
    checkpoint that runs right after the commit failed - sqlite3_step reports that as the
    COMMIT's error (SQLite's vdbeapi.c, ``doWalCallbacks``)."""
    if conn.in_transaction:
        sqlite_statement(conn, "ROLLBACK").close()
        return ROLLED_BACK
    return UNKNOWN


def _sqlite_fetchall(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> list[Row]:
    """Run one query; all its rows (on aiosqlite's thread)."""
    cur = sqlite_statement(conn, sql, args)
    try:
        return cur.fetchall()
    finally:
        cur.close()


def _sqlite_rowcount(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> int:
    """Run one statement; the rows it changed (on aiosqlite's thread)."""
    cur = sqlite_statement(conn, sql, args)
    try:
        return cur.rowcount
    finally:
        cur.close()


def _sqlite_many(conn: sqlite3.Connection, sql: str, rows: tuple[Any, ...]) -> int:
    """Run one statement once per row of arguments (on aiosqlite's thread)."""
    for args in rows:
        sqlite_statement(conn, sql, args).close()
    return len(rows)


#: The columns :meth:`SqliteConn.json_rows` puts in each row's JSON object.
_SQLITE_COLUMNS = {
    "seats": ("game_id", "seat", "position", "user_id", "name", "is_ai", "missed_turns",
              "ai_takeover", "dm_hand", "ai_level"),
    "timers": ("id", "game_id", "kind", "key", "due_at", "payload"),
}
#: Those of :data:`_SQLITE_COLUMNS` that hold a REAL.
_SQLITE_REALS = frozenset({"due_at"})


def _sqlite_lastrowid(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> int:
    """Run one insert; the new row's id (0: none) (on aiosqlite's thread)."""
    cur = sqlite_statement(conn, sql, args)
    try:
        return int(cur.lastrowid or 0)
    finally:
        cur.close()


class SqliteReader(SqliteConn):
    """The connection of reads outside a transaction. Once the file is in WAL mode
    (:meth:`SqliteBackend.prepare`) its queries run at once in the caller's thread on a
    second, query-only connection (:attr:`direct`): a WAL reader never waits for the
    writer, and a read of a few indexed rows costs tens of microseconds, less than the
    trip to aiosqlite's thread and back (two thread switches, each a wait for a core on a
    busy machine). Such a read sees committed data only, never a transaction in flight.
    Its statements (and every write) still go to aiosqlite's thread."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        super().__init__(db)
        #: the query-only connection (``None``: reads go to aiosqlite's thread).
        self.direct: sqlite3.Connection | None = None
        #: called before each read (:meth:`SqliteBackend.look_at_file`).
        self.before_read: Callable[[], None] | None = None

    async def fetch(self, sql: str, args: Iterable[Any] = ()) -> list[Row]:
        if self.before_read is not None:
            self.before_read()
        direct = self.direct
        if direct is None:
            return await super().fetch(sql, args)
        cur = direct.execute(sql, tuple(args))
        try:
            return cur.fetchall()
        finally:
            cur.close()

    def open_direct(self, path: str | Path) -> None:
        """Open :attr:`direct` on the file at ``path`` (already in WAL mode)."""
        direct = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        try:
            direct.execute("PRAGMA query_only=ON").close()
            direct.execute("PRAGMA foreign_keys=ON").close()  # as the writer's, if asked
            direct.execute("PRAGMA busy_timeout=1000").close()
        except BaseException:
            direct.close()
            raise
        direct.row_factory = sqlite3.Row
        self.direct = direct

    def close_direct(self) -> None:
        """Close :attr:`direct` (reads go to aiosqlite's thread again)."""
        direct, self.direct = self.direct, None
        if direct is not None:
            direct.close()


class SqliteBackend(Backend):
    """One SQLite file (WAL, foreign keys, ``synchronous=NORMAL``); every write transaction
    is ``BEGIN IMMEDIATE`` behind one asyncio lock, so a coroutine never sees another's
    half-written change. The schema version is ``PRAGMA user_version``."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str | Path) -> None:
        self._db = conn
        self._lock = asyncio.Lock()
        self.name = str(path)
        self._path = path
        #: the reader (``reader``) as its own type.
        self._reads = SqliteReader(conn)
        self.reader = self._reads
        #: ``(st_dev, st_ino)`` of the file opened (``None``: ``:memory:``), and how it
        #: went once it was deleted or replaced (:meth:`check_file`).
        self._identity = file_identity(path) if str(path) not in ("", ":memory:") else None
        self.gone: str | None = None
        self._looked = time.monotonic()
        self._reads.before_read = self.look_at_file

    #: Seconds between two looks at the file from reads (:meth:`look_at_file`).
    LOOK_EVERY_S = 1.0

    def check_file(self) -> None:
        """Before every write: raise :class:`DatabaseGone` when the file at the path is no
        longer the one opened (deleted, or another file moved over it): a write would
        land in a file nobody opens again. Logged once, at ERROR, when first seen."""
        if self._identity is None:
            return
        if self.gone is None:
            now = file_identity(self._path)
            if now == self._identity:
                return
            self.gone = "deleted" if now is None else "replaced"
            log.error("%s", DatabaseGone(self._path, self.gone))
        raise DatabaseGone(self._path, self.gone)

    def look_at_file(self) -> None:
        """Before a read: :meth:`check_file` at most every :attr:`LOOK_EVERY_S` (a read
        from the opened file is still right, so it is not refused), so a file deleted
        while only reads happen is logged within seconds."""
        now = time.monotonic()
        if self.gone is None and now - self._looked >= self.LOOK_EVERY_S:
            self._looked = now
            try:
                self.check_file()
            except DatabaseGone:
                pass

    def watch(self) -> None:
        """Look at the file now (:meth:`check_file`, never raising): the runtime calls this
        every few seconds, so a file deleted under an idle bot is logged within seconds."""
        if self.gone is None:
            self._looked = time.monotonic()
            try:
                self.check_file()
            except DatabaseGone:
                pass

    @classmethod
    async def open(cls, path: str | Path) -> SqliteBackend:
        """Open (creating) the file; :class:`StoreUnavailable` when it cannot be opened."""
        conn = aiosqlite.connect(str(path), isolation_level=None)
        try:
            await conn
        except sqlite3.Error as exc:
            # aiosqlite queues its thread's stop without waiting for it: wait here, with the
            # loop running, or the thread answers a closed loop with a traceback.
            await asyncio.to_thread(conn._thread.join, 5)
            raise StoreUnavailable(path, unavailable_cause(path, exc)) from exc
        conn.row_factory = aiosqlite.Row
        return cls(conn, path)

    @asynccontextmanager
    async def tx(self) -> AsyncIterator[Conn]:
        # BEGIN IMMEDIATE goes to aiosqlite's thread with the transaction's first
        # statement (one trip, not two); a transaction that ran none begins nothing.
        async with self._lock:
            self.check_file()
            conn = SqliteTxConn(self._db)
            try:
                yield conn
            except BaseException:
                if conn.begun and not conn.ended:
                    await self._db._execute(_sqlite_rollback, self._db._conn)
                raise
            else:
                if conn.begun and not conn.ended:
                    try:
                        await self.reader.execute("COMMIT")
                    except BaseException:
                        # (before: a refused COMMIT left the transaction open, and the
                        # next write ran inside it, or failed to BEGIN)
                        conn.commit_outcome = await self._db._execute(
                            _sqlite_after_failed_commit, self._db._conn)
                        raise

    async def write(self, sql: str, args: Iterable[Any] = ()) -> int:
        async with self._lock:
            self.check_file()
            return await self.reader.execute(sql, args)

    async def schema_version(self, conn: Conn | None = None) -> int:
        row = await (conn or self.reader).fetchrow("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def set_schema_version(self, conn: Conn, number: int) -> None:
        await conn.execute(f"PRAGMA user_version={int(number)}")

    async def prepare(self) -> None:
        mode = await self._db.execute_fetchall("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")
        if [tuple(r) for r in mode] == [("wal",)] and self._reads.direct is None:
            # (":memory:" answers "memory": a second connection would see another database)
            self._reads.open_direct(self._path)

    async def check_writable(self) -> None:
        # A read-only file opens and reads fine; find out now, not at the first move.
        async with self.tx() as conn:
            await self.set_schema_version(conn, await self.schema_version())

    async def close(self) -> None:
        self._reads.close_direct()
        await self._db.close()

    async def abort(self) -> None:
        self._reads.close_direct()
        try:
            await self._db.close()
        except Exception:  # noqa: S110 - the first error is the one to report
            pass
        await asyncio.to_thread(self._db._thread.join, 5)  # gone before open() returns

    def open_error(self, exc: BaseException) -> BaseException:
        if isinstance(exc, sqlite3.Error):
            return StoreUnavailable(self._path, unavailable_cause(self._path, exc))
        return exc

