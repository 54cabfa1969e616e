"""bench.speed: the CPU speed probe's child reports a loop time about every period, and a
window's summary is the median and 90th percentile of the samples received in it."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

from bench.speed import CHILD, SpeedProbe, summary


def test_a_summary_is_the_median_and_ninetieth_percentile():
    assert summary([]) == {"n": 0, "p50_ms": None, "p90_ms": None}
    assert summary([12.0, 10.0, 11.0, 30.0]) == {"n": 4, "p50_ms": 11.0, "p90_ms": 30.0}
    assert summary([float(v) for v in range(1, 21)]) == {"n": 20, "p50_ms": 10.0,
                                                         "p90_ms": 18.0}


async def test_the_probe_samples_until_stopped_on_the_cpus_it_was_given():
    cpu = min(os.sched_getaffinity(0))
    heard: list[float] = []
    probe = SpeedProbe([cpu], every_s=0.05, on_sample=heard.append)
    t0 = time.perf_counter()
    await probe.start()
    for _ in range(200):
        if len(probe.samples) >= 3:
            break
        await asyncio.sleep(0.05)
    assert probe.pid is not None and os.sched_getaffinity(probe.pid) == {cpu}
    await probe.stop()
    n = len(probe.samples)
    assert n >= 3 and all(ms > 0 and t0 < at < time.perf_counter() for at, ms in probe.samples)
    assert probe.between(t0, time.perf_counter())["n"] == n
    assert heard == [ms for _, ms in probe.samples]
    assert probe.between(t0 - 10, t0)["n"] == 0
    await asyncio.sleep(0.2)
    assert len(probe.samples) == n  # stopped: no more samples
    await probe.stop()  # a second stop does nothing


def test_the_child_exits_quietly_when_interrupted():
    child = subprocess.Popen([sys.executable, "-c", CHILD, "1000", "0.05"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None
    at, ms = child.stdout.readline().split()
    assert float(at) > 0 and float(ms) > 0
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=10)
    assert (child.returncode, err) == (0, b"")
