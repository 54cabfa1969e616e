"""AI-versus-AI games straight through an engine (``herdbot simulate``).

No Discord, no store: ``new_game`` then the seat policies until ``result`` or a step cap.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.games.base import State
from bot.games.registry import GameSpec

#: A game that takes more steps than this is counted as unfinished.
MAX_STEPS = 20_000


@dataclass
class SimulationReport:
    """Figures of a simulation run.

    Attributes: games run, finished (reached a result), errors (exceptions), turns_mean
    (applied actions per finished game), winning_score_mean, games_per_s, seconds.
    """

    games: int
    finished: int
    errors: int
    turns_mean: float
    winning_score_mean: float
    games_per_s: float
    seconds: float
    error_samples: list[str]

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape printed by ``--json``."""
        return {
            "games": self.games,
            "finished": self.finished,
            "errors": self.errors,
            "turns_mean": round(self.turns_mean, 2),
            "winning_score_mean": round(self.winning_score_mean, 2),
            "games_per_s": round(self.games_per_s, 2),
            "seconds": round(self.seconds, 3),
        }


def play_one(
    spec: GameSpec, players: int, seed: int, policy: Callable[..., Any] | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[State, int]:
    """Play one game with ``policy`` (default: the spec's) in every seat; return the final
    state and the number of actions played (``engine.play``, the same rules as ``apply``).
    Raises whatever the engine raises."""
    engine = spec.engine
    seats = [f"s{i}" for i in range(players)]
    fields = spec.options_model.model_fields
    raw = {**(options or {}), **({"players": players} if "players" in fields else {})}
    state = engine.new_game(seats, seed=seed, options=spec.options_model.model_validate(raw))
    choose = policy or spec.policy
    rand = random.Random(seed)
    steps = 0
    while engine.result(state) is None and steps < MAX_STEPS:
        pending = engine.pending(state)
        seat = next((s for s in pending.seats if engine.legal_actions(state, s)), None)
        if seat is None:
            break
        legal = engine.legal_actions(state, seat)
        action = choose(engine.view(state, seat), legal, rand) if choose else rand.choice(legal)
        engine.play(state, seat, action)  # in place: the state is ours, events unused
        steps += 1
    return state, steps


def simulate(spec: GameSpec, *, games: int, seed: int, players: int | None = None) -> SimulationReport:
    """Run ``games`` seeded games (seeds ``seed .. seed+games-1``) and report the figures."""
    n_players = players or spec.min_players
    if not spec.min_players <= n_players <= spec.max_players:
        raise ValueError(f"{spec.name} takes {spec.min_players}-{spec.max_players} players")
    start = time.perf_counter()
    finished = errors = 0
    turns: list[int] = []
    wins: list[int] = []
    samples: list[str] = []
    for i in range(games):
        try:
            state, steps = play_one(spec, n_players, seed + i)
        except Exception as exc:  # counted and reported, never hidden
            errors += 1
            if len(samples) < 5:
                samples.append(f"seed {seed + i}: {type(exc).__name__}: {exc}")
            continue
        result = spec.engine.result(state)
        if result is not None:
            finished += 1
            turns.append(steps)
            if result.winners:
                wins.append(max(result.scores[w] for w in result.winners))
    seconds = time.perf_counter() - start
    return SimulationReport(
        games=games,
        finished=finished,
        errors=errors,
        turns_mean=sum(turns) / len(turns) if turns else 0.0,
        winning_score_mean=sum(wins) / len(wins) if wins else 0.0,
        games_per_s=games / seconds if seconds else 0.0,
        seconds=seconds,
        error_samples=samples,
    )


# -- Llamas Unleashed balance figures (``herdbot simulate llamas-unleashed --stats``) ------


def unleashed_log(spec: GameSpec, players: int, seed: int,
                  policies: list[Callable[..., Any] | None] | None = None) -> Any:
    """Play one Llamas Unleashed game (``policies[i]`` in seat ``s{i}``, default the spec's
    AI everywhere) and return its :class:`~bot.games.unleashed.stats.GameLog`. Raises
    whatever the engine raises."""
    from bot.games.unleashed.stats import GameLog

    engine = spec.engine
    seats = [f"s{i}" for i in range(players)]
    state: Any = engine.new_game(seats, seed=seed, options=None)
    chosen: list[Callable[..., Any] | None] = policies or [spec.policy] * players
    by_seat = dict(zip(seats, chosen, strict=True))
    rand = random.Random(seed)
    log = GameLog(players=players)
    steps = 0
    while engine.result(state) is None and steps < MAX_STEPS:
        pending = engine.pending(state)
        seat = next((s for s in pending.seats if engine.legal_actions(state, s)), None)
        if seat is None:
            break
        legal = engine.legal_actions(state, seat)
        policy = by_seat[seat]
        action = (rand.choice(legal) if policy is None
                  else policy(engine.view(state, seat), legal, rand))
        before = {s: list(v) for s, v in state.fields.items()}
        engine.play(state, seat, action)
        log.observe(before, seat, action, state)
        steps += 1
    return log


def _log_batch(args: tuple[str, int, list[int], str]) -> list[Any]:
    """Worker: logs of the games ``seeds`` (``mode`` "ai" or "vs_random": the AI in seat
    s0, random players elsewhere)."""
    from bot.ai.unleashed import heuristic_policy, random_policy
    from bot.games.unleashed.spec import SPEC

    key, players, seeds, mode = args
    if key != SPEC.key:
        raise ValueError(f"no balance figures for {key!r}")
    spec = SPEC
    policies: list[Callable[..., Any] | None] = [heuristic_policy] * players
    if mode == "vs_random":
        policies = [heuristic_policy, *[random_policy] * (players - 1)]
    return [unleashed_log(spec, players, s, policies) for s in seeds]


def unleashed_stats(key: str, *, games: int, seed: int, players: int, jobs: int = 1,
                    mode: str = "ai") -> list[Any]:
    """Logs of ``games`` seeded games (seeds ``seed ..``), spread over ``jobs`` processes
    (1 or 2: the stats are the same either way)."""
    seeds = list(range(seed, seed + games))
    if jobs <= 1:
        return _log_batch((key, players, seeds, mode))
    from concurrent.futures import ProcessPoolExecutor

    parts = [seeds[i::jobs] for i in range(jobs)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        out = list(pool.map(_log_batch, [(key, players, p, mode) for p in parts]))
    return [g for part in out for g in part]
