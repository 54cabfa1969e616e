"""Fit the Llamas Unleashed Hard seat's leaf value (``bot/ai/unleashed_hard.py``,
``WEIGHTS_MANY``) on Normal self-play.

- :func:`samples`: seeded games with the Normal policy in every seat; at about one step in
  seven (a seeded draw) the per-seat :func:`~bot.ai.unleashed_hard.seat_features` of the
  state, and at the end each seat's share of the win (a victory shared by k: 1/k each).
- :func:`fit`: the weights ``w`` maximising the mean log-likelihood of a softmax over the
  seats, ``P(seat i wins) = exp(w . x_i) / sum_j exp(w . x_j)`` (full-batch Adam, a small
  L2 penalty); :func:`log_likelihood` scores weights on samples.

``python -m bench.unleashed_leaf --players 4 --games 800 --seed 100000`` prints the
weights and the log-likelihood on a held-out fifth (uniform guessing: ``-ln P``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys

from bot.ai.unleashed import heuristic_policy
from bot.ai.unleashed_hard import seat_features
from bot.games.unleashed.engine import UnleashedEngine
from bot.games.unleashed.models import UnleashedOptions

#: One sample: per seat its features, and per seat its share of the win.
Sample = tuple[list[list[float]], list[float]]


def samples(players: int, games: int, seed: int, rate: float = 0.15) -> list[Sample]:
    """Feature rows and win shares from ``games`` Normal self-play games (seeds ``seed``
    ..), each step after set-up kept with probability ``rate``; unfinished games (more
    than 5,000 steps) are left out."""
    engine = UnleashedEngine()
    out: list[Sample] = []
    for g in range(seed, seed + games):
        seats = [f"s{i}" for i in range(players)]
        st = engine.new_game(seats, seed=g, options=UnleashedOptions())
        rng = random.Random(g)
        kept: list[list[list[float]]] = []
        for _ in range(5_000):
            if engine.result(st) is not None:
                break
            seat = next(s for s in engine.pending(st).seats if engine.legal_actions(st, s))
            if st.phase != "setup" and rng.random() < rate:
                feats = seat_features(st)
                kept.append([feats[s] for s in seats])
            legal = engine.legal_actions(st, seat)
            engine.play(st, seat, heuristic_policy(engine.view(st, seat), legal, rng))
        res = engine.result(st)
        if res is None:
            continue
        shares = [1.0 / len(res.winners) if s in res.winners else 0.0 for s in seats]
        out.extend((x, shares) for x in kept)
    return out


def _probs(w: list[float], xs: list[list[float]]) -> list[float]:
    scores = [sum(a * b for a, b in zip(w, x, strict=True)) for x in xs]
    top = max(scores)
    e = [math.exp(v - top) for v in scores]
    z = sum(e)
    return [v / z for v in e]


def log_likelihood(w: list[float], data: list[Sample]) -> float:
    """Mean over samples of sum_i share_i * ln P(seat i wins) under weights ``w``."""
    total = 0.0
    for xs, ys in data:
        p = _probs(w, xs)
        total += sum(y * math.log(max(q, 1e-12)) for q, y in zip(p, ys, strict=True))
    return total / len(data)


def fit(data: list[Sample], steps: int = 300, lr: float = 0.05, l2: float = 1e-3
        ) -> list[float]:
    """Weights maximising :func:`log_likelihood` minus ``l2 * |w|^2 / 2`` (``steps``
    full-batch Adam steps of size ``lr`` from zero). Raises ``IndexError`` on no data."""
    k = len(data[0][0][0])
    w = [0.0] * k
    m = [0.0] * k
    v = [0.0] * k
    for t in range(1, steps + 1):
        g = [0.0] * k
        for xs, ys in data:
            p = _probs(w, xs)
            for x, y, q in zip(xs, ys, p, strict=True):
                d = y - q
                for j in range(k):
                    g[j] += d * x[j]
        for j in range(k):
            gj = g[j] / len(data) - l2 * w[j]
            m[j] = 0.9 * m[j] + 0.1 * gj
            v[j] = 0.999 * v[j] + 0.001 * gj * gj
            w[j] += lr * (m[j] / (1 - 0.9**t)) / (math.sqrt(v[j] / (1 - 0.999**t)) + 1e-8)
    return w


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.unleashed_leaf [--players P] [--games N] [--seed S]``."""
    ap = argparse.ArgumentParser(prog="python -m bench.unleashed_leaf")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=800)
    ap.add_argument("--seed", type=int, default=100_000)
    ns = ap.parse_args(argv)
    data = samples(ns.players, ns.games, ns.seed)
    random.Random(0).shuffle(data)
    cut = len(data) * 4 // 5
    w = fit(data[:cut])
    print(json.dumps({"players": ns.players, "games": ns.games, "seed": ns.seed,
                      "samples": len(data), "weights": [round(x, 3) for x in w],
                      "train_ll": round(log_likelihood(w, data[:cut]), 4),
                      "test_ll": round(log_likelihood(w, data[cut:]), 4),
                      "uniform_ll": round(-math.log(ns.players), 4)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
