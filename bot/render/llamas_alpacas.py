"""Table picture for Llamas & Alpacas: ``render_table(view) -> PNG bytes``.

Pure (no asyncio, no I/O besides the cached fonts); call it in a worker thread. Reads a
:class:`~bot.games.llamas_alpacas.engine.LlamasAlpacasView` only. Cards show the animal
(drawn, on a colour-coded background, with its name), the digit or a star, and the
accessory colour three ways: the colour, a pattern and a letter (R/B/G/Y, W = white, any
colour), so the picture works for colour-blind players.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache

from PIL import Image, ImageDraw

from bot.games.llamas_alpacas.cards import Card
from bot.games.llamas_alpacas.cards import card as card_by_id
from bot.games.llamas_alpacas.models import LlamasAlpacasView, PlayerView
from bot.render.common import draw_text, font, pill, rounded_box, text_size, to_png

WIDTH = 1140
MARGIN = 24
ROW_CARD = (150, 200)
BOARD_CARD = (112, 144)
GAP = 14
BOARD_GAP = 8

INK = (58, 44, 34)
PAPER = (250, 244, 232)
TABLE = (226, 238, 214)
PANEL = (255, 252, 245)
GOLD = (232, 170, 20)
MUTED = (120, 110, 100)
FREE_GREEN = (46, 139, 87)

ACCESSORY = {
    "red": (214, 64, 64),
    "blue": (52, 108, 214),
    "green": (46, 150, 72),
    "yellow": (240, 196, 40),
    "white": (246, 246, 246),
}
LETTER = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "white": "W"}
CARD_BG = {"llama": (255, 241, 214), "alpaca": (232, 226, 252)}
FUR = {"llama": (196, 146, 98), "alpaca": (250, 246, 238)}
FUR_LINE = {"llama": (120, 80, 48), "alpaca": (140, 118, 100)}

Highlight = Mapping[str, Sequence[int]]


# -- patterns and card tiles ----------------------------------------------------------------


@cache
def _pattern(colour: str, w: int, h: int) -> Image.Image:
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
    img.paste(_pattern(colour, img.width, img.height), (0, 0), shape)


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


@cache
def card_tile(card_id: int, w: int, h: int) -> Image.Image:
    """The RGBA picture of one card at ``w`` x ``h`` px (cached: cards never change)."""
    c = card_by_id(card_id)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
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
    size = min(w * 0.92, h * 0.6)
    ax, ay = (w - size) / 2 - w * 0.02, h * 0.2
    (_llama if c.animal == "llama" else _alpaca)(ad, md, ax, ay, size)
    _fill_pattern(art, c.colour, acc_mask)
    # outline the accessory so white shows on any background
    edge = acc_mask.filter(_EDGE)
    art.paste(INK, (0, 0), edge)
    strip_h = int(h * 0.16)
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
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(strip, radius=max(6, w // 14), outline=INK, width=2)
    word = c.animal.upper()
    fs = int(h * 0.105)
    draw_text(
        d,
        (w / 2, (strip[1] + strip[3]) / 2),
        word,
        font(fs, True),
        (255, 255, 255),
        anchor="mm",
        stroke=3,
        stroke_fill=INK,
    )
    # digit or star, top left
    ds = int(h * 0.2)
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
    # colour badge with letter, top right
    r = int(w * 0.15)
    cx, cy = w - r - int(w * 0.06), r + int(h * 0.04)
    badge = Image.new("L", (w, h), 0)
    ImageDraw.Draw(badge).ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
    img.paste(_pattern(c.colour, w, h), (0, 0), badge)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK, width=3)
    draw_text(
        d,
        (cx, cy),
        LETTER[c.colour],
        font(int(r * 1.3), True),
        (255, 255, 255),
        anchor="mm",
        stroke=3,
        stroke_fill=INK,
    )
    # the border again, on top of everything
    rounded_box(d, (0, 0, w - 1, h - 1), radius=max(8, w // 10), outline=INK, width=3)
    return img


class _EdgeFilter:
    """Lazily built Pillow edge filter (kept module-level to avoid rebuilding)."""

    def __init__(self) -> None:
        from PIL import ImageFilter

        self.filter = ImageFilter.Kernel((3, 3), [-1, -1, -1, -1, 8, -1, -1, -1, -1], 1, 0)


_EDGE = _EdgeFilter().filter


# -- treats ---------------------------------------------------------------------------------


def _clover(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A three-leaf clover centred at (cx, cy) with leaf radius ``r``."""
    green, dark = (64, 160, 72), (26, 90, 40)
    d.line([(cx, cy), (cx + r * 0.6, cy + r * 2.0)], fill=dark, width=max(2, int(r / 3)))
    for ang in (-90, 30, 150):
        a = math.radians(ang)
        x, y = cx + math.cos(a) * r * 0.85, cy + math.sin(a) * r * 0.85
        d.ellipse((x - r, y - r, x + r, y + r), fill=green, outline=dark, width=2)


