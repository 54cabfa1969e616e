"""Llamas & Alpacas card art (Pillow shapes only): the accessory patterns, one card's
tile and the treat icons.

A card shows the animal (drawn, on a colour-coded background), the digit or a star, and
the accessory colour three ways: the colour, a pattern and a symbol drawn as shapes, the
same in every language (red circle, blue square, green triangle, yellow diamond, white
asterisk = any colour), so the picture works for colour-blind players.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw, ImageFilter

from bot.games.llamas_alpacas.cards import card as card_by_id
from bot.render.common import Draw, draw_text, font, note_mark, rounded_box, sprite, text_size

INK = (58, 44, 34)
GOLD = (232, 170, 20)

ACCESSORY = {
    "red": (214, 64, 64),
    "blue": (52, 108, 214),
    "green": (46, 150, 72),
    "yellow": (240, 196, 40),
    "white": (246, 246, 246),
}
CARD_BG = {"llama": (255, 241, 214), "alpaca": (232, 226, 252)}
FUR = {"llama": (196, 146, 98), "alpaca": (250, 246, 238)}
FUR_LINE = {"llama": (120, 80, 48), "alpaca": (140, 118, 100)}


# -- colour symbols -------------------------------------------------------------------------
#
# Each accessory colour has a shape, drawn as polygons (never a font's letter, so it is the
# same in every language): INK with a white rim, legible on any pattern and in greyscale.

#: The shape of each colour's symbol.
SYMBOL = {"red": "circle", "blue": "square", "green": "triangle", "yellow": "diamond",
          "white": "asterisk"}
#: Supersampling of a symbol (drawn this many times larger, then scaled down smoothly).
_SS = 4
#: A symbol's white rim, as a share of its size (at least 2 px).
RIM = 0.11
Point = tuple[float, float]


def _inset(poly: list[Point], d: float) -> list[Point]:
    """The convex polygon ``poly`` with every side moved ``d`` inwards (sharp corners)."""
    n = len(poly)
    cx, cy = sum(x for x, _ in poly) / n, sum(y for _, y in poly) / n
    sides = []
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        nx, ny = y2 - y1, x1 - x2
        length = math.hypot(nx, ny)
        nx, ny = nx / length, ny / length
        if (cx - x1) * nx + (cy - y1) * ny < 0:
            nx, ny = -nx, -ny
        sides.append((nx, ny, nx * x1 + ny * y1 + d))
    out = []
    for i in range(n):
        a1, b1, c1 = sides[i - 1]
        a2, b2, c2 = sides[i]
        det = a1 * b2 - a2 * b1
        out.append(((c1 * b2 - c2 * b1) / det, (a1 * c2 - a2 * c1) / det))
    return out


def _shape(d: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float,
           inset: float) -> None:
    """Draw ``shape`` on the L-mode ``d`` (255), centred at (cx, cy) in a box of half-side
    ``r`` px, its sides moved ``inset`` px inwards."""
    fill = 255
    if shape == "circle":  # a little smaller than its box: a disc looks the heaviest
        q = 0.92 * r - inset
        d.ellipse((cx - q, cy - q, cx + q, cy + q), fill=fill)
        return
    if shape == "asterisk":  # three bars crossing: vertical and 60 degrees either side
        half_len, half_w = 0.97 * r - inset, 0.42 * r - inset
        for deg in (90, 30, -30):
            a = math.radians(deg)
            ux, uy, vx, vy = math.cos(a), -math.sin(a), math.sin(a), math.cos(a)
            d.polygon([(cx + ux * s * half_len + vx * t * half_w,
                        cy + uy * s * half_len + vy * t * half_w)
                       for s, t in ((1, 1), (1, -1), (-1, -1), (-1, 1))], fill=fill)
        return
    unit = {"square": [(-0.84, -0.84), (0.84, -0.84), (0.84, 0.84), (-0.84, 0.84)],
            "triangle": [(0.0, -0.92), (1.0, 0.92), (-1.0, 0.92)],
            "diamond": [(0.0, -1.0), (0.9, 0.0), (0.0, 1.0), (-0.9, 0.0)]}[shape]
    poly = _inset([(cx + x * r, cy + y * r) for x, y in unit], inset)
    d.polygon(poly, fill=fill)


@cache
def symbol(colour: str, size: int) -> Image.Image:
    """The RGBA symbol of accessory ``colour`` (:data:`SYMBOL`), ``size`` x ``size`` px:
    INK inside a white rim (:data:`RIM` of ``size``, at least 2 px). Raises ``KeyError``
    for an unknown colour."""
    shape = SYMBOL[colour]
    big = size * _SS
    edge = max(2, round(size * RIM)) * _SS
    outer = Image.new("L", (big, big), 0)
    core = Image.new("L", (big, big), 0)
    for mask, inset in ((outer, 0.0), (core, float(edge))):
        _shape(ImageDraw.Draw(mask), shape, big / 2, big / 2, big / 2, inset)
    outer, core = (m.resize((size, size), Image.Resampling.LANCZOS) for m in (outer, core))
    img = Image.new("RGBA", (size, size), (255, 255, 255, 0))
    img.putalpha(outer)
    img.paste((*INK, 255), (0, 0), core)
    return img


def draw_symbol(img: Image.Image, colour: str, cx: float, cy: float, size: int) -> None:
    """Paste ``colour``'s :func:`symbol` ``size`` px tall centred at (cx, cy) on ``img``,
    and note it as a mark (:func:`~bot.render.common.note_mark`)."""
    piece = symbol(colour, size)
    img.paste(piece, (round(cx - size / 2), round(cy - size / 2)), piece)
    note_mark(size)


# -- patterns and card tiles ----------------------------------------------------------------


@cache
def pattern(colour: str, w: int, h: int) -> Image.Image:
    """A ``w`` x ``h`` swatch of the accessory colour with its pattern: red diagonal
    stripes, blue dots, green checks, yellow horizontal stripes, white rainbow flecks."""
    img = Image.new("RGB", (w, h), ACCESSORY[colour])
    d = ImageDraw.Draw(img)
    base = ACCESSORY[colour]
    dark = tuple(int(c * 0.62) for c in base)
    if colour == "red":
        for x in range(-h, w, 12):
            d.line([(x, h), (x + h, 0)], fill=dark, width=4)
    elif colour == "blue":
        for y in range(4, h, 11):
            for x in range(4 + (y // 11 % 2) * 5, w, 11):
                d.ellipse((x - 2.5, y - 2.5, x + 2.5, y + 2.5), fill=(225, 235, 255))
    elif colour == "green":
        for y in range(0, h, 8):
            for x in range((y // 8 % 2) * 8, w, 16):
                d.rectangle((x, y, x + 7, y + 7), fill=dark)
    elif colour == "yellow":
        for y in range(2, h, 9):
            d.line([(0, y), (w, y)], fill=(176, 128, 10), width=3)
    else:
        flecks = [ACCESSORY[c] for c in ("red", "blue", "green", "yellow")]
        i = 0
        for y in range(3, h, 9):
            for x in range(3 + (y // 9 % 2) * 4, w, 9):
                d.ellipse((x - 2, y - 2, x + 2, y + 2), fill=flecks[i % 4])
                i += 1
    return img


def _fill_pattern(
    img: Image.Image, colour: str, shape: Image.Image, outline_draw: None = None
) -> None:
    """Paint the colour's pattern on ``img`` where the L-mode mask ``shape`` is set."""
    img.paste(pattern(colour, img.width, img.height), (0, 0), shape)


