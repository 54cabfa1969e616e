"""The simulated world: guilds, channels, threads, DMs, members, messages, the bot's
permissions, moderation and the payloads the gateway sends about them.

A world outlives the bots connected to it: ``await world.disconnect()`` closes the bot
while channels, threads, messages (with their components and attachments) and DMs persist,
so connecting a new bot simulates a restart. :class:`~bot.sandbox.world.World` adds
connecting a bot in this process.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from . import payloads as P
from . import permissions as perms
from .faults import Faults
from .members import Link, SimMember
from .model import (
    RecordedRequest,
    SandboxError,
    SimAttachment,
    SimChannel,
    SimInteraction,
    SimMessage,
)


class WorldState:
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
        #: The server's Discord locale (its community language): ``guild_locale``.
        self.guild_locale = "en-US"
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
        #: Called with each message the bot posts or edits (public, ephemeral or DM), once
        #: it is stored (the demo's :class:`~bot.sandbox.record.Recorder`).
        self.watchers: list[Callable[[SimMessage], None]] = []
        self.commands: dict[tuple[int | None, str], dict[str, Any]] = {}
        self.command_ids: dict[tuple[int | None, str], int] = {}
        self.faults = Faults(self)
        #: Shard id -> the connected bot serving it (one entry per shard of a sharded bot).
        self.shards: dict[int, Link] = {}
        self.shard_count = 1
        #: Guild id -> name of every guild (the main one first).
        self.guilds: dict[int, str] = {self.guild_id: guild_name}
        self.presence: dict[str, Any] | None = None
        #: Members who installed the app to their account (a user install).
        self.user_installs: set[int] = set()
        #: Guilds that did not install the app: its bot user is no member there.
        self.uninstalled_guilds: set[int] = set()
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

    # --- installs and private channels (see bot.sandbox.installs)
    def install_for(self, *members: SimMember) -> None:
        """``members`` install the app to their account: its commands that declare the
        user install follow them into DMs, group DMs and guilds without the bot."""
        self.user_installs.update(m.id for m in members)

    def add_group_dm(self, *members: SimMember, name: str = "", group: bool = True
                     ) -> SimChannel:
        """A private channel of ``members`` (a group DM; with ``group=False`` and two
        members a DM between them): the bot user is no member (bot-token requests to it
        answer 403 50001), only its recipients see it; interactions there have context 2."""
        ch = SimChannel(self, self.clock.snowflake(), "private", name,
                        recipients=[m.id for m in members], group=group,
                        owner_id=members[0].id if members else None)
        self.channels[ch.id] = ch
        return ch

    def add_uninstalled_guild(self, name: str, channel_name: str = "general") -> SimChannel:
        """A guild whose members may use the app only through their user install: its bot
        user is no member (no GUILD_CREATE; bot-token requests to its channels answer 403
        50001). Returns its text channel."""
        ch = self.add_guild(name, channel_name)
        assert ch.guild_id is not None
        self.uninstalled_guilds.add(ch.guild_id)
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
        denied = perms.bits(permissions)
        ch = self._perm_channel(channel)
        perms.deny(self._bot_overwrite(ch), denied)
        self._channel_changed(ch)

    def allow_bot(self, channel: SimChannel | int | str | None, *permissions: str) -> None:
        """Undo :meth:`deny_bot` for ``permissions`` (their deny bits are cleared)."""
        cleared = perms.bits(permissions)
        ch = self._perm_channel(channel)
        perms.undeny(self._bot_overwrite(ch), cleared)
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
        if ch.kind == "private" or ch.guild_id in self.uninstalled_guilds:
            return 0  # no member there
        base = int(self.roles[self.guild_id]["permissions"])
        base |= int(self.roles[self.bot_role_id]["permissions"])
        return perms.effective(base, self._perm_channel(ch).overwrites,
                               (self.guild_id, self.bot_role_id, self.application_id),
                               in_thread=ch.is_thread)

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
            "preferred_locale": self.guild_locale, "public_updates_channel_id": None,
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
