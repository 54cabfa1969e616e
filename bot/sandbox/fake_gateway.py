"""Stand-ins for discord.py's gateway connection in the sandbox: a bot's ``ws`` (presence
changes recorded, member chunk requests answered) and an ``AutoShardedClient``'s shards."""

from __future__ import annotations

from typing import Any, Protocol


class GatewayHost(Protocol):
    """What the stand-ins use of :class:`~bot.sandbox.runner.Sandbox`."""

    world: Any

    def gateway(self, event: str, data: dict[str, Any]) -> None:
        """Deliver a gateway event to the bot."""
        ...


class FakeGateway:
    """Stands in for ``bot.ws``: presence changes are recorded, chunk requests answered."""

    open = False
    latency = 0.0

    def __init__(self, sandbox: GatewayHost, shard_id: int | None = None):
        self.sandbox = sandbox
        self.shard_id = shard_id

    async def change_presence(self, *, activity: Any = None, status: Any = None,
                              since: float = 0.0) -> None:
        self.sandbox.world.presence = {"activity": activity, "status": status}

    async def request_chunks(self, guild_id: int, query: str | None = None, *, limit: int,
                             user_ids: list[int] | None = None, presences: bool = False,
                             nonce: str | None = None) -> None:
        w = self.sandbox.world
        members = [w.bot_member()] + [m.member_payload() for m in w.members.values()]
        self.sandbox.gateway("GUILD_MEMBERS_CHUNK", {
            "guild_id": str(guild_id), "members": members, "chunk_index": 0,
            "chunk_count": 1, "nonce": nonce, "not_found": []})

    def is_ratelimited(self) -> bool:
        return False

    async def close(self, code: int = 1000) -> None:
        return None


class FakeShard:
    """Stands in for one of an ``AutoShardedClient``'s shards (its ``ws`` and ``close``)."""

    def __init__(self, sandbox: GatewayHost, shard_id: int):
        self.id = shard_id
        self.ws = FakeGateway(sandbox, shard_id)

    async def close(self) -> None:
        return None

    async def disconnect(self) -> None:
        return None
