"""A game's pictures as one small animated GIF, for sharing a finished game.

Pure: PNG frames in, GIF bytes out. Every frame is scaled to :data:`WIDTH` pixels wide (a
phone's width; the table pictures are drawn larger) and drawn in one palette made from
the last frame and the first, without dithering, so the unchanged parts of a frame are
the same bytes and Pillow stores only what changed.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

#: Width of the animation, pixels.
WIDTH = 500
#: The largest animation returned, bytes: under Discord's 10 MiB attachment limit of a
#: server without boosts, with room for the message around it.
LIMIT = 8 * 1024 * 1024
#: How long each frame shows, and the last one (the end), milliseconds.
FRAME_MS = 900
LAST_MS = 4000
#: Colours of the shared palette.
COLOURS = 192


def _scaled(png: bytes, width: int) -> Image.Image:
    """PNG ``png`` as an RGB image ``width`` pixels wide (height in proportion)."""
    with Image.open(io.BytesIO(png)) as im:
        rgb = im.convert("RGB")
    if rgb.width == width:
        return rgb
    height = max(1, round(rgb.height * width / rgb.width))
    return rgb.resize((width, height), Image.Resampling.LANCZOS)


def thinned(count: int, keep: int) -> list[int]:
    """Indexes of at most ``keep`` (at least 2) of ``count`` frames, evenly spread, the
    first and the last always among them."""
    if count <= keep:
        return list(range(count))
    keep = max(keep, 2)
    return sorted({round(i * (count - 1) / (keep - 1)) for i in range(keep)})


def animate(frames: Sequence[bytes], *, width: int = WIDTH, frame_ms: int = FRAME_MS,
            last_ms: int = LAST_MS, limit: int = LIMIT) -> bytes:
    """An animated GIF of PNG ``frames`` in order, ``width`` pixels wide, each frame shown
    ``frame_ms`` and the last ``last_ms`` milliseconds, looping. When it would be over
    ``limit`` bytes, frames are left out evenly (the first and last kept) until it fits.
    Raises ``ValueError`` for no frames or when even two frames do not fit."""
    if not frames:
        raise ValueError("no frames to animate")
    images = [_scaled(png, width) for png in frames]
    height = max(im.height for im in images)
    canvas = [_on_canvas(im, width, height) for im in images]
    palette = _palette(canvas[-1], canvas[0])
    coded = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in canvas]
    keep = len(coded)
    while True:
        chosen = [coded[i] for i in thinned(len(coded), keep)]
        data = _gif(chosen, frame_ms, last_ms)
        if len(data) <= limit:
            return data
        if keep <= 2:
            raise ValueError(f"two frames take {len(data)} bytes, over {limit}")
        keep = max(2, min(keep - 1, keep * limit // len(data)))


def _on_canvas(im: Image.Image, width: int, height: int) -> Image.Image:
    """``im`` on a ``width`` x ``height`` canvas of its own top-left colour (frames of a
    game whose picture grows keep one size)."""
    if im.size == (width, height):
        return im
    out = Image.new("RGB", (width, height), im.getpixel((0, 0)))  # type: ignore[arg-type]
    out.paste(im, (0, 0))
    return out


def _palette(*images: Image.Image) -> Image.Image:
    """One adaptive palette of :data:`COLOURS` colours for ``images`` side by side."""
    strip = Image.new("RGB", (sum(im.width for im in images), max(im.height for im in images)))
    x = 0
    for im in images:
        strip.paste(im, (x, 0))
        x += im.width
    return strip.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT,
                          dither=Image.Dither.NONE)


def _gif(frames: list[Image.Image], frame_ms: int, last_ms: int) -> bytes:
    """``frames`` (palette images) as a looping GIF."""
    out = io.BytesIO()
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], loop=0,
                   duration=durations if len(frames) > 1 else last_ms, optimize=False,
                   disposal=1)
    return out.getvalue()


__all__ = ["FRAME_MS", "LAST_MS", "LIMIT", "WIDTH", "animate", "thinned"]
