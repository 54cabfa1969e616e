"""discord.py's rate-limit bucket sweep, throttled by the bot (bot.discord.bot)."""

from __future__ import annotations

import asyncio

from discord.http import HTTPClient

from bot.discord.http_buckets import throttle_bucket_sweep


def stale(http: HTTPClient, n: int, prefix: str) -> None:
    """Add ``n`` buckets last used 400 s ago (inactive for discord.py: 300 s)."""
    for i in range(n):
        bucket = http.get_ratelimit(f"{prefix}{i}")
        bucket._last_request = http.loop.time() - 400


async def test_the_sweep_runs_at_most_once_a_minute() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    now = [1000.0]
    throttle_bucket_sweep(http, 60.0, clock=lambda: now[0])
    stale(http, 300, "old")  # the first new bucket swept (nothing stale then)
    assert len(http._buckets) == 300
    now[0] += 60.0
    http.get_ratelimit("a")  # a minute later: the 300 stale buckets go
    assert list(http._buckets) == ["a"]
    stale(http, 300, "more")
    now[0] += 59.0
    http.get_ratelimit("b")  # within the minute: no sweep
    assert len(http._buckets) == 302
    http.get_ratelimit("a")  # an existing bucket never sweeps
    now[0] += 1.0
    http.get_ratelimit("c")
    assert list(http._buckets) == ["a", "b", "c"]
