"""The Llamas Unleashed lesson: one Easy AI seat; the rules it teaches are the rulebook's
(Set-up, Playing the Game, Instants, Herd Bonuses) as summed up in ``RULES_SUMMARY``."""

from __future__ import annotations

from bot.i18n import N_
from bot.present.lessons.base import Lesson, Moment, Step


def _phase(m: Moment) -> str:
    return str(getattr(m.view, "phase", ""))


def _baby(m: Moment) -> bool:
    return m.to_act and m.pending.kind == "setup"


def _start_of_turn(m: Moment) -> bool:
    return m.to_act and m.pending.kind == "turn" and _phase(m) == "start"


def _action(m: Moment) -> bool:
    return m.to_act and m.pending.kind == "turn" and _phase(m) == "action"


def _instant(m: Moment) -> bool:
    return m.to_act and m.pending.kind == "reaction"


def _target(m: Moment) -> bool:
    return m.to_act and m.pending.kind == "choice"


def _chain(m: Moment) -> bool:
    return bool(m.happened("respond"))


def _herd(m: Moment) -> bool:
    return any("Herd Bonus" in e.text for e in m.happened("activate")) or any(
        str(e.data.get("source", "")).startswith("herd:") for e in m.events)


def _over(m: Moment) -> bool:
    return m.pending.kind == "over"


LESSON = Lesson(
    game="llamas-unleashed",
    seed=3,
    ai_seats=1,
    # A newcomer reads the explanation first: two minutes to answer, ten to pick a Baby.
    options={"reaction_seconds": 120.0, "setup_seconds": 600.0},
    steps=(
        Step("baby", N_("Welcome! You play against one AI player; the first to have 7 Animals "
             "in their Field wins. First choose your Baby: Babies are Animals that never go "
             "into a deck or a hand. Each player picks one from the Nursery to start their "
             "Field, and a Baby that would leave a Field goes back to the Nursery. Press "
             "**Choose your Baby**."), _baby),
        Step("turn", N_("Your turn starts. Your Herd Bonuses (three or more Animals of one "
             "kind) and your cards' start-of-turn effects come first: use an optional one "
             "now or lose it. Then **Go to the Draw phase**: you draw a card."),
             _start_of_turn),
        Step("action", N_("Your Action phase: play one card from your hand with the select, or "
             "draw one more card. Animals go into your Field; Magic does its effect once; "
             "Upgrades and Downgrades stay in the Field they are played into. **My hand** "
             "shows your cards with their text, only to you."), _action),
        Step("target", N_("The card asks you to choose: each prompt says what the choice is "
             "for. Pick one of the options shown."), _target),
        Step("instant", N_("The other player played a card, and you may answer it: an Instant "
             "is played from your hand at once, in someone else's turn, to answer the card "
             "just played (for example to cancel it). **Respond** opens the Instants you can "
             "play now; **Pass** lets the card go ahead. In a real game the window is short; "
             "in this lesson it stays open for two minutes."), _instant),
        Step("chain", N_("An Instant answered a card: answers pile up on the card and resolve "
             "last first, and the answered player may answer back. Nobody wins until the "
             "whole chain has resolved."), _chain),
        Step("herd", N_("A Herd Bonus! With three or more Animals of one kind at the start of a "
             "turn, that kind's bonus applies: Llamas may draw 1, Alpacas cannot be destroyed "
             "until the next turn, Goats may take the top discard, Rams may discard 1 to "
             "destroy another player's Animal."), _herd),
        Step("over", N_("That was the whole game. Play with friends with `/play game:Llamas "
             "Unleashed`, and look any card up with `/card`; this lesson counted in no stats "
             "or ratings."), _over),
    ),
)
