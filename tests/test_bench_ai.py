"""bench/ai.py: the Hard-against-others match harness and the decision-time rows."""

from __future__ import annotations

from bench.ai import _spec, decision_times, hard_policies, match, play_game


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
