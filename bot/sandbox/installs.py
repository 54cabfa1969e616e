"""Where the app is installed and what that allows, as Discord documents it (D
interactions/application-commands "Installation Context" and "Interaction Contexts";
interactions/receiving-and-responding "Interaction Object", "Followup Messages").

An app is installed to a guild (GUILD_INSTALL, 0: its bot user is a member there) and/or
to a user's account (USER_INSTALL, 1: the user may run its commands anywhere, the bot user
joins nothing). An interaction happens in a context: 0 a guild channel, 1 the DM between a
member and the app's bot user, 2 a private channel (a DM between users or a group DM), and
says which installs authorised it (``authorizing_integration_owners``: "0" -> the guild id,
"0" in the bot's DM; "1" -> the installing user's id).

What the simulated Discord refuses because of it:

- a command a member is not offered (the command's ``contexts`` lack the context, or no
  install of its ``integration_types`` reaches there): :class:`SandboxError`, since the
  member could not run it at all;
- a bot-token request to a channel the bot user is no member of (a private channel, a
  channel of a guild that did not install the app): 403 Missing Access (50001);
- a followup after :data:`FOLLOWUP_CAP` of an interaction authorised only by a user
  install: 400 code 40094;
- pressing a button in a private channel one is not a recipient of: :class:`SandboxError`.
"""

from __future__ import annotations

from typing import Any, Protocol

from . import payloads as P
from .messaging import HTTPError
from .model import MemberRecord, SandboxError, SimChannel, SimInteraction, SimMessage

GUILD_INSTALL = 0
USER_INSTALL = 1
#: Interaction contexts.
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
#: Followup messages an interaction authorised only by a user install may send (D
#: receiving-and-responding "Followup Messages"; a sixth answers 400 code 40094).
FOLLOWUP_CAP = 5
#: What an app may do through an interaction where its bot user is no member
#: (``app_permissions`` in a user-install context): attach files, embed links, mention
#: everyone, use external emojis.
USER_CONTEXT_PERMISSIONS = (P.PERMISSIONS["attach_files"] | P.PERMISSIONS["embed_links"]
                            | P.PERMISSIONS["mention_everyone"]
                            | P.PERMISSIONS["use_external_emojis"])


class Installs(Protocol):
    """The world as this module reads it."""

    guild_id: int
    user_installs: set[int]
    uninstalled_guilds: set[int]


def context_of(channel: SimChannel) -> int:
    """The interaction context of ``channel``: 0 guild, 1 bot DM, 2 private channel."""
    if channel.kind == "dm":
        return BOT_DM
    if channel.kind == "private":
        return PRIVATE_CHANNEL
    return GUILD


def guild_installed(world: Installs, channel: SimChannel) -> bool:
    """True when the app's bot user is in ``channel``'s place: a guild that installed it,
    or the bot's own DM."""
    if channel.kind == "dm":
        return True
    gid = channel.guild_id
    return gid is not None and gid not in world.uninstalled_guilds


def offered(definition: dict[str, Any]) -> tuple[list[int], list[int]]:
    """``(integration_types, contexts)`` of a command as synced, with Discord's defaults:
    a guild install only, and every context (a ``dm_permission`` of false: guilds only)."""
    types = definition.get("integration_types") or [GUILD_INSTALL]
    contexts = definition.get("contexts")
    if contexts is None:
        contexts = [GUILD] if definition.get("dm_permission") is False else [
            GUILD, BOT_DM, PRIVATE_CHANNEL]
    return list(types), list(contexts)


def command_owners(world: Installs, member: MemberRecord, channel: SimChannel,
                   definition: dict[str, Any]) -> dict[str, str]:
    """The installs that offer command ``definition`` to ``member`` in ``channel``
    (``authorizing_integration_owners``). Raises :class:`SandboxError` when none does:
    Discord does not show the member the command there."""
    types, contexts = offered(definition)
    context = context_of(channel)
    name = definition.get("name")
    if context not in contexts:
        raise SandboxError(f"/{name} is not offered in context {context} (its contexts: "
                           f"{contexts})")
    owners: dict[str, str] = {}
    if GUILD_INSTALL in types and context != PRIVATE_CHANNEL and guild_installed(world, channel):
        owners["0"] = "0" if context == BOT_DM else str(channel.guild_id)
    if USER_INSTALL in types and member.id in world.user_installs:
        owners["1"] = str(member.id)
    if not owners:
        raise SandboxError(f"/{name} is not offered to {member.name} here: no install of "
                           f"{types} reaches context {context}")
    return owners


def component_owners(world: Installs, member: MemberRecord, message: SimMessage
                     ) -> dict[str, str]:
    """The installs behind a click on ``message``: those of the interaction that posted
    it, else (a bot-token message) the guild install. Raises :class:`SandboxError` when
    ``member`` cannot see a private channel's message (not a recipient)."""
    ch = message.channel
    if ch.kind == "private" and member.id not in ch.recipients:
        raise SandboxError(f"{member.name} is not in private channel {ch.id}")
    origin = message.interaction
    if origin is not None and origin.owners:
        return dict(origin.owners)
    return {"0": "0" if ch.kind == "dm" else str(ch.guild_id)}


def app_permissions(world: Any, channel: SimChannel) -> int:
    """``app_permissions`` of an interaction in ``channel``: the bot's own where it is a
    member, else what an interaction lets the app do (:data:`USER_CONTEXT_PERMISSIONS`)."""
    if guild_installed(world, channel):
        return int(world.bot_permissions(channel))
    return USER_CONTEXT_PERMISSIONS


def check_bot_access(world: Any, channel: SimChannel) -> None:
    """A bot-token request to ``channel``: 403 Missing Access (50001) where the bot user is
    no member (a private channel, a guild that did not install the app)."""
    if channel.kind == "private" or not guild_installed(world, channel):
        raise HTTPError(403, 50001, "Missing Access")


def count_followup(it: SimInteraction) -> None:
    """One more followup of ``it``: 400 code 40094 past :data:`FOLLOWUP_CAP` when only a
    user install authorised it."""
    if "0" not in it.owners and it.followup_posts >= FOLLOWUP_CAP:
        raise HTTPError(400, 40094, "This interaction has hit the maximum number of follow "
                        "up messages")
    it.followup_posts += 1
