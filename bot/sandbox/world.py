"""The world you connect bots to: :class:`World`.

``World()`` is one simulated guild (see :mod:`bot.sandbox.state`); :meth:`World.connect`
runs a discord.py bot against it in this process (:class:`~bot.sandbox.runner.Sandbox`).
"""

from __future__ import annotations

import discord

from .members import Link
from .model import SandboxError
from .runner import Sandbox
from .state import WorldState


class World(WorldState):
    """One simulated guild with its channels, threads, DMs, members and messages, to which
    bots connect (see :class:`~bot.sandbox.state.WorldState`)."""

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
        READY per shard it serves, with the guilds of that shard.

        ERROR records of ``loggers`` (and their children) are captured and raised as
        :class:`SandboxError` at the next settle when ``raise_errors``."""
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

