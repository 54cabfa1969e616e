"""Guided first games (``/learn``): what each lesson says and when, as plain data.

A :class:`Lesson` is one game's guided game against Easy AI seats: its seed (chosen so the
situations that teach come up), its AI seats and the :class:`Step` explanations. Each
step's trigger is a pure function of a :class:`Moment` (the learner's own view, the
pending decision, the learner's legal actions and the events just played that the learner
may see); a step is said once, the first time its trigger holds (:func:`due`). The
scripted steps open the game (what the buttons do, the first turns); the others explain
what just happened the first time it happens.

One module per game (``bot.present.lessons.<game>``) defines its ``LESSON``;
:data:`bot.present.lessons.LESSONS` maps a game key to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Action, Event, Pending
from bot.i18n import ENGLISH, translate

#: The mark that opens a lesson's explanation on the table, in every language.
MARK = "\N{OPEN BOOK}"
#: The heading of a lesson's explanation on the table (English: :func:`heading`).
HEADING = f"{MARK} **Lesson**"
#: The explanation on a lesson's table shown again by ``/learn`` (English:
#: :func:`resumed`).
RESUMED = f"{HEADING}\n\nWelcome back! Your lesson goes on from where you left it."


def heading(lang: str = ENGLISH) -> str:
    """:data:`HEADING` in ``lang`` (it starts with :data:`MARK`)."""
    word = translate(lang, "Lesson")
    return f"{MARK} **{word}**"


def resumed(lang: str = ENGLISH) -> str:
    """:data:`RESUMED` in ``lang``."""
    return (f"{heading(lang)}\n\n"
            + translate(lang, "Welcome back! Your lesson goes on from where you left it."))


def started_line(game_name: str, link: str, lang: str = ENGLISH) -> str:
    """The answer to ``/learn`` once the lesson of ``game_name`` started at ``link``."""
    return translate(lang, "Your {game} lesson is in your DMs: {link}", game=game_name,
                     link=link)


def resumed_line(game_name: str, link: str, lang: str = ENGLISH) -> str:
    """The answer to ``/learn`` from a member already in a lesson of ``game_name``
    (shown again at ``link``)."""
    return translate(lang, "You are in a {game} lesson: it goes on in your DMs, {link}. To "
                           "start another, use /learn with restart.", game=game_name, link=link)


@dataclass(frozen=True)
class Moment:
    """What a lesson's triggers look at: the learner's ``seat``, their own engine
    ``view``, the ``pending`` decision, their ``legal`` actions now and the ``events``
    just played that they may see (public, or private to them)."""

    seat: str
    view: Any
    pending: Pending
    legal: Sequence[Action]
    events: Sequence[Event]

    @property
    def to_act(self) -> bool:
        """True when the learner must decide now."""
        return self.seat in self.pending.seats

    def happened(self, kind: str, *, mine: bool | None = None) -> list[Event]:
        """The events of type ``kind`` just played; ``mine``: only the learner's (True),
        only the others' (False) by the event's ``seat`` data."""
        out = [e for e in self.events if e.type == kind]
        if mine is not None:
            out = [e for e in out if (e.data.get("seat") == self.seat) == mine]
        return out


@dataclass(frozen=True)
class Step:
    """One explanation: its ``key`` (unique in its lesson), its ``text`` (markdown, a few
    sentences) and ``when`` it is due (a pure function of a :class:`Moment`)."""

    key: str
    text: str
    when: Callable[[Moment], bool]


@dataclass(frozen=True)
class Lesson:
    """One game's guided game: its ``game`` key, ``seed``, ``ai_seats`` (Easy), engine
    ``options`` and ``steps`` in the order they are told when several are due at once."""

    game: str
    seed: int
    ai_seats: int
    steps: tuple[Step, ...]
    options: dict[str, Any] = field(default_factory=dict)

    def step(self, key: str) -> Step:
        """The step named ``key``. Raises ``KeyError`` for an unknown key."""
        for s in self.steps:
            if s.key == key:
                return s
        raise KeyError(key)


def due(lesson: Lesson, moment: Moment, said: Iterable[str] = ()) -> list[Step]:
    """The steps of ``lesson`` to tell at ``moment``: those whose trigger holds and that
    were not ``said`` before, in the lesson's order."""
    done = set(said)
    return [s for s in lesson.steps if s.key not in done and s.when(moment)]


def note(steps: Sequence[Step], lang: str = ENGLISH) -> str:
    """The lesson's text display for ``steps`` (``""``: none) in ``lang``: the heading,
    then each step's text (an English message id, translated here) as a paragraph."""
    if not steps:
        return ""
    if lang == ENGLISH:
        return "\n\n".join([HEADING, *(s.text for s in steps)])
    return "\n\n".join([heading(lang), *(translate(lang, s.text) for s in steps)])


__all__ = ["HEADING", "MARK", "RESUMED", "heading", "resumed", "resumed_line", "started_line",
           "Lesson", "Moment", "Step", "due", "note"]
