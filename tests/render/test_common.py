"""Pictures kept by what they show (``bot.render.common.kept_by``)."""

from __future__ import annotations

import math

from PIL import Image

from bot.render.common import Draw, KeptPictures, Picture, font, inputs_key, kept_by, measuring

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
    kept = KeptPictures(1)
    pic = Picture(b"png", (1, 1), 14.0)
    assert kept.get(b"a") is None
    kept.put(b"a", pic)
    assert kept.get(b"a") is pic
    kept.put(b"b", pic)
    assert kept.get(b"a") is None
    assert (kept.hits, kept.misses, len(kept)) == (1, 2, 1)
