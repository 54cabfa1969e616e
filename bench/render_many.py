"""Table pictures of many active games drawn in turn: thread CPU per picture as the number
of games grows.

``--games N,...``: N seeded AI-vs-AI games (the three games in turn, 2-4 players, members
with names of their own such as ``P00017``, as many active games have) each draw one
table picture per round, every game one move further on each time (two states of its
playout), as a bot draws the tables of games whose players move in turn. The first
rounds fill the caches; the rest are measured. Reports, per N: thread CPU per picture
(``time.thread_time``, ms), the pictures measured, and the share of text bitmaps and of
deflated bands found kept over them.

Run: ``python -m bench.render_many [--games 60,480] [--rounds 12] [--warm 4]`` (one JSON
line; run it with another checkout on ``PYTHONPATH`` for a before/after).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from bench.render import playout, renderer
from bot.app import builtin_games
from bot.render import common

#: The games drawn, in turn.
KEYS = ("llamas-alpacas", "pacapaca", "llamas-unleashed")
#: Moves played out per game (enough for every round).
MOVES = 30


def _games(n: int) -> list[tuple[Any, Any, list[Any], dict[str, str]]]:
    specs = {spec.key: spec for spec in builtin_games()}
    out = []
    for i in range(n):
        spec = specs[KEYS[i % len(KEYS)]]
        states = playout(spec, 2 + (i // len(KEYS)) % 3, 1000 + i, limit=MOVES)
        names = {seat: f"P{i * 8 + k:05d}" for k, seat in enumerate(states[0].seats)}
        out.append((spec, renderer(spec), states, names))
    return out


def _counts() -> tuple[int, int, int, int]:
    masks = getattr(common, "_masks", None)
    bands = common.BANDS
    return (getattr(masks, "hits", 0), getattr(masks, "misses", 0), bands.hits, bands.misses)


def _share(hits: int, misses: int) -> float | None:
    return round(hits / (hits + misses), 3) if hits + misses else None


def many(n: int, rounds: int, warm: int) -> dict[str, Any]:
    """One row: ``n`` games drawn ``rounds`` times in turn, the first ``warm`` not measured."""
    games = _games(n)
    cpu, pictures = 0.0, 0
    start = _counts()
    for k in range(rounds):
        if k == warm:
            cpu, pictures, start = 0.0, 0, _counts()
        for spec, render, states, names in games:
            view = spec.engine.view(states[min(2 * k, len(states) - 1)], None)
            t0 = time.thread_time()
            render(view, names=names, lang="en")
            cpu += time.thread_time() - t0
            pictures += 1
    end = _counts()
    return {"cpu_ms": round(cpu / max(1, pictures) * 1000, 3), "pictures": pictures,
            "masks_kept": _share(end[0] - start[0], end[1] - start[1]),
            "bands_kept": _share(end[2] - start[2], end[3] - start[3])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="60,480", help="active games, comma-separated")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--warm", type=int, default=4, help="first rounds not measured")
    args = parser.parse_args()
    rows = {}
    for n in (int(x) for x in args.games.split(",")):
        rows[str(n)] = many(n, args.rounds, args.warm)
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
