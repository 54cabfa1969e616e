"""Every request of each lesson (``/learn``), checked against Discord's OpenAPI spec: the
command, the DM channel opened, each table of the guided game in the member's DMs and its
clicks, from the first table to the final scores."""

from __future__ import annotations

import pytest

from bot.app import builtin_games
from bot.runtime import ManualClock
from bot.sandbox import World
from bot.sandbox.conformance import Spec
from bot.sandbox.lessons import play_lesson
from tests.conformance.test_games import CHECKED, CHECKED_V2, is_v2
from tests.discord.conftest import make_bot
from tests.discord.test_learn import TOLD


@pytest.mark.parametrize("game", list(TOLD))
async def test_every_request_of_a_lesson_conforms(spec: Spec, record_property, tmp_path, game):
    world = World()
    ana = world.add_member("Ana")
    bot = make_bot(tmp_path / "lesson.sqlite3", ManualClock(), registry=builtin_games(),
                   extensions=("cogs.lobby", "cogs.game", "cogs.admin", "cogs.learn",
                               "cogs.llamas_alpacas", "cogs.pacapaca", "cogs.unleashed"))
    await world.connect(bot)
    try:
        run = await play_lesson(world, bot, ana, game, seed=1)
    finally:
        await world.disconnect()
    assert run.told == TOLD[game]
    requests = list(world.requests)
    report = spec.check(requests)
    record_property(CHECKED, report.checked)
    record_property(CHECKED_V2, sum(1 for r in requests if is_v2(r.json)))
    assert not report.violations, report.summary()
    assert report.checked == len(requests) >= 30
    assert report.routes["POST /users/@me/channels"] >= 1
    assert ana.dm_channel is not None
    dm = ana.dm_channel.id
    tables = [r for r in requests if r.method == "POST" and r.path.endswith("/messages")
              and any(f.filename == "table.png" for f in r.files)]
    assert tables and all(is_v2(r.json) for r in tables)
    assert {r.path for r in tables} == {f"/channels/{dm}/messages"}
