"""``herdbot migrate-store FROM TO``: copy every row of one database into another, e.g. a
SQLite file into PostgreSQL when a bot outgrows one process.

Both ends are opened with :meth:`Store.open` (so both are migrated to this herdbot's
schema), the target must hold no rows, and the copy is one transaction on the target: it
lands whole or not at all. Ids are kept (buttons on Discord name game ids), and
PostgreSQL's id sequences are moved past the copied ids. Stop the bot before copying.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.store.errors import StoreError
from bot.store.store import Store

#: Every table, parents before children (foreign keys).
TABLES = ("games", "seats", "actions", "timers", "stats", "guild_settings", "member_prefs",
          "ratings", "rating_history")
#: Tables whose ``id`` comes from a sequence in PostgreSQL.
ID_TABLES = ("games", "actions", "timers")


class TargetNotEmpty(StoreError):
    """The target database already holds rows (``table`` is the first such table)."""

    def __init__(self, target: str, table: str) -> None:
        super().__init__(f"herdbot: the target database {target} is not empty (its table "
                         f"{table} has rows): copy into a new, empty database.")
        self.table = table


@dataclass(frozen=True)
class TransferReport:
    """Rows copied per table, in :data:`TABLES` order."""

    rows: dict[str, int]


async def transfer(source: str | Path, target: str | Path) -> TransferReport:
    """Copy every row of ``source`` into the empty ``target`` (each a SQLite path or a
    ``postgresql://`` URL). Raises :class:`TargetNotEmpty`, or the one-line
    :class:`StoreError` of :meth:`Store.open` for either end; nothing is written to the
    target then."""
    src = await Store.open(source)
    try:
        dst = await Store.open(target)
        try:
            return await _copy(src, dst)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: Store, dst: Store) -> TransferReport:
    counts: dict[str, int] = {}
    async with dst._tx() as db:
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
