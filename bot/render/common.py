"""Small shared Pillow helpers for herdbot renderers: fonts, rounded boxes, text, PNG.

Everything here is pure (no I/O except reading the bundled fonts once) and generic: no
game knowledge. Fonts are DejaVu Sans (assets/fonts/, licence in DejaVu-LICENSE.txt).
"""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from bot.paths import ASSETS_DIR

FONT_DIR = ASSETS_DIR / "fonts"
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

RGB = tuple[int, int, int]


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans (bold if asked) at ``size`` px, cached. Falls back to Pillow's built-in
    font at that size if the bundled file is missing."""
    path = FONT_DIR / _FONT_FILES[bold]
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:  # pragma: no cover - assets missing
        return ImageFont.load_default(size)


def text_size(
    draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.ImageFont | ImageFont.FreeTypeFont
) -> tuple[int, int]:
    """(width, height) in px of ``text`` drawn with ``fnt``."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=fnt)
    return int(right - left), int(bottom - top)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.ImageFont | ImageFont.FreeTypeFont,
    fill: RGB | str,
    *,
    anchor: str = "la",
    stroke: int = 0,
    stroke_fill: RGB | str | None = None,
) -> None:
    """Draw ``text`` at ``xy`` with a Pillow ``anchor`` (``"mm"`` centres, ``"la"`` is
    left/ascender) and an optional outline of ``stroke`` px."""
    draw.text(
        xy, text, font=fnt, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill
    )


def rounded_box(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    *,
    radius: int = 12,
    fill: RGB | str | None = None,
    outline: RGB | str | None = None,
    width: int = 1,
) -> None:
    """A rounded rectangle ``box = (x0, y0, x1, y1)``."""
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def pill(
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    text: str,
    fnt: ImageFont.ImageFont | ImageFont.FreeTypeFont,
    *,
    fill: RGB | str,
    text_fill: RGB | str,
    pad: tuple[int, int] = (12, 6),
) -> tuple[int, int, int, int]:
    """A rounded label centred on ``center``; returns its box."""
    w, h = text_size(draw, text, fnt)
    cx, cy = center
    box = (
        int(cx - w / 2 - pad[0]),
        int(cy - h / 2 - pad[1]),
        int(cx + w / 2 + pad[0]),
        int(cy + h / 2 + pad[1]),
    )
    draw.rounded_rectangle(box, radius=(box[3] - box[1]) // 2, fill=fill)
    draw.text((cx, cy), text, font=fnt, fill=text_fill, anchor="mm")
    return box


def to_png(
    image: Image.Image, *, optimize: bool = False, level: int = 1, palette: bool = False
) -> bytes:
    """Encode ``image`` as PNG bytes. ``level`` is the zlib level (1: fast, fine for
    flat-coloured pictures); ``optimize`` trades much more time for a smaller file;
    ``palette`` first reduces an RGB picture to 256 colours (no dithering), which is
    faster to encode and smaller, and looks the same for flat drawings."""
    buf = io.BytesIO()
    if palette and image.mode == "RGB":
        # The palette is chosen on a quarter-size copy (4x fewer pixels to cluster; every
        # flat colour survives the shrink), then the full picture is mapped onto it.
        small = image.resize((max(1, image.width // 2), max(1, image.height // 2)),
                             Image.Resampling.NEAREST)
        pal = small.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                             dither=Image.Dither.NONE)
        image = image.quantize(palette=pal, dither=Image.Dither.NONE)
    image.save(buf, format="PNG", optimize=optimize, compress_level=9 if optimize else level)
    return buf.getvalue()
