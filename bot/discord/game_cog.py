"""The base of every game cog: one game's table, clicks and thread in Discord.

The table is drawn from the game's spec (its presenter, display hooks and renderers:
:class:`~bot.games.registry.GameSpec`); a game cog subclasses :class:`GameCog` and
supplies what is particular to its game in Discord: ``on_game_component`` (its own
buttons and selects), ``private_panel`` (the ephemeral "My hand" content) and any panel
or flow of its own. Rules stay in the engine; this layer only translates.

The base is put together from one part per job: :class:`~bot.discord.table.TableLook`
(how the table looks), :class:`~bot.discord.clicks.Clicks` (what a click does) and
:class:`~bot.discord.table_posts.TablePosts` (how a stored change is shown: the
per-game part of the outbox).
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import discord
from discord.ext import commands

from bot.discord.clicks import Clicks
from bot.discord.host import Host
from bot.discord.lean import Posted
from bot.discord.table import Table
from bot.discord.table_posts import TablePosts
from bot.discord.tokens import LiveTokens


class GameCog(TablePosts, Clicks, commands.Cog):
    """Base class of the game cogs. Subclasses set ``kind`` (the game's registry key) and
    override the hooks of their own flows."""

    #: Codes (before a ``.``) of this cog's own buttons whose clicks are held for their
    #: first answer (:func:`bot.discord.router.holds_answer`): their handlers answer
    #: through the writes that know a held click (``send_ephemeral``, the table's edit).
    held_codes: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._post_locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, tuple[int, list[str]]] = {}
        self._retired: dict[int, tuple[int, discord.ui.LayoutView]] = {}
        self._heads: dict[int, tuple[int, list[str]]] = {}
        self._posted: dict[int, Posted | discord.WebhookMessage] = {}
        self._tokens = LiveTokens()
        self._said: dict[int, list[str]] = {}
        self._recorded: dict[int, tuple[int, int | None, str | None]] = {}
        self._newest: dict[int, int] = {}
        self._turn_pinged: dict[int, set[str]] = {}
        self._asked: dict[int, str] = {}
        self._examples: dict[str, bytes] = {}
        self._picture_inputs: dict[int, dict[str, Any]] = {}
        self._watchers: dict[int, set[int]] = {}
        self._lesson_notes: dict[int, tuple[str | None, str]] = {}
        self._lesson_said: dict[int, set[str]] = {}

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A deleted thread that holds one of this cog's running games ends that game."""
        record = await self.bot.store.game_by_thread(payload.thread_id)
        if record is None or record.kind != self.kind or record.thread_id == record.channel_id:
            return
        await self.thread_gone(record)


__all__ = ["GameCog", "Table"]
