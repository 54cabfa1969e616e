"""Our own drawn art for Llamas Unleashed: animal portraits and card-type frames.

Portraits are front-facing heads drawn with Pillow shapes at four times their size and
shrunk (smooth edges): a Llama (long face, tall banana ears), an Alpaca (round face under a
big woolly top-knot), a Goat (long face, back-swept horns, side ears, beard) and a Ram
(dark face, wool cap, curled horns). Babies are smaller and rounder: a round head, big eyes,
short ears and only horn buds. Each sits on a disc of its kind's colour, so the kind shows
by colour *and* by shape.

Card types have a frame colour and an icon (a shape, never colour alone): Basic (plain
wood frame, hoof), Magical (gold frame, star), Baby (pink round frame, heart), Upgrade
(green, up arrow), Downgrade (red, down arrow), Magic (blue, sparkle), Instant (orange,
lightning bolt).

Everything is cached: a portrait or icon is drawn once per size.
"""

from __future__ import annotations

import math

from PIL import Image, ImageChops, ImageDraw

from bot.render.common import RGB, sprite

KINDS = ("llama", "alpaca", "goat", "ram")

#: Kind -> (colour, letter): the disc behind a portrait, badges and the legend.
KIND_STYLE: dict[str, tuple[RGB, str]] = {
    "llama": ((206, 120, 40), "L"),
    "alpaca": ((140, 80, 176), "A"),
    "goat": ((52, 150, 84), "G"),
    "ram": ((40, 112, 186), "R"),
}

#: Card type -> (frame colour, icon name, words). Icons are drawn by :func:`icon`.
TYPE_FRAME: dict[str, tuple[RGB, str, str]] = {
    "baby": ((228, 120, 150), "heart", "Baby Animal"),
    "basic": ((150, 106, 66), "hoof", "Basic Animal"),
    "magical": ((214, 160, 24), "star", "Magical Animal"),
    "upgrade": ((40, 150, 100), "up", "Upgrade"),
    "downgrade": ((196, 58, 48), "down", "Downgrade"),
    "magic": ((60, 96, 200), "sparkle", "Magic"),
    "instant": ((236, 128, 20), "bolt", "Instant"),
}

INK: RGB = (40, 34, 28)
WHITE: RGB = (255, 255, 255)

_FUR: dict[str, tuple[RGB, RGB, RGB]] = {
    # fur, outline, muzzle
    "llama": ((222, 178, 126), (112, 74, 42), (246, 222, 190)),
    "alpaca": ((250, 244, 230), (146, 120, 100), (236, 214, 200)),
    "goat": ((238, 236, 228), (100, 98, 90), (226, 210, 204)),
    "ram": ((96, 82, 76), (48, 40, 36), (128, 112, 104)),
}
_WOOL: RGB = (248, 242, 226)
_HORN: RGB = (204, 186, 150)
_HORN_LINE: RGB = (120, 100, 70)


def tint(c: RGB, amount: float) -> RGB:
    """``c`` mixed with white (``amount`` 0 = ``c``, 1 = white)."""
    return tuple(int(v + (255 - v) * amount) for v in c)  # type: ignore[return-value]


def dark(c: RGB, f: float = 0.65) -> RGB:
    """``c`` darkened by the factor ``f``."""
    return tuple(int(v * f) for v in c)  # type: ignore[return-value]


