"""bench/ai.py: the Hard-against-others match harness and the decision-time rows."""

from __future__ import annotations

import gc
import time
from typing import Any

from bench.ai import GcClock, _spec, decision_times, hard_policies, match, play_game


def test_match_reports_hard_wins_with_seats_rotated() -> None:
    out = match("llamas-alpacas", games=2, seed=3, players=2, other="random")
    assert {k: out[k] for k in ("game", "players", "games", "seed", "vs", "finished",
                                "hard_wins", "hard_win_rate")} == {
        "game": "llamas-alpacas", "players": 2, "games": 2, "seed": 3, "vs": "random",
        "finished": 2, "hard_wins": 2.0, "hard_win_rate": 1.0}


def test_play_game_times_only_the_timed_seats_real_decisions() -> None:
    spec = _spec("llamas-alpacas")
    assert spec.policy is not None
    times: list[float] = []
    result = play_game(spec, [hard_policies()["llamas-alpacas"], spec.policy], 3, times, 0)
    assert result is not None
    assert (result.winners, result.scores) == (["s0"], {"s0": 20, "s1": 18})
    assert len(times) == 29  # s0's decisions with more than one legal action
    assert all(0 < t < 5 for t in times)


def test_decision_times_count_the_hard_seats_real_decisions() -> None:
    out = decision_times("llamas-alpacas", games=1, seed=3, players=2)
    assert {k: out[k] for k in ("game", "players", "games", "seed", "decisions", "n")} == {
        "game": "llamas-alpacas", "players": 2, "games": 1, "seed": 3, "decisions": 29,
        "n": 29}
    assert 0 < out["p50_ms"] <= out["p99_ms"] <= out["max_ms"] < 5000


def _collecting_at(policy: Any, nth: int, burn_s: float = 0.0) -> Any:
    """``policy``, but its ``nth`` decision with more than one legal action first runs a
    full collection, then burns ``burn_s`` seconds of CPU."""
    calls = [0]

    def collecting(view: Any, legal: Any, rng: Any) -> Any:
        if len(legal) > 1:
            calls[0] += 1
            if calls[0] == nth:
                gc.collect()
                end = time.thread_time() + burn_s
                while time.thread_time() < end:
                    pass
        return policy(view, legal, rng)

    return collecting


def test_play_game_counts_the_garbage_collection_inside_each_timed_decision() -> None:
    """A policy that runs a full collection in its 2nd timed decision: exactly that
    decision holds collection time, and the clock saw one full pass per forced one."""
    spec = _spec("llamas-alpacas")
    assert spec.policy is not None
    collecting = _collecting_at(spec.policy, 2)
    times: list[float] = []
    gc_times: list[float] = []
    gc.disable()  # only the forced collection, none of the automatic ones
    try:
        with GcClock() as gcc:
            play_game(spec, [collecting, spec.policy], 3, times, 0, gcc, gc_times)
    finally:
        gc.enable()
    assert len(gcc.full) == 1
    assert len(gc_times) == len(times) > 2
    assert [i for i, t in enumerate(gc_times) if t > 0] == [1]
    assert gc_times[1] == gcc.total == gcc.full[0]
    assert GcClock not in [type(c) for c in gc.callbacks]


def test_decision_times_report_the_collection_inside_the_slowest_decision(monkeypatch) -> None:
    """Hard's 3rd timed decision runs a full collection and then burns 0.2 s of CPU, so it
    is the slowest: the row counts exactly that one full pass (automatic collection off)
    and reports its time as the time inside the slowest decision."""
    import bench.ai as bench_ai

    collecting = _collecting_at(hard_policies()["llamas-alpacas"], 3, burn_s=0.2)
    monkeypatch.setattr(bench_ai, "hard_policies", lambda: {"llamas-alpacas": collecting})
    gc.disable()
    try:
        out = decision_times("llamas-alpacas", games=1, seed=3, players=2)
    finally:
        gc.enable()
    assert (out["decisions"], out["gc_full"]) == (29, 1)
    assert out["max_ms"] >= 200
    assert 0 < out["gc_in_max_ms"] == out["gc_full_mean_ms"]
    assert out["gc_tracked"] > 10_000  # the interpreter, pydantic and the engines alone
