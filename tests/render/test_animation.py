"""The exported animation: a GIF 500 pixels wide, one frame per picture given, each shown
for its time, looping, and never over its byte limit (frames are left out evenly)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from bot.render.animation import FRAME_MS, LAST_MS, WIDTH, animate, thinned


def frame(n: int, size: tuple[int, int] = (1000, 700)) -> bytes:
    im = Image.new("RGB", size, (240, 230, 210))
    draw = ImageDraw.Draw(im)
    draw.rectangle((40 * n, 100, 40 * n + 120, 300), fill=(120, 60, 30))
    draw.text((20, 20), f"move {n}", fill="black")
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def test_thinned_keeps_the_first_and_the_last_evenly():
    assert thinned(5, 10) == [0, 1, 2, 3, 4]
    assert thinned(101, 5) == [0, 25, 50, 75, 100]
    assert thinned(10, 1) == [0, 9]


def test_a_gif_500_pixels_wide_one_frame_per_picture():
    data = animate([frame(n) for n in range(6)])
    with Image.open(io.BytesIO(data)) as gif:
        assert (gif.format, gif.size, gif.n_frames) == ("GIF", (WIDTH, 350), 6)
        assert gif.info["loop"] == 0
        durations = []
        for n in range(gif.n_frames):
            gif.seek(n)
            durations.append(gif.info["duration"])
        assert durations == [FRAME_MS] * 5 + [LAST_MS]


def test_a_smaller_picture_is_laid_on_the_common_canvas():
    data = animate([frame(0, (1000, 600)), frame(1, (1000, 800))])
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.size == (WIDTH, 400) and gif.n_frames == 2


def test_frames_are_left_out_to_stay_under_the_limit():
    frames = [frame(n) for n in range(20)]
    whole = animate(frames)
    limit = len(whole) // 2
    data = animate(frames, limit=limit)
    assert len(data) <= limit
    with Image.open(io.BytesIO(data)) as gif:
        assert 2 <= gif.n_frames < 20
    with pytest.raises(ValueError, match="no frames"):
        animate([])
    with pytest.raises(ValueError, match="two frames take"):
        animate(frames, limit=100)
