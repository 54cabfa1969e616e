"""Llamas Unleashed in words, in a language: card names and type lines, Herd Bonuses,
the questions of the effect chain and their options, and the engine's events as the
thread's lines (:func:`event_line`). Pure; the language is an input (:mod:`bot.i18n`).

Card names and rules text come from the seeds and are translated with their contexts
(:data:`bot.i18n.CARD_NAME`, :data:`bot.i18n.CARD_TEXT`); everything else is a whole
sentence of this module with named placeholders.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.games.base import Event
from bot.games.unleashed.cards import KIND_NAMES, TYPE_NAMES, catalog
from bot.games.unleashed.engine import HAND_SIZE
from bot.games.unleashed.models import ChoiceOption, ChoiceView
from bot.i18n import CARD_NAME, CARD_TEXT, ENGLISH, N_, translate, translate_in, translate_n
from bot.present.base import named

#: The engine's refusals (``IllegalAction`` messages of :mod:`bot.games.unleashed.engine`)
#: for the catalogue; worded by the presenter's ``refusal``
#: (:func:`bot.present.base.refusal_words`). "The game is over." is Alpaca Pacapaca's too.
REFUSALS = (
    N_("It is not your decision right now."),
    N_("You cannot do that right now."),
)
#: Card types in words (``"basic"`` -> ``"Basic Animal"``), English: the card faces'
#: words (context :data:`~bot.i18n.CARD_NAME`).
TYPE_WORDS = TYPE_NAMES
#: Animal kinds in words (one animal), English, as :data:`TYPE_WORDS`.
KIND_WORDS = KIND_NAMES
#: A kind's Herd Bonus as a noun, English.
HERD_WORDS = {"llama": N_("the Llama Herd Bonus"), "alpaca": N_("the Alpaca Herd Bonus"),
              "goat": N_("the Goat Herd Bonus"), "ram": N_("the Ram Herd Bonus")}


def name_of(lang: str, english: str) -> str:
    """A card's name (as the seeds spell it) in ``lang``."""
    return english if lang == ENGLISH else translate_in(lang, CARD_NAME, english)


def card_name(lang: str, cid: int) -> str:
    """The name of card ``cid`` in ``lang``."""
    return name_of(lang, catalog()[cid].name)


def card_text(lang: str, english: str) -> str:
    """A card's rules text (as the seeds write it) in ``lang``."""
    return english if lang == ENGLISH else translate_in(lang, CARD_TEXT, english)


def type_word(lang: str, ctype: str) -> str:
    """A card type in words: ``"Basic Animal"``."""
    return translate_in(lang, CARD_NAME, TYPE_WORDS[ctype])


def kind_word(lang: str, kind: str) -> str:
    """An animal kind in words (``"Llama"``; an unknown kind as written, capitalised)."""
    return translate_in(lang, CARD_NAME, KIND_WORDS[kind]) if kind in KIND_WORDS \
        else kind.title()


def kinds_count(lang: str, kind: str, n: int) -> str:
    """``n`` animals of ``kind`` (the highlight's herd): ``"2 llamas"``, ``"1 ram"``."""
    if kind == "llama":
        return translate_n(lang, "{count} llama", "{count} llamas", n)
    if kind == "alpaca":
        return translate_n(lang, "{count} alpaca", "{count} alpacas", n)
    if kind == "goat":
        return translate_n(lang, "{count} goat", "{count} goats", n)
    if kind == "ram":
        return translate_n(lang, "{count} ram", "{count} rams", n)
    return translate_n(lang, "{count} animal", "{count} animals", n)


def herd_word(lang: str, kind: str) -> str:
    """A kind's Herd Bonus: ``"the Ram Herd Bonus"``."""
    if kind in HERD_WORDS:
        return translate(lang, HERD_WORDS[kind])
    return translate(lang, "the {kind} Herd Bonus", kind=kind.title())


def card_line(cid: int, lang: str = ENGLISH) -> str:
    """The type line of card ``cid``: ``"Basic Animal · Llama"``, ``"Magic"``."""
    d = catalog()[cid]
    kind = f" \u00b7 {kind_word(lang, d.kind)}" if d.kind else ""
    return f"{type_word(lang, d.type)}{kind}"


def source_words(lang: str, source: str) -> str:
    """A trigger source (``"herd:ram"``, ``"card:<id>"``) in words: the Herd Bonus or the
    card's name."""
    kind, _, ref = source.partition(":")
    if kind == "herd":
        return herd_word(lang, ref)
    return card_name(lang, int(ref)) if ref.isdigit() else source


