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
from bot.render.common import (
    Draw,
    Picture,
    cached_copy,
    draw_text,
    font,
    measuring,
    min_font,
    paste,
    pill,
    rounded_box,
    sprite,
    text_size,
)

WIDTH = 1000
#: The smallest text size (14 px when the picture is shown 500 px wide on a phone).
TEXT = min_font(WIDTH)
MARGIN = 16
ROW_CARD = (118, 156)
BOARD_CARD = (104, 128)
GAP = 8
BOARD_GAP = 6
PANEL_W = (WIDTH - 2 * MARGIN - 12) // 2
PANEL_HEAD = 58

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


@sprite
def card_tile(card_id: int, w: int, h: int, text: int = 0) -> Image.Image:
    """The RGBA picture of one card at ``w`` x ``h`` px (cached: cards never change): the
    animal drawn with its accessory, the digit or a star (top left), the colour as a
    patterned strip along the bottom with the colour's letter on it. ``text`` is the
    smallest font size to use (px; the digit and letter never go below it)."""
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
    strip_h = max(int(h * 0.12), int(text * 1.2))
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
    # the colour's letter on its patterned strip
    draw_text(d, (w / 2, (strip[1] + strip[3]) / 2 + 1), LETTER[c.colour],
              font(max(text, int(strip_h * 0.8)), True), (255, 255, 255), anchor="mm",
              stroke=3, stroke_fill=INK)
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
#
# Phone first: the picture is 1000 px wide and shown about 500 px wide on a phone, so no
# text is below TEXT = 28 px (14 px there) and the picture is at most 1.3 x 1000 px tall.
# Header bar, the row of six cards with the draw pile, then the boards two by two.


def _paste_card(img: Image.Image, card: Card, x: int, y: int, size: tuple[int, int]) -> None:
    paste(img, card_tile(card.id, *size, TEXT), (x, y))


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
        font(max(TEXT, int(w * 0.3)), True),
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
    """(height, header_h, row_top, row_h, boards_top, panel_h) for ``n_players``: fixed
    per player count (1 row of boards for 2 players, 2 rows for 3-4)."""
    panel_rows = 1 if n_players <= 2 else 2
    panel_h = PANEL_HEAD + 3 * BOARD_CARD[1] + 2 * BOARD_GAP + 14
    header_h = 60
    row_top = header_h + 10
    row_h = 40 + ROW_CARD[1] + 52
    boards_top = row_top + row_h + 12
    height = boards_top + panel_rows * panel_h + (panel_rows - 1) * 12 + MARGIN
    return height, header_h, row_top, row_h, boards_top, panel_h


