"""Pictures kept by what they show (``bot.render.common.kept_by``, ``bot.render.kept``), and
the paletted PNG encoding (``palette_png``)."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image, ImageDraw

import bot.render.common as common
from bot.render.common import Draw, Picture, font, kept_by, measuring, palette_png
from bot.render.kept import Kept, inputs_key

drawn: list[tuple[str, str]] = []


def _key(word: str, *, colour: str = "red", note: str = "") -> bytes:
    return inputs_key(word, colour)  # ``note`` is not shown


@kept_by(_key, size=2)
def _label(word: str, *, colour: str = "red", note: str = "") -> Picture:
    drawn.append((word, colour))
    with measuring() as meter:
        img = Image.new("RGB", (100, 40), colour)
        Draw(img).text((4, 4), word, font=font(20), fill="white")
    return Picture(word.encode() + colour.encode(), img.size, meter.smallest)


def test_an_unchanged_input_reuses_the_picture_and_a_changed_one_draws_anew():
    _label.kept.clear()
    drawn.clear()
    first = _label("hay")
    assert _label("hay") is first
    assert _label("hay", note="not shown") is first
    assert drawn == [("hay", "red")]
    assert (_label.kept.hits, _label.kept.misses) == (2, 1)
    assert _label("hay", colour="blue").png == b"hayblue"
    assert _label("straw").png == b"strawred"
    assert drawn == [("hay", "red"), ("hay", "blue"), ("straw", "red")]
    assert (_label.kept.hits, _label.kept.misses) == (2, 3)
    # two kept: the least recently used ("hay" in red) went out and is drawn again
    assert len(_label.kept) == 2
    assert _label("hay").png == b"hayred"
    assert drawn[-1] == ("hay", "red")
    assert (_label.kept.hits, _label.kept.misses) == (2, 4)


def test_a_kept_picture_notes_its_smallest_text_in_the_current_meter():
    _label.kept.clear()
    _label("hay")
    with measuring() as meter:
        assert _label("hay").smallest_text_px == 20
    assert _label.kept.hits == 1
    assert meter.smallest == 20
    assert meter.smallest_mark == math.inf


def test_keys_are_equal_for_equal_values():
    shared = {"s0": "Maya"}
    assert inputs_key(shared, shared) == inputs_key({"s0": "Maya"}, {"s0": "Maya"})
    assert inputs_key((1, 2), "x") != inputs_key((1, 3), "x")


def test_kept_pictures_by_key():
    kept = Kept(1)
    pic = Picture(b"png", (1, 1), 14.0)
    assert kept.get(b"a") is None
    kept.put(b"a", pic)
    assert kept.get(b"a") is pic
    kept.put(b"b", pic)
    assert kept.get(b"a") is None
    assert (kept.hits, kept.misses, len(kept)) == (1, 2, 1)


def _unkeyable(word: str) -> bytes:
    return inputs_key(lambda: word)  # a lambda cannot be pickled


@kept_by(_unkeyable)
def _plain(word: str) -> Picture:
    drawn.append((word, "plain"))
    return Picture(word.encode(), (1, 1), 14.0)


def test_inputs_that_cannot_be_keyed_are_drawn_every_time_and_not_kept():
    drawn.clear()
    assert [_plain("hay").png, _plain("hay").png] == [b"hay", b"hay"]
    assert drawn == [("hay", "plain"), ("hay", "plain")]
    assert (len(_plain.kept), _plain.kept.hits, _plain.kept.misses) == (0, 0, 0)


def test_palette_png_decodes_to_the_same_pixels_and_palette():
    """Every pixel index and palette entry survive; the file is a plain 8-bit paletted PNG."""
    img = Image.new("RGB", (37, 11), (251, 246, 234))
    ImageDraw.Draw(img).rectangle((3, 2, 20, 8), fill=(200, 40, 40))
    ImageDraw.Draw(img).line((0, 10, 36, 0), fill=(20, 90, 200), width=2)
    pal = img.quantize(colors=8, dither=Image.Dither.NONE)
    png = palette_png(pal)
    back = Image.open(io.BytesIO(png))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (back.format, back.mode, back.size) == ("PNG", "P", (37, 11))
    assert back.tobytes() == pal.tobytes()
    assert back.getpalette() == pal.getpalette()
    assert back.convert("RGB").tobytes() == pal.convert("RGB").tobytes()


def test_palette_png_refuses_a_picture_that_is_not_paletted():
    with pytest.raises(ValueError, match="not RGB$"):
        palette_png(Image.new("RGB", (4, 4)))
    clear = Image.new("P", (4, 4), 0)
    clear.info["transparency"] = 0
    with pytest.raises(ValueError, match="not P with transparency$"):
        palette_png(clear)


def test_a_font_keeps_its_text_bitmaps_within_their_byte_budget(monkeypatch):
    fnt = font(30, bold=True)
    weigh = common._mask_bytes
    left, centre = (fnt.getmask2("Hay bale", anchor=a) for a in ("lm", "mm"))
    monkeypatch.setattr(common, "_masks", Kept(10**9, budget=weigh(left) + weigh(centre),
                                                weigh=weigh))
    first = fnt.getmask2("Hay bale", anchor="lm")
    assert fnt.getmask2("Hay bale", anchor="lm") is first
    width, height = first[0].size
    assert common._masks.kept_bytes == width * height + common.MASK_ENTRY_BYTES
    assert fnt.getmask2("Hay bale", anchor="mm") is not first  # another call, another bitmap
    assert len(common._masks) == 2
    fnt.getmask2("A much longer line of oats and clover", anchor="lm")
    assert len(common._masks) == 1  # both older ones dropped: over the budget together
    again = fnt.getmask2("Hay bale", anchor="lm")
    assert again is not first and bytes(again[0]) == bytes(first[0])
