"""Member actions as the bot receives them: the INTERACTION_CREATE payloads of slash
commands (with their options and ``resolved`` data), autocomplete, component clicks and
selects, and modal submissions, built the way Discord builds them."""

from __future__ import annotations

from typing import Any

import discord

from . import installs
from . import payloads as P
from .members import SimMember
from .model import SandboxError, SimChannel, SimInteraction, SimMessage
from .state import WorldState


class Inbound:
    """Builds and sends a member's interactions to the connected bot. A subclass sends the
    payload (:meth:`_dispatch`) and may read command definitions elsewhere
    (:meth:`_command_def`)."""

    world: WorldState
    bot: discord.Client
    closed: bool
    _cmd_cache: dict[tuple[int, int | None], dict[str, Any]]

    async def _dispatch(self, it: SimInteraction, payload: dict[str, Any]) -> SimInteraction:
        """Hand ``payload`` (the INTERACTION_CREATE of ``it``) to the bot; return once
        settled."""
        raise NotImplementedError

    def _base_payload(self, it: SimInteraction, data: dict[str, Any]) -> dict[str, Any]:
        """The INTERACTION_CREATE of ``it``; its ``owners`` are set already (see
        :mod:`bot.sandbox.installs`)."""
        w = self.world
        ch = it.channel
        it.context = installs.context_of(ch)
        payload: dict[str, Any] = {
            "id": str(it.id), "application_id": str(w.application_id), "type": it.type,
            "data": data, "channel_id": str(ch.id), "token": it.token, "version": 1,
            "app_permissions": str(installs.app_permissions(w, ch)), "locale": it.member.locale,
            "entitlements": [], "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "context": it.context, "authorizing_integration_owners": dict(it.owners),
        }
        chan = ch.payload()
        if ch.kind in ("dm", "private"):
            payload["user"] = it.member.user_payload()
        else:
            chan["permissions"] = str(it.member.permissions)
            payload["guild_id"] = str(ch.guild_id)
            payload["guild_locale"] = w.guild_locale
            payload["guild"] = {"id": str(ch.guild_id), "locale": w.guild_locale, "features": []}
            payload["member"] = it.member.member_payload(permissions=True)
        payload["channel"] = chan
        return payload

    def _new_interaction(self, member: SimMember, kind: str, itype: int, channel: SimChannel,
                         message: SimMessage | None = None) -> SimInteraction:
        w = self.world
        if self.closed:
            raise SandboxError("the bot is disconnected")
        it = SimInteraction(w, member, kind, itype, channel, message)
        if w.faults.expired_tokens > 0:
            w.faults.expired_tokens -= 1
            it.token_expired = True
        w.interactions[it.token] = it
        member.interactions.append(it)
        return it


    def _command_def(self, root: str, guild_id: int | None) -> tuple[Any, dict[str, Any]]:
        """``(command, definition)`` of ``/root`` as Discord offers it in guild
        ``guild_id`` (``None``: a DM): that guild's own command, else the global one. The
        definition carries the synced command's id and ``_guild_id`` (``None``: global).
        Raises :class:`SandboxError` when neither exists."""
        tree = self.bot._connection._command_tree
        if tree is None:
            raise SandboxError("the bot has no CommandTree")
        cmd, gid = None, guild_id
        if guild_id is not None:
            cmd = tree.get_command(root, guild=discord.Object(guild_id))
        if cmd is None:
            cmd, gid = tree.get_command(root), None
        if cmd is None:
            raise SandboxError(f"the bot has no /{root} command")
        key = (id(cmd), gid)
        d = self._cmd_cache.get(key)
        if d is None:
            d = cmd.to_dict(tree)
            synced = self.world.commands.get((gid, f"1:{root}"))
            d["id"] = synced["id"] if synced else str(
                self.world.command_ids.setdefault((gid, root), self.world.clock.snowflake()))
            d["_guild_id"] = gid
            self._cmd_cache[key] = d
        return cmd, d

    async def run_command(self, member: SimMember, command: str, channel: SimChannel,
                          options: dict[str, Any], focused: str | None = None
                          ) -> SimInteraction:
        """Send an APPLICATION_COMMAND (or, with ``focused``, AUTOCOMPLETE) interaction."""
        parts = command.strip().lstrip("/").split()
        _, d = self._command_def(parts[0], channel.guild_id)
        resolved: dict[str, dict[str, Any]] = {}
        top: list[dict[str, Any]] = []
        container, defs = top, d.get("options") or []
        for sub in parts[1:]:
            node = next((o for o in defs if o["name"] == sub and o["type"] in (1, 2)), None)
            if node is None:
                raise SandboxError(f"/{command}: no subcommand {sub!r}")
            entry: dict[str, Any] = {"type": node["type"], "name": sub, "options": []}
            container.append(entry)
            container, defs = entry["options"], node.get("options") or []
        if any(o["type"] in (1, 2) for o in defs):
            raise SandboxError(f"/{command} is a group; name a subcommand")
        by_name = {o["name"]: o for o in defs}
        for name, value in options.items():
            od = by_name.get(name)
            if od is None:
                raise SandboxError(f"/{command} has no option {name!r}; has {list(by_name)}")
            opt: dict[str, Any] = {"name": name, "type": od["type"]}
            if name == focused:
                opt["value"], opt["focused"] = str(value), True
            else:
                opt["value"] = self._option_value(od, value, resolved)
            container.append(opt)
        if focused is None:
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in options]
            if missing:
                raise SandboxError(f"/{command}: missing required options {missing}")
        data: dict[str, Any] = {"id": d["id"], "name": d["name"], "type": 1, "options": top}
        if resolved:
            data["resolved"] = resolved
        if d["_guild_id"] is not None:
            data["guild_id"] = str(d["_guild_id"])
        kind, itype = ("autocomplete", 4) if focused else ("command", 2)
        synced = self.world.commands.get((d["_guild_id"], f"1:{parts[0]}")) or d
        owners = installs.command_owners(self.world, member, channel, synced)
        it = self._new_interaction(member, kind, itype, channel)
        it.owners = owners
        return await self._dispatch(it, self._base_payload(it, data))

    async def run_user_command(self, member: SimMember, name: str, channel: SimChannel,
                               target_id: int) -> SimInteraction:
        """Send a USER context menu command ``name`` (Apps on a member's profile) aimed at
        user ``target_id``, with its ``resolved`` user (and member, in a guild)."""
        tree = self.bot._connection._command_tree
        cmd = tree.get_command(name, type=discord.AppCommandType.user) if tree else None
        if cmd is None or tree is None:
            raise SandboxError(f"the bot has no user command {name!r}")
        synced = self.world.commands.get((None, f"2:{name}")) or cmd.to_dict(tree)
        owners = installs.command_owners(self.world, member, channel, synced)
        resolved = self.world.resolved_for([str(target_id)])
        if channel.guild_id is None:
            resolved.pop("members", None)
        cid = synced.get("id") or str(self.world.command_ids.setdefault(
            (None, f"2:{name}"), self.world.clock.snowflake()))
        data = {"id": str(cid), "name": name, "type": 2, "target_id": str(target_id),
                "resolved": resolved}
        it = self._new_interaction(member, "command", 2, channel)
        it.owners = owners
        return await self._dispatch(it, self._base_payload(it, data))

    def _option_value(self, od: dict[str, Any], value: Any,
                      resolved: dict[str, dict[str, Any]]) -> Any:
        t = od["type"]
        w = self.world
        if od.get("choices"):
            for c in od["choices"]:
                if value == c["name"] and value not in [x["value"] for x in od["choices"]]:
                    value = c["value"]
        if t == 3:
            return str(value)
        if t == 4:
            return int(value)
        if t == 5:
            return bool(value)
        if t == 10:
            return float(value)
        if t in (6, 9):
            uid = str(getattr(value, "id", value))
            r = w.resolved_for([uid])
            for k in ("users", "members"):
                resolved.setdefault(k, {}).update(r[k])
            return uid
        if t == 7:
            ch = w.channel(value)
            cp = ch.payload()
            cp["permissions"] = str(P.EVERYONE_PERMISSIONS)
            resolved.setdefault("channels", {})[str(ch.id)] = cp
            return str(ch.id)
        if t == 8:
            rid = str(getattr(value, "id", value))
            resolved.setdefault("roles", {})[rid] = w.roles[int(rid)]
            return rid
        if t == 11:
            if isinstance(value, tuple):
                value = w.new_attachment(*value)
            aid = str(value.id)
            resolved.setdefault("attachments", {})[aid] = value.payload(w.main.id)
            return aid
        return value

    async def run_component(self, member: SimMember, message: SimMessage,
                            data: dict[str, Any]) -> SimInteraction:
        """Send a MESSAGE_COMPONENT interaction for ``message`` (button click or select)."""
        owners = installs.component_owners(self.world, member, message)
        it = self._new_interaction(member, "component", 3, message.channel, message)
        it.owners = owners
        payload = self._base_payload(it, data)
        payload["message"] = message.data
        return await self._dispatch(it, payload)

    async def run_modal(self, member: SimMember, origin: SimInteraction,
                        data: dict[str, Any]) -> SimInteraction:
        """Send a MODAL_SUBMIT interaction answering the modal ``origin`` opened."""
        it = self._new_interaction(member, "modal", 5, origin.channel, origin.message)
        it.owners = dict(origin.owners)
        payload = self._base_payload(it, data)
        if origin.message is not None:
            payload["message"] = origin.message.data
        return await self._dispatch(it, payload)
