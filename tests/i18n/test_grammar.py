"""Translations that stay grammatical whatever fills their placeholders: a player's name,
a card's name or a game's title can start with a vowel and be of either gender, and in
Polish it cannot be declined, so no translated sentence may make its grammar depend on
one (French "de Ana" for "d'Ana", "Chèvre fouineuse est détruit"; German "den {card}";
Polish "Pole {name}" that wants a genitive)."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from bot.i18n import catalog
from bot.i18n.catalog import CARD_NAME

#: Placeholders that are always numbers (or start with a digit): a word before them may
#: be elided or gendered freely ("Cou de {count}", "la saison actuelle est la {current}").
NUMBERS = frozenset({"count", "number", "current", "move", "digit", "position", "turn",
                     "total", "page", "pages", "points", "place", "space", "version",
                     "won", "played", "rate", "size", "code", "limit"})

#: Placeholders that hold a card's name or a card's effect words ("pile" is a count in
#: Alpaca Pacapaca, cards on the pile in Llamas Unleashed: not among them).
CARDS = frozenset({"card", "old", "instant", "answer", "words"})
#: Placeholders that hold a player's name (or a list of names, or a mention).
NAMES = frozenset({"name", "names", "other", "owner", "partner", "active", "seat", "who",
                   "lead", "target", "host"})

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
        strings = [m.string] if isinstance(m.string, str) else list(m.string or ())
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
#: same clause: "{card} est détruit", "{title} est finie", "{card} ... et est défaussé",
#: or a participle right after it: "{card} (déplacée)".
FR_AGREES = re.compile(
    r"(?<!carte )(?<!partie )(?<!de )\{(?P<ph>\w+)\}[^.,;:!?()]*?\b(?:est|sont|été|était)\s+"
    r"\w+(?:é|ée|és|ées|i|ie|is|ies|it|ite|its|ites|u|ue|us|ues|ise|ises|ine|ines)\b"
    r"|(?<!carte )(?<!partie )\{(?P<ph2>\w+)\}[*_]*\s+\(?\w+(?:é|ée|és|ées)\b")

#: A pronoun after a colon standing for the card or player placeholder before it, whose
#: gender the sentence cannot know ("Garde {card} : elle ajoute", "Behalte {card}: Sie
#: bringt", "Fique com {card}: ela soma").
PRONOUN = {
    "fr": re.compile(r"\{(?P<ph>\w+)\}[*_]*\s*[:,]\s*(?:il|elle)\s"),
    "de": re.compile(r"\{(?P<ph>\w+)\}[*_]*\s*:\s*(?:Er|Sie|Es|er|sie|es)\s"),
    "es": re.compile(r"\{(?P<ph>\w+)\}[*_]*\s*:\s*(?:él|ella)\s"),
    "pt_BR": re.compile(r"\{(?P<ph>\w+)\}[*_]*\s*:\s*(?:ele|ela)\s"),
}

#: A German article or pronoun right before a card's or a player's name ("den {card}"
#: where "die {card}" may be due); ", die {partner} annehmen" is a relative pronoun.
DE_BEFORE = re.compile(
    r"(?<!, )\b(?:der|die|das|den|dem|des|ein|eine|einen|einem|eines|einer|sein|"
    r"seine|seinen|seinem|ihr|ihre|ihren|ihrem)\s" + MARK + r"\{(?P<ph>\w+)\}")

#: A Spanish or Portuguese placeholder (not after "carta"/"partida", which fix the
#: gender) as the subject of a participle that agrees with it: "{card} es destruida",
#: "{title} nunca foi jogada".
ES_PT_AGREES = re.compile(
    r"(?<!carta )(?<!partida )(?<!de )\{(?P<ph>\w+)\}[^.,;:!?()]*?"
    r"\b(?:es|son|fue|queda|está|ser|é|são|foi|fica)\s+"
    r"\w+(?:ado|ada|ados|adas|ido|ida|idos|idas|ído|ída|ídos|ídas)\b")

#: A Polish card placeholder after a word that governs a case the card's name cannot
#: take ("zagrywa {card}", "na {card}"): before a card's name stands a form of "karta"
#: ("kartę {card}", "kartą {instant}"), or a colon, a bracket, or nothing.
PL_CARD = re.compile(r"(?<![\w-])(?!kart)(?!Kart)\w+\s+[*_„]*\{(?P<ph>\w+)\}")

#: A Polish placeholder that starts a clause (not "Karta {card}", "Gra {title}", "Plansza
#: gracza {name}") as the subject of a participle that agrees with it: "{card} zostaje
#: zniszczona", "{title} jest skończona".
PL_AGREES = re.compile(
    r"(?:^|[.:;!?]\s+)[*_]*\{(?P<ph>\w+)\}[^.,;:!?()]*?\b(?:zostaje|została|został|zostało|jest)\s+"
    r"\w+(?:na|ny|ne|ta|ty|te)\b")


def test_french_elides_no_word_before_a_name_card_or_title():
    """"de {name}" would read "de Ana" (French writes "d'Ana"); "le {card}" picks a
    gender: no translation puts such a word right before a placeholder that is not a
    number."""
    assert hits("fr", FR_BEFORE) == []


def test_french_agrees_no_participle_with_a_name_card_or_title():
    assert hits("fr", FR_AGREES) == []


def test_no_pronoun_stands_for_a_card_or_a_player():
    for lang, pattern in PRONOUN.items():
        assert [(msgid, m.group(0)) for msgid, text in translations(lang)
                for m in pattern.finditer(text) if placeholder(m) in CARDS | NAMES] == [], lang


def test_german_puts_no_article_before_a_name_or_card():
    assert hits("de", DE_BEFORE) == []


def test_german_card_names_read_the_same_as_subject_and_object():
    """A card's name stands bare in a German sentence ("Ana spielt {card}"), so none
    starts with a masculine adjective ("Stabiler Zaun" would be "Stabilen Zaun")."""
    with catalog.po_path("de", part="unleashed_cards").open("rb") as fp:
        names = [m.string for m in read_po(fp, locale="de") if m.context == CARD_NAME]
    assert len(names) == 85
    assert [n for n in names if re.match(r"\w+er [A-ZÄÖÜ]", n)] == []


def test_spanish_and_portuguese_agree_no_participle_with_a_card_or_title():
    assert hits("es", ES_PT_AGREES) == []
    assert hits("pt_BR", ES_PT_AGREES) == []


def test_spanish_and_portuguese_card_names_start_with_no_article():
    """"de {card}", "a {card}" never need "del", "al", "do", "da", "ao", "à"."""
    for lang in ("es", "pt_BR"):
        with catalog.po_path(lang, part="unleashed_cards").open("rb") as fp:
            names = [m.string for m in read_po(fp, locale=lang) if m.context == CARD_NAME]
        assert len(names) == 85
        assert [n for n in names
                if re.match(r"(?:El|La|Los|Las|Lo|O|A|Os|As|Um|Uma|Un|Una) ", n)] == [], lang


def test_polish_names_a_card_in_the_nominative():
    """A card's name cannot be declined: it follows a form of "karta" ("zagrywa kartę
    {card}"), a colon or a bracket, or starts the sentence as its subject."""
    found = [(msgid, text) for msgid, text in translations("pl")
             for m in PL_CARD.finditer(text) if placeholder(m) in CARDS]
    assert found == []
    assert [(msgid, text) for msgid, text in hits("pl", PL_AGREES)] == []


