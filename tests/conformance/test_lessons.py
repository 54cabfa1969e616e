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
from tests.discord.conftest import make_bot
from tests.discord.test_learn import TOLD

CHECKED = "requests_checked"
V2_FLAG = 1 << 15


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
    record_property("v2_requests_checked",
                    sum(1 for r in requests if isinstance(r.json, dict) and (
                        (r.json.get("data") if isinstance(r.json.get("data"), dict) else r.json
                         ).get("flags") or 0) & V2_FLAG))
    assert not report.violations, report.summary()
    assert report.checked == len(requests) >= 30
    assert report.routes["POST /users/@me/channels"] >= 1
    dm = ana.dm_channel.id
    tables = [r for r in requests if r.method == "POST" and r.path.endswith("/messages")
              and any(f.filename == "table.png" for f in r.files)]
    assert tables and all((r.json or {}).get("flags", 0) & V2_FLAG for r in tables)
    assert {r.path for r in tables} == {f"/channels/{dm}/messages"}
