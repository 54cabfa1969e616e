"""RGB pictures mapped onto a fixed 256-colour palette while they are drawn.

Pillow maps an RGB pixel onto a given palette (``quantize(palette=...)``, no dithering)
by its colour alone, so a picture can be mapped in parts and give the same palette
indices as mapping it whole. A :class:`Mapping` rides along an RGB picture with its
palette copy, which starts as the mapped background (mapped once per cached background):
cached pieces pasted on the picture are pasted mapped, shapes (Pillow draws them without
anti-aliasing) are drawn on the palette copy too with their ink's index
(:class:`MarkingDraw`), and what blends with what lies beneath (text, a piece's
see-through pixels) is marked in a grid of :data:`CELL` px cells; at the end only the
marked cells are mapped from the RGB picture (:func:`mapped`).

Only drawing through :class:`~bot.render.common.Draw` and pasting through
:func:`~bot.render.common.paste` is followed: a picture with a mapping must not be
changed any other way (``Image.paste``, a plain ``ImageDraw``, colour-font text).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from typing import Any

from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
#: A box (x0, y0, x1, y1), end excluded.
Box = tuple[int, int, int, int]

#: px: drawn boxes are marked in cells of CELL x CELL px.
CELL = 16
#: The key of a picture's :class:`Mapping` in its ``info``.
KEY = "herdbot.mapping"
#: The ``info`` key of a cached piece (:func:`~bot.render.common.sprite`): its own
#: ``id`` (a copy of it, which carries its ``info``, is not the cached piece).
CACHED = "herdbot.cached"

#: See-through parts over one colour kept at most (:func:`_over`).
OVERS_KEPT = 4096
#: cells: marked runs in a row this close are mapped as one (a box mapped costs about as
#: much as mapping a few thousand px more).
GAP = 4
_RUN = re.compile(b"[^\x00]+")
_lock = threading.Lock()
#: Mapped copies of cached pieces and backgrounds: (id(piece), id(palette), mask) ->
#: (piece, palette, mapped copy, boxes of opaque pixels, boxes of see-through pixels).
#: An entry holds its piece and palette, so their ids stay theirs.
_pieces: dict[tuple[int, int, bool], tuple[Any, ...]] = {}
#: See-through parts of cached pieces over one colour, mapped (:func:`_over`):
#: (id(piece), part, colour, id(palette)) -> (piece, palette, mapped part).
_overs: dict[tuple[int, int, RGB, int], tuple[Image.Image, Image.Image, Image.Image]] = {}
#: Texts drawn over one colour, as drawn and mapped (:func:`_text_over`): (id(bitmap), ink,
#: colour, id(palette)) -> (bitmap, palette, RGB core, mapped core).
_texts: dict[tuple[int, int, RGB, int], tuple[Any, Image.Image, Any, Any]] = {}
#: Texts over one colour kept at most (about 10 KB each).
TEXTS_KEPT = 2048
#: The :class:`Shape` of cached RGBA pieces: id(piece) -> (piece, shape).
_shapes: dict[int, tuple[Image.Image, Shape]] = {}


#: The palette indices of the inks met so far per palette: id(palette) -> (palette,
#: {ink: index}) (see :meth:`Mapping.index`).
_ink_tables: dict[int, tuple[Image.Image, dict[int, int]]] = {}


def _inks(palette: Image.Image) -> dict[int, int]:
    entry = _ink_tables.get(id(palette))
    if entry is None or entry[0] is not palette:
        with _lock:
            entry = _ink_tables[id(palette)] = (palette, {})
    return entry[1]


def _map(img: Image.Image, palette: Image.Image) -> Image.Image:
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


class Mapping:
    """The palette copy of an RGB picture being drawn and the cells drawn over since
    (see the module doc). Made by :func:`copy_of` or :func:`blank`."""

    def __init__(self, rgb: Image.Image, p: Image.Image, palette: Image.Image) -> None:
        self.core = rgb.im
        self.p = p
        self.palette = palette
        self.size = rgb.size
        #: in order: boxes drawn (x0, y0, x1, y1, 255), end excluded, maybe outside the
        #: picture, and boxes pasted mapped (..., 0)
        self.boxes: list[tuple[float, float, float, float, int]] = []
        #: draws shapes on the palette copy
        self.pdraw = ImageDraw.Draw(p).draw
        self._inks = _inks(palette)

    def index(self, ink: int) -> int:
        """The palette index of an RGB picture's ink (Pillow's packed ``r, g, b, a``)."""
        index = self._inks.get(ink)
        if index is None:
            index = self._inks[ink] = colour_index(
                (ink & 255, (ink >> 8) & 255, (ink >> 16) & 255), self.palette)
        return index

    def mark(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Mark the box from (``x0``, ``y0``) to (``x1``, ``y1``) (end excluded) as drawn."""
        self.boxes.append((x0, y0, x1, y1, 255))

    def mark_all(self) -> None:
        """Mark the whole picture as drawn."""
        self.mark(0, 0, *self.size)

    def paste(self, piece: Image.Image, xy: tuple[int, int], mask: bool) -> None:
        """Follow ``piece`` pasted at ``xy`` on the RGB picture (through its alpha if
        ``mask``): a cached piece is pasted mapped, any other is marked as drawn."""
        x, y = xy
        entry = (_mapped_piece(piece, self.palette, mask)
                 if piece.info.get(CACHED) == id(piece) else None)
        if entry is None:
            self.mark(x, y, x + piece.width, y + piece.height)
            return
        p, solid, holes = entry[2], entry[3], entry[4]
        pcore = self.p.im
        pcore.paste(p.im, (x, y, x + p.width, y + p.height))
        self.boxes.extend((x + a, y + b, x + c, y + d, 0) for a, b, c, d in solid)
        # a see-through part over one colour is pasted mapped as it shows over that
        # colour; over anything else it is marked, to be mapped from the picture
        w, h = self.size
        for i, (a, b, c, d) in enumerate(holes):
            box = (x + a, y + b, x + c, y + d)
            if box[0] >= 0 and box[1] >= 0 and box[2] <= w and box[3] <= h:
                beneath = self.core.crop(box).getcolors(1)
                if beneath:
                    pcore.paste(_over(piece, i, beneath[0][1], self.palette).im, box)
                    continue
            self.boxes.append((*box, 255))

    def cells(self) -> Image.Image:
        """The grid of :data:`CELL` px cells, 255 where a box drawn reaches and no opaque
        piece was pasted over all of the cell since, and a last column of 0 (so that no run
        of marked cells goes on into the next row)."""
        w, h = self.size
        cells = Image.new("L", (-(-w // CELL) + 1, -(-h // CELL)), 0)
        core = cells.im
        for x0, y0, x1, y1, fill in self.boxes:
            if fill:  # every cell the box reaches
                a, b = max(0, int(x0)) // CELL, max(0, int(y0)) // CELL
                c, d = -(-min(w, int(x1) + 1) // CELL), -(-min(h, int(y1) + 1) // CELL)
            else:  # every cell inside the box (pasted whole pixels: ints)
                a, b = -(-max(0, int(x0)) // CELL), -(-max(0, int(y0)) // CELL)
                c, d = min(w, int(x1)) // CELL, min(h, int(y1)) // CELL
                if x1 >= w:
                    c = -(-w // CELL)
                if y1 >= h:
                    d = -(-h // CELL)
            if a < c and b < d:
                core.paste(fill, (a, b, c, d))
        return cells

    def finish(self, rgb: Image.Image) -> Image.Image:
        """The palette picture: the marked cells mapped from ``rgb``, in boxes."""
        cells = self.cells()
        stride = cells.width
        w, h = self.size
        pal, pcore, core = self.palette.im, self.p.im, rgb.im
        done: list[Box] = []
        open_: dict[tuple[int, int], list[int]] = {}  # (x0, x1) -> [first row, next row]

        def add(row: int, x0: int, x1: int) -> None:
            rows = open_.get((x0, x1))
            if rows is not None and rows[1] == row:
                rows[1] = row + 1
                return
            if rows is not None:
                done.append((x0, rows[0], x1, rows[1]))
            open_[(x0, x1)] = [row, row + 1]

        run: tuple[int, int, int] | None = None
        for m in _RUN.finditer(cells.tobytes()):
            row, x0 = divmod(m.start(), stride)
            x1 = x0 + m.end() - m.start()
            if run is not None and run[0] == row and x0 - run[2] <= GAP:
                run = (row, run[1], x1)
                continue
            if run is not None:
                add(*run)
            run = (row, x0, x1)
        if run is not None:
            add(*run)
        done += [(x0, r[0], x1, r[1]) for (x0, x1), r in open_.items()]
        if not done:
            return self.p
        for x0, y0, x1, y1 in done:
            box = (x0 * CELL, y0 * CELL, min(w, x1 * CELL), min(h, y1 * CELL))
            pcore.paste(core.crop(box).convert("P", 0, pal), box)
        return self.p


class Shape:
    """Where a cached RGBA piece is opaque: ``opaque`` (a ``1`` mask of its opaque pixels,
    ``None`` when all are), ``solid`` (boxes of opaque pixels only), ``holes`` (disjoint
    boxes holding every other pixel) and ``hole_pieces`` (the piece cropped to each)."""

    def __init__(self, piece: Image.Image) -> None:
        self.opaque: Image.Image | None = None
        self.solid: list[Box] = [(0, 0, *piece.size)]
        self.holes: list[Box] = []
        alpha = piece.getchannel("A")
        if alpha.getextrema() != (255, 255):
            self.opaque = alpha.point(lambda a: 255 if a == 255 else 0, "1")
            see = alpha.point(lambda a: 0 if a == 255 else 255)
            self.solid, self.holes = _cross(see) or (list(_solid(see, (0, 0, *piece.size))),
                                                     list(_boxes(see, (0, 0, *piece.size))))
        self.hole_pieces = [piece.crop(box) for box in self.holes]


def shape_of(piece: Image.Image) -> Shape | None:
    """The :class:`Shape` of a cached RGBA ``piece`` (made once), or ``None`` for another
    piece."""
    if piece.mode != "RGBA" or piece.info.get(CACHED) != id(piece):
        return None
    entry = _shapes.get(id(piece))
    if entry is None or entry[0] is not piece:
        entry = (piece, Shape(piece))
        with _lock:
            _shapes[id(piece)] = entry
    return entry[1]


def paste_rgba(dst: Image.Image, piece: Image.Image, xy: tuple[int, int]) -> None:
    """``dst.paste(piece, xy, piece)``, the same pixels, faster for a cached piece: its
    opaque pixels copied, only the others blended."""
    shape = shape_of(piece)
    if shape is None:
        dst.paste(piece, xy, piece)
        return
    if shape.opaque is None:
        dst.paste(piece, xy)
        return
    # on the cores: a few calls for every piece (Pillow clips each box to the picture)
    x, y = xy
    core = dst.im
    core.paste(piece.im, (x, y, x + piece.width, y + piece.height), shape.opaque.im)
    for (a, b, c, d), part in zip(shape.holes, shape.hole_pieces, strict=True):
        core.paste(part.im, (x + a, y + b, x + c, y + d), part.im)


def _mapped_piece(piece: Image.Image, palette: Image.Image, mask: bool
                  ) -> tuple[Any, ...] | None:
    """(piece, palette, mapped copy, solid boxes, see-through boxes) of a cached ``piece``
    (see :data:`_pieces`), or ``None`` for a mode not followed (then its box is mapped from
    the picture)."""
    use_alpha = mask and piece.mode == "RGBA"
    key = (id(piece), id(palette), use_alpha)
    entry = _pieces.get(key)
    if entry is not None and entry[0] is piece and entry[1] is palette:
        return entry
    if piece.mode not in ("RGB", "RGBA"):
        return None
    p = _map(piece.convert("RGB") if piece.mode == "RGBA" else piece, palette)
    solid: list[Box] = [(0, 0, *piece.size)]
    holes: list[Box] = []
    shape = shape_of(piece) if use_alpha else None
    if shape is not None:
        solid, holes = shape.solid, shape.holes
    entry = (piece, palette, p, solid, holes)
    with _lock:
        _pieces[key] = entry
    return entry


def _over(piece: Image.Image, i: int, colour: RGB, palette: Image.Image) -> Image.Image:
    """The ``i``-th see-through part of a cached ``piece`` pasted over ``colour``, mapped
    onto ``palette`` (kept: see :data:`_overs`)."""
    key = (id(piece), i, colour, id(palette))
    entry = _overs.get(key)
    if entry is None or entry[0] is not piece or entry[1] is not palette:
        shape = shape_of(piece)
        assert shape is not None
        part = shape.hole_pieces[i]
        img = Image.new("RGB", part.size, colour)
        img.paste(part, (0, 0), part)
        with _lock:
            if len(_overs) >= OVERS_KEPT:  # colours beneath are few; this bounds them
                _overs.clear()
            entry = _overs[key] = (piece, palette, _map(img, palette))
    return entry[2]


def _text_over(bitmap: Any, ink: int, colour: RGB, palette: Image.Image) -> tuple[Any, Any]:
    """(RGB, mapped) cores of the text ``bitmap`` (a Pillow ``L`` mask, kept by the fonts:
    :class:`~bot.render.common.KeptFont`) drawn with ``ink`` over ``colour``: the same
    pixels as drawing it there, kept (:data:`_texts`)."""
    key = (id(bitmap), ink, colour, id(palette))
    entry = _texts.get(key)
    if entry is None or entry[0] is not bitmap or entry[1] is not palette:
        img = Image.new("RGB", bitmap.size, colour)
        ImageDraw.Draw(img).draw.draw_bitmap((0, 0), bitmap, ink)
        with _lock:
            if len(_texts) >= TEXTS_KEPT:
                _texts.clear()
            entry = _texts[key] = (bitmap, palette, img.im, _map(img, palette).im)
    return entry[2], entry[3]


def _cross(see: Image.Image) -> tuple[list[Box], list[Box]] | None:
    """For a piece opaque but in its corners (a rounded card): its opaque cross (the rows
    and the columns with every pixel clear in ``see``) and its four corners (trimmed to
    the set pixels of ``see``); ``None`` for another shape."""
    w, h = see.size
    across, down = see.getprojection()  # per column, per row: 1 where any pixel is set
    rows = [not v for v in down]
    cols = [not v for v in across]
    if True not in rows or True not in cols:
        return None
    y0, y1 = rows.index(True), h - rows[::-1].index(True)
    x0, x1 = cols.index(True), w - cols[::-1].index(True)
    if not all(rows[y0:y1]) or not all(cols[x0:x1]):
        return None
    holes: list[Box] = []
    for box in ((0, 0, x0, y0), (x1, 0, w, y0), (0, y1, x0, h), (x1, y1, w, h)):
        bbox = see.crop(box).getbbox() if box[0] < box[2] and box[1] < box[3] else None
        if bbox is not None:
            holes.append((box[0] + bbox[0], box[1] + bbox[1], box[0] + bbox[2],
                          box[1] + bbox[3]))
    return [(0, y0, w, y1), (x0, 0, x1, h)], holes


def _solid(see: Image.Image, box: Box) -> Iterable[Box]:
    """Boxes of pixels all clear in ``see`` inside ``box`` (none smaller than two cells
    each way: smaller ones may hold no whole cell), split in halves until clear."""
    x0, y0, x1, y1 = box
    if x1 - x0 < 2 * CELL or y1 - y0 < 2 * CELL:
        return
    if see.crop(box).getbbox() is None:
        yield box
    elif x1 - x0 >= y1 - y0:
        mid = (x0 + x1) // 2
        yield from _solid(see, (x0, y0, mid, y1))
        yield from _solid(see, (mid, y0, x1, y1))
    else:
        mid = (y0 + y1) // 2
        yield from _solid(see, (x0, y0, x1, mid))
        yield from _solid(see, (x0, mid, x1, y1))


def _boxes(mask: Image.Image, box: Box) -> Iterable[Box]:
    """Boxes covering the set pixels of ``mask`` inside ``box``, split in halves until each
    is small or at least half set."""
    bbox = mask.crop(box).getbbox()
    if bbox is None:
        return
    x0, y0 = box[0] + bbox[0], box[1] + bbox[1]
    x1, y1 = box[0] + bbox[2], box[1] + bbox[3]
    area = (x1 - x0) * (y1 - y0)
    set_px = area - mask.crop((x0, y0, x1, y1)).histogram()[0]
    if area <= 4 * CELL * CELL or 2 * set_px >= area:
        yield (x0, y0, x1, y1)
    elif x1 - x0 >= y1 - y0:
        mid = (x0 + x1) // 2
        yield from _boxes(mask, (x0, y0, mid, y1))
        yield from _boxes(mask, (mid, y0, x1, y1))
    else:
        mid = (y0 + y1) // 2
        yield from _boxes(mask, (x0, y0, x1, mid))
        yield from _boxes(mask, (x0, mid, x1, y1))


def mapping_of(img: Image.Image) -> Mapping | None:
    """The :class:`Mapping` following ``img`` (not a copy of it), or ``None``."""
    m = img.info.get(KEY)
    return m if isinstance(m, Mapping) and m.core is img.im else None


def copy_of(piece: Image.Image, palette: Image.Image) -> Image.Image:
    """A copy of the cached RGB ``piece`` (a background) to draw on, followed by a
    :class:`Mapping` onto ``palette`` (its mapped copy is made once per piece and kept as
    long as the piece). Raises ValueError for another mode or a piece not cached (one
    made by ``@sprite``): its mapped copy would be kept for nothing."""
    if piece.mode != "RGB":
        raise ValueError(f"copy_of takes an RGB background, not {piece.mode}")
    if piece.info.get(CACHED) != id(piece):
        raise ValueError("copy_of takes a cached background (made by @sprite)")
    img = piece.copy()
    entry = _mapped_piece(piece, palette, False)
    assert entry is not None
    img.info[KEY] = Mapping(img, entry[2].copy(), palette)
    return img


def blank(size: tuple[int, int], colour: RGB, palette: Image.Image) -> Image.Image:
    """A new RGB picture of ``size`` filled with ``colour``, followed by a
    :class:`Mapping` onto ``palette``."""
    img = Image.new("RGB", size, colour)
    p = Image.new("P", size, colour_index(colour, palette))
    p.putpalette(palette.getpalette() or [])
    img.info[KEY] = Mapping(img, p, palette)
    return img


def colour_index(colour: RGB, palette: Image.Image) -> int:
    """The index of ``colour`` mapped onto ``palette`` (kept per palette)."""
    inks = _inks(palette)
    key = colour[0] | colour[1] << 8 | colour[2] << 16  # no ink has alpha 0
    index = inks.get(key)
    if index is None:
        dot = _map(Image.new("RGB", (1, 1), colour), palette)
        index = inks[key] = dot.getpixel((0, 0))  # type: ignore[assignment]
    return index  # type: ignore[return-value]


def mapped(img: Image.Image, palette: Image.Image) -> Image.Image:
    """``img`` mapped onto ``palette`` (a ``P`` picture), the same pixels as
    ``img.quantize(palette=palette, dither=Image.Dither.NONE)``: through its
    :class:`Mapping` when it has one onto ``palette`` (which it leaves), else whole."""
    m = mapping_of(img)
    if m is None or m.palette is not palette:
        return _map(img, palette)
    del img.info[KEY]
    return m.finish(img)


class MarkingDraw:
    """Stands in for an ``ImageDraw``'s core drawing object on a picture with a
    :class:`Mapping`. Pillow draws shapes without anti-aliasing (every pixel covered gets
    the ink), so a shape is drawn the same on the palette copy with the ink's palette
    index; text (a blended bitmap) is drawn on the picture only and its box marked. A
    call it does not know marks everything."""

    def __init__(self, draw: Any, mapping: Mapping) -> None:
        self._draw = draw
        self._m = mapping
        self._p = mapping.pdraw
        self._index = mapping.index

    def draw_ink(self, *args: Any) -> Any:
        return self._draw.draw_ink(*args)

    def draw_bitmap(self, xy: Any, bitmap: Any, ink: Any) -> Any:
        x, y = xy
        w, h = bitmap.size
        m = self._m
        if 0 <= x and 0 <= y and x + w <= m.size[0] and y + h <= m.size[1] and w and h:
            box = (x, y, x + w, y + h)
            beneath = m.core.crop(box).getcolors(1)
            if beneath:  # over one colour: the text as drawn there, pasted on both copies
                rgb, p = _text_over(bitmap, ink, beneath[0][1], m.palette)
                m.core.paste(rgb, box)
                m.p.im.paste(p, box)
                return None
        m.boxes.append((x, y, x + w, y + h, 255))
        return self._draw.draw_bitmap(xy, bitmap, ink)

    # (xy, ink, fill[, width[, mask]]) and (xy, ink[, width])
    def draw_rectangle(self, xy: Any, ink: int, *args: Any) -> Any:
        self._p.draw_rectangle(xy, self._index(ink), *args)
        return self._draw.draw_rectangle(xy, ink, *args)

    def draw_ellipse(self, xy: Any, ink: int, *args: Any) -> Any:
        self._p.draw_ellipse(xy, self._index(ink), *args)
        return self._draw.draw_ellipse(xy, ink, *args)

    def draw_polygon(self, xy: Any, ink: int, *args: Any) -> Any:
        self._p.draw_polygon(xy, self._index(ink), *args)
        return self._draw.draw_polygon(xy, ink, *args)

    def draw_lines(self, xy: Any, ink: int, *args: Any) -> Any:
        self._p.draw_lines(xy, self._index(ink), *args)
        return self._draw.draw_lines(xy, ink, *args)

    def draw_points(self, xy: Any, ink: int, *args: Any) -> Any:
        self._p.draw_points(xy, self._index(ink), *args)
        return self._draw.draw_points(xy, ink, *args)

    # (xy, start, end, ink[, fill], width)
    def draw_arc(self, xy: Any, start: Any, end: Any, ink: int, *args: Any) -> Any:
        self._p.draw_arc(xy, start, end, self._index(ink), *args)
        return self._draw.draw_arc(xy, start, end, ink, *args)

    def draw_chord(self, xy: Any, start: Any, end: Any, ink: int, *args: Any) -> Any:
        self._p.draw_chord(xy, start, end, self._index(ink), *args)
        return self._draw.draw_chord(xy, start, end, ink, *args)

    def draw_pieslice(self, xy: Any, start: Any, end: Any, ink: int, *args: Any) -> Any:
        self._p.draw_pieslice(xy, start, end, self._index(ink), *args)
        return self._draw.draw_pieslice(xy, start, end, ink, *args)

    def draw_outline(self, shape: Any, ink: int, *args: Any) -> Any:
        self._p.draw_outline(shape, self._index(ink), *args)
        return self._draw.draw_outline(shape, ink, *args)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._draw, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            self._m.mark_all()
            return attr(*args, **kwargs)

        return call
