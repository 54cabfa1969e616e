"""The bot's own permissions in a channel: what a game needs, and a refusal naming what is
missing so a server admin knows what to grant; and a command's failed check (discord.py's
``CheckFailure`` kinds) as our own sentence (:func:`check_refusal`).

Discord sends the bot's effective permissions in the interaction's channel with every
interaction (``interaction.app_permissions``); a game's lobby, thread and table need the
ones in :data:`GAME_PERMISSIONS` (the same as the README's invite link).
"""

from __future__ import annotations

import math

import discord
from discord import app_commands

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


#: Discord's names (its settings' words) of the permissions a command's checks may name,
#: by ``discord.Permissions`` attribute; another is said in its attribute's words.
PERMISSION_NAMES: dict[str, str] = {
    "administrator": N_("Administrator"), "manage_guild": N_("Manage Server"),
    "manage_channels": N_("Manage Channels"), "manage_roles": N_("Manage Roles"),
    "manage_messages": N_("Manage Messages"), "manage_threads": N_("Manage Threads"),
    "read_message_history": N_("Read Message History"),
    "create_private_threads": N_("Create Private Threads"),
    "add_reactions": N_("Add Reactions"), "use_external_emojis": N_("Use External Emojis"),
    "use_application_commands": N_("Use Application Commands"),
    "read_messages": N_("View Channel"),
    **dict(GAME_PERMISSIONS),
}


def permission_names(lang: str | None, attributes: list[str]) -> str:
    """``attributes`` (``discord.Permissions`` names) as Discord names them, in ``lang``,
    listed the way ``lang`` lists things."""
    return and_list(lang, [translate(lang, PERMISSION_NAMES[a]) if a in PERMISSION_NAMES
                           else a.replace("_", " ").title() for a in attributes])


def check_refusal(error: app_commands.CheckFailure) -> GameError:
    """A command's failed check (discord.py's :class:`~discord.app_commands.CheckFailure`
    and its kinds) as our own sentence in the member's language (``GameError``
    ``check``), never discord.py's English."""
    if isinstance(error, app_commands.MissingPermissions):
        missing = list(error.missing_permissions)
        return GameError("check", lambda lang: translate_n(
            lang, "You need the permission {names} to use this command.",
            "You need the permissions {names} to use this command.", len(missing),
            names=permission_names(lang, missing)))
    if isinstance(error, app_commands.BotMissingPermissions):
        lacking = list(error.missing_permissions)
        return GameError("check", lambda lang: translate_n(
            lang, "I am missing the permission {names} here. A server admin can grant it to "
            "herdbot in this channel's settings (Edit Channel > Permissions).",
            "I am missing the permissions {names} here. A server admin can grant them to "
            "herdbot in this channel's settings (Edit Channel > Permissions).", len(lacking),
            names=permission_names(lang, lacking)))
    if isinstance(error, app_commands.NoPrivateMessage):
        return GameError("check", N_("This command works only in a server, not in direct "
                                     "messages."))
    if isinstance(error, app_commands.CommandOnCooldown):
        wait = max(1, math.ceil(error.retry_after))
        return GameError("check", lambda lang: translate_n(
            lang, "Slow down: you can use this command again in {count} second.",
            "Slow down: you can use this command again in {count} seconds.", wait))
    if isinstance(error, (app_commands.MissingRole, app_commands.MissingAnyRole)):
        return GameError("check", N_("This command is only for members with a certain role."))
    return GameError("check", N_("You cannot use this command here."))
