"""One new thread message per turn (UX.md "A quiet thread"): seeded demo games of each
game, measured as ``python -m bench.requests`` does."""

from __future__ import annotations

import logging

import pytest

from bench.requests import measure_one


@pytest.mark.parametrize(("game", "players", "turns"), [
    ("llamas-alpacas", 2, 29),
    ("pacapaca", 4, 34),  # with a negotiation that ends in a deal
    ("llamas-unleashed", 2, 18),  # with reaction windows and choices
])
async def test_one_public_thread_message_per_turn(game: str, players: int, turns: int) -> None:
    logging.disable(logging.WARNING)
    try:
        got = await measure_one(game, players, 13)
    finally:
        logging.disable(logging.NOTSET)
    assert (got["turns"], got["thread_messages"]) == (turns, turns)