def animals(lang: str, n: int) -> str:
    """``"1 Animal"``, ``"7 Animals"``."""
    return translate_n(lang, "{count} Animal", "{count} Animals", n)


def cards(lang: str, n: int) -> str:
    """``"a card"`` / ``"3 cards"`` (a draw)."""
    if n == 1:
        return translate(lang, "a card")
    return translate_n(lang, "{count} card", "{count} cards", n)


#: The ``/rules`` summary of Llamas Unleashed, line by line (the spec's
#: ``RULES_SUMMARY``: the rulebook's Set-up, Playing the Game, Instants and Herd Bonuses,
#: and RULES.md's rulings).
RULES = (
    N_("**Llamas Unleashed** - 2 to 8 players. Be the first with **7 Animals** in your "
        "Field (**6** with 6-8 players)."),
    N_("**Set-up:** everyone picks a Baby from the Nursery for their Field, gets 5 "
        "cards, and a random player starts."),
    N_("**Your turn:** 1) start of turn: Herd Bonuses (3+ Animals of one kind) and "
        "your cards' start-of-turn effects; optional ones are lost once you move on. 2) "
        "Draw a card. 3) Play one card or draw one more. 4) Discard down to your hand "
        "limit (7)."),
    N_("**Cards:** Animals (Llama, Alpaca, Goat, Ram), Magic (one-shot, then "
        "discarded), Upgrades and Downgrades (stay in the Field they are played into "
        "and affect that player), Instants (played when another player plays a card)."),
    N_("**Answering:** after every play, players holding an Instant get a short "
        "window. Answers pile up and resolve last first; the answered player may answer "
        "back. Cards brought straight into a Field cannot be answered."),
    N_("**Herds:** Llama - may draw 1. Alpaca - your Alpacas cannot be destroyed until "
        "your next turn. Goat - may take the top discard. Ram - may discard 1; if you "
        "do, destroy another player's Animal."),
    N_("**\"If you do\":** you may do the first part whenever it is possible; if the "
        "second part is then impossible, it is skipped."),
    N_("**End:** nobody wins until the whole chain has resolved. If the deck runs out: "
        "most Animals wins, then most letters in their names; still tied, everyone "
        "loses."),
)


def rules_summary(lang: str = ENGLISH) -> str:
    """The ``/rules`` summary of Llamas Unleashed in ``lang`` (markdown)."""
    return "\n".join(translate(lang, line) for line in RULES)


# -- the effect chain's questions -------------------------------------------------------

#: What each question asks (``Choice.ask``), English, without and with what it is for
#: (``{source}``: a card's name or a Herd Bonus); ``{card}``: the card it names,
#: ``{name}``: the player.
ASK: dict[str, tuple[str, str]] = {
    "optional": (N_("Do you want to use this effect?"),
                 N_("Do you want to use this effect ({source})?")),
    "choose_one": (N_("Choose one:"),
                   N_("Choose one ({source}):")),
    "players": (N_("Choose a player (or Done):"),
                N_("Choose a player (or Done) ({source}):")),
    "move_into": (N_("Move {card} into whose Field?"),
                  N_("Move {card} into whose Field ({source})?")),
    "take_from": (N_("{name}'s hand: choose a card to take."),
                  N_("{name}'s hand: choose a card to take ({source}).")),
    "discard": (N_("Choose a card to discard:"),
                N_("Choose a card to discard ({source}):")),
    "sacrifice": (N_("Choose a card in your Field to sacrifice:"),
                  N_("Choose a card in your Field to sacrifice ({source}):")),
    "destroy": (N_("Choose a card to destroy:"),
                N_("Choose a card to destroy ({source}):")),
    "steal": (N_("Choose a card to steal:"),
              N_("Choose a card to steal ({source}):")),
    "return_card": (N_("Choose a card to return to its player's hand:"),
                    N_("Choose a card to return to its player's hand ({source}):")),
    "move": (N_("Choose a card to move:"),
             N_("Choose a card to move ({source}):")),
    "pull": (N_("Pull a random card from whose hand?"),
             N_("Pull a random card from whose hand ({source})?")),
    "look_take": (N_("Look at whose hand?"),
                  N_("Look at whose hand ({source})?")),
    "swap_hands": (N_("Swap hands with whom?"),
                   N_("Swap hands with whom ({source})?")),
    "skip_turn": (N_("Who skips their next turn?"),
                  N_("Who skips their next turn ({source})?")),
    "take_discard": (N_("Choose a card from the discard pile:"),
                     N_("Choose a card from the discard pile ({source}):")),
    "search": (N_("Choose a card from the deck:"),
               N_("Choose a card from the deck ({source}):")),
    "bring:hand": (N_("Choose a card from your hand to bring into your Field:"),
                   N_("Choose a card from your hand to bring into your Field ({source}):")),
    "bring:deck": (N_("Choose a card from the deck to bring into your Field:"),
                   N_("Choose a card from the deck to bring into your Field ({source}):")),
    "bring:discard": (N_("Choose a card from the discard pile to bring into your Field:"),
                      N_("Choose a card from the discard pile to bring into your Field ({source}):")),
    "bring:nursery": (N_("Choose a card from the Nursery to bring into your Field:"),
                      N_("Choose a card from the Nursery to bring into your Field ({source}):")),
}


