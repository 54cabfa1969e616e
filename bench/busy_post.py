"""``python -m bench.busy_post [--answers N]``: the bot's CPU for one busy answer's POST.

A busy answer (:func:`bot.discord.router.refuse_unbuilt`) is one POST of a fixed body to
an interaction's callback, which Discord answers 204. A local aiohttp server in a child
process on CPU 0 answers that route; on CPU 1, in this process's event loop (uvloop, as
``herdbot run``), two ways of posting are timed in thread CPU, ``N`` answers each (8 in
flight at a time, after 200 not timed):

- ``refuse_unbuilt``: the bot's answer as it runs, a task of its own on the session of a
  discord.py ``HTTPClient`` made as discord.py makes it;
- ``aiohttp``: the same request with ``ClientSession.post`` alone, awaited in place.

Printed with the CPU probe's loop time on CPU 1 just before (``bench.speed``, about
21 ms when the host is quiet) and the load average. The gateway's handling of the click that came
before the answer is not in it: ``BENCH_PROFILE_CLOCK=refuse`` (bench README) measures
both in a running bot.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from aiohttp import web
from discord.http import DiscordClientWebSocketResponse, HTTPClient, Route

from bench.common import loadavg
from bench.speed import SpeedProbe
from bot.discord.errors import BUSY
from bot.discord.router import busy_body, refuse_unbuilt

#: Answers posted before the timed ones (connections opened, caches warm).
WARM = 200
#: Answers in flight at a time.
IN_FLIGHT = 8
#: Seconds of the CPU probe on CPU 1, run before the timed posts.
PROBE_S = 3.0


def serve(port_out: Any) -> None:
    """The child: a local Discord that answers every interaction callback 204, on CPU 0;
    sends its port through ``port_out`` and serves until killed."""
    os.sched_setaffinity(0, {0})

    async def callback(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(status=204)

    async def run() -> None:
        app = web.Application()
        app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port_out.send(runner.addresses[0][1])
        await asyncio.Event().wait()

    asyncio.run(run())


def click(i: int) -> dict[str, Any]:
    """The parts of an INTERACTION_CREATE payload a busy answer reads."""
    return {"id": str(1_300_000_000_000_000_000 + i), "token": f"aW50ZXJhY3Rpb246{i:016d}",
            "locale": "en-US"}


async def timed(answers: int, post: Callable[[int], Awaitable[None]]) -> float:
    """Thread CPU milliseconds per answer of ``answers`` posts, ``IN_FLIGHT`` at a time."""
    for k in range(0, WARM, IN_FLIGHT):
        await asyncio.gather(*(post(k + j) for j in range(IN_FLIGHT)))
    started = time.thread_time()
    for k in range(WARM, WARM + answers, IN_FLIGHT):
        await asyncio.gather(*(post(k + j) for j in range(IN_FLIGHT)))
    return round((time.thread_time() - started) * 1000 / answers, 3)


async def measure(port: int, answers: int, probe_s: float = PROBE_S) -> dict[str, Any]:
    """Both ways' CPU per answer against the local Discord on ``port``, after ``probe_s``
    seconds of the CPU probe on CPU 1 (none when 0). ``Route.BASE`` is pointed there
    meanwhile."""
    probe = SpeedProbe(cpus=(1,), every_s=0.2)
    if probe_s > 0:
        await probe.start()
        try:
            await asyncio.sleep(probe_s)
        finally:
            await probe.stop()
    base, Route.BASE = Route.BASE, f"http://127.0.0.1:{port}/api/v10"
    http = HTTPClient(asyncio.get_running_loop())
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                    ws_response_class=DiscordClientWebSocketResponse,
                                    cookie_jar=aiohttp.DummyCookieJar())
    http._HTTPClient__session = session  # type: ignore[attr-defined]
    body = busy_body(BUSY, "en")

    async def bot_answer(i: int) -> None:
        await asyncio.ensure_future(refuse_unbuilt(http, click(i), BUSY))

    async def bare(i: int) -> None:
        data = click(i)
        url = f"{Route.BASE}/interactions/{data['id']}/{data['token']}/callback"
        async with session.post(url, data=body,
                                headers={"Content-Type": "application/json"}) as response:
            if response.status != 204:
                raise RuntimeError(f"the local Discord answered {response.status}")

    try:
        out: dict[str, Any] = {"refuse_unbuilt_ms": await timed(answers, bot_answer),
                               "aiohttp_ms": await timed(answers, bare)}
    finally:
        Route.BASE = base
        await session.close()
    out["cpu_probe"] = probe.between(0.0, time.perf_counter())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=4000)
    parser.add_argument("--out", help="also write the figures to this JSON file")
    args = parser.parse_args()
    receive, send = multiprocessing.Pipe(duplex=False)
    server = multiprocessing.get_context("spawn").Process(target=serve, args=(send,),
                                                          daemon=True)
    server.start()
    try:
        if not receive.poll(30):
            raise SystemExit("the local Discord did not start")
        port = receive.recv()
        os.sched_setaffinity(0, {1})
        before = loadavg()
        import uvloop

        figures = uvloop.run(measure(port, args.answers))
        figures.update(answers=args.answers, load_avg=[before, loadavg()])
    finally:
        server.kill()
        server.join()
    print(f"CPU per busy answer's POST, {args.answers} answers, {IN_FLIGHT} in flight: "
          f"refuse_unbuilt {figures['refuse_unbuilt_ms']} ms, aiohttp alone "
          f"{figures['aiohttp_ms']} ms; CPU probe p50 {figures['cpu_probe'].get('p50_ms')} ms, "
          f"load {figures['load_avg'][0]} -> {figures['load_avg'][1]}")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(figures, fh, indent=1)


if __name__ == "__main__":
    main()
