"""The sandbox's idle grace grows with the machine's load per core."""

from __future__ import annotations

import pytest

from bot.sandbox import runner


@pytest.mark.parametrize(("load", "cores", "grace"), [
    (0.5, 2, 2.0),   # a quiet machine: the base
    (2.0, 2, 2.0),   # one runnable task per core
    (6.0, 2, 6.0),   # 3 per core: three times the base
    (40.0, 2, 10.0),  # capped
])
def test_idle_grace_is_the_base_times_the_load_per_core_capped(monkeypatch, load, cores, grace):
    monkeypatch.setattr(runner.os, "getloadavg", lambda: (load, 0.0, 0.0))
    monkeypatch.setattr(runner.os, "cpu_count", lambda: cores)
    assert runner.idle_grace() == grace


def test_idle_grace_without_a_load_average_is_the_base(monkeypatch):
    def no_load() -> tuple[float, float, float]:
        raise OSError("no load average")

    monkeypatch.setattr(runner.os, "getloadavg", no_load)
    assert runner.idle_grace() == 2.0
