"""bench/paired.py: the two runs' command lines and the ratio table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bench.paired import compare, line, main, medians, procs_argv


def _result(**rows: tuple[float, float, float, int, int, bool]) -> dict:
    """``config=(offered, achieved, cpu ms/move, missed, busy, p99 ok)`` as a bench.procs
    JSON."""
    out: dict = {}
    for config, (offered, achieved, cpu, missed, busy, p99_ok) in rows.items():
        out.setdefault(config, {"rates": []})["rates"].append(
            {"offered_per_s": offered, "achieved_per_s": achieved,
             "bot_cpu_ms_per_move": cpu, "arrivals_missed": missed, "moves_busy": busy,
             "p99_ok": p99_ok})
    return out


def test_the_before_run_takes_the_checkout_and_both_take_the_same_options():
    extra = ["--window", "30", "--tries", "1"]
    assert procs_argv("sqlite", "20", Path("/t/b.json"), extra, "/work/before") == [
        sys.executable, "-m", "bench.procs", "--configs", "sqlite", "--rates", "20",
        "--out", "/t/b.json", "--window", "30", "--tries", "1", "--checkout", "/work/before"]
    assert procs_argv("sqlite", "20", Path("/t/a.json"), extra) == [
        sys.executable, "-m", "bench.procs", "--configs", "sqlite", "--rates", "20",
        "--out", "/t/a.json", "--window", "30", "--tries", "1"]


def test_ratio_is_after_over_before_and_a_run_that_did_not_keep_up_is_marked():
    kept = (20.0, 18.4, 20.0, 0, 0, True)
    before = _result(sqlite=kept, pg1=kept, pg2=(20.0, 18.3, 30.0, 0, 2, True), x=kept)
    after = _result(sqlite=(20.0, 18.5, 12.5, 0, 0, True), pg1=(20.0, 18.2, 15.0, 3, 0, True),
                    pg2=(20.0, 18.1, 20.0, 0, 0, True), x=(20.0, 18.1, 10.0, 0, 0, False))
    got = compare(before, after)
    assert got == [
        {"config": "sqlite", "offered": 20.0, "before": (18.4, 20.0), "after": (18.5, 12.5),
         "ratio": 0.625, "ok": True},
        {"config": "pg1", "offered": 20.0, "before": (18.4, 20.0), "after": (18.2, 15.0),
         "ratio": 0.75, "ok": False},  # after missed 3 arrivals
        {"config": "pg2", "offered": 20.0, "before": (18.3, 30.0), "after": (18.1, 20.0),
         "ratio": 0.667, "ok": False},  # before refused 2 moves as busy
        {"config": "x", "offered": 20.0, "before": (18.4, 20.0), "after": (18.1, 10.0),
         "ratio": 0.5, "ok": False}]  # after's click-to-table p99 over 1 s
    assert line(2, got[0]) == "    2 sqlite       20     18.4     20.00     18.5     12.50  0.625"
    assert line(2, got[1]).endswith("  0.750 !")


def test_options_each_run_needs_for_its_own_are_refused(capsys):
    for option in ("--out=/tmp/x.json", "--bot-logs", "--profile-bot"):
        with pytest.raises(SystemExit) as exit_:
            main(["--checkout", "/work/before", option, "/tmp/x"])
        assert exit_.value.code == 2
        assert f"{option}: each run of a pair has its own" in capsys.readouterr().err


def test_the_median_counts_only_rounds_where_both_kept_up():
    rounds = [{"config": "sqlite", "offered": 20.0, "ratio": r, "ok": ok}
              for r, ok in ((0.64, True), (0.62, True), (0.50, False), (0.66, True))]
    assert medians(rounds) == {("sqlite", 20.0): 0.64}
    assert medians([{"config": "pg1", "offered": 20.0, "ratio": None, "ok": True}]) == {}


def test_postgresql_without_a_bench_database_is_refused(monkeypatch, capsys):
    monkeypatch.delenv("HERDBOT_BENCH_DATABASE_URL", raising=False)
    with pytest.raises(SystemExit) as exit_:
        main(["--checkout", "/work/before", "--configs", "sqlite,pg1"])
    assert exit_.value.code == 2
    assert ("sqlite,pg1 needs HERDBOT_BENCH_DATABASE_URL (a PostgreSQL database the bench "
            "may make schemas in)") in capsys.readouterr().err
