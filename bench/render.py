"""Render figures: table PNG p50/p99 and size per game at every player count.

States come from seeded AI-vs-AI playouts (the game's own policy), taken at the middle
of the game; the renderer gets the spectator view. A game whose renderer module is not
present is reported as ``pending``.
"""

from __future__ import annotations

import importlib
import random
import time
from typing import Any

from bench.common import summary_ms
from bench.engine import new_state
from bot.app import builtin_games
from bot.games.registry import GameSpec

#: Display names as long as real ones, so the layout does the work it does in Discord.
NAMES = ["Maya Longneck", "Bo the Bold", "Cyrus Fluff", "Dina Woolworth", "Ezra Carrots",
         "Fay Clover", "Gus Alpacino", "Hana Hay"]



def package_of(spec: GameSpec) -> str:
    """The game's package under ``bot/games`` (``"unleashed"`` for Llamas Unleashed),
    from its engine class, whatever its registry key."""
    parts = type(spec.engine).__module__.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["bot", "games"] else spec.key


def playout(spec: GameSpec, players: int, seed: int, limit: int = 20_000) -> list[Any]:
    """Every state of a seeded AI-vs-AI game (the spec's policy in every seat), from the
    start to the end or to the last state reached within ``limit`` moves."""
    engine = spec.engine
    state = new_state(spec, players, seed)
    rand = random.Random(seed)
    states = [state]
    for _ in range(limit):
        if engine.result(state) is not None:
            break
        pending = engine.pending(state)
        seat = next((s for s in pending.seats if engine.legal_actions(state, s)), None)
        if seat is None:
            break
        legal = engine.legal_actions(state, seat)
        action = spec.policy(engine.view(state, seat), legal, rand) if spec.policy else legal[0]
        state, _ = engine.apply(state, seat, action)
        states.append(state)
    return states


def mid_game_state(spec: GameSpec, players: int, seed: int) -> Any:
    """The state halfway through a seeded AI-vs-AI game (:func:`playout`), never the final
    state."""
    states = playout(spec, players, seed)
    return states[min(len(states) // 2, len(states) - 2)] if len(states) > 1 else states[0]


def renderer(spec: GameSpec) -> Any | None:
    """``bot.render.<pkg>.render_table`` for the game, or ``None`` if not written yet."""
    for name in (package_of(spec), spec.key.replace("-", "_")):
        try:
            module = importlib.import_module(f"bot.render.{name}")
        except ModuleNotFoundError:
            continue
        return getattr(module, "render_table", None)
    return None


def bench_render(iterations: int, seed: int = 7) -> list[dict[str, Any]]:
    """Per game and every player count (targets: p50 <= 25 ms, PNG <= 300 KB for each):
    render the spectator view of a mid-game state ``iterations`` times after one cold
    call; one row each."""
    rows = []
    for spec in builtin_games():
        render = renderer(spec)
        counts = list(range(spec.min_players, spec.max_players + 1))
        for players in counts:
            row: dict[str, Any] = {"game": spec.key, "package": package_of(spec),
                                   "players": players}
            if render is None:
                row["status"] = "pending (no renderer yet)"
                rows.append(row)
                continue
            state = mid_game_state(spec, players, seed)
            view = spec.engine.view(state, None)
            names = {s: NAMES[i] for i, s in enumerate(state.seats)}
            t0 = time.perf_counter()
            png = render(view, names=names)
            cold = time.perf_counter() - t0
            times = []
            for _ in range(iterations):
                t0 = time.perf_counter()
                png = render(view, names=names)
                times.append(time.perf_counter() - t0)
            row.update({
                "status": "ok", "state_version": state.version, "cold_ms": round(cold * 1000, 1),
                "render": summary_ms(times), "png_kib": round(len(png) / 1024, 1),
            })
            rows.append(row)
    return rows