def test_the_checks_see_what_they_are_for():
    """The checks above catch the mistakes they are for, and let the rewordings pass."""
    assert caught(FR_BEFORE, "{card} entre dans le Pré de {name}.") == ["name"]
    assert caught(FR_BEFORE, "En attente de **{names}**.") == ["names"]
    assert caught(FR_BEFORE, "On attend que {name} choisisse.") == ["name"]
    assert caught(FR_BEFORE, "Cou de {count}, {name} arrive chez {other}.") == []
    assert caught(FR_AGREES, "{card} est détruit et quitte le Pré.") == ["card"]
    assert caught(FR_AGREES, "{card} ne peut pas entrer et est défaussé.") == ["card"]
    assert caught(FR_AGREES, "{title} n'a jamais été jouée.") == ["title"]
    assert caught(FR_AGREES, "{space} · {card} (déplacée)") == ["card"]
    assert caught(FR_AGREES, "La carte {card} est détruite.") == []
    assert caught(FR_AGREES, "{name} est le plus près de gagner.") == []
    assert caught(PRONOUN["fr"], "Garde {card} : elle ajoute 2 points.") == ["card"]
    assert caught(PRONOUN["fr"], "Garde {card} : cette carte ajoute 2 points.") == []
    assert caught(PRONOUN["de"], "Behalte {card}: Sie bringt 2 Punkte.") == ["card"]
    assert caught(PRONOUN["pt_BR"], "Fique com {card}: ela soma 2.") == ["card"]
    assert caught(DE_BEFORE, "Ana legt den {card} ab.") == ["card"]
    assert caught(DE_BEFORE, "Von den Angeboten, die {partner} annehmen sollte") == []
    assert caught(ES_PT_AGREES, "{card} es destruida y sale del Prado.") == ["card"]
    assert caught(ES_PT_AGREES, "{title} nunca foi jogada.") == ["title"]
    assert caught(ES_PT_AGREES, "La carta {card} es destruida.") == []
    assert caught(ES_PT_AGREES, "{name} está eligiendo una carta.") == []
    assert caught(PL_CARD, "{name} zagrywa {card} na Pastwisko.") == ["card"]
    assert caught(PL_CARD, "Pasuj: nic nie odpowie na **{card}**.") == ["card"]
    assert caught(PL_CARD, "{name} odpowiada kartą {instant} na kartę {card}.") == []
    assert caught(PL_AGREES, "{card} zostaje zniszczona.") == ["card"]
    assert caught(PL_AGREES, "Karta {card} zostaje zniszczona.") == []