def _panel_xy(k: int, boards_top: int, panel_h: int) -> tuple[int, int]:
    return MARGIN + (k % 2) * (PANEL_W + 12), boards_top + (k // 2) * (panel_h + 12)


def _space_xy(x: int, y: int, i: int) -> tuple[int, int]:
    bw, bh = BOARD_CARD
    return x + 12 + (i % 3) * (bw + BOARD_GAP), y + PANEL_HEAD + (i // 3) * (bh + BOARD_GAP)


def _row_x(i: int) -> int:
    return MARGIN + 6 + i * (ROW_CARD[0] + GAP)


@sprite
def _base(n_players: int) -> Image.Image:
    """Everything that never changes for ``n_players``: background, header bar, the row
    frame with its position labels, and each panel with empty spaces and treat icons."""
    height, header_h, row_top, row_h, boards_top, panel_h = _layout(n_players)
    img = Image.new("RGB", (WIDTH, height), TABLE)
    d = Draw(img)
    d.rectangle((0, 0, WIDTH, header_h), fill=(94, 66, 44))
    draw_text(d, (MARGIN, header_h / 2), "Llamas & Alpacas", font(32, True), (255, 244, 220),
              anchor="lm")
    rounded_box(d, (MARGIN - 6, row_top, WIDTH - MARGIN + 6, row_top + row_h), radius=16,
                fill=PAPER, outline=(200, 190, 175), width=2)
    cw, _ = ROW_CARD
    for i in range(6):
        cx = _row_x(i)
        if i == 0:
            pill(d, (cx + cw / 2, row_top + 21), "1 FREE", font(TEXT, True), fill=FREE_GREEN,
                 text_fill=(255, 255, 255), pad=(8, 2))
        else:
            pill(d, (cx + cw / 2, row_top + 21), str(i + 1), font(TEXT, True),
                 fill=(214, 204, 188), text_fill=INK, pad=(12, 2))
    bw, bh = BOARD_CARD
    for k in range(n_players):
        x, y = _panel_xy(k, boards_top, panel_h)
        rounded_box(d, (x, y, x + PANEL_W, y + panel_h), radius=16, fill=PANEL,
                    outline=(200, 190, 175), width=2)
        for i in range(9):
            sx, sy = _space_xy(x, y, i)
            rounded_box(d, (sx, sy, sx + bw, sy + bh), radius=10, fill=(238, 232, 220),
                        outline=(200, 190, 175), width=2)
            draw_text(d, (sx + bw / 2, sy + bh / 2), str(i + 1), font(TEXT, True),
                      (200, 188, 170), anchor="mm")
        tx = x + 12 + 3 * bw + 2 * BOARD_GAP + 14
        ty = y + PANEL_HEAD
        _clover(d, tx + 16, ty + 22, 12)
        _carrot(d, tx + 16, ty + 72, 12)
    if n_players == 3:
        _legend(img, d, *_panel_xy(3, boards_top, panel_h), PANEL_W, panel_h)
    return img


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int) -> None:
    """A key to the cards and the row, drawn in the free fourth panel (3 players)."""
    rounded_box(d, (x, y, x + w, y + h), radius=16, fill=PAPER, outline=(200, 190, 175), width=2)
    draw_text(d, (x + 16, y + 30), "How to read the table", font(30, True), INK, anchor="lm")
    body = font(TEXT)
    ly = y + 84
    r = 19
    for colour, words in (
        ("red", "red: stripes"),
        ("blue", "blue: dots"),
        ("green", "green: checks"),
        ("yellow", "yellow: lines"),
        ("white", "white: any colour"),
    ):
        cx, cy = x + 36, ly
        mask = Image.new("L", img.size, 0)
        ImageDraw.Draw(mask).ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
        img.paste(_pattern(colour, img.width, img.height), (0, 0), mask)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK, width=2)
        draw_text(d, (cx, cy), LETTER[colour], font(TEXT, True), (255, 255, 255), anchor="mm",
                  stroke=2, stroke_fill=INK)
        draw_text(d, (x + 68, cy), words, body, INK, anchor="lm")
        ly += 46
    draw_text(d, (x + 20, ly), "★", font(34, True), GOLD, anchor="lm", stroke=2, stroke_fill=INK)
    draw_text(d, (x + 68, ly), "a star is any digit", body, INK, anchor="lm")
    ly += 52
    for text in ("Card 1 is free; skipping a", "card costs a treat. Lines", "of 3 that match score."):
        draw_text(d, (x + 20, ly), text, body, INK, anchor="lm")
        ly += 38


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
        rounded_box(d, (x, y, x + w, y + h), radius=16, outline=GOLD, width=6)
    score = f"{p.score} pts"
    sf = font(30, True)
    sw = text_size(d, score, sf)[0]
    draw_text(d, (x + w - 14, y + 28), score, sf, INK, anchor="rm")
    mark = "★ " if winner else ("▶ " if active and not view.finished else "")
    name_font = font(30, True)
    shown = mark + name
    while text_size(d, shown, name_font)[0] > w - sw - 44 and len(shown) > 4:
        shown = shown[:-2] + "…"
    draw_text(d, (x + 14, y + 28), shown, name_font, INK, anchor="lm")
    bw, bh = BOARD_CARD
    for i, c in enumerate(p.board):
        cx, cy = _space_xy(x, y, i)
        if c is not None:
            _paste_card(img, c, cx, cy, BOARD_CARD)
        if i in spaces_hl:
            rounded_box(d, (cx - 4, cy - 4, cx + bw + 4, cy + bh + 4), radius=12, outline=GOLD,
                        width=5)
    sx = x + 12 + 3 * bw + 2 * BOARD_GAP + 14
    by = y + PANEL_HEAD
    tf = font(30, True)
    draw_text(d, (sx + 36, by + 22), f"×{p.clovers}", tf, INK, anchor="lm")
    draw_text(d, (sx + 36, by + 72), f"×{p.carrots}", tf, INK, anchor="lm")
    held: Card | None = None
    label = ""
    if p.start_card is not None:
        held, label = p.start_card, "Place"
    elif view.held is not None and view.active == p.seat:
        held, label = view.held, "Taken"
    if held is not None:
        draw_text(d, (sx, by + 128), label, font(TEXT, True), MUTED, anchor="lm")
        _paste_card(img, held, sx, by + 152, BOARD_CARD)
        rounded_box(d, (sx - 4, by + 148, sx + bw + 4, by + 156 + bh), radius=12, outline=GOLD,
                    width=4)
    elif view.keep is not None and view.active == p.seat:
        draw_text(d, (sx, by + 128), "Keeps", font(TEXT, True), MUTED, anchor="lm")
        draw_text(d, (sx, by + 164), "10", font(TEXT, True), MUTED, anchor="lm")