def _carrot(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
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


def _treats(
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
    for n, icon in ((clovers, _clover), (carrots, _carrot)):
        if n == 0 and not show_zero:
            continue
        icon(d, x + r * 1.2, cy - r * 0.3, r)
        x += r * 2.6
        label = f"×{n}"
        draw_text(d, (x, cy), label, fnt, INK, anchor="lm")
        x += text_size(d, label, fnt)[0] + size * 0.6
    return x


def _treats_width(d: ImageDraw.ImageDraw, clovers: int, carrots: int, size: int) -> float:
    """The width :func:`_treats` would use."""
    fnt = font(size, True)
    r = size * 0.36
    x = 0.0
    for n in (clovers, carrots):
        if n:
            x += r * 2.6 + text_size(d, f"×{n}", fnt)[0] + size * 0.6
    return x - size * 0.6


# -- layout ------------------------------------------------------------------------------------


def _paste_card(img: Image.Image, card: Card, x: int, y: int, size: tuple[int, int]) -> None:
    tile = card_tile(card.id, *size)
    img.paste(tile, (x, y), tile)


def _face_down(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, label: str) -> None:
    rounded_box(d, (x, y, x + w, y + h), radius=14, fill=(120, 84, 56), outline=INK, width=3)
    rounded_box(
        d, (x + 8, y + 8, x + w - 8, y + h - 8), radius=10, outline=(210, 170, 120), width=2
    )
    for i in range(0, h - 24, 14):
        d.line([(x + 12, y + 12 + i), (x + w - 12, y + 12 + i)], fill=(140, 100, 68), width=2)
    draw_text(
        d,
        (x + w / 2, y + h / 2),
        label,
        font(34, True),
        (255, 255, 255),
        anchor="mm",
        stroke=3,
        stroke_fill=INK,
    )


def _status(view: LlamasAlpacasView, names: Mapping[str, str]) -> str:
    def n(seat: str) -> str:
        return names.get(seat, seat)

    if view.finished:
        if len(view.winners) == 1:
            return f"Game over - {n(view.winners[0])} wins!"
        return "Game over - shared victory: " + ", ".join(n(s) for s in view.winners)
    if view.phase == "setup":
        return "Set-up: place your starting card"
    assert view.active is not None
    step = {"turn": "to play", "choose_space": "places a card", "keep_treats": "keeps 10 treats"}[
        view.phase
    ]
    last = "  ·  last round!" if view.end_triggered else ""
    return f"{n(view.active)} {step}{last}"


def _layout(n_players: int) -> tuple[int, int, int, int, int, int]:
    """(height, header_h, row_top, row_h, boards_top, panel_h) for ``n_players``."""
    panel_rows = 1 if n_players <= 2 else 2
    panel_h = 72 + 3 * BOARD_CARD[1] + 2 * BOARD_GAP + 22
    header_h = 70
    row_top = header_h + 16
    row_h = 44 + ROW_CARD[1] + 52
    boards_top = row_top + row_h + 16
    height = boards_top + panel_rows * panel_h + (panel_rows - 1) * 20 + MARGIN
    return height, header_h, row_top, row_h, boards_top, panel_h


PANEL_W = (WIDTH - 2 * MARGIN - 20) // 2


def _panel_xy(k: int, boards_top: int, panel_h: int) -> tuple[int, int]:
    return MARGIN + (k % 2) * (PANEL_W + 20), boards_top + (k // 2) * (panel_h + 20)


def _space_xy(x: int, y: int, i: int) -> tuple[int, int]:
    bw, bh = BOARD_CARD
    return x + 18 + (i % 3) * (bw + BOARD_GAP), y + 72 + (i // 3) * (bh + BOARD_GAP)


@cache
def _base(n_players: int) -> Image.Image:
    """Everything that never changes for ``n_players``: background, header bar, the row
    frame with its position labels, and each panel with empty spaces and treat icons."""
    height, header_h, row_top, row_h, boards_top, panel_h = _layout(n_players)
    img = Image.new("RGB", (WIDTH, height), TABLE)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, header_h), fill=(94, 66, 44))
    draw_text(
        d, (MARGIN, header_h / 2), "Llamas & Alpacas", font(34, True), (255, 244, 220), anchor="lm"
    )
    rounded_box(
        d,
        (MARGIN - 8, row_top, WIDTH - MARGIN + 8, row_top + row_h),
        radius=18,
        fill=PAPER,
        outline=(200, 190, 175),
        width=2,
    )
    cw, _ = ROW_CARD
    for i in range(6):
        cx = MARGIN + 8 + i * (cw + GAP)
        if i == 0:
            pill(
                d,
                (cx + cw / 2, row_top + 22),
                "1 · FREE",
                font(22, True),
                fill=FREE_GREEN,
                text_fill=(255, 255, 255),
                pad=(12, 4),
            )
        else:
            pill(
                d,
                (cx + cw / 2, row_top + 22),
                str(i + 1),
                font(22, True),
                fill=(214, 204, 188),
                text_fill=INK,
                pad=(14, 4),
            )
    bw, bh = BOARD_CARD
    for k in range(n_players):
        x, y = _panel_xy(k, boards_top, panel_h)
        rounded_box(
            d,
            (x, y, x + PANEL_W, y + panel_h),
            radius=18,
            fill=PANEL,
            outline=(200, 190, 175),
            width=2,
        )
        for i in range(9):
            sx, sy = _space_xy(x, y, i)
            rounded_box(
                d,
                (sx, sy, sx + bw, sy + bh),
                radius=12,
                fill=(238, 232, 220),
                outline=(200, 190, 175),
                width=2,
            )
            draw_text(
                d,
                (sx + bw / 2, sy + bh / 2),
                str(i + 1),
                font(26, True),
                (205, 195, 180),
                anchor="mm",
            )
        tx = x + 18 + 3 * bw + 2 * BOARD_GAP + 22
        ty = y + 72
        draw_text(d, (tx, ty + 14), "Treats", font(22, True), MUTED, anchor="lm")
        _clover(d, tx + 14, ty + 52, 11)
        _carrot(d, tx + 14, ty + 100, 11)
    if n_players == 3:
        _legend(img, d, *_panel_xy(3, boards_top, panel_h), PANEL_W, panel_h)
    return img


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int) -> None:
    """A key to the cards and the row, drawn in the free fourth panel (3 players)."""
    rounded_box(d, (x, y, x + w, y + h), radius=18, fill=PAPER, outline=(200, 190, 175), width=2)
    draw_text(d, (x + 20, y + 36), "How to read the table", font(28, True), INK, anchor="lm")
    body = font(22)
    bold = font(22, True)
    ly = y + 84
    r = 17
    for colour, words in (
        ("red", "red - stripes"),
        ("blue", "blue - dots"),
        ("green", "green - checks"),
        ("yellow", "yellow - lines"),
        ("white", "white - any colour"),
    ):
        cx, cy = x + 38, ly
        mask = Image.new("L", img.size, 0)
        ImageDraw.Draw(mask).ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
        img.paste(_pattern(colour, img.width, img.height), (0, 0), mask)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK, width=2)
        draw_text(
            d,
            (cx, cy),
            LETTER[colour],
            font(20, True),
            (255, 255, 255),
            anchor="mm",
            stroke=2,
            stroke_fill=INK,
        )
        draw_text(d, (x + 68, cy), words, body, INK, anchor="lm")
        ly += 42
    draw_text(d, (x + 26, ly), "★", font(30, True), GOLD, anchor="lm", stroke=2, stroke_fill=INK)
    draw_text(d, (x + 68, ly), "a star is any digit", body, INK, anchor="lm")
    ly += 52
    for head, text in (
        ("Take:", "card 1 is free; pay each card"),
        ("", "you skip: a clover for a llama,"),
        ("", "a carrot for an alpaca."),
        ("Score:", "a line of 3 with the same animal,"),
        ("", "colour, or digits (2-2-2, 1-2-3):"),
        ("", "1 / 2 / 3 matches = 2 / 4 / 6 pts."),
    ):
        if head:
            draw_text(d, (x + 26, ly), head, bold, INK, anchor="lm")
        draw_text(d, (x + 118, ly), text, body, INK, anchor="lm")
        ly += 32


