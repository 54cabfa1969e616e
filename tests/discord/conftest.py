"""Fixtures for Discord flow tests: the real HerdBot in the sandbox with the tiny game."""

from __future__ import annotations

import pytest_asyncio

from bot.config import Settings
from bot.discord.bot import HerdBot
from bot.games.registry import Registry
from bot.runtime import ManualClock
from bot.sandbox import World
from tests.support import close_world
from tests.support.tinygame import tiny_registry

TINY_EXTENSIONS = ("cogs.lobby", "cogs.game", "cogs.admin", "tests.support.tiny_cog")


def make_bot(db_path, clock: ManualClock, registry: Registry | None = None,
             extensions: tuple[str, ...] | None = TINY_EXTENSIONS, **settings) -> HerdBot:
    """A HerdBot on ``db_path`` (tiny game only unless a registry is given)."""
    cfg = Settings(database_path=db_path, _env_file=None, **settings)
    return HerdBot(cfg, registry=registry or tiny_registry(), clock=clock, extensions=extensions)


@pytest_asyncio.fixture
async def world():
    """A sandbox guild with members Ana (host), Bo, Cy, Di, and Mo (Manage Server)."""
    w = World()
    for name in ("Ana", "Bo", "Cy", "Di", "Ed"):
        w.add_member(name)
    w.add_member("Mo", manage_guild=True)
    yield w
    await close_world(w)


@pytest_asyncio.fixture
async def clock():
    return ManualClock()


@pytest_asyncio.fixture
async def sb(world, clock, tmp_path):
    """The real bot connected to the world, on a fresh SQLite file."""
    sandbox = await world.connect(make_bot(tmp_path / "bot.sqlite3", clock))
    yield sandbox
    await world.disconnect()
