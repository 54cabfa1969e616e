"""The operator's terminal shows that the bot is up: one INFO line per shard once it is
connected and ready (before, nothing at INFO: discord.py's own logger is at WARNING)."""

from __future__ import annotations

import logging

from bot.sandbox import World
from tests.discord.conftest import make_bot


def ready_lines(caplog) -> list[tuple[str, str]]:
    return [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name == "bot.discord.bot" and r.getMessage().startswith("herdbot ")]


async def test_a_bot_with_one_shard_logs_one_ready_line(world, clock, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="bot")
    world.add_guild("West")
    await world.connect(make_bot(tmp_path / "bot.sqlite3", clock))
    try:
        assert ready_lines(caplog) == [("INFO", "herdbot ready: 2 servers, commands synced")]
    finally:
        await world.disconnect()


async def test_each_shard_logs_its_ready_line_with_its_servers(clock, tmp_path, caplog):
    """A bot serving both shards of 2: one line per shard, each with the servers on it
    (East and West on the shard the main server is not on); no token in the log."""
    caplog.set_level(logging.INFO, logger="bot")
    world = World()
    world.shard_count = 2
    main = world.shard_of(world.guild_id)  # the main server's id is the clock's
    world.add_guild("East", shard=1 - main)
    world.add_guild("West", shard=1 - main)
    servers = {main: "1 server", 1 - main: "2 servers"}
    try:
        await world.connect(make_bot(tmp_path / "bot.sqlite3", clock, shard_count=2))
        assert sorted(ready_lines(caplog)) == [
            ("INFO", f"herdbot ready: shard 0/2, {servers[0]}, commands synced"),
            ("INFO", f"herdbot ready: shard 1/2, {servers[1]}, commands synced")]
        assert all("sandbox-token" not in r.getMessage() for r in caplog.records)
    finally:
        await world.disconnect()
