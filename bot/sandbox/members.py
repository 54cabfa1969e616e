"""Simulated members: what a member sees and does, and the connected bot they talk to
(:class:`Link`)."""

from __future__ import annotations

from typing import Any, Protocol

from . import limits_modal
from .model import (
    MemberRecord,
    Place,
    RecordedRequest,
    SandboxError,
    SimChannel,
    SimInteraction,
    SimMessage,
)


class Stage(Place, Protocol):
    """The world as a member acting in it reads it."""

    application_id: int
    dm_channels: dict[int, SimChannel]
    ephemeral_ids: dict[int, list[int]]
    shards: dict[int, Link]

    @property
    def sandbox(self) -> Link | None:
        """The connected bot serving the main guild, else any, else ``None``."""

    def channel(self, ref: SimChannel | int | str | None = None) -> SimChannel:
        """Resolve a channel: None -> the main one, an id, a name, or a SimChannel."""

    def sandbox_for(self, channel: SimChannel | int | str | None) -> Link | None:
        """The connected bot serving ``channel``'s guild, or ``None``."""

    def resolved_for(self, ids: list[str], kind: int = 5) -> dict[str, Any]:
        """``resolved`` data for select values."""


class Link(Protocol):
    """The connected bot as the world, its members and the REST router see it. Two kinds
    implement it: :class:`~bot.sandbox.Sandbox` (the bot in this process, no network) and
    :class:`~bot.sandbox.loopback.RemoteLink` (bot processes over HTTP and a websocket on
    127.0.0.1). ``world`` is the world it serves; ``bot`` has ``intents``
    (:class:`discord.Intents`); ``requests`` records the bot's requests; ``closed`` is True
    once the bot is gone."""

    bot: Any
    requests: list[RecordedRequest]
    closed: bool

    @property
    def world(self) -> Stage:
        """The world the bot is connected to."""

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

    async def run_user_command(self, member: SimMember, name: str, channel: SimChannel,
                               target_id: int) -> SimInteraction:
        """Send a USER context menu command aimed at ``target_id``; return once settled."""

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


class SimMember(MemberRecord):
    """A simulated guild member. All actions dispatch a real INTERACTION_CREATE to the
    connected bot and return after :meth:`Sandbox.settle` with the :class:`SimInteraction`.
    """

    world: Stage

    # --- what the member sees
    def visible(self, channel: SimChannel | int | str | None = None) -> list[SimMessage]:
        """Messages in ``channel`` (default: the world's main channel) this member can see:
        public messages plus their own ephemerals, oldest first."""
        ch = self.world.channel(channel)
        if ch.kind == "dm" and ch.recipient_id != self.id:
            return []
        if ch.kind == "private" and self.id not in ch.recipients:
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

    async def user_command(self, name: str, target: MemberRecord | int, /, *,
                           in_channel: SimChannel | int | str | None = None) -> SimInteraction:
        """Run the member context menu command ``name`` (Apps -> ``name`` on ``target``'s
        profile; ``target`` a member or a user id, such as the bot's) in ``in_channel``.
        Raises :class:`SandboxError` when the bot has no such command or Discord would not
        offer it here."""
        ch = self.world.channel(in_channel)
        tid = target if isinstance(target, int) else target.id
        return await self._sb(ch).run_user_command(self, name, ch, tid)

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
        labels/ids): a radio group takes a value, a checkbox group a list of values, a
        checkbox a bool; inputs left out are submitted with their default value or empty.
        Raises :class:`SandboxError` for a value that is not one of a group's options."""
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
            if comp.get("type") in (3, 21, 22, 23):
                found, picked = False, None
                for key in (cid, label):
                    if key is not None and key in given:
                        used.add(key)
                        found, picked = True, given[key]
                        break
                try:
                    return limits_modal.answer(comp, picked if found else None, found)
                except ValueError as exc:
                    raise SandboxError(str(exc)) from exc
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
        gw = dict(data)  # (sent if the bot's intents bring it: bot.sandbox.intents)
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


