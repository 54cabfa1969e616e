"""The things of the simulated Discord: messages, channels, threads, DMs, interactions,
member records and the requests the bot made; and the errors a sandbox captured.

They belong to a world (:class:`~bot.sandbox.world.World`) and read it through
:class:`Place`, the part of it they need.
"""

from __future__ import annotations

import dataclasses
import traceback
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from . import limits_v2
from . import payloads as P


class SandboxError(AssertionError):
    """A sandbox-detected failure: an exception logged by discord.py, an unhandled route,
    a component that does not exist or is disabled, a settle timeout..."""


class CapturedError:
    """An ERROR record logged by discord.py (or an exception no one retrieved from a task)."""

    def __init__(self, source: str, message: str, exc: BaseException | None):
        self.source = source
        self.message = message
        self.exc = exc

    def __str__(self) -> str:
        tb = ""
        if self.exc is not None:
            tb = "".join(traceback.format_exception(self.exc)).rstrip()
        return f"[{self.source}] {self.message}\n{tb}".rstrip()

    __repr__ = __str__


class Place(Protocol):
    """The world as its messages, channels and members read it."""

    clock: P.Clock
    guild_id: int
    channels: dict[int, SimChannel]
    deleted_channels: dict[int, SimChannel]
    messages: dict[int, SimMessage]

    @property
    def members(self) -> Mapping[int, MemberRecord]:
        """Member id -> member."""


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
    def member(self) -> MemberRecord | None:
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

    def __init__(self, world: Place, data: dict[str, Any], attachments: list[SimAttachment],
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
        """Every file the message holds, shown or not."""
        return [a.filename for a in self.attachments]

    @property
    def shown_filenames(self) -> list[str]:
        """The files a member sees: all of them, except in a Components V2 message, which
        shows only the files its components (media gallery, thumbnail, file) show."""
        if not self.flags & limits_v2.FLAG_COMPONENTS_V2:
            return self.filenames
        shown = {str(m.get("attachment_id")) for m in limits_v2.media_items(self.components)}
        return [a.filename for a in self.attachments if str(a.id) in shown]

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
    """A guild text channel (``kind="text"``), thread (``"thread"``), the bot's DM with a
    member (``"dm"``) or a private channel between members (``"private"``: a group DM, or
    with ``group=False`` a DM between two members), where the bot is no member.

    ``messages`` holds the ids of the channel's messages in order (deleted ones removed).
    Threads keep ``members`` (user ids), ``archived``, ``locked``, ``parent_id``,
    ``owner_id``, ``private``, ``auto_archive_duration`` (minutes) and ``last_activity``
    (world time of the last message, unarchive or duration change). DMs keep
    ``recipient_id``. Text channels keep ``overwrites``: target id -> permission overwrite
    dict as Discord sends it (see :meth:`World.deny_bot`). ``deleted`` is set once the
    channel was deleted (every later request to it answers 404 Unknown Channel, 10003).
    """

    def __init__(self, world: Place, cid: int, kind: str, name: str = "", *,
                 parent_id: int | None = None, owner_id: int | None = None,
                 recipient_id: int | None = None, private: bool = False,
                 guild_id: int | None = None, recipients: list[int] | None = None,
                 group: bool = True):
        self.world = world
        self._guild_id = guild_id
        self.id = cid
        self.kind = kind
        self.name = name
        self.parent_id = parent_id
        self.owner_id = owner_id
        self.recipient_id = recipient_id
        self.private = private
        self.recipients: list[int] = list(recipients or [])
        self.group = group
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
        a DM or a private channel."""
        if self.kind in ("dm", "private"):
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
            recipient = w.members.get(self.recipient_id or 0)
            return {
                "id": str(self.id), "type": 1, "last_message_id": last, "flags": 0,
                "recipients": [recipient.user_payload()] if recipient is not None else [],
            }
        if self.kind == "private":
            users = [w.members[u].user_payload() for u in self.recipients if u in w.members]
            if not self.group:
                return {"id": str(self.id), "type": 1, "last_message_id": last, "flags": 0,
                        "recipients": users}
            return {"id": str(self.id), "type": 3, "name": self.name or None, "icon": None,
                    "owner_id": str(self.owner_id or self.recipients[0]),
                    "last_message_id": last, "flags": 0, "recipients": users}
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
    ``context`` (0 a guild channel, 1 the bot's DM, 2 a private channel) and ``owners``
    (``authorizing_integration_owners``: "0" -> the guild id, or "0" in the bot's DM, for a
    guild install; "1" -> the user id for a user install) are what the payload said;
    ``followup_posts`` counts followup requests (see :mod:`bot.sandbox.installs`).
    """

    def __init__(self, world: Place, member: MemberRecord, kind: str, itype: int,
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
        self.context = 0
        self.owners: dict[str, str] = {}
        self.followup_posts = 0

    @property
    def responded(self) -> bool:
        return self.response_type is not None

    @property
    def ephemeral(self) -> bool:
        """True when the initial response message is ephemeral."""
        return bool(self.original and self.original.ephemeral)

    def __repr__(self) -> str:
        return f"<SimInteraction {self.kind} by {self.member.name} response={self.response_type}>"



# --------------------------------------------------------------------------- members


class MemberRecord:
    """A guild member as the world stores it: ids, roles, permissions, DM setting, the
    interactions they started and the modal open for them. :class:`~bot.sandbox.SimMember`
    adds what a member sees and does."""

    def __init__(self, world: Place, uid: int, name: str, permissions: int, roles: list[int],
                 *, bot: bool = False):
        self.world = world
        self.id = uid
        self.name = name
        self.permissions = permissions
        self.roles = roles
        self.bot = bot
        self.dms_open = True
        #: The member's Discord client language, sent as each interaction's ``locale``.
        self.locale = "en-US"
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

