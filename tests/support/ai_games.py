"""AI test helpers: seeded games advanced by the Normal policy to a chosen decision, and
the Hard policy's choice compared across two states a seat cannot tell apart."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.app import builtin_games

SPECS = {s.key: s for s in builtin_games()}


def advance(key: str, seed: int, players: int, until: Callable[[Any, str, list[Any]], bool],
             ) -> tuple[Any, str, list[Any]]:
    """Play a seeded game with the Normal policy in every seat until ``until(state, seat,
    legal)`` holds for the seat to act; return (state, seat, legal)."""
    spec = SPECS[key]
    engine = spec.engine
    seats = [f"s{i}" for i in range(players)]
    raw = {"players": players} if "players" in spec.options_model.model_fields else {}
    state = engine.new_game(seats, seed=seed, options=spec.options_model.model_validate(raw))
    rand = random.Random(seed)
    for _ in range(2000):
        assert engine.result(state) is None, "the game ended before such a decision"
        seat = next(s for s in engine.pending(state).seats if engine.legal_actions(state, s))
        legal = engine.legal_actions(state, seat)
        if until(state, seat, legal):
            return state, seat, legal
        assert spec.policy is not None
        engine.play(state, seat, spec.policy(engine.view(state, seat), legal, rand))
    raise AssertionError("no such decision in 2000 steps")


def same_choice(key: str, policy: Callable[..., Any], a: Any, b: Any, seat: str) -> Any:
    """Both states give ``seat`` the same view and legal actions, and the Hard policy the
    same choice with the same seed; returns that choice."""
    engine = SPECS[key].engine
    view_a, view_b = engine.view(a, seat), engine.view(b, seat)
    assert view_a == view_b
    legal = engine.legal_actions(a, seat)
    assert legal == engine.legal_actions(b, seat)
    pick_a = policy(view_a, legal, random.Random(11))
    pick_b = policy(view_b, legal, random.Random(11))
    assert pick_a == pick_b
    assert pick_a in legal
    return pick_a
