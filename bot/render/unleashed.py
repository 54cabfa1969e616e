"""Llamas Unleashed pictures (Pillow): the public table, a player's close-up and card faces.

Phone first: a picture is shown about 500 px wide in Discord on a phone, so every text here
is at least :func:`~bot.render.common.min_font` of the picture's width (14 px at 500 px)
and a table is never taller than 1.3 times its width. Art is our own
(:mod:`bot.render.herd_art`): a portrait per kind (Llama, Alpaca, Goat, Ram; Babies
smaller and rounder) and a frame colour plus icon per card type.

- :func:`render_table` / :func:`table_picture`: every player's Field as a full-width
  band: name, Animals towards the win and cards in hand, then the Field as a little herd
  (Animals grouped by kind, each a chip with its portrait and full name; Magical Animals
  in a gold frame with a star, Babies in round chips; Upgrades and Downgrades with their
  type icon), each band as tall as its cards need; the shared counts, the pile of played
  cards, whose turn it is, and a key to the frames. Only public information: never who
  may answer a reaction window. Fixed size per player count: 1000 px wide.
- :func:`render_hand` / :func:`hand_picture`: the close-up for "My hand": the viewer's
  Field and hand as larger cards.
- the ``/card`` picture: :mod:`bot.render.unleashed_card`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from PIL import Image, ImageDraw

from bot.games.unleashed.cards import KIND_NAMES, TYPE_NAMES, catalog
from bot.games.unleashed.models import CardView, FieldView, UnleashedView
from bot.i18n import CARD_NAME, ENGLISH, N_, translate, translate_in, translate_n
from bot.render.common import (
    RGB,
    Draw,
    Picture,
    cached_copy,
    font,
    measuring,
    min_font,
    palette_png,
    paste,
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
from bot.render.mapped import mapped

WIDTH = 1000
#: The smallest text size on the table (14 px when shown 500 px wide).
TEXT = min_font(WIDTH)
MARGIN = 16
GAP = 8
CHIP_H = 42
CHIP_GAP = 4
PANEL_PAD = 10
#: A Field's name block: its name, Animals towards the win and cards in hand, in 3 lines.
NAME_W = 272
NAME_BLOCK_H = 3 * 32
#: The width of a Field's chip lines.
CHIPS_W = WIDTH - 2 * MARGIN - NAME_W - PANEL_PAD
HEADER_H = 156
LEGEND_H = 56

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
#: The close-up's type band for an Animal: one word.
BAND_WORDS = {"baby": N_("Baby"), "basic": N_("Basic"), "magical": N_("Magical")}
PHASE_WORDS = {
    "setup": N_("choosing Babies"), "start": N_("start of turn"), "draw": N_("Draw phase"),
    "action": N_("Action phase"), "end": N_("end of turn"), "over": N_("game over"),
}


def card_name(lang: str, english: str) -> str:
    """A card's name (as the seeds spell it) in ``lang``."""
    return english if lang == ENGLISH else translate_in(lang, CARD_NAME, english)


def type_word(lang: str, ctype: str) -> str:
    """A card type in words in ``lang`` (``"Basic Animal"``)."""
    return translate_in(lang, CARD_NAME, TYPE_NAMES.get(ctype, TYPE_NAMES["basic"]))


