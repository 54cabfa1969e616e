"""Alpaca Pacapaca pictures: every alpaca as one drawing, side by side (Pillow shapes only).

- :func:`render_table` draws the table of a running (or finished) game from a view.
- :func:`render_final` draws the end: removed parts crossed out and a score table.

Each alpaca stands on a common ground line (so neck lengths compare at a glance): body at
the bottom, the neck cards as segments above it, the head on top, babies at the parent's
feet. Neck cards are grouped so illustrations read as wholes: complete bows first, then
each complete scarf as one continuous striped band, charms, plain neck, mud, and at the
bottom the incomplete parts, faded with a dashed outline (crossed out at game end).
Colour is always paired with a shape: stripes = scarf, loops = bow, bell / heart / star /
leaf = the four charms, blotches = mud.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from bot.games.pacapaca.cards import catalog, kind_table
from bot.games.pacapaca.models import AlpacaView, PacapacaView
from bot.games.pacapaca.scoring import analyse
from bot.render.common import Draw, Picture, measuring, min_font
from bot.render.common import font as common_font

RGB = tuple[int, int, int]

BG: RGB = (251, 246, 234)
INK: RGB = (52, 40, 34)
SOFT_INK: RGB = (110, 95, 84)
GROUND: RGB = (176, 211, 128)
GROUND_DARK: RGB = (136, 176, 92)
ACTIVE_BG: RGB = (255, 233, 160)
PARTNER_BG: RGB = (200, 226, 250)
RED: RGB = (206, 46, 46)
MUD: RGB = (112, 78, 46)
MUD_DARK: RGB = (80, 54, 30)
BOW: RGB = (232, 74, 138)
BOW_DARK: RGB = (160, 36, 90)
SCARF_COLOURS: list[tuple[RGB, RGB]] = [
    ((213, 62, 58), (250, 238, 222)),
    ((52, 104, 196), (242, 232, 150)),
    ((46, 150, 100), (250, 238, 222)),
    ((140, 80, 170), (252, 214, 120)),
]
CHARM = {
    "pendant_bell": (226, 172, 40),
    "pendant_heart": (220, 60, 90),
    "pendant_star": (250, 208, 40),
    "pendant_leaf": (70, 160, 70),
}

WIDTH = 1000
#: The smallest text size (14 px when the picture is shown 500 px wide on a phone).
TEXT = min_font(WIDTH)
#: Table height per player count (fixed: the picture never changes size in a game).
HEIGHTS = {2: 880, 3: 880, 4: 960, 5: 1290, 6: 1290}
MARGIN = 16
HEADER_H = 64
NAME_H = 84
LEGEND_H = 100
ROW_H = 46


# -- small helpers ----------------------------------------------------------------------


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans at ``size`` px (``bot.render.common.font``)."""
    return common_font(size, bold)


def _hex(colour: str) -> RGB:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def _fade(c: RGB, amount: float = 0.6, to: RGB = BG) -> RGB:
    return tuple(int(a + (b - a) * amount) for a, b in zip(c, to, strict=True))  # type: ignore[return-value]


def _dark(c: RGB, f: float = 0.7) -> RGB:
    return tuple(int(v * f) for v in c)  # type: ignore[return-value]


def _dashed_rect(d: ImageDraw.ImageDraw, box, colour: RGB, dash: int = 6, width: int = 2) -> None:
    x0, y0, x1, y1 = (int(v) for v in box)
    for x in range(x0, x1, dash * 2):
        d.line([(x, y0), (min(x + dash, x1), y0)], fill=colour, width=width)
        d.line([(x, y1), (min(x + dash, x1), y1)], fill=colour, width=width)
    for y in range(y0, y1, dash * 2):
        d.line([(x0, y), (x0, min(y + dash, y1))], fill=colour, width=width)
        d.line([(x1, y), (x1, min(y + dash, y1))], fill=colour, width=width)


def _fit(d: ImageDraw.ImageDraw, text: str, fnt, width: int) -> str:
    if d.textlength(text, font=fnt) <= width:
        return text
    while text and d.textlength(text + "…", font=fnt) > width:
        text = text[:-1]
    return text + "…"


