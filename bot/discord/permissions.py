"""The bot's own permissions in a channel: what a game needs, and a refusal naming what is
missing so a server admin knows what to grant.

Discord sends the bot's effective permissions in the interaction's channel with every
interaction (``interaction.app_permissions``); a game's lobby, thread and table need the
ones in :data:`GAME_PERMISSIONS` (the same as the README's invite link).
"""

from __future__ import annotations

import discord

from bot.discord.text import and_list
from bot.i18n import N_, translate, translate_n
from bot.runtime import GameError

#: What a game needs in its channel: ``(discord.Permissions attribute, name in Discord's
#: settings)``. Send Messages posts notes in the lobby's channel (and the table when no
#: thread can be opened); the thread needs Create Public Threads and Send Messages in
#: Threads; the table is an embed (Embed Links) with a picture (Attach Files).
GAME_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("create_public_threads", N_("Create Public Threads")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
    ("embed_links", N_("Embed Links")),
    ("attach_files", N_("Attach Files")),
)

#: Permissions Discord denies implicitly along with Send Messages (granting it back
#: restores them unless they are denied on their own).
_FOLLOW_SEND = ("embed_links", "attach_files")


def missing_game_permissions(perms: discord.Permissions) -> list[str]:
    """Names (as Discord's settings show them) of the :data:`GAME_PERMISSIONS` missing from
    ``perms``, in that order. Without View Channel only that one is named, without Send
    Messages not the ones Discord removes along with it."""
    if not perms.view_channel:
        return ["View Channel"]
    missing = [(attr, label) for attr, label in GAME_PERMISSIONS if not getattr(perms, attr)]
    if not perms.send_messages:
        missing = [(attr, label) for attr, label in missing if attr not in _FOLLOW_SEND]
    return [label for _, label in missing]


def require_game_permissions(interaction: discord.Interaction) -> None:
    """Refuse (``GameError`` ``bot_permissions``) when the bot lacks any of
    :data:`GAME_PERMISSIONS` in the interaction's channel, naming the missing ones."""
    missing = missing_game_permissions(interaction.app_permissions)
    if not missing:
        return

    def say(lang: str) -> str:
        names = and_list(lang, [translate(lang, name) for name in missing])
        return translate_n(
            lang, "I cannot run a game in this channel: I am missing the permission {names}. "
            "A server admin can grant it to herdbot in this channel's settings (Edit Channel > "
            "Permissions).", "I cannot run a game in this channel: I am missing the "
            "permissions {names}. A server admin can grant them to herdbot in this channel's "
            "settings (Edit Channel > Permissions).", len(missing), names=names)

    raise GameError("bot_permissions", say)
