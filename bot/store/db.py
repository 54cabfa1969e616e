"""The two database backends behind :class:`bot.store.Store`: SQLite (aiosqlite, the
default) and PostgreSQL (asyncpg, for several processes on one database).

The store writes its SQL once, with ``?`` placeholders, in the subset both dialects share;
a :class:`Conn` runs it (the PostgreSQL one numbers the placeholders ``$1, $2, ...``). The
few places where the dialects differ are methods here: :meth:`Conn.insert_id` (SQLite's
``lastrowid`` / PostgreSQL's ``RETURNING id``), :attr:`Conn.for_update` (a row lock in
PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` already holds the whole file) and
:meth:`Conn.serialize` (a transaction-scoped advisory lock in PostgreSQL).

SQLite: one connection, every write transaction behind one asyncio lock. PostgreSQL: a
pool; each transaction runs on its own pooled connection, reads go to any free one, and
asyncpg's errors come out as :class:`StoreDown`.

A COMMIT that raises is not always a transaction lost: :attr:`Conn.commit_outcome` says
what the backend knows of it (PostgreSQL asks the server after a lost connection; see
:meth:`PgBackend.commit_status` and, for a statement sent alone, with no BEGIN or COMMIT,
:meth:`PgBackend.statement_outcome`).
"""

from __future__ import annotations

import asyncio
import functools
import socket
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import aiosqlite
import asyncpg

from bot.store.errors import (
    PostgresUnavailable,
    StoreDown,
    StoreUnavailable,
    postgres_address,
    redacted,
    unavailable_cause,
)

#: A result row: ``row["column"]``, ``row[0]`` and ``dict(row)`` work on both backends.
Row = Any


class Op(NamedTuple):
    """One statement of :meth:`Conn.batch`: ``sql`` run with ``args``, or once per row of
    arguments in ``rows``; ``expect``: the number of rows it must change, else
    :class:`Refused` is raised and the transaction rolled back; ``fetch``: its rows are its
    result (else the rows it changed)."""

    sql: str
    args: tuple[Any, ...] = ()
    rows: list[tuple[Any, ...]] | None = None
    expect: int | None = None
    fetch: bool = False


class Refused(Exception):
    """Statement ``index`` of :meth:`Conn.batch` changed ``count`` rows, not the ones it
    expected: nothing of the batch is written (its transaction is rolled back)."""

    def __init__(self, index: int, count: int) -> None:
        super().__init__(f"statement {index} changed {count} rows")
        self.index = index
        self.count = count


