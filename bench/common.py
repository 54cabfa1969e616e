"""Shared helpers of the benchmarks: percentiles, RSS, machine description, targets."""

from __future__ import annotations

import math
import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any


def pct(samples: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``samples`` by the nearest-rank method; ``nan``
    for an empty list."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def summary_ms(samples_s: Sequence[float]) -> dict[str, Any]:
    """``{"n", "p50_ms", "p99_ms", "mean_ms", "max_ms"}`` of durations given in seconds."""
    if not samples_s:
        return {"n": 0, "p50_ms": None, "p99_ms": None, "mean_ms": None, "max_ms": None}
    return {
        "n": len(samples_s),
        "p50_ms": round(pct(samples_s, 50) * 1000, 3),
        "p99_ms": round(pct(samples_s, 99) * 1000, 3),
        "mean_ms": round(statistics.fmean(samples_s) * 1000, 3),
        "max_ms": round(max(samples_s) * 1000, 3),
    }


def rss_mb() -> float:
    """Resident set size of this process now, in MiB (``VmRSS`` of /proc/self/status)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB (``VmHWM``)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:  # pragma: no cover
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def loadavg() -> list[float]:
    """The 1, 5 and 15 minute load averages."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # pragma: no cover
        return []


def machine() -> dict[str, Any]:
    """nproc, CPU model, RAM (GiB), Python version, platform and the UTC date."""
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:  # pragma: no cover
        pass
    ram = 0.0
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemTotal:"):
                    ram = int(line.split()[1]) / 1024 / 1024
                    break
    except OSError:  # pragma: no cover
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "ram_gib": round(ram, 1),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "date_utc": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "loadavg_start": loadavg(),
    }


class Stopwatch:
    """``with Stopwatch() as sw: ...; sw.seconds``: wall time of a block."""

    def __enter__(self) -> Stopwatch:
        self.start = time.perf_counter()
        self.seconds = 0.0
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self.start


class GcPauses:
    """``gc.callbacks`` entry noting each garbage collection while :attr:`on`: rows of
    ``[unix start time, wall seconds, generation, objects collected]``."""

    def __init__(self) -> None:
        self.on = False
        self.rows: list[list[float]] = []
        self._start = (0.0, 0.0)

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if not self.on:
            return
        if phase == "start":
            self._start = (time.time(), time.perf_counter())
        else:
            self.rows.append([round(self._start[0], 4),
                              round(time.perf_counter() - self._start[1], 5),
                              info["generation"], info["collected"]])

    def summary(self) -> dict[str, Any]:
        """Counts and wall seconds of the collections noted: all of them and the full
        (generation 2) ones, with the longest full one."""
        full = [r[1] for r in self.rows if r[2] == 2]
        return {"collections": len(self.rows),
                "seconds": round(sum(r[1] for r in self.rows), 3),
                "full": len(full), "full_seconds": round(sum(full), 3),
                "full_max_s": round(max(full, default=0.0), 3)}
