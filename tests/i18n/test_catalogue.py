"""The catalogues: every message id of the code translated in every shipped language,
placeholders, mentions and markdown kept by every translation, plural forms, number
formats, loading from ``.po`` with no compile step, and the English fallback of a missing
message, logged once."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.i18n import catalog
from bot.i18n.catalog import CARD_NAME, CARD_TEXT, PARTS, part_of
from bot.i18n.extract import card_messages, source_messages, template_path
from bot.i18n.languages import CATALOGUED

LANGS = [lang for lang in CATALOGUED if lang != "en"]

#: What a translation must keep exactly as its message id has it: placeholders, mentions
#: and timestamps, and the markdown marks (bold, italics, code, strike, spoiler).
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
MENTION = re.compile(r"<[@#][!&]?\d*>|<t:[^>]*>")
MARKS = ("**", "`", "~~", "||", "__")


def kept(text: str) -> tuple[list[str], list[str], list[int], int]:
    """``(placeholders, mentions, counts of each of MARKS, lone '*')`` of ``text``, sorted."""
    return (sorted(PLACEHOLDER.findall(text)), sorted(MENTION.findall(text)),
            [text.count(mark) for mark in MARKS], text.replace("**", "").count("*"))


def messages(lang: str) -> list:
    return [m for m in catalog.read_catalogue(lang) if m.id]


def test_the_shipped_languages():
    assert i18n.SHIPPED == ("en", "de", "fr", "es", "pt_BR", "pl", "en_XA")
    assert LANGS == ["de", "fr", "es", "pt_BR", "pl"]
    for lang in LANGS:
        assert catalog.po_path(lang).is_file(), lang
        assert [p.name for p in catalog.po_paths(lang)] == [
            p.name for p in catalog.po_paths("de")], lang


def test_the_code_has_message_ids_to_translate():
    found = source_messages()
    assert "Move a card" in found
    assert ("{count} clover", "{count} clovers") in found
    assert "Join" in found and "Add AI seat" in found  # the lobby
    assert len(found) >= 85


def test_the_seeds_have_card_words_to_translate():
    """Every Llamas Unleashed design's name (74) and rules text (58 different ones), the
    four Herd Bonuses, the two choice labels, and the type line's 7 types and 4 kinds."""
    found = card_messages()
    names = [msgid for context, msgid in found if context == CARD_NAME]
    texts = [msgid for context, msgid in found if context == CARD_TEXT]
    assert (len(names), len(texts)) == (74 + 7 + 4, 58 + 4 + 2)
    assert {"Llama Spit", "Cria Button", "Baby Animal", "Downgrade", "Ram"} <= set(names)
    assert {"Llama herd: you may draw a card.", "Draw 2 cards", "Draw 2 cards."} <= set(texts)
    assert {tuple(places) for places in found.values()} == {
        ("seeds/unleashed.json",), ("bot/games/unleashed/cards.py",)}
    assert {part_of(places) for places in found.values()} == {"unleashed_cards"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_word_is_translated(lang):
    """Every card name, rules text, choice label and type line word of the seeds has a
    translation (not fuzzy, not empty) in the catalogue's cards part, and it loads."""
    with catalog.po_path(lang, part="unleashed_cards").open("rb") as fp:
        entries = {(m.context, m.id): m for m in read_po(fp, locale=lang) if m.id}
    missing = []
    for context, msgid in card_messages():
        entry = entries.get((context, msgid))
        if entry is None or entry.fuzzy or not entry.string:
            missing.append((context, msgid))
            continue
        assert i18n.has_translation(lang, context, msgid), msgid
        assert i18n.translate_in(lang, context, msgid) == entry.string
    assert missing == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_id_is_translated(lang):
    """Every sentence the code passes to translate/translate_n or marks N_ has a
    translation (not fuzzy, not empty) in the catalogue, and the catalogue loads it."""
    entries = {m.id if isinstance(m.id, str) else tuple(m.id): m for m in messages(lang)
               if not m.context}
    missing = []
    for msgid in source_messages():
        entry = entries.get(msgid)
        strings = [] if entry is None else (
            [entry.string] if isinstance(entry.string, str) else list(entry.string))
        if entry is None or entry.fuzzy or not strings or not all(strings):
            missing.append(msgid)
            continue
        singular = msgid if isinstance(msgid, str) else msgid[0]
        assert i18n.has_translation(lang, None, singular), msgid
    assert missing == []


def test_the_templates_have_every_message_id_each_in_its_part():
    """``locales/<part>.pot`` (``python -m bot.i18n.extract``) are up to date, and each
    language's ``<part>.po`` holds the same message ids as its template."""
    found = source_messages()
    ids: dict[object, str] = {}
    for part in PARTS:
        if not template_path(part).is_file():
            continue
        with template_path(part).open("rb") as fp:
            for m in read_po(fp):
                if m.id and not m.context:
                    ids[m.id if isinstance(m.id, str) else tuple(m.id)] = part
        for lang in LANGS:
            with catalog.po_path(lang, part=part).open("rb") as fp:
                assert {m.id for m in read_po(fp, locale=lang) if m.id} == {
                    m.id for m in read_po(template_path(part).open("rb")) if m.id}, (lang, part)
    assert set(ids) == set(found)
    assert {msgid: part_of(found[msgid]) for msgid in found} == ids
    # The cards' words (with their contexts) are exactly the cards part's, in every language.
    with template_path("unleashed_cards").open("rb") as fp:
        cards = {(m.context, m.id) for m in read_po(fp) if m.id and m.context}
    assert cards == set(card_messages())
    for lang in LANGS:
        with catalog.po_path(lang, part="unleashed_cards").open("rb") as fp:
            assert {(m.context, m.id) for m in read_po(fp, locale=lang)
                    if m.id and m.context} == cards, lang


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_placeholders_mentions_and_markdown(lang):
    """A translation never drops or adds a ``{name}``, a mention or a markdown mark; each
    plural form keeps the plural message id's."""
    bad = []
    for m in messages(lang):
        source = m.id if isinstance(m.id, str) else m.id[1]
        forms = [m.string] if isinstance(m.string, str) else list(m.string)
        for form in forms:
            if kept(form) != kept(source):
                bad.append((source, form))
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_each_catalogue_has_the_languages_plural_forms(lang):
    for path in catalog.po_paths(lang):
        with path.open("rb") as fp:
            cat = read_po(fp, locale=lang)
        assert cat.num_plurals == {"de": 2, "fr": 2, "es": 2, "pt_BR": 2, "pl": 3}[lang], path
    for m in cat:
        if m.id and not isinstance(m.id, str):
            assert len(m.string) == cat.num_plurals, m.id


def test_plural_forms():
    clovers = ("{count} clover", "{count} clovers")
    assert [i18n.translate_n("pl", *clovers, n) for n in (1, 2, 4, 5, 12, 22, 25, 112)] == [
        "1 koniczyna", "2 koniczyny", "4 koniczyny", "5 koniczyn", "12 koniczyn",
        "22 koniczyny", "25 koniczyn", "112 koniczyn"]
    assert [i18n.translate_n("fr", *clovers, n) for n in (0, 1, 2)] == [
        "0 trèfle", "1 trèfle", "2 trèfles"]
    assert [i18n.translate_n("de", "{count} point", "{count} points", n) for n in (0, 1, 2)] == [
        "0 Punkte", "1 Punkt", "2 Punkte"]
    assert [i18n.translate_n("en", *clovers, n) for n in (0, 1, 2)] == [
        "0 clovers", "1 clover", "2 clovers"]
    assert [i18n.translate_n("pt_BR", *clovers, n) for n in (0, 1, 2)] == [
        "0 trevo", "1 trevo", "2 trevos"]


def test_named_placeholders_are_filled_in_each_languages_order():
    said = {lang: i18n.translate(lang, "Moving {card} from space {src} to space {dst}...",
                                 card="Llama red 2", src=4, dst=7)
            for lang in ("en", "de", "pl")}
    assert said == {
        "en": "Moving Llama red 2 from space 4 to space 7...",
        "de": "Llama red 2 wird von Feld 4 auf Feld 7 versetzt...",
        "pl": "Przesuwam kartę Llama red 2 z pola 4 na pole 7...",
    }


def test_numbers_are_written_the_languages_way():
    assert i18n.number("en", 1234.5) == "1,234.5"
    assert i18n.number("de", 1234.5) == "1.234,5"
    assert i18n.number("fr", 1234) == "1\N{NARROW NO-BREAK SPACE}234"
    assert i18n.number("pl", 12345) == "12\N{NO-BREAK SPACE}345"
    assert i18n.number("en_XA", 1234) == "1,234"
    assert i18n.translate_n("de", "{count} point", "{count} points", 1500) == "1.500 Punkte"


def test_a_message_missing_at_run_time_is_english_and_logged_once(caplog):
    catalog.forget()
    with caplog.at_level(logging.WARNING, logger="bot.i18n.catalog"):
        first = i18n.translate("de", "A sentence {who} never translated.", who="nobody")
        again = i18n.translate("de", "A sentence {who} never translated.", who="anybody")
        plural = i18n.translate_n("fr", "{count} thing nobody wrote", "{count} things", 2)
        i18n.translate_n("fr", "{count} thing nobody wrote", "{count} things", 3)
    assert first == "A sentence nobody never translated."
    assert again == "A sentence anybody never translated."
    assert plural == "2 things"
    assert [r.getMessage() for r in caplog.records] == [
        "no de translation of 'A sentence {who} never translated.': shown in English",
        "no fr translation of '{count} thing nobody wrote': shown in English",
    ]
    catalog.forget()


def test_an_unknown_language_is_english():
    assert i18n.translate("ja", "Move a card") == "Move a card"
    assert i18n.translate(None, "Move a card") == "Move a card"
    assert i18n.translate("de", "Move a card") == "Karte versetzen"
    assert i18n.translate("pt-BR", "Move a card") == "Mover uma carta"  # Discord's spelling


def test_a_catalogue_is_read_from_its_po_file_with_no_compile_step(tmp_path: Path):
    """An edited ``.po`` counts as it is: no ``.mo`` is built or read."""
    po = catalog.po_path("de", tmp_path)
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                  '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
                  'msgid "Back"\nmsgstr "Zurück!"\n\n'
                  'msgid "{count} card"\nmsgid_plural "{count} cards"\n'
                  'msgstr[0] "{count} Karte"\nmsgstr[1] "{count} Karten"\n\n'
                  'msgctxt "command name"\nmsgid "play"\nmsgstr "spielen"\n', encoding="utf-8")
    loaded = catalog.load("de", tmp_path)
    assert loaded.gettext("Back") == "Zurück!"
    assert loaded.ngettext("{count} card", "{count} cards", 3) == "{count} Karten"
    assert loaded.pgettext("command name", "play") == "spielen"
    assert not list(tmp_path.rglob("*.mo"))


