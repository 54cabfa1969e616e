"""bench/unleashed_leaf.py: the Normal self-play samples and the fit of the Unleashed Hard
seat's leaf value."""

from __future__ import annotations

import math

from bench.unleashed_leaf import fit, log_likelihood, samples


def test_samples_give_every_seat_features_and_the_win_shares() -> None:
    data = samples(4, 2, seed=1)
    assert len(data) == 41
    for xs, ys in data:
        assert len(xs) == 4 and all(len(x) == 14 for x in xs)
        assert sum(ys) == 1.0 and sorted(ys) == [0.0, 0.0, 0.0, 1.0]


def test_fit_beats_uniform_guessing_on_its_own_samples() -> None:
    data = samples(4, 2, seed=1)
    assert round(log_likelihood([0.0] * 14, data), 4) == round(-math.log(4), 4)
    w = fit(data, steps=40)
    assert len(w) == 14
    assert log_likelihood(w, data) > -math.log(4) + 0.05