def choice_source(lang: str, choice: ChoiceView) -> str:
    """What ``choice`` is for in words (the card's name or the Herd Bonus), ``""``."""
    if choice.source is not None:
        return card_name(lang, choice.source)
    if choice.herd is not None:
        return herd_word(lang, choice.herd)
    return ""


def prompt_words(lang: str, choice: ChoiceView, names: Mapping[str, str]) -> str:
    """The question of ``choice`` in ``lang`` (``names``: seat -> name), with what it is
    for (``"Choose a card to steal (Lasso):"``); the engine's English words when it left
    no key."""
    if choice.ask not in ASK:
        return named(choice.prompt, dict(names))
    about = card_name(lang, choice.about) if choice.about is not None else ""
    who = names.get(choice.whose or "", choice.whose or "")
    source = choice_source(lang, choice)
    plain, sourced = ASK[choice.ask]
    return translate(lang, sourced if source else plain, card=about, name=who, source=source)


def option_words(lang: str, option: ChoiceOption, names: Mapping[str, str],
                 owner: str | None = None) -> str:
    """An option of a choice in ``lang``: a card's name (with its Field's owner,
    ``owner``, when it is in a Field), a player's name, Yes, No, Done choosing, or a
    choose-one branch (its words from the card's text)."""
    if option.card is not None:
        nm = card_name(lang, option.card)
        if owner is not None:
            return translate(lang, "{card} ({name})", card=nm, name=names.get(owner, owner))
        return nm
    if option.seat is not None:
        return names.get(option.seat, option.seat)
    if option.value == "yes":
        return translate(lang, "Yes")
    if option.value == "no":
        return translate(lang, "No")
    if option.value == "done":
        return translate(lang, "Done choosing")
    return card_text(lang, option.label)


def card_owner(option: ChoiceOption) -> str | None:
    """The seat whose Field holds the card of ``option`` (the engine writes it in brackets
    after the name), ``None``."""
    if option.card is None or not option.label.endswith(")") or " (" not in option.label:
        return None
    return option.label.rsplit(" (", 1)[1][:-1] or None


# -- events -----------------------------------------------------------------------------

Words = Callable[[str, dict[str, Any], Callable[[str], str], Callable[[int], str]], str]


def _where_brought(lang: str, src: str) -> str:
    return {"hand": translate(lang, "their hand"), "deck": translate(lang, "the deck"),
            "discard": translate(lang, "the discard pile"),
            "nursery": translate(lang, "the Nursery")}.get(src, src)


def _play(lang: str, d: dict[str, Any], who: Callable[[str], str],
          card: Callable[[int], str]) -> str:
    if d.get("field") is None:
        return translate(lang, "{name} plays {card}.", name=who(d["seat"]), card=card(d["card"]))
    if d["field"] == d["seat"]:
        return translate(lang, "{name} plays {card} into their own Field.",
                         name=who(d["seat"]), card=card(d["card"]))
    return translate(lang, "{name} plays {card} into {other}'s Field.", name=who(d["seat"]),
                     card=card(d["card"]), other=who(d["field"]))


def _countered(lang: str, d: dict[str, Any], who: Callable[[str], str],
               card: Callable[[int], str]) -> str:
    if d.get("taken"):
        return translate(lang, "{name}'s {instant} cancels {card} and {name} takes it into "
                         "their hand.", name=who(d["seat"]), instant=card(d["by"]),
                         card=card(d["card"]))
    return translate(lang, "{name}'s {instant} cancels {card}.", name=who(d["seat"]),
                     instant=card(d["by"]), card=card(d["card"]))


def _returned_to(lang: str, d: dict[str, Any], who: Callable[[str], str],
                 card: Callable[[int], str]) -> str:
    if catalog()[d["card"]].type == "baby":
        return translate(lang, "{card} goes back to the Nursery.", card=card(d["card"]))
    return translate(lang, "{card} goes back to {name}'s hand.", card=card(d["card"]),
                     name=who(d["seat"]))