def fit(d: ImageDraw.ImageDraw, text: str, fnt: object, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` px."""
    if d.textlength(text, font=fnt) <= width:  # type: ignore[arg-type]
        return text
    while text and d.textlength(text + "\u2026", font=fnt) > width:  # type: ignore[arg-type]
        text = text[:-1]
    return text.rstrip() + "\u2026"


def first_fit(d: ImageDraw.ImageDraw, fnt: object, width: float, *texts: str) -> str:
    """The first of ``texts`` (a label, then its shorter forms) that fits ``width`` px, else
    the last cut with an ellipsis (:func:`fit`)."""
    for text in texts:
        if d.textlength(text, font=fnt) <= width:  # type: ignore[arg-type]
            return text
    return fit(d, texts[-1], fnt, width)


def _kind_of(c: CardView) -> str | None:
    return c.kinds[0] if c.kinds else None


_PROBE = ImageDraw.Draw(Image.new("RGB", (1, 1)))


# -- chips (the small cards of a Field) -------------------------------------------------


@sprite
def _chip(name: str, ctype: str, kind: str | None) -> Image.Image:
    """The chip of one Field card (RGBA): the portrait of its kind (Animals) or its type
    icon on a disc of the type's colour, and its full name; a frame by type (Basic:
    square corners; Baby: round; Magical: gold frame and a star)."""
    fnt = font(TEXT)
    tw = int(_PROBE.textlength(name, font=fnt))
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
    d.text((CHIP_H + 6, CHIP_H // 2), name, font=fnt, fill=INK, anchor="lm")
    if star:
        draw_icon(d, "star", w - 22, CHIP_H / 2, 11, GOLD, dark(GOLD, 0.6))
    return img


@sprite
def _tag(text: str) -> Image.Image:
    """A red-outlined note chip (``"skips next turn"``, ``"+2 more cards"``)."""
    fnt = font(TEXT)
    w = int(_PROBE.textlength(text, font=fnt)) + 20
    img = Image.new("RGBA", (w, CHIP_H), (0, 0, 0, 0))
    d = Draw(img)
    d.rounded_rectangle((0, 0, w - 1, CHIP_H - 1), radius=8, fill=(255, 240, 236),
                        outline=ALERT, width=2)
    d.text((10, CHIP_H // 2), text, font=fnt, fill=ALERT, anchor="lm")
    return img


def _more(k: int, lang: str = ENGLISH) -> Image.Image:
    return _tag(translate_n(lang, "+{count} more card", "+{count} more cards", k))


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


def _field_pieces(f: FieldView, instants_tag: bool = True,
                  lang: str = ENGLISH) -> list[Image.Image]:
    """The chips of a Field's cards, then its notes (``"no Instants"`` only with
    ``instants_tag``: the header says it once when no one may play them)."""
    pieces = []
    for group, cards in _groups(f):
        for c in cards:
            kind = group if group in KIND_STYLE else None
            pieces.append(_chip(card_name(lang, c.name), c.type, kind))
    if f.skips_next_turn:
        pieces.append(_tag(translate(lang, "skips next turn")))
    if f.shielded_kinds:
        pieces.append(_tag(translate(lang, "shield: {kinds}", kinds=", ".join(
            translate_in(lang, CARD_NAME, KIND_NAMES[k]) if k in KIND_NAMES else k.title()
            for k in f.shielded_kinds))))
    if not f.may_play_instants and instants_tag:
        pieces.append(_tag(translate(lang, "no Instants")))
    return pieces


def _flow(pieces: list[Image.Image], width: int, rows: int | None = None,
          lang: str = ENGLISH) -> list[tuple[Image.Image, int, int]]:
    """(piece, x, row) for ``pieces`` laid left to right in lines ``width`` px wide; with
    ``rows``, in at most that many lines, the last piece that fits followed by a
    ``+N more cards`` tag for the rest."""
    placed: list[tuple[Image.Image, int, int]] = []
    x = row = 0
    for p in pieces:
        if x and x + p.width > width:
            row, x = row + 1, 0
        placed.append((p, x, row))
        x += p.width + CHIP_GAP
    if rows is None or not placed or placed[-1][2] < rows:
        return placed
    placed = [q for q in placed if q[2] < rows]
    while True:  # drop pieces from the end until the tag for the rest fits
        tag = _more(len(pieces) - len(placed), lang)
        last = placed[-1] if placed else None
        end = last[1] + last[0].width + CHIP_GAP if last and last[2] == rows - 1 else 0
        if last is None or end + tag.width <= width:
            break
        placed.pop()
    placed.append((tag, end, rows - 1))
    return placed


def _lines(pieces: list[Image.Image]) -> int:
    """Chip lines ``pieces`` need in a Field (at least 1)."""
    flowed = _flow(pieces, CHIPS_W)
    return flowed[-1][2] + 1 if flowed else 1


def _strip_h(lines: int) -> int:
    """The height of a Field holding ``lines`` chip lines (never less than its name
    block)."""
    return 2 * PANEL_PAD + max(NAME_BLOCK_H, lines * (CHIP_H + CHIP_GAP) - CHIP_GAP)


def _share(needs: list[int], room: int, keep: Sequence[bool]) -> list[int]:
    """Chip lines per Field: as many as each needs, taking lines from the Fields that need
    the most (those with ``keep`` last) while they do not fit in ``room`` px (each keeps
    its name block)."""
    lines = list(needs)
    floor = max(1, NAME_BLOCK_H // (CHIP_H + CHIP_GAP))
    while sum(_strip_h(n) for n in lines) + GAP * (len(lines) - 1) > room:
        big = max(range(len(lines)), key=lambda i: (not keep[i], lines[i], -i))
        if lines[big] <= floor:
            break
        lines[big] -= 1
    return lines


# -- the table --------------------------------------------------------------------------


def layout(n: int) -> int:
    """The height of the table for ``n`` players (fixed in a game): every Field with two
    lines of chips plus two spare lines of room, at most 1.3 times the width."""
    height = (HEADER_H + n * (_strip_h(2) + GAP) + 2 * 2 * (CHIP_H + CHIP_GAP) + LEGEND_H
              + MARGIN)
    return min(height, int(1.3 * WIDTH))


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, lang: str) -> None:
    """The key to the chip frames (the portraits show the kinds, and the names say them)."""
    fnt = font(TEXT)
    items = [(icon(TYPE_FRAME[t][1], 38, disc=TYPE_FRAME[t][0]), type_word(lang, t))
             for t in ("magical", "baby", "upgrade", "downgrade")]
    room = WIDTH - 2 * MARGIN
    words = sum(int(d.textlength(w, font=fnt)) for _, w in items)
    if words + len(items) * (46 + 12) > room:  # the short words of Magical and Baby
        items = [(art, translate(lang, BAND_WORDS[t]) if t in BAND_WORDS else w)
                 for (art, w), t in zip(items, ("magical", "baby", "upgrade", "downgrade"),
                                        strict=True)]
        words = sum(int(d.textlength(w, font=fnt)) for _, w in items)
    gap = 26 if words + len(items) * (46 + 26) <= room else 12
    share = room // len(items) - 46 - gap  # each word's room when they do not all fit
    if words + len(items) * (46 + gap) > room:
        items = [(art, fit(d, w, fnt, share)) for art, w in items]
    for art, word in items:
        paste(img, art, (x, y))
        d.text((x + 46, y + 19), word, font=fnt, fill=INK, anchor="lm")
        x += 38 + 8 + int(d.textlength(word, font=fnt)) + gap


@sprite
def _base(n: int, lang: str = ENGLISH) -> Image.Image:
    """Background, title and key of the table for ``n`` players in ``lang`` (cached)."""
    height = layout(n)
    img = Image.new("RGB", (WIDTH, height), BG)
    d = Draw(img)
    size = _title_size(lang)
    d.text((MARGIN, 16 + (36 - size) // 2), translate(lang, "Llamas Unleashed"),
           font=font(size, True), fill=INK)
    _legend(img, d, MARGIN, height - LEGEND_H + 6, lang)
    return img


def _counts(lang: str, deck: int, discard: int, nursery: int) -> tuple[str, str]:
    """The shared counts in words, then in their short form."""
    return (translate(lang, "Deck {deck} \u00b7 Discard {discard} \u00b7 Nursery {nursery}",
                      deck=deck, discard=discard, nursery=nursery),
            translate(lang, "Deck {deck} \u00b7 Disc. {discard} \u00b7 Nurs. {nursery}",
                      deck=deck, discard=discard, nursery=nursery))


@cache
def _title_size(lang: str) -> int:
    """The title's size in ``lang``: 36 px, smaller (down to the smallest text) when the
    widest counts would not fit beside it in words."""
    widest = _PROBE.textlength(_counts(lang, 188, 188, 18)[0], font=font(TEXT))
    title = translate(lang, "Llamas Unleashed")
    for size in (36, 32, TEXT):
        if _PROBE.textlength(title, font=font(size, True)) + widest + 24 <= WIDTH - 2 * MARGIN:
            return size
    return TEXT


def _names(view: UnleashedView, names: Mapping[str, str] | None) -> dict[str, str]:
    names = names or {}
    return {s: names.get(s, s) for s in view.seats}


def _discard_line(view: UnleashedView, lang: str, no_instants: bool | None = None) -> str:
    """The header's line under the turn with an empty pile: the top of the discard pile,
    led by "No one may play Instants" when that is so and the whole line fits (else each
    Field says it: :func:`_header_says_no_instants`)."""
    top = card_name(lang, view.discard[-1].name) if view.discard else translate(lang, "empty")
    if no_instants is None:
        no_instants = _header_says_no_instants(view, lang)
    if no_instants:
        return translate(lang, "No one may play Instants \u00b7 top of the discard pile: {card}",
                         card=top)
    return translate(lang, "Top of the discard pile: {card}", card=top)


def _header_says_no_instants(view: UnleashedView, lang: str) -> bool:
    """True when the header says once that no one may play Instants: nobody may, the pile
    is empty and the line fits whole."""
    if view.stack or not _no_instants(view):
        return False
    line = _discard_line(view, lang, True)
    return _PROBE.textlength(line, font=font(TEXT)) <= WIDTH - 2 * MARGIN


def _no_instants(view: UnleashedView) -> bool:
    """True when no one may play Instants (said once in the header, not per Field)."""
    return not any(f.may_play_instants for f in view.fields.values())


def _winners(lang: str, names: list[str]) -> str:
    if len(names) == 1:
        return translate(lang, "{name} wins!", name=names[0])
    return translate(lang, "{names} win!", names=translate(
        lang, "{first} and {second}", first=", ".join(names[:-1]), second=names[-1]))


def _header(d: ImageDraw.ImageDraw, view: UnleashedView, nm: dict[str, str],
            lang: str = ENGLISH) -> None:
    # the counts keep to the right of the title
    title_w = d.textlength(translate(lang, "Llamas Unleashed"), font=font(_title_size(lang), True))
    d.text((WIDTH - MARGIN, 22), first_fit(d, font(TEXT), WIDTH - 2 * MARGIN - title_w - 24,
                                           *_counts(lang, view.deck_count, len(view.discard),
                                                    len(view.nursery))),
           font=font(TEXT), fill=INK, anchor="ra")
    if view.phase == "over":
        res = view.result
        turn = _winners(lang, [nm[s] for s in res.winners]) if res and res.winners \
            else translate(lang, "Game over: everyone loses.")
    elif view.phase == "setup":
        turn = translate(lang, "Everyone is choosing a Baby")
    else:
        who = nm.get(view.active or "", "?")
        phase = translate(lang, PHASE_WORDS[view.phase]) if view.phase in PHASE_WORDS \
            else view.phase
        turn = translate(lang, "Turn {turn}: {name} \u2013 {phase}", turn=view.turn, name=who,
                         phase=phase)
    d.text((MARGIN, 66), fit(d, turn, font(32, True), WIDTH - 2 * MARGIN),
           font=font(32, True), fill=INK)
    y = 110
    if view.stack:
        parts = []
        for item in view.stack:
            who, card = nm.get(item.seat, item.seat), card_name(lang, item.card.name)
            if item.field and item.field != item.seat:
                parts.append(translate(lang, "{name}: {card} into {other}'s Field", name=who,
                                       card=card, other=nm.get(item.field, item.field)))
            else:
                parts.append(translate(lang, "{name}: {card}", name=who, card=card))
        text = translate(lang, "On the pile: {cards}",
                         cards="  \u2190  ".join(reversed(parts)))
        d.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + 40), radius=10,
                            fill=(255, 226, 214), outline=(214, 120, 90), width=2)
        d.text((MARGIN + 12, y + 20), fit(d, text, font(TEXT, True), WIDTH - 2 * MARGIN - 24),
               font=font(TEXT, True), fill=INK, anchor="lm")
    else:
        text = _discard_line(view, lang)
        d.text((MARGIN, y + 20), fit(d, text, font(TEXT), WIDTH - 2 * MARGIN), font=font(TEXT),
               fill=MUTED, anchor="lm")


def _panel(img: Image.Image, d: ImageDraw.ImageDraw, view: UnleashedView, seat: str,
           name: str, y: int, lines: int, pieces: list[Image.Image], winners: set[str],
           lang: str = ENGLISH) -> None:
    """One Field, full width at ``y``: the name block (name, Animals towards the win,
    cards in hand) on the left, its cards in ``lines`` chip lines on the right."""
    f = view.fields[seat]
    h = _strip_h(lines)
    active = seat == view.active and view.phase not in ("setup", "over")
    lit = active or seat in winners
    x = MARGIN
    d.rounded_rectangle((x, y, WIDTH - MARGIN, y + h), radius=14,
                        fill=ACTIVE if lit else FIELD, outline=GOLD if lit else FIELD_LINE,
                        width=5 if lit else 2)
    marker = "\u25b6 " if active else ("\u2605 " if seat in winners else "")
    fnt, bold = font(TEXT), font(TEXT, True)
    tx, ty, width = x + PANEL_PAD + 4, y + PANEL_PAD + 16, NAME_W - PANEL_PAD - 8
    d.text((tx, ty), fit(d, marker + name, bold, width), font=bold, fill=INK, anchor="lm")
    near = f.animal_count >= f.animals_to_win - 1
    toward = first_fit(d, fnt, width, translate_n(
        lang, "{animals} of {count} Animal", "{animals} of {count} Animals", f.animals_to_win,
        animals=f.animal_count), translate(lang, "{animals}/{count} Animals",
                                           animals=f.animal_count, count=f.animals_to_win),
        f"{f.animal_count}/{f.animals_to_win}")
    d.text((tx, ty + 32), toward, font=fnt, fill=ALERT if near else INK, anchor="lm")
    held = view.hand_sizes.get(seat, 0)
    hand = first_fit(d, fnt, width, translate_n(lang, "{count} card in hand",
                                                "{count} cards in hand", held),
                     translate(lang, "Hand: {count}", count=held))
    if f.hand_limit != 7:
        hand = first_fit(d, fnt, width, translate(lang, "{count} in hand, limit {limit}",
                                                  count=held, limit=f.hand_limit),
                         translate(lang, "Hand: {count}/{limit}", count=held,
                                   limit=f.hand_limit))
    d.text((tx, ty + 64), hand, font=fnt, fill=MUTED, anchor="lm")
    cx, cy = x + NAME_W, y + PANEL_PAD
    if not pieces:
        d.text((cx, cy + CHIP_H // 2), translate(lang, "empty Field"), font=fnt, fill=MUTED,
               anchor="lm")
        return
    for piece, px, row in _flow(pieces, CHIPS_W, lines, lang):
        paste(img, piece, (cx + px, cy + row * (CHIP_H + CHIP_GAP)))


@cache
def _palette() -> Image.Image:
    """A 256-colour palette fitted once to everything the table draws: the bases, every
    chip of every card, the tags and the highlight colours."""
    cat = catalog()
    tiles: list[Image.Image] = [_base(2)]
    for design in cat.designs.values():
        kinds: Sequence[str | None] = (design.kind,) if design.kind else (None,)
        if design.type in ("baby", "basic", "magical"):
            kinds = tuple(KIND_STYLE)
        for k in kinds:
            tiles.append(_chip(design.name, design.type, k))
    tiles += [_tag("skips next turn"), _more(2)]
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
    png = palette_png(mapped(img, _palette()))
    return Picture(png, img.size, meter.smallest)  # type: ignore[attr-defined]


def table_picture(view: UnleashedView, *, names: Mapping[str, str] | None = None,
                  lang: str = ENGLISH) -> Picture:
    """The public table as a :class:`~bot.render.common.Picture` (see the module doc;
    ``names`` maps seat ids to display names, seat ids are shown otherwise), its words in
    ``lang``. Uses only the public parts of ``view``: Fields, hand sizes, piles, turn and
    phase."""
    nm = _names(view, names)
    n = len(view.seats)
    height = layout(n)
    tags = not _header_says_no_instants(view, lang)
    pieces = {s: _field_pieces(view.fields[s], tags, lang) for s in view.seats}
    winners = set(view.result.winners) if view.result else set()
    keep = [s == view.active or s in winners for s in view.seats]
    lines = _share([_lines(pieces[s]) for s in view.seats],
                   height - HEADER_H - LEGEND_H - MARGIN, keep)
    with measuring() as meter:
        img = cached_copy(_base(n, lang), _palette())
        d = Draw(img)
        _header(d, view, nm, lang)
        y = HEADER_H
        for k, seat in enumerate(view.seats):
            _panel(img, d, view, seat, nm[seat], y, lines[k], pieces[seat], winners, lang)
            y += _strip_h(lines[k]) + GAP
    return _encode(img, meter)


def render_table(view: UnleashedView, *, names: Mapping[str, str] | None = None,
                 lang: str = ENGLISH) -> bytes:
    """PNG bytes of :func:`table_picture` (``WIDTH`` px wide, height fixed per player
    count: :func:`layout`)."""
    return table_picture(view, names=names, lang=lang).png


def warm_up() -> None:
    """Build the cached chips, bases and palette ahead of the first table."""
    _palette()
    for n in range(2, 9):
        _base(n)


# -- larger cards: the close-up and /card ----------------------------------------------

def style_colour(ctype: str, kind: str | None) -> RGB:
    if ctype in ("baby", "basic", "magical") and kind in KIND_STYLE:
        return KIND_STYLE[kind][0]
    return TYPE_FRAME.get(ctype, TYPE_FRAME["basic"])[0]


def type_art(ctype: str, kind: str | None, size: int) -> Image.Image:
    if ctype in ("baby", "basic", "magical") and kind in KIND_STYLE:
        return portrait(kind, ctype == "baby", size)
    frame, icon_name, _ = TYPE_FRAME.get(ctype, TYPE_FRAME["basic"])
    return icon(icon_name, size, disc=frame)
