"""Which gateway dispatch events a bot gets for the intents it identified with (Discord's
Gateway docs, "List of Intents"): an event that only another intent brings is not sent."""

from __future__ import annotations

from typing import Any

import discord

#: Events that the GUILDS intent brings.
GUILDS = frozenset({
    "GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE", "GUILD_ROLE_CREATE",
    "GUILD_ROLE_UPDATE", "GUILD_ROLE_DELETE", "CHANNEL_CREATE", "CHANNEL_UPDATE",
    "CHANNEL_DELETE", "THREAD_CREATE", "THREAD_UPDATE",
    "THREAD_DELETE", "THREAD_LIST_SYNC", "THREAD_MEMBER_UPDATE",
})
#: Events that the GUILD_MEMBERS intent (privileged) brings.
MEMBERS = frozenset({"GUILD_MEMBER_ADD", "GUILD_MEMBER_UPDATE", "GUILD_MEMBER_REMOVE"})
#: Events that GUILD_MESSAGES brings in a guild, DIRECT_MESSAGES in a DM.
MESSAGES = frozenset({"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE",
                      "MESSAGE_DELETE_BULK"})


def receives(intents: discord.Intents | int, event: str, data: dict[str, Any],
             self_id: int) -> bool:
    """Whether a bot identified with ``intents`` (or their IDENTIFY bits), its user id
    ``self_id``, is sent dispatch ``event`` with ``data``. THREAD_MEMBERS_UPDATE comes
    with GUILD_MEMBERS, and with GUILDS alone only when the bot itself was added to or
    removed from the thread. CHANNEL_PINS_UPDATE comes with GUILDS in a guild,
    DIRECT_MESSAGES in a DM. Events no intent gates (INTERACTION_CREATE, READY ...)
    always come."""
    if isinstance(intents, int):
        intents = discord.Intents._from_value(intents)
    if event in GUILDS:
        return intents.guilds
    if event in MEMBERS:
        return intents.members
    if event in MESSAGES:
        return intents.guild_messages if data.get("guild_id") else intents.dm_messages
    if event == "CHANNEL_PINS_UPDATE":
        return intents.guilds if data.get("guild_id") else intents.dm_messages
    if event == "THREAD_MEMBERS_UPDATE":
        if intents.members:
            return True
        me = str(self_id)
        return intents.guilds and (
            any(str(m.get("user_id")) == me for m in data.get("added_members") or ())
            or me in (str(u) for u in data.get("removed_member_ids") or ()))
    return True