def _panel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    p: PlayerView,
    view: LlamasAlpacasView,
    name: str,
    x: int,
    y: int,
    w: int,
    h: int,
    spaces_hl: Sequence[int],
) -> None:
    """The per-state parts of one player's panel, drawn over the cached base."""
    active = view.active == p.seat or (view.phase == "setup" and not p.placed_start)
    winner = p.seat in view.winners
    if (active and not view.finished) or winner:
        rounded_box(d, (x, y, x + w, y + h), radius=18, outline=GOLD, width=6)
    name_font = font(30, True)
    shown = name
    while text_size(d, shown, name_font)[0] > w - 250 and len(shown) > 4:
        shown = shown[:-2] + "…"
    draw_text(d, (x + 20, y + 36), shown, name_font, INK, anchor="lm")
    score = f"{p.score} pts"
    draw_text(d, (x + w - 20, y + 36), score, font(32, True), INK, anchor="rm")
    tag = None
    if winner:
        tag = "WINNER"
    elif active and not view.finished:
        tag = "PLACING" if view.phase == "setup" else "TURN"
    if tag:
        sw = text_size(d, score, font(32, True))[0]
        tw = text_size(d, tag, font(20, True))[0]
        pill(
            d,
            (x + w - 20 - sw - 22 - tw / 2, y + 36),
            tag,
            font(20, True),
            fill=GOLD,
            text_fill=INK,
            pad=(10, 5),
        )
    bw, bh = BOARD_CARD
    for i, c in enumerate(p.board):
        cx, cy = _space_xy(x, y, i)
        if c is not None:
            _paste_card(img, c, cx, cy, BOARD_CARD)
        if i in spaces_hl:
            rounded_box(
                d, (cx - 4, cy - 4, cx + bw + 4, cy + bh + 4), radius=14, outline=GOLD, width=5
            )
    sx = x + 18 + 3 * bw + 2 * BOARD_GAP + 22
    by = y + 72
    draw_text(d, (sx + 36, by + 56), f"×{p.clovers}", font(30, True), INK, anchor="lm")
    draw_text(d, (sx + 36, by + 104), f"×{p.carrots}", font(30, True), INK, anchor="lm")
    held: Card | None = None
    label = ""
    if p.start_card is not None:
        held, label = p.start_card, "To place"
    elif view.held is not None and view.active == p.seat:
        held, label = view.held, "Taken"
    if held is not None:
        draw_text(d, (sx, by + 160), label, font(22, True), MUTED, anchor="lm")
        _paste_card(img, held, sx, by + 180, BOARD_CARD)
        rounded_box(
            d, (sx - 4, by + 176, sx + bw + 4, by + 184 + bh), radius=14, outline=GOLD, width=4
        )
    elif view.keep is not None and view.active == p.seat:
        draw_text(d, (sx, by + 160), "Keeps 10", font(22, True), MUTED, anchor="lm")


