"""Fixtures of the fault suite: a sandbox world with members and the real HerdBot playing
the tiny game on a fresh SQLite file."""

from __future__ import annotations

import pytest_asyncio

from bot.runtime import ManualClock
from bot.sandbox import World
from tests.faults.common import make_bot
from tests.support import close_world

MEMBERS = ("Ana", "Bo", "Cy", "Di", "Ed")


@pytest_asyncio.fixture
async def world():
    """A sandbox guild with members Ana, Bo, Cy, Di, Ed and Mo (Manage Server)."""
    w = World()
    for name in MEMBERS:
        w.add_member(name)
    w.add_member("Mo", manage_guild=True)
    yield w
    await close_world(w)


@pytest_asyncio.fixture
async def clock():
    """The bot's manual clock (timers fire only when advanced)."""
    return ManualClock()


@pytest_asyncio.fixture
async def sb(world, clock, tmp_path):
    """The real bot connected to ``world`` on ``tmp_path/bot.sqlite3``."""
    sandbox = await world.connect(make_bot(tmp_path / "bot.sqlite3", clock))
    yield sandbox
    await world.disconnect()
