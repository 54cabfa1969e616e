"""Small shared Pillow helpers for herdbot renderers: fonts, rounded boxes, text, PNG.

Everything here is pure (no I/O except reading the bundled fonts once) and generic: no
game knowledge. Fonts are DejaVu Sans (assets/fonts/, licence in DejaVu-LICENSE.txt).
"""

from __future__ import annotations

import io
import math
import re
import struct
import sys
import threading
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache, wraps
from typing import Any, ParamSpec

from PIL import Image, ImageDraw, ImageFont

from bot.paths import ASSETS_DIR
from bot.render.bands import BANDS
from bot.render.kept import Kept
from bot.render.mapped import CACHED, MarkingDraw, copy_of, mapping_of, paste_rgba

FONT_DIR = ASSETS_DIR / "fonts"
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

RGB = tuple[int, int, int]
P = ParamSpec("P")


#: Bytes of text bitmaps kept per process (:class:`KeptFont`; one byte a pixel, a name
#: about 8 KB): a table picture redraws mostly the same labels, names and numbers as the
#: game's last one, and every active game has names of its own.
MASK_BYTES = 24 * 2**20
#: Bytes a kept bitmap takes beside its pixels (its key and the entry).
MASK_ENTRY_BYTES = 256
#: Text measures (bounding boxes, lengths) kept per process.
MEASURES_KEPT = 16384


class KeptFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps its last text bitmaps (``getmask2``) and measures
    (``getbbox``, ``getlength``) by their arguments: FreeType draws the same bitmap for the
    same text, font, anchor and subpixel start, so a kept one is the same pixels. Calls
    whose arguments cannot be a key (unhashable extras) are not kept."""

    def getmask2(self, text: Any, *args: Any, **kwargs: Any) -> Any:
        key = _key(text, args, kwargs)
        if key is None:
            return super().getmask2(text, *args, **kwargs)
        kept = _masks.get((self, key))
        if kept is None:
            kept = super().getmask2(text, *args, **kwargs)
            _masks.put((self, key), kept)
        return kept

    def getbbox(self, text: Any, *args: Any, **kwargs: Any) -> Any:
        key = _key(text, args, kwargs)
        if key is None:
            return super().getbbox(text, *args, **kwargs)
        return _kept_measure(self, "bbox", key)

    def getlength(self, text: Any, *args: Any, **kwargs: Any) -> float:
        key = _key(text, args, kwargs)
        if key is None:
            return super().getlength(text, *args, **kwargs)
        return _kept_measure(self, "length", key)  # type: ignore[no-any-return]


#: A font call's arguments: ``(text, positional arguments, sorted keyword items)``.
FontCall = tuple[Any, tuple[Any, ...], tuple[tuple[str, Any], ...]]


def _key(text: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> FontCall | None:
    """The arguments of a font call as a hashable key, or ``None`` when one is not
    hashable (a list of features) or the bitmap is a colour one (Pillow changes it)."""
    if "RGBA" in args or kwargs.get("mode") == "RGBA":  # a colour bitmap is filled in place
        return None
    key: FontCall = (text, args, tuple(sorted(kwargs.items())))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _mask_bytes(kept: Any) -> int:
    """The bytes of a kept ``getmask2`` answer: its bitmap's pixels, one byte each (only
    ``L`` and ``1`` bitmaps are kept), and the entry."""
    width, height = kept[0].size
    return int(width * height) + MASK_ENTRY_BYTES


#: Text bitmaps kept (:class:`KeptFont`): (font, call) -> ``getmask2``'s answer.
_masks: Kept[Any] = Kept(sys.maxsize, budget=MASK_BYTES, weigh=_mask_bytes)


@lru_cache(maxsize=MEASURES_KEPT)
def _kept_measure(fnt: KeptFont, what: str, key: FontCall) -> Any:
    text, args, kwargs = key
    if what == "bbox":
        return ImageFont.FreeTypeFont.getbbox(fnt, text, *args, **dict(kwargs))
    return ImageFont.FreeTypeFont.getlength(fnt, text, *args, **dict(kwargs))


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans (bold if asked) at ``size`` px, cached, keeping its text bitmaps
    (:class:`KeptFont`). Falls back to Pillow's built-in font at that size if the bundled
    file is missing."""
    path = FONT_DIR / _FONT_FILES[bold]
    try:
        return KeptFont(str(path), size)
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


