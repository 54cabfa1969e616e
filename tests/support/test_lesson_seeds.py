"""The engine-only mirror of a lesson (tests/support/lesson_seeds.py) tells the steps at
the moves the real bot shows them (tests/discord/test_learn.py's TOLD)."""

from __future__ import annotations

import pytest

from bot.present.lessons import LESSONS
from tests.discord.test_learn import TOLD
from tests.support.lesson_seeds import mirror


@pytest.mark.parametrize("game", list(TOLD))
def test_the_mirror_tells_each_step_at_the_move_the_bot_shows_it(game):
    assert dict(mirror(game, LESSONS[game].seed)) == TOLD[game]
