"""Renderer for Llamas & Alpacas: valid PNGs of the expected size for 2-4 players, the
set-up, a turn with treats on the row, the treat choice and a finished game."""

import io
import itertools
import random

import pytest
from PIL import Image, ImageChops

from bot.ai.llamas_alpacas import heuristic_policy, random_policy
from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.render import common
from bot.render.llamas_alpacas import (
    BOARD_CARD,
    ROW_CARD,
    TEXT,
    WIDTH,
    board_picture,
    render_table,
    table_picture,
)
from bot.render.llamas_alpacas_art import SYMBOL, card_tile, symbol, symbol_size

ENGINE = LlamasAlpacasEngine()
NAMES = {"s0": "Maya", "s1": "Tomasz", "s2": "Ana Lucia with a very long name", "s3": "Bob"}


def _play(n, seed, steps, policy=random_policy):
    s = ENGINE.new_game([f"s{i}" for i in range(n)], seed=seed)
    r = random.Random(seed)
    k = 0
    while s.phase != "finished" and k < steps:
        seat = ENGINE.pending(s).seats[0]
        s, _ = ENGINE.apply(s, seat, policy(ENGINE.view(s, seat), ENGINE.legal_actions(s, seat), r))
        k += 1
    return s


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 8 * 1024 * 1024
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize("n,height", [(2, 814), (3, 1294), (4, 1294)])
@pytest.mark.parametrize("steps", [0, 40])
def test_render_players(n, height, steps):
    s = _play(n, 11, steps)
    img = _png(render_table(ENGINE.view(s, "s0"), names=NAMES))
    assert img.size == (WIDTH, height)


def test_render_finished_game_and_highlight():
    s = _play(2, 3, 10**6, heuristic_policy)
    assert s.phase == "finished"
    img = _png(render_table(ENGINE.view(s, None), highlight={"row": [1], "s0": [0, 4]}))
    assert img.size == (WIDTH, 814)


def test_render_choose_space_and_keep_phases():
    seen = set()
    for seed in range(40):
        s = ENGINE.new_game(["s0", "s1"], seed=seed)
        r = random.Random(seed)
        while s.phase != "finished" and not {"keep_treats", "choose_space"} <= seen:
            seat = ENGINE.pending(s).seats[0]
            if s.phase in ("keep_treats", "choose_space") and s.phase not in seen:
                seen.add(s.phase)
                _png(render_table(ENGINE.view(s, seat)))
            s, _ = ENGINE.apply(
                s, seat, random_policy(ENGINE.view(s, seat), ENGINE.legal_actions(s, seat), r)
            )
        if len(seen) == 2:
            break
    assert seen == {"keep_treats", "choose_space"}


def test_short_row_renders():
    s = _play(2, 4, 6)
    s.row = s.row[:4]
    _png(render_table(ENGINE.view(s, None)))


def test_render_is_deterministic():
    s = _play(3, 8, 25)
    v = ENGINE.view(s, None)
    assert render_table(v, names=NAMES) == render_table(v, names=NAMES)


def test_card_tile_size():
    assert card_tile(1, 150, 200).size == (150, 200)
    assert card_tile(82, 112, 144).mode == "RGBA"
    # the digit and the colour symbol never go below the size asked for
    assert card_tile(5, 104, 128, 28).info["text_px"] == 28


def test_board_close_up():
    s = _play(2, 11, 40)
    pic = board_picture(ENGINE.view(s, "s0"), "s0", names=NAMES)
    assert pic.size == (736, 988)
    assert _png(pic.png).size == pic.size
    assert pic.phone_text_px >= 14
    with pytest.raises(KeyError):
        board_picture(ENGINE.view(s, "s0"), "s9")


