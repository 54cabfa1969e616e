"""The fake Discord REST API behind both of discord.py's HTTP exits.

discord.py 2.7 sends every request through one ``aiohttp.ClientSession``: the bot-token
exit ``discord.http.HTTPClient.request`` uses ``HTTPClient.__session`` and the interaction
exit ``discord.webhook.async_.AsyncWebhookAdapter.request`` (callbacks, followups, the
original response) is handed that same session by ``Interaction``. The sandbox replaces
that session, per bot, by :class:`FakeSession`; both ``request`` functions run unchanged, so
discord.py's own status handling, 429 retry loop and exception types apply.
"""

from __future__ import annotations

import contextvars
import re
from typing import Any
from urllib.parse import urlsplit

from . import installs, limits, limits_commands
from . import payloads as P
from .members import Link
from .messaging import (
    HTTPError,
    Messaging,
    archived,
    file_names,
    missing_permissions,
    unknown,
)
from .model import RecordedRequest, SimChannel, SimFile, SimInteraction, SimMessage
from .session import FakeResponse, FakeSession, decode
from .state import WorldState

#: The simulated interaction whose dispatch is running (inherited by every task that
#: discord.py or the bot creates while handling it); used to attribute bot-token requests.
current_interaction: contextvars.ContextVar[SimInteraction | None] = contextvars.ContextVar(
    "sandbox_interaction", default=None)
__all__ = ["FakeResponse", "FakeSession", "Router", "current_interaction"]

