"""bench.figures: the goodput table, and a row's counts of refusals, retries and moves
given up, with the click-to-table times from the committing click and the first try."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace

from bench.figures import (
    Figures,
    burst_bucket,
    busy_clicks,
    per_busy_answer,
    rates_table,
    recovered_after,
)
from bench.schedule import Move
from bot.discord.errors import BUSY


def row(offered: float, achieved: float, p50: float | None, cpu: float | None,
        **more: float) -> dict:
    return {**more, "offered_per_s": offered, "achieved_per_s": achieved, "moves": 12,
            "moves_made": 7, "click_to_table": {"p50_ms": p50, "p99_ms": p50},
            "first_try_to_table": {"p50_ms": p50, "p99_ms": None if p50 is None else 4500.0},
            "late_acks": 0, "moves_busy": 2, "retries": 4, "moves_abandoned": 1,
            "moves_errors": 3, "bot_cpu_ms_per_move": cpu, "loadavg_start": [1.0],
            "loadavg_end": [2.0]}


def test_a_row_with_no_move_shown_prints_dashes():
    lines = rates_table([row(10, 9.5, 20.0, 16.0), row(40, 0.0, None, None)])
    assert lines[0].split() == ["offered", "achieved", "of", "peak", "moves", "made", "p50",
                                "ms", "p99", "ms", "1st", "p99", "late", "busy", "retries",
                                "gave", "up", "errors", "busy/mv", "CPU/move", "x", "bot",
                                "harness", "probe", "p90", "load", "avg",
                                "start", "->", "end"]
    assert lines[1].split() == ["10", "9.5", "100%", "12", "7", "20", "20", "4500", "0",
                                "2", "4", "1", "3", "-", "16", "1.00", "-", "-", "-", "-",
                                "[1.0]", "->", "[2.0]"]
    assert lines[2].split() == ["40", "0", "0%", "12", "7", "-", "-", "-", "0", "2", "4",
                                "1", "3", "-", "-", "-", "-", "-", "-", "-", "[1.0]", "->",
                                "[2.0]"]


def test_a_row_of_the_process_bench_prints_the_cores_bot_and_harness_used():
    lines = rates_table([row(20, 19.0, 30.0, 14.0, bot_cpu_share=0.27, harness_cpu_share=0.6),
                         row(40, 36.0, 40.0, 16.8, bot_cpu_share=0.6, harness_cpu_share=1.1)])
    assert [line.split()[13:19] for line in lines[1:]] == [
        ["-", "14", "1.00", "0.27", "0.6", "-"], ["-", "16.8", "1.20", "0.6", "1.1", "-"]]


def test_a_row_with_busy_answers_and_a_cpu_probe_prints_busy_answers_per_move_and_the_probe():
    lines = rates_table([row(20, 19.0, 30.0, 14.0, moves_shown=570, busy_answers=0,
                             cpu_probe={"n": 56, "p50_ms": 22.6, "p90_ms": 34.9}),
                         row(60, 22.6, 40.0, 13.3, moves_shown=678, busy_answers=2840,
                             cpu_probe={"n": 57, "p50_ms": 23.1, "p90_ms": 35.1}),
                         row(40, 0.0, None, None, moves_shown=0, busy_answers=2500,
                             noisy=True)])
    assert [line.split()[13] for line in lines[1:]] == ["0", "4.19", "-"]
    assert [line.split()[18:20] for line in lines[1:]] == [
        ["22.6", "34.9"], ["23.1", "35.1"], ["-", "-"]]
    assert [line.endswith("  noisy") for line in lines[1:]] == [False, False, True]


def test_a_row_with_a_steady_quota_prints_its_steady_cpu_per_move_and_scale():
    lines = rates_table([row(10, 9.0, 30.0, 15.0, bot_cpu_ms_per_move_steady=12.0,
                             quota_scale=1.25),
                         row(60, 27.0, 40.0, 20.4, bot_cpu_ms_per_move_steady=13.2,
                             quota_scale=1.54)])
    assert [line.split()[14:16] for line in lines[1:]] == [["12", "1.00"], ["13.2", "1.10"]]
    assert [line.endswith(end) for line, end in zip(lines[1:], ("  scale 1.25", "  scale 1.54"),
                                                    strict=True)] == [True, True]


class _Click:
    """An interaction as the bench's hooks leave it: dispatched at ``t0``, acknowledged
    20 ms later, its writes (time, public, channel, own, by_token)."""

    failed = False

    def __init__(self, t0: float, writes: Sequence[tuple] = (), busy: bool = False,
                 panel: bool = False):
        self.bench_t0, self.bench_ack = t0, t0 + 0.02
        self.bench_writes = list(writes)
        self.original, self.followups = None, list[object]()
        self.last_touched = SimpleNamespace(text=BUSY if busy else "Your move.")
        self.message = SimpleNamespace(ephemeral=panel)


class _Bench(Figures):
    ATTRIBUTION = "own"
    games: list = []


def moves() -> list[Move]:
    """Window 0-10 s: a move made at once; one refused as busy, made 4 s later on its second
    try; one given up after three busy refusals (a public write charged to its last click
    does not make it a table); one whose driver failed; one whose first try is after the
    window."""
    made = Move("pacapaca", 1.0, [_Click(1.0, [(1.25, True, 7, True, True)])],
                t_commit=1.0, t_try=1.0, try_its=1, finished=True)
    retried = Move("llamas-alpacas", 2.0, [_Click(2.0), _Click(6.0, [(6.5, True, 8, True, True)])],
                   t_commit=6.0, t_try=6.0, try_its=1, tries=2, busy=1, finished=True)
    given_up = Move("llamas-unleashed", 3.0,
                    [_Click(3.0), _Click(6.0), _Click(9.0, [(9.1, True, 9, True, True)])],
                    t_commit=9.0, t_try=9.0, try_its=1, tries=3, busy=3, abandoned=True,
                    finished=True)
    failed = Move("pacapaca", 4.0, [_Click(4.0)], t_commit=4.0, t_try=4.0, try_its=1,
                  error="pacapaca: AssertionError: no component", finished=True)
    later = Move("pacapaca", 12.0, [_Click(12.0, [(12.5, True, 7, True, True)])],
                 t_commit=12.0, t_try=12.0, try_its=1, finished=True)
    return [made, retried, given_up, failed, later]


def test_a_row_counts_refusals_retries_and_moves_given_up():
    cpu = {"bot": 1.0, "handles": 10.0}
    r = _Bench().figures(5.0, 65, 1.0, moves(), [], (0.0, 10.0), cpu, 100.0, 50, 0, [],
                         [0.5])
    assert (r["moves"], r["moves_made"], r["moves_shown"], r["achieved_per_s"]) == (4, 2, 2, 0.2)
    assert (r["moves_busy"], r["retries"], r["moves_abandoned"], r["moves_errors"],
            r["moves_unanswered"], r["moves_unfinished"]) == (2, 3, 1, 1, 0, 0)
    # From the committing click: 250 and 500 ms; from the first try: 250 ms and 4.5 s.
    assert r["click_to_table"] == {"n": 2, "p50_ms": 250.0, "p99_ms": 500.0,
                                   "mean_ms": 375.0, "max_ms": 500.0}
    assert r["first_try_to_table"] == {"n": 2, "p50_ms": 250.0, "p99_ms": 4500.0,
                                       "mean_ms": 2375.0, "max_ms": 4500.0}
    # Every try's clicks count: 1 + 2 + 3 + 1 interactions, none late.
    assert (r["interactions"], r["late_acks"], r["interactions_per_move"]) == (7, 0, 1.75)
    assert r["moves_by_game"] == {
        "llamas-alpacas": {"moves": 1, "made": 1, "interactions": 2},
        "llamas-unleashed": {"moves": 1, "made": 0, "interactions": 3},
        "pacapaca": {"moves": 2, "made": 1, "interactions": 2}}


def test_busy_clicks_are_told_apart_by_their_step_their_message_and_their_move():
    """A move made on its second try, its first refused at the panel's step; a move given
    up after three refused openers; a move made at once."""
    retried = Move("llamas-unleashed", 1.0, [
        _Click(1.0), _Click(1.2, busy=True, panel=True), _Click(4.0), _Click(4.2, panel=True)])
    given_up = Move("pacapaca", 2.0, [_Click(t, busy=True) for t in (2.0, 5.0, 8.0)],
                    abandoned=True)
    made = Move("pacapaca", 3.0, [_Click(3.0)])
    assert busy_clicks([retried, given_up, made]) == {
        "first": 3, "later": 1, "on_panel": 1, "in_made": 1, "in_given_up": 3}


def test_a_burst_bucket_leaves_the_moves_opening_a_rules_wait_out_of_its_p99():
    """Three moves made (one quick, one 0.8 s, one Unleashed pass that left its reaction
    window open and so has no table of its own until the window closes), one given up."""
    quick = Move("pacapaca", 1.0, [_Click(1.0)], t_commit=1.0, t_table=1.2, finished=True)
    slow = Move("llamas-alpacas", 2.0, [_Click(2.0)], t_commit=2.0, t_table=2.8, finished=True)
    passed = Move("llamas-unleashed", 3.0, [_Click(3.0)], t_commit=3.0,
                  opens_wait="reaction", finished=True)
    gave_up = Move("pacapaca", 4.0, [_Click(4.0)], t_commit=4.0, busy=1, abandoned=True,
                   finished=True)
    b = burst_bucket([quick, slow, passed, gave_up], now=13.0, start=5.0, loadavg=[1.5])
    assert {k: b[k] for k in ("start_s", "moves", "errors", "busy", "retries", "late", "shown",
                              "opened_wait", "p99_ms", "p99_no_wait_ms", "loadavg")} == {
        "start_s": 5.0, "moves": 4, "errors": 1, "busy": 1, "retries": 0, "late": 0,
        "shown": 2, "opened_wait": 1, "p99_ms": 10000.0, "p99_no_wait_ms": 800.0,
        "loadavg": [1.5]}
    assert (b["slowest"]["game"], b["slowest"]["wait_ms"]) == ("llamas-alpacas", 800.0)
    assert recovered_after([{"start_s": -5.0, "p99_ms": 9000.0, "p99_no_wait_ms": 9000.0},
                            {"start_s": 0.0, "p99_ms": 9000.0, "p99_no_wait_ms": 1500.0},
                            b,
                            {"start_s": 10.0, "p99_ms": 900.0, "p99_no_wait_ms": 900.0}]) == 5.0
    assert recovered_after([b, {"start_s": 10.0, "p99_ms": 0.0, "p99_no_wait_ms": 1001.0}]) is None


def test_a_refusing_window_gives_the_bot_cpu_per_busy_answer():
    assert per_busy_answer({"moves_shown": 0, "busy_answers": 2500, "bot_cpu_s": 2.32}) == 0.928
    assert per_busy_answer({"moves_shown": 3, "busy_answers": 2500, "bot_cpu_s": 2.32}) == 0.928
    assert per_busy_answer({"moves_shown": 0, "busy_answers": 0, "bot_cpu_s": 2.32}) is None
    assert per_busy_answer({"moves_shown": 0, "busy_answers": 10}) is None
