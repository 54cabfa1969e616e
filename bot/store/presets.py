"""House-rule presets: a server's named sets of lobby options for one game."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from bot.store.base import StoreBase

#: The longest preset name (characters).
MAX_PRESET_NAME = 32


class PresetRecord(BaseModel):
    """One row of ``presets``: server ``guild_id``'s set ``name`` of options for game
    ``kind`` (the lobby's options: the game's own, the turn timer, take-backs)."""

    guild_id: int
    name: str
    kind: str
    options: dict[str, Any]
    created_by: int
    created_at: float


def _preset(row: Any) -> PresetRecord:
    return PresetRecord(guild_id=row["guild_id"], name=row["name"], kind=row["kind"],
                        options=json.loads(row["options"]), created_by=row["created_by"],
                        created_at=row["created_at"])


class PresetStore(StoreBase):
    """Presets (see :class:`bot.store.Store`)."""

    async def save_preset(self, guild_id: int, name: str, kind: str, options: dict[str, Any],
                          created_by: int) -> PresetRecord:
        """Create or replace server ``guild_id``'s preset ``name`` (names are unique per
        server, whatever their game)."""
        now = self._clock()
        await self._backend.write(
            "INSERT INTO presets (guild_id, name, kind, options, created_by, created_at)"
            " VALUES (?,?,?,?,?,?) ON CONFLICT (guild_id, name) DO UPDATE SET"
            " kind=excluded.kind, options=excluded.options, created_by=excluded.created_by,"
            " created_at=excluded.created_at",
            (guild_id, name, kind, json.dumps(options, sort_keys=True), created_by, now))
        return PresetRecord(guild_id=guild_id, name=name, kind=kind, options=dict(options),
                            created_by=created_by, created_at=now)

    async def presets(self, guild_id: int, kind: str | None = None) -> list[PresetRecord]:
        """Server ``guild_id``'s presets (of game ``kind`` only, when given), by name."""
        if kind is None:
            rows = await self._all("SELECT * FROM presets WHERE guild_id=? ORDER BY name",
                                   (guild_id,))
        else:
            rows = await self._all("SELECT * FROM presets WHERE guild_id=? AND kind=?"
                                   " ORDER BY name", (guild_id, kind))
        return [_preset(r) for r in rows]

    async def preset(self, guild_id: int, name: str) -> PresetRecord | None:
        """Server ``guild_id``'s preset ``name``, or ``None``."""
        row = await self._one("SELECT * FROM presets WHERE guild_id=? AND name=?",
                              (guild_id, name))
        return _preset(row) if row is not None else None

    async def delete_preset(self, guild_id: int, name: str) -> bool:
        """Delete server ``guild_id``'s preset ``name``; False when there was none."""
        return bool(await self._backend.write(
            "DELETE FROM presets WHERE guild_id=? AND name=?", (guild_id, name)))