class _Pen:
    """Draws in unit coordinates (0-1) on a square canvas of ``size`` px."""

    def __init__(self, d: ImageDraw.ImageDraw, size: int) -> None:
        self.d, self.s = d, size
        self.w = max(1, size // 60)

    def p(self, x: float, y: float) -> tuple[float, float]:
        return (x * self.s, y * self.s)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return (x0 * self.s, y0 * self.s, x1 * self.s, y1 * self.s)

    def ellipse(self, x0: float, y0: float, x1: float, y1: float, fill: RGB,
                outline: RGB | None = None, width: float = 1.0) -> None:
        self.d.ellipse(self.box(x0, y0, x1, y1), fill=fill, outline=outline,
                       width=int(self.w * width) if outline else 0)

    def circle(self, x: float, y: float, r: float, fill: RGB, outline: RGB | None = None,
               width: float = 1.0) -> None:
        self.ellipse(x - r, y - r, x + r, y + r, fill, outline, width)

    def poly(self, pts: list[tuple[float, float]], fill: RGB, outline: RGB | None = None,
             width: float = 1.0) -> None:
        self.d.polygon([self.p(x, y) for x, y in pts], fill=fill, outline=outline,
                       width=int(self.w * width) if outline else 0)

    def arc(self, x0: float, y0: float, x1: float, y1: float, a0: float, a1: float,
            fill: RGB, width: float) -> None:
        self.d.arc(self.box(x0, y0, x1, y1), a0, a1, fill=fill, width=max(1, int(width * self.s)))


def _mirror(pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(1 - x, y) for x, y in pts]


def _eyes(pen: _Pen, y: float, gap: float, r: float, goat: bool = False) -> None:
    for x in (0.5 - gap, 0.5 + gap):
        pen.circle(x, y, r, WHITE, INK, 0.8)
        if goat:  # goats: a wide, flat pupil
            pen.ellipse(x - r * 0.75, y - r * 0.28, x + r * 0.75, y + r * 0.28, INK)
        else:
            pen.circle(x, y + r * 0.15, r * 0.62, INK)
            pen.circle(x - r * 0.25, y - r * 0.15, r * 0.22, WHITE)


def _muzzle(pen: _Pen, y0: float, y1: float, half: float, colour: RGB, line: RGB,
            smile: bool = True) -> None:
    pen.ellipse(0.5 - half, y0, 0.5 + half, y1, colour, line, 0.8)
    ny = y0 + (y1 - y0) * 0.38
    for x in (0.5 - half * 0.38, 0.5 + half * 0.38):
        pen.ellipse(x - half * 0.13, ny - half * 0.09, x + half * 0.13, ny + half * 0.09, line)
    if smile:
        pen.arc(0.5 - half * 0.4, ny, 0.5 + half * 0.4, y1 - (y1 - y0) * 0.12, 30, 150, line,
                0.012)


def _llama(pen: _Pen, baby: bool) -> None:
    fur, line, muzzle = _FUR["llama"]
    pen.poly([(0.4, 0.62), (0.6, 0.62), (0.64, 1.0), (0.36, 1.0)], fur, line)  # neck
    ear = ([(0.34, 0.34), (0.27, 0.1), (0.33, 0.03), (0.42, 0.28)] if not baby
           else [(0.33, 0.4), (0.26, 0.2), (0.33, 0.15), (0.42, 0.34)])
    for pts in (ear, _mirror(ear)):
        pen.poly(pts, fur, line)
        inner = [(x + (0.5 - x) * 0.25, y + 0.04) for x, y in pts[:3]]
        pen.poly(inner, (240, 176, 160))
    if baby:
        pen.circle(0.5, 0.55, 0.25, fur, line)
        pen.circle(0.5, 0.32, 0.07, tint(fur, 0.3))
        _eyes(pen, 0.5, 0.1, 0.065)
        _muzzle(pen, 0.6, 0.76, 0.1, muzzle, line)
    else:
        pen.ellipse(0.3, 0.2, 0.7, 0.8, fur, line)
        for x in (0.42, 0.5, 0.58):  # a tuft
            pen.circle(x, 0.22, 0.05, tint(fur, 0.25))
        _eyes(pen, 0.42, 0.1, 0.05)
        _muzzle(pen, 0.56, 0.8, 0.13, muzzle, line)


def _alpaca(pen: _Pen, baby: bool) -> None:
    fur, line, muzzle = _FUR["alpaca"]
    pen.poly([(0.36, 0.62), (0.64, 0.62), (0.68, 1.0), (0.32, 1.0)], fur, line)  # neck
    for x in (0.38, 0.5, 0.62):  # woolly neck
        pen.circle(x, 0.9, 0.09, fur)
    ear = ([(0.3, 0.32), (0.26, 0.14), (0.38, 0.26)] if not baby
           else [(0.3, 0.4), (0.27, 0.26), (0.38, 0.34)])
    for pts in (ear, _mirror(ear)):
        pen.poly(pts, fur, line)
    if baby:
        pen.circle(0.5, 0.56, 0.24, fur, line)
        for x, y, r in ((0.38, 0.36, 0.09), (0.5, 0.31, 0.1), (0.62, 0.36, 0.09)):
            pen.circle(x, y, r, fur, line, 0.7)
        pen.ellipse(0.32, 0.33, 0.68, 0.46, fur)
        _eyes(pen, 0.54, 0.1, 0.065)
        _muzzle(pen, 0.62, 0.76, 0.08, muzzle, line)
    else:
        pen.circle(0.5, 0.53, 0.21, fur, line)
        # the big top-knot: a cloud of wool
        for x, y, r in ((0.32, 0.33, 0.11), (0.42, 0.24, 0.12), (0.58, 0.24, 0.12),
                        (0.68, 0.33, 0.11), (0.5, 0.3, 0.13)):
            pen.circle(x, y, r, fur, line, 0.7)
        pen.ellipse(0.26, 0.3, 0.74, 0.44, fur)
        for x, y, r in ((0.28, 0.56, 0.07), (0.72, 0.56, 0.07)):  # cheek wool
            pen.circle(x, y, r, fur, line, 0.6)
        pen.ellipse(0.31, 0.44, 0.69, 0.74, fur)
        _eyes(pen, 0.5, 0.1, 0.05)
        _muzzle(pen, 0.58, 0.72, 0.09, muzzle, line)


def _goat(pen: _Pen, baby: bool) -> None:
    fur, line, muzzle = _FUR["goat"]
    pen.poly([(0.4, 0.64), (0.6, 0.64), (0.63, 1.0), (0.37, 1.0)], fur, line)
    if baby:
        for x in (0.4, 0.6):  # horn buds
            pen.circle(x, 0.33, 0.045, _HORN, _HORN_LINE)
    else:
        horn = [(0.38, 0.3), (0.33, 0.12), (0.24, 0.03), (0.28, 0.02), (0.4, 0.1), (0.46, 0.28)]
        for pts in (horn, _mirror(horn)):
            pen.poly(pts, _HORN, _HORN_LINE)
    ear = [(0.34, 0.4), (0.1, 0.44), (0.12, 0.5), (0.34, 0.48)]
    if baby:
        ear = [(0.32, 0.46), (0.14, 0.5), (0.16, 0.56), (0.32, 0.54)]
    for pts in (ear, _mirror(ear)):
        pen.poly(pts, fur, line)
    if baby:
        pen.circle(0.5, 0.56, 0.22, fur, line)
        _eyes(pen, 0.52, 0.09, 0.06, goat=True)
        _muzzle(pen, 0.6, 0.74, 0.09, muzzle, line)
    else:
        pen.ellipse(0.33, 0.24, 0.67, 0.8, fur, line)
        pen.poly([(0.43, 0.76), (0.57, 0.76), (0.5, 0.97)], tint(line, 0.45), line)  # beard
        _eyes(pen, 0.44, 0.09, 0.05, goat=True)
        _muzzle(pen, 0.58, 0.78, 0.11, muzzle, line)


def _ram(pen: _Pen, baby: bool) -> None:
    fur, line, muzzle = _FUR["ram"]
    pen.poly([(0.38, 0.64), (0.62, 0.64), (0.66, 1.0), (0.34, 1.0)], _WOOL, dark(_WOOL, 0.7))
    for x in (0.36, 0.5, 0.64):
        pen.circle(x, 0.9, 0.1, _WOOL)
    if not baby:
        for side in (-1, 1):  # curled horns: a thick spiral of two arcs
            cx = 0.5 + side * 0.27
            pen.circle(cx, 0.44, 0.15, _HORN, _HORN_LINE)
            pen.circle(cx, 0.46, 0.08, tint(_HORN, 0.3), _HORN_LINE)
            pen.circle(cx + side * 0.01, 0.47, 0.03, _HORN_LINE)
    if baby:
        for x, y, r in ((0.38, 0.36, 0.1), (0.5, 0.31, 0.11), (0.62, 0.36, 0.1)):
            pen.circle(x, y, r, _WOOL, dark(_WOOL, 0.7), 0.7)
        ear = [(0.3, 0.48), (0.16, 0.54), (0.3, 0.58)]
        for pts in (ear, _mirror(ear)):
            pen.poly(pts, fur, line)
        pen.circle(0.5, 0.57, 0.2, fur, line)
        pen.ellipse(0.34, 0.36, 0.66, 0.46, _WOOL)
        _eyes(pen, 0.54, 0.085, 0.06)
        _muzzle(pen, 0.62, 0.75, 0.08, muzzle, line)
    else:
        pen.ellipse(0.36, 0.28, 0.64, 0.82, fur, line)
        for x, y, r in ((0.36, 0.26, 0.09), (0.5, 0.2, 0.11), (0.64, 0.26, 0.09),
                        (0.43, 0.3, 0.08), (0.57, 0.3, 0.08)):  # wool cap
            pen.circle(x, y, r, _WOOL, dark(_WOOL, 0.7), 0.7)
        _eyes(pen, 0.47, 0.085, 0.045)
        _muzzle(pen, 0.62, 0.8, 0.1, muzzle, line)


_DRAW = {"llama": _llama, "alpaca": _alpaca, "goat": _goat, "ram": _ram}


@sprite
def portrait(kind: str, baby: bool, size: int, disc: bool = True) -> Image.Image:
    """The RGBA portrait of ``kind`` (``"llama"``, ``"alpaca"``, ``"goat"``, ``"ram"``)
    on a ``size`` x ``size`` canvas: an adult, or a Baby (``baby``: smaller, rounder).
    With ``disc`` the head sits on a disc of the kind's colour. Raises ``KeyError`` for an
    unknown kind. Cached per arguments."""
    big = size * 4
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    pen = _Pen(d, big)
    colour = KIND_STYLE[kind][0]
    if disc:
        pen.circle(0.5, 0.5, 0.49, tint(colour, 0.45), dark(colour, 0.7), 2.0)
    head = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    hp = _Pen(ImageDraw.Draw(head), big)
    _DRAW[kind](hp, baby)
    if baby:  # smaller: the head shrinks towards the bottom of the disc
        small = int(big * 0.84)
        head = head.resize((small, small), Image.Resampling.BILINEAR)
        pad = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        pad.paste(head, ((big - small) // 2, big - small))
        head = pad
    if disc:  # keep the head inside the disc
        mask = Image.new("L", (big, big), 0)
        ImageDraw.Draw(mask).ellipse((big * 0.02, big * 0.02, big * 0.98, big * 0.98), fill=255)
        head.putalpha(ImageChops.multiply(head.getchannel("A"), mask))
    img.alpha_composite(head)
    if disc:
        d = ImageDraw.Draw(img)
        d.ellipse(pen.box(0.01, 0.01, 0.99, 0.99), outline=dark(colour, 0.7), width=pen.w * 2)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def _star_pts(cx: float, cy: float, r: float, inner: float = 0.45,
              points: int = 5) -> list[tuple[float, float]]:
    pts = []
    for i in range(points * 2):
        a = -math.pi / 2 + i * math.pi / points
        rr = r if i % 2 == 0 else r * inner
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def draw_icon(d: ImageDraw.ImageDraw, name: str, cx: float, cy: float, r: float,
              fill: RGB, line: RGB | None = None) -> None:
    """Draw the type icon ``name`` (see :data:`TYPE_FRAME`) centred at (cx, cy), about
    ``2r`` across."""
    w = max(1, int(r / 8))
    if name == "star":
        d.polygon(_star_pts(cx, cy, r), fill=fill, outline=line, width=w)
    elif name == "sparkle":
        d.polygon(_star_pts(cx, cy, r, 0.3, 4), fill=fill, outline=line, width=w)
        d.polygon(_star_pts(cx + r * 0.75, cy - r * 0.7, r * 0.4, 0.3, 4), fill=fill)
    elif name == "up":
        d.polygon([(cx, cy - r), (cx + r, cy + r * 0.1), (cx + r * 0.4, cy + r * 0.1),
                   (cx + r * 0.4, cy + r), (cx - r * 0.4, cy + r), (cx - r * 0.4, cy + r * 0.1),
                   (cx - r, cy + r * 0.1)], fill=fill, outline=line, width=w)
    elif name == "down":
        d.polygon([(cx, cy + r), (cx + r, cy - r * 0.1), (cx + r * 0.4, cy - r * 0.1),
                   (cx + r * 0.4, cy - r), (cx - r * 0.4, cy - r), (cx - r * 0.4, cy - r * 0.1),
                   (cx - r, cy - r * 0.1)], fill=fill, outline=line, width=w)
    elif name == "bolt":
        d.polygon([(cx + r * 0.25, cy - r), (cx - r * 0.6, cy + r * 0.15),
                   (cx - r * 0.05, cy + r * 0.15), (cx - r * 0.3, cy + r),
                   (cx + r * 0.6, cy - r * 0.2), (cx + r * 0.05, cy - r * 0.2)],
                  fill=fill, outline=line, width=w)
    elif name == "heart":
        d.ellipse((cx - r, cy - r * 0.75, cx, cy + r * 0.25), fill=fill)
        d.ellipse((cx, cy - r * 0.75, cx + r, cy + r * 0.25), fill=fill)
        d.polygon([(cx - r * 0.93, cy), (cx + r * 0.93, cy), (cx, cy + r)], fill=fill)
    else:  # hoof: two rounded toes
        d.ellipse((cx - r * 0.85, cy - r * 0.8, cx - r * 0.08, cy + r * 0.9), fill=fill,
                  outline=line, width=w)
        d.ellipse((cx + r * 0.08, cy - r * 0.8, cx + r * 0.85, cy + r * 0.9), fill=fill,
                  outline=line, width=w)


@sprite
def icon(name: str, size: int, fill: RGB = WHITE, disc: RGB | None = None) -> Image.Image:
    """A type icon as an RGBA ``size`` x ``size`` picture, on a disc of colour ``disc``
    when given (cached; drawn at 4x and shrunk)."""
    big = size * 4
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if disc is not None:
        d.ellipse((2, 2, big - 3, big - 3), fill=disc, outline=dark(disc, 0.7), width=big // 20)
    draw_icon(d, name, big / 2, big / 2, big * (0.3 if disc is not None else 0.46), fill,
              dark(fill, 0.6) if disc is None else None)
    return img.resize((size, size), Image.Resampling.LANCZOS)
