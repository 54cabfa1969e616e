"""Pure builders for Discord API / gateway payload dicts used by the sandbox.

Everything here returns plain JSON-able dicts in the shapes Discord API v10 uses
(snowflakes as strings, ISO-8601 timestamps). No discord.py objects are built here:
discord.py itself parses these payloads.
"""

from __future__ import annotations

import datetime as _dt
import time
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

#: Discord's permission flags by name (bit numbers from Discord's permissions documentation;
#: names as discord.py spells them). ``World.deny_bot`` takes these names.
PERMISSIONS: dict[str, int] = {
    "create_instant_invite": 1 << 0,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "add_reactions": 1 << 6,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "send_tts_messages": 1 << 12,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "manage_roles": 1 << 28,
    "use_application_commands": 1 << 31,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
}

#: Permission bits the simulated bot's role grants in the guild: what the README's invite
#: URL asks for (View Channels, Send Messages, Send Messages in Threads, Create Public
#: Threads, Embed Links, Attach Files, Read Message History) plus a few harmless ones. No
#: Manage Messages and no Manage Threads: like the real bot, it cannot post in a thread a
#: moderator locked.
BOT_PERMISSIONS = (
    (1 << 0)  # create instant invite
    | (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 31)  # use application commands
    | (1 << 35)  # create public threads
    | (1 << 36)  # create private threads
    | (1 << 38)  # send messages in threads
)

#: Permission bits of the @everyone role in the simulated guild.
EVERYONE_PERMISSIONS = (
    (1 << 0) | (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16)
    | (1 << 18) | (1 << 31) | (1 << 35) | (1 << 38)
)


class Clock:
    """The world's clock: real time plus an offset that only :meth:`advance` moves.

    Nothing in the sandbox sleeps; ``advance`` moves this clock *and* fast-forwards the
    event loop's pending timers (see :meth:`bot.sandbox.Sandbox.advance`).
    """

    def __init__(self) -> None:
        self.offset = 0.0
        self._last_id = 0

    def time(self) -> float:
        """Seconds since the Unix epoch, as seen by the simulated Discord."""
        return time.time() + self.offset

    def now(self) -> _dt.datetime:
        """Aware UTC datetime of :meth:`time`."""
        return _dt.datetime.fromtimestamp(self.time(), tz=_dt.UTC)

    def iso(self) -> str:
        """ISO-8601 timestamp string as Discord sends it."""
        return self.now().isoformat()

    def snowflake(self) -> int:
        """A fresh, strictly increasing snowflake whose timestamp is :meth:`time`."""
        sf = (int(self.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if sf <= self._last_id:
            sf = self._last_id + 1
        self._last_id = sf
        return sf


def user(uid: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    """A Discord user object."""
    d: dict[str, Any] = {
        "id": str(uid),
        "username": name.lower().replace(" ", "_"),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }
    if bot:
        d["bot"] = True
    return d


def member(
    user_payload: dict[str, Any],
    roles: list[int],
    joined_at: str,
    *,
    permissions: int | None = None,
    with_user: bool = True,
) -> dict[str, Any]:
    """A guild member object; ``permissions`` is added as in interaction payloads."""
    d: dict[str, Any] = {
        "roles": [str(r) for r in roles],
        "joined_at": joined_at,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "nick": None,
        "avatar": None,
        "banner": None,
        "premium_since": None,
        "communication_disabled_until": None,
    }
    if with_user:
        d["user"] = user_payload
    if permissions is not None:
        d["permissions"] = str(permissions)
    return d


def role(rid: int, name: str, permissions: int, position: int) -> dict[str, Any]:
    """A guild role object."""
    return {
        "id": str(rid),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def application(app_id: int, name: str, owner: dict[str, Any]) -> dict[str, Any]:
    """GET /oauth2/applications/@me answer."""
    return {
        "id": str(app_id),
        "name": name,
        "icon": None,
        "description": f"{name} (sandbox)",
        "summary": "",
        "type": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": (1 << 19),  # gateway message content limited
        "owner": owner,
        "team": None,
        "rpc_origins": [],
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "approximate_guild_count": 1,
        "bot": owner,
    }
