"""Alpaca Pacapaca's pictures in every language: the legibility test of
``tests/render/test_legibility.py`` (the smallest text >= 14 px once the picture is 500 px
wide, the canvas the same from the first turn to the last) for the table, the final
scores, the close-up and the cards of every player count in every shipped language; the
words drawn are the language's, and a score table whose titles are too wide for their
columns staggers them over two lines."""

from __future__ import annotations

import functools

import pytest
from PIL import Image, ImageDraw

from bot.app import builtin_games
from bot.games.pacapaca.cards import catalog
from bot.games.pacapaca.engine import PacapacaEngine
from bot.i18n import SHIPPED, translate
from bot.render import pacapaca as render
from bot.render.common import PHONE_MIN_TEXT, PHONE_WIDTH, font
from tests.render.test_legibility import NAMES, states

SPEC = builtin_games()["pacapaca"]
ENGINE = PacapacaEngine()
PLAYERS = range(SPEC.min_players, SPEC.max_players + 1)


@functools.cache
def game(players: int):
    return states("pacapaca", players, 40 + players)


def phone_px(pic) -> float:
    return pic.smallest_text_px * PHONE_WIDTH / pic.size[0]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("lang", SHIPPED)
def test_every_pacapaca_picture_is_legible_in_every_language(lang: str, players: int):
    names = {f"s{i}": NAMES[i] for i in range(players)}
    sizes = set()
    for state in game(players):
        view = ENGINE.view(state, None)
        table = render.table_picture(view, names=names, lang=lang)
        assert phone_px(table) >= PHONE_MIN_TEXT, (lang, table.smallest_text_px)
        sizes.add(table.size)
        seat = state.seats[0]
        closeup = render.alpaca_picture(ENGINE.view(state, seat), seat, names=names,
                                        lang=lang)
        assert phone_px(closeup) >= PHONE_MIN_TEXT
    assert len(sizes) == 1, sizes
    cards = render.cards_picture([k.first_id for k in catalog().kinds],
                                 title=translate(lang, "Your cards face down in the pile"),
                                 lang=lang)
    assert phone_px(cards) >= PHONE_MIN_TEXT


def test_the_cards_picture_is_the_same_size_in_every_language():
    every = [k.first_id for k in catalog().kinds]
    assert {render.cards_picture(every, title="T", lang=lang).size for lang in SHIPPED} == {
        (3 * 316 + 16, 16 + 38 + 8 + 5 * (390 + 16))}


def test_the_score_table_staggers_titles_too_wide_for_a_column():
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    unit = (1000 - 2 * render.MARGIN - 190) / (len(render.SCORE_COLUMNS) + 1)
    titles = [t for t, _ in render.SCORE_COLUMNS] + ["Total"]
    wide = {lang: [translate(lang, t) for t in titles
                   if probe.textlength(translate(lang, t), font=font(render.TEXT)) > unit - 2]
            for lang in SHIPPED}
    # English fits on one line as before; German and Polish need two.
    assert wide["en"] == []
    assert wide["de"] == ["Schleife", "Anhänger", "Schlamm", "Summe"]
    assert wide["pl"] == ["Kokarda", "Zawieszki", "Wszystkie 4"]
    # Each staggered title has two columns' room.
    for lang in SHIPPED:
        assert all(probe.textlength(t, font=font(render.TEXT)) <= 2 * unit - 2
                   for t in (translate(lang, t) for t in titles)), lang
