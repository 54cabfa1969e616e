"""Every table is legible on a phone. For every game and player count, early, middle and
final states of a seeded AI game: the smallest text drawn shows at >= 14 px when the picture
is scaled to 500 px wide, the picture is at most 1.3 times as tall as it is wide, and its
size does not change during the game. The close-ups and private panels of the same states
show their text at >= 14 px too, and Pacapaca's charms and the Llamas & Alpacas colour
symbols are >= 14 px tall."""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import builtin_games
from bot.i18n import SHIPPED, pseudo
from bot.present.result_card import card_inputs
from bot.render.common import FONT_DIR, PHONE_MIN_TEXT, PHONE_WIDTH
from bot.render.rating_chart import HEIGHT, WIDTH, rating_chart
from bot.render.result_card import result_card

NAMES = ["Maya Longneck the Magnificent", "Bo", "Cyrus Fluff", "Dina Woolworth",
         "Ezra Carrots", "Fay Clover", "Gus Alpacino", "Hana Hay"]
MODULES = {"llamas-alpacas": "llamas_alpacas", "pacapaca": "pacapaca",
           "llamas-unleashed": "unleashed"}
CASES = [(spec.key, n) for spec in builtin_games() if spec.key in MODULES
         for n in range(spec.min_players, spec.max_players + 1)]