class Conn(ABC):
    """Runs the store's SQL on one backend (inside a transaction, or one statement at a
    time for reads)."""

    dialect: str
    #: Appended to a ``SELECT`` inside a transaction to lock the rows it reads until the
    #: commit: ``" FOR UPDATE"`` in PostgreSQL, nothing in SQLite (the file is locked).
    for_update: str = ""
    #: Set by :meth:`Backend.tx` when the transaction's COMMIT itself raised (``None``: it
    #: did not, or it was never sent): :data:`APPLIED` (the database applied it all the
    #: same), :data:`ROLLED_BACK` (it did not) or :data:`UNKNOWN` (no way to tell).
    commit_outcome: str | None = None
    #: Set by the store before a transaction's statements: whether the outcome of a COMMIT
    #: that raises will be asked (:attr:`commit_outcome`); when it is not, PostgreSQL may
    #: send a last batch of one statement alone (see :meth:`batch`).
    outcome_asked: bool = False

    @abstractmethod
    async def execute(self, sql: str, args: Iterable[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed."""

    @abstractmethod
    async def fetch(self, sql: str, args: Iterable[Any] = ()) -> list[Row]:
        """Run a query; return its rows."""

    async def fetchrow(self, sql: str, args: Iterable[Any] = ()) -> Row | None:
        """The first row of a query, or ``None``."""
        return next(iter(await self.fetch(sql, args)), None)

    @abstractmethod
    async def insert_id(self, sql: str, args: Iterable[Any] = ()) -> int:
        """Run one ``INSERT`` into a table with an ``id`` key; return the new row's id."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """Run one statement once per row of arguments, in one round trip."""

    @abstractmethod
    def json_rows(self, table: str, where: str, order: str) -> str:
        """A scalar subquery giving the rows of ``table`` (``seats`` or ``timers``)
        matching ``where`` (SQL naming the table's columns unqualified and the outer
        query's as ``games.col``), ordered by ``order``, as the text of a JSON array of
        objects (column -> value), or ``NULL`` when there are none: several tables' rows
        in one query."""

    async def batch(self, ops: list[Op], *, last: bool = False,
                    check: Op | None = None) -> list[Any]:
        """Inside a transaction: run ``ops`` in order; each one's result (see :class:`Op`).
        Raises :class:`Refused` (an ``expect`` not met) and the database's errors; the
        transaction then rolls back. ``last``: nothing more runs in this transaction, so
        a backend may send the whole of it at once (SQLite: ``BEGIN IMMEDIATE``, the
        statements and the ``COMMIT`` in one trip to aiosqlite's thread; PostgreSQL: a
        batch of one statement without ``expect`` alone, no BEGIN or COMMIT, when the
        outcome of a failed commit is not asked or ``check`` can tell it). ``check``: a
        query whose one value is true once the batch is applied, asked after a lost
        connection left the outcome of a statement sent alone unknown."""
        out: list[Any] = []
        for index, op in enumerate(ops):
            if op.rows is not None:
                await self.executemany(op.sql, op.rows)
                out.append(len(op.rows))
            elif op.fetch:
                out.append(await self.fetch(op.sql, op.args))
            else:
                count = await self.execute(op.sql, op.args)
                if op.expect is not None and count != op.expect:
                    raise Refused(index, count)
                out.append(count)
        return out

    async def serialize(self, key: str) -> None:
        """Inside a transaction: wait until no other transaction holds ``key``, and hold it
        until this one ends (PostgreSQL advisory lock; nothing to do in SQLite)."""
        return None

    async def watch_commit(self) -> None:
        """Inside a transaction, as its last statement: make :attr:`commit_outcome` as exact
        as the backend can if the COMMIT raises (PostgreSQL notes the transaction's id, to
        ask the server afterwards: one more round trip; nothing to do in SQLite)."""
        return None


#: :attr:`Conn.commit_outcome`: the COMMIT raised, yet the database applied it (PostgreSQL:
#: the connection was lost after the server committed, and the server said so when asked).
APPLIED = "applied"
#: :attr:`Conn.commit_outcome`: the COMMIT raised and nothing of the transaction was kept.
ROLLED_BACK = "rolled back"
#: :attr:`Conn.commit_outcome`: the COMMIT raised and the backend cannot tell whether the
#: database applied it (PostgreSQL: the connection was lost during it, and the server could
#: not be asked or had not finished; SQLite: the transaction ended with the error, as when
#: its automatic checkpoint fails after the commit, see :meth:`SqliteBackend.tx`).
UNKNOWN = "unknown"


class Backend(ABC):
    """One open database: transactions, reads, the schema version, closing."""

    dialect: str
    #: How messages name the database (a path, or the URL without its password).
    name: str
    #: The connection for reads and single statements outside a transaction.
    reader: Conn

    @abstractmethod
    def tx(self) -> Any:
        """``async with backend.tx() as conn``: one transaction, committed at the end of the
        block or rolled back when it raises. When the COMMIT itself raises, the error
        propagates and ``conn.commit_outcome`` tells what became of the transaction."""

    @abstractmethod
    async def write(self, sql: str, args: Iterable[Any] = ()) -> int:
        """Run one write statement as its own transaction; return the rows it changed."""

    @abstractmethod
    async def schema_version(self, conn: Conn | None = None) -> int:
        """The last migration applied (0 for an empty database)."""

    @abstractmethod
    async def set_schema_version(self, conn: Conn, number: int) -> None:
        """Record ``number`` as the last migration applied, inside ``conn``'s transaction."""

    async def prepare(self) -> None:
        """Session settings and bookkeeping before migrating (after the version check)."""
        return None

    @abstractmethod
    async def check_writable(self) -> None:
        """Write something harmless now, so a read-only database fails at start."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection(s)."""

    @abstractmethod
    async def abort(self) -> None:
        """Close after a failed start, so the process can exit."""

    @abstractmethod
    def open_error(self, exc: BaseException) -> BaseException:
        """The one-line :class:`StoreError` for ``exc`` raised while opening, or ``exc``."""


# -- SQLite ----------------------------------------------------------------------------


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
        obj = ", ".join(f"'{c}', {c}" for c in _SQLITE_COLUMNS[table])
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

    async def fetch(self, sql: str, args: Iterable[Any] = ()) -> list[Row]:
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


# -- PostgreSQL ------------------------------------------------------------------------

#: asyncpg's errors that mean the connection (not the statement) failed.
_LOST: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, cannot connect now
    OSError,
    TimeoutError,
)
#: Every error of a PostgreSQL call that :class:`StoreDown` stands for.
_FAILURES: tuple[type[BaseException], ...] = (asyncpg.PostgresError, *_LOST)
#: The same, and a URL that asyncpg cannot parse (at start).
_OPEN_FAILURES: tuple[type[BaseException], ...] = (*_FAILURES, ValueError)


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with each ``?`` placeholder (outside quotes) as ``$1``, ``$2``, ..."""
    out: list[str] = []
    count = 0
    quoted = False
    for ch in sql:
        if ch == "'":
            quoted = not quoted
        if ch == "?" and not quoted:
            count += 1
            out.append(f"${count}")
        else:
            out.append(ch)
    return "".join(out)


def _rowcount(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgConn(Conn):
    """Statements on a pooled connection (in a transaction) or on the pool (reads)."""

    dialect = "postgres"
    for_update = " FOR UPDATE"

    def __init__(self, backend: PgBackend, target: Any) -> None:
        self._backend = backend
        self._target = target  # an asyncpg Connection or Pool
        #: the transaction's id (text), once :meth:`watch_commit` asked (``None``: it
        #: wrote nothing, or nobody asked).
        self.xact_id: str | None = None

    async def execute(self, sql: str, args: Iterable[Any] = ()) -> int:
        with self._backend.failures():
            return _rowcount(await self._target.execute(numbered(sql), *args))

    async def fetch(self, sql: str, args: Iterable[Any] = ()) -> list[Row]:
        with self._backend.failures():
            return list(await self._target.fetch(numbered(sql), *args))

    async def fetchrow(self, sql: str, args: Iterable[Any] = ()) -> Row | None:
        with self._backend.failures():
            return await self._target.fetchrow(numbered(sql), *args)

    async def insert_id(self, sql: str, args: Iterable[Any] = ()) -> int:
        with self._backend.failures():
            return int(await self._target.fetchval(numbered(sql) + " RETURNING id", *args))

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        with self._backend.failures():
            await self._target.executemany(numbered(sql), [tuple(r) for r in rows])

    def json_rows(self, table: str, where: str, order: str) -> str:
        return f"(SELECT json_agg(r ORDER BY {order})::text FROM {table} r WHERE {where})"

    async def serialize(self, key: str) -> None:
        await self.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (key,))

    async def watch_commit(self) -> None:
        row = await self.fetchrow("SELECT pg_current_xact_id_if_assigned()::text")
        self.xact_id = row[0] if row is not None else None


class PgTxConn(PgConn):
    """The connection inside :meth:`PgBackend.tx`: ``BEGIN`` is sent before the first
    statement (a transaction that runs none begins nothing), and a last :meth:`batch` of
    one statement may run alone instead, committed by the server as it ends (one round
    trip, where BEGIN, the statement and COMMIT were three)."""

    def __init__(self, backend: PgBackend, con: asyncpg.Connection) -> None:
        super().__init__(backend, con)
        self.transaction = con.transaction()
        #: whether ``BEGIN`` was sent (then the transaction ends with COMMIT or ROLLBACK)
        self.begun = False
        #: set once a statement ran alone (committed by the server, or failed)
        self.ended = False

    async def begin(self) -> None:
        """Send ``BEGIN`` unless it was sent."""
        if not self.begun:
            with self._backend.failures():
                await self.transaction.start()
            self.begun = True

    async def batch(self, ops: list[Op], *, last: bool = False,
                    check: Op | None = None) -> list[Any]:
        alone = (last and not self.begun and len(ops) == 1 and ops[0].rows is None
                 and ops[0].expect is None and (check is not None or not self.outcome_asked))
        if not alone:
            return await super().batch(ops, last=last)
        self.ended = True
        con = self._target
        pid = con.get_server_pid()
        try:
            return [await pg_alone(con, ops[0])]
        except _FAILURES as exc:  # (PgBackend.tx turns it into StoreDown)
            # The server rolled back a statement that failed; after a lost connection, ask
            # on another one (here, before this one goes back to the pool).
            if not isinstance(exc, _LOST):
                self.commit_outcome = ROLLED_BACK
            elif check is None:
                self.commit_outcome = UNKNOWN
            else:
                self.commit_outcome = await self._backend.statement_outcome(pid, check)
            raise
        except BaseException:  # cancelled while the server ran it
            self.commit_outcome = UNKNOWN
            raise

    async def execute(self, sql: str, args: Iterable[Any] = ()) -> int:
        await self.begin()
        return await super().execute(sql, args)

    async def fetch(self, sql: str, args: Iterable[Any] = ()) -> list[Row]:
        await self.begin()
        return await super().fetch(sql, args)

    async def fetchrow(self, sql: str, args: Iterable[Any] = ()) -> Row | None:
        await self.begin()
        return await super().fetchrow(sql, args)

    async def insert_id(self, sql: str, args: Iterable[Any] = ()) -> int:
        await self.begin()
        return await super().insert_id(sql, args)

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        await self.begin()
        await super().executemany(sql, rows)

    async def watch_commit(self) -> None:
        if self.begun and not self.ended:
            await super().watch_commit()


async def pg_commit(con: asyncpg.Connection,
                    transaction: asyncpg.transaction.Transaction) -> None:
    """Send the COMMIT of ``transaction`` (started on connection ``con``): every
    transaction of :meth:`PgBackend.tx` commits through here, a place to simulate a
    connection lost during the commit in tests."""
    await transaction.commit()


async def pg_alone(con: asyncpg.Connection, op: Op) -> Any:
    """Run ``op`` (one statement, ``rows`` unset) on connection ``con`` outside any
    transaction: the server commits it as it ends. Its result as :meth:`Conn.batch` gives
    it. Every statement sent alone goes through here, a place to simulate a connection
    lost during it in tests."""
    if op.fetch:
        return list(await con.fetch(numbered(op.sql), *op.args))
    return _rowcount(await con.execute(numbered(op.sql), *op.args))


async def _keep_session(con: asyncpg.Connection) -> None:
    """The pool's reset of a released connection: nothing to send (asyncpg's default
    sends ``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL`` after every
    use, one more round trip each time). The store leaves no session state behind: its
    advisory locks are transaction-scoped, it opens no cursor outside a transaction,
    listens to nothing and sets no session setting; asyncpg itself still rolls back a
    transaction left open."""
    return None


def _commit_refused(exc: BaseException) -> bool:
    """Whether ``exc``, raised by a COMMIT, is the server's answer that it did not commit
    (an error of the statement, such as a deferred constraint or a serialization
    failure: PostgreSQL has rolled the transaction back) rather than a lost connection, a
    time-out or a cancellation, after which the commit may have been applied."""
    return isinstance(exc, asyncpg.PostgresError) and not isinstance(exc, _LOST)


class PgBackend(Backend):
    """A PostgreSQL database through an asyncpg pool. The schema version is the one row of
    ``herdbot_schema``; the tables live in the connection's ``search_path`` (a URL may set
    it: ``?search_path=name``). A lost connection fails the call in progress with
    :class:`StoreDown` and the pool connects again for the next one."""

    dialect = "postgres"
    #: Seconds to wait for a connection (at start, and while the server is away).
    CONNECT_TIMEOUT_S = 5.0
    #: Seconds one statement may run before it fails (a stuck lock, a hung server).
    COMMAND_TIMEOUT_S = 30.0
    POOL_SIZE = 10

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        self.name = redacted(url)
        self.address = postgres_address(url)
        self.reader = PgConn(self, pool)
        self._tasks: set[asyncio.Task[None]] = set()

    @classmethod
    async def open(cls, url: str) -> PgBackend:
        """Connect a pool; :class:`PostgresUnavailable` (host, port, cause) when the server
        cannot be reached or refuses the login."""
        host, port = postgres_address(url)
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=cls.POOL_SIZE, timeout=cls.CONNECT_TIMEOUT_S,
                command_timeout=cls.COMMAND_TIMEOUT_S, reset=_keep_session)
        except _OPEN_FAILURES as exc:
            raise PostgresUnavailable(host, port, describe_pg_error(exc)) from exc
        return cls(pool, url)

    @contextmanager
    def failures(self) -> Iterator[None]:
        """Turn asyncpg's (and the socket's) errors into :class:`StoreDown`; after a lost
        connection, every idle pooled connection is replaced before its next use."""
        try:
            yield
        except StoreDown:
            raise
        except _FAILURES as exc:
            lost = isinstance(exc, _LOST)
            if lost:
                task = asyncio.get_running_loop().create_task(self._pool.expire_connections())
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            raise StoreDown(exc, lost=lost) from exc

    #: :meth:`commit_status`: how many times to ask while the server still runs the
    #: transaction (the lost connection's COMMIT not yet processed), and the pause between.
    STATUS_TRIES = 5
    STATUS_PAUSE_S = 0.05

    @asynccontextmanager
    async def tx(self) -> AsyncIterator[Conn]:
        conn: PgTxConn | None = None
        try:
            with self.failures():
                async with self._pool.acquire() as con:
                    conn = PgTxConn(self, con)
                    try:
                        yield conn
                    except BaseException:
                        if conn.begun and not conn.ended and not con.is_closed():
                            await conn.transaction.rollback()
                        raise
                    if conn.begun and not conn.ended:
                        try:
                            await pg_commit(con, conn.transaction)
                        except BaseException as exc:
                            conn.commit_outcome = (ROLLED_BACK if _commit_refused(exc)
                                                   else UNKNOWN)
                            raise
        except StoreDown:
            # The connection is back in the pool (or closed): ask on another one.
            if conn is not None and conn.commit_outcome == UNKNOWN and conn.xact_id:
                conn.commit_outcome = await self.commit_status(conn.xact_id)
            raise

    async def commit_status(self, xact_id: str) -> str:
        """What became of transaction ``xact_id`` (``pg_current_xact_id()`` as text) whose
        COMMIT raised: :data:`APPLIED` when the server committed it, :data:`ROLLED_BACK`
        when it aborted it, :data:`UNKNOWN` when it still runs after
        :attr:`STATUS_TRIES` questions or the server cannot be asked (PostgreSQL's
        ``pg_xact_status``, documented for exactly this: a connection lost during
        COMMIT). Never raises a database error."""
        for attempt in range(self.STATUS_TRIES):
            if attempt:
                await asyncio.sleep(self.STATUS_PAUSE_S)
            try:
                with self.failures():
                    status = await self._pool.fetchval(
                        "SELECT pg_xact_status($1::text::xid8)", xact_id)
            except StoreDown:
                return UNKNOWN
            if status == "committed":
                return APPLIED
            if status == "aborted":
                return ROLLED_BACK
            if status != "in progress":  # NULL: too old to tell (never this soon)
                return UNKNOWN
        return UNKNOWN

    async def statement_outcome(self, pid: int, check: Op) -> str:
        """What became of a statement sent alone (:meth:`PgTxConn.batch`) whose connection
        was lost while server process ``pid`` ran it: once that process is gone or idle
        (the statement ended, committed or not; asked :attr:`STATUS_TRIES` times, as
        :meth:`commit_status`), ``check`` tells: :data:`APPLIED` or :data:`ROLLED_BACK`.
        :data:`UNKNOWN` while it still runs, or when the server cannot be asked. Never
        raises a database error."""
        for attempt in range(self.STATUS_TRIES):
            if attempt:
                await asyncio.sleep(self.STATUS_PAUSE_S)
            try:
                with self.failures():
                    # (two queries: the check's snapshot must begin after the end is
                    # seen; the pool may hand out the same connection, idle then)
                    running = await self._pool.fetchval(
                        "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid=$1"
                        " AND pid <> pg_backend_pid() AND state IS DISTINCT FROM 'idle')",
                        pid)
                    if running:
                        continue
                    applied = await self._pool.fetchval(numbered(check.sql), *check.args)
            except StoreDown:
                return UNKNOWN
            return APPLIED if applied else ROLLED_BACK
        return UNKNOWN

    async def write(self, sql: str, args: Iterable[Any] = ()) -> int:
        return await self.reader.execute(sql, args)

    async def schema_version(self, conn: Conn | None = None) -> int:
        row = await (conn or self.reader).fetchrow(
            "SELECT to_regclass('herdbot_schema') IS NOT NULL")
        if not row or not row[0]:
            return 0
        row = await (conn or self.reader).fetchrow("SELECT MAX(version) FROM herdbot_schema")
        return int(row[0]) if row and row[0] is not None else 0

    async def set_schema_version(self, conn: Conn, number: int) -> None:
        await conn.execute("UPDATE herdbot_schema SET version=?", (int(number),))

    async def prepare(self) -> None:
        async with self.tx() as conn:
            await conn.serialize("herdbot-migrate")
            await conn.execute("CREATE TABLE IF NOT EXISTS herdbot_schema "
                               "(version BIGINT NOT NULL)")
            await conn.execute("INSERT INTO herdbot_schema (version) SELECT 0"
                               " WHERE NOT EXISTS (SELECT 1 FROM herdbot_schema)")

    async def check_writable(self) -> None:
        async with self.tx() as conn:
            await conn.execute("UPDATE herdbot_schema SET version=version")

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._pool.close(), 10)
        except _FAILURES:
            self._pool.terminate()

    async def abort(self) -> None:
        self._pool.terminate()

    def open_error(self, exc: BaseException) -> BaseException:
        cause = exc.__cause__ if isinstance(exc, StoreDown) else exc
        if isinstance(cause, _FAILURES):
            return PostgresUnavailable(*self.address, describe_pg_error(cause))
        return exc


def describe_pg_error(exc: BaseException) -> str:
    """Why PostgreSQL cannot be used, in one phrase (never the password): a refused or
    timed-out connection, an unknown host, a refused login, else the server's message."""
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused (no server listening there)"
    if isinstance(exc, socket.gaierror):
        return "the host name is unknown"
    if isinstance(exc, TimeoutError):
        return f"no answer within {PgBackend.CONNECT_TIMEOUT_S:g} seconds"
    if isinstance(exc, (asyncpg.InvalidAuthorizationSpecificationError,
                        asyncpg.InvalidPasswordError)):
        return "the server refused the login (" + " ".join(str(exc).split())[:150] + ")"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = " ".join(str(exc).split())[:200]
    return text or type(exc).__name__
