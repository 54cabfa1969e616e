"""Which live process serves which shards of one PostgreSQL database: session advisory
locks held by ``herdbot run`` for as long as it runs, so two processes configured for the
same shard (or one for all shards beside others, or with different shard counts) are
refused at start, and ``migrate-store`` refuses a database live processes use.

The locks are PostgreSQL's two-key advisory locks ``(class, key)``, ``class`` a CRC-32 of
the schema (``current_schema()``) and a name, so deployments in different schemas of one
database never meet: in class ``shards``, key -1 is held by every process (shared; or
exclusive by a process serving every shard) and key ``n`` exclusively by the process
serving shard ``n``; in class ``count``, key ``HERDBOT_SHARD_COUNT`` is held shared by a
process serving some shards, and another count held by someone is a refusal. The server
drops a session's locks when its connection ends, a killed process's included.

The locks live on a connection of their own, on an event loop in a thread of their own
(``herdbot run`` starts the bot's loop afterwards): :class:`ShardClaim`. While PostgreSQL
is away the locks are lost with the connection; the claim is taken again when it answers.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import zlib
from typing import Any

import asyncpg

from bot.config import redacted
from bot.i18n import N_, Sentence
from bot.store.errors import PostgresUnavailable, StoreError, said
from bot.store.postgres import _OPEN_FAILURES, PgBackend, describe_pg_error
from bot.store.url import postgres_address

log = logging.getLogger(__name__)

#: The key of the lock every process holds in the ``shards`` class.
PRESENT = -1


def lock_class(schema: str, name: str) -> int:
    """The advisory lock class (a signed 32-bit number) of ``name`` in ``schema``."""
    value = zlib.crc32(f"{schema}/herdbot-{name}".encode())
    return value - (1 << 32) if value >= 1 << 31 else value


class ShardsInUse(StoreError):
    """Another live herdbot process on the database serves shards this one would."""


#: How many herdbot processes hold a claim on a schema of the database: the query, with
#: ``?`` for the class of ``shards`` and :data:`PRESENT`, both as unsigned numbers
#: (:func:`presence_args`).
PRESENCE_SQL = (
    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND granted"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    " AND classid = CAST(CAST(? AS BIGINT) AS OID) AND objid = CAST(CAST(? AS BIGINT) AS OID)")


def presence_args(schema: str) -> tuple[int, int]:
    """The arguments of :data:`PRESENCE_SQL` for ``schema``."""
    return lock_class(schema, "shards") & 0xFFFFFFFF, PRESENT & 0xFFFFFFFF


class ShardClaim:
    """The shards ``ids`` of ``count`` (``None``: all of them; a ``None`` count: Discord's)
    served by this process on the PostgreSQL ``url``. :meth:`acquire` raises
    :class:`ShardsInUse` or :class:`PostgresUnavailable` (one line each); :meth:`release`
    drops the claim."""

    #: Seconds between two looks at the claim's connection.
    CHECK_EVERY_S = 10.0

    def __init__(self, url: str, count: int | None, ids: list[int] | None) -> None:
        self.url = url
        self.name = redacted(url)
        self.count = count
        self.everything = ids is None or count is None or sorted(ids) == list(range(count))
        self.ids = [] if self.everything else sorted(ids or [])
        self._con: asyncpg.Connection | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._keeper: Any = None

    def acquire(self) -> ShardClaim:
        """Take the claim now (waiting for PostgreSQL as the store does); returns ``self``."""
        loop = self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=loop.run_forever, name="herdbot-shard-claim",
                                        daemon=True)
        self._thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self._claim(), loop).result()
        except BaseException:
            self.release()
            raise
        self._keeper = asyncio.run_coroutine_threadsafe(self._keep(), loop)
        return self

    def release(self) -> None:
        """Drop the claim (close its connection) and stop its thread."""
        loop, self._loop = self._loop, None
        if loop is None:
            return
        asyncio.run_coroutine_threadsafe(self._close(), loop).result(timeout=15)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(15)
        loop.close()

    async def _close(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
        con, self._con = self._con, None
        if con is not None:
            try:
                await asyncio.wait_for(con.close(), 10)
            except _OPEN_FAILURES:  # (TimeoutError among them)
                con.terminate()

    async def _claim(self) -> None:
        try:
            con = await asyncpg.connect(self.url, timeout=PgBackend.CONNECT_TIMEOUT_S)
        except _OPEN_FAILURES as exc:
            raise PostgresUnavailable(*postgres_address(self.url),
                                      describe_pg_error(exc)) from exc
        try:
            refusal = await self._take(con)
        except BaseException:
            con.terminate()
            raise
        if refusal is not None:
            await con.close()
            raise ShardsInUse(refusal)
        self._con = con

    async def _take(self, con: asyncpg.Connection) -> Sentence | None:
        """Take the locks on ``con``; the refusal's sentence when one is held elsewhere."""
        schema = await con.fetchval("SELECT current_schema()")
        shards, counts = lock_class(schema, "shards"), lock_class(schema, "count")
        database = self.name
        if self.everything:
            if not await con.fetchval("SELECT pg_try_advisory_lock($1, $2)", shards, PRESENT):
                return said(N_(
                    "other herdbot processes already serve shards on the database {database}, "
                    "and this one would serve all of them (HERDBOT_SHARD_IDS is empty or "
                    "names every shard): give each process its own HERDBOT_SHARD_IDS, or "
                    "stop the others first."), database=database)
            return None
        if not await con.fetchval("SELECT pg_try_advisory_lock_shared($1, $2)",
                                  shards, PRESENT):
            return said(N_(
                "another herdbot process already serves every shard on the database "
                "{database} (its HERDBOT_SHARD_IDS is empty): give it its own "
                "HERDBOT_SHARD_IDS, or stop it first."), database=database)
        for shard in self.ids:
            if not await con.fetchval("SELECT pg_try_advisory_lock($1, $2)", shards, shard):
                return said(N_(
                    "shard {shard} is already served by another herdbot process on the "
                    "database {database}: each shard must be served by one process only; give "
                    "this one other HERDBOT_SHARD_IDS, or stop the other first."),
                    shard=shard, database=database)
        await con.fetchval("SELECT pg_try_advisory_lock_shared($1, $2)", counts, self.count)
        other = await con.fetchval(
            "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2"
            " AND granted AND database = (SELECT oid FROM pg_database"
            "  WHERE datname = current_database())"
            " AND classid = CAST(CAST($1 AS BIGINT) AS OID)"
            " AND objid <> CAST(CAST($2 AS BIGINT) AS OID) LIMIT 1",
            counts & 0xFFFFFFFF, self.count)
        if other is not None:
            return said(N_(
                "another herdbot process on the database {database} runs with "
                "HERDBOT_SHARD_COUNT={other}, this one with {count}: every process needs the "
                "same count."), database=database, other=other, count=self.count)
        return None

    async def _keep(self) -> None:
        """Every :attr:`CHECK_EVERY_S`: is the claim's connection alive? If not, take the
        claim again once PostgreSQL answers (one WARNING line when it was lost, one
        ERROR line if another process took a shard meanwhile)."""
        lost, told = False, False
        while True:
            await asyncio.sleep(self.CHECK_EVERY_S)
            con = self._con
            try:
                if con is not None and not con.is_closed():
                    await con.fetchval("SELECT 1")
                    continue
            except _OPEN_FAILURES:
                pass
            if con is not None:
                con.terminate()
                self._con = None
            if not lost:
                log.warning("lost the PostgreSQL connection holding this process's shards; "
                            "taking them again when PostgreSQL answers")
                lost = True
            try:
                await self._claim()
            except PostgresUnavailable:
                continue
            except ShardsInUse as exc:
                if not told:
                    log.error("%s", exc)
                    told = True
                continue
            log.info("this process's shards are held again")
            lost, told = False, False
