"""The store's seats of a game."""

from __future__ import annotations

from typing import Any

from bot.store.base import StoreBase
from bot.store.db import Op
from bot.store.records import (
    SeatRecord,
    parse_seat,
)


class SeatStore(StoreBase):
    """Seats (see :class:`bot.store.Store`)."""

    async def seats(self, game_id: int) -> list[SeatRecord]:
        """Seats of a game in turn order."""
        rows = await self._all(
            "SELECT * FROM seats WHERE game_id=? ORDER BY position", (game_id,)
        )
        return [parse_seat(r) for r in rows]

    async def add_seat(
        self, game_id: int, *, user_id: int | None, name: str, is_ai: bool, max_seats: int,
        ai_level: str = "normal",
    ) -> SeatRecord | None:
        """Add a seat to a lobby (next free ``sN`` id and position; ``ai_level``: an AI
        seat's level). Returns ``None`` when the lobby is full, not a lobby any more, or
        ``user_id`` already sits there. The game's row is locked while the seats are
        counted."""
        changed: set[int] = set()
        async with self._tx(changed=changed) as db:
            game = await db.fetchrow(
                "SELECT status FROM games WHERE id=?" + db.for_update, (game_id,))
            if game is None or game[0] != "lobby":
                return None
            rows = await db.fetch(
                "SELECT seat, position, user_id FROM seats WHERE game_id=?", (game_id,)
            )
            if len(rows) >= max_seats:
                return None
            if user_id is not None and any(r["user_id"] == user_id for r in rows):
                return None
            used = {r["seat"] for r in rows}
            seat = next(f"s{i}" for i in range(len(rows) + 1) if f"s{i}" not in used)
            position = max((r["position"] for r in rows), default=-1) + 1
            await db.execute(
                "INSERT INTO seats (game_id, seat, position, user_id, name, is_ai, ai_level)"
                " VALUES (?,?,?,?,?,?,?)",
                (game_id, seat, position, user_id, name, int(is_ai), ai_level),
            )
            await db.execute("UPDATE games SET updated_at=? WHERE id=?", (self._clock(), game_id))
            changed.add(game_id)
        return SeatRecord(
            game_id=game_id, seat=seat, position=position, user_id=user_id, name=name, is_ai=is_ai,
            ai_level=ai_level,
        )

    async def remove_seat(self, game_id: int, seat: str) -> bool:
        """Remove a seat from a lobby; True if one was removed."""
        changed: set[int] = set()
        async with self._tx(changed=changed) as db:
            count = await db.execute(
                "DELETE FROM seats WHERE game_id=? AND seat=? AND EXISTS"
                " (SELECT 1 FROM games WHERE id=? AND status='lobby')",
                (game_id, seat, game_id),
            )
            if count == 1:
                changed.add(game_id)
        return count == 1

    async def renumber_seats(self, game_id: int) -> list[SeatRecord]:
        """Give a lobby's seats the ids ``s0..sN-1`` in position order (before start)."""
        async with self._tx(game_id) as db:
            await db.fetchrow("SELECT id FROM games WHERE id=?" + db.for_update, (game_id,))
            rows = await db.fetch(
                "SELECT seat FROM seats WHERE game_id=? ORDER BY position", (game_id,))
            for i, row in enumerate(rows):
                await db.execute(
                    "UPDATE seats SET seat=?, position=? WHERE game_id=? AND seat=?",
                    (f"tmp{i}", i, game_id, row["seat"]),
                )
            for i in range(len(rows)):
                await db.execute(
                    "UPDATE seats SET seat=? WHERE game_id=? AND seat=?",
                    (f"s{i}", game_id, f"tmp{i}"),
                )
        return await self.seats(game_id)

    async def set_seat(self, game_id: int, seat: str, **fields: Any) -> None:
        """Update a seat's ``is_ai``, ``missed_turns``, ``ai_takeover``, ``user_id``, ``name``,
        ``dm_hand`` or ``ai_level``."""
        allowed = {"is_ai", "missed_turns", "ai_takeover", "user_id", "name", "dm_hand",
                   "ai_level"}
        if set(fields) - allowed:
            raise ValueError(f"cannot update {sorted(set(fields) - allowed)}")
        cols = ", ".join(f"{k}=?" for k in fields)
        # the hand a DM showed is bookkeeping of what is shown, not play
        async with self._tx(*([game_id] if set(fields) - {"dm_hand"} else [])) as db:
            await db.batch([Op(
                f"UPDATE seats SET {cols} WHERE game_id=? AND seat=?",
                (*(int(v) if isinstance(v, bool) else v for v in fields.values()), game_id,
                 seat))], last=True)
