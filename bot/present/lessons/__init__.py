"""The lessons of ``/learn``, one module per game (see :mod:`bot.present.lessons.base`)."""

from __future__ import annotations

from bot.present.lessons import llamas_alpacas, pacapaca, unleashed
from bot.present.lessons.base import (
    HEADING,
    MARK,
    RESUMED,
    Lesson,
    Moment,
    Step,
    due,
    heading,
    note,
    resumed,
    resumed_line,
    started_line,
)

#: Game key -> its lesson.
LESSONS: dict[str, Lesson] = {m.LESSON.game: m.LESSON
                              for m in (llamas_alpacas, pacapaca, unleashed)}


def lesson_of(game: str) -> Lesson | None:
    """The lesson of game ``game`` (``None``: the game has none)."""
    return LESSONS.get(game)


__all__ = ["HEADING", "LESSONS", "MARK", "RESUMED", "Lesson", "Moment", "Step", "due",
           "heading", "lesson_of", "note", "resumed", "resumed_line", "started_line"]
