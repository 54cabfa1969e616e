"""The Alpaca Pacapaca lesson: one Easy AI seat; the rules it teaches are the rulebook's
(A turn, Negotiating, Scoring) as summed up in ``RULES_SUMMARY``."""

from __future__ import annotations

from bot.i18n import N_
from bot.present.lessons.base import Lesson, Moment, Step


def _first_turn(m: Moment) -> bool:
    return m.to_act and m.pending.kind == "turn" and getattr(m.view, "phase", "") == "turn"


def _drawn(m: Moment) -> bool:
    return m.to_act and getattr(m.view, "phase", "") == "drawn"


def _pile(m: Moment) -> bool:
    return bool(m.happened("took_pile", mine=True))


def _negotiation(m: Moment) -> bool:
    neg = getattr(m.view, "negotiation", None)
    return (m.pending.kind == "negotiation" and neg is not None
            and m.seat in (neg.active, neg.partner))


def _rejected(m: Moment) -> bool:
    return bool(m.happened("declined") or m.happened("negotiation_failed"))


def _traded(m: Moment) -> bool:
    return bool(m.happened("traded"))


def _final_round(m: Moment) -> bool:
    return bool(m.happened("final_round"))


def _over(m: Moment) -> bool:
    return m.pending.kind == "finished"


LESSON = Lesson(
    game="pacapaca",
    seed=5,
    ai_seats=1,
    steps=(
        Step("start", N_("Welcome! You play against one AI player. Your alpaca is the head and "
             "body in the picture: every card you add makes its neck longer, and a finished "
             "scarf, bow or charms on it score. On your turn do one of three things: **Draw "
             "2** (look at two cards, keep one), **Take discard pile** (add every card of the "
             "pile to your neck) or **Negotiate** (a one-minute swap of neck cards with "
             "another player)."), _first_turn),
        Step("drawn", N_("You drew two cards that only you can see: press **Keep** on the one "
             "you want on your neck. The other goes face down onto the discard pile, so the "
             "next player who takes the pile gets it without knowing."), _drawn),
        Step("pile", N_("You took the whole discard pile: every card of it joined your neck, "
             "the good and the bad (mud costs a point each at the end)."), _pile),
        Step("negotiation", N_("A negotiation is open for one minute. Both players shape one "
             "deal: **Edit deal** picks the cards you give and the cards you get (any number, "
             "even none for two). The swap happens only when both of you accept the same "
             "deal; a new proposal clears the acceptances. Talk it over in the chat "
             "meanwhile."), _negotiation),
        Step("rejected", N_("No deal this time: a proposal was declined or the minute ran out. "
             "The one who opened the negotiation now draws or takes the pile instead, and "
             "cannot negotiate again this turn."), _rejected),
        Step("traded", N_("Deal! Both accepted the same proposal, so the cards changed necks."),
             _traded),
        Step("final_round", N_("The deck is empty: everyone takes one last turn, then the "
             "scoring. Half-finished scarves and bows fall off first."), _final_round),
        Step("over", N_("That was the whole game: the longest neck scores 4, the second 2, a "
             "finished bow 6, a scarf 2 per card, charms 1 each. Play with friends with "
             "`/play game:Alpaca Pacapaca`; this lesson counted in no stats or ratings."),
             _over),
    ),
)
