"""Fixtures for the sandbox's own tests: a world with two members and the test bot."""

from __future__ import annotations

import pytest

from bot.sandbox import World
from tests.sandbox.sandbox_testbot import SampleBot
from tests.support import close_world


@pytest.fixture
async def world():
    w = World()
    yield w
    await close_world(w)


@pytest.fixture
def alice(world: World):
    return world.add_member("Alice")


@pytest.fixture
def bob(world: World):
    return world.add_member("Bob")


@pytest.fixture
def store() -> dict:
    return {}


@pytest.fixture
async def sb(world: World, alice, bob, store):
    sandbox = await world.connect(SampleBot(store))
    yield sandbox
    await world.disconnect()
