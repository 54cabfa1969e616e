"""Replies that never fail loudly: ephemeral errors, safe followups, expired-token fallback."""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

#: Discord error codes herdbot handles.
UNKNOWN_INTERACTION = 10062
INVALID_WEBHOOK_TOKEN = 50027
CANNOT_DM = 50007


async def send_ephemeral(interaction: discord.Interaction, content: str | None = None, **kwargs: Any) -> None:
    """Answer ``interaction`` ephemerally, whether or not it was already acknowledged.

    Falls back silently (logged) when the interaction expired; never raises for a Discord
    HTTP error.
    """
    try:
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(content, ephemeral=True, **kwargs)
    except discord.HTTPException as exc:
        log.info("could not answer interaction %s: %s", interaction.id, exc)


async def send_error(interaction: discord.Interaction, message: str) -> None:
    """Tell the user why their click or command was refused (ephemeral, one sentence)."""
    await send_ephemeral(interaction, f"\N{NO ENTRY SIGN} {message}")


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False, thinking: bool = False) -> bool:
    """Acknowledge within Discord's 3 seconds. Returns False when the interaction is gone
    (10062: answered too late); the caller then posts in the channel instead."""
    if interaction.response.is_done():
        return True
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
        return True
    except discord.NotFound:
        return False
    except discord.HTTPException as exc:
        log.info("defer failed for %s: %s", interaction.id, exc)
        return False
