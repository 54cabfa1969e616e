"""A lobby played in one message (a DM, a group DM, a server without the bot) that closed
while no interaction token could show it (nobody started it within the hour): the next
click on it edits it into the closed lobby through that click, and the clicker is told
why in a sentence. Never a bot-token request there."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord.installs import is_one_message
from bot.discord.outbox import on_message
from bot.discord.replies import edit_panel
from bot.runtime import GameError
from cogs.lobby_card import RESET, lobby_card

log = logging.getLogger(__name__)

#: The sentence for a click on a lobby nobody started in time (its closed footer's words).
EXPIRED = "Nobody started this lobby within an hour, so it has closed."
#: The sentence for a click on a lobby its host cancelled.
CANCELLED = "This lobby was cancelled."


async def closed_in_place(bot: Any, interaction: discord.Interaction, game_id: int) -> None:
    """After a click on lobby ``game_id`` was refused because it is no longer a lobby:
    when it is a one-message lobby that closed unstarted and the click was made on it, the
    lobby message is edited to say so (no buttons) through this click, and
    :class:`GameError` says why (``lobby_closed``). Otherwise nothing happens here (the
    caller's refusal stands)."""
    record = await bot.service.get(game_id)
    if not (is_one_message(record) and record.status == "cancelled"
            and on_message(interaction, record.lobby_message_id)):
        return
    expires_at = record.options.get("expires_at")
    expired = isinstance(expires_at, (int, float)) and expires_at <= bot.clock.now()
    spec = bot.service.spec_of(record)
    try:
        await edit_panel(interaction, **RESET, view=lobby_card(
            record, await bot.store.seats(game_id), spec, expired=expired))
    except discord.HTTPException as exc:
        log.info("lobby message of game %s could not be edited: %s", game_id, exc)
    raise GameError("lobby_closed", EXPIRED if expired else CANCELLED)
