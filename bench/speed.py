"""How fast a CPU runs Python right now: a fixed piece of pure-Python work, timed in
thread CPU time every ``every_s`` seconds, in a child process pinned to given CPUs.

On a shared host one CPU second does not always do the same work (another tenant on
the core, the clock's frequency). A bot capped at a share of a CPU makes fewer moves in
a slow second, so rows of a capped bench compare only at similar speeds:
:meth:`SpeedProbe.between` gives the loop's time over a row's window.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable, Iterable
from typing import Any

from bench.common import pct

#: Iterations of the timed loop (about 21 ms of CPU on this machine's cores when
#: quiet, 33-44 ms in a slow stretch).
WORK = 200_000

#: The child (arguments: the loop's iterations, the period in s, the CPUs; no CPU:
#: anywhere): prints ``<perf_counter s> <loop ms>`` once a period until killed, and
#: exits quietly when interrupted or when nobody reads it any more.
CHILD = """
import os, sys, time
work, every = int(sys.argv[1]), float(sys.argv[2])
cpus = {int(c) for c in sys.argv[3:]}
if cpus:
    os.sched_setaffinity(0, cpus)
try:
    while True:
        t = time.thread_time()
        s = 0
        for i in range(work):
            s += i * i % 7
        ms = (time.thread_time() - t) * 1000
        print(f"{time.perf_counter():.6f} {ms:.3f}", flush=True)
        time.sleep(every)
except (BrokenPipeError, KeyboardInterrupt):
    os._exit(0)
"""


def summary(values: list[float]) -> dict[str, Any]:
    """``n``, ``p50_ms`` and ``p90_ms`` (nearest rank; ``None`` when empty) of loop times
    in ms."""
    if not values:
        return {"n": 0, "p50_ms": None, "p90_ms": None}
    return {"n": len(values), "p50_ms": round(pct(values, 50), 1),
            "p90_ms": round(pct(values, 90), 1)}


class SpeedProbe:
    """The child process and its samples: ``(perf_counter s when measured, loop ms)``
    (``perf_counter`` is one clock for every process on Linux); ``on_sample`` is called
    with each loop time as it comes."""

    def __init__(self, cpus: Iterable[int] = (), every_s: float = 0.5,
                 on_sample: Callable[[float], object] | None = None) -> None:
        self.cpus = sorted(cpus)
        self.every_s = every_s
        self.on_sample = on_sample
        self.samples: list[tuple[float, float]] = []
        self.pid: int | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start the child and read its lines in the background."""
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CHILD, str(WORK), str(self.every_s),
            *map(str, self.cpus), stdout=asyncio.subprocess.PIPE)
        self.pid = self._proc.pid
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        async for line in self._proc.stdout:
            with contextlib.suppress(ValueError):
                at, ms = line.split()
                self.samples.append((float(at), float(ms)))
                if self.on_sample is not None:
                    self.on_sample(float(ms))

    async def stop(self) -> None:
        """Stop the child (nothing when it never started or was stopped)."""
        if self._proc is not None and self._proc.returncode is None:
            self._proc.kill()
            await self._proc.wait()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    def between(self, t0: float, t1: float) -> dict[str, Any]:
        """:func:`summary` of the samples measured between perf_counter times ``t0`` and
        ``t1``."""
        return summary([ms for t, ms in self.samples if t0 <= t < t1])