def test_board_close_up_unchanged_is_not_drawn_again(monkeypatch):
    import bot.render.llamas_alpacas as render

    encoded = []
    encode = render._encode
    monkeypatch.setattr(render, "_encode", lambda img, pal: encoded.append(img.size) or encode(img, pal))
    board_picture.kept.clear()
    s = _play(2, 11, 40)
    pic = board_picture(ENGINE.view(s, "s0"), "s0", names=NAMES)
    assert board_picture(ENGINE.view(s, "s0"), "s0", names=NAMES) is pic
    assert board_picture(ENGINE.view(s, None), "s0", names=NAMES) is pic
    # the other seat moved (41): s0's board, score, treats and held card are the same
    assert board_picture(ENGINE.view(_play(2, 11, 41), "s0"), "s0", names=NAMES) is pic
    assert len(encoded) == 1
    assert (board_picture.kept.hits, board_picture.kept.misses) == (3, 1)
    # s0 took a card and spent its treats (48); another seat; another name
    held = _play(2, 11, 48)
    assert board_picture(ENGINE.view(held, "s0"), "s0", names=NAMES).size == (736, 988 + 272 + 70)
    assert board_picture(ENGINE.view(s, "s0"), "s1", names=NAMES).png != pic.png
    assert board_picture(ENGINE.view(s, "s0"), "s0", names={"s0": "Bo"}).png != pic.png
    assert len(encoded) == 4
    assert (board_picture.kept.hits, board_picture.kept.misses) == (3, 4)


def _core(colour: str, size: int) -> Image.Image:
    """The dark shape of ``colour``'s symbol (opaque and darker than mid-grey): 255 there,
    else 0. Shape only, so what a colour-blind player (or a greyscale copy) sees."""
    img = symbol(colour, size)
    opaque = img.getchannel("A").point(lambda v: 255 if v > 127 else 0)
    dark = img.convert("L").point(lambda v: 255 if v < 128 else 0)
    return ImageChops.multiply(opaque, dark)


def test_each_colour_has_its_own_shape():
    """The five symbols at 28 px (14 px on a phone): their dark shapes, where they lie in
    the 28 x 28 box and how many pixels they cover; each pair differs in at least 18% of
    the pixels either covers (circle and square, the closest pair, differ in the corners)."""
    assert SYMBOL == {"red": "circle", "blue": "square", "green": "triangle",
                      "yellow": "diamond", "white": "asterisk"}
    cores = {c: _core(c, 28) for c in SYMBOL}
    assert {c: (m.getbbox(), m.histogram()[255]) for c, m in cores.items()} == {
        "red": ((4, 4, 24, 24), 308), "blue": ((5, 5, 23, 23), 324),
        "green": ((5, 8, 23, 24), 151), "yellow": ((6, 5, 22, 23), 164),
        "white": ((4, 3, 24, 25), 284)}
    for a, b in itertools.combinations(SYMBOL, 2):
        differ = ImageChops.difference(cores[a], cores[b]).histogram()[255]
        either = ImageChops.lighter(cores[a], cores[b]).histogram()[255]
        assert differ / either >= 0.18, (a, b, differ, either)
    # the whole symbol (white rim included, at least half opaque) fills its box
    assert {c: symbol(c, 28).getchannel("A").point(lambda v: 255 if v > 127 else 0).getbbox()
            for c in SYMBOL} == {
        "red": (1, 1, 27, 27), "blue": (2, 2, 26, 26), "green": (0, 2, 28, 27),
        "yellow": (2, 0, 26, 28), "white": (0, 0, 28, 28)}


def test_the_symbol_is_at_least_14_px_tall_on_a_phone():
    """On the table's cards (1000 px wide, shown 500 px wide) the symbol is 28 px tall,
    on the board close-up (736 px wide) 33 px."""
    assert symbol_size(BOARD_CARD[1], TEXT) == symbol_size(ROW_CARD[1], TEXT) == 28
    assert card_tile(5, *BOARD_CARD, TEXT).info["mark_px"] == 28
    assert symbol_size(272, 21) == 33
    s = _play(3, 11, 40)
    assert table_picture(ENGINE.view(s, None), names=NAMES).phone_mark_px == 14.0
    assert round(board_picture(ENGINE.view(s, "s0"), "s0").phone_mark_px, 2) == 22.42


def test_no_letter_is_drawn_for_a_cards_colour(monkeypatch):
    """A card's only text is its digit or star: its colour is a drawn shape, the same in
    every language, never a letter."""
    texts: list[str] = []
    original = common.Draw.text

    def text(self, xy, text, *args, **kwargs):
        texts.append(str(text))
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(common.Draw, "text", text)
    card_tile.cache_clear()
    try:
        for card_id in range(1, 83):
            card_tile(card_id, *BOARD_CARD, TEXT)
    finally:
        card_tile.cache_clear()
    assert sorted(set(texts)) == ["1", "2", "3", "4", "\N{BLACK STAR}"]
    assert len(texts) == 82