def _llama(d: ImageDraw.ImageDraw, mask: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """A standing llama in a box of side ``s`` at (x, y); the cap shape goes on ``mask``."""
    fur, line = FUR["llama"], FUR_LINE["llama"]

    def P(px: float, py: float) -> tuple[float, float]:
        return (x + px * s, y + py * s)

    for lx in (0.22, 0.33, 0.58, 0.68):
        d.rounded_rectangle(
            (*P(lx, 0.62), *P(lx + 0.075, 0.97)),
            radius=int(s * 0.03),
            fill=fur,
            outline=line,
            width=2,
        )
    d.ellipse((*P(0.08, 0.42), *P(0.2, 0.6)), fill=fur, outline=line, width=2)  # tail
    d.ellipse((*P(0.14, 0.44), *P(0.8, 0.76)), fill=fur, outline=line, width=2)  # body
    d.polygon(
        [P(0.6, 0.5), P(0.6, 0.2), P(0.76, 0.2), P(0.8, 0.58)], fill=fur, outline=line, width=2
    )
    d.polygon([P(0.62, 0.48), P(0.63, 0.22), P(0.74, 0.22), P(0.78, 0.55)], fill=fur)
    d.ellipse((*P(0.56, 0.1), *P(0.94, 0.3)), fill=fur, outline=line, width=2)  # head
    d.ellipse((*P(0.8, 0.18), *P(0.84, 0.22)), fill=line)  # nostril hint
    d.ellipse((*P(0.68, 0.15), *P(0.73, 0.2)), fill=INK)  # eye
    for ex in (0.58, 0.66):  # banana ears
        d.polygon(
            [P(ex, 0.14), P(ex + 0.02, -0.02), P(ex + 0.07, 0.13)], fill=fur, outline=line, width=2
        )
    # cap: dome + brim, drawn on the mask (filled with the pattern later)
    mask.chord((*P(0.57, -0.02), *P(0.89, 0.27)), 180, 360, fill=255)
    mask.rectangle((*P(0.57, 0.11), *P(1.0, 0.16)), fill=255)


def _alpaca(
    d: ImageDraw.ImageDraw, mask: ImageDraw.ImageDraw, x: float, y: float, s: float
) -> None:
    """A fluffy alpaca in a box of side ``s`` at (x, y); the bandana shape goes on ``mask``."""
    fur, line = FUR["alpaca"], FUR_LINE["alpaca"]

    def P(px: float, py: float) -> tuple[float, float]:
        return (x + px * s, y + py * s)

    for lx in (0.24, 0.36, 0.56, 0.66):
        d.rounded_rectangle(
            (*P(lx, 0.66), *P(lx + 0.08, 0.97)),
            radius=int(s * 0.03),
            fill=fur,
            outline=line,
            width=2,
        )
    # fluffy body: a cloud of circles
    for cx, cy, r in (
        (0.26, 0.58, 0.14),
        (0.42, 0.52, 0.16),
        (0.58, 0.56, 0.15),
        (0.34, 0.68, 0.12),
        (0.52, 0.68, 0.12),
        (0.68, 0.62, 0.1),
    ):
        d.ellipse((*P(cx - r, cy - r), *P(cx + r, cy + r)), fill=fur, outline=line, width=2)
    for cx, cy, r in (
        (0.26, 0.58, 0.12),
        (0.42, 0.52, 0.14),
        (0.58, 0.56, 0.13),
        (0.34, 0.66, 0.1),
        (0.52, 0.66, 0.1),
    ):
        d.ellipse((*P(cx - r, cy - r), *P(cx + r, cy + r)), fill=fur)
    d.rounded_rectangle(
        (*P(0.6, 0.24), *P(0.78, 0.6)), radius=int(s * 0.08), fill=fur, outline=line, width=2
    )  # neck
    d.ellipse((*P(0.56, 0.12), *P(0.88, 0.36)), fill=fur, outline=line, width=2)  # head
    for cx, cy, r in ((0.64, 0.12, 0.06), (0.72, 0.09, 0.07), (0.8, 0.12, 0.06)):  # top-knot
        d.ellipse((*P(cx - r, cy - r), *P(cx + r, cy + r)), fill=fur, outline=line, width=2)
    d.ellipse((*P(0.6, 0.1), *P(0.84, 0.22)), fill=fur)
    d.ellipse(
        (*P(0.78, 0.24), *P(0.92, 0.34)), fill=(236, 214, 200), outline=line, width=2
    )  # muzzle
    d.ellipse((*P(0.67, 0.2), *P(0.72, 0.25)), fill=INK)  # eye
    for ex in (0.6, 0.8):  # short ears
        d.polygon(
            [P(ex, 0.1), P(ex + 0.02, 0.0), P(ex + 0.06, 0.09)], fill=fur, outline=line, width=2
        )
    # bandana: a triangle tied around the neck
    mask.polygon([P(0.54, 0.37), P(0.84, 0.37), P(0.69, 0.62)], fill=255)
    mask.rectangle((*P(0.56, 0.34), *P(0.82, 0.42)), fill=255)


def _strip_height(h: int, text: int) -> int:
    """The height (px) of the colour strip of a card ``h`` px tall, smallest text ``text``."""
    return max(int(h * 0.15), int(text * 1.25))


def symbol_size(h: int, text: int = 0) -> int:
    """The height (px) of the colour symbol on a card ``h`` px tall whose smallest text is
    ``text`` px: most of its strip's height, never below ``text``."""
    return max(text, _strip_height(h, text) - 7)


#: Outlines the accessory so white shows on any background.
_EDGE = ImageFilter.Kernel((3, 3), [-1, -1, -1, -1, 8, -1, -1, -1, -1], 1, 0)


@sprite
def card_tile(card_id: int, w: int, h: int, text: int = 0) -> Image.Image:
    """The RGBA picture of one card at ``w`` x ``h`` px (cached: cards never change): the
    animal drawn with its accessory, the digit or a star (top left), the colour as a
    patterned strip along the bottom with the colour's symbol on it. ``text`` is the
    smallest font size to use (px; the digit and the symbol never go below it)."""
    c = card_by_id(card_id)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = Draw(img)
    rounded_box(
        d,
        (0, 0, w - 1, h - 1),
        radius=max(8, w // 10),
        fill=CARD_BG[c.animal],
        outline=INK,
        width=3,
    )
    art = Image.new("RGB", (w, h), CARD_BG[c.animal])
    ad = ImageDraw.Draw(art)
    acc_mask = Image.new("L", (w, h), 0)
    md = ImageDraw.Draw(acc_mask)
    strip_h = _strip_height(h, text)
    top = h * 0.1
    size = min(w * 0.98, h - strip_h - 10 - top)
    ax, ay = (w - size) / 2 + w * 0.04, top
    (_llama if c.animal == "llama" else _alpaca)(ad, md, ax, ay, size)
    _fill_pattern(art, c.colour, acc_mask)
    # outline the accessory so white shows on any background
    edge = acc_mask.filter(_EDGE)
    art.paste(INK, (0, 0), edge)
    strip = (4, h - strip_h - 4, w - 4, h - 4)
    # bottom strip: accessory colour + pattern, and the animal's name
    strip_mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(strip_mask).rounded_rectangle(strip, radius=max(6, w // 14), fill=255)
    _fill_pattern(art, c.colour, strip_mask)
    art_mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(art_mask).rounded_rectangle(
        (3, 3, w - 4, h - 4), radius=max(6, w // 10 - 2), fill=255
    )
    img.paste(art, (0, 0), art_mask)
    d = Draw(img)
    d.rounded_rectangle(strip, radius=max(6, w // 14), outline=INK, width=2)
    # digit or star, top left
    ds = max(text, int(h * 0.2))
    if c.digit is None:
        draw_text(
            d,
            (w * 0.07, h * 0.03),
            "★",
            font(ds, True),
            GOLD,
            anchor="la",
            stroke=2,
            stroke_fill=INK,
        )
    else:
        draw_text(d, (w * 0.08, h * 0.02), str(c.digit), font(ds, True), INK, anchor="la")
    # the colour's symbol on its patterned strip
    draw_symbol(img, c.colour, w / 2, (strip[1] + strip[3]) / 2, symbol_size(h, text))
    # the border again, on top of everything
    rounded_box(d, (0, 0, w - 1, h - 1), radius=max(8, w // 10), outline=INK, width=3)
    return img


# -- treats ---------------------------------------------------------------------------------


def clover(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A three-leaf clover centred at (cx, cy) with leaf radius ``r``."""
    green, dark = (64, 160, 72), (26, 90, 40)
    d.line([(cx, cy), (cx + r * 0.6, cy + r * 2.0)], fill=dark, width=max(2, int(r / 3)))
    for ang in (-90, 30, 150):
        a = math.radians(ang)
        x, y = cx + math.cos(a) * r * 0.85, cy + math.sin(a) * r * 0.85
        d.ellipse((x - r, y - r, x + r, y + r), fill=green, outline=dark, width=2)


def carrot(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A carrot centred at (cx, cy), about ``2r`` wide."""
    orange, dark, leaf = (240, 130, 30), (150, 70, 10), (60, 150, 60)
    for dx in (-0.5, 0, 0.5):
        d.polygon(
            [
                (cx + dx * r, cy - r * 0.8),
                (cx + dx * r * 2.2, cy - r * 2.0),
                (cx + dx * r + r * 0.3, cy - r * 0.8),
            ],
            fill=leaf,
        )
    d.polygon(
        [(cx - r, cy - r * 0.9), (cx + r, cy - r * 0.9), (cx, cy + r * 1.8)],
        fill=orange,
        outline=dark,
        width=2,
    )
    d.line([(cx - r * 0.4, cy), (cx + r * 0.1, cy)], fill=dark, width=2)


def treats(
    d: ImageDraw.ImageDraw,
    x: float,
    cy: float,
    clovers: int,
    carrots: int,
    *,
    size: int = 26,
    show_zero: bool = False,
) -> float:
    """Draw ``clover xN  carrot xN`` starting at x, vertically centred on ``cy``; returns
    the x where it ended."""
    fnt = font(size, True)
    r = size * 0.36
    for n, icon in ((clovers, clover), (carrots, carrot)):
        if n == 0 and not show_zero:
            continue
        icon(d, x + r * 1.2, cy - r * 0.3, r)
        x += r * 2.6
        label = f"×{n}"
        draw_text(d, (x, cy), label, fnt, INK, anchor="lm")
        x += text_size(d, label, fnt)[0] + size * 0.6
    return x


def treats_width(d: ImageDraw.ImageDraw, clovers: int, carrots: int, size: int) -> float:
    """The width :func:`treats` would use."""
    fnt = font(size, True)
    r = size * 0.36
    x = 0.0
    for n in (clovers, carrots):
        if n:
            x += r * 2.6 + text_size(d, f"×{n}", fnt)[0] + size * 0.6
    return x - size * 0.6

