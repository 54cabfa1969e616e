"""A DM carrying a game's buttons, as members receive them on Discord (test-only)."""

from __future__ import annotations

from typing import Any

from bot.sandbox import SimChannel, SimMessage, World
from bot.sandbox.model import walk_components


def rows_of(source: SimMessage) -> list[dict[str, Any]]:
    """The action rows of ``source``, wherever they sit (a V2 message keeps them in its
    container)."""
    return [c for c in walk_components(source.data["components"]) if c.get("type") == 1]


def dm_with_buttons(world: World, member: Any, source: SimMessage) -> SimMessage:
    """A DM from the bot to ``member`` carrying ``source``'s buttons (the game's own custom
    ids), as a DM with a game's buttons looks on Discord; its text is "Your turn."."""
    ch = world.dm_channels.get(member.id)
    if ch is None:
        ch = SimChannel(world, world.clock.snowflake(), "dm", recipient_id=member.id)
        world.dm_channels[member.id] = ch
        world.channels[ch.id] = ch
    mid = world.clock.snowflake()
    data = {
        "id": str(mid), "channel_id": str(ch.id), "author": world.bot_user(),
        "content": "Your turn.", "timestamp": world.clock.iso(), "edited_timestamp": None,
        "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
        "attachments": [], "embeds": [], "pinned": False, "type": 0, "flags": 0,
        "components": rows_of(source),
    }
    msg = SimMessage(world, data, [])
    world.messages[mid] = msg
    ch.messages.append(mid)
    return msg


__all__ = ["dm_with_buttons"]
