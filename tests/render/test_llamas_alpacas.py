"""Renderer for Llamas & Alpacas: valid PNGs of the expected size for 2-4 players, the
set-up, a turn with treats on the row, the treat choice and a finished game."""

import io
import random

import pytest
from PIL import Image

from bot.ai.llamas_alpacas import heuristic_policy, random_policy
from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.render.llamas_alpacas import WIDTH, board_picture, render_table
from bot.render.llamas_alpacas_art import card_tile

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
    # the digit and the colour letter never go below the size asked for
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
