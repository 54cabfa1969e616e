"""Interaction tokens kept to edit a message later, each forgotten before Discord stops
taking it (D interactions/receiving-and-responding "Interaction tokens are valid for 15
minutes"), so that the bot never calls Discord with a token past its life (which answers
401 Invalid Webhook Token, 50027).

A token's end is a timer on the event loop (``loop.call_later``), counted from when the
bot received the interaction, with a margin for the request in flight."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable
from typing import Any

import discord

from bot.discord import lean
from bot.discord.outbox import token_gone

log = logging.getLogger(__name__)

#: Seconds an interaction token is valid (Discord's 15 minutes).
TOKEN_LIFE_S = 15 * 60
#: Seconds before the end at which a kept token is no longer used (a request sent then
#: still arrives in time).
MARGIN_S = 60


class LiveTokens:
    """key -> the last interaction kept for it while its token lives, and the message it
    edits (``None``: its original response, or the message its component is on)."""

    def __init__(self, life_s: float = TOKEN_LIFE_S - MARGIN_S) -> None:
        self.life_s = life_s
        self._kept: dict[Hashable, tuple[discord.Interaction, int | None,
                                         asyncio.TimerHandle]] = {}

    def keep(self, key: Hashable, interaction: discord.Interaction,
             message_id: int | None = None) -> None:
        """Keep ``interaction`` for ``key`` (replacing an older one) until its token's
        life is nearly over; ``message_id``: the followup of it that later edits change
        (default: its original response)."""
        self.drop(key)
        handle = asyncio.get_running_loop().call_later(self.life_s, self._expire, key,
                                                       interaction)
        self._kept[key] = (interaction, message_id, handle)

    def get(self, key: Hashable) -> discord.Interaction | None:
        """The interaction kept for ``key`` whose token still lives, else ``None``."""
        kept = self._kept.get(key)
        return kept[0] if kept is not None else None

    async def edit(self, key: Hashable, **kwargs: Any) -> bool:
        """Edit ``key``'s message with ``kwargs`` through the token kept for it. False when
        none lives (or Discord says it is gone: it is dropped). Raises
        :class:`discord.HTTPException` for other refusals."""
        kept = self._kept.get(key)
        if kept is None:
            return False
        interaction, message_id, _ = kept
        try:
            if message_id is None:
                await lean.edit_original(interaction, **kwargs)
            else:
                await lean.edit_followup(interaction, message_id, **kwargs)
            return True
        except discord.HTTPException as exc:
            if not token_gone(exc):
                raise
            self.drop(key)
            log.info("%s: its token is gone; the message waits for the next click", key)
            return False

    def drop(self, key: Hashable) -> None:
        """Forget ``key``'s interaction (its token is no longer used)."""
        kept = self._kept.pop(key, None)
        if kept is not None:
            kept[2].cancel()

    def __contains__(self, key: Hashable) -> bool:
        return key in self._kept

    def _expire(self, key: Hashable, interaction: discord.Interaction) -> None:
        kept = self._kept.get(key)
        if kept is not None and kept[0] is interaction:
            del self._kept[key]
