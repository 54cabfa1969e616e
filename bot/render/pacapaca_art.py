"""Alpaca Pacapaca drawing pieces (Pillow shapes only): colours, the fixed palette, the
neck grouped into segments, and :class:`Painter`, which draws one alpaca's body, neck
pieces, head and babies.

Neck cards are grouped so illustrations read as wholes: complete bows first, then each
complete scarf as one continuous striped band, charms, plain neck, mud, and at the bottom
the incomplete parts, faded with a dashed outline (crossed out at game end). Colour is
always paired with a shape: stripes = scarf, loops = bow, bell / heart / star / leaf = the
four charms, blotches = mud.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from bot.games.pacapaca.cards import catalog, kind_table
from bot.games.pacapaca.scoring import analyse
from bot.render.common import Draw, font, min_font, note_mark, palette_png
from bot.render.mapped import mapped

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


# -- small helpers ----------------------------------------------------------------------


def hex_rgb(colour: str) -> RGB:
    """``"#rrggbb"`` as an RGB tuple."""
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def fade(c: RGB, amount: float = 0.6, to: RGB = BG) -> RGB:
    """``c`` moved ``amount`` (0-1) of the way towards ``to``."""
    return tuple(int(a + (b - a) * amount) for a, b in zip(c, to, strict=True))  # type: ignore[return-value]


def dark(c: RGB, f: float = 0.7) -> RGB:
    """``c`` with each channel scaled by ``f``."""
    return tuple(int(v * f) for v in c)  # type: ignore[return-value]


def dashed_rect(d: ImageDraw.ImageDraw, box, colour: RGB, dash: int = 6, width: int = 2) -> None:
    """A dashed outline of ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = (int(v) for v in box)
    for x in range(x0, x1, dash * 2):
        d.line([(x, y0), (min(x + dash, x1), y0)], fill=colour, width=width)
        d.line([(x, y1), (min(x + dash, x1), y1)], fill=colour, width=width)
    for y in range(y0, y1, dash * 2):
        d.line([(x0, y), (x0, min(y + dash, y1))], fill=colour, width=width)
        d.line([(x1, y), (x1, min(y + dash, y1))], fill=colour, width=width)


def fit(d: ImageDraw.ImageDraw, text: str, fnt, width: int) -> str:
    """``text`` cut with "…" to fit ``width`` px in font ``fnt``."""
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
        cols += [c, fade(c), dark(c, 0.55), dark(c, 0.7)]
    for d in [*cat.heads, *cat.bodies]:
        c = hex_rgb(d.colour)
        cols += [c, dark(c, 0.5), dark(c, 0.62), dark(c, 0.72), dark(c, 0.8)]
        cols += [fade(c, f, (255, 255, 255)) for f in (0.25, 0.3, 0.35, 0.45)]
    fgs = [INK, SOFT_INK, RED, BOW, (52, 104, 196)]
    bgs = [BG, ACTIVE_BG, PARTNER_BG, GROUND, (244, 236, 216), (255, 255, 255)]
    for fg in fgs:
        for bg in bgs:
            cols += [fade(fg, f, bg) for f in (0.25, 0.5, 0.75)]
    uniq = list(dict.fromkeys(cols))[:256]  # 255 colours today
    flat = [v for c in uniq for v in c]
    flat += flat[:3] * (256 - len(uniq))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def to_palette_png(img: Image.Image) -> bytes:
    """PNG bytes of ``img`` mapped onto the fixed palette: it encodes several times faster
    than RGB (no per-row filter search) and is half the size; the drawing uses flat
    colours."""
    return palette_png(mapped(img, _palette()))


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


def draw_charm(d: ImageDraw.ImageDraw, x: float, y: float, size: float, role: str) -> None:
    """One charm ``size`` px tall centred on (``x``, ``y``): a bell (dome, flared rim and
    clapper), a heart, a five-pointed star or a leaf (pointed, with its vein and stem), each
    in its colour with a dark edge, so the shape alone tells them apart."""
    col = CHARM[role]
    edge = dark(col, 0.55)
    top, bot = y - size / 2, y + size / 2
    w = 1
    if role == "pendant_bell":
        clap = size * 0.16
        rim = bot - clap
        d.chord((x - size * 0.32, top, x + size * 0.32, top + size * 0.6), 180, 360, fill=col,
                outline=edge, width=w)
        d.polygon([(x - size * 0.32, top + size * 0.3), (x + size * 0.32, top + size * 0.3),
                   (x + size * 0.46, rim), (x - size * 0.46, rim)], fill=col, outline=edge,
                  width=w)
        d.ellipse((x - clap, rim - clap * 0.4, x + clap, rim + clap * 1.2), fill=edge)
    elif role == "pendant_heart":
        r = size * 0.27
        d.ellipse((x - 2 * r, top, x, top + 2 * r), fill=col, outline=edge, width=w)
        d.ellipse((x, top, x + 2 * r, top + 2 * r), fill=col, outline=edge, width=w)
        pts = [(x - 1.93 * r, top + 1.35 * r), (x + 1.93 * r, top + 1.35 * r), (x, bot)]
        d.polygon(pts, fill=col)
        d.line([pts[0], pts[2], pts[1]], fill=edge, width=w)
        d.rectangle((x - r, top + r, x + r, top + 1.5 * r), fill=col)
    elif role == "pendant_star":
        rad = size / 1.81
        cy = top + rad
        pts = []
        for k in range(10):
            ang = -math.pi / 2 + k * math.pi / 5
            rr = rad if k % 2 == 0 else rad * 0.45
            pts.append((x + rr * math.cos(ang), cy + rr * math.sin(ang)))
        d.polygon(pts, fill=col, outline=edge, width=w)
    else:  # leaf: a pointed blade and a stem
        half = size * 0.28
        blade_bot = bot - size * 0.16
        pts = []
        for k in range(7):
            t = k / 6
            pts.append((x - half * math.sin(math.pi * t), top + t * (blade_bot - top)))
        for k in range(7):
            t = 1 - k / 6
            pts.append((x + half * math.sin(math.pi * t), top + t * (blade_bot - top)))
        d.polygon(pts, fill=col, outline=edge, width=w)
        d.line([(x, top + size * 0.12), (x, bot)], fill=edge, width=w)


