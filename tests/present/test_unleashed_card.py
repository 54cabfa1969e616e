"""The words of a Llamas Unleashed card in each language (bot.present.unleashed_card):
names and rules text from the catalogue's cards part, the type line, the /card reply and
the card a typed name means."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.games.unleashed.cards import catalog
from bot.i18n import CARD_NAME, CARD_TEXT
from bot.present.unleashed_card import (
    MAX_CHOICES,
    card_name,
    card_reply,
    card_text,
    find_card,
    names_matching,
    no_such_card,
    type_line,
)

CAT = catalog()


def test_a_german_card_name_and_text():
    nanny = CAT.designs["nanny_alpaca"]
    assert card_name("de", nanny) == "Kindermädchen-Alpaka"
    assert card_text("de", nanny) == (
        "Immer wenn diese Karte auf deine Weide kommt (gespielt, geholt, gestohlen oder "
        "verschoben), darf jeder ein Jungtier aus der Kinderstube direkt auf seine Weide "
        "holen, beginnend mit dem Spieler nach dir; du bist zuletzt dran.")
    assert i18n.translate_in("de", CARD_NAME, "Sheepdog") == "Hütehund"
    assert i18n.translate_in("de", CARD_TEXT, "Your hand limit is 2 lower.") == (
        "Dein Handkartenlimit ist um 2 niedriger.")
    assert type_line("de", nanny) == "Magisches Tier \u00b7 Alpaka"


def test_a_polish_card_name_and_text():
    ram = CAT.designs["rustler_ram"]
    assert card_name("pl", ram) == "Baran rabuś"
    assert card_text("pl", ram) == (
        "Ilekroć ta karta trafia na twoje Pastwisko (zagrana, sprowadzona, skradziona lub "
        "przeniesiona), możesz poświęcić kartę ze swojego Pastwiska. Jeśli to zrobisz, "
        "ukradnij zwykłe Zwierzę z Pastwiska innego gracza.")
    assert card_name("pl", CAT.designs["battering_ram"]) == "Baran taran"
    assert type_line("pl", ram) == "Magiczne Zwierzę \u00b7 Baran"
    assert type_line("pl", CAT.designs["muzzle"]) == "Pogorszenie"


def test_the_herd_bonuses_and_choice_labels_are_translated():
    bonus = CAT.card_set.herd.bonuses["ram"].text
    assert i18n.translate_in("pl", CARD_TEXT, bonus) == (
        "Stado baranów: możesz odrzucić kartę. Jeśli to zrobisz, zniszcz Zwierzę na "
        "Pastwisku innego gracza.")
    assert i18n.translate_in("de", CARD_TEXT, "Draw 2 cards") == "2 Karten ziehen"


def test_english_and_the_pseudo_locale():
    spit = CAT.designs["llama_spit"]
    assert card_name("en", spit) == "Llama Spit"
    assert type_line("en", spit) == "Instant \u00b7 Llama"
    assert card_name("en_XA", spit) == "Ļļààɱàà Šþîîţ\u00b7"
    assert type_line("en_XA", spit) == f"{i18n.pseudo('Instant')} \u00b7 {i18n.pseudo('Llama')}"


def test_the_card_reply():
    spit = CAT.designs["llama_spit"]
    reply = card_reply("pl", spit)
    assert reply.title == "Splunięcie lamy"
    assert reply.footer == "Natychmiastowa \u00b7 Lama \u00b7 3 egzemplarze"
    assert reply.alt == f"Karta Splunięcie lamy: {reply.text}"
    assert card_reply("en", spit).footer == "Instant \u00b7 Llama \u00b7 3 copies"
    assert card_reply("en", CAT.designs["cria_button"]).footer == (
        "Baby Animal \u00b7 Llama \u00b7 1 copy")
    assert [i18n.translate_n("pl", "{count} copy", "{count} copies", n) for n in (1, 2, 5, 22)] == [
        "1 egzemplarz", "2 egzemplarze", "5 egzemplarzy", "22 egzemplarze"]
    assert no_such_card("fr", "Dragon") == "Aucune carte de Llamas Unleashed ne s'appelle « Dragon »."


def test_a_typed_name_in_the_language_or_in_english_finds_the_card():
    assert find_card("de", "  hütehund ").key == "sheepdog"
    assert find_card("de", "Sheepdog").key == "sheepdog"
    assert find_card("pl", "OWCZAREK").key == "sheepdog"
    with pytest.raises(KeyError):
        find_card("en", "Hütehund")
    with pytest.raises(KeyError):
        find_card("de", "Drache")


def test_names_matching_in_the_language():
    assert names_matching("de", "ziege") == [
        "Ziegenkopfstoß", "Ziegenkostüm", "Bartziege", "Felsenziege", "Grantelziege",
        "Kletterziege", "Neugierige Ziege", "Resteschnüffel-Ziege", "Taschendieb-Ziege",
        "Wiesenziege"]
    assert names_matching("en", "spit") == ["Spitfire Llama", "Llama Spit"]
    assert len(names_matching("fr", "")) == MAX_CHOICES
