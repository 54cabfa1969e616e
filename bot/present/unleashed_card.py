"""The words of the Llamas Unleashed ``/card`` reply in a member's language (pure): a
card's name, rules text and type line, the reply's parts, and the card a typed name
means (a name in the member's language or in English)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.unleashed.cards import KIND_NAMES, TYPE_NAMES, CardDesign, catalog
from bot.i18n import CARD_NAME, CARD_TEXT, translate, translate_in, translate_n

#: The most names the autocomplete offers (Discord's limit of choices).
MAX_CHOICES = 25


def card_name(lang: str | None, design: CardDesign) -> str:
    """``design``'s name in ``lang``."""
    return translate_in(lang, CARD_NAME, design.name)


def card_text(lang: str | None, design: CardDesign) -> str:
    """``design``'s rules text in ``lang``."""
    return translate_in(lang, CARD_TEXT, design.text)


def type_line(lang: str | None, design: CardDesign) -> str:
    """``design``'s type line in ``lang``: ``"Instant · Llama"``, ``"Magic"``."""
    words = translate_in(lang, CARD_NAME, TYPE_NAMES[design.type])
    if design.kind:
        words += " \u00b7 " + translate_in(lang, CARD_NAME, KIND_NAMES[design.kind])
    return words


@dataclass(frozen=True)
class CardReply:
    """The ``/card`` reply: ``title`` and ``text`` above the picture, its alternative
    text ``alt``, and the ``footer`` (type line and number of copies)."""

    title: str
    text: str
    alt: str
    footer: str


def card_reply(lang: str | None, design: CardDesign) -> CardReply:
    """The ``/card`` reply for ``design`` in ``lang``."""
    name, text = card_name(lang, design), card_text(lang, design)
    copies = translate_n(lang, "{count} copy", "{count} copies", design.copies)
    return CardReply(title=name, text=text,
                     alt=translate(lang, "The card {name}: {text}", name=name, text=text),
                     footer=f"{type_line(lang, design)} \u00b7 {copies}")


def no_such_card(lang: str | None, typed: str) -> str:
    """The answer to a name no card has (``typed`` already made safe to show)."""
    return translate(lang, "There is no Llamas Unleashed card called “{name}”.", name=typed)


def find_card(lang: str | None, typed: str) -> CardDesign:
    """The design called ``typed`` in ``lang`` or in English (any case). Raises
    ``KeyError``."""
    wanted = typed.strip().casefold()
    for design in catalog().designs.values():
        if wanted in (card_name(lang, design).casefold(), design.name.casefold()):
            return design
    raise KeyError(typed)


def names_matching(lang: str | None, typed: str) -> list[str]:
    """The card names in ``lang`` containing ``typed`` (any case), those starting with it
    first, then alphabetical; :data:`MAX_CHOICES` at most."""
    wanted = typed.strip().casefold()
    names = [name for design in catalog().designs.values()
             if wanted in (name := card_name(lang, design)).casefold()]
    names.sort(key=lambda n: (not n.casefold().startswith(wanted), n))
    return names[:MAX_CHOICES]