class Painter:
    """Draws alpacas on one image; ``k`` scales shapes, ``seg`` is a segment's height."""

    def __init__(self, img: Image.Image, k: float, seg: int) -> None:
        self.img = img
        #: px: the width of the picture drawn (a sprite's canvas draws for a picture)
        self.width = img.width
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
            outline=dark(fur, 0.72),
            width=2,
        )
        for i, seg in enumerate(segs):
            y0 = top + i * h
            self.segment(cx, nw, y0, h, seg, segs, i, fur)
        for i in range(1, n):
            y = top + i * h
            d.line([(cx - nw + 3, y), (cx - nw + 9, y)], fill=dark(fur, 0.78), width=1)
            d.line([(cx + nw - 9, y), (cx + nw - 3, y)], fill=dark(fur, 0.78), width=1)
        return top

    def segment(self, cx, nw, y0, h, seg: Segment, segs, i, fur: RGB) -> None:
        card, role, group, state = seg
        d = self.d
        faded = state != "ok"
        box = (cx - nw - 6, y0 + 1, cx + nw + 6, y0 + h - 1)
        if role == "neck":
            tuft = dark(fur, 0.8)
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
            run = 0
            while i - run - 1 >= 0 and segs[i - run - 1][1].startswith("pendant"):
                run += 1
            self.charm(cx, nw, y0, h, role, run)
        elif role == "mud":
            self.mud(cx, nw, y0, h, card)
        if faded:
            dashed_rect(d, box, SOFT_INK)
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
            main, stripe = fade(main), fade(stripe)
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
        outline = dark(main, 0.7)
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
        colour, dark = (BOW, BOW_DARK) if not faded else (fade(BOW), fade(BOW_DARK))
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

    def charm_height(self, h: int) -> int:
        """The height (px) of a charm on a segment ``h`` px tall: at least
        :func:`~bot.render.common.min_font` of the picture's width, so the four shapes
        show at 14 px or more when the picture is shown 500 px wide."""
        return max(min_font(self.width), int(min(h * 0.8, 24 * self.k)))

    def charm(self, cx, nw, y0, h, role, j: int = 0) -> None:
        """The ``j``-th charm in a run of charms, on its cord: a bell, heart, star or leaf
        ``charm_height(h)`` px tall centred on the segment; when it is taller than the
        segment, charms in a run alternate left and right of the neck's middle."""
        d = self.d
        size = self.charm_height(h)
        x = cx + (int(nw * 0.45) * (-1 if j % 2 == 0 else 1) if size > h - 2 else 0)
        y = y0 + h / 2
        cord_y = y0 + max(2, h // 6)
        d.line([(cx - nw + 2, cord_y), (x, y - size / 2), (cx + nw - 2, cord_y)], fill=INK,
               width=2)
        draw_charm(d, x, y, size, role)
        note_mark(size)

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
        edge = dark(colour, 0.62)
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
            fill=fade(colour, 0.45, (255, 255, 255)),
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
        fluff = fade(colour, 0.35, (255, 255, 255)) if style != 2 else dark(colour, 0.85)
        count = 5 if style in (0, 2) else 3
        for j in range(count):
            fx = hx - int(26 * k) + j * int(11 * k)
            r = int((9 if style in (0, 2) else 8) * k)
            d.ellipse((fx - r, hy - hh - r + 4, fx + r, hy - hh + r + 4), fill=fluff, outline=edge)

    def body(self, cx: int, ground: int, colour: RGB) -> None:
        d, k = self.d, self.k
        edge = dark(colour, 0.62)
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
                (lx + 1, ground - int(6 * k), lx + int(14 * k), ground), fill=dark(colour, 0.5)
            )
        d.ellipse(
            (bx0 - int(14 * k), by0 + int(8 * k), bx0 + int(18 * k), by0 + int(40 * k)),
            fill=colour,
            outline=edge,
            width=2,
        )  # tail
        d.ellipse((bx0, by0, bx1, by1), fill=colour, outline=edge, width=2)
        fluff = fade(colour, 0.3, (255, 255, 255))
        for j in range(5):
            fx = bx0 + int(26 * k) + j * int(22 * k)
            d.arc(
                (fx - int(10 * k), by0 + int(20 * k), fx + int(10 * k), by0 + int(38 * k)),
                200,
                340,
                fill=dark(fluff, 0.85),
                width=2,
            )

    def baby(self, x: int, ground: int, male: bool, happy: bool, colour: RGB) -> None:
        d, k = self.d, self.k
        s = 0.56 * k
        edge = dark(colour, 0.6)
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
            mark_col = fade(mark_col, 0.45)
        sym = "♂" if male else "♀"
        fnt = font(TEXT, True)
        bx, by, r = x - int(6 * s), ground - int(60 * s), TEXT // 2 + 3
        d.ellipse((bx - r, by - r, bx + r, by + r), fill=(255, 255, 255), outline=mark_col, width=2)
        d.text((bx, by + 1), sym, font=fnt, fill=mark_col, anchor="mm")
