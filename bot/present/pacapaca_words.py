"""Alpaca Pacapaca's words in a language (:mod:`bot.i18n`): card names and blurbs, the
thread's lines for the engine's events, the final score lines and the ``/rules`` summary.

The engine's events carry English texts for the game log; the thread shows the lines
worded here from each event's ``data`` (:func:`event_line`), in the game's language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.games.base import Event
from bot.games.pacapaca.cards import catalog
from bot.i18n import ENGLISH, N_, translate, translate_n
from bot.present.base import named

#: An engine's seat id in its words (``s0``, ``s1`` ...).

#: The names and blurbs of ``seeds/pacapaca.json`` (heads, bodies, then each kind's name
#: and blurb), marked for the catalogue; shown through :func:`card_name` /
#: :func:`card_blurb` (a test checks this list against the seeds).
SEED_WORDS = (
    N_("Fluffy Fringe"), N_("Sleepy Lids"), N_("Curly Top"), N_("Big Grin"),
    N_("Shy Blush"), N_("Proud Ears"),
    N_("Cream Puff"), N_("Cocoa Fluff"), N_("Chestnut Coat"), N_("Honey Wool"),
    N_("Snowball"), N_("Caramel Cloud"),
    N_("Plain neck"), N_("A bare stretch of neck: it only adds length."),
    N_("Scarf top"), N_("The upper end of a scarf; needs a scarf bottom to count."),
    N_("Scarf middle"), N_("Lengthens a finished scarf; lost if no scarf is finished."),
    N_("Scarf bottom"), N_("The lower end of a scarf; needs a scarf top to count."),
    N_("Bow, left loop"), N_("Half a bow; pairs with a right loop for 6 points."),
    N_("Bow, right loop"), N_("Half a bow; pairs with a left loop for 6 points."),
    N_("Bell charm"), N_("A jingling charm: 1 point, and part of the set of four."),
    N_("Heart charm"), N_("A little heart: 1 point, and part of the set of four."),
    N_("Star charm"), N_("A shiny star: 1 point, and part of the set of four."),
    N_("Leaf charm"), N_("A green leaf: 1 point, and part of the set of four."),
    N_("Mud splat"), N_("A muddy patch: still neck, but minus 1 point."),
    N_("Baby boy"), N_("Stands beside the parent: 3 points if the parent has a finished scarf."),
    N_("Baby girl"), N_("Stands beside the parent: 3 points if the parent has a finished bow."),
)


def card_name(card: int, lang: str = ENGLISH) -> str:
    """Display name of a card id in ``lang`` (our own words, from ``seeds/pacapaca.json``).
    Raises ``KeyError`` for an unknown id."""
    return translate(lang, catalog().name_of(card))


def card_blurb(card: int, lang: str = ENGLISH) -> str:
    """The one-line blurb of a neck card or baby ``card`` in ``lang``. Raises ``KeyError``
    for a head, a body or an unknown id."""
    return translate(lang, catalog().card_kind(card).blurb)


def card_list(cards: Sequence[int], lang: str = ENGLISH) -> str:
    """``"Scarf top; Bow, right loop"`` or ``"nothing"`` (semicolons: some names hold a
    comma), in ``lang``."""
    return "; ".join(card_name(c, lang) for c in cards) if cards else translate(lang, "nothing")


def names_and(names: Sequence[str], lang: str = ENGLISH) -> str:
    """``"Maya"``, ``"Maya and Ana"``, ``"Maya, Tomasz and Ana"`` in ``lang``."""
    if len(names) <= 1:
        return "".join(names)
    return translate(lang, "{first} and {second}", first=", ".join(names[:-1]),
                     second=names[-1])


def _who(event: Event, key: str, names: dict[str, str]) -> str:
    seat = str(event.data.get(key, ""))
    return names.get(seat, seat)


def event_line(event: Event, names: dict[str, str], lang: str = ENGLISH) -> str:
    """The thread's line for a Pacapaca ``event`` (its ``type`` and ``data``), names from
    ``names`` (seat -> name), in ``lang``; an event of a type not worded here: its own
    text with the names put in."""
    d, t = event.data, event.type
    who = _who(event, "seat", names)
    if t == "proposed" and "active" in d:
        return translate(lang, "{name} proposed: {active} gives {active_gives}; {partner} "
                         "gives {partner_gives}.", name=who,
                         active=_who(event, "active", names),
                         active_gives=card_list(d.get("active_gives", []), lang),
                         partner=_who(event, "partner", names),
                         partner_gives=card_list(d.get("partner_gives", []), lang))
    if t == "kept":
        return translate(lang, "{name} added a {card} and put the other card face down on "
                         "the pile.", name=who, card=card_name(int(d["card"]), lang))
    if t == "discarded":
        return translate(lang, "You put your {cards} face down on the pile.",
                         cards=card_list(d.get("cards", []), lang))
    if t == "took_pile":
        cards = d.get("cards", [])
        return translate_n(lang, "{name} took the discard pile ({count} card): {cards}.",
                           "{name} took the discard pile ({count} cards): {cards}.",
                           len(cards), name=who, cards=card_list(cards, lang))
    if t == "negotiation_started":
        return translate_n(lang, "{name} opened a negotiation with {partner} ({count} "
                           "second).", "{name} opened a negotiation with {partner} ({count} "
                           "seconds).", int(d.get("seconds", 0)), name=who,
                           partner=_who(event, "partner", names))
    if t == "accepted":
        return translate(lang, "{name} accepted the deal.", name=who)
    if t == "declined":
        return translate(lang, "{name} declined the deal.", name=who)
    if t == "negotiation_failed":
        can_draw = d.get("can_draw", "can only pass" not in event.text)
        if d.get("reason") == "timeout":
            return (translate(lang, "Time ran out, so the negotiation failed; they must now "
                              "draw or take the pile.") if can_draw else
                    translate(lang, "Time ran out, so the negotiation failed; they can only "
                              "pass."))
        return (translate(lang, "{name} gave up the negotiation; they must now draw or take "
                          "the pile.", name=who) if can_draw else
                translate(lang, "{name} gave up the negotiation; they can only pass.",
                          name=who))
    if t == "passed":
        return translate(lang, "{name} cannot draw or take the pile, so they pass.", name=who)
    if t == "drew_last":
        return translate(lang, "{name} drew the last card, a {card}, and added it.", name=who,
                         card=card_name(int(d["card"]), lang))
    if t == "drew":
        return translate(lang, "{name} drew two cards and is choosing one.", name=who)
    if t == "drew_private":
        return translate(lang, "You drew {cards}: keep one, the other goes face down on the "
                         "pile.", cards=card_list(d.get("cards", []), lang))
    if t == "traded":
        return translate(lang, "Deal! {name} gave {gave} and got {got} from {partner}.",
                         name=who, gave=card_list(d.get("active_gives", []), lang),
                         got=card_list(d.get("partner_gives", []), lang),
                         partner=_who(event, "partner", names))
    if t == "final_round":
        return translate(lang, "The deck is empty: everyone takes one last turn.")
    if t == "turn":
        return translate(lang, "It is {name}'s turn.", name=who)
    if t == "game_over":
        winners = [names.get(s, s) for s in d.get("winners", [])]
        if len(winners) == 1:
            return translate(lang, "The game is over: {names} wins.", names=winners[0])
        return translate(lang, "The game is over: {names} share the win.",
                         names=names_and(winners, lang))
    return named(event.text, names)


#: The engine's refusals (``IllegalAction`` messages of :mod:`bot.games.pacapaca.legal`),
#: a seat id written ``{name}``; worded by the presenter's ``refusal``
#: (:func:`bot.present.base.refusal_words`).
REFUSALS = frozenset({
    N_("A card is named twice in that deal."), N_("A deal must move at least one card."),
    N_("Finish the negotiation first: accept, propose or give up."),
    N_("Heads and bodies cannot be traded."), N_("It is {name}'s turn."),
    N_("Keep one of the two cards you drew first."),
    N_("Neither of you has a card to trade yet."),
    N_("No more proposals this time: accept, decline or give up."),
    N_("No negotiation is running."), N_("Only the clock can end a negotiation."),
    N_("Only the invited player declines; you can give up."),
    N_("Only the player whose turn it is can give up."),
    N_("Only the two negotiating players can act now."),
    N_("That card is not one of the two you drew."), N_("That move is not possible now."),
    N_("That player is not in this game."),
    N_("The deal changed since you saw it; look again."), N_("The deck is empty."),
    N_("The discard pile is empty."), N_("The game is over."),
    N_("There is no deal to accept yet."), N_("There is no deal to decline."),
    N_("You already accepted this deal."),
    N_("You already negotiated this turn: draw or take the pile."),
    N_("You are not in this game."), N_("You can only ask for cards {name}'s alpaca has."),
    N_("You can only offer cards your alpaca has."), N_("You can still draw or take the pile."),
    N_("You cannot negotiate with yourself."), N_("You have no drawn cards to keep."),
})
_SCORE_LABELS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"Neck (\d+) long, longest$"), N_("Neck {count} long, longest")),
    (re.compile(r"Neck (\d+) long, second longest$"), N_("Neck {count} long, second longest")),
    (re.compile(r"Neck (\d+) long, tied longest, (\d+) each, no second place$"),
     N_("Neck {count} long, tied longest, {each} each, no second place")),
    (re.compile(r"Neck (\d+) long, tied second, (\d+) each$"),
     N_("Neck {count} long, tied second, {each} each")),
    (re.compile(r"Neck (\d+) long$"), N_("Neck {count} long")),
    (re.compile(r"Bows x(\d+)$"), N_("Bows x{count}")),
    (re.compile(r"Scarves x(\d+) \((\d+) cards\)$"), N_("Scarves x{count} ({cards} cards)")),
    (re.compile(r"Charms x(\d+)$"), N_("Charms x{count}")),
    (re.compile(r"All four charms bonus$"), N_("All four charms bonus")),
    (re.compile(r"Mud x(\d+)$"), N_("Mud x{count}")),
    (re.compile(r"Baby boy x(\d+) \(no scarf\)$"), N_("Baby boy x{count} (no scarf)")),
    (re.compile(r"Baby boy x(\d+)$"), N_("Baby boy x{count}")),
    (re.compile(r"Baby girl x(\d+) \(no bow\)$"), N_("Baby girl x{count} (no bow)")),
    (re.compile(r"Baby girl x(\d+)$"), N_("Baby girl x{count}")),
)


def score_label(label: str, lang: str = ENGLISH) -> str:
    """A score line's label (the engine's English, :mod:`bot.games.pacapaca.scoring`) in
    ``lang``; a label of another shape as it is."""
    for pattern, msgid in _SCORE_LABELS:
        found = pattern.match(label)
        if found:
            values = dict(zip(("count", "each" if "each" in msgid else "cards"),
                              found.groups(), strict=False))
            return translate(lang, msgid, **values)
    return label


#: The ``/rules`` summary of Alpaca Pacapaca, paragraph by paragraph (RULES.md and the
#: rulebook: a turn, negotiating, scoring).
RULES = (
    N_("**Alpaca Pacapaca** - grow the longest, best-dressed alpaca neck. 2-6 players."),
    N_("Everyone starts with a head and a body. On your turn do one of:\n"
       "- **Draw 2**: look at two cards secretly, add one to your neck, put the other face "
       "down on the discard pile. (One card left? Draw it and add it.)\n"
       "- **Take the pile**: add every card of the discard pile to your neck.\n"
       "- **Negotiate**: pick another player; within 60 seconds you both shape one swap of "
       "neck cards or babies (any sizes, even 0 for 2). It happens only if you both accept "
       "the same deal. No deal? Draw or take the pile instead; no second negotiation that "
       "turn."),
    N_("When the deck runs out, everybody gets one last turn, then scoring:\n"
       "1. Half-finished looks fall off: a bow needs a left and a right loop; a scarf needs "
       "a top and a bottom (middles stretch a finished scarf, otherwise they fall off "
       "too).\n"
       "2. Longest neck 4, second 2 (a tie for longest: 3 each and no second; a tie for "
       "second: 1 each). Mud counts as neck.\n"
       "3. Bow 6; scarf 2 per card; charm 1 each, +5 once for all four kinds; mud -1 each.\n"
       "Babies (optional, always with 6 players) stand beside the parent: a boy scores 3 if "
       "the parent wears a finished scarf, a girl 3 with a finished bow."),
    N_("Highest total wins; ties share the win."),
)


def rules_summary(lang: str = ENGLISH) -> str:
    """The ``/rules`` summary of Alpaca Pacapaca in ``lang`` (markdown)."""
    return "\n\n".join(translate(lang, paragraph) for paragraph in RULES)


__all__ = ["REFUSALS", "RULES", "SEED_WORDS", "card_blurb", "card_list", "card_name", "event_line",
           "names_and", "rules_summary", "score_label"]
