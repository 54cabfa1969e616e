"""The AI levels' fixed ratings (``bot.ratings.AI_RATINGS``), fitted from simulated games.

``python -m bench.ratings_calibrate [--games N] [--players P] [--jobs J] [--only GAME]``

Method: for each game, ``N`` AI-versus-AI games of ``P`` seats whose levels are Easy,
Normal and Hard in turn (``bot.ai.simulate.seat_levels`` rotates them, so no level always
moves first; with more seats than levels the list repeats). Each level is one player of
the Weng-Lin Plackett-Luce model (``bot.ratings.MODEL``), every seat of a level one team
member of its own, rated game after game in seed order from the default rating, ranks by
``bot.ratings.ranks``. The levels' fitted mu are printed with Normal moved to the default
mu (25): the fixed ratings are those, with the fitted sigma.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.ai.simulate import level_policies, play_one, seat_levels
from bot.app.games import GAMES
from bot.ratings import DEFAULT_MU, MODEL, ranks

LEVELS = ("easy", "normal", "hard")


def _one(args: tuple[str, int, int]) -> list[tuple[str, int]]:
    """Game ``i`` of ``key`` with ``players`` seats: each seat's ``(level, rank)``."""
    key, players, i = args
    spec = next(s for s in GAMES if s.key == key)
    levels = [LEVELS[j % len(LEVELS)] for j in range(players)]
    order = seat_levels(levels, i)
    state, _ = play_one(spec, players, 10_000 + i, policies=level_policies(spec, order))
    result = spec.engine.result(state)
    if result is None:
        return []
    place = ranks(result, list(state.seats))
    return [(order[j], place[seat]) for j, seat in enumerate(state.seats)]


def fit(games: list[list[tuple[str, int]]]) -> dict[str, tuple[float, float]]:
    """Each level's ``(mu, sigma)`` after rating ``games`` in order (a level seated
    twice in one game is rated from its two places, its two updates averaged)."""
    ratings = {lv: MODEL.rating() for lv in LEVELS}
    for seats in games:
        if len(seats) < 2:
            continue
        teams = [[MODEL.rating(mu=ratings[lv].mu, sigma=ratings[lv].sigma)] for lv, _ in seats]
        after = MODEL.rate(teams, ranks=[float(r) for _, r in seats])
        for lv in {lv for lv, _ in seats}:
            mine = [t[0] for (lv2, _), t in zip(seats, after, strict=True) if lv2 == lv]
            ratings[lv] = MODEL.rating(mu=sum(r.mu for r in mine) / len(mine),
                                       sigma=sum(r.sigma for r in mine) / len(mine))
    return {lv: (r.mu, r.sigma) for lv, r in ratings.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default=None)
    a = parser.parse_args(argv)
    out: dict[str, Any] = {}
    for spec in GAMES:
        if a.only and spec.key != a.only:
            continue
        start = time.perf_counter()
        work = [(spec.key, a.players, i) for i in range(a.games)]
        with ProcessPoolExecutor(a.jobs) as pool:
            games = list(pool.map(_one, work))
        fitted = fit(games)
        shift = DEFAULT_MU - fitted["normal"][0]
        wins = {lv: sum(1 for g in games for lv2, r in g if lv2 == lv and r == 0)
                for lv in LEVELS}
        out[spec.key] = {
            "games": a.games, "players": a.players, "finished": sum(1 for g in games if g),
            "wins": wins,
            "fitted": {lv: [round(m, 2), round(s, 2)] for lv, (m, s) in fitted.items()},
            "fixed": {lv: [round(m + shift, 1), round(s, 1)] for lv, (m, s) in fitted.items()},
            "seconds": round(time.perf_counter() - start, 1),
        }
        print(json.dumps({spec.key: out[spec.key]}), flush=True)


if __name__ == "__main__":
    main()
