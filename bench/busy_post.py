"""``python -m bench.busy_post [--answers N]``: the bot's CPU for one busy answer's POST.

A busy answer (:func:`bot.discord.router.refuse_unbuilt`) is one POST of a fixed body to
an interaction's callback, which Discord answers 204. A local Discord (:func:`app`) in a
child process on the first CPU this process may use answers that route; on the last one,
in uvloop (as ``herdbot run``), two ways of posting are timed in thread CPU, ``N`` answers
each, in batches of 8 (each batch waits for its slowest), after 200 not timed:

- ``refuse_unbuilt``: the bot's answer, on the session of a discord.py ``HTTPClient``
  logged in to the local Discord;
- ``aiohttp``: the same request with ``ClientSession.post`` alone, on that session.

Each answer is a task of its own either way. The local Discord's count of callbacks must
then be every answer posted (``RuntimeError`` otherwise: an answer not delivered is not
timed). Printed with the CPU probe's loop time on that CPU just before (``bench.speed``,
about 21 ms when this host is quiet) and the load average. The gateway's handling of the
click that came before the answer is not in it: ``BENCH_PROFILE_CLOCK=refuse`` (bench
README) measures both in a running bot.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from aiohttp import web
from discord.http import HTTPClient, Route

from bench.common import loadavg
from bench.speed import SpeedProbe
from bot.discord.errors import BUSY
from bot.discord.router import busy_body, refuse_unbuilt

#: Answers posted before the timed ones (connections opened, caches warm).
WARM = 200
#: Answers posted at once (a batch).
IN_FLIGHT = 8
#: Seconds of the CPU probe, run before the timed posts.
PROBE_S = 3.0
#: The local Discord's list of ``(interaction id, token, body)`` of each callback.
CALLBACKS = web.AppKey("callbacks", list[tuple[str, str, bytes]])


def app() -> web.Application:
    """A local Discord for the bench: ``GET /api/v10/users/@me`` (a bot user, for the
    login), each interaction callback answered 204 and kept in ``app[CALLBACKS]``, and
    ``GET /api/v10/callbacks``: how many came (JSON number)."""
    local = web.Application()
    local[CALLBACKS] = []

    async def callback(request: web.Request) -> web.Response:
        local[CALLBACKS].append((request.match_info["id"], request.match_info["token"],
                                 await request.read()))
        return web.Response(status=204)

    async def me(request: web.Request) -> web.Response:
        return web.json_response({"id": "1", "username": "herdbot", "discriminator": "0",
                                  "global_name": None, "avatar": None, "bot": True})

    async def count(request: web.Request) -> web.Response:
        return web.json_response(len(local[CALLBACKS]))

    local.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
    local.router.add_get("/api/v10/users/@me", me)
    local.router.add_get("/api/v10/callbacks", count)
    return local


async def serving(local: web.Application) -> tuple[web.AppRunner, int]:
    """``local`` served on a free port of 127.0.0.1: its runner (``cleanup()`` stops it)
    and the port."""
    runner = web.AppRunner(local, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    return runner, runner.addresses[0][1]


def serve(port_out: Connection, cpu: int) -> None:
    """The child: :func:`app` on ``cpu``; sends its port through ``port_out`` and serves
    until killed."""
    os.sched_setaffinity(0, {cpu})

    async def run() -> None:
        _, port = await serving(app())
        port_out.send(port)
        await asyncio.Event().wait()

    asyncio.run(run())


def click(i: int) -> dict[str, Any]:
    """The parts of an INTERACTION_CREATE payload a busy answer reads."""
    return {"id": str(1_300_000_000_000_000_000 + i), "token": f"aW50ZXJhY3Rpb246{i:016d}",
            "locale": "en-US"}


async def timed(answers: int, post: Callable[[int], asyncio.Future[None]]) -> float:
    """Thread CPU milliseconds per answer of ``answers`` calls of ``post(i)`` (which
    returns a task), ``IN_FLIGHT`` at a time, after :data:`WARM` calls not timed."""
    async def run(first: int, n: int) -> None:
        for k in range(first, first + n, IN_FLIGHT):
            await asyncio.gather(*(post(i) for i in range(k, min(k + IN_FLIGHT, first + n))))

    await run(0, WARM)
    started = time.thread_time()
    await run(WARM, answers)
    return round((time.thread_time() - started) * 1000 / answers, 3)


async def measure(port: int, answers: int, probe_s: float = PROBE_S,
                  probe_cpu: int | None = None) -> dict[str, Any]:
    """Both ways' CPU per answer against the local Discord on ``port`` (``answers`` ≥ 1),
    after ``probe_s`` seconds of the CPU probe on ``probe_cpu`` (none when 0).
    ``Route.BASE`` points there meanwhile. Raises ``RuntimeError`` when the local Discord
    did not get every answer."""
    probe = SpeedProbe(cpus=() if probe_cpu is None else (probe_cpu,), every_s=0.2)
    if probe_s > 0:
        await probe.start()
        try:
            await asyncio.sleep(probe_s)
        finally:
            await probe.stop()
    base = Route.BASE
    http = HTTPClient(asyncio.get_running_loop())
    try:
        Route.BASE = f"http://127.0.0.1:{port}/api/v10"
        await http.static_login("bench")
        session = http._HTTPClient__session  # type: ignore[attr-defined]
        body = busy_body(BUSY, "en")

        def bot_answer(i: int) -> asyncio.Future[None]:
            return asyncio.ensure_future(refuse_unbuilt(http, click(i), BUSY))

        async def post(i: int) -> None:
            data = click(i)
            url = f"{Route.BASE}/interactions/{data['id']}/{data['token']}/callback"
            async with session.post(url, data=body,
                                    headers={"Content-Type": "application/json"}) as answer:
                if answer.status != 204:
                    raise RuntimeError(f"the local Discord answered {answer.status}")

        def bare(i: int) -> asyncio.Future[None]:
            return asyncio.ensure_future(post(i))

        out: dict[str, Any] = {"refuse_unbuilt_ms": await timed(answers, bot_answer),
                               "aiohttp_ms": await timed(answers, bare)}
        async with session.get(f"{Route.BASE}/callbacks") as answer:
            got = await answer.json()
    finally:
        Route.BASE = base
        await http.close()
    if got != 2 * (WARM + answers):
        raise RuntimeError(f"the local Discord got {got} of {2 * (WARM + answers)} answers")
    out["cpu_probe"] = probe.between(0.0, time.perf_counter())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=4000)
    parser.add_argument("--out", help="also write the figures to this JSON file")
    args = parser.parse_args()
    if args.answers < 1:
        parser.error("--answers must be at least 1")
    cpus = sorted(os.sched_getaffinity(0))
    receive, send = multiprocessing.Pipe(duplex=False)
    server = multiprocessing.get_context("spawn").Process(
        target=serve, args=(send, cpus[0]), daemon=True)
    server.start()
    try:
        if not receive.poll(30):
            raise SystemExit("the local Discord did not start")
        port = receive.recv()
        os.sched_setaffinity(0, {cpus[-1]})
        before = loadavg()
        import uvloop

        figures = uvloop.run(measure(port, args.answers, probe_cpu=cpus[-1]))
        figures.update(answers=args.answers, cpus={"server": cpus[0], "bot": cpus[-1]},
                       load_avg=[before, loadavg()])
    finally:
        server.kill()
        server.join()
    print(f"CPU per busy answer's POST, {args.answers} answers in batches of {IN_FLIGHT}: "
          f"refuse_unbuilt {figures['refuse_unbuilt_ms']} ms, aiohttp alone "
          f"{figures['aiohttp_ms']} ms; CPU probe p50 {figures['cpu_probe']['p50_ms']} ms "
          f"(CPU {cpus[-1]}), load {figures['load_avg'][0]} -> {figures['load_avg'][1]}")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(figures, fh, indent=1)


if __name__ == "__main__":
    main()
