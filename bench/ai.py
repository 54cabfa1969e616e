"""AI figures: the Hard seats' decision time and their results against Normal.

- :func:`bench_ai` (``python -m bench --only ai``): per game at 2 and 4 players, the CPU
  time (``time.thread_time``: one core, whatever else the machine runs) of every Hard
  decision with more than one legal action in a few seeded games of one Hard seat against
  Normal seats; p50/p99/max in ms.
- :func:`match` / ``python -m bench.ai GAME --games N --players P``: seeded games of one
  Hard seat against Normal seats, the Hard seat rotated through the seats (the game of
  seed ``s`` puts it in seat ``s % P``); reports Hard's wins (a victory shared by k
  counts 1/k).
  ``--jobs 2`` splits the seeds over two processes (same games, same result).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from bench.common import summary_ms
from bot.ai import llamas_alpacas_hard, pacapaca_hard, unleashed_hard
from bot.app import builtin_games
from bot.games.registry import GameSpec

#: A game longer than this many actions is counted as unfinished.
STEP_CAP = 5_000


def hard_modules() -> dict[str, Any]:
    """Game key -> the module of its Hard seat (``hard_policy``, ``BUDGET``)."""
    return {"llamas-alpacas": llamas_alpacas_hard, "pacapaca": pacapaca_hard,
            "llamas-unleashed": unleashed_hard}


def hard_policies() -> dict[str, Callable[..., Any]]:
    """Game key -> the Hard policy."""
    return {k: m.hard_policy for k, m in hard_modules().items()}


def _spec(key: str) -> GameSpec:
    return next(s for s in builtin_games() if s.key == key)


class GcClock:
    """``with GcClock() as gcc:`` the thread CPU seconds the garbage collector spends
    while the block runs (``gc.callbacks``): ``total``, and ``full``, the duration of each
    full (generation 2) collection."""

    def __init__(self) -> None:
        self.total = 0.0
        self.full: list[float] = []
        self._start: float | None = None

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        now = time.thread_time()
        if phase == "start":
            self._start = now
        elif self._start is not None:
            took = now - self._start
            self.total += took
            if info["generation"] == 2:
                self.full.append(took)
            self._start = None

    def __enter__(self) -> GcClock:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def play_game(spec: GameSpec, policies: list[Callable[..., Any]], seed: int,
              times: list[float] | None = None, timed_seat: int | None = None,
              gc_clock: GcClock | None = None, gc_times: list[float] | None = None) -> Any:
    """One game, ``policies[i]`` in seat ``s{i}``, each with its own RNG seeded from
    ``seed``; returns the :class:`Result` (``None`` when unfinished). When ``times`` is
    given, the CPU seconds of every decision of seat ``timed_seat`` with more than one
    legal action are appended to it; with ``gc_clock`` (entered) and ``gc_times``, the
    seconds of garbage collection inside each of those decisions too."""
    engine = spec.engine
    n = len(policies)
    seats = [f"s{i}" for i in range(n)]
    fields = spec.options_model.model_fields
    raw = {"players": n} if "players" in fields else {}
    state = engine.new_game(seats, seed=seed, options=spec.options_model.model_validate(raw))
    rngs = [random.Random(seed * 31 + i) for i in range(n)]
    steps = 0
    clock = time.thread_time
    while engine.result(state) is None and steps < STEP_CAP:
        seat = next((s for s in engine.pending(state).seats if engine.legal_actions(state, s)),
                    None)
        if seat is None:
            break
        i = seats.index(seat)
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        gc0 = gc_clock.total if gc_clock is not None else 0.0
        t0 = clock()
        action = policies[i](view, legal, rngs[i])
        if times is not None and i == timed_seat and len(legal) > 1:
            times.append(clock() - t0)
            if gc_clock is not None and gc_times is not None:
                gc_times.append(gc_clock.total - gc0)
        engine.play(state, seat, action)
        steps += 1
    return engine.result(state)


def _match_part(args: tuple[str, int, list[int], str, dict[str, int]]) -> dict[str, Any]:
    key, players, seeds, other, budget = args
    if budget:  # tuning runs: another search size than the shipped one
        mod = hard_modules()[key]
        name = "BUDGET_MANY" if players > 2 and hasattr(mod, "BUDGET_MANY") else "BUDGET"
        setattr(mod, name, replace(getattr(mod, name), **budget))
    spec = _spec(key)
    hard = hard_policies()[key]
    normal = spec.policy
    assert normal is not None
    opponent: Callable[..., Any] = normal
    if other == "random":
        opponent = lambda v, legal, r: r.choice(legal)  # noqa: E731
    wins = 0.0
    finished = 0
    for seed in seeds:
        seat = seed % players
        pols = [opponent] * players
        pols[seat] = hard
        res = play_game(spec, pols, seed)
        if res is None:
            continue
        finished += 1
        if f"s{seat}" in res.winners:
            wins += 1.0 / len(res.winners)
    return {"games": len(seeds), "finished": finished, "hard_wins": wins}


def match(key: str, *, games: int, seed: int, players: int, jobs: int = 1,
          other: str = "normal", budget: dict[str, int] | None = None) -> dict[str, Any]:
    """``games`` seeded games (seeds ``seed ..``), one Hard seat against ``other``
    ("normal" or "random") in the rest, Hard in seat ``seed % players``; Hard's share of
    the wins. ``budget`` (``iterations``/``depth``) overrides the Hard seat's search size
    (tuning only; from 3 players its ``BUDGET_MANY`` when it has one)."""
    seeds = list(range(seed, seed + games))
    t0 = time.perf_counter()
    parts = [seeds[i::jobs] for i in range(jobs)]
    args = [(key, players, p, other, budget or {}) for p in parts]
    if jobs <= 1:
        out = [_match_part(args[0])]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            out = list(pool.map(_match_part, args))
    wins = sum(o["hard_wins"] for o in out)
    finished = sum(o["finished"] for o in out)
    return {"game": key, "players": players, "games": games, "seed": seed, "vs": other,
            "finished": finished, "hard_wins": round(wins, 2),
            "hard_win_rate": round(wins / games, 4) if games else 0.0,
            "seconds": round(time.perf_counter() - t0, 1)}


def bench_ai(games: int = 3) -> list[dict[str, Any]]:
    """Per game at 2 and 4 players: the Hard seat's decision CPU time (ms p50/p99/max)
    over ``games`` seeded games against Normal seats, Hard rotated through the seats."""
    rows = []
    for key, hard in hard_policies().items():
        spec = _spec(key)
        assert spec.policy is not None
        for players in (2, 4):
            times: list[float] = []
            for g in range(games):
                seat = g % players
                pols = [spec.policy] * players
                pols[seat] = hard
                play_game(spec, pols, 7000 + g, times, seat)
            rows.append({"game": key, "players": players, "decisions": len(times),
                         **summary_ms(times)})
    return rows


def decision_times(key: str, *, games: int, seed: int, players: int) -> dict[str, Any]:
    """The Hard seat's decision CPU time (``time.thread_time``, ms p50/p99/mean/max) over
    ``games`` seeded games (seeds ``seed ..``) of one Hard seat against Normal seats, Hard
    in seat ``i % players`` in the i-th game; decisions with one legal action left out.
    Garbage collection, which lands inside decisions: ``gc_full`` the number of full
    collections in the run and ``gc_full_mean_ms`` their mean duration, ``gc_in_max_ms``
    the collection time inside the slowest decision, ``gc_tracked`` the objects the
    collector tracks at the end (what a full collection walks)."""
    spec = _spec(key)
    hard = hard_policies()[key]
    assert spec.policy is not None
    times: list[float] = []
    gc_times: list[float] = []
    with GcClock() as gcc:
        for g in range(games):
            seat = g % players
            pols = [spec.policy] * players
            pols[seat] = hard
            play_game(spec, pols, seed + g, times, seat, gcc, gc_times)
    slowest = max(range(len(times)), key=times.__getitem__) if times else None
    return {"game": key, "players": players, "games": games, "seed": seed,
            "decisions": len(times), **summary_ms(times), "gc_full": len(gcc.full),
            "gc_full_mean_ms": (round(sum(gcc.full) / len(gcc.full) * 1000, 1)
                                if gcc.full else None),
            "gc_in_max_ms": round(gc_times[slowest] * 1000, 1) if slowest is not None else None,
            "gc_tracked": len(gc.get_objects())}


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.ai GAME [--games N] [--seed S] [--players P] [--jobs J]``;
    ``--timing``: the Hard seat's decision times instead of the win rate."""
    ap = argparse.ArgumentParser(prog="python -m bench.ai")
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--vs", default="normal", choices=("normal", "random"))
    ap.add_argument("--iterations", type=int, help="tuning: playouts per decision")
    ap.add_argument("--depth", type=int, help="tuning: decisions per playout")
    ap.add_argument("--timing", action="store_true",
                    help="decision CPU times of the Hard seat (one process)")
    ns = ap.parse_args(argv)
    if ns.timing:
        print(json.dumps(decision_times(ns.game, games=ns.games, seed=ns.seed,
                                        players=ns.players)))
        return 0
    budget = {k: v for k, v in (("iterations", ns.iterations), ("depth", ns.depth)) if v}
    out = match(ns.game, games=ns.games, seed=ns.seed, players=ns.players, jobs=ns.jobs,
                other=ns.vs, budget=budget)
    print(json.dumps({**out, **({"budget": budget} if budget else {})}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
