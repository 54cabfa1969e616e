"""Llamas Unleashed end-of-game scoring (rulebook, The Game Ends; RULES.md: Llamas
Unleashed): the Animals count, the letters tie-break after a deck-out and the final
:class:`~bot.games.base.Result`."""

from __future__ import annotations

from bot.games.base import Result, ScoreLine
from bot.games.unleashed.effects.statics import animal_count, card, name
from bot.games.unleashed.models import UnleashedState


def letters(st: UnleashedState, seat: str) -> int:
    """Letters in the names of the Animal cards in ``seat``'s Field (deck-out tie-break)."""
    return sum(sum(ch.isalpha() for ch in name(c)) for c in st.fields[seat]
               if card(c).is_animal)


def deck_out_winners(st: UnleashedState) -> list[str]:
    """Rulebook, The Game Ends: most Animals; tie: most letters in their Animals' names;
    still tied: everyone loses (empty list)."""
    best = max(animal_count(st, s) for s in st.seats)
    tied = [s for s in st.seats if animal_count(st, s) == best]
    if len(tied) > 1:
        most = max(letters(st, s) for s in tied)
        tied = [s for s in tied if letters(st, s) == most]
    return tied if len(tied) == 1 else []


def final_result(st: UnleashedState, winners: list[str], reason: str) -> Result:
    """The :class:`Result`: per seat its Animals (the score) and, as a second line, the
    letters of their names; ``winners`` and ``reason`` as given."""
    scores = {s: animal_count(st, s) for s in st.seats}
    breakdown = {s: [ScoreLine(label="Animals", points=scores[s]),
                     ScoreLine(label="Letters in Animal names", points=letters(st, s))]
                 for s in st.seats}
    return Result(scores=scores, winners=winners, breakdown=breakdown, reason=reason)