def _search(lang: str, d: dict[str, Any], who: Callable[[str], str],
            card: Callable[[int], str]) -> str:
    if d.get("card") is None:
        return translate(lang, "{name} searches the deck and finds nothing.", name=who(d["seat"]))
    return translate(lang, "{name} searches the deck, shows {card} and adds it to their hand.",
                     name=who(d["seat"]), card=card(d["card"]))


def _chose(lang: str, d: dict[str, Any], who: Callable[[str], str],
           card: Callable[[int], str]) -> str:
    chosen = [who(s) for s in d.get("chosen") or []]
    if not chosen:
        return translate(lang, "{name} chooses nobody.", name=who(d["seat"]))
    return translate(lang, "{name} chooses {names}.", name=who(d["seat"]),
                     names=", ".join(chosen))


def _over(lang: str, d: dict[str, Any], who: Callable[[str], str],
          card: Callable[[int], str]) -> str:
    winners = [who(s) for s in d.get("winners") or []]
    if not winners:
        return translate(lang, "Everyone loses. The deck ran out.")
    if d.get("count") is not None and len(winners) == 1:
        return translate(lang, "{name} wins with {animals}.", name=winners[0],
                         animals=animals(lang, int(d["count"])))
    return translate(lang, "{names} wins. The deck ran out.", names=", ".join(winners))