def states(key: str, players: int, seed: int) -> list[Any]:
    """Early (after the first decision), middle and final state of a seeded game played
    by the game's own AI policy in every seat."""
    spec = next(s for s in builtin_games() if s.key == key)
    engine = spec.engine
    state = engine.new_game([f"s{i}" for i in range(players)], seed=seed)
    rand = random.Random(seed)
    seen = [state]
    while engine.result(state) is None and len(seen) < 5000:
        seat = next(s for s in engine.pending(state).seats if engine.legal_actions(state, s))
        legal = engine.legal_actions(state, seat)
        state, _ = engine.apply(state, seat, spec.policy(engine.view(state, seat), legal, rand))
        seen.append(state)
    assert engine.result(state) is not None, "the AI game did not finish"
    return [seen[1], seen[len(seen) // 2], seen[-1]]


def test_every_game_and_count_is_covered():
    assert sorted({k for k, _ in CASES}) == sorted(MODULES)
    assert [n for k, n in CASES if k == "llamas-unleashed"] == list(range(2, 9))
    assert [n for k, n in CASES if k == "pacapaca"] == list(range(2, 7))
    assert [n for k, n in CASES if k == "llamas-alpacas"] == list(range(2, 5))


@pytest.mark.parametrize("key,players", CASES)
def test_table_is_legible_on_a_phone(key: str, players: int) -> None:
    spec = next(s for s in builtin_games() if s.key == key)
    module = importlib.import_module(f"bot.render.{MODULES[key]}")
    sizes = set()
    for stage, state in zip(("early", "middle", "final"), states(key, players, 40 + players),
                            strict=True):
        view = spec.engine.view(state, None)
        pic = module.table_picture(view, names={s: NAMES[i] for i, s in enumerate(state.seats)})
        width, height = pic.size
        phone_px = pic.smallest_text_px * PHONE_WIDTH / width
        assert phone_px >= PHONE_MIN_TEXT, (stage, pic.smallest_text_px, width)
        assert phone_px == pic.phone_text_px
        assert height <= 1.3 * width, (stage, pic.size)
        assert len(pic.png) <= 300 * 1024
        sizes.add(pic.size)
    assert len(sizes) == 1, sizes  # the same canvas from the first turn to the last


def test_the_meter_sees_small_text():
    """The measurement is real: text drawn smaller is reported smaller."""
    from PIL import Image

    from bot.render.common import Draw, font, measuring, paste, sprite

    @sprite
    def piece() -> Image.Image:
        img = Image.new("RGBA", (50, 20))
        Draw(img).text((0, 0), "x", font=font(11))
        return img

    with measuring() as outer:
        img = Image.new("RGB", (100, 100))
        Draw(img).text((0, 0), "hello", font=font(30))
        Draw(img).text((0, 40), "   ", font=font(5))  # blank text is not counted
        assert outer.smallest == 30
        piece()  # built but not pasted: not in this picture
        assert outer.smallest == 30
        paste(img, piece(), (0, 60))
    assert outer.smallest == 11


def closeups(key: str, state: Any, names: dict[str, str]) -> dict[str, Any]:
    """Every private picture of ``state`` a player can open: the close-up of each seat
    (Pacapaca: its alpaca, its cards face down in the pile, two drawn cards; Llamas &
    Alpacas: its board; Llamas Unleashed: its Field and hand)."""
    spec = next(s for s in builtin_games() if s.key == key)
    out: dict[str, Any] = {}
    for seat in state.seats:
        view = spec.engine.view(state, seat)
        if key == "llamas-unleashed":
            out[f"{seat} hand"] = spec.closeups["hand"](view, names=names)
        elif key == "llamas-alpacas":
            out[f"{seat} board"] = spec.closeups["board"](view, seat, names=names)
        else:
            from bot.render.pacapaca import cards_picture

            out[f"{seat} alpaca"] = spec.closeups["alpaca"](view, seat, names=names)
            if view.my_discards:
                out[f"{seat} discards"] = cards_picture(
                    view.my_discards, title="Your cards face down in the pile")
                out[f"{seat} one discard"] = cards_picture(
                    view.my_discards[:1], title="Your cards face down in the pile")
    if key == "pacapaca":
        from bot.render.pacapaca import cards_picture

        out["drawn"] = cards_picture([1, 40], title="You drew these two: keep one")
    return out


#: The smallest text (px at 500 px wide) over every close-up and panel of the three
#: stages, per game and player count.
CLOSEUP_TEXT = {"llamas-alpacas": 14.27, "pacapaca": 15.43, "llamas-unleashed": 14.0}
#: The smallest charm (px tall at 500 px wide) in Pacapaca's tables (the legend's; those
#: on the necks are at least as tall) and in its close-ups per player count.
CHARM_TABLE = 14.0
CHARM_CLOSEUP = {2: 17.14, 4: 17.14, 6: 14.29}
#: The Llamas & Alpacas colour symbols (px tall at 500 px wide) on the table's cards and
#: on the board close-up's.
LA_SYMBOL_TABLE = 14.0
LA_SYMBOL_CLOSEUP = 22.42


@pytest.mark.parametrize("key,players", [c for c in CASES if c[1] in (2, 4, 6, 8)])
def test_closeups_and_panels_are_legible_on_a_phone(key: str, players: int) -> None:
    spec = next(s for s in builtin_games() if s.key == key)
    names = {f"s{i}": NAMES[i] for i in range(players)}
    smallest, marks = math.inf, math.inf
    for state in states(key, players, 40 + players):
        for what, pic in closeups(key, state, names).items():
            assert pic.phone_text_px >= PHONE_MIN_TEXT, (what, pic.smallest_text_px, pic.size)
            assert len(pic.png) <= 300 * 1024, what
            smallest = min(smallest, pic.phone_text_px)
            marks = min(marks, pic.phone_mark_px)
        if key == "pacapaca":
            table = spec.engine.view(state, None)
            pic = importlib.import_module("bot.render.pacapaca").table_picture(table, names=names)
            assert pic.phone_mark_px == CHARM_TABLE  # the legend's charms, the smallest
    assert round(smallest, 2) == CLOSEUP_TEXT[key]
    if key == "pacapaca":
        assert round(marks, 2) == CHARM_CLOSEUP[players]
    if key == "llamas-alpacas":
        assert round(marks, 2) == LA_SYMBOL_CLOSEUP


@pytest.mark.parametrize("players", [2, 6])
def test_the_alpaca_close_up_is_centred_with_its_highlight_inside(players: int) -> None:
    """On the player's own turn the close-up's yellow highlight lies inside the picture,
    centred left to right."""
    from PIL import Image, ImageChops

    from bot.render.pacapaca import alpaca_picture
    from bot.render.pacapaca_art import ACTIVE_BG

    spec = next(s for s in builtin_games() if s.key == "pacapaca")
    state = states("pacapaca", players, 40 + players)[1]
    active = spec.engine.view(state, None).active
    pic = alpaca_picture(spec.engine.view(state, active), active)
    img = Image.open(io.BytesIO(pic.png)).convert("RGB")
    r, g, b = (band.point(lambda v, c=c: 255 if v == c else 0)
               for band, c in zip(img.split(), ACTIVE_BG, strict=True))
    mask = ImageChops.multiply(ImageChops.multiply(r, g), b)
    box = mask.getbbox()
    assert box is not None
    left, top, right, bottom = box
    assert (left, img.width - right) == (20, 19) and top > 0 and bottom < img.height


@pytest.mark.parametrize("lines", [1, 3])
def test_the_rating_history_chart_is_legible_on_a_phone(lines: int) -> None:
    rand = random.Random(lines)
    names = ["Llamas & Alpacas", "Alpaca Pacapaca", "Llamas Unleashed"]
    series = [(names[i], [rand.uniform(-10, 30) for _ in range(50 - 20 * i)])
              for i in range(lines)]
    pic = rating_chart(series)
    assert pic.size == (WIDTH, HEIGHT)
    assert pic.phone_text_px >= PHONE_MIN_TEXT
    assert HEIGHT <= 1.3 * WIDTH
    assert len(pic.png) <= 300 * 1024


#: Per game at its largest player count (the seeded AI game of the tests above): the
#: result card's size, turns and highlight.
CARDS = {
    "llamas-alpacas": ((800, 612), "Bo wins", "48 turns \N{MIDDLE DOT} 37 min",
                       "Best lines: Dina Woolworth had 2 lines meeting 3 conditions."),
    "pacapaca": ((800, 732), "Maya Longneck the Magnificent wins", "47 turns \N{MIDDLE DOT} 37 min",
                 "Tallest neck: Maya Longneck the Magnificent, 15 cards long."),
    "llamas-unleashed": ((800, 852), "Gus Alpacino wins", "56 turns \N{MIDDLE DOT} 37 min",
                         "The herd that won: Gus Alpacino's 6 Animals: 3 rams, 1 alpaca, 1 goat,"
                         " 1 llama."),
}


@pytest.mark.parametrize("key", sorted(CARDS))
def test_the_result_card_is_legible_on_a_phone(key: str) -> None:
    """The card of a finished game at the game's largest player count, rated (all but the
    last seat; the first a first rated game): text >= 14 px at 500 px wide, at most 1.3
    times as tall as wide, under 300 KB."""
    spec = next(s for s in builtin_games() if s.key == key)
    players = spec.max_players
    state = states(key, players, 40 + players)[-1]
    result = spec.engine.result(state)
    names = {s: NAMES[i] for i, s in enumerate(state.seats)}
    changes = {s: (3.0 + i, None if i == 0 else 2.5) for i, s in enumerate(state.seats[:-1])}
    inputs = card_inputs(spec.presenter, game=spec.name, game_id=1234,
                         view=spec.engine.view(state, None), result=result, names=names,
                         seats=state.seats, changes=changes, minutes=37)
    size, headline, length, highlight = CARDS[key]
    assert (inputs["headline"], inputs["length"], inputs["highlight"]) == (
        headline, length, highlight)
    pic = result_card(**inputs)
    assert pic.size == size
    assert pic.phone_text_px == 14.375 >= PHONE_MIN_TEXT
    assert pic.size[1] <= 1.3 * pic.size[0]
    assert len(pic.png) <= 300 * 1024


# -- every shipped language ------------------------------------------------------------
#
# The pictures drawn in the game's language (the table, the result card) or the member's
# (the board close-up, the rating chart): the same canvas as in English, text >= 14 px at
# 500 px wide, and with short names every label fits whole or in its translated short form
# (nothing drawn is cut with an ellipsis).

SHORT_NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hana"]


@contextlib.contextmanager
def drawn_texts() -> Iterator[list[str]]:
    """Every text drawn through :class:`bot.render.common.Draw` inside the block (cached
    table bases dropped first so that their words are drawn again)."""
    from bot.render import common
    from bot.render.llamas_alpacas import _base

    _base.cache_clear()  # type: ignore[attr-defined]
    texts: list[str] = []
    original = common.Draw.text

    def text(self: Any, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        texts.append(str(text))
        original(self, xy, text, *args, **kwargs)

    common.Draw.text = text  # type: ignore[method-assign]
    try:
        yield texts
    finally:
        common.Draw.text = original  # type: ignore[method-assign]
        _base.cache_clear()  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", SHIPPED)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_llamas_alpacas_table_and_board_are_legible_in_every_language(players: int,
                                                                           lang: str) -> None:
    from bot.render.llamas_alpacas import board_picture, table_picture

    spec = next(s for s in builtin_games() if s.key == "llamas-alpacas")
    sizes = set()
    for names, check_cut in ((NAMES, False), (SHORT_NAMES, True)):
        with drawn_texts() as texts:
            for state in states("llamas-alpacas", players, 40 + players):
                seats = {s: names[i] for i, s in enumerate(state.seats)}
                pic = table_picture(spec.engine.view(state, None), names=seats, lang=lang)
                assert pic.phone_text_px >= PHONE_MIN_TEXT, (lang, pic.smallest_text_px)
                assert pic.phone_mark_px == LA_SYMBOL_TABLE, lang  # the colour symbols
                assert pic.size[1] <= 1.3 * pic.size[0]
                sizes.add(pic.size)
                for seat in state.seats:
                    close = board_picture(spec.engine.view(state, seat), seat, names=seats,
                                          lang=lang)
                    assert close.phone_text_px >= PHONE_MIN_TEXT, (lang, seat)
                    # no card on the board, no symbol (inf)
                    assert close.phone_mark_px >= PHONE_MIN_TEXT, (lang, seat)
        if check_cut:
            assert [t for t in texts if "\N{HORIZONTAL ELLIPSIS}" in t] == [], lang
        assert uncovered("".join(texts)) == set(), lang
    assert sizes == {(1000, 814 if players == 2 else 1294)}


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_result_card_and_rating_chart_are_legible_in_every_language(lang: str) -> None:
    spec = next(s for s in builtin_games() if s.key == "llamas-alpacas")
    state = states("llamas-alpacas", 4, 44)[-1]
    result = spec.engine.result(state)
    for names, check_cut in ((NAMES, False), (SHORT_NAMES, True)):
        seats = {s: names[i] for i, s in enumerate(state.seats)}
        changes = {s: (3.0 + i, None if i == 0 else 2.5) for i, s in enumerate(state.seats[:-1])}
        with drawn_texts() as texts:
            inputs = card_inputs(spec.presenter, game=spec.name, game_id=1234,
                                 view=spec.engine.view(state, None), result=result,
                                 names=seats, seats=state.seats, changes=changes, minutes=37,
                                 lang=lang)
            pic = result_card(**inputs)
            rand = random.Random(3)
            games = ["Llamas & Alpacas", "Alpaca Pacapaca", "Llamas Unleashed"]
            chart = rating_chart([(games[i], [rand.uniform(-10, 30) for _ in range(50 - 20 * i)])
                                  for i in range(3)], lang)
        # as tall as its rows and its highlight's lines need: 2 lines at most
        assert pic.size[0] == 800 and pic.size[1] <= CARDS["llamas-alpacas"][0][1], lang
        assert pic.phone_text_px == 14.375, lang
        assert (chart.size, round(chart.phone_text_px, 2)) == ((WIDTH, HEIGHT), 14.17), lang
        assert len(pic.png) <= 300 * 1024 and len(chart.png) <= 300 * 1024
        if check_cut:
            assert [t for t in texts if "\N{HORIZONTAL ELLIPSIS}" in t] == [], lang
        assert uncovered("".join(texts)) == set(), lang


# -- the fonts cover every shipped language ----------------------------------------------

FONTS = (FONT_DIR / "DejaVuSans.ttf", FONT_DIR / "DejaVuSans-Bold.ttf")
#: A code point no font maps (plane 15, private use): what a missing glyph looks like.
UNMAPPED = "\U000F0000"


@functools.cache
def _glyph(path: Path, ch: str) -> tuple[float, bytes]:
    """The advance and the pixels of ``ch`` drawn alone with the font at ``path``."""
    from PIL import Image, ImageDraw, ImageFont

    fnt = ImageFont.truetype(str(path), 40)
    img = Image.new("L", (80, 80))
    ImageDraw.Draw(img).text((10, 10), ch, font=fnt, fill=255)
    return fnt.getlength(ch), img.tobytes()


def uncovered(text: str) -> set[str]:
    """The characters of ``text`` (spaces and line breaks aside) that a bundled font has
    no glyph for. FreeType draws a character its font's cmap lacks as glyph 0
    (``.notdef``, DejaVu's box), so a character is missing exactly when it draws as an
    unmapped code point does, same advance and same pixels (Pillow does not expose the
    cmap itself, and fontTools is not a dependency)."""
    return {ch for ch in set(text) - {" ", "\n"} for path in FONTS
            if _glyph(path, ch) == _glyph(path, UNMAPPED)}


def test_the_coverage_check_sees_a_missing_glyph() -> None:
    assert uncovered("a\N{CJK UNIFIED IDEOGRAPH-6F22}\U0001F340") == {
        "\N{CJK UNIFIED IDEOGRAPH-6F22}", "\U0001F340"}
    assert uncovered("ąćęłńóśźż ĄĆĘŁŃÓŚŹŻ ãõç œŒ ß äöüÄÖÜ éèêàâîôûùëïÿ ñáíú ¿¡ « » · … ★ ▶ × − ±"
                     ) == set()


def test_the_fonts_cover_every_letter_of_every_shipped_language() -> None:
    """Every letter of every translation in every catalogue (each part), and every
    letter the pseudo-locale makes, has a glyph in both DejaVu Sans fonts."""
    from bot.i18n import catalog
    from bot.i18n.pseudo import _ACCENTED

    letters = set(_ACCENTED) | set(pseudo("abcdefghijklmnopqrstuvwxyz"))
    for lang in SHIPPED:
        if lang in ("en", "en_XA"):
            continue
        for m in catalog.read_catalogue(lang):
            forms = [m.string] if isinstance(m.string, str) else list(m.string or ())
            letters |= {ch for form in forms for ch in form or "" if ch.isalpha()}
    assert len(letters) > 100
    assert uncovered("".join(letters)) == set()