@cache
def _palette() -> Image.Image:
    """A 256-colour palette fitted (median cut, once per process) to everything the table
    uses: the base, every card tile at both sizes, treats, pile, outlines and text."""
    base = _base(3)
    cols = WIDTH // (BOARD_CARD[0] + 4)
    rows = -(-82 // cols)
    extra = (
        rows * (BOARD_CARD[1] + 4)
        + (-(-82 // (WIDTH // (ROW_CARD[0] + 4)))) * (ROW_CARD[1] + 4)
        + 200
    )
    img = Image.new("RGB", (WIDTH, base.height + extra), TABLE)
    img.paste(base, (0, 0))
    y = base.height
    for size in (BOARD_CARD, ROW_CARD):
        per = WIDTH // (size[0] + 4)
        for k in range(82):
            tile = card_tile(k + 1, *size)
            img.paste(tile, ((k % per) * (size[0] + 4), y + (k // per) * (size[1] + 4)), tile)
        y += -(-82 // per) * (size[1] + 4)
    d = ImageDraw.Draw(img)
    _face_down(d, 10, y + 10, 120, 160, "63")
    _treats(d, 150, y + 40, 3, 4, size=28)
    rounded_box(d, (400, y + 10, 600, y + 190), radius=16, fill=PANEL, outline=GOLD, width=6)
    pill(d, (700, y + 40), "WINNER", font(20, True), fill=GOLD, text_fill=INK)
    draw_text(d, (800, y + 40), "Maya 12 pts ×3", font(30, True), INK, anchor="lm")
    d.rectangle((0, y + 100, 300, y + 190), fill=(94, 66, 44))
    draw_text(d, (10, y + 140), "Game over", font(28, True), (255, 255, 255), anchor="lm")
    draw_text(d, (700, y + 120), "draw pile", font(20, True), MUTED, anchor="lm")
    return img.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def render_table(
    view: LlamasAlpacasView,
    *,
    highlight: Highlight | None = None,
    names: Mapping[str, str] | None = None,
) -> bytes:
    """Render the table as PNG bytes (1140 px wide; 964 px high for 2 players and 1526 px
    for 3-4; the first call in a process also builds the cached palette and card tiles,
    about 1 s of CPU: call :func:`warm_up` at start-up to pay it early).

    Args:
        view: any seat's or the spectator's view (all show the same table).
        highlight: optional gold outlines: ``{"row": [positions 1-6], seat: [spaces 0-8]}``.
        names: display names per seat id (default: the seat ids).

    Returns PNG bytes (well under 8 MiB). Pure: safe to run in a worker thread.
    """
    names = dict(names or {})
    hl = dict(highlight or {})
    height, header_h, row_top, row_h, boards_top, panel_h = _layout(len(view.players))
    img = _base(len(view.players)).copy()
    d = ImageDraw.Draw(img)
    draw_text(
        d,
        (WIDTH - MARGIN, header_h / 2),
        _status(view, names),
        font(28, True),
        (255, 255, 255),
        anchor="rm",
    )

    # the row
    cw, ch = ROW_CARD
    cy = row_top + 44
    row_hl = set(hl.get("row", []))
    for i in range(6):
        cx = MARGIN + 8 + i * (cw + GAP)
        if i < len(view.row):
            slot = view.row[i]
            _paste_card(img, slot.card, cx, cy, ROW_CARD)
            if slot.position in row_hl:
                rounded_box(
                    d, (cx - 5, cy - 5, cx + cw + 5, cy + ch + 5), radius=16, outline=GOLD, width=5
                )
            if slot.clovers or slot.carrots:
                tw = _treats_width(d, slot.clovers, slot.carrots, 28)
                _treats(d, cx + (cw - tw) / 2, cy + ch + 26, slot.clovers, slot.carrots, size=28)
        else:
            rounded_box(d, (cx, cy, cx + cw, cy + ch), radius=14, outline=(200, 190, 175), width=2)
    px = MARGIN + 8 + 6 * (cw + GAP) + 6
    pw = WIDTH - MARGIN - px
    _face_down(d, px, cy, pw, ch - 40, str(view.draw_count))
    draw_text(d, (px + pw / 2, cy + ch - 22), "draw pile", font(20, True), MUTED, anchor="mm")
    draw_text(
        d,
        (px + pw / 2, cy + ch + 26),
        f"discard {view.discard_count}",
        font(20, True),
        MUTED,
        anchor="mm",
    )

    # the players
    for k, p in enumerate(view.players):
        x, y = _panel_xy(k, boards_top, panel_h)
        _panel(
            img, d, p, view, names.get(p.seat, p.seat), x, y, PANEL_W, panel_h, hl.get(p.seat, [])
        )
    return to_png(img.quantize(palette=_palette(), dither=Image.Dither.NONE))


def warm_up() -> None:
    """Build every cache (fonts, bases, all card tiles, the palette) ahead of the first
    table, e.g. in a worker thread at bot start-up. Pure and idempotent."""
    for n in (2, 3, 4):
        _base(n)
    for cid in range(1, 83):
        card_tile(cid, *ROW_CARD)
        card_tile(cid, *BOARD_CARD)
    _palette()
