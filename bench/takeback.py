"""``python -m bench.takeback [--games N]``: what one take-back request costs in CPU.

A request replays the game's whole action log from its seed (``bot.games.takeback.
replay_log``, off the event loop) to find the state before the last move. This plays
``N`` seeded random games of each game at its largest player count (up to 2,000 actions),
takes the longest log of each, and times its replay (best of 3).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from bot.games.base import Engine, Options
from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.games.llamas_alpacas.models import LlamasAlpacasOptions
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import PacapacaOptions
from bot.games.takeback import replay_log
from bot.games.unleashed.engine import UnleashedEngine
from bot.games.unleashed.models import UnleashedOptions

GAMES: tuple[tuple[str, Engine[Any, Any], Options, int], ...] = (
    ("llamas-alpacas", LlamasAlpacasEngine(), LlamasAlpacasOptions(), 4),
    ("pacapaca", PacapacaEngine(), PacapacaOptions(), 6),
    ("llamas-unleashed", UnleashedEngine(), UnleashedOptions(), 8),
)


def longest_log(engine: Engine[Any, Any], options: Options, players: int,
                games: int) -> tuple[Any, list[tuple[str, dict[str, Any]]]]:
    """The first state and the log of the longest of ``games`` seeded random games."""
    best: tuple[Any, list[tuple[str, dict[str, Any]]]] | None = None
    for seed in range(games):
        first = engine.new_game([f"s{i}" for i in range(players)], seed=seed, options=options)
        state, rand = first, random.Random(seed)
        rows: list[tuple[str, dict[str, Any]]] = []
        while engine.result(state) is None and len(rows) < 2000:
            pending = engine.pending(state)
            seat = rand.choice(pending.seats)
            legal = engine.legal_actions(state, seat)
            if legal and not (pending.timeouts and rand.random() < 0.05):
                action = legal[rand.randrange(len(legal))]
            else:
                timeout = pending.timeouts[0]
                seat, action = timeout.seat, engine.parse_action(timeout.action)
            state, _ = engine.apply(state, seat, action)
            rows.append((seat, action.model_dump(mode="json")))
        if best is None or len(rows) > len(best[1]):
            best = (first, rows)
    assert best is not None
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    for key, engine, options, players in GAMES:
        first, rows = longest_log(engine, options, players, args.games)
        times = []
        for _ in range(3):
            start = time.perf_counter()
            replay_log(engine, first, rows)
            times.append(time.perf_counter() - start)
        best = min(times)
        print(f"{key} ({players} players): {len(rows)} actions replayed in "
              f"{best * 1000:.0f} ms ({best / max(len(rows), 1) * 1e6:.0f} us per action)")


if __name__ == "__main__":
    main()
