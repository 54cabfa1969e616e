"""Shared fixtures: a migrated store on a temp file, a GameService with the tiny game."""

from __future__ import annotations

import pytest_asyncio

from bot.runtime import GameService, ManualClock
from bot.store import Store
from tests.support.tinygame import tiny_registry


@pytest_asyncio.fixture
async def store(tmp_path):
    """A migrated store on a fresh SQLite file."""
    s = await Store.open(tmp_path / "herdbot.sqlite3")
    yield s
    await s.close()


@pytest_asyncio.fixture
async def clock():
    """A manual clock (advance it; nothing sleeps)."""
    return ManualClock()


@pytest_asyncio.fixture
async def service(store, clock):
    """A GameService over the tiny game, its timer service running."""
    svc = GameService(store, tiny_registry(), clock=clock)
    await svc.timers.start()
    yield svc
    await svc.timers.stop()