class Router(Messaging):
    """Answers the REST routes a bot uses, mutating the :class:`World`."""

    def __init__(self, sandbox: Link, world: WorldState):
        super().__init__(sandbox, world)
        w = self.world
        sf = r"(\d+)"
        self.routes: list[tuple[str, re.Pattern[str], Any]] = [
            (m, re.compile("^" + p + "$"), f) for m, p, f in [
                ("POST", r"/interactions/(\d+)/([^/]+)/callback", self.callback),
                ("POST", r"/webhooks/(\d+)/([^/]+)", self.followup),
                ("GET", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self.wh_get),
                ("PATCH", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self.wh_edit),
                ("DELETE", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self.wh_delete),
                ("GET", r"/users/@me", lambda q, b, f: w.bot_user()),
                ("GET", r"/oauth2/applications/@me", self.app_info),
                ("GET", r"/applications/@me", self.app_info),
                ("GET", rf"/users/{sf}", self.get_user),
                ("POST", r"/users/@me/channels", self.create_dm),
                ("GET", rf"/applications/{sf}/commands", self.get_commands),
                ("PUT", rf"/applications/{sf}/commands", self.put_commands),
                ("GET", rf"/applications/{sf}/guilds/{sf}/commands", self.get_commands),
                ("PUT", rf"/applications/{sf}/guilds/{sf}/commands", self.put_commands),
                ("POST", rf"/channels/{sf}/messages", self.create_message),
                ("GET", rf"/channels/{sf}/messages", self.history),
                ("GET", rf"/channels/{sf}/messages/{sf}", self.get_message),
                ("PATCH", rf"/channels/{sf}/messages/{sf}", self.edit_message),
                ("DELETE", rf"/channels/{sf}/messages/{sf}", self.delete_message),
                ("POST", rf"/channels/{sf}/messages/{sf}/threads", self.thread_from_message),
                ("POST", rf"/channels/{sf}/threads", self.thread_without_message),
                ("PUT", rf"/channels/{sf}/thread-members/(@me|\d+)", self.thread_add),
                ("DELETE", rf"/channels/{sf}/thread-members/(@me|\d+)", self.thread_remove),
                ("GET", rf"/channels/{sf}/thread-members", self.thread_members),
                ("GET", rf"/channels/{sf}", self.get_channel),
                ("PATCH", rf"/channels/{sf}", self.edit_channel),
                ("DELETE", rf"/channels/{sf}", self.delete_channel),
                ("POST", rf"/channels/{sf}/typing", lambda *a: None),
                ("PUT", rf"/channels/{sf}/messages/{sf}/reactions/.+", lambda *a: None),
                ("DELETE", rf"/channels/{sf}/messages/{sf}/reactions/.*", lambda *a: None),
                ("PUT", rf"/channels/{sf}/pins/{sf}", lambda *a: None),
                ("DELETE", rf"/channels/{sf}/pins/{sf}", lambda *a: None),
                ("GET", rf"/guilds/{sf}/members/{sf}", self.get_member),
                ("GET", rf"/guilds/{sf}", lambda q, b, f, g: w.guild_payload()),
            ]
        ]

    # ------------------------------------------------------------------ entry
    def handle(self, method: str, url: str, data: Any, params: Any,
               headers: dict[str, str]) -> FakeResponse:
        parts = urlsplit(url)
        path = parts.path
        if path.startswith("/api/v"):
            path = path.split("/", 3)[3]
            path = "/" + path
        query = {k: str(v) for k, v in (params or {}).items()}
        if parts.query:
            for kv in parts.query.split("&"):
                k, _, v = kv.partition("=")
                query[k] = v
        body, files = decode(data)
        exit_ = "webhook" if path.startswith(("/interactions/", "/webhooks/")) else "http"
        rec = RecordedRequest(method, path, query, body, files, exit_)
        world = self.world
        world.requests.append(rec)
        self.sb.requests.append(rec)
        it = current_interaction.get()
        if exit_ == "webhook":
            tok = path.split("/")[3] if len(path.split("/")) > 3 else ""
            it = world.interactions.get(tok, it)
        rec.interaction = it
        if it is not None:
            it.requests.append(rec)

        rule = world.faults._take(method, path)
        if rule is not None:
            rec.status, rec.response = rule.status, rule.body
            return FakeResponse(method, url, rule.status, rule.body, rule.headers)
        for m, pat, fn in self.routes:
            if m != method:
                continue
            match = pat.match(path)
            if match is None:
                continue
            try:
                self._check_access(exit_, path)
                result = fn(query, body, files, *match.groups())
            except (HTTPError, limits.Refusal) as e:
                rec.status, rec.response = e.status, e.body
                return FakeResponse(method, url, e.status, e.body)
            if result is None:
                rec.status = 204
                return FakeResponse(method, url, 204, None)
            rec.status, rec.response = 200, result
            return FakeResponse(method, url, 200, result)
        self.sb._unhandled(f"{method} {path}")
        rec.status = 404
        rec.response = {"message": "404: Not Found", "code": 0}
        return FakeResponse(method, url, 404, rec.response)

    def cdn(self, url: str) -> FakeResponse:
        """GET of an attachment URL (``Attachment.read()``): the stored bytes."""
        parts = urlsplit(url).path.split("/")
        if len(parts) >= 5 and parts[1] == "attachments" and parts[3].isdigit():
            a = self.world.attachments.get(int(parts[3]))
            if a is not None:
                resp = FakeResponse("GET", url, 200, a.data)
                resp.headers = {"content-type": a.content_type or "application/octet-stream"}
                return resp
        return FakeResponse("GET", url, 404, {"message": "404: Not Found", "code": 0})

    # ------------------------------------------------------------------ helpers
    def _check_access(self, exit_: str, path: str) -> None:
        """A bot-token request to a channel the bot user is no member of: 403 50001."""
        if exit_ == "http" and path.startswith("/channels/"):
            ch = self.world.channels.get(int(path.split("/")[2]))
            if ch is not None:
                installs.check_bot_access(self.world, ch)

    # ------------------------------------------------------------------ interactions
    def _interaction(self, token: str, *, after_callback: bool = True) -> SimInteraction:
        it = self.world.interactions.get(token)
        if it is None:
            raise unknown("Webhook", 10015)
        expired = self.world.clock.time() - it.created > 15 * 60
        if after_callback and (it.token_expired or expired) and it.responded:
            raise HTTPError(401, 50027, "Invalid Webhook Token")
        if after_callback and not it.responded:
            raise unknown("Webhook", 10015)
        return it

    def callback(self, q: dict[str, str], body: Any, files: list[SimFile], iid: str,
                 token: str) -> Any:
        w = self.world
        it = w.interactions.get(token)
        if it is None or it.id != int(iid):
            raise unknown("interaction", 10062)
        if it.failed:
            raise unknown("interaction", 10062)
        if w.faults.late_acks > 0 or w.clock.time() - it.created > 3.0:
            if w.faults.late_acks > 0:
                w.faults.late_acks -= 1
            it.failed = True
            raise unknown("interaction", 10062)
        if it.responded:
            raise HTTPError(400, 40060, "Interaction has already been acknowledged.")
        limits.check_callback(body, file_names(files), current=it.message.data if it.message else None)
        rtype = int(body["type"])
        data = body.get("data") or {}
        if rtype in (6, 7) and it.message is None:  # refused: nothing acknowledged
            raise HTTPError(400, 50035, "Invalid Form Body: this interaction has no message")
        if rtype == 4:
            self._check_interaction_post(it.channel, bool(int(data.get("flags") or 0) & 64))
        elif rtype == 7 and it.message is not None:
            self._check_interaction_post(it.channel, it.message.ephemeral_for is not None)
        it.response_type = rtype
        resource: dict[str, Any] = {"type": rtype}
        info: dict[str, Any] = {"id": str(it.id), "type": it.type}
        eph = it.member.id if int(data.get("flags") or 0) & 64 else None
        if rtype == 4:
            msg = self.new_message(it.channel, data, files, ephemeral_for=eph, interaction=it,
                                   msg_type=20 if it.type == 2 else 0)
            it.original = msg
        elif rtype == 5:
            msg = self.new_message(it.channel, {"content": ""}, [], ephemeral_for=eph,
                                   interaction=it, msg_type=20 if it.type == 2 else 0,
                                   extra_flags=128)
            it.original = msg
            it.deferred_ephemeral = eph is not None
            it.last_touched = None
        elif rtype in (6, 7):
            assert it.message is not None
            msg = it.message
            if rtype == 7:
                self.apply_edit(msg, data, files, it)
        elif rtype == 8:
            it.choices = data.get("choices") or []
            msg = None
        elif rtype == 9:
            it.modal = body
            it.member.modal = body
            it.member._modal_from = it
            msg = None
        elif rtype == 1:
            msg = None
        else:
            msg = None
        if msg is not None:
            info["response_message_id"] = str(msg.id)
            info["response_message_loading"] = rtype == 5
            info["response_message_ephemeral"] = msg.ephemeral
            if rtype != 6:
                resource["message"] = msg.data
        if "with_response" not in q:
            return None
        return {"interaction": info, "resource": resource}

    def followup(self, q: dict[str, str], body: Any, files: list[SimFile], app: str,
                 token: str) -> Any:
        it = self._interaction(token)
        limits.check_message(body, file_names(files), create=True)
        installs.count_followup(it)
        body = body or {}
        orig = it.original
        # (once the placeholder is deleted, a followup is a new message, as on Discord)
        if it.response_type == 5 and orig is not None and orig.loading and not orig.deleted:
            self._check_interaction_post(it.channel, orig.ephemeral_for is not None)
            body = dict(body)
            # the placeholder's ephemerality stays; the V2 flag may be set, as by an edit
            v2 = int(body.pop("flags", None) or 0) & limits.FLAG_COMPONENTS_V2
            if v2:
                body["flags"] = v2
            return self.apply_edit(orig, body, files, it).data
        eph = it.member.id if int(body.get("flags") or 0) & 64 else None
        channel = it.channel
        if q.get("thread_id"):
            channel = self._channel(q["thread_id"])
        self._check_interaction_post(channel, eph is not None)
        msg = self.new_message(channel, body, files, ephemeral_for=eph, interaction=it,
                               msg_type=20 if it.type == 2 else 0)
        it.followups.append(msg)
        return msg.data if q.get("wait") in ("1", "true", "True") else None

    def _wh_message(self, token: str, ref: str) -> tuple[SimInteraction, SimMessage]:
        it = self._interaction(token)
        if ref == "@original":
            msg = it.original or (it.message if it.response_type in (6, 7) else None)
        else:
            msg = next((m for m in [it.original, it.message, *it.followups]
                        if m is not None and m.id == int(ref)), None)
        if msg is None or msg.deleted:
            raise unknown("Message", 10008)
        return it, msg

    def wh_get(self, q: dict[str, str], body: Any, files: list[SimFile], app: str, token: str,
               ref: str) -> Any:
        return self._wh_message(token, ref)[1].data

    def wh_edit(self, q: dict[str, str], body: Any, files: list[SimFile], app: str, token: str,
                ref: str) -> Any:
        it, msg = self._wh_message(token, ref)
        limits.check_message(body, file_names(files), create=False, current=msg.data)
        where = (self.world.channels.get(msg.channel_id)
                 or self.world.deleted_channels.get(msg.channel_id) or it.channel)
        self._check_interaction_post(where, msg.ephemeral_for is not None)
        return self.apply_edit(msg, body or {}, files, it).data

    def wh_delete(self, q: dict[str, str], body: Any, files: list[SimFile], app: str,
                  token: str, ref: str) -> Any:
        _, msg = self._wh_message(token, ref)
        self._delete(msg)
        return None

    # ------------------------------------------------------------------ users/app
    def app_info(self, q: dict[str, str], body: Any, files: list[SimFile]) -> Any:
        owner = P.user(self.world.owner_id, "Owner")
        return P.application(self.world.application_id, self.world.bot_name, owner)

    def get_user(self, q: dict[str, str], body: Any, files: list[SimFile], uid: str) -> Any:
        m = self.world.members.get(int(uid))
        if m is None:
            if int(uid) == self.world.application_id:
                return self.world.bot_user()
            raise unknown("User", 10013)
        return m.user_payload()

    def get_member(self, q: dict[str, str], body: Any, files: list[SimFile], gid: str,
                   uid: str) -> Any:
        m = self.world.members.get(int(uid))
        if m is None:
            if int(uid) == self.world.application_id:
                return self.world.bot_member()
            raise unknown("Member", 10007)
        return m.member_payload()

    def create_dm(self, q: dict[str, str], body: Any, files: list[SimFile]) -> Any:
        w = self.world
        uid = int(body["recipient_id"])
        if uid not in w.members:
            raise unknown("User", 10013)
        ch = w.dm_channels.get(uid)
        if ch is None:
            ch = SimChannel(w, w.clock.snowflake(), "dm", recipient_id=uid)
            w.dm_channels[uid] = ch
            w.channels[ch.id] = ch
        return ch.payload()

    # ------------------------------------------------------------------ commands
    def get_commands(self, q: dict[str, str], body: Any, files: list[SimFile], app: str,
                     gid: str | None = None) -> Any:
        g = int(gid) if gid else None
        return [c for (cg, _), c in self.world.commands.items() if cg == g]

    def put_commands(self, q: dict[str, str], body: Any, files: list[SimFile], app: str,
                     gid: str | None = None) -> Any:
        limits_commands.check_commands(body)
        w = self.world
        g = int(gid) if gid else None
        old = {k: v for k, v in w.commands.items() if k[0] == g}
        for k in old:
            del w.commands[k]
        out = []
        for cmd in body or []:
            key = (g, f"{cmd.get('type', 1)}:{cmd['name']}")
            prev = old.get(key)
            stored = {
                "id": prev["id"] if prev else str(w.clock.snowflake()),
                "application_id": str(w.application_id),
                "version": str(w.clock.snowflake()),
                "type": cmd.get("type", 1),
                "description": cmd.get("description", ""),
                "default_member_permissions": cmd.get("default_member_permissions"),
                "nsfw": cmd.get("nsfw", False),
                "options": cmd.get("options", []),
                **cmd,
            }
            if g is not None:
                stored["guild_id"] = str(g)
            w.commands[key] = stored
            out.append(stored)
        return out

    # ------------------------------------------------------------------ messages
    def create_message(self, q: dict[str, str], body: Any, files: list[SimFile],
                       cid: str) -> Any:
        limits.check_message(body, file_names(files), create=True)
        ch = self._channel(cid)
        if ch.kind == "dm":
            m = self.world.members.get(ch.recipient_id or 0)
            if m is None or not m.dms_open:
                raise HTTPError(403, 50007, "Cannot send messages to this user")
        body = self._check_post(ch, body or {}, files)
        return self.new_message(ch, body, files, interaction=None).data

    def history(self, q: dict[str, str], body: Any, files: list[SimFile], cid: str) -> Any:
        ch = self._channel(cid)
        msgs = [m for m in ch.all_messages if m.ephemeral_for is None]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        limit = int(q.get("limit", 50))
        return [m.data for m in reversed(msgs)][:limit] if "after" not in q else [
            m.data for m in msgs][:limit][::-1]

    def get_message(self, q: dict[str, str], body: Any, files: list[SimFile], cid: str,
                    mid: str) -> Any:
        msg = self._message(cid, mid)
        if msg.ephemeral_for is not None:
            raise unknown("Message", 10008)
        return msg.data

    def edit_message(self, q: dict[str, str], body: Any, files: list[SimFile], cid: str,
                     mid: str) -> Any:
        msg = self._message(cid, mid)
        if msg.ephemeral_for is not None:
            raise unknown("Message", 10008)
        limits.check_message(body, file_names(files), create=False, current=msg.data)
        body = self._check_post(msg.channel, body or {}, files, edit=True)
        return self.apply_edit(msg, body, files, current_interaction.get()).data

    def delete_message(self, q: dict[str, str], body: Any, files: list[SimFile], cid: str,
                       mid: str) -> Any:
        self._delete(self._message(cid, mid))
        return None

    # ------------------------------------------------------------------ channels/threads
    def get_channel(self, q: dict[str, str], body: Any, files: list[SimFile], cid: str) -> Any:
        return self._channel(cid).payload()

    def edit_channel(self, q: dict[str, str], body: Any, files: list[SimFile], cid: str) -> Any:
        limits.check_channel_name(body, required=False)
        ch = self._channel(cid)
        body = body or {}
        if "name" in body:
            ch.name = body["name"]
        if "topic" in body:
            ch.topic = body["topic"]
        if "archived" in body:
            if ch.archived and not body["archived"]:
                ch.last_activity = self.world.clock.time()
            ch.archived = bool(body["archived"])
        if "locked" in body:
            ch.locked = bool(body["locked"])
        if "auto_archive_duration" in body:
            ch.auto_archive_duration = int(body["auto_archive_duration"])
            ch.last_activity = self.world.clock.time()
        data = ch.payload()
        if ch.is_thread:
            self.sb.gateway("THREAD_UPDATE", data)
        elif ch.kind == "text":
            self.sb.gateway("CHANNEL_UPDATE", data)
        return data

    def delete_channel(self, q: dict[str, str], body: Any, files: list[SimFile],
                       cid: str) -> Any:
        return self.world.remove_channel(self._channel(cid))

    def _new_thread(self, parent: SimChannel, tid: int, body: dict[str, Any],
                    private: bool) -> Any:
        w = self.world
        if parent.kind != "text":
            raise HTTPError(400, 50024, "Cannot execute action on this channel type")
        if not self._can(parent, "view_channel"):
            raise HTTPError(403, 50001, "Missing Access")
        if not self._can(parent, "create_private_threads" if private else "create_public_threads"):
            raise missing_permissions()
        if tid in w.channels:
            raise HTTPError(400, 160004, "A thread has already been created for this message")
        th = SimChannel(w, tid, "thread", body.get("name", "thread"), parent_id=parent.id,
                        owner_id=w.application_id, private=private)
        th.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
        th.members.add(w.application_id)
        w.channels[tid] = th
        data = th.payload()
        self.sb.gateway("THREAD_CREATE", {**data, "newly_created": True})
        return data

    def thread_from_message(self, q: dict[str, str], body: Any, files: list[SimFile], cid: str,
                            mid: str) -> Any:
        limits.check_channel_name(body, required=True)
        parent = self._channel(cid)
        msg = self._message(cid, mid)
        data = self._new_thread(parent, msg.id, body or {}, False)
        msg.data["thread"] = data
        msg.data["flags"] = int(msg.data.get("flags") or 0) | 32
        return data

    def thread_without_message(self, q: dict[str, str], body: Any, files: list[SimFile],
                               cid: str) -> Any:
        limits.check_channel_name(body, required=True)
        parent = self._channel(cid)
        body = body or {}
        return self._new_thread(parent, self.world.clock.snowflake(), body,
                                int(body.get("type", 12)) == 12)

    def thread_add(self, q: dict[str, str], body: Any, files: list[SimFile], cid: str,
                   uid: str) -> Any:
        th = self._channel(cid)
        if not th.is_thread:
            raise HTTPError(400, 50024, "Cannot execute action on this channel type")
        user_id = self.world.application_id if uid == "@me" else int(uid)
        if user_id not in self.world.members and user_id != self.world.application_id:
            raise unknown("Member", 10007)
        if th.archived:
            raise archived()
        if not self._can(th, "send_messages_in_threads"):
            raise missing_permissions()
        if user_id not in th.members:
            th.members.add(user_id)
            self.sb.gateway("THREAD_MEMBERS_UPDATE", {
                "id": str(th.id), "guild_id": str(th.guild_id),
                "member_count": len(th.members), "added_members": [{
                    "id": str(th.id), "user_id": str(user_id),
                    "join_timestamp": self.world.clock.iso(), "flags": 0}]})
        return None

    def thread_remove(self, q: dict[str, str], body: Any, files: list[SimFile], cid: str,
                      uid: str) -> Any:
        th = self._channel(cid)
        user_id = self.world.application_id if uid == "@me" else int(uid)
        if user_id in th.members:
            th.members.discard(user_id)
            self.sb.gateway("THREAD_MEMBERS_UPDATE", {
                "id": str(th.id), "guild_id": str(th.guild_id),
                "member_count": len(th.members), "removed_member_ids": [str(user_id)]})
        return None

    def thread_members(self, q: dict[str, str], body: Any, files: list[SimFile],
                       cid: str) -> Any:
        th = self._channel(cid)
        return [{"id": str(th.id), "user_id": str(u), "join_timestamp": self.world.clock.iso(),
                 "flags": 0} for u in sorted(th.members)]
