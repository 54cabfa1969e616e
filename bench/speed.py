"""How fast a CPU runs Python right now: a fixed piece of pure-Python work, timed in
thread CPU time every ``every_s`` seconds, in a child process pinned to given CPUs.

On a shared host one CPU second does not always do the same work (another tenant on
the core's sibling, the clock's frequency): on this machine, idle, the same loop took
106 to 157 ms of CPU from one second to the next. A bot capped at a share of a CPU
makes fewer moves in a slow second, so rows of a capped bench compare only at the same
speed: :meth:`SpeedProbe.between` gives the loop's time over a row's window.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import sys
import time
from collections.abc import Iterable
from typing import Any

#: Iterations of the timed loop (about 10 ms of CPU here).
WORK = 200_000

#: The child (arguments: the loop's iterations, the period in s, the CPUs; no CPU:
#: anywhere): prints the loop's thread CPU time in ms once a period until killed.
CHILD = """
import os, sys, time
work, every = int(sys.argv[1]), float(sys.argv[2])
cpus = {int(c) for c in sys.argv[3:]}
if cpus:
    os.sched_setaffinity(0, cpus)
while True:
    t = time.thread_time()
    s = 0
    for i in range(work):
        s += i * i % 7
    print(round((time.thread_time() - t) * 1000, 3), flush=True)
    time.sleep(every)
"""


def summary(values: list[float]) -> dict[str, Any]:
    """``n``, ``p50_ms`` and ``p90_ms`` (``None`` when empty) of loop times in ms."""
    if not values:
        return {"n": 0, "p50_ms": None, "p90_ms": None}
    ordered = sorted(values)
    return {"n": len(ordered), "p50_ms": round(statistics.median(ordered), 1),
            "p90_ms": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 1)}


class SpeedProbe:
    """The child process and its samples: ``(perf_counter s at reception, loop ms)``."""

    def __init__(self, cpus: Iterable[int] = (), every_s: float = 0.5) -> None:
        self.cpus = sorted(cpus)
        self.every_s = every_s
        self.samples: list[tuple[float, float]] = []
        self._proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start the child and read its lines in the background."""
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CHILD, str(WORK), str(self.every_s), *map(str, self.cpus),
            stdout=asyncio.subprocess.PIPE)
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        async for line in self._proc.stdout:
            with contextlib.suppress(ValueError):
                self.samples.append((time.perf_counter(), float(line)))

    async def stop(self) -> None:
        """Stop the child (nothing when it never started)."""
        if self._proc is not None and self._proc.returncode is None:
            self._proc.kill()
            await self._proc.wait()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    def between(self, t0: float, t1: float) -> dict[str, Any]:
        """:func:`summary` of the samples received between perf_counter times ``t0`` and
        ``t1``."""
        return summary([ms for t, ms in self.samples if t0 <= t < t1])