def test_the_parts_of_a_catalogue_are_read_as_one(tmp_path: Path):
    head = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
            '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n')
    main = catalog.po_path("de", tmp_path)
    main.parent.mkdir(parents=True)
    main.write_text(head + 'msgid "Back"\nmsgstr "Zurück"\n', encoding="utf-8")
    catalog.po_path("de", tmp_path, "pacapaca").write_text(
        head + 'msgid "Draw"\nmsgstr "Ziehen"\n', encoding="utf-8")
    loaded = catalog.load("de", tmp_path)
    assert (loaded.gettext("Back"), loaded.gettext("Draw")) == ("Zurück", "Ziehen")
    assert [p.name for p in catalog.po_paths("de", tmp_path)] == ["pacapaca.po", "herdbot.po"]


def test_a_message_is_in_the_first_part_its_places_match():
    assert part_of(["bot/present/pacapaca.py:10"]) == "pacapaca"
    assert part_of(["bot/discord/game_cog.py:3", "bot/present/unleashed.py:9"]) == "unleashed"
    assert part_of(["cogs/lobby.py:4"]) == "discord"
    assert part_of(["bot/present/base.py:4"]) == "herdbot"
    assert part_of(["seeds/unleashed.json"]) == "unleashed_cards"
    assert part_of(["bot/render/unleashed_card.py:7"]) == "unleashed_cards"
    assert part_of(["bot/present/unleashed_card.py:7"]) == "unleashed_cards"
    assert part_of(["bot/render/unleashed.py:7"]) == "unleashed"
    assert part_of(["bot/games/unleashed/engine.py:7"]) == "unleashed"
