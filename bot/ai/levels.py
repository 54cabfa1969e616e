"""How strongly an AI seat plays: Easy, Normal or Hard.

Which policy plays each level of each game is wired at the top (``bot.app``, into
:attr:`bot.games.registry.GameSpec.levels`); this module only names the levels.
"""

from __future__ import annotations

from enum import StrEnum


class Level(StrEnum):
    """An AI seat's level; the value is what the store keeps in ``seats.ai_level``.

    - ``EASY``: legal, mostly sensible moves with a beginner's mistakes (``bot.ai.easy``).
    - ``NORMAL``: each game's heuristic (``bot.ai.<game>.heuristic_policy``); the default,
      and what plays a seat taken over after a timeout or a leave.
    - ``HARD``: a search over what the seat's own view allows (offered only where a game
      has one wired).
    """

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"

    @property
    def label(self) -> str:
        """The level as players read it: ``"Easy"``, ``"Normal"``, ``"Hard"``."""
        return self.value.capitalize()


#: The level of a new AI seat, and of every seat the AI takes over.
DEFAULT_LEVEL = Level.NORMAL


def level_label(value: str | None) -> str:
    """The label of a stored level value (``None`` or an unknown value reads as the
    default, Normal)."""
    try:
        return Level(value or DEFAULT_LEVEL).label
    except ValueError:
        return DEFAULT_LEVEL.label