@cache
def _palette() -> Image.Image:
    """A 256-colour palette fitted (median cut, once per process) to everything the table
    uses: the base, every card tile at both sizes, treats, pile, outlines and text."""
    with measuring(propagate=False):
        base = _base(3)
        sizes = (BOARD_CARD, ROW_CARD)
        extra = sum(-(-82 // (WIDTH // (sz[0] + 4))) * (sz[1] + 4) for sz in sizes) + 200
        img = Image.new("RGB", (WIDTH, base.height + extra), TABLE)
        img.paste(base, (0, 0))
        y = base.height
        for size in sizes:
            per = WIDTH // (size[0] + 4)
            for k in range(82):
                tile = card_tile(k + 1, *size, TEXT)
                img.paste(tile, ((k % per) * (size[0] + 4), y + (k // per) * (size[1] + 4)), tile)
            y += -(-82 // per) * (size[1] + 4)
        d = ImageDraw.Draw(img)
        _face_down(d, 10, y + 10, 120, 160, "63")
        _treats(d, 150, y + 40, 3, 4, size=TEXT)
        rounded_box(d, (400, y + 10, 600, y + 190), radius=16, fill=PANEL, outline=GOLD, width=6)
        draw_text(d, (700, y + 40), "Maya 12 pts ×3", font(30, True), INK, anchor="lm")
        d.rectangle((0, y + 100, 300, y + 190), fill=(94, 66, 44))
        draw_text(d, (10, y + 140), "Game over", font(28, True), (255, 255, 255), anchor="lm")
        draw_text(d, (700, y + 120), "draw pile", font(TEXT, True), MUTED, anchor="lm")
    return img.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def table_picture(
    view: LlamasAlpacasView,
    *,
    highlight: Highlight | None = None,
    names: Mapping[str, str] | None = None,
) -> Picture:
    """The table as a :class:`~bot.render.common.Picture`: 1000 px wide, 788 px high for
    2 players and 1260 px for 3-4 (fixed per player count); no text under 28 px.

    Args:
        view: any seat's or the spectator's view (all show the same table).
        highlight: optional gold outlines: ``{"row": [positions 1-6], seat: [spaces 0-8]}``.
        names: display names per seat id (default: the seat ids).

    The first call in a process also builds the cached palette and card tiles (call
    :func:`warm_up` at start-up to pay it early). Pure: safe in a worker thread.
    """
    names = dict(names or {})
    hl = dict(highlight or {})
    height, header_h, row_top, row_h, boards_top, panel_h = _layout(len(view.players))
    pal = _palette()
    with measuring() as meter:
        img = cached_copy(_base(len(view.players)))
        d = Draw(img)
        st = font(30, True)
        title_w = text_size(d, "Llamas & Alpacas", font(32, True))[0]
        status = _status(view, names)
        while text_size(d, status, st)[0] > WIDTH - 3 * MARGIN - title_w and len(status) > 4:
            status = status[:-2] + "…"
        draw_text(d, (WIDTH - MARGIN, header_h / 2), status, st, (255, 255, 255), anchor="rm")

        # the row
        cw, ch = ROW_CARD
        cy = row_top + 40
        row_hl = set(hl.get("row", []))
        for i in range(6):
            cx = _row_x(i)
            if i < len(view.row):
                slot = view.row[i]
                _paste_card(img, slot.card, cx, cy, ROW_CARD)
                if slot.position in row_hl:
                    rounded_box(d, (cx - 5, cy - 5, cx + cw + 5, cy + ch + 5), radius=14,
                                outline=GOLD, width=5)
                if slot.clovers or slot.carrots:
                    tw = _treats_width(d, slot.clovers, slot.carrots, TEXT)
                    _treats(d, cx + (cw - tw) / 2, cy + ch + 26, slot.clovers, slot.carrots,
                            size=TEXT)
            else:
                rounded_box(d, (cx, cy, cx + cw, cy + ch), radius=12, outline=(200, 190, 175),
                            width=2)
        px = _row_x(6) + 4
        pw = WIDTH - MARGIN - px
        _face_down(d, px, cy - 30, pw, ch - 20, str(view.draw_count))
        draw_text(d, (px + pw / 2, cy + ch + 2), "draw pile", font(TEXT, True), MUTED,
                  anchor="mm")
        draw_text(d, (px + pw / 2, cy + ch + 34), f"discard {view.discard_count}",
                  font(TEXT, True), MUTED, anchor="mm")

        # the players
        for k, p in enumerate(view.players):
            x, y = _panel_xy(k, boards_top, panel_h)
            _panel(img, d, p, view, names.get(p.seat, p.seat), x, y, PANEL_W, panel_h,
                   hl.get(p.seat, []))
    return Picture(_encode(img, pal), img.size, meter.smallest)


def _encode(img: Image.Image, pal: Image.Image) -> bytes:
    import io

    buf = io.BytesIO()
    img.quantize(palette=pal, dither=Image.Dither.NONE).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def render_table(
    view: LlamasAlpacasView,
    *,
    highlight: Highlight | None = None,
    names: Mapping[str, str] | None = None,
) -> bytes:
    """PNG bytes of :func:`table_picture` (well under 8 MiB)."""
    return table_picture(view, highlight=highlight, names=names).png


BIG_CARD = (220, 272)


def board_picture(view: LlamasAlpacasView, seat: str, *, names: Mapping[str, str] | None = None
                  ) -> Picture:
    """The close-up of ``seat``'s board for "My hand": 736 px wide, the nine spaces with
    large cards, the score and treats, and a card still to place. Raises ``KeyError`` for
    a seat not in the game."""
    p = next((q for q in view.players if q.seat == seat), None)
    if p is None:
        raise KeyError(seat)
    name = (names or {}).get(seat, seat)
    bw, bh = BIG_CARD
    width = 3 * bw + 2 * 14 + 2 * 24
    text = min_font(width)
    held = p.start_card if p.start_card is not None else (
        view.held if view.held is not None and view.active == seat else None)
    top = 120
    height = top + 3 * bh + 2 * 14 + 24 + (bh + 70 if held is not None else 0)
    with measuring() as meter:
        img = Image.new("RGB", (width, height), TABLE)
        d = Draw(img)
        title = f"{name}: {p.score} pts"
        tf = font(34, True)
        while text_size(d, title, tf)[0] > width - 48 and len(title) > 4:
            title = title[:-2] + "…"
        draw_text(d, (24, 40), title, tf, INK, anchor="lm")
        x = _treats(d, 24, 92, p.clovers, p.carrots, size=max(text, 30), show_zero=True)
        draw_text(d, (x + 10, 92), f"treats (at most {10})", font(text), MUTED, anchor="lm")
        for i, c in enumerate(p.board):
            sx, sy = 24 + (i % 3) * (bw + 14), top + (i // 3) * (bh + 14)
            if c is None:
                rounded_box(d, (sx, sy, sx + bw, sy + bh), radius=14, fill=(238, 232, 220),
                            outline=(200, 190, 175), width=2)
                draw_text(d, (sx + bw / 2, sy + bh / 2), str(i + 1), font(48, True),
                          (200, 188, 170), anchor="mm")
            else:
                paste(img, card_tile(c.id, bw, bh, text), (sx, sy))
        if held is not None:
            y = top + 3 * bh + 28 + 10
            draw_text(d, (24, y + 20), "To place" if p.start_card is not None else "Taken",
                      font(text, True), MUTED, anchor="lm")
            paste(img, card_tile(held.id, bw, bh, text), (24, y + 50))
    return Picture(_encode(img, _palette()), img.size, meter.smallest)


def warm_up() -> None:
    """Build every cache (fonts, bases, all card tiles, the palette) ahead of the first
    table, e.g. in a worker thread at bot start-up. Pure and idempotent."""
    for n in (2, 3, 4):
        _base(n)
    _palette()
