"""bench.busy_post: both ways post the bot's busy answer once per click, to that click's
callback, in whole and partial batches; an answer the local Discord did not get is an
error, not a figure."""

from __future__ import annotations

import pytest
from discord.http import Route

import bot.discord.router as router
from bench.busy_post import CALLBACKS, IN_FLIGHT, WARM, app, click, measure, serving
from bot.discord.errors import BUSY
from bot.discord.router import busy_body


async def test_each_way_posts_the_busy_body_once_per_click() -> None:
    local = app()
    runner, port = await serving(local)
    base = Route.BASE
    try:
        figures = await measure(port, IN_FLIGHT + 1, probe_s=0)
    finally:
        await runner.cleanup()
    assert Route.BASE == base
    want = [(c["id"], c["token"], busy_body(BUSY, "en"))
            for c in map(click, range(WARM + IN_FLIGHT + 1))]
    got = local[CALLBACKS]
    assert sorted(got) == sorted(want + want)
    assert figures["refuse_unbuilt_ms"] > 0 and figures["aiohttp_ms"] > 0
    assert figures["cpu_probe"] == {"n": 0, "p50_ms": None, "p90_ms": None}


async def test_an_answer_not_delivered_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(sentence: str, lang: str) -> bytes:
        raise ValueError("no body")

    monkeypatch.setattr(router, "busy_body", broken)
    local = app()
    runner, port = await serving(local)
    base = Route.BASE
    try:
        with pytest.raises(RuntimeError,
                           match=f"got {WARM + 1} of {2 * (WARM + 1)} answers"):
            await measure(port, 1, probe_s=0)
    finally:
        await runner.cleanup()
    assert Route.BASE == base
    assert len(local[CALLBACKS]) == WARM + 1
