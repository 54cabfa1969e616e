"""A member's rating history as a small line chart (``/stats show``): one line per game,
the rating (ordinal) after each of the last rated games, oldest left. Pure: series in,
PNG out; legible on a phone (text >= 14 px at 500 px wide)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.i18n import ENGLISH, decimal
from bot.render.common import Draw, Picture, draw_text, fit, font, measuring, min_font, picture

WIDTH, HEIGHT = 600, 300
BG = (250, 248, 240)
GRID = (214, 208, 192)
INK = (40, 40, 40)
#: One colour per line (a member plays at most three games), told apart by lightness too.
COLOURS = [(46, 125, 50), (21, 101, 192), (191, 54, 12)]
#: px between two rows of the legend
LEGEND_ROW = 30


def rating_chart(series: Sequence[tuple[str, Sequence[float]]], lang: str = ENGLISH
                 ) -> Picture:
    """The chart of ``series`` (``(game name, ratings oldest first)``; at most 3 lines,
    empty series left out), :data:`WIDTH` x :data:`HEIGHT` px, a legend at the top (each
    game's name and last rating, in rows as they fit) and the
    lowest and highest rating on the left axis; numbers written the way ``lang`` writes
    them (the names come in ``lang`` already). Raises ``ValueError`` when every series is
    empty."""
    lines = [(name, list(values)) for name, values in series[:len(COLOURS)] if values]
    if not lines:
        raise ValueError("no rating to draw")
    size = min_font(WIDTH)
    small, bold = font(size), font(size, bold=True)
    img = Image.new("RGB", (WIDTH, HEIGHT), BG)
    with measuring() as meter:
        draw = Draw(img)
        # legend: a swatch and the game's name per line, left to right
        x, y = 12, 22
        for i, (name, values) in enumerate(lines):
            last = f" {decimal(lang, values[-1])}"  # the name is cut to fit, never the number
            label = fit(draw, [name], bold, WIDTH - 54 - draw.textlength(last, font=bold)) + last
            wide = 30 + int(draw.textlength(label, font=bold))
            if x > 12 and x + wide > WIDTH - 12:  # the next legend row
                x, y = 12, y + LEGEND_ROW
            draw.rectangle((x, y - 8, x + 22, y + 8), fill=COLOURS[i])
            draw_text(draw, (x + 30, y), label, bold, INK, anchor="lm")
            x += wide + 20
        low = min(min(v) for _, v in lines)
        high = max(max(v) for _, v in lines)
        if high - low < 1.0:
            low, high = low - 0.5, high + 0.5
        left, top, right, bottom = 78, y + 28, WIDTH - 14, HEIGHT - 18
        for value, y in ((high, top), (low, bottom)):
            draw.line((left, y, right, y), fill=GRID, width=2)
            draw_text(draw, (left - 8, y), decimal(lang, value), small, INK, anchor="rm")
        most = max(len(v) for _, v in lines)
        for i, (_, values) in enumerate(lines):
            step = (right - left) / max(most - 1, 1)
            points = [(left + j * step, bottom - (v - low) / (high - low) * (bottom - top))
                      for j, v in enumerate(values)]
            if len(points) == 1:
                px, py = points[0]
                draw.ellipse((px - 6, py - 6, px + 6, py + 6), fill=COLOURS[i])
            else:
                draw.line(points, fill=COLOURS[i], width=5, joint="curve")
                px, py = points[-1]
                draw.ellipse((px - 6, py - 6, px + 6, py + 6), fill=COLOURS[i])
    return picture(img, meter)
