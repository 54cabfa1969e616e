"""Table pictures in steady state: thread CPU per picture over consecutive pictures.

For each game and player count, every state of seeded AI-vs-AI games
(:func:`bench.render.playout`) is drawn in turn, as the bot draws a game's tables move
after move (spectator view, display names, ``--lang``), after two other seeded games were
drawn whole (every cache a long-running bot has filled). Reports thread CPU
(``time.thread_time``) per picture in ms, the pictures drawn and their mean PNG size.

Run: ``python -m bench.render_steady [--games pacapaca,...] [--seeds 1,2] [--limit 150]``
(one JSON line; run it with another checkout on ``PYTHONPATH`` for a before/after).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from bench.render import NAMES, playout, renderer
from bot.app import builtin_games

#: Seeds of the games drawn first, to fill the caches.
WARM_SEEDS = (91, 92)


def _names(state: Any) -> dict[str, str]:
    return {s: NAMES[i % len(NAMES)] for i, s in enumerate(state.seats)}


def steady(games: list[str] | None, seeds: tuple[int, ...], limit: int | None,
           lang: str) -> dict[str, dict[str, float]]:
    """``"game/players"`` -> {``cpu_ms``: thread CPU per picture, ``pictures``, ``kib``:
    mean PNG size}."""
    rows: dict[str, dict[str, float]] = {}
    for spec in builtin_games():
        if games and spec.key not in games:
            continue
        render = renderer(spec)
        if render is None:
            continue
        for players in range(spec.min_players, spec.max_players + 1):
            for seed in WARM_SEEDS:
                for state in playout(spec, players, seed):
                    render(spec.engine.view(state, None), names=_names(state), lang=lang)
            cpu, pictures, size = 0.0, 0, 0
            for seed in seeds:
                states = playout(spec, players, seed)[:limit]
                names = _names(states[0])
                for state in states:
                    view = spec.engine.view(state, None)
                    t0 = time.thread_time()
                    png = render(view, names=names, lang=lang)
                    cpu += time.thread_time() - t0
                    pictures += 1
                    size += len(png)
            rows[f"{spec.key}/{players}"] = {"cpu_ms": round(cpu / pictures * 1000, 3),
                                              "pictures": pictures,
                                              "kib": round(size / pictures / 1024, 1)}
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="", help="game keys, comma-separated (all)")
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--limit", type=int, default=150, help="states per game at most")
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g] or None
    seeds = tuple(int(s) for s in args.seeds.split(","))
    print(json.dumps(steady(games, seeds, args.limit, args.lang)))


if __name__ == "__main__":
    main()
