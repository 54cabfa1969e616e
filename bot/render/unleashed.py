"""Llamas Unleashed pictures (Pillow): the public table, a player's close-up and card faces.

Phone first: a picture is shown about 500 px wide in Discord on a phone, so every text here
is at least :func:`~bot.render.common.min_font` of the picture's width (14 px at 500 px)
and a table is never taller than 1.3 times its width. Art is our own
(:mod:`bot.render.herd_art`): a portrait per kind (Llama, Alpaca, Goat, Ram; Babies
smaller and rounder) and a frame colour plus icon per card type.

- :func:`render_table` / :func:`table_picture`: every player's Field as a little herd
  (Animals grouped by kind, each a chip with its portrait and short name; Magical Animals
  in a gold frame with a star, Babies in round chips; Upgrades with an up arrow,
  Downgrades with a down arrow), Animals towards the win, hand size, the shared counts, the
  pile of played cards, whose turn it is. Only public information: never who may answer
  a reaction window. Fixed size per player count: 1000 px wide, 2 columns of Fields.
- :func:`render_hand` / :func:`hand_picture`: the close-up for "My hand": the viewer's
  Field and hand as larger cards.
- :func:`render_card` / :func:`card_picture`: one card as a real card for ``/card``.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import cache

from PIL import Image, ImageDraw

from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import CardView, FieldView, UnleashedView
from bot.render.common import (
    RGB,
    Draw,
    Picture,
    cached_copy,
    font,
    measuring,
    min_font,
    paste,
    picture,
    sprite,
)
from bot.render.herd_art import (
    KIND_STYLE,
    TYPE_FRAME,
    dark,
    draw_icon,
    icon,
    portrait,
    tint,
)

WIDTH = 1000
#: The smallest text size on the table (14 px when shown 500 px wide).
TEXT = min_font(WIDTH)
MARGIN = 16
GAP = 12
COL_W = (WIDTH - 2 * MARGIN - GAP) // 2
CHIP_H = 42
CHIP_GAP = 4
PANEL_PAD = 10
NAME_LINE = 44
HEADER_H = 156
LEGEND_H = 96

BG: RGB = (246, 241, 230)
INK: RGB = (40, 34, 28)
MUTED: RGB = (110, 98, 86)
FIELD: RGB = (234, 243, 220)
FIELD_LINE: RGB = (160, 190, 130)
ACTIVE: RGB = (255, 236, 179)
GOLD: RGB = (201, 150, 20)
ALERT: RGB = (170, 40, 40)

#: Non-animal card types -> (colour, one-character symbol), for the words and cogs.
TYPE_STYLE: dict[str, tuple[RGB, str]] = {
    "magic": (TYPE_FRAME["magic"][0], "\u2726"),
    "upgrade": (TYPE_FRAME["upgrade"][0], "\u25b2"),
    "downgrade": (TYPE_FRAME["downgrade"][0], "\u25bc"),
    "instant": (TYPE_FRAME["instant"][0], "!"),
}
TYPE_WORDS = {t: words for t, (_, _, words) in TYPE_FRAME.items()}
PHASE_WORDS = {
    "setup": "choosing Babies", "start": "start of turn", "action": "Action phase",
    "end": "end of turn", "over": "game over",
}
_BABY_WORDS = ("Cria ", "Kid ", "Lamb ")


def _fit(d: ImageDraw.ImageDraw, text: str, fnt: object, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` px."""
    if d.textlength(text, font=fnt) <= width:  # type: ignore[arg-type]
        return text
    while text and d.textlength(text + "\u2026", font=fnt) > width:  # type: ignore[arg-type]
        text = text[:-1]
    return text.rstrip() + "\u2026"