@cache
def _palette() -> Image.Image:
    """A fixed 256-colour palette holding every flat colour the drawings use (with their
    shaded and faded variants) and ramps for antialiased text over each background."""
    cat = catalog()
    base: list[RGB] = [
        BG,
        INK,
        SOFT_INK,
        GROUND,
        GROUND_DARK,
        ACTIVE_BG,
        PARTNER_BG,
        RED,
        MUD,
        MUD_DARK,
        BOW,
        BOW_DARK,
        (255, 255, 255),
        (240, 180, 170),
        (247, 160, 160),
        (244, 236, 216),
        (120, 88, 160),
        (52, 104, 196),
    ]
    base += [c for pair in SCARF_COLOURS for c in pair] + list(CHARM.values())
    cols: list[RGB] = []
    for c in base:
        cols += [c, _fade(c), _dark(c, 0.55), _dark(c, 0.7)]
    for d in [*cat.heads, *cat.bodies]:
        c = _hex(d.colour)
        cols += [c, _dark(c, 0.5), _dark(c, 0.62), _dark(c, 0.72), _dark(c, 0.8)]
        cols += [_fade(c, f, (255, 255, 255)) for f in (0.25, 0.3, 0.35, 0.45)]
    fgs = [INK, SOFT_INK, RED, BOW, (52, 104, 196)]
    bgs = [BG, ACTIVE_BG, PARTNER_BG, GROUND, (244, 236, 216), (255, 255, 255)]
    for fg in fgs:
        for bg in bgs:
            cols += [_fade(fg, f, bg) for f in (0.25, 0.5, 0.75)]
    uniq = list(dict.fromkeys(cols))[:256]  # 255 colours today
    flat = [v for c in uniq for v in c]
    flat += flat[:3] * (256 - len(uniq))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def _png(img: Image.Image) -> bytes:
    # Mapped onto a fixed palette, the picture encodes several times faster than RGB (no
    # per-row filter search) and is half the size; the drawing uses flat colours.
    pal = img.quantize(palette=_palette(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


# -- neck layout ------------------------------------------------------------------------

# A segment: (card id, role, group index, state) where role is the kind key, group index
# identifies the scarf/bow it belongs to and state is "ok", "loose" or "removed".
Segment = tuple[int, str, int, str]


def neck_segments(neck: list[int], *, final: bool = False) -> list[Segment]:
    """The neck cards top to bottom, grouped for drawing (see the module docstring).

    ``final=True`` marks incomplete parts ``"removed"`` instead of ``"loose"``."""
    kt = kind_table()
    a = analyse(neck)
    bad = "removed" if final else "loose"
    segs: list[Segment] = []
    for i, (left, right) in enumerate(a.ribbons):
        segs += [(left, "ribbon_left", i, "ok"), (right, "ribbon_right", i, "ok")]
    for i, scarf in enumerate(a.scarves):
        segs += [(c, kt[c], i, "ok") for c in scarf]
    for c in sorted(a.pendants, key=lambda x: (kt[x], x)):
        segs.append((c, kt[c], 0, "ok"))
    segs += [(c, "neck", 0, "ok") for c in sorted(a.plain)]
    segs += [(c, "mud", 0, "ok") for c in sorted(a.mud)]
    order = ["scarf_top", "scarf_middle", "scarf_bottom", "ribbon_left", "ribbon_right"]
    for kind in order:
        segs += [(c, kind, -1, bad) for c in a.loose.get(kind, [])]
    return segs


# -- drawing one alpaca -----------------------------------------------------------------


class _Painter:
    """Draws alpacas on one image; ``k`` scales shapes, ``seg`` is a segment's height."""

    def __init__(self, img: Image.Image, k: float, seg: int) -> None:
        self.img = img
        self.d = Draw(img)
        self.k = k
        self.seg = seg

    # neck ---------------------------------------------------------------------------

    def neck(self, cx: int, y_bottom: int, segs: list[Segment], fur: RGB) -> int:
        """Draw the neck with its segments upward from ``y_bottom``; returns its top y."""
        d, k, h = self.d, self.k, self.seg
        nw = int(30 * k)
        n = len(segs)
        top = y_bottom - max(n * h, int(18 * k))
        d.rounded_rectangle(
            (cx - nw, top - 10, cx + nw, y_bottom + 12),
            radius=int(14 * k),
            fill=fur,
            outline=_dark(fur, 0.72),
            width=2,
        )
        for i, seg in enumerate(segs):
            y0 = top + i * h
            self.segment(cx, nw, y0, h, seg, segs, i, fur)
        for i in range(1, n):
            y = top + i * h
            d.line([(cx - nw + 3, y), (cx - nw + 9, y)], fill=_dark(fur, 0.78), width=1)
            d.line([(cx + nw - 9, y), (cx + nw - 3, y)], fill=_dark(fur, 0.78), width=1)
        return top

    def segment(self, cx, nw, y0, h, seg: Segment, segs, i, fur: RGB) -> None:
        card, role, group, state = seg
        d = self.d
        faded = state != "ok"
        box = (cx - nw - 6, y0 + 1, cx + nw + 6, y0 + h - 1)
        if role == "neck":
            tuft = _dark(fur, 0.8)
            for j in (-1, 1):
                x = cx + j * nw // 3
                d.arc(
                    (x - 6, y0 + h // 2 - 4, x + 6, y0 + h // 2 + 6), 200, 340, fill=tuft, width=2
                )
        elif role.startswith("scarf"):
            self.scarf(cx, nw, y0, h, role, group, faded, segs, i)
        elif role.startswith("ribbon"):
            self.bow(cx, nw, y0, h, role, faded, segs, i)
        elif role.startswith("pendant"):
            self.charm(cx, nw, y0, h, role)
        elif role == "mud":
            self.mud(cx, nw, y0, h, card)
        if faded:
            _dashed_rect(d, box, SOFT_INK)
            if state == "removed":
                d.line([(box[0], box[1]), (box[2], box[3])], fill=RED, width=4)
                d.line([(box[0], box[3]), (box[2], box[1])], fill=RED, width=4)
            else:
                r = max(8, min(12, h // 2))
                qx = box[2] + r + 2 if role == "ribbon_left" else box[0] - r - 2
                qy = y0 + h // 2
                d.ellipse(
                    (qx - r, qy - r, qx + r, qy + r),
                    fill=(255, 255, 255),
                    outline=SOFT_INK,
                    width=2,
                )
                for dx in (-r // 2, 0, r // 2):  # "waiting for its other half"
                    d.ellipse((qx + dx - 2, qy - 2, qx + dx + 2, qy + 2), fill=INK)

    def scarf(self, cx, nw, y0, h, role, group, faded, segs, i) -> None:
        d, k = self.d, self.k
        main, stripe = SCARF_COLOURS[group % len(SCARF_COLOURS)] if group >= 0 else SCARF_COLOURS[0]
        if faded:
            main, stripe = _fade(main), _fade(stripe)
        w = nw + int(8 * k)
        y1 = y0 + h
        top_pad = int(3 * k) if role == "scarf_top" else 0
        bot_pad = int(3 * k) if role == "scarf_bottom" else 0
        d.rounded_rectangle(
            (cx - w, y0 + top_pad, cx + w, y1 - bot_pad),
            radius=int(6 * k) if (top_pad or bot_pad) else 0,
            fill=main,
        )
        # stripes: the shape that says "scarf"
        bands = 3
        bh = max(2, h // (bands * 2))
        for b in range(bands):
            yy = y0 + top_pad + int((b + 0.5) * (h - top_pad - bot_pad) / bands) - bh // 2
            d.rectangle((cx - w + 2, yy, cx + w - 2, yy + bh), fill=stripe)
        outline = _dark(main, 0.7)
        d.line([(cx - w, y0 + top_pad), (cx - w, y1 - bot_pad)], fill=outline, width=2)
        d.line([(cx + w, y0 + top_pad), (cx + w, y1 - bot_pad)], fill=outline, width=2)
        if role == "scarf_top":
            d.line([(cx - w + 4, y0 + top_pad), (cx + w - 4, y0 + top_pad)], fill=outline, width=2)
        if role == "scarf_bottom":
            d.line([(cx - w + 4, y1 - bot_pad), (cx + w - 4, y1 - bot_pad)], fill=outline, width=2)
            # the hanging tail with a fringe
            tx = cx + w - int(4 * k)
            tail_h = int(max(h, 22 * k))
            d.polygon(
                [
                    (tx - int(14 * k), y1 - bot_pad - 2),
                    (tx + int(4 * k), y1 - bot_pad - 2),
                    (tx + int(10 * k), y1 + tail_h),
                    (tx - int(6 * k), y1 + tail_h),
                ],
                fill=main,
                outline=outline,
            )
            for f in range(4):
                fx = tx - int(5 * k) + f * int(4 * k)
                d.line(
                    [(fx, y1 + tail_h), (fx + 1, y1 + tail_h + int(7 * k))], fill=outline, width=2
                )

    def bow(self, cx, nw, y0, h, role, faded, segs, i, alone: bool = False) -> None:
        d, k = self.d, self.k
        colour, dark = (BOW, BOW_DARK) if not faded else (_fade(BOW), _fade(BOW_DARK))
        # a complete bow sits on the boundary of its two segments
        yc = y0 + h // 2
        paired = not faded and not alone
        knot_y = (y0 + h if role == "ribbon_left" else y0) if paired else yc
        band_h = max(6, h // 3)
        d.rectangle(
            (cx - nw - 2, knot_y - band_h // 2, cx + nw + 2, knot_y + band_h // 2), fill=colour
        )
        loop_w = int(34 * k)
        loop_h = max(int(h * 0.9), int(22 * k))
        side = -1 if role == "ribbon_left" else 1
        x_in = cx + side * int(8 * k)
        x_out = cx + side * (nw + loop_w)
        pts = [(x_in, knot_y), (x_out, knot_y - loop_h // 2), (x_out, knot_y + loop_h // 2)]
        d.polygon(pts, fill=colour, outline=dark)
        d.line([(x_in, knot_y), (x_out - side * int(10 * k), knot_y)], fill=dark, width=1)
        # ribbon tails
        tail_y = knot_y + loop_h // 2 + int(8 * k)
        d.line(
            [(x_in, knot_y), (x_in + side * int(16 * k), tail_y)],
            fill=dark,
            width=max(3, int(4 * k)),
        )
        r = int(7 * k)
        if paired:
            if True:
                d.ellipse(
                    (cx - r, knot_y - r, cx + r, knot_y + r), fill=colour, outline=dark, width=2
                )
        else:
            d.pieslice(
                (cx - r, knot_y - r, cx + r, knot_y + r),
                90 if side < 0 else 270,
                270 if side < 0 else 90,
                fill=colour,
                outline=dark,
            )

    def charm(self, cx, nw, y0, h, role) -> None:
        d, k = self.d, self.k
        cord_y = y0 + max(3, h // 5)
        d.arc((cx - nw, cord_y - h // 3, cx + nw, cord_y + h // 3), 20, 160, fill=INK, width=2)
        size = max(7, min(int(h * 0.42), int(13 * k)))
        x, y = cx, cord_y + h // 3 + size // 2
        col = CHARM[role]
        edge = _dark(col, 0.55)
        if role == "pendant_bell":
            d.polygon(
                [
                    (x - size * 0.55, y + size * 0.7),
                    (x + size * 0.55, y + size * 0.7),
                    (x + size * 0.35, y - size * 0.4),
                    (x - size * 0.35, y - size * 0.4),
                ],
                fill=col,
                outline=edge,
            )
            d.pieslice(
                (x - size * 0.36, y - size * 0.85, x + size * 0.36, y - size * 0.05),
                180,
                360,
                fill=col,
                outline=edge,
            )
            d.ellipse((x - 3, y + size * 0.6, x + 3, y + size * 0.6 + 6), fill=edge)
        elif role == "pendant_heart":
            r = size * 0.45
            d.ellipse((x - 2 * r, y - r * 1.3, x, y + r * 0.6), fill=col, outline=edge)
            d.ellipse((x, y - r * 1.3, x + 2 * r, y + r * 0.6), fill=col, outline=edge)
            d.polygon([(x - 1.9 * r, y), (x + 1.9 * r, y), (x, y + size)], fill=col)
            d.line([(x - 1.9 * r, y), (x, y + size), (x + 1.9 * r, y)], fill=edge, width=1)
        elif role == "pendant_star":
            pts = []
            for j in range(10):
                ang = -math.pi / 2 + j * math.pi / 5
                rad = size if j % 2 == 0 else size * 0.45
                pts.append((x + rad * math.cos(ang), y + rad * math.sin(ang)))
            d.polygon(pts, fill=col, outline=edge)
        else:  # leaf
            d.ellipse(
                (x - size * 0.5, y - size * 0.95, x + size * 0.5, y + size * 0.95),
                fill=col,
                outline=edge,
            )
            d.line([(x, y - size * 0.9), (x, y + size * 1.15)], fill=edge, width=2)
        d.line([(x, cord_y + h // 3 - 2), (x, y - size * 0.6)], fill=INK, width=1)

    def mud(self, cx, nw, y0, h, card) -> None:
        d = self.d
        spots = [(-0.45, 0.35, 0.42), (0.3, 0.6, 0.5), (0.05, 0.25, 0.3)]
        shift = (card % 3) * 0.12
        for fx, fy, fr in spots:
            r = max(3, int(min(h, 30) * fr * 0.55))
            x = int(cx + (fx + shift) * nw)
            y = int(y0 + fy * h)
            d.ellipse((x - r * 1.4, y - r, x + r * 1.4, y + r), fill=MUD, outline=MUD_DARK)
        d.line([(cx + nw // 3, y0 + h // 2), (cx + nw // 3, y0 + h - 2)], fill=MUD, width=3)

    # head, body, babies ---------------------------------------------------------------

    def head(self, cx: int, neck_top: int, design: int, colour: RGB) -> None:
        d, k = self.d, self.k
        edge = _dark(colour, 0.62)
        hw, hh = int(44 * k), int(34 * k)
        hx, hy = cx + int(10 * k), neck_top - hh + int(6 * k)
        style = design % 6
        ear_h = int((30 if style == 5 else 22) * k)
        for ex in (hx - int(24 * k), hx + int(2 * k)):
            d.polygon(
                [
                    (ex, hy - hh + 8),
                    (ex + int(12 * k), hy - hh - ear_h),
                    (ex + int(22 * k), hy - hh + 6),
                ],
                fill=colour,
                outline=edge,
            )
            d.polygon(
                [
                    (ex + int(6 * k), hy - hh + 4),
                    (ex + int(12 * k), hy - hh - ear_h + int(10 * k)),
                    (ex + int(17 * k), hy - hh + 4),
                ],
                fill=(240, 180, 170),
            )
        d.ellipse((hx - hw, hy - hh, hx + hw, hy + hh), fill=colour, outline=edge, width=2)
        # snout
        sx = hx + int(30 * k)
        d.ellipse(
            (sx - int(22 * k), hy - int(6 * k), sx + int(20 * k), hy + int(26 * k)),
            fill=_fade(colour, 0.45, (255, 255, 255)),
            outline=edge,
            width=2,
        )
        d.ellipse((sx + int(8 * k), hy + int(2 * k), sx + int(13 * k), hy + int(8 * k)), fill=INK)
        # mouth
        if style == 3:
            d.arc(
                (sx - int(12 * k), hy + int(2 * k), sx + int(12 * k), hy + int(22 * k)),
                20,
                160,
                fill=INK,
                width=3,
            )
        else:
            d.arc(
                (sx - int(6 * k), hy + int(8 * k), sx + int(8 * k), hy + int(20 * k)),
                30,
                150,
                fill=INK,
                width=2,
            )
        # eye
        ex, ey = hx + int(6 * k), hy - int(6 * k)
        if style == 1:
            d.arc(
                (ex - int(7 * k), ey - int(5 * k), ex + int(7 * k), ey + int(5 * k)),
                0,
                180,
                fill=INK,
                width=3,
            )
        else:
            r = int(6 * k)
            d.ellipse((ex - r, ey - r, ex + r, ey + r), fill=INK)
            d.ellipse((ex - r // 3, ey - r + 1, ex + r // 3 + 1, ey - r // 3), fill=(255, 255, 255))
        if style in (4, 3):
            d.ellipse(
                (hx - int(6 * k), hy + int(4 * k), hx + int(10 * k), hy + int(14 * k)),
                fill=(247, 160, 160),
            )
        # fluffy fringe
        fluff = _fade(colour, 0.35, (255, 255, 255)) if style != 2 else _dark(colour, 0.85)
        count = 5 if style in (0, 2) else 3
        for j in range(count):
            fx = hx - int(26 * k) + j * int(11 * k)
            r = int((9 if style in (0, 2) else 8) * k)
            d.ellipse((fx - r, hy - hh - r + 4, fx + r, hy - hh + r + 4), fill=fluff, outline=edge)

    def body(self, cx: int, ground: int, colour: RGB) -> None:
        d, k = self.d, self.k
        edge = _dark(colour, 0.62)
        bx0, bx1 = cx - int(120 * k), cx + int(36 * k)
        by0, by1 = ground - int(118 * k), ground - int(40 * k)
        for lx in (bx0 + int(18 * k), bx0 + int(44 * k), bx1 - int(50 * k), bx1 - int(24 * k)):
            d.rounded_rectangle(
                (lx, by1 - int(16 * k), lx + int(15 * k), ground),
                radius=int(6 * k),
                fill=colour,
                outline=edge,
                width=2,
            )
            d.rectangle(
                (lx + 1, ground - int(6 * k), lx + int(14 * k), ground), fill=_dark(colour, 0.5)
            )
        d.ellipse(
            (bx0 - int(14 * k), by0 + int(8 * k), bx0 + int(18 * k), by0 + int(40 * k)),
            fill=colour,
            outline=edge,
            width=2,
        )  # tail
        d.ellipse((bx0, by0, bx1, by1), fill=colour, outline=edge, width=2)
        fluff = _fade(colour, 0.3, (255, 255, 255))
        for j in range(5):
            fx = bx0 + int(26 * k) + j * int(22 * k)
            d.arc(
                (fx - int(10 * k), by0 + int(20 * k), fx + int(10 * k), by0 + int(38 * k)),
                200,
                340,
                fill=_dark(fluff, 0.85),
                width=2,
            )

    def baby(self, x: int, ground: int, male: bool, happy: bool, colour: RGB) -> None:
        d, k = self.d, self.k
        s = 0.56 * k
        edge = _dark(colour, 0.6)
        w = int(62 * s)
        # legs and body
        for lx in (x - w + int(10 * s), x + w - int(22 * s)):
            d.rectangle(
                (lx, ground - int(40 * s), lx + int(12 * s), ground), fill=colour, outline=edge
            )
        d.ellipse(
            (x - w, ground - int(90 * s), x + w, ground - int(30 * s)),
            fill=colour,
            outline=edge,
            width=2,
        )
        # neck and head
        nx = x + w - int(18 * s)
        d.rectangle(
            (nx - int(12 * s), ground - int(150 * s), nx + int(12 * s), ground - int(70 * s)),
            fill=colour,
            outline=edge,
        )
        hx, hy = nx + int(8 * s), ground - int(160 * s)
        d.ellipse(
            (hx - int(26 * s), hy - int(22 * s), hx + int(28 * s), hy + int(22 * s)),
            fill=colour,
            outline=edge,
            width=2,
        )
        d.ellipse((hx + int(4 * s), hy - int(8 * s), hx + int(14 * s), hy + int(2 * s)), fill=INK)
        mark_col = (52, 104, 196) if male else BOW
        if not happy:
            mark_col = _fade(mark_col, 0.45)
        sym = "♂" if male else "♀"
        fnt = _font(TEXT, True)
        bx, by, r = x - int(6 * s), ground - int(60 * s), TEXT // 2 + 3
        d.ellipse((bx - r, by - r, bx + r, by + r), fill=(255, 255, 255), outline=mark_col, width=2)
        d.text((bx, by + 1), sym, font=fnt, fill=mark_col, anchor="mm")


# -- whole images -----------------------------------------------------------------------


def layout(n: int) -> tuple[int, int, int]:
    """(width, height, alpacas per row) of the table for ``n`` players: fixed per player
    count (1000 px wide; one row of alpacas up to 4 players, two rows of 3 for 5-6)."""
    per_row = n if n <= 4 else 3
    return WIDTH, HEIGHTS.get(n, HEIGHTS[6]), per_row


def _row_geometry(n: int, per_row: int, rows: int, area_h: int, final: bool
                  ) -> tuple[int, float, int, int]:
    """(column width, shape scale k, neck area height, row height) for alpacas in ``rows``
    rows sharing ``area_h`` px."""
    col = (WIDTH - 2 * MARGIN) // per_row
    k = max(0.85, min(1.35, col / 230))
    if rows > 1:
        k = 0.85 if final else 1.0
    row_h = area_h // rows
    fixed = int(90 * k) + int(92 * k) + NAME_H + 12
    return col, k, max(40, row_h - fixed), row_h


def _names(view: PacapacaView, names: Mapping[str, str] | None) -> dict[str, str]:
    return {s: (names or {}).get(s, s) for s in view.seats}


def _header(d: ImageDraw.ImageDraw, view: PacapacaView, width: int) -> None:
    big, mid = _font(34, True), _font(TEXT)
    d.text((MARGIN, HEADER_H // 2), "Alpaca Pacapaca", font=big, fill=INK, anchor="lm")
    info = f"Deck {view.deck_size}   Pile {view.pile_size}"
    if view.final is not None:
        info = "Final scores"
    elif view.final_round:
        info = f"Deck {view.deck_size} · last turns: {view.final_turns_left}"
    tw = d.textlength(info, font=mid)
    x = width - MARGIN - tw
    d.text((x, HEADER_H // 2), info, font=mid, fill=INK, anchor="lm")
    if view.final is None:
        # little card backs next to the counts
        for j in range(3):
            d.rounded_rectangle(
                (x - 40 + j * 4, 16 + j * 3, x - 18 + j * 4, 46 + j * 3),
                radius=4,
                fill=(120, 88, 160),
                outline=(255, 255, 255),
                width=2,
            )


def _draw_alpacas(
    img: Image.Image, view: PacapacaView, alpacas: Sequence[AlpacaView],
    label: Mapping[str, str], *, final: bool, top: int, area_h: int, per_row: int,
) -> None:
    """Draw ``alpacas`` in rows of ``per_row`` between ``top`` and ``top + area_h``."""
    cat = catalog()
    colours = {d.id: _hex(d.colour) for d in [*cat.heads, *cat.bodies]}
    segs = {a.seat: neck_segments(a.neck, final=final) for a in alpacas}
    max_len = max((len(x) for x in segs.values()), default=0)
    rows = -(-len(alpacas) // per_row)
    col, k, neck_area, row_h = _row_geometry(len(alpacas), per_row, rows, area_h, final)
    seg = max(6, min(int(40 * k), neck_area // max(1, max_len)))
    p = _Painter(img, k, seg)
    d = p.d
    width = img.width
    name_font, small = _font(30, True), _font(TEXT)
    neg = view.negotiation
    for r in range(rows):
        ground = top + (r + 1) * row_h - NAME_H
        d.rectangle((0, ground, width, ground + 8), fill=GROUND_DARK)
        d.rectangle((0, ground + 8, width, ground + NAME_H - 4), fill=GROUND)
    for i, a in enumerate(alpacas):
        r, c = divmod(i, per_row)
        in_row = min(per_row, len(alpacas) - r * per_row)
        x0 = MARGIN + c * col + (per_row - in_row) * col // 2
        ground = top + (r + 1) * row_h - NAME_H
        cx = x0 + int(col * 0.6)
        tint = None
        if view.final is None and a.seat == view.active:
            tint = ACTIVE_BG
        elif neg is not None and a.seat == neg.partner:
            tint = PARTNER_BG
        if view.final is not None and a.seat in view.final.winners:
            tint = ACTIVE_BG
        if tint:
            d.rounded_rectangle(
                (x0 + 4, top + r * row_h + 4, x0 + col - 4, ground + NAME_H - 8), radius=18,
                fill=tint,
            )
        body_col, head_col = (
            colours.get(a.body, (230, 210, 180)),
            colours.get(a.head, (230, 210, 180)),
        )
        body_top = ground - int(92 * k)
        p.body(cx, ground, body_col)
        neck_top = p.neck(cx, body_top, segs[a.seat], body_col)
        p.head(cx, neck_top, a.head, head_col)
        _babies(p, a, x0, cx, ground, body_col, k)
        # name plate
        mark = ""
        if view.final is not None and a.seat in view.final.winners:
            mark = "★ "
        elif a.seat == view.active:
            mark = "▶ "
        elif neg is not None and a.seat == neg.partner:
            mark = "⇄ "
        nm = _fit(d, mark + label.get(a.seat, a.seat), name_font, col - 16)
        d.text((x0 + col // 2, ground + 26), nm, font=name_font, fill=INK, anchor="mm")
        sub = f"neck {len(a.neck)}"
        if a.babies:
            sub += f" · {len(a.babies)} bab" + ("y" if len(a.babies) == 1 else "ies")
        if view.final is not None:
            fa = next(f for f in view.final.alpacas if f.seat == a.seat)
            sub = f"{fa.total} points"
        d.text(
            (x0 + col // 2, ground + 60),
            _fit(d, sub, small, col - 16),
            font=small,
            fill=INK if view.final is not None else SOFT_INK,
            anchor="mm",
        )


def _babies(
    p: _Painter, a: AlpacaView, x0: int, cx: int, ground: int, colour: RGB, k: float
) -> None:
    if not a.babies:
        return
    kt = kind_table()
    an = analyse(a.neck, a.babies)
    step = int(46 * k)
    start = cx - int(86 * k)
    for j, b in enumerate(a.babies):
        male = kt[b] == "baby_male"
        happy = bool(an.scarves) if male else bool(an.ribbons)
        bx = start + j * step
        p.baby(bx, ground, male, happy, _fade(colour, 0.25, (255, 255, 255)))


def _legend(d: ImageDraw.ImageDraw, p: _Painter, y: int, width: int) -> None:
    fnt = _font(TEXT)
    items = [
        ("scarf", "scarf"),
        ("bow", "bow"),
        ("pendant_bell", "bell"),
        ("pendant_heart", "heart"),
        ("pendant_star", "star"),
        ("pendant_leaf", "leaf"),
        ("mud", "mud"),
        ("loose", "unfinished"),
    ]
    x = MARGIN
    saved = p.k
    p.k = 0.7
    cy = y + 22
    for role, text in items:
        if x + 34 + d.textlength(text, font=fnt) > width - MARGIN:
            x, cy = MARGIN, cy + 46
        if role == "scarf":
            d.rectangle((x, cy - 10, x + 28, cy + 10), fill=SCARF_COLOURS[0][0])
            d.rectangle((x, cy - 3, x + 28, cy + 3), fill=SCARF_COLOURS[0][1])
        elif role == "bow":
            d.polygon([(x + 14, cy), (x, cy - 10), (x, cy + 10)], fill=BOW, outline=BOW_DARK)
            d.polygon(
                [(x + 14, cy), (x + 28, cy - 10), (x + 28, cy + 10)], fill=BOW, outline=BOW_DARK
            )
            d.ellipse((x + 9, cy - 5, x + 19, cy + 5), fill=BOW, outline=BOW_DARK)
        elif role == "mud":
            d.ellipse((x, cy - 8, x + 26, cy + 8), fill=MUD, outline=MUD_DARK)
        elif role == "loose":
            _dashed_rect(d, (x, cy - 11, x + 28, cy + 11), SOFT_INK)
        else:
            p.charm(x + 14, 14, cy - 24, 30, role)
        x += 34
        d.text((x, cy), text, font=fnt, fill=INK, anchor="lm")
        x += int(d.textlength(text, font=fnt)) + 22
    p.k = saved


def table_picture(view: PacapacaView, *, names: Mapping[str, str] | None = None) -> Picture:
    """The table as a :class:`~bot.render.common.Picture`: every alpaca with its name,
    whose turn it is (yellow, ▶), a negotiation partner (blue, ⇄), deck and pile
    counts and a legend. 1000 px wide, height fixed per player count (:func:`layout`),
    no text under 28 px. ``names``: seat -> display name (default: the seat id). A
    finished view is drawn as :func:`final_picture`."""
    if view.final is not None:
        return final_picture(view, names=names)
    width, height, per_row = layout(len(view.alpacas))
    with measuring() as meter:
        img = Image.new("RGB", (width, height), BG)
        d = Draw(img)
        _header(d, view, width)
        _draw_alpacas(img, view, view.alpacas, _names(view, names), final=False, top=HEADER_H,
                      area_h=height - HEADER_H - LEGEND_H, per_row=per_row)
        p = _Painter(img, 1.0, 20)
        _legend(d, p, height - LEGEND_H, width)
    return Picture(_png(img), img.size, meter.smallest)


def render_table(view: PacapacaView, *, names: Mapping[str, str] | None = None) -> bytes:
    """PNG bytes of :func:`table_picture`."""
    return table_picture(view, names=names).png


def alpaca_picture(view: PacapacaView, seat: str, *, names: Mapping[str, str] | None = None
                   ) -> Picture:
    """The close-up of ``seat``'s alpaca for "My hand": the one alpaca, larger than on
    the table, 700 x 860 px, with its name and neck length. Raises ``KeyError`` for a seat
    not in the game."""
    mine = [a for a in view.alpacas if a.seat == seat]
    if not mine:
        raise KeyError(seat)
    width, height = 700, 860
    with measuring() as meter:
        img = Image.new("RGB", (width, height), BG)
        d = Draw(img)
        d.text((MARGIN, 36), "Your alpaca", font=_font(34, True), fill=INK, anchor="lm")
        _draw_alpacas(img, view, mine, _names(view, names), final=view.final is not None,
                      top=70, area_h=height - 70, per_row=1)
    return Picture(_png(img), img.size, meter.smallest)


SCORE_COLUMNS = [
    ("Neck", ("Neck",)),
    ("Bow", ("Bows",)),
    ("Scarf", ("Scarves",)),
    ("Charm", ("Charms",)),
    ("All 4", ("All four",)),
    ("Mud", ("Mud",)),
    ("Baby", ("Baby",)),
]


def score_cells(lines) -> list[int | None]:
    """Sum a seat's score lines into the table columns (``None`` = no such line)."""
    out: list[int | None] = []
    for _, prefixes in SCORE_COLUMNS:
        pts = [ln.points for ln in lines if ln.label.startswith(prefixes)]
        out.append(sum(pts) if pts else None)
    return out


def final_picture(view: PacapacaView, *, names: Mapping[str, str] | None = None) -> Picture:
    """The end of the game as a :class:`~bot.render.common.Picture`, the same size as the
    table: the alpacas with removed (incomplete) parts crossed out in red, winners
    starred, and a score table (neck, bows, scarves, charms, the all-four bonus, mud,
    babies, total) with one row per player.

    Raises ``ValueError`` if ``view.final`` is ``None`` (the game is not over)."""
    if view.final is None:
        raise ValueError("the game is not finished")
    width, height, per_row = layout(len(view.alpacas))
    rows = len(view.final.alpacas)
    table_h = 16 + ROW_H * (rows + 1) + 12
    label = _names(view, names)
    with measuring() as meter:
        img = Image.new("RGB", (width, height), BG)
        d = Draw(img)
        _header(d, view, width)
        _draw_alpacas(img, view, view.alpacas, label, final=True, top=HEADER_H,
                      area_h=height - HEADER_H - table_h, per_row=per_row)
        y = height - table_h + 10
        x0 = MARGIN
        name_w = 190
        cols = [*SCORE_COLUMNS, ("Total", ())]
        unit = (width - 2 * MARGIN - name_w) / len(cols)
        centres = [int(x0 + name_w + (j + 0.5) * unit) for j in range(len(cols))]
        head_f, cell_f, bold = _font(TEXT), _font(TEXT), _font(TEXT, True)
        d.rounded_rectangle(
            (MARGIN - 6, y - 6, width - MARGIN + 6, height - 8),
            radius=14,
            fill=BG,
            outline=GROUND_DARK,
            width=2,
        )
        for j, (title, _) in enumerate(cols):
            d.text((centres[j], y + ROW_H // 2), title, font=head_f, fill=SOFT_INK, anchor="mm")
        for r, fa in enumerate(view.final.alpacas):
            yy = y + ROW_H * (r + 1)
            if r % 2 == 0:
                d.rectangle((MARGIN, yy, width - MARGIN, yy + ROW_H), fill=(244, 236, 216))
            star = "★ " if fa.seat in view.final.winners else ""
            d.text((x0 + 8, yy + ROW_H // 2), _fit(d, star + label[fa.seat], bold, name_w - 12),
                   font=bold, fill=INK, anchor="lm")
            for j, v in enumerate(score_cells(fa.lines)):
                txt = "·" if v is None else (f"+{v}" if v > 0 else str(v))
                col = RED if (v or 0) < 0 else INK
                d.text((centres[j], yy + ROW_H // 2), txt, font=cell_f, fill=col, anchor="mm")
            d.text((centres[-1], yy + ROW_H // 2), str(fa.total), font=bold, fill=INK,
                   anchor="mm")
    return Picture(_png(img), img.size, meter.smallest)


def render_final(view: PacapacaView, *, names: Mapping[str, str] | None = None) -> bytes:
    """PNG bytes of :func:`final_picture`. Raises ``ValueError`` for a running game."""
    return final_picture(view, names=names).png


CARD_W, CARD_H = 300, 390


def render_cards(cards: Sequence[int], *, title: str | None = None) -> bytes:
    """PNG bytes showing ``cards`` (neck-card or baby ids) as cards side by side: the
    piece drawn on a bit of neck, its letter mark, name and a one-line reminder. For the
    ephemeral "you drew" / "my discards" answers. Raises ``KeyError`` for an unknown id.
    """
    cat = catalog()
    n = max(1, len(cards))
    per_row = min(n, 3)
    rows = (n + per_row - 1) // per_row
    top = 56 if title else 16
    width = per_row * (CARD_W + 16) + 16
    height = top + rows * (CARD_H + 16)
    img = Image.new("RGB", (width, height), BG)
    text = max(20, min_font(width))
    p = _Painter(img, 2.0, 72)
    d = p.d
    if title:
        d.text(
            (16, top // 2),
            _fit(d, title, _font(max(28, text), True), width - 32),
            font=_font(max(28, text), True),
            fill=INK,
            anchor="lm",
        )
    fur = _hex(cat.bodies[0].colour)
    for i, card in enumerate(cards):
        kind = cat.card_kind(card)
        x0 = 16 + (i % per_row) * (CARD_W + 16)
        y0 = top + (i // per_row) * (CARD_H + 16)
        d.rounded_rectangle(
            (x0, y0, x0 + CARD_W, y0 + CARD_H),
            radius=18,
            fill=(255, 255, 255),
            outline=SOFT_INK,
            width=3,
        )
        cx, nw, h = x0 + CARD_W // 2, 48, 72
        art_top = y0 + 30
        if kind.group == "baby":
            p.baby(cx, art_top + 180, kind.kind == "baby_male", True, fur)
        else:
            d.rectangle(
                (cx - nw, art_top, cx + nw, art_top + 3 * h),
                fill=fur,
                outline=_dark(fur, 0.72),
                width=2,
            )
            seg: Segment = (card, kind.kind, 0, "ok")
            ys = art_top + h
            if kind.group == "ribbon":
                p.bow(cx, nw, ys, h, kind.kind, False, [seg], 0, alone=True)
            else:
                p.segment(cx, nw, ys, h, seg, [seg], 0, fur)
        p.k = 2.0
        mark = _font(max(26, text), True)
        d.rounded_rectangle(
            (x0 + 10, y0 + 10, x0 + 62, y0 + 46), radius=10, fill=BG, outline=SOFT_INK
        )
        d.text((x0 + 36, y0 + 28), kind.letter, font=mark, fill=INK, anchor="mm")
        d.text(
            (cx, y0 + 276),
            _fit(d, kind.name, _font(max(28, text), True), CARD_W - 20),
            font=_font(max(28, text), True),
            fill=INK,
            anchor="mm",
        )
        words, line, lines = kind.blurb.split(), "", []
        small = _font(text)
        for w in words:
            trial = f"{line} {w}".strip()
            if d.textlength(trial, font=small) > CARD_W - 28 and line:
                lines.append(line)
                line = w
            else:
                line = trial
        lines.append(line)
        for j, ln in enumerate(lines[:3]):
            d.text((cx, y0 + 310 + j * (text + 4)), ln, font=small, fill=SOFT_INK, anchor="mm")
    return _png(img)
