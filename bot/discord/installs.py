"""Where herdbot's commands may be used, declared to Discord per command (D
interactions/application-commands "Installation Context", "Interaction Contexts"), and
whether an interaction's place has a thread the bot can use.

Two installs: to a server (the bot user joins it; games open a thread) and to a user's
account (the commands follow the member into DMs, group DMs and servers without the bot;
the bot user is no member there, so a game is played in one message,
:mod:`bot.discord.one_message`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

#: The lobby option marking a game played in one message.
ONE_MESSAGE = "one_message"

#: (Commands declare theirs with ``app_commands.allowed_installs`` and
#: ``allowed_contexts``; a group takes these.)
#: Both installs: a server's and a user's.
BOTH_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
#: A server install only.
SERVER_INSTALL = app_commands.AppInstallationType(guild=True, user=False)
#: Server channels, the bot's DM and private channels (DMs between users, group DMs).
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
#: Server channels only.
SERVERS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


def has_bot_member(interaction: discord.Interaction) -> bool:
    """True when herdbot's bot user is where ``interaction`` happened: a server that
    installed it, or the bot's own DM. False in a DM between users, a group DM, or a
    server where only the member installed it (``authorizing_integration_owners`` then
    holds the user install only)."""
    if interaction.context.private_channel:
        return False
    if interaction.context.dm_channel:
        return True
    return interaction.is_guild_integration()


def one_message_place(interaction: discord.Interaction) -> bool:
    """True when a game started by ``interaction`` is played in one message: there is
    no thread the bot can use (the bot's DM, a private channel, a server without the
    bot)."""
    return interaction.guild_id is None or not has_bot_member(interaction)


def is_one_message(record: Any) -> bool:
    """True for a game (a :class:`~bot.store.GameRecord`) played in one message."""
    return bool(record.options.get(ONE_MESSAGE))
