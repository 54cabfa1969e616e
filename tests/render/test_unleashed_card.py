"""The Llamas Unleashed /card picture in every shipped language: every design's face is
drawn with its name, type line and rules text in the language, legible when shown 500 px
wide, and every name, type line and rules text fits its place whole (nothing cut, nothing
over the box)."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.games.unleashed.cards import catalog
from bot.i18n import CARD_NAME, CARD_TEXT, SHIPPED, translate_in
from bot.render.common import PHONE_MIN_TEXT
from bot.render.unleashed_card import (
    ART_AREAS,
    CARD_H,
    CARD_W,
    _type_line,
    card_picture,
    glued,
    name_fits,
    rules_layout,
    type_line_fits,
)

CAT = catalog()
#: The smallest text (px at 500 px wide) over every card face, per language: English and
#: the five languages keep the rules text at 28 px or more (of 600), the pseudo-locale at 26.
SMALLEST = {"en": 25.0, "de": 23.33, "fr": 23.33, "es": 23.33, "pt_BR": 23.33, "pl": 23.33,
            "en_XA": 21.67}


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_card_face_is_legible_and_fits_in_every_language(lang):
    smallest = []
    for key, design in CAT.designs.items():
        pic = card_picture(CAT.ids_of(key)[0], lang)
        assert pic.size == (CARD_W, CARD_H)
        assert pic.phone_text_px >= PHONE_MIN_TEXT, (key, pic.phone_text_px)
        assert len(pic.png) <= 300 * 1024
        smallest.append(pic.phone_text_px)
        assert name_fits(translate_in(lang, CARD_NAME, design.name)), key
        assert type_line_fits(_type_line(lang, design)), key
        area, _size, _lines, fits = rules_layout(translate_in(lang, CARD_TEXT, design.text), lang)
        assert fits and area == ART_AREAS[0], key  # the art keeps its full height
    assert round(min(smallest), 2) == SMALLEST[lang]


def test_the_card_is_drawn_in_the_language():
    first = CAT.ids_of("nanny_alpaca")[0]
    english, german, polish = (card_picture(first, lang).png for lang in ("en", "de", "pl"))
    assert len({english, german, polish}) == 3
    img = Image.open(io.BytesIO(german))
    assert img.size == (CARD_W, CARD_H)


def test_a_long_rules_text_takes_room_from_the_art():
    def sentences(n: int) -> str:
        return " ".join(["Destroy an Animal in any other player's Field."] * n)

    assert [rules_layout(sentences(n))[0:2] + (len(rules_layout(sentences(n))[2]),
                                                rules_layout(sentences(n))[3])
            for n in (6, 7, 8, 9)] == [
        (290, 26, 8, True), (240, 26, 10, True), (190, 26, 11, True), (190, 26, 12, False)]
    assert rules_layout("Draw 2 cards.") == (290, 34, ["Draw 2 cards."], True)


def test_lines_break_where_each_language_allows():
    """No Polish line ends with a one-letter word ("z", "w", "i") or a number, no French line starts
    with high punctuation (":", ";"), on any card; English lines break at every space."""
    for design in CAT.designs.values():
        polish = rules_layout(translate_in("pl", CARD_TEXT, design.text), "pl")[2]
        assert not [line for line in polish if re.search(r"(^|\s)\w$", line)], design.key
        french = rules_layout(translate_in("fr", CARD_TEXT, design.text), "fr")[2]
        assert not [line for line in french if line[0] in ":;!?"], design.key
    assert glued("tour ; tu passes : oui", "fr") == "tour\u00a0; tu passes\u00a0: oui"
    assert glued("z Pastwiska i w fazie", "pl") == "z\u00a0Pastwiska i\u00a0w\u00a0fazie"
    assert glued("a card in a Field", "en") == "a card in a Field"
    shepherd = translate_in("pl", CARD_TEXT, CAT.designs["shepherd_ram"].text)
    assert rules_layout(shepherd, "pl")[2][3:5] == [
        "Ulepszenie lub Pogorszenie", "z\u00a0Pastwiska dowolnego"]