def fit(draw: ImageDraw.ImageDraw, texts: Sequence[str],
        fnt: ImageFont.ImageFont | ImageFont.FreeTypeFont, width: float) -> str:
    """The first of ``texts`` (a label, then its shorter forms) whose width with ``fnt``
    is at most ``width`` px; else the last one cut with an ellipsis to fit."""
    for text in texts:
        if draw.textlength(text, font=fnt) <= width:
            return text
    text = texts[-1]
    while text and draw.textlength(text + "\N{HORIZONTAL ELLIPSIS}", font=fnt) > width:
        text = text[:-1]
    return text.rstrip() + "\N{HORIZONTAL ELLIPSIS}"


#: A drawing surface for measuring text where no picture is drawn yet.
PROBE = ImageDraw.Draw(Image.new("RGB", (1, 1)))
#: Where a line may break: plain spaces, tabs and newlines (a no-break space holds its
#: words together).
_BREAKS = re.compile(r"[ \t\r\n]+")


def wrap(draw: ImageDraw.ImageDraw, text: str,
         fnt: ImageFont.ImageFont | ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` in lines that fit ``width`` px, broken at plain spaces (a word wider than
    ``width`` stays whole on its line)."""
    lines: list[str] = []
    for word in (w for w in _BREAKS.split(text) if w):
        if lines and draw.textlength(f"{lines[-1]} {word}", font=fnt) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


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
    faster to encode (:func:`palette_png`, ``level`` unused) and smaller, and looks the
    same for flat drawings."""
    buf = io.BytesIO()
    if palette and image.mode == "RGB":
        # The palette is chosen on a quarter-size copy (4x fewer pixels to cluster; every
        # flat colour survives the shrink), then the full picture is mapped onto it.
        small = image.resize((max(1, image.width // 2), max(1, image.height // 2)),
                             Image.Resampling.NEAREST)
        pal = small.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                             dither=Image.Dither.NONE)
        image = image.quantize(palette=pal, dither=Image.Dither.NONE)
        if not optimize:
            return palette_png(image)
    image.save(buf, format="PNG", optimize=optimize, compress_level=9 if optimize else level)
    return buf.getvalue()


#: zlib-ng's level for :func:`palette_png`: faster than zlib's level 1 and smaller.
PNG_LEVEL = 2


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_png(image: Image.Image) -> bytes:
    """PNG bytes of a palette (``P``) picture without transparency: 8 bits per pixel, no
    row filter, the data deflated by zlib-ng (several times faster than Pillow's encoder
    at the same pixels) in bands, a band of rows drawn before reusing its deflated bytes
    (:mod:`bot.render.bands`). Raises ValueError for another mode."""
    if image.mode != "P" or "transparency" in image.info:
        got = "P with transparency" if image.mode == "P" else image.mode
        raise ValueError(f"palette_png takes a P picture without transparency, not {got}")
    width, height = image.size
    # each row after its filter byte 0: the picture pasted one px in on a zero-filled one
    padded = Image.new("P", (width + 1, height), 0)
    padded.paste(image, (1, 0))
    rows = padded.tobytes()
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header),
                     _chunk(b"PLTE", bytes(image.getpalette("RGB") or ())),
                     _chunk(b"IDAT", BANDS.deflate(rows, width + 1, PNG_LEVEL)),
                     _chunk(b"IEND", b"")))


# -- the smallest text drawn -------------------------------------------------------------
#
# Every renderer draws its text through :class:`Draw` (a Pillow ``ImageDraw`` that notes
# the size of every font it draws with) inside :func:`measuring`. Cached pieces (card
# faces, bases) keep the smallest size drawn into them in ``image.info["text_px"]``;
# :func:`paste` and :func:`cached_copy` note it again each time the piece is reused. So a
# picture knows the smallest text in it, in px of the picture itself.

_local = threading.local()


class TextMeter:
    """The smallest text size (px, a font's em size) drawn while it was current, and the
    smallest mark (a symbol that carries meaning on its own, such as a charm: px tall)."""

    def __init__(self) -> None:
        self.smallest: float = math.inf
        self.smallest_mark: float = math.inf

    def note(self, px: float) -> None:
        """Record text of ``px`` px."""
        if px < self.smallest:
            self.smallest = px

    def note_mark(self, px: float) -> None:
        """Record a mark ``px`` px tall."""
        if px < self.smallest_mark:
            self.smallest_mark = px


def _stack() -> list[TextMeter]:
    stack: list[TextMeter] | None = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


@contextmanager
def measuring(*, propagate: bool = True) -> Iterator[TextMeter]:
    """A new :class:`TextMeter` for the text drawn in this thread inside the block. Meters
    nest: on leaving, the inner one's smallest size is noted in the outer one too, unless
    ``propagate`` is false (a cached piece, noted when it is pasted)."""
    stack = _stack()
    meter = TextMeter()
    stack.append(meter)
    try:
        yield meter
    finally:
        stack.pop()
        if propagate and stack:
            if meter.smallest < math.inf:
                stack[-1].note(meter.smallest)
            if meter.smallest_mark < math.inf:
                stack[-1].note_mark(meter.smallest_mark)


def note_text(px: float) -> None:
    """Record text of ``px`` px in the current meter (no-op outside :func:`measuring`)."""
    stack = _stack()
    if stack:
        stack[-1].note(px)


def note_mark(px: float) -> None:
    """Record a mark ``px`` px tall in the current meter (no-op outside
    :func:`measuring`)."""
    stack = _stack()
    if stack:
        stack[-1].note_mark(px)


class Draw(ImageDraw.ImageDraw):
    """``ImageDraw.Draw`` that notes the size of every (non-blank) text it draws, and on
    a picture mapped as it is drawn (:mod:`bot.render.mapped`) follows what it draws."""

    def __init__(self, im: Image.Image) -> None:
        super().__init__(im)
        mapping = mapping_of(im)
        if mapping is not None:  # what is drawn is marked to be mapped again
            self.draw = MarkingDraw(self.draw, mapping)

    def text(self, xy: Any, text: Any, fill: Any = None, font: Any = None,  # type: ignore[override]
             *args: Any, **kwargs: Any) -> None:
        if str(text).strip():
            note_text(getattr(font, "size", 10))
        super().text(xy, text, fill, font, *args, **kwargs)


def sprite(func: Callable[P, Image.Image]) -> Callable[P, Image.Image]:
    """Decorator for a cached builder of a picture piece: builds it once per arguments,
    measuring its text into ``image.info["text_px"]`` and its marks into
    ``image.info["mark_px"]`` (see :func:`paste`)."""

    @wraps(func)
    def build(*args: P.args, **kwargs: P.kwargs) -> Image.Image:
        with measuring(propagate=False) as m:
            img = func(*args, **kwargs)
        img.info["text_px"] = m.smallest
        img.info["mark_px"] = m.smallest_mark
        img.info[CACHED] = id(img)
        return img

    return cache(build)  # type: ignore[return-value]


def paste(dst: Image.Image, piece: Image.Image, xy: tuple[int, int], *,
          mask: bool = True) -> None:
    """Paste a cached ``piece`` (RGBA pieces through their own alpha if ``mask``) at
    ``xy`` and note the smallest text and mark drawn in it; on a picture mapped as it is
    drawn (:mod:`bot.render.mapped`), the piece is pasted on its palette copy too."""
    note_text(piece.info.get("text_px", math.inf))
    note_mark(piece.info.get("mark_px", math.inf))
    mapping = mapping_of(dst)
    if mapping is not None:  # first: it looks at what lies beneath
        mapping.paste(piece, xy, mask)
    if mask and piece.mode == "RGBA":
        paste_rgba(dst, piece, xy)
    else:
        dst.paste(piece, xy)


def cached_copy(piece: Image.Image, palette: Image.Image | None = None) -> Image.Image:
    """A copy of a cached ``piece`` (e.g. a background) to draw on; notes its text and
    marks. With a ``palette``, the copy is mapped onto it as it is drawn
    (:func:`~bot.render.mapped.copy_of`; encode it with :func:`~bot.render.mapped.mapped`)."""
    note_text(piece.info.get("text_px", math.inf))
    note_mark(piece.info.get("mark_px", math.inf))
    img = piece.copy() if palette is None else copy_of(piece, palette)
    img.info.pop(CACHED, None)
    return img


@dataclass(frozen=True)
class Picture:
    """A rendered picture: ``png`` bytes, ``size`` (width, height) in px and the smallest
    text drawn in it, ``smallest_text_px`` (a font's em size in px of this picture;
    ``inf`` when it has no text). On a phone the picture is shown about 500 px wide, so
    the text shows at ``smallest_text_px * 500 / width`` px there. ``smallest_mark_px``
    is the height of the smallest mark drawn (:func:`note_mark`; ``inf`` without any)."""

    png: bytes
    size: tuple[int, int]
    smallest_text_px: float
    smallest_mark_px: float = math.inf

    @property
    def phone_text_px(self) -> float:
        """The smallest text in px when the picture is shown 500 px wide."""
        return self.smallest_text_px * PHONE_WIDTH / self.size[0]

    @property
    def phone_mark_px(self) -> float:
        """The smallest mark's height in px when the picture is shown 500 px wide."""
        return self.smallest_mark_px * PHONE_WIDTH / self.size[0]


#: How wide a phone shows a picture in a message (px); UX.md asks for text of at least
#: :data:`PHONE_MIN_TEXT` px at this width and pictures no taller than 1.3 times their width.
PHONE_WIDTH = 500
PHONE_MIN_TEXT = 14


def min_font(width: int) -> int:
    """The smallest font size (px) that shows at :data:`PHONE_MIN_TEXT` px or more when
    a picture ``width`` px wide is shown :data:`PHONE_WIDTH` px wide."""
    return math.ceil(PHONE_MIN_TEXT * width / PHONE_WIDTH)


def picture(img: Image.Image, meter: TextMeter, **png: Any) -> Picture:
    """Encode ``img`` (see :func:`to_png` for ``png`` options) into a :class:`Picture`."""
    return Picture(to_png(img, **png), img.size, meter.smallest, meter.smallest_mark)


# -- pictures kept by what they show ---------------------------------------------------------


#: Pictures kept per drawing function (:func:`kept_by`): a close-up is about 10-40 KiB.
CLOSEUPS_KEPT = 64


def kept_by(key: Callable[P, bytes | None], size: int = CLOSEUPS_KEPT
            ) -> Callable[[Callable[P, Picture]], Callable[P, Picture]]:
    """Decorator for a pure picture function: a call whose ``key(*args, **kwargs)`` (the
    inputs the picture shows, as :func:`~bot.render.kept.inputs_key` bytes) equals a recent call's returns
    that call's :class:`Picture` (the same pixels) instead of drawing it again, and notes
    its smallest text and mark in the current meter. ``key`` must cover everything the
    picture shows; it returns ``None`` for inputs the function refuses (drawn, so that it
    raises its own error, or when ``key`` itself fails: drawn, not kept). The cache is the
    wrapper's ``kept`` (a :class:`~bot.render.kept.Kept` of pictures)."""

    def decorate(func: Callable[P, Picture]) -> Callable[P, Picture]:
        kept: Kept[Picture] = Kept(size)

        @wraps(func)
        def draw(*args: P.args, **kwargs: P.kwargs) -> Picture:
            try:
                k = key(*args, **kwargs)
            except Exception:  # noqa: BLE001 - inputs that cannot be keyed are drawn
                k = None
            if k is None:
                return func(*args, **kwargs)
            pic = kept.get(k)
            if pic is None:
                pic = func(*args, **kwargs)
                kept.put(k, pic)
            else:
                note_text(pic.smallest_text_px)
                note_mark(pic.smallest_mark_px)
            return pic

        draw.kept = kept  # type: ignore[attr-defined]
        return draw

    return decorate