#: Event type -> its line in a language (data as the engine's ``say`` gives it).
EVENT_WORDS: dict[str, Words] = {
    "dealt": lambda lang, d, who, card: translate_n(
        lang, "{name} is dealt {count} card.", "{name} is dealt {count} cards.", HAND_SIZE,
        name=who(d["seat"])),
    "first": lambda lang, d, who, card: translate(lang, "{name} goes first.", name=who(d["seat"])),
    "dealt_extra": lambda lang, d, who, card: translate(
        lang, "{name} goes second and is dealt a sixth card.", name=who(d["seat"])),
    "skipped": lambda lang, d, who, card: translate(
        lang, "{name} skips this turn.", name=who(d["seat"])),
    "turn": lambda lang, d, who, card: translate(lang, "It is {name}'s turn.", name=who(d["seat"])),
    "skip_draw": lambda lang, d, who, card: translate(
        lang, "{name} skips their Draw phase.", name=who(d["seat"])),
    "countered": _countered,
    "ambush": lambda lang, d, who, card: translate(
        lang, "{name}'s {instant} strikes {other}'s Field.", name=who(d["seat"]),
        instant=card(d["by"]), other=who(d["victim"])),
    "enter": lambda lang, d, who, card: translate(
        lang, "{card} enters {name}'s Field.", card=card(d["card"]), name=who(d["seat"])),
    "fizzle": lambda lang, d, who, card: translate(
        lang, "{card} cannot enter {name}'s Field and is discarded.", card=card(d["card"]),
        name=who(d["seat"])),
    "game_over": _over,
    "baby": lambda lang, d, who, card: translate(
        lang, "{name} chooses {card} for their Field.", name=who(d["seat"]),
        card=card(d["card"])),
    "respond": lambda lang, d, who, card: translate(
        lang, "{name} answers {card} with {instant}.", name=who(d["seat"]),
        card=card(d["target"]), instant=card(d["card"])),
    "activate": lambda lang, d, who, card: translate(
        lang, "{name} uses {source}.", name=who(d["seat"]), source=source_words(lang, d["source"])),
    "play": _play,
    "declined": lambda lang, d, who, card: translate(
        lang, "{name} declines an optional effect.", name=who(d["seat"])),
    "chose_players": _chose,
    "discard": lambda lang, d, who, card: translate(
        lang, "{name} discards {card}.", name=who(d["seat"]), card=card(d["card"])),
    "destroy": lambda lang, d, who, card: translate(
        lang, "{name} destroys {card}.", name=who(d["seat"]), card=card(d["card"])),
    "steal": lambda lang, d, who, card: translate(
        lang, "{name} steals {card} from {other}.", name=who(d["seat"]), card=card(d["card"]),
        other=who(d["victim"])),
    "return": _returned_to,
    "move": lambda lang, d, who, card: translate(
        lang, "{name} moves {card} from {owner}'s Field to {other}'s.", name=who(d["seat"]),
        card=card(d["card"]), owner=who(d["source_seat"]), other=who(d["dest"])),
    "pull": lambda lang, d, who, card: translate(
        lang, "{name} pulls a card from {other}'s hand.", name=who(d["seat"]),
        other=who(d["victim"])),
    "take": lambda lang, d, who, card: translate(
        lang, "{name} looks at {other}'s hand and takes a card.", name=who(d["seat"]),
        other=who(d["victim"])),
    "swap": lambda lang, d, who, card: translate(
        lang, "{name} swaps hands with {other}.", name=who(d["seat"]), other=who(d["other"])),
    "skip": lambda lang, d, who, card: translate(
        lang, "{name} will skip their next turn.", name=who(d["seat"])),
    "bring": lambda lang, d, who, card: translate(
        lang, "{name} brings {card} from {where} directly into their Field.",
        name=who(d["seat"]), card=card(d["card"]), where=_where_brought(lang, d["src"])),
    "search": _search,
    "take_discard": lambda lang, d, who, card: translate(
        lang, "{name} takes {card} from the discard pile.", name=who(d["seat"]),
        card=card(d["card"])),
    "extra_play": lambda lang, d, who, card: translate(
        lang, "{name} may play one more card this turn.", name=who(d["seat"])),
    "reshuffle": lambda lang, d, who, card: translate(
        lang, "The discard pile is shuffled into the deck."),
    "shield": lambda lang, d, who, card: translate(
        lang, "Until {name}'s next turn, their {kind} cannot be destroyed.", name=who(d["seat"]),
        kind=kinds_plural(lang, d["kind"])),
    "bodyguard": lambda lang, d, who, card: translate(
        lang, "{card} goes to the discard pile instead of {other}.", card=card(d["card"]),
        other=card(d["saved"])),
    "returned": lambda lang, d, who, card: translate(
        lang, "{card} returns to {name}'s hand instead.", card=card(d["card"]),
        name=who(d["seat"])),
    "destroyed": lambda lang, d, who, card: translate(
        lang, "{card} is destroyed and leaves {name}'s Field.", card=card(d["card"]),
        name=who(d["seat"])),
    "sacrificed": lambda lang, d, who, card: translate(
        lang, "{name} sacrifices {card}.", name=who(d["seat"]), card=card(d["card"])),
    "draw": lambda lang, d, who, card: translate(
        lang, "{name} draws {cards}.", name=who(d["seat"]), cards=cards(lang, int(d["n"]))),
    "draw_private": lambda lang, d, who, card: translate(
        lang, "You draw {cards}.", cards=", ".join(card(c) for c in d["cards"])),
    "dealt_private": lambda lang, d, who, card: (
        translate(lang, "Your sixth card: {card}.", card=card(d["cards"][0]))
        if len(d["cards"]) == 1 else
        translate(lang, "Your hand: {cards}.", cards=", ".join(card(c) for c in d["cards"]))),
    "pull_private": lambda lang, d, who, card: translate(
        lang, "{name} pulls {card} from {other}'s hand.", name=who(d["seat"]),
        card=card(d["card"]), other=who(d["victim"])),
    "take_private": lambda lang, d, who, card: translate(
        lang, "{name} takes {card} from {other}'s hand.", name=who(d["seat"]),
        card=card(d["card"]), other=who(d["victim"])),
}


def kinds_plural(lang: str, kind: str) -> str:
    """A kind as a plural noun without a number (``"Alpacas"``)."""
    return {"llama": translate(lang, "Llamas"), "alpaca": translate(lang, "Alpacas"),
            "goat": translate(lang, "Goats"), "ram": translate(lang, "Rams")}.get(
        kind, kind.title() + "s")


def event_line(lang: str, event: Event, names: Mapping[str, str]) -> str:
    """``event`` (the engine's) in ``lang`` with ``names`` (seat -> name); the engine's
    English words (seats named) for an event this module does not word or whose data
    lacks a detail (an event stored before the data was kept)."""
    words = EVENT_WORDS.get(event.type)
    if words is not None:
        try:
            return words(lang, dict(event.data), lambda s: names.get(s, s),
                         lambda c: card_name(lang, int(c)))
        except (KeyError, TypeError, ValueError):
            pass
    return named(event.text, dict(names))


__all__ = [
    "ASK", "REFUSALS", "EVENT_WORDS", "HERD_WORDS", "KIND_WORDS", "TYPE_WORDS", "animals", "card_line",
    "card_name", "card_owner", "card_text", "cards", "choice_source", "event_line",
    "herd_word", "kind_word", "kinds_count", "kinds_plural", "name_of", "option_words",
    "prompt_words", "rules_summary", "source_words", "type_word", "RULES",
]
