"""Private lines a player of a one-message game has not seen yet (``unseen_lines``): kept
per seat until that player's next private answer takes them; at most :data:`KEPT` per
seat (the oldest go). They go with their game's row (``ON DELETE CASCADE``) and when the
game ends (:meth:`UnseenStore.drop_unseen`)."""

from __future__ import annotations

from bot.store.base import StoreBase
from bot.store.db import Op

#: Lines kept per seat.
KEPT = 20


class UnseenStore(StoreBase):
    """Unseen private lines (see :class:`bot.store.Store`)."""

    async def keep_unseen(self, game_id: int, seat: str, lines: list[str]) -> None:
        """Keep ``lines`` (in order) for ``seat`` of game ``game_id``, after those kept
        already; only the newest :data:`KEPT` stay. One transaction."""
        if not lines:
            return
        async with self._tx() as db:
            await db.batch([
                Op("INSERT INTO unseen_lines (game_id, seat, line) VALUES (?,?,?)",
                   rows=[(game_id, seat, line) for line in lines]),
                Op("DELETE FROM unseen_lines WHERE game_id=? AND seat=? AND id NOT IN"
                   " (SELECT id FROM unseen_lines WHERE game_id=? AND seat=?"
                   " ORDER BY id DESC LIMIT ?)", (game_id, seat, game_id, seat, KEPT)),
            ], last=True)

    async def take_unseen(self, game_id: int, seat: str) -> list[str]:
        """The lines kept for ``seat`` of game ``game_id``, oldest first, deleted as they
        are read (one statement: two answers at once never both get them)."""
        async with self._tx() as db:
            [rows] = await db.batch([Op(
                "DELETE FROM unseen_lines WHERE game_id=? AND seat=? RETURNING id, line",
                (game_id, seat), fetch=True)], last=True)
        return [str(r[1]) for r in sorted(rows, key=lambda r: int(r[0]))]

    async def drop_unseen(self, game_id: int) -> int:
        """Delete every line kept for game ``game_id`` (it ended); how many there were."""
        return await self._backend.write("DELETE FROM unseen_lines WHERE game_id=?",
                                         (game_id,))
