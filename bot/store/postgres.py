"""The PostgreSQL backend (asyncpg, for several processes on one database): a pool; each
transaction runs on its own pooled connection, reads go to any free one, and asyncpg's
errors come out as :class:`StoreDown`. After a COMMIT (or a statement sent alone) whose
connection was lost, the server is asked what became of it
(:meth:`PgBackend.commit_status`, :meth:`PgBackend.statement_outcome`)."""

from __future__ import annotations

import asyncio
import functools
import secrets
import socket
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import asyncpg

from bot.config import redacted
from bot.i18n import N_
from bot.store.db import APPLIED, ROLLED_BACK, UNKNOWN, Backend, Conn, Op, Row
from bot.store.errors import Phrase, PostgresUnavailable, StoreDown, phrase
from bot.store.url import postgres_address

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
        #: ``(pid, check)`` of a statement sent alone whose connection was lost: asked
        #: about (:meth:`PgBackend.statement_outcome`) once the connection is released
        self.ask: tuple[int, Op] | None = None

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
            # The server rolled back a statement that failed; after a lost connection,
            # PgBackend.tx asks on another one once this one is back in the pool (every
            # connection may be lost at once: waiting for another here could last forever).
            if not isinstance(exc, _LOST):
                self.commit_outcome = ROLLED_BACK
            else:
                self.commit_outcome = UNKNOWN
                if check is not None:
                    self.ask = (pid, check)
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
            if conn is not None and conn.commit_outcome == UNKNOWN:
                if conn.ask is not None:
                    conn.commit_outcome = await self.statement_outcome(*conn.ask)
                elif conn.xact_id:
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


def with_search_path(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` (asyncpg passes unknown URL parameters on
    as server settings)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def new_schema(url: str, prefix: str) -> tuple[str, str]:
    """A new, empty schema named ``prefix`` and 12 random hex digits in the database at
    ``url`` (for a bench or a test): its name and ``url`` with it as the search path
    (:func:`with_search_path`). Raises asyncpg's errors."""
    schema = f"{prefix}{secrets.token_hex(6)}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    return schema, with_search_path(url, schema)


async def drop_schemas(url: str, schemas: Iterable[str]) -> None:
    """Drop ``schemas`` (made by :func:`new_schema`) and everything in them from the
    database at ``url``; one already gone is no error. Raises asyncpg's errors."""
    conn = await asyncpg.connect(url)
    try:
        for schema in schemas:
            await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await conn.close()


def describe_pg_error(exc: BaseException) -> Phrase:
    """Why PostgreSQL cannot be used, in one phrase (never the password): a refused or
    timed-out connection, an unknown host, a refused login, else the server's message."""
    if isinstance(exc, ConnectionRefusedError):
        return phrase(N_("connection refused (no server listening there)"))
    if isinstance(exc, socket.gaierror):
        return phrase(N_("the host name is unknown"))
    if isinstance(exc, TimeoutError):
        return phrase(N_("no answer within {seconds} seconds"),
                      seconds=f"{PgBackend.CONNECT_TIMEOUT_S:g}")
    if isinstance(exc, (asyncpg.InvalidAuthorizationSpecificationError,
                        asyncpg.InvalidPasswordError)):
        return phrase(N_("the server refused the login ({detail})"),
                      detail=" ".join(str(exc).split())[:150])
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = " ".join(str(exc).split())[:200]
    return text or type(exc).__name__
