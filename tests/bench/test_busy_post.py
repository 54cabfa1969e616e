"""bench.busy_post: both ways post the bot's busy answer, once per click, to the
interaction's callback, and the figures are per answer."""

from __future__ import annotations

from aiohttp import web
from discord.http import Route

from bench.busy_post import IN_FLIGHT, WARM, click, measure
from bot.discord.errors import BUSY
from bot.discord.router import busy_body


async def test_each_way_posts_the_busy_body_once_per_click() -> None:
    got: list[tuple[str, str, bytes]] = []

    async def callback(request: web.Request) -> web.Response:
        got.append((request.match_info["id"], request.match_info["token"],
                    await request.read()))
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = Route.BASE
    try:
        figures = await measure(runner.addresses[0][1], 2 * IN_FLIGHT, probe_s=0)
    finally:
        await runner.cleanup()
    assert Route.BASE == base
    clicks = [click(i) for i in range(WARM + 2 * IN_FLIGHT)]
    want = [(c["id"], c["token"], busy_body(BUSY, "en")) for c in clicks]
    assert sorted(got) == sorted(want + want)
    assert figures["refuse_unbuilt_ms"] > 0 and figures["aiohttp_ms"] > 0
    assert figures["cpu_probe"] == {"n": 0, "p50_ms": None, "p90_ms": None}
