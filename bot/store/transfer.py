"""``herdbot migrate-store FROM TO``: copy every row of one database into another, e.g. a
SQLite file into PostgreSQL when a bot outgrows one process.

Both ends are opened with :meth:`Store.open` (so both are migrated to this herdbot's
schema), the target must hold no rows, and the copy is one transaction on the target: it
lands whole or not at all. Ids are kept (buttons on Discord name game ids), and
PostgreSQL's id sequences are moved past the copied ids. Stop the bot before copying: a
target live herdbot processes use is refused (a SQLite file's writer lock, a PostgreSQL
schema's shard claims, ``bot.store.shards``).

A SQLite source is only read, never written (it may be on a read-only mount, or a file the
user cannot write): it is copied with SQLite's backup API into a temporary file, which is
migrated and read.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from bot.i18n import N_, translate_n
from bot.store.errors import StoreError, StoreUnavailable, phrase, said
from bot.store.lock import DatabaseInUse, WriterLock
from bot.store.shards import PRESENCE_SQL, presence_args
from bot.store.store import Store
from bot.store.url import is_postgres_url

#: Every table, parents before children (foreign keys).
TABLES = ("games", "seats", "actions", "timers", "stats", "guild_settings", "member_prefs",
          "ratings", "rating_history", "presets", "unseen_lines")
#: Tables whose ``id`` comes from a sequence in PostgreSQL.
ID_TABLES = ("games", "actions", "timers", "unseen_lines")


class TargetNotEmpty(StoreError):
    """The target database already holds rows (``table`` is the first such table)."""

    def __init__(self, target: str, table: str) -> None:
        super().__init__(said(N_("the target database {target} is not empty (its table "
                                 "{table} has rows): copy into a new, empty database."),
                              target=target, table=table))
        self.table = table


class TargetInUse(StoreError):
    """Live herdbot processes (``count``) use the target database."""

    def __init__(self, target: str, count: int) -> None:
        def say(lang: str) -> str:
            return "herdbot: " + translate_n(
                lang, "a herdbot process is running on the target database {target}: stop it "
                "first, and copy into a database no herdbot uses.",
                "{count} herdbot processes are running on the target database {target}: stop "
                "them first, and copy into a database no herdbot uses.", count, target=target)
        super().__init__(say)
        self.count = count


@dataclass(frozen=True)
class TransferReport:
    """Rows copied per table, in :data:`TABLES` order."""

    rows: dict[str, int]


async def transfer(source: str | Path, target: str | Path) -> TransferReport:
    """Copy every row of ``source`` into the empty ``target`` (each a SQLite path or a
    ``postgresql://`` URL). Raises :class:`TargetNotEmpty`, :class:`TargetInUse`, or the
    one-line :class:`StoreError` of :meth:`Store.open` for either end; nothing is written
    to the target then, and nothing ever to a SQLite source."""
    async with AsyncExitStack() as stack:
        if not is_postgres_url(target):
            try:
                stack.enter_context(WriterLock(target))
            except DatabaseInUse as exc:
                raise TargetInUse(str(target), 1) from exc
        if not is_postgres_url(source):
            source = stack.enter_context(readable_copy(Path(source)))
        src = await stack.enter_async_context(_opened(source))
        dst = await stack.enter_async_context(_opened(target))
        return await _copy(src, dst)
    raise AssertionError("unreachable")  # pragma: no cover - (mypy: the with returns)


@asynccontextmanager
async def _opened(target: str | Path) -> AsyncIterator[Store]:
    store = await Store.open(target)
    try:
        yield store
    finally:
        await store.close()


@contextmanager
def readable_copy(path: Path) -> Iterator[Path]:
    """A copy of the SQLite file ``path`` in a temporary folder (removed afterwards), read
    without writing to ``path`` or beside it. :class:`StoreUnavailable` when it cannot be
    read."""
    with tempfile.TemporaryDirectory(prefix="herdbot-copy-") as folder:
        copy = Path(folder) / "source.sqlite3"
        source = _read_only(path)
        try:
            into = sqlite3.connect(copy)
            try:
                source.backup(into)
            finally:
                into.close()
        except sqlite3.Error as exc:
            raise StoreUnavailable(path, str(exc)) from exc
        finally:
            source.close()
        yield copy


def _read_only(path: Path) -> sqlite3.Connection:
    """``path`` opened read-only (``mode=ro``). SQLite needs to write the ``-shm`` file of
    a WAL database even then; where it cannot (a read-only folder) and no ``-wal`` holds
    changes, the file is opened as immutable (it is: the bot is stopped)."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    wal = Path(f"{path}-wal")
    for extra in ("", "&immutable=1"):
        con = sqlite3.connect(uri + extra, uri=True)
        try:
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return con
        except sqlite3.Error as exc:
            con.close()
            if extra or isinstance(exc, sqlite3.DatabaseError) and "not a database" in str(exc):
                raise StoreUnavailable(path, str(exc)) from exc
            if wal.exists() and wal.stat().st_size > 0:
                raise StoreUnavailable(path, phrase(N_(
                    "it cannot be read without writing beside it while its -wal file holds "
                    "changes (herdbot did not stop cleanly): start and stop herdbot on it "
                    "once where it can be written, then copy it"))) from exc
    raise AssertionError("unreachable")  # pragma: no cover


async def _copy(src: Store, dst: Store) -> TransferReport:
    counts: dict[str, int] = {}
    async with dst._tx() as db:
        if db.dialect == "postgres":
            (schema,) = await db.fetch("SELECT current_schema()")
            (live,) = await db.fetch(PRESENCE_SQL, presence_args(schema[0]))
            if live[0]:
                raise TargetInUse(dst.name, int(live[0]))
        for table in TABLES:
            if await db.fetchrow(f"SELECT 1 FROM {table} LIMIT 1"):
                raise TargetNotEmpty(dst.name, table)
        for table in TABLES:
            rows = await src._all(f"SELECT * FROM {table}")
            counts[table] = len(rows)
            if not rows:
                continue
            cols = list(dict(rows[0]).keys())
            sql = (f"INSERT INTO {table} ({', '.join(cols)})"
                   f" VALUES ({', '.join('?' * len(cols))})")
            for row in rows:
                await db.execute(sql, [row[c] for c in cols])
        if db.dialect == "postgres":
            for table in ID_TABLES:
                await db.fetchrow(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
    return TransferReport(rows=counts)
