"""The Llamas & Alpacas lesson: one Easy AI seat; the rules it teaches are the rulebook's
(Setup, Playing the game, Scoring) as summed up in ``RULES_SUMMARY``."""

from __future__ import annotations

from bot.present.lessons.base import Lesson, Moment, Step


def _start(m: Moment) -> bool:
    return m.to_act and m.pending.kind == "setup"


def _first_take(m: Moment) -> bool:
    return m.to_act and m.pending.kind == "turn"


def _place(m: Moment) -> bool:
    return m.to_act and m.pending.kind == "choose_space"


def _paid(m: Moment) -> bool:
    return any(e.data.get("paid") for e in m.happened("took", mine=True))


def _picked_up(m: Moment) -> bool:
    return any(sum(e.data.get("picked_up") or [0]) > 0 for e in m.happened("took", mine=True))


def _keep(m: Moment) -> bool:
    return m.to_act and m.pending.kind == "keep_treats"


def _line(m: Moment) -> bool:
    return bool(m.happened("scored", mine=True))


def _their_line(m: Moment) -> bool:
    return bool(m.happened("scored", mine=False))


def _no_score(m: Moment) -> bool:
    return bool(m.happened("no_score", mine=True))


def _last_round(m: Moment) -> bool:
    return bool(m.happened("end_triggered"))


def _over(m: Moment) -> bool:
    return m.pending.kind == "finished"


LESSON = Lesson(
    game="llamas-alpacas",
    seed=7,
    ai_seats=1,
    steps=(
        Step("start", "Welcome! You play against one AI player. Your board is the 3x3 grid "
             "under your name in the picture; lines of three matching cards score. First "
             "place your starting card: the nine grid buttons are your board's spaces, row by "
             "row. The middle space is a good start: it is part of a row and a column.",
             _start),
        Step("take", "Your turn: take one card from the row of six. **Take 1** is free. Each "
             "card further along costs one treat for every card you skip: a clover for a "
             "skipped llama, a carrot for a skipped alpaca, left lying on that card. A button "
             "you cannot afford is greyed out. **Move a card** moves one of your cards to an "
             "empty space instead.", _first_take),
        Step("place", "Now pick the space for the card you took, with the grid buttons. Aim "
             "for a row or a column of three that share an animal, a colour or a run of "
             "digits.", _place),
        Step("paid", "You paid treats for the cards you skipped. They now lie on those "
             "cards: whoever takes one of them later picks its treats up.", _paid),
        Step("picked_up", "The treats lying on the card you took are yours now: treats "
             "come back to whoever takes a card that was skipped.", _picked_up),
        Step("keep", "You hold more than 10 treats: choose which to keep. The rest go onto "
             "the next card of the row.", _keep),
        Step("line", "Your line scored! A full row or column of three counts what its cards "
             "share: the same animal, the same accessory colour (white fits any) and the same "
             "digit or a run like 1-2-3 (a star fits any digit). One, two or three of these "
             "give 2, 4 or 6 points, and the scored cards leave your board to make room.",
             _line),
        Step("their_line", "The AI scored a line: its cards left its board, so it starts "
             "that line again.", _their_line),
        Step("no_score", "That line is full but its cards share nothing, so it scores "
             "nothing and its cards stay where they are.", _no_score),
        Step("last_round", "Someone reached 18 points: this round is the last one. Make your "
             "last take count.", _last_round),
        Step("over", "That was the whole game: most points wins, ties go to most treats. "
             "Play a real game with friends with `/play game:Llamas & Alpacas`; this lesson "
             "counted in no stats or ratings.", _over),
    ),
)
