"""An alpaca's body, neck and head drawn once and pasted: the same pixels as
:class:`~bot.render.pacapaca_art.Painter` drawing them in place.

Each part is drawn by the painter on a see-through RGBA canvas with the part's anchor at
the same parity as on the picture (so a shape with half-pixel coordinates rounds the same
way), cropped to its pixels and kept by its inputs (:func:`~bot.render.kept.inputs_key`
bytes: the part's own inputs and the scale; a neck, whose charms have half-pixel
coordinates, also by the segment height, the picture's width and the anchor's parity;
bodies and heads have whole-pixel coordinates only). Pillow draws shapes without
anti-aliasing and these parts hold no text, so each pixel of a part is its ink (opaque) or
untouched (clear): pasted through its opaque pixels, it gives the pixels drawing it there
gives. A part that reaches its canvas's edge or draws text is drawn in place instead.

A part is pasted through a ``1`` mask of its opaque pixels; on a picture mapped onto the
tables' palette as it is drawn (:mod:`bot.render.mapped`), its pixels mapped onto that
palette (made once) are pasted on the palette copy the same way, as a pixel is mapped by
its colour alone. Bodies and heads (a few per design and scale) are kept up to
:data:`FIGURES_KEPT`, necks (they differ from game to game) up to :data:`NECKS_KEPT`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image

from bot.render.common import measuring, note_mark
from bot.render.kept import Kept, inputs_key
from bot.render.mapped import mapping_of
from bot.render.pacapaca_art import RGB, Painter, Segment, _palette

#: Bodies and heads kept: 6 designs each at a handful of scales (about 70), each at most
#: about 240 x 180 px, five bytes a pixel (its pixels and its palette indices).
FIGURES_KEPT = 256
#: Necks kept (the necks of the tables drawn lately; a game shows one per player): about
#: 21,000 px on average, five bytes a pixel (about 105 KiB; some 80 MiB in all).
NECKS_KEPT = 768

#: A part drawn: (its pixels, opaque where drawn; a ``1`` mask of them; the pixels mapped
#: onto the tables' palette; x and y of its top-left corner from the anchor; the painter's
#: result from the anchor's y; the smallest mark drawn), or ``None``: drawn in place.
Drawn = tuple[Image.Image, Image.Image, Image.Image, int, int, int, float]
Part = Drawn | None

_figures: Kept[tuple[Part]] = Kept(FIGURES_KEPT)
_necks: Kept[tuple[Part]] = Kept(NECKS_KEPT)


def _part(kept: Kept[tuple[Part]], p: Painter, key: bytes, anchor: tuple[int, int],
          reach: tuple[int, int, int, int], draw: Callable[[Painter, int, int], int | None]
          ) -> Part:
    """The part ``draw(painter, x, y)`` draws at ``anchor`` (x, y), kept in ``kept`` by
    ``key``; ``reach`` (left, up, right, down) px around the anchor is its canvas."""
    found = kept.get(key)
    if found is not None:
        return found[0]
    x, y = anchor
    left, up, right, down = reach
    ax, ay = left + x % 2, up + y % 2  # the anchor on the canvas, same parity
    canvas = Image.new("RGBA", (ax + right + 2, ay + down + 2), (0, 0, 0, 0))
    painter = Painter(canvas, p.k, p.seg)
    painter.width = p.width
    with measuring(propagate=False) as meter:
        result = draw(painter, ax, ay)
    box = canvas.getbbox() or (ax, ay, ax + 1, ay + 1)  # of the opaque pixels
    part: Part = None  # text, or beyond the canvas: drawn in place
    if meter.smallest == math.inf and (
            box[0] > 0 and box[1] > 0 and box[2] < canvas.width and box[3] < canvas.height):
        piece = canvas.crop(box)
        part = (piece, piece.getchannel("A").convert("1", dither=Image.Dither.NONE),
                piece.convert("RGB").quantize(palette=_palette(), dither=Image.Dither.NONE),
                box[0] - ax, box[1] - ay,
                0 if result is None else result - ay, meter.smallest_mark)
    kept.put(key, (part,))
    return part


def body(p: Painter, cx: int, ground: int, colour: RGB) -> None:
    """:meth:`Painter.body` at (``cx``, ``ground``)."""
    k = p.k
    part = _part(_figures, p, inputs_key("body", colour, k), (cx, ground),
                 (int(140 * k) + 8, int(130 * k) + 8, int(40 * k) + 8, 8),
                 lambda q, x, y: q.body(x, y, colour))
    if part is None:
        p.body(cx, ground, colour)
    else:
        _paste(p, part, cx, ground)


def head(p: Painter, cx: int, neck_top: int, design: int, colour: RGB) -> None:
    """:meth:`Painter.head` on a neck at (``cx``, ``neck_top``)."""
    k = p.k
    part = _part(_figures, p, inputs_key("head", design, colour, k),
                 (cx, neck_top), (int(60 * k) + 8, int(140 * k) + 8, int(80 * k) + 8,
                                  int(50 * k) + 8),
                 lambda q, x, y: q.head(x, y, design, colour))
    if part is None:
        p.head(cx, neck_top, design, colour)
    else:
        _paste(p, part, cx, neck_top)


def neck(p: Painter, cx: int, y_bottom: int, segs: list[Segment], fur: RGB) -> int:
    """:meth:`Painter.neck` from (``cx``, ``y_bottom``) upward; returns its top y."""
    k, h = p.k, p.seg
    tall = max(len(segs) * h, int(18 * k))
    side = int(80 * k) + 24  # loops of a bow, marks of a loose part
    reach = (side, tall + int(30 * k) + 24, side, h + int(40 * k) + 24)
    key = inputs_key("neck", tuple(segs), fur, k, h, p.width, cx % 2, y_bottom % 2)
    part = _part(_necks, p, key, (cx, y_bottom), reach,
                 lambda q, x, y: q.neck(x, y, segs, fur))
    if part is None:
        return p.neck(cx, y_bottom, segs, fur)
    _paste(p, part, cx, y_bottom)
    return y_bottom + part[5]


def _paste(p: Painter, part: Drawn, x: int, y: int) -> None:
    """Paste ``part``'s opaque pixels with its anchor at (``x``, ``y``); on a picture mapped
    as it is drawn onto the tables' palette, its mapped pixels are pasted on the palette
    copy the same way (a pixel is mapped by its colour alone), else its box is marked."""
    piece, opaque, indices = part[0], part[1], part[2]
    x, y = x + part[3], y + part[4]
    note_mark(part[6])
    mapping = mapping_of(p.img)
    if mapping is not None:
        if mapping.palette is _palette():
            mapping.p.paste(indices, (x, y), opaque)
        else:
            mapping.mark(x, y, x + piece.width, y + piece.height)
    p.img.paste(piece, (x, y), opaque)
