"""Llamas & Alpacas in the game's language: the cards' names (:func:`card_short`,
:func:`card_words`), the board's spaces and lines, and the thread's line for each engine
event (:func:`event_line`), worded from the event's ``data`` (the engine's ``text`` is
English)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Event
from bot.games.llamas_alpacas.cards import Card, card
from bot.i18n import ENGLISH, N_, translate, translate_n
from bot.present.base import named

#: A card's compact label by (animal, colour); ``{mark}`` is its digit or ★.
SHORT: dict[tuple[str, str], str] = {
    ("llama", "red"): N_("Llama red {mark}"), ("llama", "blue"): N_("Llama blue {mark}"),
    ("llama", "green"): N_("Llama green {mark}"), ("llama", "yellow"): N_("Llama yellow {mark}"),
    ("llama", "white"): N_("Llama white {mark}"),
    ("alpaca", "red"): N_("Alpaca red {mark}"), ("alpaca", "blue"): N_("Alpaca blue {mark}"),
    ("alpaca", "green"): N_("Alpaca green {mark}"),
    ("alpaca", "yellow"): N_("Alpaca yellow {mark}"),
    ("alpaca", "white"): N_("Alpaca white {mark}"),
}

#: A card in words by (animal, colour), with a digit (``{digit}``).
WITH_DIGIT: dict[tuple[str, str], str] = {
    ("llama", "red"): N_("a llama with a red cap and a {digit}"),
    ("llama", "blue"): N_("a llama with a blue cap and a {digit}"),
    ("llama", "green"): N_("a llama with a green cap and a {digit}"),
    ("llama", "yellow"): N_("a llama with a yellow cap and a {digit}"),
    ("llama", "white"): N_("a llama with a white cap and a {digit}"),
    ("alpaca", "red"): N_("an alpaca with a red bandana and a {digit}"),
    ("alpaca", "blue"): N_("an alpaca with a blue bandana and a {digit}"),
    ("alpaca", "green"): N_("an alpaca with a green bandana and a {digit}"),
    ("alpaca", "yellow"): N_("an alpaca with a yellow bandana and a {digit}"),
    ("alpaca", "white"): N_("an alpaca with a white bandana and a {digit}"),
}

#: A star card in words by (animal, colour).
WITH_STAR: dict[tuple[str, str], str] = {
    ("llama", "red"): N_("a llama with a red cap and a star"),
    ("llama", "blue"): N_("a llama with a blue cap and a star"),
    ("llama", "green"): N_("a llama with a green cap and a star"),
    ("llama", "yellow"): N_("a llama with a yellow cap and a star"),
    ("llama", "white"): N_("a llama with a white cap and a star"),
    ("alpaca", "red"): N_("an alpaca with a red bandana and a star"),
    ("alpaca", "blue"): N_("an alpaca with a blue bandana and a star"),
    ("alpaca", "green"): N_("an alpaca with a green bandana and a star"),
    ("alpaca", "yellow"): N_("an alpaca with a yellow bandana and a star"),
    ("alpaca", "white"): N_("an alpaca with a white bandana and a star"),
}


def card_short(c: Card, lang: str = ENGLISH) -> str:
    """``c``'s compact label in ``lang`` (English: ``"Llama red 2"``, ``"Alpaca white ★"``)."""
    mark = "★" if c.digit is None else str(c.digit)
    return translate(lang, SHORT[(c.animal, c.colour)], mark=mark)


def card_words(c: Card, lang: str = ENGLISH) -> str:
    """``c`` in words in ``lang`` (English: ``"a llama with a red cap and a 2"``)."""
    if c.digit is None:
        return translate(lang, WITH_STAR[(c.animal, c.colour)])
    return translate(lang, WITH_DIGIT[(c.animal, c.colour)], digit=c.digit)


def space_words(space: int, lang: str = ENGLISH) -> str:
    """Board space 0-8 in words (English: ``"row 2, column 3"``)."""
    return translate(lang, "row {row}, column {column}", row=space // 3 + 1,
                     column=space % 3 + 1)


def line_name(name: str, lang: str = ENGLISH) -> str:
    """An engine line name (``"Row 2"``, ``"Column 1"``) in ``lang``."""
    kind, _, number = name.partition(" ")
    if kind == "Row":
        return translate(lang, "Row {number}", number=number)
    return translate(lang, "Column {number}", number=number)


def treats(clovers: int, carrots: int, lang: str = ENGLISH) -> str:
    """``"2 clovers and 1 carrot"`` in ``lang`` (one kind alone when the other is 0)."""
    cl = translate_n(lang, "{count} clover", "{count} clovers", clovers)
    ca = translate_n(lang, "{count} carrot", "{count} carrots", carrots)
    if clovers and carrots:
        return translate(lang, "{first} and {second}", first=cl, second=ca)
    return ca if carrots else cl


