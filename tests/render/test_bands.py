"""Rows deflated in bands (``bot.render.bands``): the stream, the kept bands, the budget."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from bot.render.bands import BAND_ROWS, BANDS, ENTRY_BYTES, Bands
from bot.render.common import palette_png


def _rows(stride: int, height: int, seed: int) -> bytearray:
    """``height`` rows of ``stride`` bytes: a filter byte 0, then runs of a few colours."""
    rng = random.Random(seed)
    out = bytearray()
    for _ in range(height):
        row = bytearray([0])
        while len(row) < stride:
            row += bytes([rng.randrange(6)]) * rng.randrange(1, 40)
        out += row[:stride]
    return out


@pytest.mark.parametrize("height", [1, BAND_ROWS - 1, BAND_ROWS, 3 * BAND_ROWS + 5])
def test_the_stream_inflates_to_the_rows(height):
    data = bytes(_rows(101, height, height))
    assert zlib.decompress(Bands().deflate(data, 101, 2)) == data


def test_a_band_met_before_is_not_deflated_again():
    bands = Bands()
    first = _rows(201, 4 * BAND_ROWS, 1)
    bands.deflate(bytes(first), 201, 2)
    assert (bands.hits, bands.misses, len(bands)) == (0, 4, 4)
    second = bytearray(first)
    second[2 * BAND_ROWS * 201 + 7] ^= 1  # one byte of the third band
    stream = bands.deflate(bytes(second), 201, 2)
    assert (bands.hits, bands.misses, len(bands)) == (3, 5, 5)
    assert zlib.decompress(stream) == bytes(second)


def test_kept_bands_join_with_bands_of_other_pictures():
    """A band's deflated bytes stand alone: taken into a picture whose other bands differ,
    the stream still inflates to that picture's rows."""
    bands = Bands()
    a, b = _rows(64, 2 * BAND_ROWS, 2), _rows(64, 2 * BAND_ROWS, 3)
    bands.deflate(bytes(a), 64, 2)
    mixed = bytes(b[:BAND_ROWS * 64] + a[BAND_ROWS * 64:])
    stream = bands.deflate(mixed, 64, 2)
    assert bands.hits == 1
    assert zlib.decompress(stream) == mixed


def test_the_oldest_bands_go_past_the_budget():
    bands = Bands(budget=1)
    bands.deflate(bytes(_rows(64, 2 * BAND_ROWS, 4)), 64, 2)
    assert len(bands) == 0 and bands.kept_bytes == 0
    roomy = Bands()
    data = bytes(_rows(64, 3 * BAND_ROWS, 5))
    first, second = data[:BAND_ROWS * 64], data[BAND_ROWS * 64:2 * BAND_ROWS * 64]
    roomy.deflate(data, 64, 2)
    roomy.budget = roomy.kept_bytes - 1
    roomy.deflate(first, 64, 2)  # used last, so kept; the second band is the oldest
    assert len(roomy) == 2 and roomy.kept_bytes <= roomy.budget
    roomy.deflate(first, 64, 2)
    assert (roomy.hits, roomy.misses) == (2, 3)
    roomy.deflate(second, 64, 2)
    assert (roomy.hits, roomy.misses) == (2, 4)


def test_a_row_has_a_byte_at_least():
    with pytest.raises(ValueError, match="at least one byte"):
        Bands().deflate(b"\x00", 0, 2)


def test_clear_forgets_bands_and_counts():
    bands = Bands()
    bands.deflate(bytes(_rows(32, BAND_ROWS, 7)), 32, 2)
    bands.clear()
    assert (len(bands), bands.kept_bytes, bands.hits, bands.misses) == (0, 0, 0, 0)


def test_a_kept_band_counts_its_entry_beside_its_bytes():
    bands = Bands()
    data = bytes(_rows(64, BAND_ROWS, 8))
    stream = bands.deflate(data, 64, 2)
    # the stream: 2 bytes of header, the band, 2 of the last block, 4 of Adler-32
    assert bands.kept_bytes == len(stream) - 8 + ENTRY_BYTES


def test_a_table_picture_of_many_bands_decodes_the_same_drawn_again():
    """``palette_png`` over many bands: the second encoding of the same picture takes every
    band kept and decodes to the same pixels."""
    rng = random.Random(9)
    picture = Image.new("P", (97, 5 * BAND_ROWS + 3), 0)
    picture.putdata([rng.randrange(4) for _ in range(picture.width * picture.height)])
    picture.putpalette([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255] + [0] * 756)
    first = palette_png(picture)
    hits = BANDS.hits
    second = palette_png(picture)
    assert BANDS.hits - hits == 6
    for png in (first, second):
        decoded = Image.open(io.BytesIO(png))
        assert decoded.mode == "P" and decoded.tobytes() == picture.tobytes()
