"""Alpaca Pacapaca pictures: every alpaca as one drawing, side by side (Pillow shapes only).

- :func:`render_table` draws the table of a running (or finished) game from a view.
- :func:`render_final` draws the end: removed parts crossed out and a score table.

Each alpaca stands on a common ground line (so neck lengths compare at a glance): body at
the bottom, the neck cards as segments above it, the head on top, babies at the parent's
feet (the pieces are drawn by :mod:`bot.render.pacapaca_art`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot.games.pacapaca.cards import catalog, kind_table
from bot.games.pacapaca.models import AlpacaView, PacapacaView
from bot.games.pacapaca.scoring import analyse
from bot.i18n import ENGLISH, N_, translate, translate_n
from bot.render import pacapaca_sprites as sprites
from bot.render.common import (
    PROBE,
    Draw,
    Picture,
    cached_copy,
    font,
    kept_by,
    measuring,
    min_font,
    note_mark,
    sprite,
    wrap,
)
from bot.render.kept import inputs_key
from bot.render.mapped import blank
from bot.render.pacapaca_art import (
    ACTIVE_BG,
    BG,
    BOW,
    BOW_DARK,
    GROUND,
    GROUND_DARK,
    INK,
    MUD,
    MUD_DARK,
    PARTNER_BG,
    RED,
    RGB,
    SCARF_COLOURS,
    SOFT_INK,
    TEXT,
    WIDTH,
    Painter,
    Segment,
    _palette,
    dark,
    dashed_rect,
    draw_charm,
    fade,
    fit,
    hex_rgb,
    neck_segments,
    to_palette_png,
)

#: Table height per player count (fixed: the picture never changes size in a game).
HEIGHTS = {2: 880, 3: 880, 4: 960, 5: 1290, 6: 1290}
MARGIN = 16
HEADER_H = 64
NAME_H = 84
LEGEND_H = 100
ROW_H = 46
#: The height of a charm in the legend (14 px when the table is shown 500 px wide).
CHARM_KEY = min_font(WIDTH)


def layout(n: int) -> tuple[int, int, int]:
    """(width, height, alpacas per row) of the table for ``n`` players: fixed per player
    count (1000 px wide; one row of alpacas up to 4 players, two rows of 3 for 5-6)."""
    per_row = n if n <= 4 else 3
    return WIDTH, HEIGHTS.get(n, HEIGHTS[6]), per_row


def _row_geometry(width: int, per_row: int, rows: int, area_h: int, final: bool
                  ) -> tuple[int, float, int, int]:
    """(column width, shape scale k, neck area height, row height) for alpacas in ``rows``
    rows sharing ``area_h`` px of a picture ``width`` px wide."""
    col = (width - 2 * MARGIN) // per_row
    k = max(0.85, min(1.35 if per_row > 1 else 1.8, col / 230))  # one alone: a close-up
    if rows > 1:
        k = 0.85 if final else 1.0
    row_h = area_h // rows
    fixed = int(90 * k) + int(92 * k) + NAME_H + 12
    return col, k, max(40, row_h - fixed), row_h


def _names(view: PacapacaView, names: Mapping[str, str] | None) -> dict[str, str]:
    return {s: (names or {}).get(s, s) for s in view.seats}


def _header(d: ImageDraw.ImageDraw, view: PacapacaView, width: int,
            lang: str = ENGLISH, *, title: bool = True) -> None:
    """The header: the game's name (unless ``title`` is false: already on the base), the
    deck and pile counts or the final round's turns, the little card backs."""
    big, mid = font(34, True), font(TEXT)
    if title:
        d.text((MARGIN, HEADER_H // 2), "Alpaca Pacapaca", font=big, fill=INK, anchor="lm")
    info = translate(lang, "Deck {deck}   Pile {pile}", deck=view.deck_size,
                     pile=view.pile_size)
    if view.final is not None:
        info = translate(lang, "Final scores")
    elif view.final_round:
        info = translate(lang, "Deck {deck} · last turns: {turns}", deck=view.deck_size,
                         turns=view.final_turns_left)
    title_w = d.textlength("Alpaca Pacapaca", font=big)
    info = fit(d, info, mid, int(width - 2 * MARGIN - title_w - 60))
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
    lang: str = ENGLISH,
) -> None:
    """Draw ``alpacas`` in rows of ``per_row`` between ``top`` and ``top + area_h``."""
    cat = catalog()
    colours = {d.id: hex_rgb(d.colour) for d in [*cat.heads, *cat.bodies]}
    segs = {a.seat: neck_segments(a.neck, final=final) for a in alpacas}
    max_len = max((len(x) for x in segs.values()), default=0)
    rows = -(-len(alpacas) // per_row)
    col, k, neck_area, row_h = _row_geometry(img.width, per_row, rows, area_h, final)
    seg = max(6, min(int(40 * k), neck_area // max(1, max_len)))
    p = Painter(img, k, seg)
    d = p.d
    width = img.width
    name_font, small = font(30, True), font(TEXT)
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
        sprites.body(p, cx, ground, body_col)
        neck_top = sprites.neck(p, cx, body_top, segs[a.seat], body_col)
        sprites.head(p, cx, neck_top, a.head, head_col)
        _babies(p, a, x0, cx, ground, body_col, k)
        # name plate
        mark = ""
        if view.final is not None and a.seat in view.final.winners:
            mark = "★ "
        elif a.seat == view.active:
            mark = "▶ "
        elif neg is not None and a.seat == neg.partner:
            mark = "⇄ "
        nm = fit(d, mark + label.get(a.seat, a.seat), name_font, col - 16)
        d.text((x0 + col // 2, ground + 26), nm, font=name_font, fill=INK, anchor="mm")
        sub = translate(lang, "neck {count}", count=len(a.neck))
        if a.babies:
            sub += " · " + translate_n(lang, "{count} baby", "{count} babies", len(a.babies))
        if view.final is not None:
            fa = next(f for f in view.final.alpacas if f.seat == a.seat)
            sub = translate_n(lang, "{count} point", "{count} points", fa.total)
        d.text(
            (x0 + col // 2, ground + 60),
            fit(d, sub, small, col - 16),
            font=small,
            fill=INK if view.final is not None else SOFT_INK,
            anchor="mm",
        )


def _babies(
    p: Painter, a: AlpacaView, x0: int, cx: int, ground: int, colour: RGB, k: float
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
        p.baby(bx, ground, male, happy, fade(colour, 0.25, (255, 255, 255)))


#: The legend's keys and their words (translated when drawn).
LEGEND = (
    ("scarf", N_("scarf")),
    ("bow", N_("bow")),
    ("pendant_bell", N_("bell")),
    ("pendant_heart", N_("heart")),
    ("pendant_star", N_("star")),
    ("pendant_leaf", N_("leaf")),
    ("mud", N_("mud")),
    ("loose", N_("unfinished")),
)


def _legend(d: ImageDraw.ImageDraw, p: Painter, y: int, width: int,
            lang: str = ENGLISH) -> None:
    fnt = font(TEXT)
    items = [(role, translate(lang, text)) for role, text in LEGEND]
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
            dashed_rect(d, (x, cy - 11, x + 28, cy + 11), SOFT_INK)
        else:
            draw_charm(d, x + 14, cy, CHARM_KEY, role)
            note_mark(CHARM_KEY)
        x += 34
        d.text((x, cy), text, font=fnt, fill=INK, anchor="lm")
        x += int(d.textlength(text, font=fnt)) + 22
    p.k = saved


@sprite
def _base(width: int, height: int, lang: str = ENGLISH) -> Image.Image:
    """What every table ``width`` x ``height`` px shows in ``lang`` (cached per size,
    shared by the player counts of that size): the background, the game's name and the
    legend; nothing else is drawn over them."""
    img = Image.new("RGB", (width, height), BG)
    d = Draw(img)
    d.text((MARGIN, HEADER_H // 2), "Alpaca Pacapaca", font=font(34, True), fill=INK,
           anchor="lm")
    _legend(d, Painter(img, 1.0, 20), height - LEGEND_H, width, lang)
    return img


def table_picture(view: PacapacaView, *, names: Mapping[str, str] | None = None,
                  lang: str = ENGLISH) -> Picture:
    """The table as a :class:`~bot.render.common.Picture`: every alpaca with its name,
    whose turn it is (yellow, ▶), a negotiation partner (blue, ⇄), deck and pile
    counts and a legend. 1000 px wide, height fixed per player count (:func:`layout`),
    no text under 28 px. ``names``: seat -> display name (default: the seat id). A
    finished view is drawn as :func:`final_picture`. Words in ``lang``."""
    if view.final is not None:
        return final_picture(view, names=names, lang=lang)
    width, height, per_row = layout(len(view.alpacas))
    with measuring() as meter:
        # followed (bot.render.mapped): the alpacas' bodies and heads are pasted mapped
        img = cached_copy(_base(width, height, lang), _palette())
        d = Draw(img)
        _header(d, view, width, lang, title=False)
        _draw_alpacas(img, view, view.alpacas, _names(view, names), final=False, top=HEADER_H,
                      area_h=height - HEADER_H - LEGEND_H, per_row=per_row, lang=lang)
    return Picture(to_palette_png(img), img.size, meter.smallest, meter.smallest_mark)


def render_table(view: PacapacaView, *, names: Mapping[str, str] | None = None,
                 lang: str = ENGLISH) -> bytes:
    """PNG bytes of :func:`table_picture`."""
    return table_picture(view, names=names, lang=lang).png


def alpaca_picture(view: PacapacaView, seat: str, *, names: Mapping[str, str] | None = None,
                   lang: str = ENGLISH) -> Picture:
    """The close-up of ``seat``'s alpaca for "My hand": the one alpaca, larger than on
    the table, 700 x 860 px, with its name and neck length. Raises ``KeyError`` for a seat
    not in the game."""
    mine = [a for a in view.alpacas if a.seat == seat]
    if not mine:
        raise KeyError(seat)
    width, height = 700, 860
    with measuring() as meter:
        img = blank((width, height), BG, _palette())
        d = Draw(img)
        title = fit(d, translate(lang, "Your alpaca"), font(34, True), width - 2 * MARGIN)
        d.text((MARGIN, 36), title, font=font(34, True), fill=INK, anchor="lm")
        _draw_alpacas(img, view, mine, _names(view, names), final=view.final is not None,
                      top=70, area_h=height - 70, per_row=1, lang=lang)
    return Picture(to_palette_png(img), img.size, meter.smallest, meter.smallest_mark)


#: The score table's columns: the title (translated when drawn) and the prefixes of the
#: engine's score line labels summed in it.
SCORE_COLUMNS = [
    (N_("Neck"), ("Neck",)),
    (N_("Bow"), ("Bows",)),
    (N_("Scarf"), ("Scarves",)),
    (N_("Charm"), ("Charms",)),
    (N_("All 4"), ("All four",)),
    (N_("Mud"), ("Mud",)),
    (N_("Baby"), ("Baby",)),
]


def score_cells(lines) -> list[int | None]:
    """Sum a seat's score lines into the table columns (``None`` = no such line)."""
    out: list[int | None] = []
    for _, prefixes in SCORE_COLUMNS:
        pts = [ln.points for ln in lines if ln.label.startswith(prefixes)]
        out.append(sum(pts) if pts else None)
    return out


def final_picture(view: PacapacaView, *, names: Mapping[str, str] | None = None,
                  lang: str = ENGLISH) -> Picture:
    """The end of the game as a :class:`~bot.render.common.Picture`, the same size as the
    table: the alpacas with removed (incomplete) parts crossed out in red, winners
    starred, and a score table (neck, bows, scarves, charms, the all-four bonus, mud,
    babies, total) with one row per player.

    Raises ``ValueError`` if ``view.final`` is ``None`` (the game is not over)."""
    if view.final is None:
        raise ValueError("the game is not finished")
    width, height, per_row = layout(len(view.alpacas))
    rows = len(view.final.alpacas)
    cols = [*SCORE_COLUMNS, (N_("Total"), ())]
    unit = (width - 2 * MARGIN - 190) / len(cols)
    titles = [translate(lang, title) for title, _ in cols]
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    # column titles too wide for their column are staggered over two lines, each then
    # as wide as two columns
    heads = 1 if all(probe.textlength(t, font=font(TEXT)) <= unit - 2 for t in titles) else 2
    table_h = 16 + ROW_H * (rows + heads) + 12
    label = _names(view, names)
    with measuring() as meter:
        img = Image.new("RGB", (width, height), BG)  # not followed, as the table
        d = Draw(img)
        _header(d, view, width, lang)
        _draw_alpacas(img, view, view.alpacas, label, final=True, top=HEADER_H,
                      area_h=height - HEADER_H - table_h, per_row=per_row, lang=lang)
        y = height - table_h + 10
        x0 = MARGIN
        name_w = 190
        centres = [int(x0 + name_w + (j + 0.5) * unit) for j in range(len(cols))]
        head_f, cell_f, bold = font(TEXT), font(TEXT), font(TEXT, True)
        d.rounded_rectangle(
            (MARGIN - 6, y - 6, width - MARGIN + 6, height - 8),
            radius=14,
            fill=BG,
            outline=GROUND_DARK,
            width=2,
        )
        for j, title in enumerate(titles):
            line = j % heads
            d.text((centres[j], y + ROW_H * line + ROW_H // 2),
                   fit(d, title, head_f, int(unit * heads) - 2),
                   font=head_f, fill=SOFT_INK, anchor="mm")
        for r, fa in enumerate(view.final.alpacas):
            yy = y + ROW_H * (r + heads)
            if r % 2 == 0:
                d.rectangle((MARGIN, yy, width - MARGIN, yy + ROW_H), fill=(244, 236, 216))
            star = "★ " if fa.seat in view.final.winners else ""
            d.text((x0 + 8, yy + ROW_H // 2), fit(d, star + label[fa.seat], bold, name_w - 12),
                   font=bold, fill=INK, anchor="lm")
            for j, v in enumerate(score_cells(fa.lines)):
                txt = "·" if v is None else (f"+{v}" if v > 0 else str(v))
                col = RED if (v or 0) < 0 else INK
                d.text((centres[j], yy + ROW_H // 2), txt, font=cell_f, fill=col, anchor="mm")
            d.text((centres[-1], yy + ROW_H // 2), str(fa.total), font=bold, fill=INK,
                   anchor="mm")
    return Picture(to_palette_png(img), img.size, meter.smallest, meter.smallest_mark)


def render_final(view: PacapacaView, *, names: Mapping[str, str] | None = None,
                 lang: str = ENGLISH) -> bytes:
    """PNG bytes of :func:`final_picture`. Raises ``ValueError`` for a running game."""
    return final_picture(view, names=names, lang=lang).png


CARD_W, CARD_H = 300, 390


def render_cards(cards: Sequence[int], *, title: str | None = None,
                 lang: str = ENGLISH) -> bytes:
    """PNG bytes of :func:`cards_picture`."""
    return cards_picture(cards, title=title, lang=lang).png


def _cards_key(cards: Sequence[int], *, title: str | None = None,
               lang: str = ENGLISH) -> bytes:
    """What :func:`cards_picture` shows: every input."""
    return inputs_key(tuple(cards), title, lang)


@kept_by(_cards_key)
def cards_picture(cards: Sequence[int], *, title: str | None = None,
                  lang: str = ENGLISH) -> Picture:
    """``cards`` (neck-card or baby ids) as cards side by side, up to 3 a row, under
    ``title`` (wrapped whole over as many lines as it needs): the piece drawn on a bit of
    neck, its letter mark, name and a one-line reminder. For the ephemeral "you drew" /
    "my discards" answers, names and reminders in ``lang`` (``title`` comes translated).
    Raises ``KeyError`` for an unknown id. Kept by its inputs
    (:func:`~bot.render.common.kept_by`)."""
    cat = catalog()
    n = max(1, len(cards))
    per_row = min(n, 3)
    rows = (n + per_row - 1) // per_row
    width = per_row * (CARD_W + 16) + 16
    text = max(20, min_font(width))
    title_px = max(28, text)
    title_f = font(title_px, True)
    title_lines = wrap(PROBE, title or "", title_f, width - 32)
    top = 16 + len(title_lines) * (title_px + 10) + (8 if title_lines else 0)
    height = top + rows * (CARD_H + 16)
    with measuring() as meter:
        img = blank((width, height), BG, _palette())
        p = Painter(img, 2.0, 72)
        d = p.d
        for j, line in enumerate(title_lines):
            d.text((16, 16 + j * (title_px + 10)), line, font=title_f, fill=INK)
        fur = hex_rgb(cat.bodies[0].colour)
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
            small = font(text)
            lines = wrap(PROBE, translate(lang, kind.blurb), small, CARD_W - 28)
            # a reminder of 4 lines (a longer language) gets room from a shorter drawing
            lift = 30 if len(lines) > 3 else 0
            if len(lines) > 4:  # too long even so: its fourth line cut
                lines = [*lines[:3], fit(d, " ".join(lines[3:]), small, CARD_W - 28)]
            cx, nw, h = x0 + CARD_W // 2, 48, 72 - lift // 3
            art_top = y0 + 30
            if kind.group == "baby":
                p.baby(cx, art_top + 180, kind.kind == "baby_male", True, fur)
            else:
                d.rectangle(
                    (cx - nw, art_top, cx + nw, art_top + 3 * h),
                    fill=fur,
                    outline=dark(fur, 0.72),
                    width=2,
                )
                seg: Segment = (card, kind.kind, 0, "ok")
                ys = art_top + h
                if kind.group == "ribbon":
                    p.bow(cx, nw, ys, h, kind.kind, False, [seg], 0, alone=True)
                else:
                    p.segment(cx, nw, ys, h, seg, [seg], 0, fur)
            p.k = 2.0
            mark = font(max(26, text), True)
            d.rounded_rectangle(
                (x0 + 10, y0 + 10, x0 + 62, y0 + 46), radius=10, fill=BG, outline=SOFT_INK
            )
            d.text((x0 + 36, y0 + 28), kind.letter, font=mark, fill=INK, anchor="mm")
            d.text(
                (cx, y0 + 276 - lift - lift // 5),
                fit(d, translate(lang, kind.name), font(max(28, text), True), CARD_W - 20),
                font=font(max(28, text), True),
                fill=INK,
                anchor="mm",
            )
            for j, ln in enumerate(lines):
                d.text((cx, y0 + 310 - lift - lift // 5 * 2 + j * (text + 4)), ln, font=small,
                       fill=SOFT_INK, anchor="mm")
    return Picture(to_palette_png(img), img.size, meter.smallest, meter.smallest_mark)
