"""bench.figures: the goodput table prints a row that achieved nothing."""

from __future__ import annotations

from bench.figures import rates_table


def row(offered: float, achieved: float, p50: float | None, cpu: float | None) -> dict:
    return {"offered_per_s": offered, "achieved_per_s": achieved,
            "click_to_table": {"p50_ms": p50, "p99_ms": p50},
            "late_acks": 0, "moves_busy": 2, "moves_errors": 5,
            "bot_cpu_ms_per_move": cpu, "loadavg_start": [1.0], "loadavg_end": [2.0]}


def test_a_row_with_no_move_shown_prints_dashes():
    lines = rates_table([row(10, 9.5, 20.0, 16.0), row(40, 0.0, None, None)])
    assert lines[1].split() == ["10", "9.5", "100%", "20", "20", "0", "2", "3", "16",
                                "1.00", "[1.0]", "->", "[2.0]"]
    assert lines[2].split() == ["40", "0", "0%", "-", "-", "0", "2", "3", "-", "-",
                                "[1.0]", "->", "[2.0]"]
