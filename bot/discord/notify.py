"""Direct messages: hands and turn notices by DM, with opt-out and closed-DM memory.

A member's closed DMs (Discord error 50007) are remembered, so the bot stops trying; the
member is told once, in the game's thread and without any secret, to use the My hand button.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.discord import lean
from bot.discord.host import Host
from bot.discord.installs import is_one_message
from bot.discord.layout import accent_of, panel
from bot.discord.text import pinging
from bot.i18n import member_language, translate
from bot.runtime.core import is_lesson
from bot.runtime.updates import game_title
from bot.store import GameRecord

log = logging.getLogger(__name__)


def thread_link(record: GameRecord) -> str:
    """A link to the game's thread (or channel; a lesson's is the member's DM)."""
    target = record.thread_id or record.channel_id
    where = "@me" if is_lesson(record) else record.guild_id or "@me"
    return f"https://discord.com/channels/{where}/{target}"


class Notifier:
    """Sends DMs on behalf of the games."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def may_dm(self, record: GameRecord, user_id: int) -> bool:
        """True unless the member opted out, their DMs are known closed, or the server
        turned DM notifications off."""
        if is_one_message(record):
            return False  # played where the bot is no member: it tells nobody privately
        prefs = await self.bot.store.member_prefs(user_id)
        if prefs["dm_opt_out"] or prefs["dm_closed"]:
            return False
        if record.guild_id is not None:
            settings = await self.bot.store.guild_settings(record.guild_id)
            if settings.dm_notifications is not None:
                return settings.dm_notifications
        return self.bot.settings.default_dm_notifications

    async def dm(self, record: GameRecord, user_id: int, text: str | Callable[[str], str],
                 **kwargs: Any) -> bool:
        """DM ``text`` as a Components V2 panel in the game's accent colour: one text
        display, led by the game's name and a link to its thread (``kwargs``: more of the
        message, such as a ``file``); a callable ``text`` is given the member's language
        (their last seen client locale, else the game's: :func:`bot.i18n.member_language`;
        one more read, only when a DM goes). Returns True when sent. On 50007 the member
        is marked and told once in the thread."""
        if not await self.may_dm(record, user_id):
            return False
        spec = self.bot.registry.get(record.kind)
        name = spec.name if spec else record.kind
        lang = await self.member_lang(record, user_id)
        if callable(text):
            text = text(lang)
        header = f"**{game_title(lang, name, record.id)}** \N{EM DASH} {thread_link(record)}\n"
        try:
            channel = await self.dm_channel(user_id)
            await lean.send(channel, view=panel(accent=accent_of(spec), words=header + text,
                                                lang=lang), **kwargs)
            return True
        except discord.Forbidden as exc:
            if exc.code == 50007:
                await self._closed(record, user_id)
            return False
        except discord.HTTPException as exc:
            log.info("DM to %s failed: %s", user_id, exc)
            return False

    async def member_lang(self, record: GameRecord, user_id: int) -> str:
        """The language of ``user_id``'s DMs about ``record``'s game: their last seen client
        locale, else the game's (:func:`bot.i18n.member_language`; one read)."""
        return member_language(await self.bot.store.member_locale(user_id),
                               record.options.get("language"))

    async def dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The member's DM channel: opened once (one bot-token request) and its id kept in
        the store, so later DMs, after a restart too, need no look-up of the member.
        Raises :class:`discord.HTTPException` when Discord refuses to open it."""
        channel_id = await self.bot.store.dm_channel(user_id)
        if channel_id is None:
            data = await self.bot.http.start_private_message(user_id)
            channel_id = int(data["id"])
            await self.bot.store.set_dm_channel(user_id, channel_id)
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _closed(self, record: GameRecord, user_id: int) -> None:
        prefs = await self.bot.store.member_prefs(user_id)
        await self.bot.store.set_member_prefs(user_id, dm_closed=True, dm_closed_told=True)
        if prefs["dm_closed_told"]:
            return
        target = record.thread_id or record.channel_id
        if target is None:
            return
        channel = self.bot.get_partial_messageable(target)
        try:
            await channel.send(translate(
                record.options.get("language"), "{who}, I cannot send you direct messages, so "
                "I will not try again. Use the **My hand** button on the table to see your "
                "cards.", who=f"<@{user_id}>"), allowed_mentions=pinging([user_id]))
        except discord.HTTPException:
            log.info("could not tell %s about closed DMs", user_id)
