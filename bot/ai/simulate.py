"""AI-versus-AI games straight through an engine (``herdbot simulate``).

No Discord, no store: ``new_game`` then the seat policies until ``result`` or a step cap.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bot.ai.unleashed import heuristic_policy, random_policy
from bot.games.base import Action, State
from bot.games.registry import GameSpec
from bot.games.unleashed.spec import SPEC
from bot.games.unleashed.stats import GameLog
from bot.i18n import N_, LocalisedError, sentence, translate_n

#: A game that takes more steps than this is counted as unfinished.
MAX_STEPS = 20_000


#: The level name ``--seats`` accepts besides the AI levels, for measurement only (never a
#: seat in a real game): a uniformly random legal action at every decision.
RANDOM = "random"


@dataclass
class SimulationReport:
    """Figures of a simulation run.

    Attributes: games run, finished (reached a result), errors (exceptions), turns_mean
    (applied actions per finished game), winning_score_mean, games_per_s, seconds;
    levels (the ``--seats`` list, seat ``s0`` first in the first game); wins_by_level
    (level -> winning seats of that level over the finished games: every winner of a
    shared win counts, so a game won jointly by an Easy and a Normal seat adds 1 to both,
    and one won jointly by two Normal seats adds 2 to Normal); seat_games_by_level (level
    -> seats of that level over the finished games, the denominator of a per-seat win
    rate); shared_wins (finished games with more than one winner).
    """

    games: int
    finished: int
    errors: int
    turns_mean: float
    winning_score_mean: float
    games_per_s: float
    seconds: float
    error_samples: list[str]
    levels: list[str] = field(default_factory=list)
    wins_by_level: dict[str, int] = field(default_factory=dict)
    seat_games_by_level: dict[str, int] = field(default_factory=dict)
    shared_wins: int = 0

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
            "levels": list(self.levels),
            "wins_by_level": dict(self.wins_by_level),
            "seat_games_by_level": dict(self.seat_games_by_level),
            "shared_wins": self.shared_wins,
        }


class SimulateRefused(LocalisedError, ValueError):
    """A refused simulation (a player count, seats or level the game does not take): one
    sentence, English as ``str()``, :meth:`text` in a language."""

def seat_levels(levels: Sequence[str], game: int) -> list[str]:
    """The level of each seat (``s0`` first) in game number ``game`` (0-based) of a run:
    ``levels`` rotated left by ``game``, so seat ``s{j}`` plays
    ``levels[(j + game) % len(levels)]`` and over ``len(levels)`` games every level sits
    in every seat once (no level always moves first)."""
    n = len(levels)
    return [levels[(j + game) % n] for j in range(n)]


def level_policies(spec: GameSpec, levels: Sequence[str]) -> list[Callable[..., Any] | None]:
    """The policy of each level in ``levels`` (``None`` for :data:`RANDOM`, a uniformly
    random legal action). Raises ``ValueError`` naming a level ``spec`` does not offer."""
    out: list[Callable[..., Any] | None] = []
    for level in levels:
        if level == RANDOM:
            out.append(None)
            continue
        policy = spec.level_policy(level)
        if policy is None:
            offered = ", ".join([*spec.offered_levels(), RANDOM])
            raise SimulateRefused(sentence(
                N_("{game} has no {level} AI level (it has: {offered})"),
                game=spec.name, level=repr(level), offered=offered))
        out.append(policy)
    return out


def decisions(
    engine: Any, state: Any, by_seat: dict[str, Callable[..., Any] | None], rand: random.Random,
) -> Iterator[tuple[str, Action]]:
    """The next ``(seat, action)`` of ``state`` until the game ends, no pending seat has a
    legal action, or :data:`MAX_STEPS` decisions were made: ``by_seat[seat]`` chooses
    from the seat's view (``None``: a uniformly random legal action, drawn from
    ``rand``). The caller plays each action before asking for the next."""
    for _ in range(MAX_STEPS):
        if engine.result(state) is not None:
            return
        seat = next((s for s in engine.pending(state).seats if engine.legal_actions(state, s)),
                    None)
        if seat is None:
            return
        legal = engine.legal_actions(state, seat)
        policy = by_seat[seat]
        yield seat, (rand.choice(legal) if policy is None
                     else policy(engine.view(state, seat), legal, rand))


def play_one(
    spec: GameSpec, players: int, seed: int, policy: Callable[..., Any] | None = None,
    options: dict[str, Any] | None = None,
    policies: Sequence[Callable[..., Any] | None] | None = None,
) -> tuple[State, int]:
    """Play one game and return the final state and the number of actions played
    (``engine.play``, the same rules as ``apply``). Seat ``s{i}`` is played by
    ``policies[i]`` when given (``None`` there: a uniformly random legal action), else
    by ``policy`` (default: the spec's; random when the spec has none) in every seat.
    One ``random.Random(seed)`` feeds every policy. Raises whatever the engine raises."""
    engine = spec.engine
    seats = [f"s{i}" for i in range(players)]
    fields = spec.options_model.model_fields
    raw = {**(options or {}), **({"players": players} if "players" in fields else {})}
    state = engine.new_game(seats, seed=seed, options=spec.options_model.model_validate(raw))
    if policies is not None:
        by_seat = dict(zip(seats, policies, strict=True))
    else:
        by_seat = dict.fromkeys(seats, policy or spec.policy)
    steps = 0
    for seat, action in decisions(engine, state, by_seat, random.Random(seed)):
        engine.play(state, seat, action)  # in place: the state is ours, events unused
        steps += 1
    return state, steps


def simulate(spec: GameSpec, *, games: int, seed: int, players: int | None = None,
             seats: Sequence[str] | None = None) -> SimulationReport:
    """Run ``games`` seeded games (seeds ``seed .. seed+games-1``) and report the figures.

    ``seats``: the AI level of each seat (``"easy"``, ``"normal"``, ``"hard"`` or
    :data:`RANDOM`), one per player; game ``i`` seats them rotated by ``i``
    (:func:`seat_levels`). Default: Normal in every seat of a ``players``-player game.
    Raises ``ValueError`` for a player count outside the game's range, a ``seats`` list
    whose length is not ``players``, or a level the game does not offer."""
    n_players = players or (len(seats) if seats else spec.min_players)
    if not spec.min_players <= n_players <= spec.max_players:
        raise SimulateRefused(sentence(N_("{game} takes {low}-{high} players"), game=spec.name,
                                       low=spec.min_players, high=spec.max_players))
    if seats is not None and len(seats) != n_players:
        named = len(seats)
        raise SimulateRefused(lambda lang: translate_n(
            lang, "--seats names {count} seat for a {players}-player game",
            "--seats names {count} seats for a {players}-player game", named,
            players=n_players))
    levels = list(seats) if seats else ["normal"] * n_players
    policy_of = dict(zip(levels, level_policies(spec, levels), strict=True))
    start = time.perf_counter()
    finished = errors = shared = 0
    turns: list[int] = []
    wins: list[int] = []
    samples: list[str] = []
    wins_by: dict[str, int] = dict.fromkeys(levels, 0)
    seat_games: dict[str, int] = dict.fromkeys(levels, 0)
    for i in range(games):
        order = seat_levels(levels, i)
        try:
            state, steps = play_one(spec, n_players, seed + i,
                                    policies=[policy_of[lv] for lv in order])
        except Exception as exc:  # counted and reported, never hidden
            errors += 1
            if len(samples) < 5:
                samples.append(f"seed {seed + i}: {type(exc).__name__}: {exc}")
            continue
        result = spec.engine.result(state)
        if result is not None:
            finished += 1
            turns.append(steps)
            for lv in order:
                seat_games[lv] += 1
            for w in result.winners:  # seat s{j} played order[j]
                wins_by[order[state.seats.index(w)]] += 1
            shared += len(result.winners) > 1
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
        levels=levels,
        wins_by_level=wins_by,
        seat_games_by_level=seat_games,
        shared_wins=shared,
    )


# -- Llamas Unleashed balance figures (``herdbot simulate llamas-unleashed --stats``) ------


def unleashed_log(spec: GameSpec, players: int, seed: int,
                  policies: list[Callable[..., Any] | None] | None = None) -> Any:
    """Play one Llamas Unleashed game (``policies[i]`` in seat ``s{i}``, default the spec's
    AI everywhere) and return its :class:`~bot.games.unleashed.stats.GameLog`. Raises
    whatever the engine raises."""
    engine = spec.engine
    seats = [f"s{i}" for i in range(players)]
    state: Any = engine.new_game(seats, seed=seed, options=None)
    chosen: list[Callable[..., Any] | None] = policies or [spec.policy] * players
    by_seat = dict(zip(seats, chosen, strict=True))
    log = GameLog(players=players)
    for seat, action in decisions(engine, state, by_seat, random.Random(seed)):
        before = {s: list(v) for s, v in state.fields.items()}
        engine.play(state, seat, action)
        log.observe(before, seat, action, state)
    return log


def _log_batch(args: tuple[str, int, list[int], str]) -> list[Any]:
    """Worker: logs of the games ``seeds`` (``mode`` "ai" or "vs_random": the AI in seat
    s0, random players elsewhere)."""
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
    parts = [seeds[i::jobs] for i in range(jobs)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        out = list(pool.map(_log_batch, [(key, players, p, mode) for p in parts]))
    return [g for part in out for g in part]
