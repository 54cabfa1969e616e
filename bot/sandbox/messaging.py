"""What the fake Discord checks and writes when a bot posts: finding channels and
messages, the permission and thread checks before a message is created or edited, and
creating, editing and deleting messages with their attachments and mentions. The REST
router (:class:`~bot.sandbox.rest.Router`) answers every route on top of it.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from . import limits_v2
from . import payloads as P
from .members import Link
from .model import (
    SimAttachment,
    SimChannel,
    SimFile,
    SimInteraction,
    SimMessage,
    walk_components,
)
from .state import WorldState

_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
_EVERYONE = re.compile(r"@(?:everyone|here)\b")
#: Permission bits: Administrator, Mention @everyone, @here and All Roles.
_ADMINISTRATOR = 1 << 3
_MENTION_EVERYONE = 1 << 17


class HTTPError(Exception):
    """Raised inside the router to answer with an error status and Discord JSON body;
    ``errors`` is Discord's nested field-error object (sent with code 50035)."""

    def __init__(self, status: int, code: int, message: str,
                 errors: dict[str, Any] | None = None):
        super().__init__(message)
        self.status = status
        self.body: dict[str, Any] = {"message": message, "code": code}
        if errors is not None:
            self.body["errors"] = errors


def unknown(what: str, code: int) -> HTTPError:
    return HTTPError(404, code, f"Unknown {what}")


def missing_permissions() -> HTTPError:
    return HTTPError(403, 50013, "Missing Permissions")


def archived() -> HTTPError:
    # Discord answers an operation on an archived (or, without Manage Threads, locked)
    # thread with 400 and code 50083.
    return HTTPError(400, 50083, "Thread is archived")


