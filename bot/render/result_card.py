"""The result card: one picture of a finished game to share, the final table at a glance.

Pure: plain words and numbers in (prepared by ``bot.present.result_card``), PNG out.
:data:`WIDTH` px wide, as tall as its rows need (at most 1.3 times the width for 8
players); every text at least 14 px when shown 500 px wide. A rating change is told by
its sign and a triangle (up or down) as well as its colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from PIL import Image, ImageDraw

from bot.i18n import ENGLISH, translate
from bot.render.common import (
    Draw,
    Picture,
    draw_text,
    fit,
    font,
    measuring,
    min_font,
    picture,
    wrap,
)

WIDTH = 800
BG = (250, 246, 236)
BAND = (64, 92, 70)
BAND_INK = (250, 246, 236)
INK = (40, 40, 40)
SOFT = (104, 98, 88)
WIN_BG = (253, 228, 150)
ROW_BG = (240, 234, 220)
GOLD = (196, 140, 20)
UP = (30, 120, 50)
DOWN = (176, 40, 30)
#: px: the margin, the header band's and one row's height
MARGIN, BAND_H, ROW_H = 24, 124, 60


class CardRow(Protocol):
    """What the card reads of one seat's line (``bot.present.result_card.CardRow``): its
    place (1 first; ties share), name as typed, final score, the rating change as shown
    (``"+1.3"``, ``"-0.4"``, ``""`` when unrated), its sign (1 up, -1 down, 0 none), and
    whether it won."""

    @property
    def place(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def change(self) -> str: ...
    @property
    def trend(self) -> int: ...
    @property
    def won(self) -> bool: ...


def _fit(draw: ImageDraw.ImageDraw, text: str, fnt: object, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` px."""
    return fit(draw, [text], fnt, width)  # type: ignore[arg-type]


def _crown(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    """A winner's crown (three points on a band), ``size`` px wide, centred at (cx, cy)."""
    h, w = size * 0.7, size
    x0, y0 = cx - w / 2, cy - h / 2
    points = [(x0, y0 + h), (x0, y0 + h * 0.15), (x0 + w * 0.28, y0 + h * 0.55),
              (cx, y0), (x0 + w * 0.72, y0 + h * 0.55), (x0 + w, y0 + h * 0.15), (x0 + w, y0 + h)]
    draw.polygon(points, fill=GOLD, outline=INK)


def _triangle(draw: ImageDraw.ImageDraw, x: float, cy: float, up: bool, colour: tuple[int, int, int]
              ) -> None:
    """A 16 px triangle pointing up or down, its left edge at ``x``."""
    if up:
        draw.polygon([(x, cy + 7), (x + 16, cy + 7), (x + 8, cy - 8)], fill=colour)
    else:
        draw.polygon([(x, cy - 7), (x + 16, cy - 7), (x + 8, cy + 8)], fill=colour)


def result_card(*, title: str, headline: str, rows: Sequence[CardRow], length: str,
                highlight: str, rated: bool, lang: str = ENGLISH) -> Picture:
    """The card of one game: ``title`` (the game's name and number) and ``headline`` (who
    won) in the band, then one line per row in order (place, name, score, rating change
    when ``rated``), then ``length`` (turns and minutes) and ``highlight`` (the game's
    moment, wrapped on up to 2 lines); the column heads in ``lang`` (the words passed in
    are already in it). Raises ``ValueError`` for no rows or more than 8."""
    if not 1 <= len(rows) <= 8:
        raise ValueError(f"a result card has 1 to 8 rows, not {len(rows)}")
    small = min_font(WIDTH)
    body, bold = font(small + 3), font(small + 3, bold=True)
    label, big = font(small), font(small + 15, bold=True)
    probe = Draw(Image.new("RGB", (1, 1)))
    notes = wrap(probe, highlight, body, WIDTH - 2 * MARGIN - 28)[:2] if highlight else []
    table_top = BAND_H + MARGIN + 34
    foot_top = table_top + len(rows) * ROW_H + 18
    height = foot_top + 44 + len(notes) * 38 + (28 if notes else 0) + MARGIN
    img = Image.new("RGB", (WIDTH, height), BG)
    with measuring() as meter:
        draw = Draw(img)
        draw.rectangle((0, 0, WIDTH, BAND_H), fill=BAND)
        draw_text(draw, (MARGIN, 22), _fit(draw, title, label, WIDTH - 2 * MARGIN), label,
                  BAND_INK)
        for size in range(small + 15, small + 2, -3):  # smaller before cut
            big = font(size, bold=True)
            if draw.textlength(headline, font=big) <= WIDTH - 2 * MARGIN:
                break
        draw_text(draw, (MARGIN, 94), _fit(draw, headline, big, WIDTH - 2 * MARGIN), big,
                  BAND_INK, anchor="ls")
        # column heads
        score_x, change_x = WIDTH - MARGIN - 170 if rated else WIDTH - MARGIN - 16, WIDTH - MARGIN - 16
        y = BAND_H + MARGIN
        # the rating column's head may reach left to the score column's number
        score_head = fit(draw, [translate(lang, "Score")], label,
                         score_x - (MARGIN + 70) - 180)
        draw_text(draw, (MARGIN + 70, y), fit(draw, [translate(lang, "Player")], label, 170),
                  label, SOFT)
        draw_text(draw, (score_x, y), score_head, label, SOFT, anchor="ra")
        if rated:
            draw_text(draw, (change_x, y), fit(draw, [translate(lang, "Rating")], label,
                                               change_x - score_x - 10), label, SOFT, anchor="ra")
        for i, row in enumerate(rows):
            top = table_top + i * ROW_H
            cy = top + ROW_H / 2 - 3
            draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + ROW_H - 6), radius=10,
                                   fill=WIN_BG if row.won else ROW_BG)
            if row.won:
                _crown(draw, MARGIN + 30, cy, 34)
            else:
                draw_text(draw, (MARGIN + 30, cy), str(row.place), bold, SOFT, anchor="mm")
            name_room = score_x - 90 - (MARGIN + 70)
            draw_text(draw, (MARGIN + 70, cy), _fit(draw, row.name, bold if row.won else body,
                                                    name_room), bold if row.won else body, INK,
                      anchor="lm")
            draw_text(draw, (score_x, cy), str(row.score), bold, INK, anchor="rm")
            if rated and row.change:
                colour = UP if row.trend > 0 else DOWN if row.trend < 0 else SOFT
                draw_text(draw, (change_x, cy), row.change, bold, colour, anchor="rm")
                if row.trend:
                    wide = draw.textlength(row.change, font=bold)
                    _triangle(draw, change_x - wide - 24, cy, row.trend > 0, colour)
            elif rated:
                draw_text(draw, (change_x, cy), "\N{EM DASH}", body, SOFT, anchor="rm")
        draw_text(draw, (MARGIN, foot_top), length, body, INK)
        if notes:
            box_top = foot_top + 44
            draw.rounded_rectangle((MARGIN, box_top, WIDTH - MARGIN, box_top + 16 + len(notes) * 38),
                                   radius=12, outline=GOLD, width=3)
            for j, line in enumerate(notes):
                draw_text(draw, (MARGIN + 14, box_top + 8 + j * 38), line, body, INK)
    return picture(img, meter)


def render_card(**inputs: Any) -> bytes:
    """PNG bytes of :func:`result_card` (its keyword arguments)."""
    return result_card(**inputs).png
