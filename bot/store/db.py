"""What the store's SQL runs on, whatever the database: :class:`Conn` (runs the SQL),
:class:`Backend` (one open database), :class:`Op` and :class:`Refused` (a batch of
statements), and the outcomes of a COMMIT that raised. The two backends:
``bot.store.sqlite`` (aiosqlite, the default) and ``bot.store.postgres`` (asyncpg, for
several processes on one database).

The store writes its SQL once, with ``?`` placeholders, in the subset both dialects share;
a :class:`Conn` runs it (the PostgreSQL one numbers the placeholders ``$1, $2, ...``). The
few places where the dialects differ are methods here: :meth:`Conn.insert_id` (SQLite's
``lastrowid`` / PostgreSQL's ``RETURNING id``), :attr:`Conn.for_update` (a row lock in
PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` already holds the whole file) and
:meth:`Conn.serialize` (a transaction-scoped advisory lock in PostgreSQL).

A COMMIT that raises is not always a transaction lost: :attr:`Conn.commit_outcome` says
what the backend knows of it (PostgreSQL asks the server after a lost connection; see
``PgBackend.commit_status`` and, for a statement sent alone, with no BEGIN or COMMIT,
``PgBackend.statement_outcome``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, NamedTuple

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
#: its automatic checkpoint fails after the commit, see ``SqliteBackend.tx``).
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

    def watch(self) -> None:
        """Look at the database now (a periodic health look; never raises). SQLite:
        notice a file deleted or replaced under the bot; the default does nothing."""
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

