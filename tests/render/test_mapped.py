"""Pictures mapped onto their palette while drawn (``bot.render.mapped``) are the same
pixels as the straightforward way: the whole RGB picture composed with Pillow's own
pastes, then mapped at once (``quantize(palette=...)``)."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import Image

import bot.render.common as common
import bot.render.mapped as mapped_module
from bench.render import NAMES, playout
from bot.app import builtin_games
from bot.render import llamas_alpacas, pacapaca, unleashed, unleashed_hand
from bot.render.common import Draw, cached_copy, font, palette_png, paste, sprite
from bot.render.mapped import CELL, blank, mapped, mapping_of, paste_rgba


@contextmanager
def straightforward() -> Iterator[None]:
    """Draw without following: every picture mapped whole, pieces pasted by Pillow."""
    saved = (mapped_module.mapping_of, common.mapping_of, common.paste_rgba)
    mapped_module.mapping_of = common.mapping_of = lambda img: None  # type: ignore[assignment]
    common.paste_rgba = lambda dst, piece, xy: dst.paste(piece, xy, piece)  # type: ignore[assignment]
    try:
        yield
    finally:
        mapped_module.mapping_of, common.mapping_of, common.paste_rgba = saved


def _decoded(png: bytes) -> tuple[str, tuple[int, int], bytes, list[int] | None]:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.mode, img.size, img.tobytes(), img.getpalette()


def _same_as_straightforward(draw: Callable[[], bytes]) -> None:
    png = draw()
    with straightforward():
        reference = draw()
    assert _decoded(png) == _decoded(reference)
    assert png == reference


# -- Pillow maps a pixel by its colour alone ---------------------------------------------


def test_pillow_maps_a_pixel_by_its_colour_alone():
    """Mapping parts of a picture and pasting them together is mapping it whole."""
    rand = random.Random(5)
    pal = llamas_alpacas._palette()
    for _ in range(20):
        w, h = rand.randint(1, 90), rand.randint(1, 90)
        img = Image.frombytes("RGB", (w, h), rand.randbytes(3 * w * h))
        whole = img.quantize(palette=pal, dither=Image.Dither.NONE)
        parts = img.quantize(palette=pal, dither=Image.Dither.NONE)
        x0, y0 = rand.randint(0, w - 1), rand.randint(0, h - 1)
        box = (x0, y0, rand.randint(x0 + 1, w), rand.randint(y0 + 1, h))
        parts.paste(img.crop(box).quantize(palette=pal, dither=Image.Dither.NONE), box)
        assert parts.tobytes() == whole.tobytes()


# -- every way of drawing ------------------------------------------------------------------


@sprite
def _badge(colour: tuple[int, int, int]) -> Image.Image:
    """A cached RGBA piece: rounded, see-through in its corners and in a hole."""
    img = Image.new("RGBA", (70, 52), (0, 0, 0, 0))
    d = Draw(img)
    d.rounded_rectangle((0, 0, 69, 51), radius=14, fill=(*colour, 255), outline=(20, 20, 20))
    d.ellipse((28, 18, 44, 34), fill=(0, 0, 0, 0))
    d.text((6, 4), "Ab", font=font(20, True), fill=(255, 255, 255, 200))
    return img


@sprite
def _backdrop() -> Image.Image:
    img = Image.new("RGB", (203, 150), (226, 238, 214))
    d = Draw(img)
    d.rectangle((0, 0, 203, 30), fill=(94, 66, 44))
    d.rounded_rectangle((10, 40, 190, 140), radius=12, fill=(255, 252, 245),
                        outline=(200, 190, 175), width=2)
    return img


def _every_way(start: Callable[[], Image.Image], seed: int) -> bytes:
    rand = random.Random(seed)
    pal = llamas_alpacas._palette()
    img = start()
    d = Draw(img)

    def pt() -> tuple[float, float]:
        return rand.uniform(-20, img.width + 20), rand.uniform(-20, img.height + 20)

    def colour() -> tuple[int, int, int]:
        return rand.choice([(46, 139, 87), (255, 255, 255), (120, 110, 100), (212, 160, 23),
                            (rand.randrange(256), rand.randrange(256), rand.randrange(256))])

    for _ in range(14):
        (x0, y0), (x1, y1) = sorted([pt(), pt()])
        box = (x0, min(y0, y1), x1, max(y0, y1))
        kind = rand.randrange(12)
        if kind == 0:
            d.rectangle(box, fill=colour(), outline=colour(), width=rand.randint(1, 5))
        elif kind == 1:
            d.rounded_rectangle(box, radius=rand.randint(0, 20), fill=colour(),
                                outline=colour(), width=rand.randint(1, 6))
        elif kind == 2:
            d.ellipse(box, fill=colour(), outline=colour(), width=rand.randint(1, 4))
        elif kind == 3:
            d.polygon([pt() for _ in range(5)], fill=colour(), outline=colour(),
                      width=rand.randint(1, 4))
        elif kind == 4:
            d.line([pt() for _ in range(4)], fill=colour(), width=rand.randint(1, 9),
                   joint=rand.choice([None, "curve"]))
        elif kind == 5:
            d.arc(box, rand.randint(0, 360), rand.randint(0, 360), fill=colour(),
                  width=rand.randint(1, 5))
        elif kind == 6:
            d.chord(box, 30, 200, fill=colour(), outline=colour(), width=2)
        elif kind == 7:
            d.pieslice(box, 10, 250, fill=colour(), outline=colour())
        elif kind == 8:
            d.point([pt() for _ in range(6)], fill=colour())
        elif kind == 9:
            d.text(pt(), "Hay ★ ×3", font=font(rand.randint(12, 40), True), fill=colour(),
                   anchor=rand.choice(["la", "mm", "rm"]), stroke_width=rand.randint(0, 3),
                   stroke_fill=colour())
        elif kind == 10:
            paste(img, _badge(colour()), (round(pt()[0]), round(pt()[1])))
        else:  # a piece that is not cached: its box is mapped from the picture
            piece = Image.new("RGBA", (30, 20), (*colour(), rand.randrange(256)))
            paste(img, piece, (round(pt()[0]), round(pt()[1])))
    return palette_png(mapped(img, pal))


@pytest.mark.parametrize("seed", range(12))
def test_every_way_of_drawing_gives_the_straightforward_pixels(seed):
    pal = llamas_alpacas._palette()
    _same_as_straightforward(lambda: _every_way(lambda: cached_copy(_backdrop(), pal), seed))
    _same_as_straightforward(
        lambda: _every_way(lambda: blank((157, 121), (250, 244, 232), pal), seed))


def test_with_room_for_one_kept_part_the_pixels_are_the_same(monkeypatch):
    """The see-through parts kept over one colour are forgotten past OVERS_KEPT: with
    room for one, drawings that paste over several colours still give the
    straightforward pixels."""
    pal = llamas_alpacas._palette()
    seeds = range(3, 9)
    mapped_module._overs.clear()
    for seed in seeds:
        _every_way(lambda: cached_copy(_backdrop(), pal), seed)
    assert len(mapped_module._overs) > 1  # parts over several colours
    monkeypatch.setattr(mapped_module, "OVERS_KEPT", 1)
    mapped_module._overs.clear()
    for seed in seeds:
        _same_as_straightforward(
            lambda seed=seed: _every_way(lambda: cached_copy(_backdrop(), pal), seed))
        assert len(mapped_module._overs) <= 1


def test_a_picture_with_a_mapping_is_mapped_in_parts_and_a_copy_is_not_followed():
    pal = llamas_alpacas._palette()
    img = cached_copy(_backdrop(), pal)
    mapping = mapping_of(img)
    assert mapping is not None
    assert mapping_of(_backdrop()) is None
    assert mapping_of(img.copy()) is None
    # over one colour: pasted as drawn there, on both copies; over two: marked
    Draw(img).text((50, 60), "Hay", font=font(28), fill=(0, 0, 0))
    assert mapping.boxes == []
    Draw(img).text((120, 18), "Oat", font=font(28), fill=(0, 0, 0))
    Draw(img).rectangle((0, 0, 40, 40), fill=(46, 139, 87))  # drawn on the palette copy
    assert [b[-1] for b in mapping.boxes] == [255]
    cells = mapping.cells()
    assert cells.size == (-(-203 // CELL) + 1, -(-150 // CELL))
    assert cells.getpixel((0, 0)) == 0
    assert cells.getpixel((60 // CELL, 70 // CELL)) == 0
    assert cells.getpixel((130 // CELL, 30 // CELL)) == 255
    expected = img.quantize(palette=pal, dither=Image.Dither.NONE).tobytes()
    out = mapped(img, pal)
    assert out is mapping.p
    assert out.tobytes() == expected
    assert mapping_of(img) is None  # encoded once: the mapping is left


def test_a_mapping_onto_another_palette_is_not_used():
    pal = llamas_alpacas._palette()
    img = cached_copy(_backdrop(), pal)
    Draw(img).text((50, 60), "Hay", font=font(28), fill=(0, 0, 0))
    other = unleashed._palette()
    assert mapped(img, other).tobytes() == img.quantize(
        palette=other, dither=Image.Dither.NONE).tobytes()


def test_a_cached_piece_pastes_as_pillow_does_even_partly_outside():
    for xy in [(0, 0), (-30, -20), (150, 120), (-69, 10), (203, 0), (40, 149)]:
        for colour in [(200, 40, 40), (46, 139, 87)]:
            piece = _badge(colour)
            fast = _backdrop().copy()
            paste_rgba(fast, piece, xy)
            slow = _backdrop().copy()
            slow.paste(piece, xy, piece)
            assert fast.tobytes() == slow.tobytes()


def test_a_card_clear_in_its_corners_is_an_opaque_cross_and_four_corners():
    card = Image.new("RGBA", (40, 30), (200, 40, 40, 255))
    for x0, y0 in [(0, 0), (37, 0), (0, 28), (37, 28)]:
        card.paste((0, 0, 0, 0), (x0, y0, x0 + 3, y0 + 2))
    card.putpixel((1, 1), (200, 40, 40, 255))  # opaque inside a corner: still a corner
    card.info[mapped_module.CACHED] = id(card)
    shape = mapped_module.shape_of(card)
    assert shape is not None
    assert shape.solid == [(0, 2, 40, 28), (3, 0, 37, 30)]
    assert shape.holes == [(0, 0, 3, 2), (37, 0, 40, 2), (0, 28, 3, 30), (37, 28, 40, 30)]
    assert [p.size for p in shape.hole_pieces] == [(3, 2)] * 4


# -- the games' pictures ---------------------------------------------------------------------


def _states(spec: Any, players: int, seed: int) -> list[Any]:
    """States of a seeded AI-vs-AI game: the start, a quarter, half, three quarters in,
    and the end (or the last state reached)."""
    states = playout(spec, players, seed, limit=5_000)
    n = len(states) - 1
    return [states[i] for i in sorted({0, n // 4, n // 2, 3 * n // 4, n})]


SPECS = {spec.key: spec for spec in builtin_games()}
CASES = [(key, players, seed) for key, spec in SPECS.items()
         for players in range(spec.min_players, spec.max_players + 1) for seed in (1, 2)
         if players <= 5 or seed == 1]


def _draws(key: str, state: Any, players: int, seed: int) -> list[Callable[[], bytes]]:
    """The pictures of ``state``: the table (two ways) and the close-ups."""
    spec = SPECS[key]
    lang = "de" if seed == 2 else "en"
    names = {s: NAMES[i % len(NAMES)] for i, s in enumerate(state.seats)}
    view = spec.engine.view(state, None)
    seat = state.seats[seed % len(state.seats)]
    mine = spec.engine.view(state, seat)  # a close-up shows the seat's own view
    if key == "llamas-alpacas":
        hl = {"row": [1, 3], seat: [0, 4, 8]}
        return [
            lambda: llamas_alpacas.render_table(view, names=names, lang=lang),
            lambda: llamas_alpacas.render_table(view, highlight=hl, names=names),
            lambda: llamas_alpacas.board_picture.__wrapped__(  # type: ignore[attr-defined]
                mine, seat, names=names, lang=lang).png,
        ]
    if key == "pacapaca":
        return [
            lambda: pacapaca.render_table(view, names=names, lang=lang),
            lambda: pacapaca.alpaca_picture(mine, seat, names=names, lang=lang).png,
            lambda: pacapaca.cards_picture.__wrapped__(  # type: ignore[attr-defined]
                [1, 7, 12, 30, 44][: 1 + seed + players % 3], title="You drew",
                lang=lang).png,
        ]
    return [
        lambda: unleashed.render_table(view, names=names, lang=lang),
        lambda: unleashed_hand.hand_picture.__wrapped__(  # type: ignore[attr-defined]
            mine, names=names, lang=lang).png,
    ]


@pytest.mark.parametrize(("key", "players", "seed"), CASES)
def test_the_games_pictures_are_the_straightforward_pixels(key, players, seed):
    for state in _states(SPECS[key], players, seed):
        for draw in _draws(key, state, players, seed):
            _same_as_straightforward(draw)


def test_only_a_cached_rgb_background_is_followed():
    with pytest.raises(ValueError, match="not RGBA$"):
        mapped_module.copy_of(Image.new("RGBA", (4, 4)), llamas_alpacas._palette())
    with pytest.raises(ValueError, match="cached background"):
        mapped_module.copy_of(Image.new("RGB", (4, 4)), llamas_alpacas._palette())


def test_text_over_one_colour_is_the_same_pixels_and_its_keeping_is_bounded(monkeypatch):
    pal = llamas_alpacas._palette()
    monkeypatch.setattr(mapped_module, "TEXTS_KEPT", 3)
    mapped_module._texts.clear()
    img = cached_copy(_backdrop(), pal)
    plain = _backdrop()
    for n, word in enumerate(("Hay", "Oats", "Clover", "Hay", "Straw")):
        for picture in (img, plain):
            Draw(picture).text((40 + 10 * n, 50 + 15 * n), word, font=font(18),
                               fill=(30, 30, 120))
    assert img.tobytes() == plain.tobytes()
    assert len(mapped_module._texts) <= 3
    assert mapped(img, pal).tobytes() == plain.quantize(
        palette=pal, dither=Image.Dither.NONE).tobytes()
