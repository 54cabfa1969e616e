"""Rematches: a finished game's rematch lobby, opened once however many press Rematch."""

from __future__ import annotations

import json
from typing import Any

from bot.store.base import StoreBase
from bot.store.records import GameRecord, StaleVersion, parse_game


class RematchStore(StoreBase):
    """Rematch lobbies (see :class:`bot.store.Store`)."""

    async def create_rematch(
        self,
        game_id: int,
        *,
        replaces: int | None,
        host_id: int,
        host_name: str,
        channel_id: int | None,
        options: dict[str, Any],
        seed: int,
        ai_seats: list[tuple[str, str]],
    ) -> GameRecord:
        """Open the rematch lobby of game ``game_id``: same kind and server, the host in
        seat ``s0``, then one AI seat per ``(name, level)`` of ``ai_seats``, with
        ``rematch_of`` = ``game_id``; and link it from the old game (``rematch_id``).

        The link is a compare-and-set on the old game's ``rematch_id``, expected to be
        ``replaces`` (``None``: no rematch yet; else a rematch lobby that closed unstarted),
        in the same transaction as the new rows: when another press linked one first,
        nothing is written and :class:`StaleVersion` is raised (``actual``: -1)."""
        now = self._clock()
        changed: set[int] = set()
        async with self._tx(changed=changed) as db:
            old = await db.fetchrow(
                "SELECT kind, guild_id, rematch_id FROM games WHERE id=?" + db.for_update,
                (game_id,))
            if old is None or old["rematch_id"] != replaces:
                raise StaleVersion(0, -1)
            new_id = await db.insert_id(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, seed,"
                " version, created_at, updated_at, rematch_of)"
                " VALUES (?,?,?,?,'lobby',?,?,0,?,?,?)",
                (old["kind"], old["guild_id"], channel_id, host_id, json.dumps(options), seed,
                 now, now, game_id),
            )
            seats: list[tuple[Any, ...]] = [(new_id, "s0", 0, host_id, host_name, 0, "normal")]
            seats += [(new_id, f"s{i}", i, None, name, 1, level)
                      for i, (name, level) in enumerate(ai_seats, start=1)]
            await db.executemany(
                "INSERT INTO seats (game_id, seat, position, user_id, name, is_ai, ai_level)"
                " VALUES (?,?,?,?,?,?,?)", seats)
            linked = await db.execute(
                "UPDATE games SET rematch_id=? WHERE id=? AND "
                + ("rematch_id IS NULL" if replaces is None else "rematch_id=?"),
                (new_id, game_id) if replaces is None else (new_id, game_id, replaces))
            if linked != 1:
                raise StaleVersion(0, -1)
            changed.add(new_id)
        row = await self._one(f"SELECT {self._game_cols} FROM games WHERE id=?", (new_id,))
        assert row is not None
        return parse_game(row)
