"""Engine figures: random playouts per second (one core) and ``apply`` p50/p99 per game.

A random playout starts from ``new_game`` and, until ``result`` is set, asks ``pending``
who decides, takes the first of those seats with a non-empty ``legal_actions`` and plays a
uniformly random action of that list. Two ways to carry the action out are measured with
the same policy and seeds (so the same games):

- ``play``: the engines' playout path (in place, no events; what simulations and AI
  search use); this is the figure the issues' playouts/s targets are checked against;
- ``apply``: the runtime's path (a new state and the events in words for every action),
  timed per call for the ``apply`` p50/p99 and as whole playouts.

``playouts_per_s`` is the median of :data:`ROUNDS` rounds with new seeds each round.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.common import summary_ms
from bot.app import builtin_games
from bot.games.registry import GameSpec

#: A playout longer than this many actions is cut (and counted as unfinished).
STEP_CAP = 20_000


def new_state(spec: GameSpec, players: int, seed: int) -> Any:
    """A fresh state of ``spec`` for ``players`` seats ``s0..``."""
    seats = [f"s{i}" for i in range(players)]
    fields = spec.options_model.model_fields
    raw = {"players": players} if "players" in fields else {}
    return spec.engine.new_game(seats, seed=seed, options=spec.options_model.model_validate(raw))


def _random_game(
    spec: GameSpec, players: int, seed: int, step: Callable[[Any, str, Any], Any]
) -> tuple[int, bool]:
    """One random game: ``step(state, seat, action)`` carries each action out and returns
    the state to go on with; returns (actions carried out, finished)."""
    engine = spec.engine
    state = new_state(spec, players, seed)
    rand = random.Random(seed)
    steps = 0
    result = engine.result(state)
    while result is None and steps < STEP_CAP:
        choice = None
        for seat in engine.pending(state).seats:
            legal = engine.legal_actions(state, seat)
            if legal:
                choice = (seat, rand.choice(legal))
                break
        if choice is None:
            break
        state = step(state, *choice)
        steps += 1
        result = engine.result(state)
    return steps, result is not None


def playout(spec: GameSpec, players: int, seed: int) -> tuple[int, bool]:
    """One random game through ``engine.play``; returns (actions played, finished)."""
    play = spec.engine.play

    def step(state: Any, seat: str, action: Any) -> Any:
        play(state, seat, action)
        return state

    return _random_game(spec, players, seed, step)


def playout_apply(
    spec: GameSpec, players: int, seed: int, apply_times: list[float]
) -> tuple[int, bool]:
    """The same random game as :func:`playout` (same seed, same choices) through
    ``engine.apply``; appends each ``apply`` duration (s) to ``apply_times``."""
    apply = spec.engine.apply
    clock = time.perf_counter

    def step(state: Any, seat: str, action: Any) -> Any:
        t0 = clock()
        new, _ = apply(state, seat, action)
        apply_times.append(clock() - t0)
        return new

    return _random_game(spec, players, seed, step)


def _run(budget_s: float, one: Any, seed: int = 1000) -> tuple[int, int, int, float]:
    """Call ``one(seed)`` with seeds ``seed``, ``seed + 1`` ... for ``budget_s`` seconds
    (at least once); returns (games, finished, actions, seconds)."""
    games = finished = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget_s or games == 0:
        steps, done = one(seed)
        games += 1
        finished += done
        actions += steps
        seed += 1
    return games, finished, actions, time.perf_counter() - start


#: Rounds per configuration. The shared cores of the machine change speed by up to 1.5x
#: from one second to the next; the median round is reported, the best one beside it.
ROUNDS = 5


def bench_engine(budget_s: float) -> list[dict[str, Any]]:
    """Per game and player count (min and max): random playouts through ``play`` for
    ``budget_s`` seconds in :data:`ROUNDS` rounds (new seeds each round), then through
    ``apply`` for half that; one row each with the median and best round's playouts/s,
    the ``apply`` path's playouts/s, actions per playout and apply p50/p99 (ms)."""
    rows = []
    for spec in builtin_games():
        for players in sorted({spec.min_players, spec.max_players}):
            rates: list[float] = []
            games = finished = actions = 0
            seconds = 0.0
            for r in range(ROUNDS):
                g, f, a, sec = _run(
                    budget_s / ROUNDS,
                    lambda seed: playout(spec, players, seed),  # noqa: B023
                    seed=1000 + r * 100_000,
                )
                rates.append(g / sec)
                games, finished, actions, seconds = games + g, finished + f, actions + a, seconds + sec
            applies: list[float] = []
            a_games, _, _, a_seconds = _run(
                budget_s / 2, lambda seed: playout_apply(spec, players, seed, applies)  # noqa: B023
            )
            rows.append({
                "game": spec.key, "players": players, "playouts": games,
                "finished": finished, "seconds": round(seconds, 3),
                "playouts_per_s": round(statistics.median(rates), 2),
                "playouts_per_s_best": round(max(rates), 2),
                "rounds_per_s": [round(x, 1) for x in rates],
                "apply_playouts_per_s": round(a_games / a_seconds, 2),
                "actions_per_playout": round(actions / games, 1),
                "apply": summary_ms(applies),
            })
    return rows
