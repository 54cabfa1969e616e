"""The store's settings of a server and preferences of a member."""

from __future__ import annotations

import time

from bot.store.base import StoreBase
from bot.store.records import (
    GuildSettings,
)


class PrefStore(StoreBase):
    """Settings and preferences (see :class:`bot.store.Store`)."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """Stored settings for a server (all ``None`` when never set)."""
        row = await self._one("SELECT * FROM guild_settings WHERE guild_id=?", (guild_id,))
        if row is None:
            return GuildSettings(guild_id=guild_id)
        data = dict(row)
        for flag in ("dm_notifications", "end_idle_games", "one_message"):
            if data[flag] is not None:
                data[flag] = bool(data[flag])
        return GuildSettings.model_validate(data)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Insert or replace a server's settings."""
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_timer, dm_notifications,"
                " game_channel_id, max_open_lobbies, end_idle_games, language, one_message)"
                " VALUES (?,?,?,?,?,?,?,?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_timer=excluded.turn_timer,"
                " dm_notifications=excluded.dm_notifications,"
                " game_channel_id=excluded.game_channel_id,"
                " max_open_lobbies=excluded.max_open_lobbies,"
                " end_idle_games=excluded.end_idle_games, language=excluded.language,"
                " one_message=excluded.one_message",
                (
                    settings.guild_id,
                    settings.turn_timer,
                    None if settings.dm_notifications is None else int(settings.dm_notifications),
                    settings.game_channel_id,
                    settings.max_open_lobbies,
                    None if settings.end_idle_games is None else int(settings.end_idle_games),
                    settings.language,
                    None if settings.one_message is None else int(settings.one_message),
                ),
            )

    _PREFS = ("dm_opt_out", "dm_closed", "dm_closed_told", "turn_notices")

    async def member_prefs(self, user_id: int) -> dict[str, bool]:
        """``{"dm_opt_out", "dm_closed", "dm_closed_told", "turn_notices"}`` for a member
        (all False by default)."""
        row = await self._one("SELECT * FROM member_prefs WHERE user_id=?", (user_id,))
        if row is None:
            return dict.fromkeys(self._PREFS, False)
        return {k: bool(row[k]) for k in self._PREFS}

    #: Seconds a process keeps a member's ``turn_notices`` choice (:meth:`turn_notices`)
    #: on PostgreSQL, where another process may change it; SQLite has one process, whose
    #: own writes drop the kept value.
    TURN_NOTICES_TTL_S = 30.0

    async def turn_notices(self, user_id: int) -> bool:
        """Whether the member asked for turn notices (``/notify``), kept per process: read
        at most once per :attr:`TURN_NOTICES_TTL_S` on PostgreSQL, once on SQLite, and
        read again after this store changed the member's preferences."""
        now = time.monotonic()
        kept = self._turn_notices.get(user_id)
        if kept is not None and (kept[1] is None or now < kept[1]):
            return kept[0]
        value = (await self.member_prefs(user_id))["turn_notices"]
        if len(self._turn_notices) >= 10_000:
            self._turn_notices.clear()
        self._turn_notices[user_id] = (
            value, None if self.dialect == "sqlite" else now + self.TURN_NOTICES_TTL_S)
        return value

    async def dm_channel(self, user_id: int) -> int | None:
        """The id of the DM channel opened with ``user_id`` (``None``: not opened yet)."""
        row = await self._one("SELECT dm_channel_id FROM member_prefs WHERE user_id=?",
                              (user_id,))
        return int(row[0]) if row is not None and row[0] is not None else None

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Remember the DM channel opened with ``user_id`` (its other preferences kept)."""
        await self._set_member_column(user_id, "dm_channel_id", channel_id)

    async def _set_member_column(self, user_id: int, column: str, value: int | str) -> None:
        """Store ``value`` in ``column`` of ``user_id``'s row of ``member_prefs`` (one
        upsert; the other columns kept). ``column`` is one of this module's names."""
        async with self._tx() as db:
            await db.execute(
                f"INSERT INTO member_prefs (user_id, {column}) VALUES (?,?)"
                f" ON CONFLICT (user_id) DO UPDATE SET {column}=excluded.{column}",
                (user_id, value))

    async def set_member_prefs(self, user_id: int, **flags: bool) -> None:
        """Set some of the member's DM flags (see :meth:`member_prefs`); the others keep
        their stored value (one statement, so two changes at once both stay)."""
        if set(flags) - set(self._PREFS):
            raise ValueError(f"unknown preference {sorted(set(flags) - set(self._PREFS))}")
        names = [k for k in self._PREFS if k in flags]
        cols = "".join(f", {k}" for k in names)
        marks = ",?" * len(names)
        update = (" DO UPDATE SET " + ", ".join(f"{k}=excluded.{k}" for k in names)
                  if names else " DO NOTHING")
        self._turn_notices.pop(user_id, None)
        try:
            async with self._tx() as db:
                await db.execute(
                    f"INSERT INTO member_prefs (user_id{cols}) VALUES (?{marks})"
                    f" ON CONFLICT (user_id){update}",
                    (user_id, *(int(flags[k]) for k in names)),
                )
        finally:
            self._turn_notices.pop(user_id, None)

    async def member_locale(self, user_id: int) -> str | None:
        """The client locale ``user_id`` last used with herdbot (Discord's, e.g. ``"de"``;
        ``None``: not seen yet): the language of their DMs."""
        row = await self._one("SELECT locale FROM member_prefs WHERE user_id=?", (user_id,))
        return str(row[0]) if row is not None and row[0] is not None else None

    async def set_member_locale(self, user_id: int, locale: str) -> None:
        """Remember ``user_id``'s client locale (their other preferences kept)."""
        await self._set_member_column(user_id, "locale", locale)
