"""What the Normal AI weighed for the move it chose, in a structured form for hints.

Each game's AI module has ``weigh(view, legal, rng) -> Weighed``: the move its
``heuristic_policy`` chooses for the same ``(view, legal, rng)`` (called, so the two never
differ) and the reason the heuristic preferred it, as a tag and the facts behind it.
Everything comes from the seat's own view, so a hint never names a card the player cannot
see. Presenters turn a :class:`Weighed` into words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Action


@dataclass(frozen=True)
class Weighed:
    """The chosen move and why.

    Attributes:
        action: the move (one of the legal actions given to ``weigh``).
        reason: a tag naming the heuristic's reason (per game, e.g. ``"scores"``).
        facts: what the reason rests on: numbers (points, gains) and public or own names
            (card ids of the viewer's view, seats, spaces 0-8); per game and tag.
        value: the heuristic's score of ``action`` (its own unit).
        runner_up: the best score of any other kind of move, or ``None`` when there was
            no other choice.
    """

    action: Action
    reason: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    value: float = 0.0
    runner_up: float | None = None


__all__ = ["Weighed"]
