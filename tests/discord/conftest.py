"""Discord flow tests: ``make_bot`` builds the real HerdBot (tiny game by default); the
``world``, ``clock`` and ``sb`` fixtures come from tests/conftest.py."""

from __future__ import annotations

from typing import Any

from bot.app import make_bot as build_bot
from bot.config import Settings
from bot.discord.bot import HerdBot
from bot.games.registry import Registry
from bot.runtime import ManualClock
from tests.support.tinygame import tiny_registry

TINY_EXTENSIONS = ("cogs.lobby", "cogs.game", "cogs.admin", "tests.support.tiny_cog")


def make_bot(db_path, clock: ManualClock, registry: Registry | None = None,
             extensions: tuple[str, ...] = TINY_EXTENSIONS, **settings) -> HerdBot:
    """A HerdBot on ``db_path`` (tiny game only unless a registry is given)."""
    # These tests were written for games without a turn timer; the shipped default (24h) is
    # tested in tests/faults/test_abandoned.py.
    settings.setdefault("default_turn_timer", "off")
    fields: dict[str, Any] = {"database_path": db_path, "_env_file": None, **settings}
    cfg = Settings(**fields)
    return build_bot(cfg, registry=registry or tiny_registry(), clock=clock,
                     extensions=extensions)
