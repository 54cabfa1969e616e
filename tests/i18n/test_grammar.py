"""Translations that stay grammatical whatever fills their placeholders: a player's name,
a card's name or a game's title can start with a vowel and be of either gender, and in
Polish it cannot be declined, so no translated sentence may make its grammar depend on
one (French "de Ana" for "d'Ana", "Chèvre fouineuse est détruit"; German "den {card}";
Polish "Pole {name}" that wants a genitive)."""

from __future__ import annotations

import re

from bot.i18n import catalog

#: Placeholders that are always numbers (or start with a digit): a word before them may
#: be elided or gendered freely ("Cou de {count}", "la saison actuelle est la {current}").
NUMBERS = frozenset({"count", "number", "current", "move", "digit", "position", "turn",
                     "total", "page", "pages", "points", "place", "space", "version",
                     "won", "played", "rate", "size", "code"})

#: A markdown mark or a quote that may stand between a word and its placeholder.
MARK = r"[*_~|`«“\s]*"


def translations(lang: str) -> list[tuple[str, str]]:
    """``(message id, translation)`` of every entry of ``lang``'s catalogue, one per
    plural form."""
    found = []
    for m in catalog.read_catalogue(lang):
        if not m.id:
            continue
        msgid = m.id if isinstance(m.id, str) else m.id[0]
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        found += [(msgid, s) for s in strings if s]
    return found


def placeholder(match: re.Match[str]) -> str:
    """The placeholder a match of one of the patterns below is about (its ``ph`` or
    ``ph2`` group)."""
    return match.group("ph") or match.group("ph2")


def caught(pattern: re.Pattern[str], text: str) -> list[str]:
    """The placeholders, not numbers, that ``pattern`` finds misused in ``text``."""
    return [placeholder(m) for m in pattern.finditer(text) if placeholder(m) not in NUMBERS]


def hits(lang: str, pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """``(message id, matched text)`` of each match of ``pattern`` in ``lang``'s
    translations about a placeholder that is not a number."""
    return [(msgid, match.group(0)) for msgid, text in translations(lang)
            for match in pattern.finditer(text) if placeholder(match) not in NUMBERS]


#: French words that are elided ("de" -> "d'Ana"), contracted or gendered before a noun.
FR_BEFORE = re.compile(
    r"(?<![\w'’])(?i:de|du|des|le|la|les|au|aux|un|une|que|ne|se|je|me|te|ce|cet|cette|"
    r"jusque|lorsque|puisque|son|sa|ton|ta|mon|ma)\s" + MARK + r"\{(?P<ph>\w+)\}")

#: A French placeholder (not after the noun that names it: "la carte {card}", "la partie
#: {title}") as the subject of a past participle or adjective that agrees with it, in the
#: same clause: "{card} est détruit", "{title} est finie", "{card} ... et est défaussé".
FR_AGREES = re.compile(
    r"(?<!carte )(?<!partie )(?<!de )\{(?P<ph>\w+)\}[^.,;:!?()]*?\b(?:est|sont|été|était)\s+"
    r"\w+(?:é|ée|és|ées|i|ie|is|ies|it|ite|its|ites|u|ue|us|ues|ise|ises|ine|ines)\b"
    r"|(?<!carte )(?<!partie )\{(?P<ph2>\w+)\}[*_]*\s+\(?\w+(?:é|ée|és|ées)\b")

#: A French pronoun after a colon or comma standing for the placeholder before it
#: ("Garde {card} : elle ajoute", gendered whatever the card's gender).
FR_PRONOUN = re.compile(r"\{(?P<ph>\w+)\}[*_]*\s*[:,]\s*(?:il|elle)\s")


def test_french_elides_no_word_before_a_name_card_or_title():
    """"de {name}" would read "de Ana" (French writes "d'Ana"); "le {card}" picks a
    gender: no translation puts such a word right before a placeholder that is not a
    number."""
    assert hits("fr", FR_BEFORE) == []


def test_french_agrees_no_participle_with_a_name_card_or_title():
    assert hits("fr", FR_AGREES) == []


def test_french_has_no_pronoun_for_a_card_or_name():
    assert hits("fr", FR_PRONOUN) == []


def test_the_french_checks_see_what_they_are_for():
    """The checks above catch the mistakes they are for, and let the rewordings pass."""
    assert caught(FR_BEFORE, "{card} entre dans le Pré de {name}.") == ["name"]
    assert caught(FR_BEFORE, "En attente de **{names}**.") == ["names"]
    assert caught(FR_BEFORE, "On attend que {name} choisisse.") == ["name"]
    assert caught(FR_BEFORE, "Cou de {count}, {name} arrive chez {other}.") == []
    assert caught(FR_AGREES, "{card} est détruit et quitte le Pré.") == ["card"]
    assert caught(FR_AGREES, "{card} ne peut pas entrer et est défaussé.") == ["card"]
    assert caught(FR_AGREES, "{title} n'a jamais été jouée.") == ["title"]
    assert caught(FR_AGREES, "La carte {card} est détruite.") == []
    assert caught(FR_AGREES, "{name} est le plus près de gagner.") == []
    assert caught(FR_PRONOUN, "Garde {card} : elle ajoute 2 points.") == ["card"]
    assert caught(FR_PRONOUN, "Garde {card} : cette carte ajoute 2 points.") == []
