"""Rematch: the Rematch button of a finished game (its custom id names that game, so it
works after a restart) opens the rematch lobby in the game's channel and pings the other
players once; a second press points to it. A game played in one message (no bot user
there) gets its rematch lobby as a followup of the press, a new message in the same place,
never a bot-token post."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.discord.installs import is_one_message
from bot.discord.replies import send_ephemeral
from bot.discord.text import md_name
from bot.discord.tokens import LiveTokens
from bot.runtime import GameError, Update
from bot.store import GameRecord

log = logging.getLogger(__name__)


def lobby_link(record: GameRecord) -> str:
    """Where a lobby is: its message's link (``@me`` for a DM or a group DM), else its
    channel."""
    if record.channel_id and record.lobby_message_id:
        return (f"https://discord.com/channels/{record.guild_id or '@me'}/"
                f"{record.channel_id}/{record.lobby_message_id}")
    return f"<#{record.channel_id}>" if record.channel_id else ""


async def open_rematch(bot: Any, interaction: discord.Interaction, game_id: int,
                       parts: Callable[[Update, str], dict[str, Any]],
                       in_place: LiveTokens) -> None:
    """Answer a Rematch press on finished game ``game_id``: open its rematch lobby (the
    lobby message's ``parts`` (a Components V2 view) led by the invitation, which pings the
    other players once), or tell the member where it is. A one-message game's lobby is
    posted through the press (a followup; the press is kept in ``in_place`` to show the
    lobby closing). Refusals (not a player, started already) are :class:`GameError`
    sentences."""
    user = interaction.user
    rematch = await bot.service.rematch(game_id, user.id, user.display_name)
    lobby = rematch.update.record
    if not rematch.opened:
        await send_ephemeral(interaction, f"{rematch.note} {lobby_link(lobby)}".strip())
        return
    who = " ".join(f"<@{m}>" for m in rematch.invited)
    head = (f"\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS} "
               f"**{md_name(user.display_name)}** asks for a rematch of {rematch.update.spec.name}"
               f" #{game_id}." + (f" {who}: press Join; the game starts once you are all in, or "
                                  "when the host starts it." if who else ""))
    mentions = discord.AllowedMentions(everyone=False, roles=False,
                                       users=[discord.Object(m) for m in rematch.invited])
    one = is_one_message(lobby)
    try:
        if one:
            message: discord.Message = await interaction.followup.send(
                wait=True, allowed_mentions=mentions, **parts(rematch.update, head))
        else:
            channel = bot.get_partial_messageable(lobby.channel_id, guild_id=lobby.guild_id)
            message = await channel.send(**parts(rematch.update, head),
                                         allowed_mentions=mentions)
    except discord.HTTPException as exc:
        log.info("game %s: the rematch lobby could not be posted: %s", game_id, exc)
        await bot.service.cancel(lobby.id, user.id)
        raise GameError("not_posted", "I could not post the rematch lobby in the game's channel; "
                        "nothing was opened.") from exc
    await bot.store.update_game(lobby.id, lobby_message_id=message.id)
    if one:
        in_place.keep(lobby.id, interaction, message.id)
    await send_ephemeral(interaction, f"The rematch lobby is open: {message.jump_url}")
