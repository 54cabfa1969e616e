"""The simulated Discord side: guild, channels, threads, DMs, messages, members, faults.

A :class:`World` outlives the bots connected to it: ``await world.disconnect()`` closes
the bot while channels, threads, messages (with their components and attachments) and
DMs persist, so ``await world.connect(new_bot)`` simulates a restart.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any, Protocol

import discord

from . import payloads as P


class SandboxError(AssertionError):
    """A sandbox-detected failure: an exception logged by discord.py, an unhandled route,
    a component that does not exist or is disabled, a settle timeout..."""


# --------------------------------------------------------------------------- the link


class Link(Protocol):
    """The connected bot as the world, its members and the REST router see it. Two kinds
    implement it: :class:`~bot.sandbox.Sandbox` (the bot in this process, no network) and
    :class:`~bot.sandbox.loopback.RemoteLink` (bot processes over HTTP and a websocket on
    127.0.0.1). ``world`` is the world it serves; ``bot`` has ``intents`` (:class:`discord.Intents`); ``requests`` records
    the bot's requests; ``closed`` is True once the bot is gone."""

    world: World
    bot: Any
    requests: list[RecordedRequest]
    closed: bool

    def gateway(self, event: str, data: dict[str, Any]) -> None:
        """Deliver gateway dispatch ``event`` with ``data`` to the bot."""

    def echo_message(self, event: str, msg: SimMessage) -> None:
        """Echo MESSAGE_CREATE/MESSAGE_UPDATE of ``msg`` if the bot's intents get it."""

    def _unhandled(self, what: str) -> None:
        """Record a request to a route the sandbox does not know (an error)."""

    async def run_command(self, member: SimMember, command: str, channel: SimChannel,
                          options: dict[str, Any], focused: str | None = None
                          ) -> SimInteraction:
        """Send an APPLICATION_COMMAND (or AUTOCOMPLETE) interaction; return once settled."""

    async def run_component(self, member: SimMember, message: SimMessage,
                            data: dict[str, Any]) -> SimInteraction:
        """Send a MESSAGE_COMPONENT interaction; return once settled."""

    async def run_modal(self, member: SimMember, origin: SimInteraction,
                        data: dict[str, Any]) -> SimInteraction:
        """Send a MODAL_SUBMIT interaction; return once settled."""

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until the bot is done with what it was sent."""

    async def advance(self, seconds: float) -> None:
        """Move the world clock (and the bot's timers, where the link can)."""

    async def close(self) -> None:
        """Disconnect the bot."""


# --------------------------------------------------------------------------- records


@dataclasses.dataclass
class SimAttachment:
    """A file attached to a message: ``filename``, raw ``data`` bytes, ``content_type``."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    def payload(self, channel_id: int) -> dict[str, Any]:
        """The attachment object Discord returns inside a message."""
        url = f"https://cdn.discordapp.com/attachments/{channel_id}/{self.id}/{self.filename}"
        d: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
        }
        if self.content_type:
            d["content_type"] = self.content_type
        if self.description:
            d["description"] = self.description
        return d


@dataclasses.dataclass
class SimFile:
    """A file part of a multipart request: form field ``name``, ``filename``, ``data``."""

    name: str
    filename: str
    data: bytes
    content_type: str | None = None


@dataclasses.dataclass
class RecordedRequest:
    """One HTTP request the bot made (through either exit).

    ``exit`` is ``"http"`` (``HTTPClient.request``, bot token) or ``"webhook"``
    (``AsyncWebhookAdapter.request``: interaction callbacks, followups, original response).
    ``json`` is the decoded JSON body (or the ``payload_json`` part of a multipart body),
    ``files`` the uploaded files, ``status`` the status the sandbox answered, ``response``
    the decoded answer. ``interaction``/``member`` name the simulated interaction that this
    request answered (by token for webhook requests, by asyncio context otherwise).
    """

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[SimFile]
    exit: str
    status: int = 200
    response: Any = None
    interaction: SimInteraction | None = None

    @property
    def member(self) -> SimMember | None:
        """The member whose interaction this request answered, if any."""
        return self.interaction.member if self.interaction else None

    @property
    def flags(self) -> int:
        """Message flags in the body (``data.flags`` for callbacks), 0 when absent."""
        body = self.json if isinstance(self.json, dict) else {}
        if "data" in body and isinstance(body["data"], dict) and "type" in body:
            body = body["data"]
        return int(body.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """True when the body carries the EPHEMERAL flag (64)."""
        return bool(self.flags & 64)

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


# --------------------------------------------------------------------------- channels/messages


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield every component dict, depth first (rows, containers, sections, labels)."""
    for c in components or []:
        yield c
        if c.get("components"):
            yield from walk_components(c["components"])
        if c.get("accessory"):
            yield from walk_components([c["accessory"]])
        if c.get("component"):
            yield from walk_components([c["component"]])


class SimMessage:
    """A message stored by the world.

    ``data`` is the message object as Discord returns it (kept current across edits).
    ``ephemeral_for`` is the member id that alone can see it (None for public messages).
    ``edits`` counts in-place edits; ``deleted`` is set when deleted (it then disappears
    from channel listings).
    """

    def __init__(self, world: World, data: dict[str, Any], attachments: list[SimAttachment],
                 ephemeral_for: int | None = None, interaction: SimInteraction | None = None):
        self.world = world
        self.data = data
        self.attachments = attachments
        self.ephemeral_for = ephemeral_for
        self.interaction = interaction
        self.edits = 0
        self.deleted = False

    # --- plain fields
    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def channel_id(self) -> int:
        return int(self.data["channel_id"])

    @property
    def channel(self) -> SimChannel:
        return self.world.channels[self.channel_id]

    @property
    def author_id(self) -> int:
        return int(self.data["author"]["id"])

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Embed dicts (``title``, ``description``, ``fields``, ``image``...)."""
        return self.data.get("embeds") or []

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    @property
    def loading(self) -> bool:
        """True while this is a deferred "is thinking..." placeholder."""
        return bool(self.flags & 128)

    @property
    def text(self) -> str:
        """Content, embed titles/descriptions/fields and text displays, newline-joined."""
        parts = [self.content] if self.content else []
        for e in self.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    parts.append(e[key])
            for f in e.get("fields") or []:
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            if (e.get("footer") or {}).get("text"):
                parts.append(e["footer"]["text"])
        for c in walk_components(self.components):
            if c.get("type") == 10 and c.get("content"):
                parts.append(c["content"])
        return "\n".join(parts)

    @property
    def thread(self) -> SimChannel | None:
        """The thread started from this message, if any."""
        return self.world.channels.get(self.id) if self.id in self.world.channels else None

    # --- components
    @property
    def components(self) -> list[dict[str, Any]]:
        """Raw top-level component dicts."""
        return self.data.get("components") or []

    def buttons(self) -> list[dict[str, Any]]:
        """All button dicts (type 2), in display order."""
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        """All select menu dicts (types 3, 5, 6, 7, 8), in display order."""
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def labels(self) -> list[str]:
        """Labels of all buttons, in display order."""
        return [b.get("label") or "" for b in self.buttons()]

    def component(self, key: str) -> dict[str, Any]:
        """The button or select whose label, emoji name, placeholder or custom_id is ``key``.

        Raises :class:`SandboxError` when none matches.
        """
        for c in walk_components(self.components):
            if c.get("type") not in (2, 3, 5, 6, 7, 8):
                continue
            emoji = (c.get("emoji") or {}).get("name")
            if key in (c.get("custom_id"), c.get("label"), c.get("placeholder"), emoji):
                return c
        raise SandboxError(f"message {self.id} has no component {key!r}; buttons: {self.labels}")

    def has_component(self, key: str) -> bool:
        """True when :meth:`component` would find ``key``."""
        try:
            self.component(key)
        except SandboxError:
            return False
        return True

    def is_disabled(self, key: str) -> bool:
        """Disabled state of the component found by :meth:`component`."""
        return bool(self.component(key).get("disabled", False))

    # --- attachments
    @property
    def filenames(self) -> list[str]:
        return [a.filename for a in self.attachments]

    def file(self, filename: str) -> bytes:
        """Bytes of the attachment named ``filename`` (KeyError when absent)."""
        for a in self.attachments:
            if a.filename == filename:
                return a.data
        raise KeyError(filename)

    def __repr__(self) -> str:
        eph = f" ephemeral_for={self.ephemeral_for}" if self.ephemeral_for else ""
        return f"<SimMessage {self.id} ch={self.channel_id}{eph} {self.text[:40]!r} {self.labels}>"


class SimChannel:
    """A guild text channel (``kind="text"``), thread (``"thread"``) or DM (``"dm"``).

    ``messages`` holds the ids of the channel's messages in order (deleted ones removed).
    Threads keep ``members`` (user ids), ``archived``, ``locked``, ``parent_id``,
    ``owner_id``, ``private``, ``auto_archive_duration`` (minutes) and ``last_activity``
    (world time of the last message, unarchive or duration change). DMs keep
    ``recipient_id``. Text channels keep ``overwrites``: target id -> permission overwrite
    dict as Discord sends it (see :meth:`World.deny_bot`). ``deleted`` is set once the
    channel was deleted (every later request to it answers 404 Unknown Channel, 10003).
    """

    def __init__(self, world: World, cid: int, kind: str, name: str = "", *,
                 parent_id: int | None = None, owner_id: int | None = None,
                 recipient_id: int | None = None, private: bool = False,
                 guild_id: int | None = None):
        self.world = world
        self._guild_id = guild_id
        self.id = cid
        self.kind = kind
        self.name = name
        self.parent_id = parent_id
        self.owner_id = owner_id
        self.recipient_id = recipient_id
        self.private = private
        self.messages: list[int] = []
        self.members: set[int] = set()
        self.archived = False
        self.locked = False
        self.auto_archive_duration = 1440
        self.position = 0
        self.topic: str | None = None
        self.overwrites: dict[int, dict[str, Any]] = {}
        self.deleted = False
        self.last_activity = world.clock.time()

    @property
    def is_thread(self) -> bool:
        return self.kind == "thread"

    @property
    def guild_id(self) -> int | None:
        """The guild of a text channel or thread (a thread's is its parent's); ``None`` for
        a DM."""
        if self.kind == "dm":
            return None
        if self.kind == "thread":
            w = self.world
            parent = w.channels.get(self.parent_id or 0) or w.deleted_channels.get(
                self.parent_id or 0)
            return parent.guild_id if parent is not None else w.guild_id
        return self._guild_id or self.world.guild_id

    @property
    def parent(self) -> SimChannel | None:
        return self.world.channels.get(self.parent_id) if self.parent_id else None

    @property
    def all_messages(self) -> list[SimMessage]:
        """Every live message including everyone's ephemerals (god view)."""
        return [self.world.messages[m] for m in self.messages]

    @property
    def last_message(self) -> SimMessage | None:
        """Latest public message (ephemerals excluded)."""
        for mid in reversed(self.messages):
            m = self.world.messages[mid]
            if m.ephemeral_for is None:
                return m
        return None

    def payload(self) -> dict[str, Any]:
        """The channel object as Discord returns it."""
        w = self.world
        last = str(self.messages[-1]) if self.messages else None
        if self.kind == "dm":
            return {
                "id": str(self.id), "type": 1, "last_message_id": last, "flags": 0,
                "recipients": [w.members[self.recipient_id].user_payload()]
                if self.recipient_id in w.members else [],
            }
        if self.kind == "thread":
            return {
                "id": str(self.id), "type": 12 if self.private else 11,
                "guild_id": str(self.guild_id), "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id), "name": self.name, "last_message_id": last,
                "rate_limit_per_user": 0, "flags": 0,
                "message_count": len(self.messages), "member_count": len(self.members),
                "total_message_sent": len(self.messages),
                "thread_metadata": {
                    "archived": self.archived, "locked": self.locked,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": w.clock.iso(), "invitable": True,
                    "create_timestamp": w.clock.iso(),
                },
            }
        return {
            "id": str(self.id), "type": 0, "guild_id": str(self.guild_id), "name": self.name,
            "position": self.position,
            "permission_overwrites": [dict(o) for o in self.overwrites.values()],
            "parent_id": None,
            "topic": self.topic, "nsfw": False, "last_message_id": last,
            "rate_limit_per_user": 0, "flags": 0, "default_auto_archive_duration": 1440,
        }

    def __repr__(self) -> str:
        return f"<SimChannel {self.kind} {self.id} {self.name!r}>"


# --------------------------------------------------------------------------- interactions


class SimInteraction:
    """One interaction a member started, and what the bot answered.

    ``kind``: ``"command"``, ``"autocomplete"``, ``"component"``, ``"modal"``.
    ``response_type``: the callback type the bot used (4 message, 5 deferred message,
    6 deferred update, 7 update message, 8 autocomplete, 9 modal), None when unanswered.
    ``message`` is the message the component was on; ``original`` the response message
    (type 4/5), ``followups`` the followup messages, ``modal`` the modal dict the bot
    opened, ``choices`` the autocomplete choices, ``requests`` every request attributed
    to it. ``failed`` is True when the acknowledgement was refused (late ack fault, or
    more than 3 s of world clock passed). As on Discord the token is valid for 15 minutes
    of world clock (:meth:`Sandbox.advance`); later webhook calls get 401 code 50027.
    """

    def __init__(self, world: World, member: SimMember, kind: str, itype: int,
                 channel: SimChannel, message: SimMessage | None = None):
        self.world = world
        self.id = world.clock.snowflake()
        self.token = f"aW50ZXJhY3Rpb24{self.id}x{world.clock.snowflake()}"
        self.member = member
        self.kind = kind
        self.type = itype
        self.channel = channel
        self.message = message
        self.response_type: int | None = None
        self.original: SimMessage | None = None
        self.followups: list[SimMessage] = []
        self.modal: dict[str, Any] | None = None
        self.choices: list[dict[str, Any]] | None = None
        self.requests: list[RecordedRequest] = []
        self.failed = False
        self.token_expired = False
        self.deferred_ephemeral = False
        self.last_touched: SimMessage | None = None
        self.created = world.clock.time()

    @property
    def responded(self) -> bool:
        return self.response_type is not None

    @property
    def ephemeral(self) -> bool:
        """True when the initial response message is ephemeral."""
        return bool(self.original and self.original.ephemeral)

    def __repr__(self) -> str:
        return f"<SimInteraction {self.kind} by {self.member.name} response={self.response_type}>"


# --------------------------------------------------------------------------- faults


@dataclasses.dataclass
class _Rule:
    method: str | None
    pattern: re.Pattern[str] | None
    status: int
    body: dict[str, Any]
    times: int
    headers: dict[str, str]

    def matches(self, method: str, path: str) -> bool:
        if self.method and self.method != method:
            return False
        return not self.pattern or bool(self.pattern.search(path))


class Faults:
    """Fault injection. Each method arms a fault for the next matching request(s).

    Faults answer through discord.py's own HTTP code (a fake response with the status and
    JSON body Discord sends), so the bot sees the real exception types:
    ``discord.Forbidden`` (403 code 50007), ``discord.NotFound`` (404 code 10062),
    ``discord.HTTPException`` (401 code 50027) and a 429 that discord.py retries itself.
    """

    def __init__(self, world: World):
        self.world = world
        self.rules: list[_Rule] = []
        self.late_acks = 0
        self.expired_tokens = 0

    def close_dms(self, member: SimMember) -> None:
        """DMs to ``member`` fail with 403 ``Cannot send messages to this user`` (50007)."""
        member.dms_open = False

    def late_ack(self, times: int = 1) -> None:
        """The next ``times`` interaction callbacks fail with 404 Unknown interaction (10062),
        as when the bot acknowledges after the 3-second window."""
        self.late_acks += times

    def expire_token(self, times: int = 1) -> None:
        """The next ``times`` interactions get a token that expires right after the initial
        callback: followups and original-response GET/PATCH/DELETE fail with
        401 Invalid Webhook Token (50027)."""
        self.expired_tokens += times

    def rate_limit(self, method: str | None = None, path: str | None = None, *,
                   retry_after: float = 0.001, times: int = 1, is_global: bool = False) -> None:
        """The next ``times`` requests matching ``method`` and the ``path`` regex answer
        429 with ``retry_after`` seconds (keep it tiny); discord.py sleeps and retries."""
        body = {"message": "You are being rate limited.", "retry_after": retry_after,
                "global": is_global, "code": 0}
        headers = {"Via": "1.1 google", "Retry-After": str(retry_after),
                   "X-RateLimit-Scope": "user"}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        self.fail(method, path, 429, body=body, times=times, headers=headers)

    def fail(self, method: str | None, path: str | None, status: int, *, code: int = 0,
             message: str = "", body: dict[str, Any] | None = None, times: int = 1,
             headers: dict[str, str] | None = None) -> None:
        """Generic fault: the next ``times`` matching requests answer ``status`` with
        ``{"message": message, "code": code}`` (or ``body``)."""
        pattern = re.compile(path) if path else None
        self.rules.append(_Rule(method.upper() if method else None, pattern, status,
                                body or {"message": message, "code": code}, times,
                                headers or {}))

    def _take(self, method: str, path: str) -> _Rule | None:
        for rule in self.rules:
            if rule.matches(method, path):
                rule.times -= 1
                if rule.times <= 0:
                    self.rules.remove(rule)
                return rule
        return None


# --------------------------------------------------------------------------- members


class SimMember:
    """A simulated guild member. All actions dispatch a real INTERACTION_CREATE to the
    connected bot and return after :meth:`Sandbox.settle` with the :class:`SimInteraction`.
    """

    def __init__(self, world: World, uid: int, name: str, permissions: int, roles: list[int],
                 *, bot: bool = False):
        self.world = world
        self.id = uid
        self.name = name
        self.permissions = permissions
        self.roles = roles
        self.bot = bot
        self.dms_open = True
        self.joined_at = world.clock.iso()
        self.interactions: list[SimInteraction] = []
        self.modal: dict[str, Any] | None = None
        self._modal_from: SimInteraction | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def user_payload(self) -> dict[str, Any]:
        return P.user(self.id, self.name, bot=self.bot)

    def member_payload(self, *, permissions: bool = False, with_user: bool = True) -> dict[str, Any]:
        return P.member(self.user_payload(), self.roles, self.joined_at,
                        permissions=self.permissions if permissions else None,
                        with_user=with_user)

    # --- what the member sees
    def visible(self, channel: SimChannel | int | str | None = None) -> list[SimMessage]:
        """Messages in ``channel`` (default: the world's main channel) this member can see:
        public messages plus their own ephemerals, oldest first."""
        ch = self.world.channel(channel)
        if ch.kind == "dm" and ch.recipient_id != self.id:
            return []
        if ch.is_thread and ch.private and self.id not in ch.members:
            return []
        out = []
        for mid in ch.messages:
            m = self.world.messages[mid]
            if m.ephemeral_for is None or m.ephemeral_for == self.id:
                out.append(m)
        return out

    def last_visible(self, channel: SimChannel | int | str | None = None) -> SimMessage | None:
        """The latest message in ``channel`` this member can see."""
        msgs = self.visible(channel)
        return msgs[-1] if msgs else None

    @property
    def ephemerals(self) -> list[SimMessage]:
        """Every live ephemeral message shown to this member, oldest first. Read from the
        world's per-member index (:attr:`World.ephemeral_ids`), not a scan of every
        message: ids of messages deleted or dropped from the world are left out (and
        forgotten by the index)."""
        ids = self.world.ephemeral_ids.get(self.id)
        if not ids:
            return []
        messages = self.world.messages
        out = [m for mid in ids if (m := messages.get(mid)) is not None and not m.deleted]
        if len(out) != len(ids):
            ids[:] = [m.id for m in out]
        return out

    @property
    def dm_channel(self) -> SimChannel | None:
        return self.world.dm_channels.get(self.id)

    @property
    def dms(self) -> list[SimMessage]:
        """Messages the bot sent this member in DMs, oldest first."""
        ch = self.dm_channel
        return ch.all_messages if ch else []

    @property
    def last_interaction(self) -> SimInteraction | None:
        return self.interactions[-1] if self.interactions else None

    @property
    def last_reply(self) -> SimMessage | None:
        """The message the bot last created or edited answering this member's last
        interaction (initial response, followup, edited original or updated component
        message), ephemeral or not; None if the bot answered with nothing visible."""
        it = self.last_interaction
        return it.last_touched if it else None

    # --- actions
    def _sb(self, channel: SimChannel | None = None) -> Link:
        """The bot that receives this member's interaction in ``channel``: the shard of its
        guild (a DM: shard 0), as Discord routes them (:meth:`World.sandbox_for`)."""
        sb = self.world.sandbox_for(channel) if channel is not None else self.world.sandbox
        if sb is None:
            raise SandboxError("no bot is connected to the world"
                               + (" for this channel's shard" if self.world.shards else ""))
        return sb

    async def slash(self, command: str, /, *, in_channel: SimChannel | int | str | None = None,
                    **options: Any) -> SimInteraction:
        """Run ``/command`` (``"game hand"`` for a subcommand) in ``in_channel`` (default:
        the main channel; a thread works) with ``options`` given as Python values: str,
        int, float, bool, :class:`SimMember` (user/mentionable), :class:`SimChannel`, role
        id, ``(filename, bytes)`` for attachments; a choice's name or value. Returns the
        interaction once the bot's dispatch has settled. Raises :class:`SandboxError` for
        an unknown command/option or a missing required option."""
        ch = self.world.channel(in_channel)
        return await self._sb(ch).run_command(self, command, ch, options)

    async def autocomplete(self, command: str, /, *, focus: str | None = None,
                           in_channel: SimChannel | int | str | None = None,
                           **options: Any) -> list[dict[str, Any]]:
        """Type into option ``focus`` (default: the last keyword) of ``/command``; returns
        the choices the bot answered (``[{"name": ..., "value": ...}]``)."""
        ch = self.world.channel(in_channel)
        it = await self._sb(ch).run_command(self, command, ch, options,
                                            focused=focus or list(options)[-1])
        return it.choices or []

    async def click(self, message: SimMessage, key: str) -> SimInteraction:
        """Click the button labelled (or custom_id / emoji name) ``key`` on ``message``.
        Raises :class:`SandboxError` when the member cannot see the message, the button is
        missing, disabled or a link button."""
        comp = self._component(message, key)
        if comp.get("type") != 2:
            raise SandboxError(f"{key!r} is not a button")
        if comp.get("style") == 5 or "custom_id" not in comp:
            raise SandboxError(f"{key!r} is a link/premium button, it has no interaction")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._sb(message.channel).run_component(self, message, data)

    async def select(self, message: SimMessage, values: list[Any],
                     custom_id: str | None = None) -> SimInteraction:
        """Choose ``values`` in a select menu on ``message`` (the only one, or the one with
        this ``custom_id``/placeholder). String selects take option values (or labels);
        user selects take :class:`SimMember` or ids."""
        if custom_id is None:
            sels = message.selects()
            if len(sels) != 1:
                raise SandboxError(f"message has {len(sels)} selects; pass custom_id")
            comp = self._component(message, sels[0]["custom_id"])
        else:
            comp = self._component(message, custom_id)
        ctype = comp["type"]
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise SandboxError(f"select needs {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": ctype}
        if ctype == 3:
            opts = comp.get("options") or []
            out = []
            for v in values:
                match = [o for o in opts if o["value"] == str(v)] or [
                    o for o in opts if o["label"] == str(v)]
                if not match:
                    raise SandboxError(f"select has no option {v!r}")
                out.append(match[0]["value"])
            data["values"] = out
        else:
            ids = [str(getattr(v, "id", v)) for v in values]
            data["values"] = ids
            data["resolved"] = self.world.resolved_for(ids, kind=ctype)
        return await self._sb(message.channel).run_component(self, message, data)

    async def submit_modal(self, values: dict[str, str] | None = None,
                           **by_label: str) -> SimInteraction:
        """Submit the modal the bot last opened for this member. ``values`` maps text input
        custom_id or label to the typed value (keywords also work for identifier-like
        labels/ids); inputs left out are submitted with their default value or empty."""
        if self.modal is None or self._modal_from is None:
            raise SandboxError(f"{self.name} has no open modal")
        given = dict(values or {})
        given.update(by_label)
        modal = self.modal
        used: set[str] = set()

        def fill(comp: dict[str, Any], label: str | None) -> dict[str, Any]:
            cid = comp.get("custom_id")
            for key in (cid, label, comp.get("label"), comp.get("placeholder")):
                if key is not None and key in given:
                    used.add(key)
                    val = given[key]
                    break
            else:
                val = comp.get("value") or ""
            if comp.get("type") == 4:
                return {"type": 4, "custom_id": cid, "value": str(val), "id": comp.get("id", 0)}
            vals = val if isinstance(val, list) else [val]
            return {"type": comp["type"], "custom_id": cid, "values": [str(v) for v in vals],
                    "id": comp.get("id", 0)}

        rows = []
        for row in modal["data"].get("components", []):
            if row.get("type") == 1:
                rows.append({"type": 1, "id": row.get("id", 0),
                             "components": [fill(c, None) for c in row.get("components", [])]})
            elif row.get("type") == 18:
                rows.append({"type": 18, "id": row.get("id", 0),
                             "component": fill(row["component"], row.get("label"))})
            elif row.get("type") == 10:
                rows.append({"type": 10, "id": row.get("id", 0)})
        unknown = set(given) - used
        if unknown:
            raise SandboxError(f"modal has no inputs {sorted(unknown)}")
        data = {"custom_id": modal["data"]["custom_id"], "components": rows}
        origin = self._modal_from
        self.modal = None
        self._modal_from = None
        return await self._sb(origin.channel).run_modal(self, origin, data)

    async def send(self, content: str, channel: SimChannel | int | str | None = None
                   ) -> SimMessage:
        """Post a plain message as this member (MESSAGE_CREATE reaches the bot if its
        intents allow; without ``message_content`` the bot sees empty content unless the
        message mentions it, as on Discord), then settle."""
        ch = self.world.channel(channel)
        sb = self._sb(ch)
        mid = self.world.clock.snowflake()
        data: dict[str, Any] = {
            "id": str(mid), "channel_id": str(ch.id), "author": self.user_payload(),
            "content": content, "timestamp": self.world.clock.iso(), "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [], "embeds": [], "pinned": False, "type": 0, "flags": 0,
            "components": [],
        }
        msg = SimMessage(self.world, data, [])
        self.world.messages[mid] = msg
        ch.messages.append(mid)
        ch.last_activity = self.world.clock.time()
        if ch.kind == "dm" or sb.bot.intents.guild_messages:
            gw = dict(data)
            mentioned = f"<@{self.world.application_id}>" in content
            if ch.kind != "dm" and not sb.bot.intents.message_content and not mentioned:
                gw["content"] = ""  # Discord blanks content without the privileged intent
            if ch.kind != "dm":
                gw["guild_id"] = str(ch.guild_id)
                gw["member"] = self.member_payload(with_user=False)
            sb.gateway("MESSAGE_CREATE", gw)
        await sb.settle()
        return msg

    def _component(self, message: SimMessage, key: str) -> dict[str, Any]:
        if message.deleted:
            raise SandboxError(f"message {message.id} was deleted")
        if message.ephemeral_for not in (None, self.id):
            raise SandboxError(f"{self.name} cannot see message {message.id}")
        live = self.world.messages.get(message.id, message)
        comp = live.component(key)
        if comp.get("disabled"):
            raise SandboxError(f"component {key!r} is disabled")
        return comp

    def __repr__(self) -> str:
        return f"<SimMember {self.name} {self.id}>"


# --------------------------------------------------------------------------- world


class World:
    """One simulated guild with its channels, threads, DMs, members and messages.

    ``World(guild_name="Herd Hall", channel_name="general")`` creates the guild, the bot
    user/application and one text channel (:attr:`main`). State persists across
    ``connect``/``disconnect`` of bots. ``world.requests`` records every HTTP request.

    Sharding: :meth:`add_guild` adds more guilds (same members and roles, each with its own
    text channel). A sharded bot (``discord.AutoShardedClient`` with ``shard_ids``) serves
    some of ``shard_count`` shards; several such bots may be connected at once, one per
    shard (:attr:`shards`). As on Discord, a guild's events and interactions go to shard
    ``(guild_id >> 22) % shard_count`` and DMs (events and interactions) to shard 0.
    """

    def __init__(self, guild_name: str = "Herd Hall", channel_name: str = "general", *,
                 bot_name: str = "herdbot"):
        self.clock = P.Clock()
        self.guild_id = self.clock.snowflake()
        self.guild_name = guild_name
        self.application_id = self.clock.snowflake()
        self.bot_name = bot_name
        self.owner_id = self.clock.snowflake()
        self.bot_role_id = self.clock.snowflake()
        self.created = self.clock.iso()
        self.members: dict[int, SimMember] = {}
        self.channels: dict[int, SimChannel] = {}
        self.deleted_channels: dict[int, SimChannel] = {}
        self.dm_channels: dict[int, SimChannel] = {}
        self.messages: dict[int, SimMessage] = {}
        #: member id -> ids of the ephemeral messages shown to them, oldest first (the
        #: index behind :attr:`SimMember.ephemerals`; the REST router adds to it).
        self.ephemeral_ids: dict[int, list[int]] = {}
        self.attachments: dict[int, SimAttachment] = {}
        self.roles: dict[int, dict[str, Any]] = {
            self.guild_id: P.role(self.guild_id, "@everyone", P.EVERYONE_PERMISSIONS, 0),
            self.bot_role_id: P.role(self.bot_role_id, bot_name, P.BOT_PERMISSIONS, 1),
        }
        self.roles[self.bot_role_id]["managed"] = True
        self.roles[self.bot_role_id]["tags"] = {"bot_id": str(self.application_id)}
        self.interactions: dict[str, SimInteraction] = {}
        self.interactions_by_id: dict[int, SimInteraction] = {}
        self.requests: list[RecordedRequest] = []
        self.commands: dict[tuple[int | None, str], dict[str, Any]] = {}
        self.command_ids: dict[tuple[int | None, str], int] = {}
        self.faults = Faults(self)
        #: Shard id -> the connected bot serving it (one entry per shard of a sharded bot).
        self.shards: dict[int, Link] = {}
        self.shard_count = 1
        #: Guild id -> name of every guild (the main one first).
        self.guilds: dict[int, str] = {self.guild_id: guild_name}
        self.presence: dict[str, Any] | None = None
        self.main = self.add_channel(channel_name)

    # --- shards
    @property
    def sandbox(self) -> Link | None:
        """The connected bot serving the main guild's shard, else any connected bot (world
        events are routed by their guild in :meth:`Sandbox.gateway`), else ``None``."""
        sb = self.shards.get(self.shard_of(self.guild_id))
        return sb if sb is not None else next(iter(self.shards.values()), None)

    def shard_of(self, guild_id: int | None) -> int:
        """The shard Discord routes guild ``guild_id`` to: ``(guild_id >> 22) %
        shard_count``; a DM (``None``) goes to shard 0."""
        return 0 if guild_id is None else (guild_id >> 22) % self.shard_count

    def sandbox_for(self, channel: SimChannel | int | str | None) -> Link | None:
        """The connected bot serving ``channel``'s guild (a DM: shard 0), or ``None``."""
        return self.shards.get(self.shard_of(self.channel(channel).guild_id))

    def add_guild(self, name: str, channel_name: str = "general", *,
                  shard: int | None = None) -> SimChannel:
        """Add another guild with the same members and roles and one text channel, which is
        returned (its ``guild_id`` is the new guild's). With ``shard`` the id is chosen so
        that the guild lands on that shard of :attr:`shard_count`. A bot connected already
        does not see it (connect bots afterwards)."""
        tick = (self.clock.snowflake() >> 22) + 1
        if shard is not None:
            if not 0 <= shard < self.shard_count:
                raise SandboxError(f"shard {shard} is not one of {self.shard_count}")
            tick += (shard - tick) % self.shard_count
        gid = tick << 22
        self.clock._last_id = max(self.clock._last_id, gid)
        self.guilds[gid] = name
        ch = SimChannel(self, self.clock.snowflake(), "text", channel_name, guild_id=gid)
        self.channels[ch.id] = ch
        return ch

    # --- setup
    def add_channel(self, name: str) -> SimChannel:
        """Add a guild text channel (visible to a bot connected afterwards, or at once via
        CHANNEL_CREATE if a bot is connected)."""
        ch = SimChannel(self, self.clock.snowflake(), "text", name)
        ch.position = len([c for c in self.channels.values()
                           if c.kind == "text" and c.guild_id == self.guild_id])
        self.channels[ch.id] = ch
        if self.sandbox is not None:
            self.sandbox.gateway("CHANNEL_CREATE", ch.payload())
        return ch

    def add_member(self, name: str, *, manage_guild: bool = False, administrator: bool = False,
                   permissions: int = 0, bot: bool = False) -> SimMember:
        """Add a guild member. Extra permissions (``manage_guild``, ``administrator`` or raw
        ``permissions`` bits) are given through a personal role, so both
        ``interaction.permissions`` and ``member.guild_permissions`` see them."""
        uid = self.clock.snowflake()
        extra = permissions | (1 << 5 if manage_guild else 0) | (1 << 3 if administrator else 0)
        roles = []
        if extra:
            rid = self.clock.snowflake()
            self.roles[rid] = P.role(rid, f"{name} role", extra, len(self.roles))
            roles.append(rid)
            if self.sandbox is not None:
                self.sandbox.gateway("GUILD_ROLE_CREATE",
                                     {"guild_id": str(self.guild_id), "role": self.roles[rid]})
        perms = P.EVERYONE_PERMISSIONS | extra
        if administrator:
            perms = (1 << 53) - 1
        m = SimMember(self, uid, name, perms, roles, bot=bot)
        self.members[uid] = m
        if self.sandbox is not None:
            d = m.member_payload()
            d["guild_id"] = str(self.guild_id)
            self.sandbox.gateway("GUILD_MEMBER_ADD", d)
        return m

    def new_attachment(self, filename: str, data: bytes, content_type: str | None = None,
                       description: str | None = None) -> SimAttachment:
        """Create an attachment served by the fake CDN (``Attachment.read()`` works)."""
        a = SimAttachment(self.clock.snowflake(), filename, data, content_type, description)
        self.attachments[a.id] = a
        return a

    def member(self, name_or_id: str | int) -> SimMember:
        """Find a member by name or id."""
        for m in self.members.values():
            if name_or_id in (m.name, m.id):
                return m
        raise KeyError(name_or_id)

    def channel(self, ref: SimChannel | int | str | None = None) -> SimChannel:
        """Resolve a channel: None -> :attr:`main`, an id, a name, or a SimChannel."""
        if ref is None:
            return self.main
        if isinstance(ref, SimChannel):
            return ref
        if isinstance(ref, int):
            return self.channels[ref]
        for ch in self.channels.values():
            if ch.name == ref:
                return ch
        raise KeyError(ref)

    @property
    def threads(self) -> list[SimChannel]:
        """All threads, oldest first."""
        return [c for c in self.channels.values() if c.is_thread]

    def message(self, mid: int) -> SimMessage:
        return self.messages[mid]

    def last_message(self, channel: SimChannel | int | str | None = None) -> SimMessage | None:
        """Latest public message in a channel or thread."""
        return self.channel(channel).last_message

    def find_message(self, text: str, channel: SimChannel | int | str | None = None
                     ) -> SimMessage | None:
        """Latest public message in ``channel`` (default: anywhere) whose :attr:`text`
        contains ``text``."""
        pool = (self.channel(channel).all_messages if channel is not None
                else list(self.messages.values()))
        for m in reversed(pool):
            if not m.deleted and m.ephemeral_for is None and text in m.text:
                return m
        return None

    def requests_to(self, method: str | None = None, path: str | None = None
                    ) -> list[RecordedRequest]:
        """Recorded requests filtered by method and a regex searched in the path."""
        pat = re.compile(path) if path else None
        return [r for r in self.requests
                if (method is None or r.method == method.upper())
                and (pat is None or pat.search(r.path))]

    # --- permissions and moderation
    def _perm_channel(self, channel: SimChannel | int | str | None) -> SimChannel:
        """The channel whose overwrites apply: a thread's parent (threads inherit)."""
        ch = self.channel(channel)
        return ch.parent or ch if ch.is_thread else ch

    def _bot_overwrite(self, ch: SimChannel) -> dict[str, Any]:
        return ch.overwrites.setdefault(self.application_id, {
            "id": str(self.application_id), "type": 1, "allow": "0", "deny": "0"})

    def _channel_changed(self, ch: SimChannel) -> None:
        if self.sandbox is not None:
            self.sandbox.gateway("CHANNEL_UPDATE", ch.payload())

    def deny_bot(self, channel: SimChannel | int | str | None, *permissions: str) -> None:
        """Deny the bot ``permissions`` in a text channel (for a thread: in its parent, as
        threads inherit their parent's permissions), the way a server admin does: a member
        permission overwrite on the channel. Names are those of
        :data:`~bot.sandbox.payloads.PERMISSIONS` (``"view_channel"``, ``"send_messages"``,
        ``"send_messages_in_threads"``, ``"create_public_threads"``, ``"attach_files"``,
        ``"embed_links"``...). discord.py learns it by CHANNEL_UPDATE, so
        ``channel.permissions_for(guild.me)`` sees it, and so do
        ``interaction.app_permissions`` and the REST routes. KeyError for an unknown name."""
        bits = 0
        for name in permissions:
            bits |= P.PERMISSIONS[name]
        ch = self._perm_channel(channel)
        ow = self._bot_overwrite(ch)
        ow["deny"] = str(int(ow["deny"]) | bits)
        ow["allow"] = str(int(ow["allow"]) & ~bits)
        self._channel_changed(ch)

    def allow_bot(self, channel: SimChannel | int | str | None, *permissions: str) -> None:
        """Undo :meth:`deny_bot` for ``permissions`` (their deny bits are cleared)."""
        bits = 0
        for name in permissions:
            bits |= P.PERMISSIONS[name]
        ch = self._perm_channel(channel)
        ow = self._bot_overwrite(ch)
        ow["deny"] = str(int(ow["deny"]) & ~bits)
        self._channel_changed(ch)

    def bot_permissions(self, channel: SimChannel | int | str | None = None) -> int:
        """The bot's effective permission bits in ``channel``, computed as Discord documents
        it: @everyone and the bot's role, then the channel's @everyone, role and member
        overwrites (a thread uses its parent's), then the implicit denials (no View Channel:
        no channel permission at all; no Send Messages, in a thread no Send Messages in
        Threads: no Embed Links, Attach Files, Mention Everyone, Send TTS)."""
        ch = self.channel(channel)
        if ch.kind == "dm":
            return P.BOT_PERMISSIONS
        base = int(self.roles[self.guild_id]["permissions"])
        base |= int(self.roles[self.bot_role_id]["permissions"])
        if base & P.PERMISSIONS["administrator"]:
            return (1 << 53) - 1
        src = self._perm_channel(ch)
        for target in (self.guild_id, self.bot_role_id, self.application_id):
            ow = src.overwrites.get(target)
            if ow is not None:
                base = (base & ~int(ow["deny"])) | int(ow["allow"])
        perm = P.PERMISSIONS
        if not base & perm["view_channel"]:
            keep = perm["administrator"] | perm["manage_guild"] | perm["manage_roles"]
            return base & keep
        send = perm["send_messages_in_threads"] if ch.is_thread else perm["send_messages"]
        if not base & send:
            base &= ~(perm["embed_links"] | perm["attach_files"] | perm["mention_everyone"]
                      | perm["send_tts_messages"])
        return base

    def bot_can(self, channel: SimChannel | int | str | None, permission: str) -> bool:
        """True when the bot has ``permission`` (a name of ``payloads.PERMISSIONS``) in
        ``channel`` (see :meth:`bot_permissions`)."""
        return bool(self.bot_permissions(channel) & P.PERMISSIONS[permission])

    def moderate_thread(self, thread: SimChannel | int | str, *, locked: bool | None = None,
                        archived: bool | None = None) -> None:
        """Lock/unlock or archive/unarchive ``thread`` as a moderator would; the bot gets
        THREAD_UPDATE. Unarchiving counts as activity (restarts the auto-archive clock)."""
        th = self.channel(thread)
        if locked is not None:
            th.locked = locked
        if archived is not None:
            if th.archived and not archived:
                th.last_activity = self.clock.time()
            th.archived = archived
        if self.sandbox is not None:
            self.sandbox.gateway("THREAD_UPDATE", th.payload())

    def remove_channel(self, channel: SimChannel | int | str) -> dict[str, Any]:
        """Delete a channel or thread now (a text channel takes its threads along): it and
        its messages are gone, every later request to it answers 404 Unknown Channel
        (10003), and the bot gets THREAD_DELETE / CHANNEL_DELETE. Returns the channel
        object as it was. See :meth:`delete_thread` for the awaitable form."""
        ch = self.channel(channel)
        data = ch.payload()
        if ch.kind == "text":
            for th in [t for t in self.threads if t.parent_id == ch.id]:
                self.remove_channel(th)
        self.channels.pop(ch.id, None)
        self.deleted_channels[ch.id] = ch
        ch.deleted = True
        for mid in ch.messages:
            self.messages[mid].deleted = True
        ch.messages = []
        if self.sandbox is not None:
            if ch.is_thread:
                self.sandbox.gateway("THREAD_DELETE", {
                    "id": str(ch.id), "guild_id": str(ch.guild_id),
                    "parent_id": str(ch.parent_id), "type": data["type"]})
            else:
                self.sandbox.gateway("CHANNEL_DELETE", data)
        return data

    async def delete_thread(self, thread: SimChannel | int | str) -> None:
        """A moderator deletes ``thread`` (see :meth:`remove_channel`); then settle."""
        self.remove_channel(thread)
        await self.settle()

    def next_auto_archive(self) -> float | None:
        """World time at which the next active thread auto-archives, or None."""
        due = [t.last_activity + t.auto_archive_duration * 60 for t in self.threads
               if not t.archived]
        return min(due) if due else None

    def archive_idle_threads(self) -> list[SimChannel]:
        """Archive every active thread idle for its ``auto_archive_duration`` (minutes), as
        Discord does (activity: a message, an unarchive, a duration change); the bot gets
        THREAD_UPDATE. Returns the threads archived now."""
        now = self.clock.time()
        done = []
        for th in self.threads:
            if not th.archived and now >= th.last_activity + th.auto_archive_duration * 60 - 1e-6:
                th.archived = True
                done.append(th)
                if self.sandbox is not None:
                    self.sandbox.gateway("THREAD_UPDATE", th.payload())
        return done

    # --- payloads
    def bot_user(self) -> dict[str, Any]:
        return P.user(self.application_id, self.bot_name, bot=True)

    def bot_member(self) -> dict[str, Any]:
        return P.member(self.bot_user(), [self.bot_role_id], self.created)

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        """Full GUILD_CREATE payload (channels, active threads, roles, members) of the main
        guild or of ``guild_id`` (see :meth:`add_guild`)."""
        gid = guild_id or self.guild_id
        members = [self.bot_member()] + [m.member_payload() for m in self.members.values()]
        channels = [c for c in self.channels.values() if c.kind != "dm" and c.guild_id == gid]
        text = [c for c in channels if c.kind == "text"]
        roles = [dict(r, id=str(gid)) if rid == self.guild_id else r
                 for rid, r in self.roles.items()]
        return {
            "id": str(gid), "name": self.guilds[gid], "icon": None, "splash": None,
            "discovery_splash": None, "owner_id": str(self.owner_id), "region": None,
            "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": roles, "emojis": [], "stickers": [],
            "features": [], "mfa_level": 0, "application_id": None,
            "system_channel_id": str(text[0].id) if text else None,
            "system_channel_flags": 0,
            "rules_channel_id": None, "vanity_url_code": None, "description": None,
            "banner": None, "premium_tier": 0, "premium_subscription_count": 0,
            "preferred_locale": "en-US", "public_updates_channel_id": None,
            "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "joined_at": self.created, "large": False, "unavailable": False,
            "member_count": len(members), "voice_states": [], "presences": [],
            "members": members,
            "channels": [c.payload() for c in text],
            "threads": [c.payload() for c in channels if c.is_thread and not c.archived],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "max_members": 500000, "max_video_channel_users": 25,
        }

    def resolved_for(self, ids: list[str], kind: int = 5) -> dict[str, Any]:
        """``resolved`` data for select values: user/member ids (``kind`` 5 or 7), role ids
        (6, 7) or channel ids (8)."""
        users: dict[str, Any] = {}
        members: dict[str, Any] = {}
        out: dict[str, Any] = {"users": users, "members": members}
        if kind in (6, 7):
            roles = {i: self.roles[int(i)] for i in ids if int(i) in self.roles}
            if roles:
                out["roles"] = roles
        if kind == 8:
            chans = {}
            for i in ids:
                cp = self.channels[int(i)].payload()
                cp["permissions"] = str(P.EVERYONE_PERMISSIONS)
                chans[i] = cp
            return {"channels": chans}
        for i in ids:
            if int(i) in self.roles:
                continue
            m = self.members.get(int(i))
            if m is None and int(i) == self.application_id:
                users[i] = self.bot_user()
                continue
            if m is not None:
                users[i] = m.user_payload()
                members[i] = m.member_payload(permissions=True, with_user=False)
        return out

    # --- connecting bots
    async def connect(self, bot: discord.Client, *, token: str = "sandbox-token",
                      raise_errors: bool = True, settle_timeout: float = 10.0,
                      loggers: tuple[str, ...] = ("discord", "bot", "cogs", "herdbot"),
                      ) -> Link:
        """Log ``bot`` in (running its ``setup_hook``) and feed READY + GUILD_CREATE with
        no network; returns the :class:`~bot.sandbox.Sandbox`. One bot per shard: a bot
        that is not sharded, or a sharded one without ``shard_ids``, serves every shard.

        A sharded bot (``discord.AutoShardedClient``) sets :attr:`shard_count` from its
        ``shard_count`` (when the first bot connects; later ones must agree) and gets one
        READY per shard it serves, with the guilds of that shard. Typed as the :class:`Link`
        it is, so that this module needs no import of the runner.

        ERROR records of ``loggers`` (and their children) are captured and raised as
        :class:`SandboxError` at the next settle when ``raise_errors``."""
        from .runner import Sandbox

        count = self.shard_count
        sharded = isinstance(bot, discord.AutoShardedClient)
        if sharded and bot.shard_count is not None:
            if self.shards and bot.shard_count != self.shard_count:
                raise SandboxError(f"the bot has {bot.shard_count} shards, the connected "
                                   f"bots {self.shard_count}")
            count = bot.shard_count
        wanted = list(getattr(bot, "shard_ids", None) or range(count)) if sharded else [0]
        if not sharded:
            if self.shards and count != 1:
                raise SandboxError("a bot that is not sharded cannot join sharded bots")
            count = 1
        taken = [i for i in wanted if i in self.shards]
        if taken:
            raise SandboxError(f"shard(s) {taken} already served; await world.disconnect()"
                               " first")
        self.shard_count = count
        sb = Sandbox(self, bot, raise_errors=raise_errors, settle_timeout=settle_timeout,
                     loggers=loggers, shard_ids=wanted)
        await sb.start(token)
        return sb

    async def disconnect(self) -> None:
        """Close every connected bot (``await bot.close()``) and restore their HTTP exits.
        The world (channels, threads, messages, DMs) stays. Raises if errors were
        captured."""
        first: BaseException | None = None
        for sb in list(dict.fromkeys(self.shards.values())):
            try:
                await sb.close()
            except BaseException as exc:  # noqa: BLE001 - close the others, then raise
                first = first or exc
        if first is not None:
            raise first

    async def settle(self) -> None:
        """Shortcut for ``sandbox.settle()`` of every connected bot."""
        for sb in list(dict.fromkeys(self.shards.values())):
            await sb.settle()

    async def advance(self, seconds: float) -> None:
        """Shortcut for ``world.sandbox.advance(seconds)`` (moves the clock either way;
        idle threads auto-archive on the way)."""
        if self.sandbox is not None:
            await self.sandbox.advance(seconds)  # one loop: every bot's timers move
            await self.settle()
        else:
            self.clock.offset += seconds
            self.archive_idle_threads()