class Messaging:
    """The channels and messages of ``world`` as the bot's requests (through ``sandbox``)
    reach them."""

    def __init__(self, sandbox: Link, world: WorldState):
        self.sb = sandbox
        self.world = world

    def _channel(self, cid: str | int) -> SimChannel:
        ch = self.world.channels.get(int(cid))
        if ch is None:
            ch = next((c for c in self.world.dm_channels.values() if c.id == int(cid)), None)
        if ch is None:
            raise unknown("Channel", 10003)
        return ch

    def _message(self, cid: str | int, mid: str | int) -> SimMessage:
        self._channel(cid)
        m = self.world.messages.get(int(mid))
        if m is None or m.deleted or m.channel_id != int(cid):
            raise unknown("Message", 10008)
        return m

    def _can(self, ch: SimChannel, name: str) -> bool:
        return bool(self.world.bot_permissions(ch) & P.PERMISSIONS[name])

    def _check_post(self, ch: SimChannel, body: dict[str, Any], files: list[SimFile], *,
                    edit: bool = False) -> dict[str, Any]:
        """What Discord checks before the bot (its token, not an interaction webhook) posts
        or edits a message in a guild channel: View Channel (403 50001), Send Messages or in
        a thread Send Messages in Threads (403 50013; not for edits), Attach Files when
        files come along (403 50013), a locked thread without Manage Threads, or an edit in
        an archived thread (400 50083).
        Embeds without Embed Links are dropped silently, as Discord does. Returns the body
        to apply."""
        if ch.kind == "dm":
            return body
        if not self._can(ch, "view_channel"):
            raise HTTPError(403, 50001, "Missing Access")
        send = "send_messages_in_threads" if ch.is_thread else "send_messages"
        if not edit and not self._can(ch, send):
            raise missing_permissions()
        if files and not self._can(ch, "attach_files"):
            raise missing_permissions()
        if ch.is_thread and ch.locked and not self._can(ch, "manage_threads"):
            raise archived()
        if edit and ch.is_thread and ch.archived:
            raise archived()  # an edit does not unarchive; a new message does
        if body.get("embeds") and not self._can(ch, "embed_links"):
            body = {**body, "embeds": []}
        return body

    def _check_interaction_post(self, ch: SimChannel, ephemeral: bool) -> None:
        """What Discord checks before an interaction response or followup (the interaction's
        token, not the bot's) creates or edits a message in ``ch``. The bot's channel
        permissions are not checked (that is the point of a response), but the channel
        must exist (404 10003) and a public message in a locked thread is refused with
        403 50083 "Thread is archived" unless the bot may manage threads there
        (discord/discord-api-docs issues 5517, 6884 and 7707: a deferred answer or a
        followup into a thread locked meanwhile fails with 50083; Discord declined to
        change it). An ephemeral message is only shown to the member under their
        interaction, so it goes through."""
        if ephemeral or ch.kind in ("dm", "private"):
            return
        if ch.deleted:
            raise unknown("Channel", 10003)
        if ch.is_thread and ch.locked and not self._can(ch, "manage_threads"):
            raise HTTPError(403, 50083, "Thread is archived")

    def _attachments(self, body: dict[str, Any], files: list[SimFile], channel_id: int,
                     keep: list[SimAttachment]) -> list[SimAttachment]:
        meta = {str(a.get("id")): a for a in body.get("attachments") or []}
        out = [a for a in keep if str(a.id) in meta] if "attachments" in body else list(keep)
        for i, f in enumerate(files):
            info = meta.get(str(i), {})
            ctype = f.content_type
            if ctype in (None, "application/octet-stream"):
                ctype = _guess_type(f.filename)
            out.append(self.world.new_attachment(info.get("filename") or f.filename, f.data,
                                                 ctype, info.get("description")))
        return out

    def new_message(self, channel: SimChannel, body: dict[str, Any], files: list[SimFile], *,
                    ephemeral_for: int | None = None, interaction: SimInteraction | None = None,
                    msg_type: int = 0, extra_flags: int = 0) -> SimMessage:
        """Create and store a message authored by the bot; echoes MESSAGE_CREATE and tells
        the world's watchers."""
        w = self.world
        mid = w.clock.snowflake()
        body = body or {}
        atts = self._attachments(body, files, channel.id, [])
        flags = int(body.get("flags") or 0) | extra_flags
        if ephemeral_for is not None:
            flags |= 64
        content = body.get("content") or ""
        data: dict[str, Any] = {
            "id": str(mid), "channel_id": str(channel.id), "author": w.bot_user(),
            "content": content, "timestamp": w.clock.iso(), "edited_timestamp": None,
            "tts": bool(body.get("tts")),
            **self._mentions(_said(body, flags), body),
            "attachments": [a.payload(channel.id) for a in atts],
            "embeds": body.get("embeds") or [], "pinned": False, "type": msg_type,
            "flags": flags, "components": body.get("components") or [],
        }
        ref = body.get("message_reference")
        if ref:
            data["message_reference"] = {"type": 0, "channel_id": str(channel.id), **ref}
            data["type"] = 19
        if body.get("poll"):
            data["poll"] = body["poll"]
        if flags & limits_v2.FLAG_COMPONENTS_V2:
            _finish_v2(data, atts, channel.id)
        if interaction is not None:
            data["application_id"] = str(w.application_id)
            data["webhook_id"] = str(w.application_id)
            data["interaction_metadata"] = {
                "id": str(interaction.id), "type": interaction.type,
                "user": interaction.member.user_payload(),
                "authorizing_integration_owners": dict(interaction.owners) or {
                    "0": str(w.guild_id)},
            }
            if interaction.message is not None:
                data["interaction_metadata"]["interacted_message_id"] = str(interaction.message.id)
        msg = SimMessage(w, data, atts, ephemeral_for, interaction)
        w.messages[mid] = msg
        channel.messages.append(mid)
        if ephemeral_for is not None:
            w.ephemeral_ids.setdefault(ephemeral_for, []).append(mid)
        if ephemeral_for is None:
            channel.last_activity = w.clock.time()
        if channel.is_thread and channel.archived and not channel.locked:
            channel.archived = False  # a post unarchives an unlocked thread
            channel.last_activity = w.clock.time()
            self.sb.gateway("THREAD_UPDATE", channel.payload())
        if ephemeral_for is None:
            self.sb.echo_message("MESSAGE_CREATE", msg)
        if interaction is not None:
            interaction.last_touched = msg
        for watch in w.watchers:
            watch(msg)
        return msg

    def apply_edit(self, msg: SimMessage, body: dict[str, Any], files: list[SimFile],
                   interaction: SimInteraction | None = None) -> SimMessage:
        """Edit ``msg`` in place (fields present in ``body`` replace), echo MESSAGE_UPDATE,
        tell the world's watchers."""
        body = body or {}
        d = msg.data
        for key in ("content", "embeds", "components", "poll"):
            if key in body:
                d[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "flags" in body and body["flags"] is not None:
            d["flags"] = (int(body["flags"]) & ~128) | (d.get("flags", 0) & 64)
        v2 = bool(int(d.get("flags") or 0) & limits_v2.FLAG_COMPONENTS_V2)
        if "content" in body or (v2 and "components" in body):
            d.update(self._mentions(_said(d, d.get("flags")), body, reply=False))
        if "attachments" in body or files:
            msg.attachments = self._attachments(body, files, msg.channel_id, msg.attachments)
            d["attachments"] = [a.payload(msg.channel_id) for a in msg.attachments]
        if v2:
            _finish_v2(d, msg.attachments, msg.channel_id)
        d["flags"] = int(d.get("flags") or 0) & ~128
        d["edited_timestamp"] = self.world.clock.iso()
        msg.edits += 1
        if msg.ephemeral_for is None:
            self.sb.echo_message("MESSAGE_UPDATE", msg)
        if interaction is not None:
            interaction.last_touched = msg
        for watch in self.world.watchers:
            watch(msg)
        return msg

    def _mentions(self, content: str, body: dict[str, Any], *,
                  reply: bool = True) -> dict[str, Any]:
        """``mentions``, ``mention_roles`` and ``mention_everyone`` of a message the bot
        posts (or edits: ``reply=False``), i.e. who is pinged, as Discord documents it: the
        mentions written in ``content`` that the request's ``allowed_mentions`` permits
        (``parse`` of "users"/"roles"/"everyone", or the ``users``/``roles`` id lists),
        plus the author of the replied-to message when ``replied_user`` is true. Without
        ``allowed_mentions`` everything in the content is parsed and a reply pings its
        author. @everyone/@here and roles that are not mentionable also need the bot's
        Mention Everyone permission."""
        allowed = body.get("allowed_mentions")
        if isinstance(allowed, dict):
            parse = set(allowed.get("parse") or [])
            users = {str(u) for u in allowed.get("users") or []}
            roles = {str(r) for r in allowed.get("roles") or []}
            replied_user = bool(allowed.get("replied_user"))
        else:
            parse, users, roles, replied_user = {"users", "roles", "everyone"}, set(), set(), True
        w = self.world
        mentions: dict[int, dict[str, Any]] = {}
        for uid in _MENTION.findall(content):
            member = w.members.get(int(uid))
            if member is not None and ("users" in parse or uid in users):
                mentions[member.id] = member.user_payload()
        ref = body.get("message_reference") if reply else None
        if isinstance(ref, dict) and replied_user and ref.get("message_id"):
            replied = w.messages.get(int(ref["message_id"]))
            author = w.members.get(replied.author_id) if replied is not None else None
            if author is not None:
                mentions.setdefault(author.id, author.user_payload())
        bot_perms = 0
        for rid in (w.guild_id, w.bot_role_id):
            bot_perms |= int((w.roles.get(rid) or {}).get("permissions") or 0)
        may_everyone = bool(bot_perms & (_ADMINISTRATOR | _MENTION_EVERYONE))
        mention_roles = [
            rid for rid in dict.fromkeys(_ROLE_MENTION.findall(content))
            if int(rid) in w.roles and ("roles" in parse or rid in roles)
            and (w.roles[int(rid)].get("mentionable") or may_everyone)
        ]
        everyone = "everyone" in parse and may_everyone and bool(_EVERYONE.search(content))
        return {"mentions": list(mentions.values()), "mention_roles": mention_roles,
                "mention_everyone": everyone}

    def _delete(self, msg: SimMessage) -> None:
        msg.deleted = True
        ch = self.world.channels.get(msg.channel_id) or self._channel(msg.channel_id)
        if msg.id in ch.messages:
            ch.messages.remove(msg.id)
        if msg.ephemeral_for is None:
            self.sb.gateway("MESSAGE_DELETE", {"id": str(msg.id), "channel_id": str(ch.id),
                                               **self._guild_key(ch)})

    def _guild_key(self, ch: SimChannel) -> dict[str, str]:
        return {} if ch.guild_id is None else {"guild_id": str(ch.guild_id)}


def _said(message: dict[str, Any], flags: Any) -> str:
    """The text whose mentions ping: ``content``, or in a Components V2 message its text
    displays (D components/reference "Text Display"; resources/message "Edit Message")."""
    if not int(flags or 0) & limits_v2.FLAG_COMPONENTS_V2:
        return message.get("content") or ""
    return "\n".join(str(c.get("content") or "") for c in walk_components(
        message.get("components") or []) if c.get("type") == 10)


def _finish_v2(data: dict[str, Any], atts: list[SimAttachment], channel_id: int) -> None:
    """What Discord makes of a Components V2 message it stores (D components/reference
    "Anatomy of a Component", "File", "Unfurled Media Item"; the message object's
    ``attachments``), in place on ``data`` (a copy of the components, never the request's):
    every component gets an ``id`` (1, 2, ... in display order, skipping the ids given); a
    media item naming a file of the message (``attachment://NAME``, or the file's CDN url)
    becomes that file (CDN ``url``, ``proxy_url``, ``content_type``, ``width``/``height`` of
    a PNG, ``attachment_id``; a file component also gets ``name`` and ``size``); and
    ``attachments`` lists only the files no component shows."""
    components = copy.deepcopy(data.get("components") or [])
    given = {c["id"] for c in walk_components(components) if c.get("id")}
    next_id = 1
    for c in walk_components(components):
        if not c.get("id"):
            while next_id in given:
                next_id += 1
            c["id"] = next_id
            given.add(next_id)
    by_name = {a.filename: a for a in atts}
    by_url = {a.payload(channel_id)["url"]: a for a in atts}
    shown: dict[int, SimAttachment] = {}
    for media in limits_v2.media_items(components):
        url = str(media.get("url") or "")
        if url.startswith(limits_v2.ATTACHMENT):
            att = by_name.get(url[len(limits_v2.ATTACHMENT):])
        else:
            att = by_url.get(url)
        if att is None:
            continue
        shown[att.id] = att
        payload = att.payload(channel_id)
        media.update(url=payload["url"], proxy_url=payload["proxy_url"],
                     attachment_id=str(att.id), flags=0)
        if att.content_type:
            media["content_type"] = att.content_type
        media.update(_png_size(att.data))
    for c in walk_components(components):
        att = by_url.get(str((c.get("file") or {}).get("url"))) if c.get("type") == 13 else None
        if att is not None:
            c.update(name=att.filename, size=att.size)
    data["components"] = components
    data["attachments"] = [a.payload(channel_id) for a in atts if a.id not in shown]


def _png_size(data: bytes) -> dict[str, int]:
    """``{"width", "height"}`` of a PNG (its IHDR chunk), else empty."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return {}
    return {"width": int.from_bytes(data[16:20], "big"),
            "height": int.from_bytes(data[20:24], "big")}


def file_names(files: list[SimFile]) -> list[str]:
    return [f.filename for f in files]


def _guess_type(filename: str) -> str | None:
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
            "webp": "image/webp", "txt": "text/plain; charset=utf-8",
            "json": "application/json; charset=utf-8"}.get(ext)
