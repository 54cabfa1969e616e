"""Alpaca Pacapaca pictures: valid PNGs for every player count and the end of a game."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.ai.pacapaca import heuristic_policy
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import PacapacaOptions, StartNegotiation
from bot.render.pacapaca import render_final, render_table, score_cells
from bot.render.pacapaca_art import neck_segments
from tests.games.pacapaca.pacapaca_helpers import c

E = PacapacaEngine()
NAMES = {
    "s0": "Maya",
    "s1": "Ana",
    "s2": "Kofi",
    "s3": "Jun",
    "s4": "Priya",
    "s5": "Oleksandr the Great",
}


def play(seed, n, *, until_deck=None):
    s = E.new_game([f"s{i}" for i in range(n)], seed=seed, options=PacapacaOptions(babies=True))
    r = random.Random(seed)
    while s.phase != "finished":
        if until_deck is not None and len(s.deck) <= until_deck and s.phase == "turn":
            break
        seat = E.pending(s).seats[0]
        s, _ = E.apply(s, seat, heuristic_policy(E.view(s, seat), E.legal_actions(s, seat), r))
    return s


def image(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


@pytest.mark.parametrize("n", [2, 4, 6])
def test_table_png_for_player_counts(n):
    s = play(n, n, until_deck=8)
    assert s.phase != "finished"
    img = image(render_table(E.view(s, s.seats[0]), names=NAMES))
    assert img.size == {2: (1000, 880), 4: (1000, 960), 6: (1000, 1290)}[n]
    assert len(render_table(E.view(s, None))) < 8 * 1024 * 1024


def test_table_at_start_and_during_a_negotiation():
    s = E.new_game(["s0", "s1", "s2"], seed=4)
    image(render_table(E.view(s, None)))
    s = play(4, 3, until_deck=20)
    active = s.seats[s.active]
    partner = next(p for p in s.seats if p != active)
    s, _ = E.apply(s, active, StartNegotiation(partner=partner))
    image(render_table(E.view(s, partner), names=NAMES))


@pytest.mark.parametrize("n", [2, 6])
def test_final_png(n):
    s = play(10 + n, n)
    v = E.view(s, None)
    img = image(render_final(v, names=NAMES))
    assert img.size == {2: (1000, 880), 6: (1000, 1290)}[n]  # the table's own size
    # a finished view given to render_table draws the final picture too
    assert image(render_table(v, names=NAMES)).size == img.size


def test_final_needs_a_finished_game():
    s = E.new_game(["a", "b"], seed=1)
    with pytest.raises(ValueError):
        render_final(E.view(s, None))


def test_neck_segments_group_illustrations_and_mark_incomplete():
    neck = [
        c("mud"),
        c("scarf_bottom"),
        c("ribbon_left", 0),
        c("scarf_middle"),
        c("scarf_top"),
        c("ribbon_right", 0),
        c("ribbon_left", 1),
        c("pendant_star"),
        c("neck"),
    ]
    segs = neck_segments(neck)
    assert [(x[1], x[3]) for x in segs] == [
        ("ribbon_left", "ok"),
        ("ribbon_right", "ok"),
        ("scarf_top", "ok"),
        ("scarf_middle", "ok"),
        ("scarf_bottom", "ok"),
        ("pendant_star", "ok"),
        ("neck", "ok"),
        ("mud", "ok"),
        ("ribbon_left", "loose"),
    ]
    assert neck_segments(neck, final=True)[-1] == (
        c("ribbon_left", 1),
        "ribbon_left",
        -1,
        "removed",
    )
    assert sorted(x[0] for x in segs) == sorted(neck)


def test_score_cells_cover_every_line():
    s = play(3, 4)
    res = E.result(s)
    for seat, lines in res.breakdown.items():
        cells = score_cells(lines)
        assert sum(v for v in cells if v is not None) == res.scores[seat]
        assert cells[0] is not None  # the neck line is always there


def test_render_cards_for_every_kind_and_a_drawn_pair():
    from bot.games.pacapaca.cards import catalog
    from bot.render.pacapaca import render_cards

    every = [k.first_id for k in catalog().kinds]
    img = image(render_cards(every, title="Every kind"))
    # the title's lines (38 px each) between 16 px above and 8 px below, then the cards
    assert img.width == 3 * 316 + 16 and img.height == 16 + 38 + 8 + 5 * (390 + 16)
    pair = image(render_cards([c("scarf_top"), c("baby_female")], title="You drew: keep one"))
    assert pair.size == (2 * 316 + 16, 16 + 38 + 8 + 390 + 16)
    # one card: the title takes two lines, whole
    one = image(render_cards([c("scarf_top")], title="Your cards face down in the pile"))
    assert one.size == (316 + 16, 16 + 2 * 38 + 8 + 390 + 16)
    with pytest.raises(KeyError):
        render_cards([100])


def test_alpaca_close_up():
    from bot.render.pacapaca import alpaca_picture

    s = play(4, 3, until_deck=20)
    pic = alpaca_picture(E.view(s, "s1"), "s1", names=NAMES)
    assert pic.size == (700, 860) and image(pic.png).size == (700, 860)
    assert pic.smallest_text_px == 28
    with pytest.raises(KeyError):
        alpaca_picture(E.view(s, "s1"), "s7")


def test_cards_picture_unchanged_is_not_drawn_again(monkeypatch):
    import bot.render.pacapaca as render

    encoded = []
    encode = render.to_palette_png
    monkeypatch.setattr(render, "to_palette_png", lambda img: encoded.append(img.size) or encode(img))
    render.cards_picture.kept.clear()
    pic = render.cards_picture([3, 17], title="Drawn")
    assert render.cards_picture((3, 17), title="Drawn") is pic
    assert len(encoded) == 1
    assert render.cards_picture([17, 3], title="Drawn").png != pic.png
    assert render.cards_picture([3, 17], title="Kept").png != pic.png
    assert render.cards_picture([3, 17], title="Drawn", lang="de").png != pic.png
    assert len(encoded) == 4
    assert (render.cards_picture.kept.hits, render.cards_picture.kept.misses) == (1, 4)
