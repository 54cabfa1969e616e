"""A whole lesson (``/learn``) played through the real bot in the sandbox: the member runs
``/learn`` and plays their seat to the end through the UI (:func:`bot.sandbox.demo.drive_game`),
while every version of every message in their DM is read for the lesson's explanations
(:data:`bot.present.lessons.HEADING`): which step was first shown on the table of which
move."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.present.lessons import MARK, lesson_of
from bot.sandbox.demo import drive_game
from bot.sandbox.model import SimMessage, walk_components

#: The move number in a table's footer (``-# Llamas & Alpacas #1 · Move 12``).
_MOVE = re.compile(r"Move (\d+)$")


def texts(message: SimMessage) -> list[str]:
    """The text displays of a V2 ``message``, in order."""
    return [str(c.get("content", "")) for c in walk_components(message.data.get("components") or [])
            if c.get("type") == 10]


@dataclass
class LessonRun:
    """What a played lesson showed: its ``game_id``, and ``told``: step key -> the move
    number of the first table (in the member's DM) showing its explanation."""

    game_id: int = 0
    told: dict[str, int] = field(default_factory=dict)


def watch_lesson(world: Any, member: Any, game: str, run: LessonRun) -> Any:
    """Add (and return) a watcher of ``world`` filling ``run.told`` from the messages of
    ``member``'s DM channel."""
    lesson = lesson_of(game)
    assert lesson is not None, game
    by_text = {s.text: s.key for s in lesson.steps}

    def saw(message: SimMessage) -> None:
        channel = world.channels.get(message.channel_id)
        if channel is None or channel.kind != "dm" or channel.recipient_id != member.id:
            return
        shown = texts(message)
        moves = [int(m.group(1)) for t in shown if (m := _MOVE.search(t))]
        for text in shown:
            if not text.startswith(MARK):
                continue
            for part in text.split("\n\n")[1:]:
                key = by_text.get(part)
                if key is not None and key not in run.told and moves:
                    run.told[key] = moves[-1]

    world.watchers.append(saw)
    return saw


async def play_lesson(world: Any, bot: Any, member: Any, game: str, *, seed: int = 1,
                      channel: Any = None) -> LessonRun:
    """``member`` runs ``/learn game:<game>`` in ``channel`` (default: the main one) and
    plays the lesson to its end, each of their choices made by the game's AI policy
    (``random.Random(seed)``) and performed through the UI. Returns what it showed.
    Raises ``AssertionError`` when no lesson started, ``RuntimeError`` when it stalls."""
    run = LessonRun()
    saw = watch_lesson(world, member, game, run)
    try:
        await member.slash("learn", game=game, in_channel=channel)
        record = await bot.service.lesson_of_member(member.id)
        assert record is not None, f"no lesson started; the bot said {member.last_reply!r}"
        run.game_id = record.id
        await drive_game(world, bot, record.id, [member], seed=seed)
    finally:
        world.watchers.remove(saw)
    return run


__all__ = ["LessonRun", "play_lesson", "texts", "watch_lesson"]
