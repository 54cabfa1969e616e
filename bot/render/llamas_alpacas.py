"""Table picture for Llamas & Alpacas: ``render_table(view) -> PNG bytes``.

Pure (no asyncio, no I/O besides the cached fonts); call it in a worker thread. Reads a
:class:`~bot.games.llamas_alpacas.engine.LlamasAlpacasView` only. The cards are drawn by
:mod:`bot.render.llamas_alpacas_art`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from PIL import Image, ImageDraw

from bot.games.llamas_alpacas.cards import Card
from bot.games.llamas_alpacas.models import LlamasAlpacasView, PlayerView
from bot.i18n import ENGLISH, N_, translate, translate_n
from bot.render.common import (
    Draw,
    Picture,
    cached_copy,
    draw_text,
    fit,
    font,
    kept_by,
    measuring,
    min_font,
    palette_png,
    paste,
    pill,
    rounded_box,
    sprite,
    text_size,
    wrap,
)
from bot.render.kept import inputs_key
from bot.render.llamas_alpacas_art import (
    GOLD,
    INK,
    card_tile,
    carrot,
    clover,
    draw_symbol,
    pattern,
    treats,
    treats_width,
)
from bot.render.mapped import blank, mapped

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

PAPER = (250, 244, 232)
TABLE = (226, 238, 214)
PANEL = (255, 252, 245)
MUTED = (120, 110, 100)
FREE_GREEN = (46, 139, 87)
#: The row's positions as they are labelled above it (ordinals, so they do not read as
#: prices); the first is free (its label, then a shorter form for when it does not fit).
ORDINALS = (N_("1st free"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"), N_("6th"))
FIRST_SHORT = N_("gratis")
#: The key of the cards drawn in a 3-player game's free panel: colour, pattern.
COLOUR_WORDS = (("red", N_("red: stripes")), ("blue", N_("blue: dots")),
                ("green", N_("green: checks")), ("yellow", N_("yellow: lines")),
                ("white", N_("white: any colour")))
#: The number of an empty board space.
SLOT_TEXT = 36

Highlight = Mapping[str, Sequence[int]]


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


def _status(view: LlamasAlpacasView, names: Mapping[str, str], lang: str = ENGLISH,
            cut: int | None = None) -> str:
    """The header's sentence in ``lang``; each name cut to ``cut`` characters (and an
    ellipsis) when given, so the sentence fits by shortening names, not words."""
    def n(seat: str) -> str:
        name = names.get(seat, seat)
        return name if cut is None or len(name) <= cut else name[:cut].rstrip() + "…"

    if view.finished:
        if len(view.winners) == 1:
            return translate(lang, "Game over - {name} wins!", name=n(view.winners[0]))
        return translate(lang, "Game over - shared victory: {names}",
                         names=", ".join(n(s) for s in view.winners))
    if view.phase == "setup":
        return translate(lang, "Set-up: place your starting card")
    assert view.active is not None
    name = n(view.active)
    if view.end_triggered:
        if view.phase == "choose_space":
            return translate(lang, "{name} places a card  ·  last round!", name=name)
        if view.phase == "keep_treats":
            return translate(lang, "{name} keeps 10 treats  ·  last round!", name=name)
        return translate(lang, "{name} to play  ·  last round!", name=name)
    if view.phase == "choose_space":
        return translate(lang, "{name} places a card", name=name)
    if view.phase == "keep_treats":
        return translate(lang, "{name} keeps 10 treats", name=name)
    return translate(lang, "{name} to play", name=name)


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


def _first_label(d: ImageDraw.ImageDraw, lang: str) -> str:
    """The first position's label in ``lang``: "1st free", or its short form when that
    is wider than the room the first card and the next label leave it."""
    room = ROW_CARD[0] + GAP + ROW_CARD[0] / 2 - 10 - 2 * 5 - (
        d.textlength(translate(lang, ORDINALS[1]), font=font(TEXT)) / 2 + 12)
    return fit(d, [translate(lang, ORDINALS[0]), translate(lang, FIRST_SHORT)], font(TEXT),
               min(room, 2 * ROW_CARD[0]))


@sprite
def _base(n_players: int, lang: str = ENGLISH) -> Image.Image:
    """Everything that never changes for ``n_players``: background, header bar, the row
    frame with its position labels, and each panel with empty spaces and treat icons,
    in ``lang``."""
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
            label = _first_label(d, lang)
            # centred on the card, or left-aligned with it when wider than the card
            centre = max(cx + cw / 2, cx - 6 + d.textlength(label, font=font(TEXT)) / 2 + 5)
            pill(d, (centre, row_top + 21), label, font(TEXT), fill=FREE_GREEN,
                 text_fill=(255, 255, 255), pad=(5, 2))
        else:
            pill(d, (cx + cw / 2, row_top + 21), translate(lang, ORDINALS[i]), font(TEXT),
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
            draw_text(d, (sx + bw / 2, sy + bh / 2), str(i + 1), font(SLOT_TEXT, True),
                      MUTED, anchor="mm")
        tx = x + 12 + 3 * bw + 2 * BOARD_GAP + 14
        ty = y + PANEL_HEAD
        clover(d, tx + 16, ty + 22, 12)
        carrot(d, tx + 16, ty + 72, 12)
    if n_players == 3:
        _legend(img, d, *_panel_xy(3, boards_top, panel_h), PANEL_W, panel_h, lang)
    return img


#: px: the legend's line height, and its colour rows' step at most and at least.
LEGEND_LINE, LEGEND_STEP, LEGEND_STEP_MIN = 38, 46, 40
#: px: the colour symbols in the legend (as tall as the smallest text).
LEGEND_SYMBOL = TEXT


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int,
            lang: str = ENGLISH) -> None:
    """A key to the cards and the row, drawn in the free fourth panel (3 players), in
    ``lang``: the colour rows close up (down to :data:`LEGEND_STEP_MIN`) when the closing
    sentence takes more lines."""
    rounded_box(d, (x, y, x + w, y + h), radius=16, fill=PAPER, outline=(200, 190, 175), width=2)
    draw_text(d, (x + 16, y + 30), fit(d, [translate(lang, "How to read the table"),
                                           translate(lang, "Key")], font(30, True), w - 32),
              font(30, True), INK, anchor="lm")
    body = font(TEXT)
    notes = wrap(d, translate(lang, "Card 1 is free; skipping a card costs a treat. Lines of "
                                    "3 that match score."), body, w - 36)
    # from the first colour row (84 px down, or 70 when tight) to the last note's
    # centre (24 px above the bottom): 5 colour rows, the star's row, the notes
    room = h - 24 - 84 - 6 - (len(notes) - 1) * LEGEND_LINE
    step = max(LEGEND_STEP_MIN, min(LEGEND_STEP, room // 6))
    ly = y + 84 - (14 if 6 * step > room else 0)
    for colour, words in COLOUR_WORDS:
        # a swatch like a card's strip: the colour, its pattern and its symbol
        cx, cy = x + 37, ly
        box = (cx - 22, cy - 19, cx + 22, cy + 19)
        mask = Image.new("L", img.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(box, radius=8, fill=255)
        img.paste(pattern(colour, img.width, img.height), (0, 0), mask)
        d.rounded_rectangle(box, radius=8, outline=INK, width=2)
        draw_symbol(img, colour, cx, cy, LEGEND_SYMBOL)
        draw_text(d, (x + 68, cy), fit(d, [translate(lang, words)], body, w - 84), body, INK,
                  anchor="lm")
        ly += step
    draw_text(d, (x + 20, ly), "★", font(34, True), GOLD, anchor="lm", stroke=2, stroke_fill=INK)
    draw_text(d, (x + 68, ly), fit(d, [translate(lang, "a star is any digit")], body, w - 84),
              body, INK, anchor="lm")
    ly += 52 - (LEGEND_STEP - step)
    for text in notes:
        draw_text(d, (x + 20, ly), text, body, INK, anchor="lm")
        ly += LEGEND_LINE


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
    lang: str = ENGLISH,
) -> None:
    """The per-state parts of one player's panel, drawn over the cached base, in
    ``lang``."""
    active = view.active == p.seat or (view.phase == "setup" and not p.placed_start)
    winner = p.seat in view.winners
    if (active and not view.finished) or winner:
        rounded_box(d, (x, y, x + w, y + h), radius=16, outline=GOLD, width=6)
    score = translate_n(lang, "{count} pt", "{count} pts", p.score)
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
    labels: list[str] = []
    room = x + w - 6 - sx
    if p.start_card is not None:
        held, labels = p.start_card, [translate(lang, "Place"), translate(lang, "Put")]
    elif view.held is not None and view.active == p.seat:
        held, labels = view.held, [translate(lang, "Taken"), translate(lang, "Got")]
    if held is not None:
        draw_text(d, (sx, by + 128), fit(d, labels, font(TEXT, True), room), font(TEXT, True),
                  MUTED, anchor="lm")
        _paste_card(img, held, sx, by + 152, BOARD_CARD)
        rounded_box(d, (sx - 4, by + 148, sx + bw + 4, by + 156 + bh), radius=12, outline=GOLD,
                    width=4)
    elif view.keep is not None and view.active == p.seat:
        keeps = fit(d, [translate(lang, "Keeps"), translate(lang, "Kept")], font(TEXT, True),
                    room)
        draw_text(d, (sx, by + 128), keeps, font(TEXT, True), MUTED, anchor="lm")
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
        treats(d, 150, y + 40, 3, 4, size=TEXT)
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
    lang: str = ENGLISH,
) -> Picture:
    """The table as a :class:`~bot.render.common.Picture`: 1000 px wide, 788 px high for
    2 players and 1260 px for 3-4 (fixed per player count); no text under 28 px.

    Args:
        view: any seat's or the spectator's view (all show the same table).
        highlight: optional gold outlines: ``{"row": [positions 1-6], seat: [spaces 0-8]}``.
        names: display names per seat id (default: the seat ids).
        lang: the language of its words (:mod:`bot.i18n`; the game's).

    The first call in a process also builds the cached palette and card tiles (call
    :func:`warm_up` at start-up to pay it early). Pure: safe in a worker thread.
    """
    names = dict(names or {})
    hl = dict(highlight or {})
    height, header_h, row_top, row_h, boards_top, panel_h = _layout(len(view.players))
    pal = _palette()
    with measuring() as meter:
        img = cached_copy(_base(len(view.players), lang), pal)
        d = Draw(img)
        st = font(30, True)
        title_w = text_size(d, "Llamas & Alpacas", font(32, True))[0]
        room = WIDTH - 3 * MARGIN - title_w
        status = _status(view, names, lang)
        cut = max((len(n) for n in names.values()), default=0)
        while text_size(d, status, st)[0] > room and cut > 3:  # names shortened first
            cut -= 1
            status = _status(view, names, lang, cut)
        short = [translate(lang, "Place your starting card")] if view.phase == "setup" else []
        status = fit(d, [status, *short], st, room)
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
                    tw = treats_width(d, slot.clovers, slot.carrots, TEXT)
                    treats(d, cx + (cw - tw) / 2, cy + ch + 26, slot.clovers, slot.carrots,
                            size=TEXT)
            else:
                rounded_box(d, (cx, cy, cx + cw, cy + ch), radius=12, outline=(200, 190, 175),
                            width=2)
        px = _row_x(6) + 4
        pw = WIDTH - MARGIN - px
        _face_down(d, px, cy - 30, pw, ch - 20, str(view.draw_count))
        pile_room = pw + MARGIN - 4
        draw_text(d, (px + pw / 2, cy + ch + 2),
                  fit(d, [translate(lang, "draw pile"), translate(lang, "pile")],
                      font(TEXT, True), pile_room), font(TEXT, True), MUTED, anchor="mm")
        discard = [translate(lang, "discard {count}", count=view.discard_count),
                   translate(lang, "disc. {count}", count=view.discard_count)]
        draw_text(d, (px + pw / 2, cy + ch + 34), fit(d, discard, font(TEXT, True), pile_room),
                  font(TEXT, True), MUTED, anchor="mm")

        # the players
        for k, p in enumerate(view.players):
            x, y = _panel_xy(k, boards_top, panel_h)
            _panel(img, d, p, view, names.get(p.seat, p.seat), x, y, PANEL_W, panel_h,
                   hl.get(p.seat, []), lang)
    return Picture(_encode(img, pal), img.size, meter.smallest, meter.smallest_mark)


def _encode(img: Image.Image, pal: Image.Image) -> bytes:
    return palette_png(mapped(img, pal))


def render_table(
    view: LlamasAlpacasView,
    *,
    highlight: Highlight | None = None,
    names: Mapping[str, str] | None = None,
    lang: str = ENGLISH,
) -> bytes:
    """PNG bytes of :func:`table_picture` (well under 8 MiB)."""
    return table_picture(view, highlight=highlight, names=names, lang=lang).png


BIG_CARD = (220, 272)


def _held(view: LlamasAlpacasView, seat: str) -> Card | None:
    """The card ``seat`` still has to place (its start card, or the one it took), or
    ``None``; raises ``KeyError`` for a seat not in the game."""
    p = next((q for q in view.players if q.seat == seat), None)
    if p is None:
        raise KeyError(seat)
    return p.start_card if p.start_card is not None else (
        view.held if view.held is not None and view.active == seat else None)


def _board_key(view: LlamasAlpacasView, seat: str, *, names: Mapping[str, str] | None = None,
               lang: str = ENGLISH) -> bytes | None:
    """What :func:`board_picture` shows: the seat's board, score and treats, its name,
    the card to place and whether it is the starting card, the language (``None`` for a seat not in the game)."""
    p = next((q for q in view.players if q.seat == seat), None)
    if p is None:
        return None
    return inputs_key(p.board, p.score, p.clovers, p.carrots, _held(view, seat),
                      p.start_card is not None, (names or {}).get(seat, seat), lang)


@kept_by(_board_key)
def board_picture(view: LlamasAlpacasView, seat: str, *, names: Mapping[str, str] | None = None,
                  lang: str = ENGLISH) -> Picture:
    """The close-up of ``seat``'s board for "My hand": 736 px wide, the nine spaces with
    large cards, the score and treats, and a card still to place, in ``lang`` (the
    member's). Raises ``KeyError`` for a seat not in the game. Kept by what it shows
    (:func:`~bot.render.common.kept_by`)."""
    p = next((q for q in view.players if q.seat == seat), None)
    if p is None:
        raise KeyError(seat)
    name = (names or {}).get(seat, seat)
    bw, bh = BIG_CARD
    width = 3 * bw + 2 * 14 + 2 * 24
    text = min_font(width)
    held = _held(view, seat)
    top = 120
    height = top + 3 * bh + 2 * 14 + 24 + (bh + 70 if held is not None else 0)
    with measuring() as meter:
        img = blank((width, height), TABLE, _palette())
        d = Draw(img)
        tf = font(34, True)

        def head(who: str) -> str:
            return translate_n(lang, "{name}: {count} pt", "{name}: {count} pts", p.score,
                               name=who)

        while text_size(d, head(name), tf)[0] > width - 48 and len(name) > 2:
            name = name[:-2].rstrip() + "…"  # the name is cut to fit, never the score
        draw_text(d, (24, 40), head(name), tf, INK, anchor="lm")
        x = treats(d, 24, 92, p.clovers, p.carrots, size=max(text, 30), show_zero=True)
        draw_text(d, (x + 10, 92), fit(d, [translate(lang, "treats (at most {limit})", limit=10),
                                           translate(lang, "(at most {limit})", limit=10)],
                                       font(text), width - 24 - x - 10),
                  font(text), MUTED, anchor="lm")
        for i, c in enumerate(p.board):
            sx, sy = 24 + (i % 3) * (bw + 14), top + (i // 3) * (bh + 14)
            if c is None:
                rounded_box(d, (sx, sy, sx + bw, sy + bh), radius=14, fill=(238, 232, 220),
                            outline=(200, 190, 175), width=2)
                draw_text(d, (sx + bw / 2, sy + bh / 2), str(i + 1), font(48, True), MUTED,
                          anchor="mm")
            else:
                paste(img, card_tile(c.id, bw, bh, text), (sx, sy))
        if held is not None:
            y = top + 3 * bh + 28 + 10
            draw_text(d, (24, y + 20), translate(lang, "To place") if p.start_card is not None
                      else translate(lang, "Taken"), font(text, True), MUTED, anchor="lm")
            paste(img, card_tile(held.id, bw, bh, text), (24, y + 50))
    return Picture(_encode(img, _palette()), img.size, meter.smallest, meter.smallest_mark)


def warm_up() -> None:
    """Build every cache (fonts, bases, all card tiles, the palette) ahead of the first
    table, e.g. in a worker thread at bot start-up. Pure and idempotent."""
    for n in (2, 3, 4):
        _base(n)
    _palette()
