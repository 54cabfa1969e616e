"""bench.procs: each rate on new bot processes with ``--fresh``, the rows and burst merged."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bench import procs


def test_fresh_runs_each_rate_and_the_burst_on_new_bot_processes(monkeypatch, capsys):
    runs: list[tuple[str, tuple[float, ...], Any, Any]] = []

    async def fake_run(name, pg, rates, warmup, window, o, burst, label=None):
        runs.append((name, rates, burst, label))
        out: dict[str, Any] = {"rates": [_row(r) for r in rates],
                               "driver_errors": {"refused": len(rates) + 1,
                                                 f"timeout {label}": 1}}
        if burst is not None:
            out["burst"] = {"recovered_s": 10.0}
        return out

    monkeypatch.setattr(procs, "_run", fake_run)
    o = procs.Options(fresh=True, burst=(10.0, 40.0, 60.0))
    result = asyncio.run(procs._config("sqlite", "", (10.0, 20.0), 15.0, 30.0, o))
    assert runs == [("sqlite", (10.0,), None, "10"), ("sqlite", (20.0,), None, "20"),
                    ("sqlite", (), (10.0, 40.0, 60.0), "burst")]
    assert [r["offered_per_s"] for r in result["rates"]] == [10.0, 20.0]
    assert result["burst"] == {"recovered_s": 10.0}
    assert list(result["driver_errors"].items()) == [
        ("refused", 5), ("timeout 10", 1), ("timeout 20", 1), ("timeout burst", 1)]
    assert result["fresh"] is True
    assert "each rate from new bot processes and games" in capsys.readouterr().out


def test_without_fresh_the_rates_and_burst_share_one_run(monkeypatch):
    runs: list[tuple[tuple[float, ...], Any]] = []

    async def fake_run(name, pg, rates, warmup, window, o, burst, label=None):
        runs.append((rates, burst))
        return {"rates": [_row(r) for r in rates], "burst": {"recovered_s": 5.0},
                "driver_errors": {}}

    monkeypatch.setattr(procs, "_run", fake_run)
    o = procs.Options(burst=(10.0, 40.0, 60.0))
    result = asyncio.run(procs._config("sqlite", "", (10.0, 20.0), 15.0, 30.0, o))
    assert runs == [((10.0, 20.0), (10.0, 40.0, 60.0))]
    assert result["fresh"] is False
    assert len(result["rates"]) == 2


def test_postgres_configs_are_skipped_without_a_database_url(capsys):
    assert asyncio.run(procs._config("pg1", "", (10.0,), 1.0, 1.0, procs.Options())) is None
    assert "skipped" in capsys.readouterr().out


def _row(rate: float) -> dict[str, Any]:
    """A goodput row as :func:`bench.figures.rates_table` reads it."""
    return {"offered_per_s": rate, "achieved_per_s": rate * 0.9, "moves": 10, "moves_made": 10,
            "click_to_table": {"p50_ms": 10.0, "p99_ms": 20.0},
            "first_try_to_table": {"p99_ms": 30.0}, "late_acks": 0, "moves_busy": 0,
            "retries": 0, "moves_abandoned": 0, "moves_errors": 0,
            "bot_cpu_ms_per_move": 12.0, "bot_cpu_share": 0.1, "harness_cpu_share": 0.1,
            "loadavg_start": [0.1, 0.1, 0.1], "loadavg_end": [0.1, 0.1, 0.1]}


def test_a_rate_whose_probe_met_a_slower_cpu_is_run_again(monkeypatch, capsys):
    """``--quiet-probe 26``: 20/s runs until its probe p90 is at most 26 ms; 10/s, over it
    each time, is kept from its last run and marked noisy."""
    p90s = {"10": [30.0, 31.0], "20": [34.1, 20.7]}
    runs: list[str] = []

    async def fake_run(name, pg, rates, warmup, window, o, burst, label=None):
        runs.append(label)
        if burst is not None:
            return {"rates": [], "burst": {"recovered_s": 5.0}, "driver_errors": {}}
        row = _row(rates[0]) | {"cpu_probe": {"p50_ms": 20.0, "p90_ms": p90s[label].pop(0)}}
        return {"rates": [row], "driver_errors": {}}

    monkeypatch.setattr(procs, "_run", fake_run)
    o = procs.Options(fresh=True, burst=(10.0, 40.0, 60.0), quiet_probe_ms=26.0, quiet_tries=2)
    result = asyncio.run(procs._config("sqlite", "", (10.0, 20.0), 15.0, 30.0, o))
    assert runs == ["10", "10", "20", "20", "burst"]
    assert [(r["offered_per_s"], r["cpu_probe"]["p90_ms"], r["probe_runs"], r.get("noisy"))
            for r in result["rates"]] == [(10.0, 31.0, 2, True), (20.0, 20.7, 2, None)]
    assert [(r["offered_per_s"], r["cpu_probe"]["p90_ms"]) for r in result["noisy_rows"]] == [
        (10.0, 30.0), (20.0, 34.1)]
    out = capsys.readouterr().out
    assert "  10/s: CPU probe p90 30 ms, over 26: run again (2 of 2)\n" in out
    assert "  20/s: CPU probe p90 34.1 ms, over 26: run again (2 of 2)\n" in out
    assert result["burst"] == {"recovered_s": 5.0}


def test_quiet_probe_needs_fresh(capsys):
    with pytest.raises(SystemExit):
        procs.main(["--quiet-probe", "26", "--rates", "10"])
    assert "--quiet-probe needs --fresh" in capsys.readouterr().err


def test_before_runs_each_rate_and_the_burst_just_before_this_checkout(monkeypatch, capsys):
    """``--before /b``: each rate, then the burst, on the bot from ``/b`` and then on this
    one's; a side reruns its own noisy rate; each side keeps its rows, burst and errors."""
    runs: list[tuple[str, Any]] = []
    p90s = {"before-10": [20.0], "10": [30.0, 21.0], "before-20": [22.0], "20": [23.0]}

    async def fake_run(name, pg, rates, warmup, window, o, burst, label=None):
        runs.append((label, o.checkout))
        if burst is not None:
            return {"rates": [], "burst": {"recovered_s": 5.0 if o.checkout else 10.0},
                    "driver_errors": {label: 1}}
        row = _row(rates[0]) | {"cpu_probe": {"p50_ms": 20.0, "p90_ms": p90s[label].pop(0)}}
        return {"rates": [row], "driver_errors": {label: 1}}

    monkeypatch.setattr(procs, "_run", fake_run)
    o = procs.Options(fresh=True, burst=(10.0, 40.0, 60.0), quiet_probe_ms=26.0,
                      before=Path("/b"))
    result = asyncio.run(procs._config("sqlite", "", (10.0, 20.0), 15.0, 30.0, o))
    b = Path("/b")
    assert runs == [("before-10", b), ("10", None), ("10", None), ("before-20", b),
                    ("20", None), ("before-burst", b), ("burst", None)]
    assert [(r["offered_per_s"], r["cpu_probe"]["p90_ms"], r["probe_runs"])
            for r in result["rates"]] == [(10.0, 21.0, 2), (20.0, 23.0, 1)]
    assert [r["cpu_probe"]["p90_ms"] for r in result["noisy_rows"]] == [30.0]
    assert [(r["offered_per_s"], r["cpu_probe"]["p90_ms"], r["probe_runs"])
            for r in result["before"]["rates"]] == [(10.0, 20.0, 1), (20.0, 22.0, 1)]
    assert "noisy_rows" not in result["before"]
    assert result["burst"] == {"recovered_s": 10.0}
    assert result["before"]["burst"] == {"recovered_s": 5.0}
    assert result["driver_errors"] == {"10": 1, "20": 1, "burst": 1}
    assert result["before"]["driver_errors"] == {"before-10": 1, "before-20": 1,
                                                 "before-burst": 1}
    out = capsys.readouterr().out
    assert ", each just after the bot from /b" in out
    assert out.index("sqlite: goodput against offered load, bot from /b\n") < out.index(
        "sqlite: goodput against offered load\n")


def test_before_needs_fresh(capsys):
    with pytest.raises(SystemExit):
        procs.main(["--before", "/b", "--rates", "10"])
    assert "--before needs --fresh" in capsys.readouterr().err


def test_before_is_refused_with_a_profile(capsys):
    with pytest.raises(SystemExit):
        procs.main(["--before", "/b", "--fresh", "--profile-bot", "/p", "--rates", "10"])
    assert "--before and --profile-bot: profile one checkout at a time" in (
        capsys.readouterr().err)


@pytest.mark.parametrize("option", ["--before", "--checkout"])
def test_a_folder_that_is_not_a_checkout_is_refused(option, tmp_path, capsys):
    with pytest.raises(SystemExit):
        procs.main([option, str(tmp_path), "--fresh", "--rates", "10"])
    assert f"{option} {tmp_path}: not a herdbot checkout (no bot/__main__.py)" in (
        capsys.readouterr().err)
