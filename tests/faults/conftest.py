"""Fixtures of the fault suite: ``world``, ``clock`` and ``sb`` (the real HerdBot playing
the tiny game on a fresh SQLite file) come from tests/conftest.py; this folder's bots are
built by tests.faults.common.make_bot."""

from __future__ import annotations

import pytest

from tests.faults.common import make_bot


@pytest.fixture
def bot_factory():
    """The fault suite's tiny-game bot."""
    return make_bot
