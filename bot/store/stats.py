"""The store's statistics of finished games."""

from __future__ import annotations

from typing import Any

from bot.store.base import StoreBase
from bot.store.db import Conn
from bot.store.records import (
    StatRecord,
)

#: Add one game to a member's stats row: ``(guild_id, user_id, kind, won, score)``.
ADD_RESULT = (
    "INSERT INTO stats (guild_id, user_id, kind, played, won, best_score)"
    " VALUES (?,?,?,1,?,?) ON CONFLICT (guild_id, user_id, kind) DO UPDATE SET"
    " played=stats.played+1, won=stats.won+excluded.won,"
    " best_score=CASE WHEN stats.best_score IS NULL"
    " OR excluded.best_score > stats.best_score"
    " THEN excluded.best_score ELSE stats.best_score END")


def filters(columns: dict[str, Any]) -> tuple[str, list[Any]]:
    """``" AND col=?"`` for each column whose value is not ``None``, and those values."""
    given = {k: v for k, v in columns.items() if v is not None}
    return "".join(f" AND {k}=?" for k in given), list(given.values())


async def add_results(db: Conn, guild_id: int, kind: str,
                       rows: list[tuple[int, bool, int]]) -> None:
    """Inside ``db``'s transaction: add one game to each ``(user_id, won, score)``
    member's stats row (created at the first game)."""
    for user_id, won, score in rows:
        await db.execute(ADD_RESULT, (guild_id, user_id, kind, int(won), score))


class StatStore(StoreBase):
    """Statistics (see :class:`bot.store.Store`)."""

    async def record_result(
        self, guild_id: int, kind: str, rows: list[tuple[int, bool, int]],
        *, game_id: int | None = None,
    ) -> bool:
        """Add one finished game to the stats: ``rows`` of ``(user_id, won, score)``. With
        ``game_id`` the result is recorded once per game, whatever the number of calls and
        processes (the game row is marked in the same transaction). Returns False when
        that game's result was already recorded (nothing written)."""
        changed: set[int] = set()
        async with self._tx(changed=changed) as db:
            if game_id is not None:
                count = await db.execute(
                    "UPDATE games SET result_recorded=1 WHERE id=? AND result_recorded=0",
                    (game_id,))
                if count != 1:
                    return False
                changed.add(game_id)
            await add_results(db, guild_id, kind, rows)
        return True

    async def stats(
        self, guild_id: int, *, kind: str | None = None, user_id: int | None = None
    ) -> list[StatRecord]:
        """Stats rows of a server, optionally of one game and/or member, best first."""
        where, args = filters({"kind": kind, "user_id": user_id})
        rows = await self._all(
            f"SELECT * FROM stats WHERE guild_id=?{where}"
            " ORDER BY won DESC, played ASC, user_id",
            (guild_id, *args),
        )
        return [StatRecord.model_validate(dict(r)) for r in rows]

    async def forget_stats(self, user_id: int, guild_id: int | None = None) -> int:
        """Delete a member's stats (in one server, or everywhere); return rows deleted."""
        where, args = filters({"guild_id": guild_id})
        async with self._tx() as db:
            return await db.execute(
                f"DELETE FROM stats WHERE user_id=?{where}", (user_id, *args))
