"""The words of a table message that are not the presenter's: the moves told as
bullets (summarised when they do not fit), read back from a posted table, and the AI
seats' lines, in the table's language."""

from __future__ import annotations

import discord

from bot.ai.levels import DEFAULT_LEVEL, level_label
from bot.discord.layout import texts_of
from bot.discord.text import md_name
from bot.i18n import translate, translate_n
from bot.store import SeatRecord


def fit_lines(lines: list[str], limit: int, lang: str | None = None) -> str:
    """Bullet ``lines`` into at most ``limit`` characters; when they do not fit, the oldest
    are summarised as "(N earlier moves: see /game log)" (in ``lang``) so no move goes
    untold."""
    out: list[str] = []
    size = 0
    for line in reversed(lines):
        text = f"\N{BULLET} {line}"
        if size + len(text) + 1 > limit - 60:
            hidden = len(lines) - len(out)
            out.append(translate_n(lang, "({count} earlier move: see /game log)",
                                   "({count} earlier moves: see /game log)", hidden))
            break
        out.append(text)
        size += len(text) + 1
    return "\n".join(reversed(out))


def event_lines(message: discord.Message | None) -> list[str]:
    """The event lines (bullets) of a table message (its first text display of bullets,
    :meth:`TableLook.table_card`), unbulleted."""
    for text in texts_of(message):
        if text.startswith("\N{BULLET} "):
            return [line[2:] for line in text.split("\n") if line.startswith("\N{BULLET} ")]
    return []


def ai_seat_lines(seats: list[SeatRecord], lang: str | None = None) -> list[str]:
    """The table's "AI seats" lines in ``lang``, in seat order: each AI seat with its level
    (``🤖 AI Pancho (Hard)``), and each member's seat the AI plays for now, at Normal
    (``🤖 Ana (Normal, until they are back)``). Empty when no seat is the AI's."""
    out = []
    for s in seats:
        if s.is_ai:
            level = translate(lang, level_label(s.ai_level))
            out.append("\N{ROBOT FACE} " + translate(lang, "{name} ({level})",
                                                      name=md_name(s.name), level=level))
        elif s.ai_takeover:
            level = translate(lang, level_label(DEFAULT_LEVEL))
            out.append("\N{ROBOT FACE} " + translate(
                lang, "{name} ({level}, until they are back)", name=md_name(s.name),
                level=level))
    return out
