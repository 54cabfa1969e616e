"""The alpacas' kept parts (``bot.render.pacapaca_sprites``) give the pixels the painter
gives drawing them in place, and their caches stay within their bounds."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

import pytest
from PIL import Image

from bench.render import NAMES, playout
from bot.app import builtin_games
from bot.games.pacapaca.cards import catalog
from bot.render import pacapaca, pacapaca_sprites
from bot.render.common import measuring
from bot.render.pacapaca_art import BG, Painter, hex_rgb, neck_segments
from tests.render.test_mapped import _decoded, straightforward

SPEC = next(spec for spec in builtin_games() if spec.key == "pacapaca")


@contextmanager
def in_place() -> Iterator[None]:
    """Every part drawn in place by the painter, on a picture mapped whole."""
    saved = (pacapaca_sprites.body, pacapaca_sprites.neck, pacapaca_sprites.head)
    pacapaca_sprites.body = lambda p, *args: p.body(*args)  # type: ignore[assignment]
    pacapaca_sprites.neck = lambda p, *args: p.neck(*args)  # type: ignore[assignment]
    pacapaca_sprites.head = lambda p, *args: p.head(*args)  # type: ignore[assignment]
    try:
        with straightforward():
            yield
    finally:
        pacapaca_sprites.body, pacapaca_sprites.neck, pacapaca_sprites.head = saved


@pytest.mark.parametrize("players", range(SPEC.min_players, SPEC.max_players + 1))
@pytest.mark.parametrize(("seed", "lang"), [(1, "en"), (2, "de")])
def test_tables_with_kept_parts_are_the_pixels_drawn_in_place(players, seed, lang):
    """Consecutive tables (parts kept from the last ones), every sixth state and the end,
    the close-up and the final picture: the same PNG bytes as drawing every part in place
    and mapping the picture whole."""
    states = playout(SPEC, players, seed)
    names = {s: NAMES[i] for i, s in enumerate(states[0].seats)}
    picked = [*states[:8], *states[8::6], states[-1]]
    for state in picked:
        view = SPEC.engine.view(state, None)
        seat = state.seats[seed % len(state.seats)]
        mine = SPEC.engine.view(state, seat)
        draws = [partial(pacapaca.table_picture, view, names=names, lang=lang),
                 partial(pacapaca.alpaca_picture, mine, seat, names=names, lang=lang)]
        for draw in draws:
            kept = draw()
            with in_place():
                reference = draw()
            assert _decoded(kept.png) == _decoded(reference.png)
            assert kept == reference  # bytes, size, smallest text and mark
    assert pacapaca_sprites._necks.hits > 0


def _neck(p: Painter, i: int) -> int:
    rand = random.Random(i)
    cards = rand.sample(range(1, 60), rand.randint(1, 9))
    colour = hex_rgb(catalog().bodies[i % len(catalog().bodies)].colour)
    return pacapaca_sprites.neck(p, 300 + i % 2, 700 + i % 3, neck_segments(cards), colour)


def test_necks_kept_stay_within_their_bound():
    img = Image.new("RGB", (1000, 900), BG)
    p = Painter(img, 1.0, 30)
    with measuring():
        for i in range(pacapaca_sprites.NECKS_KEPT + 40):
            _neck(p, i)
    assert len(pacapaca_sprites._necks) == pacapaca_sprites.NECKS_KEPT


def test_bodies_and_heads_kept_are_a_few_per_design_and_scale():
    """Every design at every scale and anchor parity: one part each per scale (whole-pixel
    shapes), within the bound."""
    cat = catalog()
    img = Image.new("RGB", (1000, 900), BG)
    pacapaca_sprites._figures.clear()
    with measuring():
        for k in (0.85, 1.0, 1.052, 1.35, 1.8):
            p = Painter(img, k, 30)
            for design in [*cat.heads, *cat.bodies]:
                for dx in (0, 1):
                    for dy in (0, 1):
                        pacapaca_sprites.body(p, 400 + dx, 600 + dy, hex_rgb(design.colour))
                        pacapaca_sprites.head(p, 400 + dx, 300 + dy, design.id,
                                              hex_rgb(design.colour))
    colours = {design.colour for design in [*cat.heads, *cat.bodies]}
    # scales x (a body per colour + a head per design)
    assert len(pacapaca_sprites._figures) == 5 * (len(colours) + 12)
    assert len(pacapaca_sprites._figures) <= pacapaca_sprites.FIGURES_KEPT


def test_a_part_beyond_its_canvas_is_drawn_in_place():
    img = Image.new("RGB", (200, 200), BG)
    p = Painter(img, 1.0, 30)
    with measuring():
        part = pacapaca_sprites._part(
            pacapaca_sprites._necks, p, b"test: too wide", (50, 50), (4, 4, 4, 4),
            lambda q, x, y: q.d.rectangle((x - 10, y - 2, x + 2, y + 2), fill=(1, 2, 3)))
    assert part is None
