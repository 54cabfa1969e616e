"""``python -m bench.state_kinds [--games N]``: what a game state costs to copy, store,
load and read, per game and per kind of state.

States are sampled from seeded random games (every 5th action of ``N`` games per game,
the minimum and maximum player counts, actions chosen uniformly from ``legal_actions``
and carried out with ``Engine.play``). For each state it times, best of 3 repeats:

- ``fork``: ``engine.fork(state)``, the independent copy playouts and AI search take;
- ``apply``: ``engine.apply`` of the action the random game played there (a copy of the
  state, the step and its events: what every move of the runtime costs);
- ``dump`` / ``load``: ``state.model_dump_json()`` / ``engine.load_state(text)``, the
  store's round trip, and the JSON size;
- ``read`` / ``write``: one read of a common field (``seats``, ``seed``, ``rng_calls``,
  ``version``) / one store to ``version``, in ns.

Prints the mean per state (microseconds unless marked) and the state's kind
(``plain``: a :class:`bot.games.base.PlainState` dataclass; ``pydantic``: a model).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bot.app import builtin_games
from bot.games.base import PlainState
from bot.games.registry import GameSpec


def _best(fn: Callable[[], Any], number: int, repeat: int = 3) -> float:
    """Seconds per call of ``fn``: the best of ``repeat`` runs of ``number`` calls."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def samples(spec: GameSpec, players: int, games: int) -> list[tuple[Any, str, Any]]:
    """``(state, seat, action)`` at every 5th action of ``games`` seeded random games."""
    engine = spec.engine
    fields = spec.options_model.model_fields
    raw = {"players": players} if "players" in fields else {}
    out = []
    for seed in range(games):
        state = engine.new_game([f"s{i}" for i in range(players)], seed=seed,
                                options=spec.options_model.model_validate(raw))
        rand = random.Random(seed)
        for step in range(20_000):
            if engine.result(state) is not None:
                break
            choice = next(((s, legal) for s in engine.pending(state).seats
                           if (legal := engine.legal_actions(state, s))), None)
            if choice is None:
                break
            seat, action = choice[0], rand.choice(choice[1])
            if step % 5 == 0:
                out.append((engine.fork(state), seat, action))
            engine.play(state, seat, action)
    return out


def measure(spec: GameSpec, players: int, games: int) -> dict[str, Any]:
    """The figures of the module docstring for one game and player count."""
    engine = spec.engine
    rows: dict[str, list[float]] = {k: [] for k in
                                    ("fork", "apply", "dump", "load", "bytes", "read", "write")}
    states = samples(spec, players, games)
    for state, seat, action in states:
        text = state.model_dump_json()
        rows["fork"].append(_best(lambda: engine.fork(state), 20) * 1e6)  # noqa: B023
        rows["apply"].append(_best(lambda: engine.apply(state, seat, action), 5) * 1e6)  # noqa: B023
        rows["dump"].append(_best(state.model_dump_json, 10) * 1e6)
        rows["load"].append(_best(lambda: engine.load_state(text), 10) * 1e6)  # noqa: B023
        rows["bytes"].append(len(text))

        def reads(s: Any = state) -> None:
            for _ in range(100):
                s.seats, s.seed, s.rng_calls, s.version  # noqa: B018

        def writes(s: Any = state) -> None:
            v = s.version
            for _ in range(100):
                s.version = v

        rows["read"].append(_best(reads, 20) / 400 * 1e9)
        rows["write"].append(_best(writes, 20) / 100 * 1e9)
    kind = "plain" if isinstance(states[0][0], PlainState) else "pydantic"
    return {"game": spec.key, "players": players, "kind": kind, "states": len(states),
            **{k: round(statistics.fmean(v), 1) for k, v in rows.items()}}


def main() -> None:
    """Command-line entry point: one line per game and player count."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=6, help="games per configuration (default 6)")
    args = ap.parse_args()
    print(f"{'game':18}{'pl':>3} {'kind':9}{'states':>7}{'fork us':>9}{'apply us':>10}"
          f"{'dump us':>9}{'load us':>9}{'bytes':>8}{'read ns':>9}{'write ns':>9}")
    for spec in builtin_games():
        for players in sorted({spec.min_players, spec.max_players}):
            r = measure(spec, players, args.games)
            print(f"{r['game']:18}{r['players']:>3} {r['kind']:9}{r['states']:>7}"
                  f"{r['fork']:>9}{r['apply']:>10}{r['dump']:>9}{r['load']:>9}"
                  f"{r['bytes']:>8.0f}{r['read']:>9}{r['write']:>9}")


if __name__ == "__main__":
    main()