def _both(first: str, second: str, lang: str) -> str:
    return translate(lang, "{first} and {second}", first=first, second=second)


#: The engine's refusals (``IllegalAction`` messages of :mod:`bot.games.llamas_alpacas.legal`)
#: for the catalogue, a seat id written ``{name}``; worded by the presenter's ``refusal``
#: (:func:`bot.present.base.refusal_words`). "The game is over.", "You are not in this
#: game." and "It is {name}'s turn." are Alpaca Pacapaca's words too (catalogued there).
REFUSALS = (
    N_("You have already placed your starting card."),
    N_("First place your starting card on an empty space of your board."),
    N_("There is no card at that position of the row."),
    N_("You cannot pay for every skipped card: each needs its own treat (clover for a llama, "
       "carrot for an alpaca) or two of the other kind."),
    N_("There is no card on that space to move."),
    N_("A card can only move to an empty space."),
    N_("Take a card from the row or move a card on your board."),
    N_("Keep exactly 10 treats out of those you hold."),
    N_("First choose which 10 treats to keep."),
    N_("Place the card on an empty space of your board."),
    N_("First place the card you took on your board."),
)

#: A scoring line's shared animal (a met condition, ``bot.games.llamas_alpacas.scoring``).
SAME_ANIMAL: dict[str, str] = {"llama": N_("three llamas"), "alpaca": N_("three alpacas")}
#: A scoring line's shared colour, by colour.
SAME_COLOUR: dict[str, str] = {
    "red": N_("all red"), "blue": N_("all blue"), "green": N_("all green"),
    "yellow": N_("all yellow"), "white": N_("all white"),
}
#: A scoring line's shared colour with a white card counted as it, by colour.
WHITE_AS: dict[str, str] = {
    "red": N_("all red (white counts as red)"), "blue": N_("all blue (white counts as blue)"),
    "green": N_("all green (white counts as green)"),
    "yellow": N_("all yellow (white counts as yellow)"),
}


def line_conditions(check: Mapping[str, Any], lang: str = ENGLISH) -> str:
    """The conditions one full line meets in ``lang`` (English: ``"three llamas, all red
    and 1-2-3"``), from their data: ``animal`` (``"llama"``/``"alpaca"``), ``colour`` (with
    ``white_as``: a white card counted as it) and ``digits`` (three digits, equal or a
    run), each ``None`` when not met."""
    parts = []
    if check.get("animal"):
        parts.append(translate(lang, SAME_ANIMAL[str(check["animal"])]))
    colour = check.get("colour")
    if colour:
        table = WHITE_AS if check.get("white_as") and colour in WHITE_AS else SAME_COLOUR
        parts.append(translate(lang, table[str(colour)]))
    if check.get("digits"):
        parts.append("-".join(str(int(d)) for d in check["digits"]))
    if not parts:
        return translate(lang, "nothing matches")
    return _both(", ".join(parts[:-1]), parts[-1], lang) if len(parts) > 1 else parts[0]


def lines_conditions(checks: Sequence[Mapping[str, Any]], lang: str = ENGLISH) -> str:
    """:func:`line_conditions` of several lines, one after the other (``"; "``)."""
    return "; ".join(line_conditions(c, lang) for c in checks)


