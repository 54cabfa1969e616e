"""A lesson's explanations on its table (``/learn``): which steps of the game's lesson
(:mod:`bot.present.lessons`) are due for the change being shown, told once each, in a
text display of the table message (:attr:`Table.lesson`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.discord.table import Table, TableLook
from bot.games.base import Event
from bot.present.lessons import Moment, Step, due, lesson_of, note
from bot.runtime.core import is_lesson
from bot.runtime.lessons import SAID
from bot.store import STORE_FAILURES

log = logging.getLogger(__name__)


class LessonNotes(TableLook):
    """The lesson side of showing a change (a mixin of
    :class:`bot.discord.table_posts.TablePosts`)."""

    #: game id -> (the decision its lesson note was told for, the note).
    _lesson_notes: dict[int, tuple[str | None, str]]
    #: game id -> the keys of the steps this process told (besides the stored ones).
    _lesson_said: dict[int, set[str]]

    @staticmethod
    def learner(table: Table) -> str | None:
        """The seat of the member taking lesson ``table`` (``None``: not a lesson)."""
        if not is_lesson(table.record):
            return None
        return next((s.seat for s in table.seats if s.user_id is not None and not s.is_ai),
                    None)

    def lesson_steps(self, table: Table, events: Sequence[Event]) -> list[Step]:
        """The steps of the game's lesson due at ``table`` after ``events`` (those the
        learner may see), not told before; ``[]`` for a game that is no lesson."""
        seat = self.learner(table)
        lesson = lesson_of(table.spec.key)
        if seat is None or lesson is None:
            return []
        active = table.result is None and table.record.status == "active"
        moment = Moment(seat, table.view(seat), table.pending,
                        table.legal(seat) if active else [],
                        [e for e in events if e.visible_to(seat)])
        said = {*table.record.options.get(SAID, []),
                *self._lesson_said.get(table.record.id, set())}
        return due(lesson, moment, said)

    async def tell_lesson(self, table: Table, events: Sequence[Event]) -> bool:
        """Set :attr:`Table.lesson` for the change being shown: the note of the steps
        now due (noted as told, in memory and in the store), else the last note while the
        table still shows the same decision (it is edited in place), else nothing.
        Returns True when new steps are due."""
        gid = table.record.id
        if self.learner(table) is None:
            return False
        steps = self.lesson_steps(table, events)
        active = table.result is None and table.record.status == "active"
        key = self.ping_key(table) if active else None
        if steps:
            keys = [s.key for s in steps]
            self._lesson_said.setdefault(gid, set()).update(keys)
            table.lesson = note(steps, table.lang)
            self._lesson_notes[gid] = (key, table.lesson)
            try:
                await self.bot.service.lesson_said(gid, keys)
            except STORE_FAILURES as exc:  # told all the same; a restart may tell it again
                log.warning("lesson %s: could not record the steps told (%s)", gid, exc)
            return True
        kept = self._lesson_notes.get(gid)
        table.lesson = kept[1] if kept is not None and kept[0] == key and active else ""
        return False

    def forget_lesson(self, game_id: int) -> None:
        """Drop what this cog keeps about lesson ``game_id`` (its game ended)."""
        self._lesson_notes.pop(game_id, None)
        self._lesson_said.pop(game_id, None)


__all__ = ["LessonNotes"]