def wrap(d: ImageDraw.ImageDraw, text: str, fnt: object, width: int) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` px (a single word
    wider than ``width`` keeps its own line)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if d.textlength(trial, font=fnt) <= width or not line:  # type: ignore[arg-type]
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def short_name(name: str, ctype: str, kind: str | None) -> str:
    """The name as a chip shows it: the kind word goes (the portrait shows the kind):
    ``"Trail Llama"`` -> ``"Trail"``, ``"Cria Wisp"`` -> ``"Wisp"``; others unchanged."""
    if ctype == "baby":
        for w in _BABY_WORDS:
            if name.startswith(w):
                return name[len(w):]
    if ctype in ("basic", "magical") and kind and name.endswith(" " + kind.title()):
        return name[: -len(kind) - 1]
    return name


def _kind_of(c: CardView) -> str | None:
    return c.kinds[0] if c.kinds else None


_PROBE = ImageDraw.Draw(Image.new("RGB", (1, 1)))


# -- chips (the small cards of a Field) -------------------------------------------------


@sprite
def _chip(name: str, ctype: str, kind: str | None) -> Image.Image:
    """The chip of one Field card (RGBA): portrait or type icon, short name; a frame
    by type (Basic: square corners; Baby: round; Magical: gold frame and a star)."""
    label = short_name(name, ctype, kind)
    fnt = font(TEXT)
    tw = int(_PROBE.textlength(label, font=fnt))
    star = 28 if ctype == "magical" else 0
    w = CHIP_H + 8 + tw + 12 + star
    img = Image.new("RGBA", (w, CHIP_H), (0, 0, 0, 0))
    d = Draw(img)
    frame, icon_name, _ = TYPE_FRAME.get(ctype, TYPE_FRAME["basic"])
    if kind in KIND_STYLE and ctype in ("baby", "basic", "magical"):
        colour = KIND_STYLE[kind][0]
        fill = tint(colour, 0.8)
        outline, width = (GOLD, 4) if ctype == "magical" else (dark(colour, 0.8), 2)
        radius = CHIP_H // 2 if ctype == "baby" else 6
        d.rounded_rectangle((0, 0, w - 1, CHIP_H - 1), radius=radius, fill=fill,
                            outline=outline, width=width)
        art = portrait(kind, ctype == "baby", CHIP_H - 4)
        paste(img, art, (2, 2))
    else:
        fill = tint(frame, 0.8)
        d.rounded_rectangle((0, 0, w - 1, CHIP_H - 1), radius=6, fill=fill,
                            outline=dark(frame, 0.8), width=2)
        paste(img, icon(icon_name, CHIP_H - 4, disc=frame), (2, 2))
    d.text((CHIP_H + 6, CHIP_H // 2), label, font=fnt, fill=INK, anchor="lm")
    if star:
        draw_icon(d, "star", w - 22, CHIP_H / 2, 11, GOLD, dark(GOLD, 0.6))
    return img


@sprite
def _tag(text: str) -> Image.Image:
    """A red-outlined note chip (``"skips next turn"``)."""
    fnt = font(TEXT)
    w = int(_PROBE.textlength(text, font=fnt)) + 20
    img = Image.new("RGBA", (w, CHIP_H), (0, 0, 0, 0))
    d = Draw(img)
    d.rounded_rectangle((0, 0, w - 1, CHIP_H - 1), radius=8, fill=(255, 240, 236),
                        outline=ALERT, width=2)
    d.text((10, CHIP_H // 2), text, font=fnt, fill=ALERT, anchor="lm")
    return img


def _groups(f: FieldView) -> list[tuple[str, list[CardView]]]:
    """(group, cards) for each non-empty group of a Field in drawing order: the Animals by
    kind as they count now (``"llama"``, ...), then ``"upgrade"`` and ``"downgrade"``."""
    out: list[tuple[str, list[CardView]]] = []
    by_kind: dict[str, list[CardView]] = {}
    for c in f.animals:
        by_kind.setdefault(_kind_of(c) or "?", []).append(c)
    for k in ("llama", "alpaca", "goat", "ram", "?"):
        if k in by_kind:
            out.append((k, by_kind[k]))
    if f.upgrades:
        out.append(("upgrade", list(f.upgrades)))
    if f.downgrades:
        out.append(("downgrade", list(f.downgrades)))
    return out


def _field_pieces(f: FieldView) -> list[Image.Image]:
    pieces = []
    for group, cards in _groups(f):
        for c in cards:
            kind = group if group in KIND_STYLE else None
            pieces.append(_chip(c.name, c.type, kind))
    if f.skips_next_turn:
        pieces.append(_tag("skips next turn"))
    if f.shielded_kinds:
        pieces.append(_tag("shield: " + ", ".join(k.title() for k in f.shielded_kinds)))
    if not f.may_play_instants:
        pieces.append(_tag("no Instants"))
    return pieces


def _flow(img: Image.Image, d: ImageDraw.ImageDraw, pieces: list[Image.Image], x0: int,
          y0: int, width: int, rows: int) -> None:
    """Lay ``pieces`` left to right in at most ``rows`` rows; what does not fit becomes a
    ``+N`` chip at the end."""
    x, row = x0, 0
    more = _tag("+99").width + CHIP_GAP
    for i, p in enumerate(pieces):
        rest = len(pieces) - i - 1
        while True:
            reserve = more if row == rows - 1 and rest else 0
            if x + p.width <= x0 + width - reserve:
                paste(img, p, (x, y0 + row * (CHIP_H + CHIP_GAP)))
                x += p.width + CHIP_GAP
                break
            if row < rows - 1 and x > x0:
                row, x = row + 1, x0
                continue
            paste(img, _tag(f"+{rest + 1}"), (x, y0 + row * (CHIP_H + CHIP_GAP)))
            return


# -- the table --------------------------------------------------------------------------


def layout(n: int) -> tuple[int, int, int, int]:
    """(height, panel rows, panel height, chip rows per Field) of the table for ``n``
    players: Fields in two columns; an odd count leaves the last cell to the legend."""
    panel_rows = (n + 1) // 2
    chip_rows = 5 if n <= 6 else 4
    panel_h = PANEL_PAD + NAME_LINE + chip_rows * (CHIP_H + CHIP_GAP) - CHIP_GAP + PANEL_PAD
    legend = 0 if n % 2 else LEGEND_H
    height = HEADER_H + panel_rows * (panel_h + GAP) + legend + MARGIN - GAP
    return height, panel_rows, panel_h, chip_rows


def _panel_xy(k: int, panel_h: int) -> tuple[int, int]:
    return MARGIN + (k % 2) * (COL_W + GAP), HEADER_H + (k // 2) * (panel_h + GAP)


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, width: int) -> None:
    """The key: the four portraits with their kinds, then the type frames."""
    fnt = font(TEXT)
    items: list[tuple[Image.Image, str]] = [
        (portrait(k, False, 38), k.title()) for k in KIND_STYLE]
    items += [(icon(TYPE_FRAME[t][1], 38, disc=TYPE_FRAME[t][0]), TYPE_FRAME[t][2].split()[0])
              for t in ("magical", "baby", "upgrade", "downgrade")]
    lx, ly = x, y
    for art, word in items:
        w = 38 + 8 + int(d.textlength(word, font=fnt)) + 22
        if lx + w > x + width:
            lx, ly = x, ly + 46
        paste(img, art, (lx, ly))
        d.text((lx + 46, ly + 19), word, font=fnt, fill=INK, anchor="lm")
        lx += w


@sprite
def _base(n: int) -> Image.Image:
    """Background, title and legend of the table for ``n`` players (cached)."""
    height, _, panel_h, _ = layout(n)
    img = Image.new("RGB", (WIDTH, height), BG)
    d = Draw(img)
    d.text((MARGIN, 16), "Llamas Unleashed", font=font(36, True), fill=INK)
    if n % 2:
        x, y = _panel_xy(n, panel_h)
        d.rounded_rectangle((x, y, x + COL_W, y + panel_h), radius=14, fill=(255, 252, 245),
                            outline=(205, 195, 175), width=2)
        d.text((x + 14, y + 12), "Key", font=font(30, True), fill=INK)
        _legend(img, d, x + 14, y + 56, COL_W - 20)
    else:
        _legend(img, d, MARGIN, height - LEGEND_H + 4, WIDTH - 2 * MARGIN)
    return img


def _names(view: UnleashedView, names: Mapping[str, str] | None) -> dict[str, str]:
    names = names or {}
    return {s: names.get(s, s) for s in view.seats}


def _header(d: ImageDraw.ImageDraw, view: UnleashedView, nm: dict[str, str]) -> None:
    counts = (f"Deck {view.deck_count} \u00b7 Discard {len(view.discard)} \u00b7 "
              f"Nursery {len(view.nursery)}")
    d.text((WIDTH - MARGIN, 22), counts, font=font(TEXT), fill=INK, anchor="ra")
    if view.phase == "over":
        res = view.result
        turn = (" and ".join(nm[s] for s in res.winners) + " wins!") if res and res.winners \
            else "Game over: everyone loses."
    elif view.phase == "setup":
        turn = "Everyone is choosing a Baby"
    else:
        who = nm.get(view.active or "", "?")
        turn = f"Turn {view.turn}: {who} \u2013 {PHASE_WORDS[view.phase]}"
    d.text((MARGIN, 66), _fit(d, turn, font(32, True), WIDTH - 2 * MARGIN),
           font=font(32, True), fill=INK)
    y = 110
    if view.stack:
        parts = []
        for item in view.stack:
            where = ""
            if item.field and item.field != item.seat:
                where = f" into {nm.get(item.field, item.field)}'s Field"
            parts.append(f"{nm.get(item.seat, item.seat)}: {item.card.name}{where}")
        text = "On the pile: " + "  \u2190  ".join(reversed(parts))
        d.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + 40), radius=10,
                            fill=(255, 226, 214), outline=(214, 120, 90), width=2)
        d.text((MARGIN + 12, y + 20), _fit(d, text, font(TEXT, True), WIDTH - 2 * MARGIN - 24),
               font=font(TEXT, True), fill=INK, anchor="lm")
    else:
        top = view.discard[-1].name if view.discard else "empty"
        d.text((MARGIN, y + 20), f"Top of the discard pile: {top}", font=font(TEXT),
               fill=MUTED, anchor="lm")


def _panel(img: Image.Image, d: ImageDraw.ImageDraw, view: UnleashedView, seat: str,
           name: str, x: int, y: int, panel_h: int, chip_rows: int, winners: set[str]) -> None:
    f = view.fields[seat]
    active = seat == view.active and view.phase not in ("setup", "over")
    lit = active or seat in winners
    d.rounded_rectangle((x, y, x + COL_W, y + panel_h), radius=14,
                        fill=ACTIVE if lit else FIELD, outline=GOLD if lit else FIELD_LINE,
                        width=5 if lit else 2)
    right = f"{f.animal_count}/{f.animals_to_win} \u00b7 hand {view.hand_sizes.get(seat, 0)}"
    if f.hand_limit != 7:
        right += f"/{f.hand_limit}"
    rf = font(TEXT, True)
    rw = d.textlength(right, font=rf)
    near = f.animal_count >= f.animals_to_win - 1
    d.text((x + COL_W - PANEL_PAD - 4, y + PANEL_PAD + 20), right, font=rf,
           fill=ALERT if near else INK, anchor="rm")
    marker = "\u25b6 " if active else ("\u2605 " if seat in winners else "")
    nf = font(30, True)
    d.text((x + PANEL_PAD + 4, y + PANEL_PAD + 20),
           _fit(d, marker + name, nf, COL_W - 2 * PANEL_PAD - rw - 24), font=nf, fill=INK,
           anchor="lm")
    pieces = _field_pieces(f)
    top = y + PANEL_PAD + NAME_LINE
    if not pieces:
        d.text((x + PANEL_PAD + 4, top + CHIP_H // 2), "empty Field", font=font(TEXT),
               fill=MUTED, anchor="lm")
        return
    _flow(img, d, pieces, x + PANEL_PAD, top, COL_W - 2 * PANEL_PAD, chip_rows)


@cache
def _palette() -> Image.Image:
    """A 256-colour palette fitted once to everything the table draws: the bases, every
    chip of every card, the tags and the highlight colours."""
    cat = catalog()
    tiles: list[Image.Image] = [_base(n) for n in (2, 3)]
    for design in cat.designs.values():
        kinds: Sequence[str | None] = (design.kind,) if design.kind else (None,)
        if design.type in ("baby", "basic", "magical"):
            kinds = tuple(KIND_STYLE)
        for k in kinds:
            tiles.append(_chip(design.name, design.type, k))
    tiles.append(_tag("skips next turn"))
    w = WIDTH
    y = x = row_h = 0
    placed = []
    for t in tiles:
        if x + t.width > w:
            x, y, row_h = 0, y + row_h, 0
        placed.append((t, x, y))
        x += t.width
        row_h = max(row_h, t.height)
    sheet = Image.new("RGB", (w, y + row_h + 120), BG)
    for t, px, py in placed:
        if t.mode == "RGBA":
            sheet.paste(t, (px, py), t)
        else:
            sheet.paste(t, (px, py))
    d = ImageDraw.Draw(sheet)
    for i, c in enumerate((ACTIVE, GOLD, FIELD, FIELD_LINE, (255, 226, 214), (214, 120, 90),
                           ALERT, MUTED, INK)):
        d.rectangle((i * 60, y + row_h + 10, i * 60 + 50, y + row_h + 110), fill=c)
    return sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                          dither=Image.Dither.NONE)


def _encode(img: Image.Image, meter: object) -> Picture:
    pal = img.quantize(palette=_palette(), dither=Image.Dither.NONE)
    return Picture(_png_bytes(pal), img.size, meter.smallest)  # type: ignore[attr-defined]


def _png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def table_picture(view: UnleashedView, *, names: Mapping[str, str] | None = None) -> Picture:
    """The public table as a :class:`~bot.render.common.Picture` (see the module doc;
    ``names`` maps seat ids to display names, seat ids are shown otherwise). Uses only the
    public parts of ``view``: Fields, hand sizes, piles, turn and phase."""
    nm = _names(view, names)
    n = len(view.seats)
    with measuring() as meter:
        _, _, panel_h, chip_rows = layout(n)
        img = cached_copy(_base(n))
        d = Draw(img)
        _header(d, view, nm)
        winners = set(view.result.winners) if view.result else set()
        for k, seat in enumerate(view.seats):
            x, y = _panel_xy(k, panel_h)
            _panel(img, d, view, seat, nm[seat], x, y, panel_h, chip_rows, winners)
    return _encode(img, meter)


def render_table(view: UnleashedView, *, names: Mapping[str, str] | None = None) -> bytes:
    """PNG bytes of :func:`table_picture` (``WIDTH`` px wide, height fixed per player
    count: :func:`layout`)."""
    return table_picture(view, names=names).png


def warm_up() -> None:
    """Build the cached chips, bases and palette ahead of the first table."""
    _palette()
    for n in range(2, 9):
        _base(n)


# -- larger cards: the close-up and /card ----------------------------------------------

MINI_W, MINI_H = 232, 262


def _style_colour(ctype: str, kind: str | None) -> RGB:
    if ctype in ("baby", "basic", "magical") and kind in KIND_STYLE:
        return KIND_STYLE[kind][0]
    return TYPE_FRAME.get(ctype, TYPE_FRAME["basic"])[0]


def _art(ctype: str, kind: str | None, size: int) -> Image.Image:
    if ctype in ("baby", "basic", "magical") and kind in KIND_STYLE:
        return portrait(kind, ctype == "baby", size)
    frame, icon_name, _ = TYPE_FRAME.get(ctype, TYPE_FRAME["basic"])
    return icon(icon_name, size, disc=frame)


@sprite
def _mini(name: str, ctype: str, kind: str | None, width: int = MINI_W) -> Image.Image:
    """A card as the close-up shows it (RGBA ``width`` x ``MINI_H``): the type band with
    its icon and word, the portrait or type icon, the name in up to two lines."""
    frame, icon_name, words = TYPE_FRAME.get(ctype, TYPE_FRAME["basic"])
    img = Image.new("RGBA", (width, MINI_H), (0, 0, 0, 0))
    d = Draw(img)
    colour = _style_colour(ctype, kind)
    d.rounded_rectangle((0, 0, width - 1, MINI_H - 1), radius=18, fill=tint(colour, 0.86),
                        outline=frame, width=6 if ctype == "magical" else 4)
    d.rounded_rectangle((6, 6, width - 7, 48), radius=12, fill=frame)
    paste(img, icon(icon_name, 36, fill=(255, 255, 255)), (12, 9))
    word = words.split()[0] if ctype in ("baby", "basic", "magical") else words
    d.text((54, 27), _fit(d, word, font(TEXT, True), width - 64), font=font(TEXT, True),
           fill=(255, 255, 255), anchor="lm")
    paste(img, _art(ctype, kind, 120), ((width - 120) // 2, 56))
    lines = wrap(d, name, font(TEXT, True), width - 20)[:2]
    for i, line in enumerate(lines):
        d.text((width // 2, 200 + i * 32 - (16 if len(lines) == 1 else 0)),
               _fit(d, line, font(TEXT, True), width - 16), font=font(TEXT, True), fill=INK,
               anchor="mm")
    return img


def hand_picture(view: UnleashedView, *, names: Mapping[str, str] | None = None) -> Picture:
    """The close-up for the viewer of ``view`` (a seat's view, not the spectator's): their
    Field and their hand as cards with art, 1000 px wide (its height follows the number
    of cards). Raises ``ValueError`` for a spectator view."""
    if view.viewer is None or view.hand is None:
        raise ValueError("a close-up needs a seat's view")
    nm = _names(view, names)
    f = view.fields[view.viewer]
    field = [(c, g if g in KIND_STYLE else None) for g, cs in _groups(f) for c in cs]
    hand = [(c, _kind_of(c)) for c in view.hand]
    per = 4
    step = MINI_W + 12
    x0 = (WIDTH - per * step + 12) // 2

    def rows(k: int) -> int:
        return max(1, -(-k // per))

    height = 24 + 2 * 60 + (rows(len(field)) + rows(len(hand))) * (MINI_H + 12) + 24
    with measuring() as meter:
        img = Image.new("RGB", (WIDTH, height), BG)
        d = Draw(img)
        y = 20
        for title, cards in (
            (f"{nm[view.viewer]}'s Field: {f.animal_count}/{f.animals_to_win} Animals", field),
            (f"Your hand: {len(hand)} card{'s' if len(hand) != 1 else ''}", hand),
        ):
            d.text((MARGIN, y + 26), _fit(d, title, font(32, True), WIDTH - 2 * MARGIN),
                   font=font(32, True), fill=INK, anchor="lm")
            y += 60
            if not cards:
                d.text((MARGIN, y + 30), "none", font=font(TEXT), fill=MUTED, anchor="lm")
            for i, (c, kind) in enumerate(cards):
                paste(img, _mini(c.name, c.type, kind),
                      (x0 + (i % per) * step, y + (i // per) * (MINI_H + 12)))
            y += rows(len(cards)) * (MINI_H + 12)
    return _encode(img, meter)


def render_hand(view: UnleashedView, *, names: Mapping[str, str] | None = None) -> bytes:
    """PNG bytes of :func:`hand_picture`."""
    return hand_picture(view, names=names).png


CARD_W, CARD_H = 600, 840
#: The smallest text on a card (14 px when shown 500 px wide).
CARD_TEXT = max(min_font(CARD_W), 26)


@cache
def card_picture(card_id: int) -> Picture:
    """One card as a real card (``CARD_W`` x ``CARD_H``): frame and band in the type's
    colour with its icon, the name, the type line, the portrait (Animals) or type icon,
    and the rules text from the seed file. Raises ``IndexError`` for an id outside the
    catalog. Cached per card."""
    design = catalog()[card_id]
    kind, ctype = design.kind, design.type
    frame, icon_name, words = TYPE_FRAME[ctype]
    colour = _style_colour(ctype, kind)
    with measuring() as meter:
        img = Image.new("RGB", (CARD_W, CARD_H), (255, 255, 255))
        d = Draw(img)
        d.rounded_rectangle((4, 4, CARD_W - 5, CARD_H - 5), radius=34, fill=frame,
                            outline=dark(frame, 0.7), width=4)
        d.rounded_rectangle((22, 22, CARD_W - 23, CARD_H - 23), radius=22,
                            fill=tint(colour, 0.85))
        # name band
        d.rounded_rectangle((22, 22, CARD_W - 23, 112), radius=22, fill=dark(frame, 0.85))
        paste(img, icon(icon_name, 64, fill=(255, 255, 255)), (34, 35))
        title = font(42, True)
        d.text((112, 67), _fit(d, design.name, title, CARD_W - 150), font=title,
               fill=(255, 255, 255), anchor="lm")
        line = words + (f" \u00b7 {kind.title()}" if kind else "")
        d.text((CARD_W // 2, 142), line, font=font(30, True), fill=dark(colour, 0.55),
               anchor="mm")
        # art
        art_size = 290 if ctype in ("baby", "basic", "magical") else 240
        paste(img, _art(ctype, kind, art_size), ((CARD_W - art_size) // 2, 170 + (290 - art_size) // 2))
        if ctype == "magical":
            for sx, sy in ((110, 200), (490, 200), (480, 430)):
                draw_icon(d, "star", sx, sy, 26, GOLD, dark(GOLD, 0.6))
        # rules text
        box = (40, 480, CARD_W - 40, CARD_H - 40)
        d.rounded_rectangle(box, radius=16, fill=(255, 255, 255), outline=dark(colour, 0.8),
                            width=3)
        size = 34
        while True:
            lines = wrap(d, design.text, font(size), box[2] - box[0] - 36)
            if len(lines) * (size + 8) <= box[3] - box[1] - 30 or size <= CARD_TEXT:
                break
            size -= 2
        ty = box[1] + 18
        for text_line in lines:
            d.text((box[0] + 18, ty), text_line, font=font(size), fill=INK)
            ty += size + 8
    return picture(img, meter, palette=True)


def render_card(card_id: int) -> bytes:
    """PNG bytes of :func:`card_picture` for the catalog card ``card_id``. Raises
    ``IndexError`` for an id outside the catalog."""
    return card_picture(card_id).png