def event_line(event: Event, names: dict[str, str], lang: str = ENGLISH) -> str:
    """The thread's line for a Llamas & Alpacas ``event`` (its ``type`` and ``data``) in
    ``lang``, seats named from ``names``; a type not worded here: the engine's text with
    the names put in."""
    d, t = event.data, event.type
    seat = str(d.get("seat", ""))
    who = names.get(seat, seat)
    if t == "placed_start":
        return translate(lang, "{name} places the starting card, {card}, on {space}.",
                         name=who, card=card_words(card(d["card"]), lang),
                         space=space_words(d["space"], lang))
    if t == "turn":
        if event.text.endswith("goes first."):
            return translate(lang, "{name} goes first.", name=who)
        return translate(lang, "It is {name}'s turn.", name=who)
    if t == "reshuffle":
        return translate_n(lang, "The discard pile is shuffled into a new draw pile of "
                           "{count} card.", "The discard pile is shuffled into a new draw "
                           "pile of {count} cards.", int(d["count"]))
    if t == "took":
        words = card_words(card(d["card"]), lang)
        paid = d.get("paid") or []
        pay = treats(sum(a for a, _ in paid), sum(b for _, b in paid), lang)
        up_cl, up_ca = d.get("picked_up") or (0, 0)
        up = treats(up_cl, up_ca, lang)
        if paid and (up_cl or up_ca):
            return translate(lang, "{name} takes card {position}, {card}, paying {paid}, "
                             "picking up {treats}.", name=who, position=d["position"],
                             card=words, paid=pay, treats=up)
        if paid:
            return translate(lang, "{name} takes card {position}, {card}, paying {paid}.",
                             name=who, position=d["position"], card=words, paid=pay)
        if up_cl or up_ca:
            return translate(lang, "{name} takes card {position}, {card}, picking up "
                             "{treats}.", name=who, position=d["position"], card=words,
                             treats=up)
        return translate(lang, "{name} takes card {position}, {card}.", name=who,
                         position=d["position"], card=words)
    if t == "kept":
        return translate(lang, "{name} keeps {kept} and puts {excess} on card {position} "
                         "of the row.", name=who, kept=treats(d["kept"][0], d["kept"][1], lang),
                         excess=treats(d["excess"][0], d["excess"][1], lang), position=d["position"])
    if t == "placed":
        return translate(lang, "{name} places {card} on {space}.", name=who,
                         card=card_words(card(d["card"]), lang),
                         space=space_words(d["space"], lang))
    if t == "replaced":
        return translate(lang, "{name}'s board is full: {card} replaces {old} on {space}.",
                         name=who, card=card_words(card(d["card"]), lang),
                         old=card_words(card(d["replaced"]), lang),
                         space=space_words(d["space"], lang))
    if t == "moved":
        return translate(lang, "{name} moves {card} from {src} to {dst}.", name=who,
                         card=card_words(card(d["card"]), lang),
                         src=space_words(d["src"], lang), dst=space_words(d["dst"], lang))
    if t == "no_score":
        full = [line_name(x, lang) for x in d.get("lines", [])]
        lines = _both(", ".join(full[:-1]), full[-1], lang) if len(full) > 1 else "".join(full)
        return translate_n(lang, "{lines} of {name}'s board is full but scores nothing.",
                           "{lines} of {name}'s board are full but score nothing.",
                           len(full), lines=lines, name=who)
    if t == "scored":
        scored = "; ".join(translate_n(lang, "{line}: {count} point", "{line}: {count} points",
                                       int(x["points"]), line=line_name(x["name"], lang))
                           for x in d.get("lines", []))
        return translate_n(lang, "{name} scores {count} point ({lines}); the cards of the "
                           "scored lines go to the discard pile.", "{name} scores {count} "
                           "points ({lines}); the cards of the scored lines go to the discard "
                           "pile.", int(d["points"]), name=who, lines=scored)
    if t == "end_triggered":
        return translate(lang, "{name} has 18 points or more: this round is the last.",
                         name=who)
    if t == "game_over" and d.get("winners"):
        winners = [str(w) for w in d["winners"]]
        best = translate_n(lang, "{count} point", "{count} points",
                           int(d.get("scores", {}).get(winners[0], 0)))
        if len(winners) == 1:
            return translate(lang, "{name} wins with {points}.",
                             name=names.get(winners[0], winners[0]), points=best)
        named_ = [names.get(w, w) for w in winners]
        return translate(lang, "Shared victory for {names} with {points} each.",
                         names=_both(", ".join(named_[:-1]), named_[-1], lang), points=best)
    return named(event.text, names)


#: The ``/rules`` summary, paragraph by paragraph (the spec's ``RULES_SUMMARY`` in the same
#: words; rulebook "Setup", "Your turn", "Scoring", "Game End").
RULES: tuple[str, ...] = (
    N_("**Llamas & Alpacas** - build lines of three matching animals on your 3x3 board."),
    N_("**Start:** everyone has 3 clovers, 3 carrots and one starting card to place anywhere. "
       "Six cards lie face up in a row."),
    N_("**Your turn - do one:**\n"
       "- **Take** a card from the row and put it on an empty space. Card 1 is free. For a "
       "later card, feed every card you skip: a clover for a llama, a carrot for an alpaca "
       "(or two of the other treat if you have none of the right one). Treats lying on your "
       "card are yours. You may hold 10 treats at most; the rest go onto the next card.\n"
       "- **Move** one of your cards to an empty space."),
    N_("**Scoring:** when a row or column of three is complete, check: same animal, same "
       "accessory colour (white fits any colour), same digit or a run like 1-2-3 or 4-3-2 in "
       "order (a star fits any digit). 1 / 2 / 3 of these give 2 / 4 / 6 points and the "
       "scored cards leave your board. A full board means your new card replaces one."),
    N_("**End:** once someone has 18 points, finish the round. Most points wins; ties go to "
       "most treats, then a shared victory."),
)


def rules_summary(lang: str = ENGLISH) -> str:
    """The ``/rules`` summary of Llamas & Alpacas in ``lang`` (markdown)."""
    return "\n\n".join(translate(lang, paragraph) for paragraph in RULES) + "\n"


__all__ = ["REFUSALS", "RULES", "rules_summary", "card_short", "card_words", "event_line", "line_conditions", "line_name", "lines_conditions", "space_words", "treats"]
