"""The store's timers: one per game and kind, claimed by one process at a time."""

from __future__ import annotations

import json
from typing import Any

from bot.store.base import StoreBase
from bot.store.records import (
    TimerRecord,
    parse_timer,
)

#: Create or replace a game's timer of a kind (a replaced timer loses its lease).
UPSERT_TIMER = (
    "INSERT INTO timers (game_id, kind, key, due_at, payload) VALUES (?,?,?,?,?)"
    " ON CONFLICT (game_id, kind) DO UPDATE SET key=excluded.key, due_at=excluded.due_at,"
    " payload=excluded.payload, claimed_by=NULL, lease_until=NULL")


class TimerStore(StoreBase):
    """Timers (see :class:`bot.store.Store`)."""

    #: Seconds a claimed timer stays with the process that claimed it (PostgreSQL); after
    #: that another process may fire it (the claimer died while firing it).
    TIMER_LEASE_S = 60.0

    async def upsert_timer(
        self, game_id: int, kind: str, key: str, due_at: float, payload: dict[str, Any]
    ) -> TimerRecord:
        """Create or replace the game's timer of ``kind``."""
        await self.upsert_timers([(game_id, kind, key, due_at, payload)])
        row = await self._one(
            "SELECT * FROM timers WHERE game_id=? AND kind=?", (game_id, kind)
        )
        assert row is not None
        return parse_timer(row)  # just written by json.dumps: it parses

    async def upsert_timers(
        self, timers: list[tuple[int, str, str, float, dict[str, Any]]]
    ) -> None:
        """Create or replace several ``(game_id, kind, key, due_at, payload)`` timers in
        one transaction (a turn timer and its reminder go together or not at all). A
        replaced timer is unclaimed (any lease dropped)."""
        async with self._tx() as db:
            for game_id, kind, key, due_at, payload in timers:
                await db.execute(UPSERT_TIMER,
                                 (game_id, kind, key, float(due_at), json.dumps(payload)))

    async def claim_timer(self, game_id: int, kind: str, key: str, due_at: float,
                          payload: dict[str, Any], *, version: int) -> bool:
        """Store the game's ``kind`` timer under ``key`` in one statement, only while the
        game is active at ``version``, replacing a timer of that kind with another key but
        never one with the same key (another process's claim). True when stored."""
        return bool(await self._backend.write(
            "INSERT INTO timers (game_id, kind, key, due_at, payload)"
            " SELECT ?,?,?,?,? WHERE EXISTS (SELECT 1 FROM games WHERE id=? AND version=?"
            " AND status='active')"
            " ON CONFLICT (game_id, kind) DO UPDATE SET key=excluded.key,"
            " due_at=excluded.due_at, payload=excluded.payload, claimed_by=NULL,"
            " lease_until=NULL WHERE timers.key <> excluded.key",
            (game_id, kind, key, float(due_at), json.dumps(payload), game_id, version)))

    async def delete_timer(self, game_id: int, kind: str | None = None) -> int:
        """Delete the game's timer of ``kind`` (every timer of the game when ``None``);
        return how many rows went. One statement, so no explicit transaction is needed."""
        if kind is None:
            return await self._backend.write("DELETE FROM timers WHERE game_id=?", (game_id,))
        return await self._backend.write(
            "DELETE FROM timers WHERE game_id=? AND kind=?", (game_id, kind))

    async def delete_timer_if_unchanged(self, timer: TimerRecord) -> bool:
        """Delete ``timer`` unless it was replaced meanwhile (other key or due time)."""
        async with self._tx() as db:
            count = await db.execute(
                "DELETE FROM timers WHERE id=? AND key=? AND due_at=?",
                (timer.id, timer.key, float(timer.due_at)),
            )
            return count == 1

    async def due_timers(self, now: float) -> list[TimerRecord]:
        """Timers due at ``now`` (unix seconds) or earlier, earliest first.

        PostgreSQL: they are also *claimed* for this process in one statement (``FOR
        UPDATE SKIP LOCKED``): ``claimed_by`` is :attr:`claimant` and ``lease_until`` is
        ``now +`` :attr:`TIMER_LEASE_S`. A timer another process holds a live lease on is
        left out, so exactly one process fires it; after the lease (its process died) any
        process may claim it. SQLite has one writer process and ignores leases.
        """
        if self.dialect != "postgres":
            rows = await self._all(
                "SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id", (float(now),))
            return self._timers_of(rows)
        rows = await self._all(
            "UPDATE timers SET claimed_by=?, lease_until=? WHERE id IN (SELECT id FROM timers"
            " WHERE due_at <= ? AND (lease_until IS NULL OR lease_until <= ? OR claimed_by=?)"
            " ORDER BY due_at, id FOR UPDATE SKIP LOCKED) RETURNING *",
            (self.claimant, float(now) + self.TIMER_LEASE_S, float(now), float(now),
             self.claimant))
        return sorted(self._timers_of(rows), key=lambda t: (t.due_at, t.id))

    async def next_due(self) -> float | None:
        """When a timer may next be fired here (unix seconds): the earliest ``due_at``, or
        for a timer another process holds a lease on, the end of that lease. ``None`` when
        there are no timers. In SQLite a ``due_at`` that is not a number is never due
        (reading the row drops it); a PostgreSQL column holds numbers only."""
        numeric = (" WHERE typeof(due_at) IN ('integer', 'real')"
                   if self.dialect == "sqlite" else "")
        row = await self._one(
            "SELECT MIN(CASE WHEN lease_until IS NOT NULL AND lease_until > due_at"
            " AND claimed_by <> ? THEN lease_until ELSE due_at END) FROM timers" + numeric,
            (self.claimant,))
        return float(row[0]) if row and row[0] is not None else None

    async def timers(self) -> list[TimerRecord]:
        """Every stored timer that validates, earliest first (see :meth:`_timers_of`)."""
        rows = await self._all("SELECT * FROM timers ORDER BY due_at, id")
        return self._timers_of(rows)

    async def timer(self, game_id: int, kind: str) -> TimerRecord | None:
        """The game's timer of ``kind``, or ``None`` when there is none or its row does not
        validate (noted in :attr:`unreadable_timers`; writing the timer again replaces it)."""
        row = await self._one(
            "SELECT * FROM timers WHERE game_id=? AND kind=?", (game_id, kind)
        )
        parsed = self._timers_of([row]) if row is not None else []
        return parsed[0] if parsed else None

    async def delete_timer_row(self, timer_id: int) -> bool:
        """Delete the timer row ``timer_id`` if it is still unreadable (a timer written
        since over the same game and kind keeps the row id and is kept); True if deleted."""
        async with self._tx() as db:
            row = await db.fetchrow("SELECT * FROM timers WHERE id=?" + db.for_update,
                                    (timer_id,))
            if row is None:
                return False
            try:
                parse_timer(row)
                return False
            except (ValueError, TypeError):
                pass
            return await db.execute("DELETE FROM timers WHERE id=?", (timer_id,)) == 1
