"""Engine figures: random playouts per second (one core) and ``apply`` p50/p99 per game."""

from __future__ import annotations

import random
import time
from typing import Any

from bench.common import summary_ms
from bot.games.registry import GameSpec, builtin_games

#: A playout longer than this many actions is cut (and counted as unfinished).
STEP_CAP = 20_000


def new_state(spec: GameSpec, players: int, seed: int) -> Any:
    """A fresh state of ``spec`` for ``players`` seats ``s0..``."""
    seats = [f"s{i}" for i in range(players)]
    fields = spec.options_model.model_fields
    raw = {"players": players} if "players" in fields else {}
    return spec.engine.new_game(seats, seed=seed, options=spec.options_model.model_validate(raw))


def playout(spec: GameSpec, players: int, seed: int, apply_times: list[float]) -> tuple[int, bool]:
    """One game where every decision is a uniformly random legal action; appends each
    ``apply`` duration (s) to ``apply_times``; returns (actions applied, finished)."""
    engine = spec.engine
    state = new_state(spec, players, seed)
    rand = random.Random(seed)
    steps = 0
    clock = time.perf_counter
    while engine.result(state) is None and steps < STEP_CAP:
        pending = engine.pending(state)
        choice = None
        for seat in pending.seats:
            legal = engine.legal_actions(state, seat)
            if legal:
                choice = (seat, rand.choice(legal))
                break
        if choice is None:
            break
        t0 = clock()
        state, _ = engine.apply(state, *choice)
        apply_times.append(clock() - t0)
        steps += 1
    return steps, engine.result(state) is not None


def bench_engine(budget_s: float) -> list[dict[str, Any]]:
    """Per game and player count (min and max), run random playouts for ``budget_s``
    seconds; return one row each with playouts/s, actions/s and apply p50/p99 (ms)."""
    rows = []
    for spec in builtin_games():
        for players in sorted({spec.min_players, spec.max_players}):
            applies: list[float] = []
            games = finished = actions = 0
            seed = 1000
            start = time.perf_counter()
            while time.perf_counter() - start < budget_s or games == 0:
                steps, done = playout(spec, players, seed, applies)
                games += 1
                finished += done
                actions += steps
                seed += 1
            seconds = time.perf_counter() - start
            rows.append({
                "game": spec.key, "players": players, "playouts": games,
                "finished": finished, "seconds": round(seconds, 3),
                "playouts_per_s": round(games / seconds, 2),
                "actions_per_playout": round(actions / games, 1),
                "apply": summary_ms(applies),
            })
    return rows
