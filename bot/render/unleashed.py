"""Llamas Unleashed pictures (Pillow): the public table and single card faces.

``render_table(view, names=...)`` draws, for every player, their Field (Animals grouped by
kind, each group with a kind badge that shows the kind by colour *and* letter; Upgrades;
Downgrades), hand size, Animals towards the win, and the shared numbers (deck, discard,
Nursery), whose turn it is and which phase. It reads only what the view says and never
shows who may answer a reaction window (that would reveal who holds an Instant).

``render_card(card_id)`` draws one card face for ``/card``: kind or type colour, a simple
emblem drawn from our own shapes, the name, the type line and the rules text.

Both return PNG bytes. Sizes: the table is 1280 px wide (height grows with the players'
Fields, about 1000-1500 px for six players); a card is 600 x 840 px. Key text (names,
numbers, turn line) is at least 26 px so it reads on a phone.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import CardView, FieldView, UnleashedView
from bot.render.common import RGB, font, to_png

WIDTH = 1280
MARGIN = 24
BG: RGB = (246, 241, 230)
INK: RGB = (40, 34, 28)
MUTED: RGB = (120, 108, 96)
PANEL: RGB = (255, 252, 245)
ACTIVE: RGB = (255, 236, 179)
GOLD: RGB = (201, 150, 20)

#: Kind -> (colour, letter). The letter makes the kind readable without colour.
KIND_STYLE: dict[str, tuple[RGB, str]] = {
    "llama": ((196, 110, 32), "L"),
    "alpaca": ((136, 72, 170), "A"),
    "goat": ((46, 145, 80), "G"),
    "ram": ((38, 110, 180), "R"),
}
#: Non-animal card types -> (colour, one-character badge).
TYPE_STYLE: dict[str, tuple[RGB, str]] = {
    "magic": ((214, 72, 110), "\u2605"),      # star
    "upgrade": ((40, 150, 110), "\u25b2"),    # up triangle
    "downgrade": ((190, 60, 50), "\u25bc"),   # down triangle
    "instant": ((230, 150, 20), "!"),
}
TYPE_WORDS = {
    "baby": "Baby Animal", "basic": "Basic Animal", "magical": "Magical Animal",
    "magic": "Magic", "upgrade": "Upgrade", "downgrade": "Downgrade", "instant": "Instant",
}
PHASE_WORDS = {
    "setup": "choosing Babies", "start": "start of turn", "action": "Action phase",
    "end": "end of turn", "over": "game over",
}


def _tint(c: RGB, amount: float) -> RGB:
    """``c`` mixed with white (``amount`` 0 = ``c``, 1 = white)."""
    return tuple(int(v + (255 - v) * amount) for v in c)  # type: ignore[return-value]


def _dark(c: RGB, f: float = 0.65) -> RGB:
    return tuple(int(v * f) for v in c)  # type: ignore[return-value]


def _fit(d: ImageDraw.ImageDraw, text: str, fnt, width: int) -> str:
    """``text`` cut with an ellipsis to fit ``width`` px."""
    if d.textlength(text, font=fnt) <= width:
        return text
    while text and d.textlength(text + "\u2026", font=fnt) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


def wrap(d: ImageDraw.ImageDraw, text: str, fnt, width: int) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` px."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if d.textlength(trial, font=fnt) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def badge(d: ImageDraw.ImageDraw, cx: float, cy: float, r: int, colour: RGB, letter: str,
          size: int | None = None) -> None:
    """A round badge: coloured disc with a white letter or symbol."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=_dark(colour), width=2)
    d.text((cx, cy + 1), letter, font=font(size or int(r * 1.25), True), fill=(255, 255, 255),
           anchor="mm")


@lru_cache(maxsize=64)
def _badge_sprite(colour: RGB, letter: str) -> Image.Image:
    """A 41 px kind/type badge on a transparent square (cached)."""
    img = Image.new("RGBA", (41, 41), (0, 0, 0, 0))
    badge(ImageDraw.Draw(img), 20, 20, 20, colour, letter,
          size=24 if letter.isalpha() else 22)
    return img


def _kind_of(c: CardView) -> str | None:
    return c.kinds[0] if c.kinds else None


def _style(c: CardView) -> tuple[RGB, str]:
    k = _kind_of(c)
    if k in KIND_STYLE:
        return KIND_STYLE[k]
    return TYPE_STYLE.get(c.type, (MUTED, "?"))


# -- the table -----------------------------------------------------------------------------

CHIP_H = 44
CHIP_FONT = 24
NAME_COL = 300
ROW_GAP = 8


@lru_cache(maxsize=1024)
def _name_width(name: str) -> int:
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    return int(probe.textlength(name, font=font(CHIP_FONT))) + 30


def _chip_width(d: ImageDraw.ImageDraw, c: CardView) -> int:
    return _name_width(c.name)


@lru_cache(maxsize=1024)
def _chip_sprite(name: str, ctype: str, colour: RGB) -> Image.Image:
    """A small card face (RGBA, transparent corners): a tinted rounded card with a colour
    bar and the card's name; Magical Animals get a gold rim, Babies a dashed line. Cached:
    the same cards come back in every picture."""
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    w = int(probe.textlength(name, font=font(CHIP_FONT))) + 30
    img = Image.new("RGBA", (w + 1, CHIP_H + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    rim: RGB = GOLD if ctype == "magical" else _dark(colour, 0.8)
    d.rounded_rectangle((0, 0, w, CHIP_H), radius=9, fill=_tint(colour, 0.82),
                        outline=rim, width=3 if ctype == "magical" else 1)
    d.rounded_rectangle((0, 0, 8, CHIP_H), radius=4, fill=colour)
    if ctype == "baby":
        for i in range(14, w - 8, 12):
            d.line((i, CHIP_H - 6, i + 5, CHIP_H - 6), fill=_dark(colour, 0.8), width=2)
    d.text((18, CHIP_H // 2), name, font=font(CHIP_FONT), fill=INK, anchor="lm")
    return img


def _chip(img: Image.Image, x: int, y: int, c: CardView, colour: RGB) -> int:
    """Paste the small card face of ``c`` at (x, y); returns its width."""
    sprite = _chip_sprite(c.name, c.type, colour)
    img.paste(sprite, (x, y), sprite)
    return sprite.width - 1


def _groups(f: FieldView) -> list[tuple[RGB, str, str, list[CardView]]]:
    """(colour, badge letter, group words, cards) for each non-empty group of a Field."""
    out: list[tuple[RGB, str, str, list[CardView]]] = []
    by_kind: dict[str, list[CardView]] = {}
    for c in f.animals:
        by_kind.setdefault(_kind_of(c) or "?", []).append(c)
    for k in ("llama", "alpaca", "goat", "ram", "?"):
        if k in by_kind:
            colour, letter = KIND_STYLE.get(k, (MUTED, "?"))
            out.append((colour, letter, k, by_kind[k]))
    if f.upgrades:
        colour, sym = TYPE_STYLE["upgrade"]
        out.append((colour, sym, "upgrade", f.upgrades))
    if f.downgrades:
        colour, sym = TYPE_STYLE["downgrade"]
        out.append((colour, sym, "downgrade", f.downgrades))
    return out


def _layout_field(d: ImageDraw.ImageDraw, f: FieldView, width: int
                  ) -> list[tuple[int, int, object]]:
    """Positions (x, y, item) relative to the Field area; item is a badge tuple or a card."""
    items: list[tuple[int, int, object]] = []
    x = y = 0
    for colour, letter, _, cards in _groups(f):
        need = 44 + (_chip_width(d, cards[0]) if cards else 0)
        if x and x + need > width:
            x, y = 0, y + CHIP_H + ROW_GAP
        items.append((x, y, ("badge", colour, letter, len(cards))))
        x += 48
        for c in cards:
            w = _chip_width(d, c)
            if x + w > width:
                x, y = 48, y + CHIP_H + ROW_GAP
            items.append((x, y, (c, colour)))
            x += w + 8
        x += 18
    return items


def _names(view: UnleashedView, names: Mapping[str, str] | None) -> dict[str, str]:
    names = names or {}
    return {s: names.get(s, s) for s in view.seats}


def _header(d: ImageDraw.ImageDraw, view: UnleashedView, names: dict[str, str]) -> int:
    """Title line, turn line and the shared counts; returns the y below it."""
    y = MARGIN
    d.text((MARGIN, y), "Llamas Unleashed", font=font(34, True), fill=INK)
    if view.phase == "over":
        res = view.result
        if res and res.winners:
            turn = " and ".join(names[s] for s in res.winners) + " wins!"
        else:
            turn = "Game over: everyone loses."
    elif view.phase == "setup":
        turn = "Everyone is choosing a Baby"
    else:
        who = names.get(view.active or "", "?")
        turn = f"Turn {view.turn}: {who} \u2013 {PHASE_WORDS[view.phase]}"
    d.text((WIDTH - MARGIN, y + 4), _fit(d, turn, font(28, True), 820), font=font(28, True),
           fill=INK, anchor="ra")
    y += 54
    # Shared zones.
    x = MARGIN
    top = view.discard[-1].name if view.discard else "empty"
    for label, value in (("Deck", str(view.deck_count)),
                         ("Discard", f"{len(view.discard)} (top: {top})"),
                         ("Nursery", str(len(view.nursery)))):
        text = f"{label}: {value}"
        w = int(d.textlength(text, font=font(26))) + 28
        w = min(w, WIDTH - MARGIN - x)
        d.rounded_rectangle((x, y, x + w, y + 42), radius=10, fill=PANEL, outline=(200, 190, 170))
        d.text((x + 14, y + 21), _fit(d, text, font(26), w - 24), font=font(26), fill=INK,
               anchor="lm")
        x += w + 12
    y += 54
    if view.stack:
        parts = []
        for item in view.stack:
            where = ""
            if item.field and item.field != item.seat:
                where = f" into {names.get(item.field, item.field)}'s Field"
            parts.append(f"{names.get(item.seat, item.seat)}: {item.card.name}{where}")
        text = "On the pile (top first): " + "  \u2190  ".join(reversed(parts))
        d.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + 44), radius=10, fill=(255, 226, 214),
                            outline=(214, 120, 90), width=2)
        d.text((MARGIN + 14, y + 22), _fit(d, text, font(26, True), WIDTH - 2 * MARGIN - 28),
               font=font(26, True), fill=INK, anchor="lm")
        y += 56
    return y


def _player_height(d: ImageDraw.ImageDraw, f: FieldView, field_w: int) -> tuple[int, list]:
    items = _layout_field(d, f, field_w)
    rows = (max(y for _, y, _ in items) // (CHIP_H + ROW_GAP) + 1) if items else 1
    body = rows * (CHIP_H + ROW_GAP) - ROW_GAP
    return max(124, body + 28), items


def render_table(view: UnleashedView, *, names: Mapping[str, str] | None = None) -> bytes:
    """The public table as PNG bytes (``WIDTH`` px wide). ``names`` maps seat ids to display
    names (seat ids are shown otherwise). Uses only public parts of ``view``: Fields, hand
    sizes, piles, turn and phase (never the viewer's hand nor who may answer a window)."""
    nm = _names(view, names)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    field_x = MARGIN + NAME_COL
    field_w = WIDTH - field_x - MARGIN - 14
    layouts = [(s, *_player_height(probe, view.fields[s], field_w)) for s in view.seats]
    header_h = MARGIN + 54 + 54 + (56 if view.stack else 0)
    height = header_h + sum(h + 12 for _, h, _ in layouts) + 52 + MARGIN
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    y = _header(d, view, nm)
    winners = set(view.result.winners) if view.result else set()
    for seat, h, items in layouts:
        f = view.fields[seat]
        is_active = seat == view.active and view.phase not in ("setup", "over")
        fill = ACTIVE if is_active or seat in winners else PANEL
        outline = GOLD if is_active or seat in winners else (205, 195, 175)
        d.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + h), radius=14, fill=fill,
                            outline=outline, width=3 if is_active else 1)
        # Player column.
        px = MARGIN + 16
        marker = "\u25b6 " if is_active else ("\u2605 " if seat in winners else "")
        d.text((px, y + 12), _fit(d, marker + nm[seat], font(30, True), NAME_COL - 30),
               font=font(30, True), fill=INK)
        goal = f"Animals {f.animal_count}/{f.animals_to_win}"
        d.text((px, y + 50), goal, font=font(26, True),
               fill=(170, 40, 40) if f.animal_count >= f.animals_to_win - 1 else INK)
        hand = f"Hand {view.hand_sizes.get(seat, 0)}"
        if f.hand_limit != 7:
            hand += f" (limit {f.hand_limit})"
        d.text((px, y + 84), hand, font=font(26), fill=INK)
        notes = []
        if f.skips_next_turn:
            notes.append("skips next turn")
        if f.shielded_kinds:
            notes.append("shielded: " + ", ".join(k.title() for k in f.shielded_kinds))
        if not f.may_play_instants:
            notes.append("no Instants")
        if notes:
            d.text((px, y + 116), _fit(d, "; ".join(notes), font(20), NAME_COL - 30),
                   font=font(20), fill=(150, 60, 40))
        # Field.
        fy = y + 14
        if not items:
            d.text((field_x, fy + CHIP_H // 2), "empty Field", font=font(24), fill=MUTED,
                   anchor="lm")
        for ix, iy, item in items:
            if isinstance(item, tuple) and item and item[0] == "badge":
                _, colour, letter, count = item
                sprite = _badge_sprite(colour, letter)
                img.paste(sprite, (field_x + ix, fy + iy + CHIP_H // 2 - 20), sprite)
            else:
                c, colour = item  # type: ignore[misc]
                _chip(img, field_x + ix, fy + iy, c, colour)
        y += h + 12
    # Legend.
    lx = MARGIN
    ly = y + 22
    for k, (colour, letter) in KIND_STYLE.items():
        badge(d, lx + 14, ly, 14, colour, letter, size=18)
        d.text((lx + 34, ly), k.title(), font=font(20), fill=INK, anchor="lm")
        lx += 46 + int(d.textlength(k.title(), font=font(20))) + 8
    for t in ("upgrade", "downgrade"):
        colour, sym = TYPE_STYLE[t]
        badge(d, lx + 14, ly, 14, colour, sym, size=14)
        d.text((lx + 34, ly), t.title(), font=font(20), fill=INK, anchor="lm")
        lx += 46 + int(d.textlength(t.title(), font=font(20))) + 8
    d.rounded_rectangle((lx, ly - 12, lx + 30, ly + 12), radius=5, fill=PANEL, outline=GOLD,
                        width=3)
    d.text((lx + 38, ly), "Magical", font=font(20), fill=INK, anchor="lm")
    lx += 48 + int(d.textlength("Magical", font=font(20))) + 8
    for i in range(lx, lx + 30, 12):
        d.line((i, ly + 6, i + 5, ly + 6), fill=MUTED, width=2)
    d.text((lx + 38, ly), "Baby", font=font(20), fill=INK, anchor="lm")
    return to_png(img, palette=True)


# -- single cards --------------------------------------------------------------------------

CARD_W, CARD_H = 600, 840


def _emblem(d: ImageDraw.ImageDraw, cx: int, cy: int, kind: str | None, ctype: str,
            colour: RGB) -> None:
    """A simple picture made of our own shapes: an animal head for Animals, a star for
    Magic, arrows for Upgrades/Downgrades, a bolt for Instants."""
    light = _tint(colour, 0.75)
    d.ellipse((cx - 150, cy - 150, cx + 150, cy + 150), fill=light, outline=colour, width=6)
    dark = _dark(colour, 0.7)
    if ctype in ("baby", "basic", "magical") and kind:
        s = 0.7 if ctype == "baby" else 1.0
        # Head, ears (llama/alpaca tall, goat pointy, ram curled horns), eyes, snout.
        hw, hh = int(70 * s), int(90 * s)
        if kind in ("llama", "alpaca"):
            for side in (-1, 1):
                ex = cx + side * int(42 * s)
                d.polygon([(ex - 14 * s, cy - hh + 20 * s), (ex + 14 * s, cy - hh + 20 * s),
                           (ex + side * 6 * s, cy - hh - 55 * s)], fill=colour)
        elif kind == "goat":
            for side in (-1, 1):
                ex = cx + side * int(40 * s)
                d.line((ex, cy - hh + 20 * s, ex + side * 30 * s, cy - hh - 50 * s), fill=dark,
                       width=int(12 * s))
        else:
            for side in (-1, 1):
                ex = cx + side * int(70 * s)
                d.ellipse((ex - 38 * s, cy - 60 * s, ex + 38 * s, cy + 16 * s), outline=dark,
                          width=int(14 * s))
        d.ellipse((cx - hw, cy - hh, cx + hw, cy + hh), fill=colour, outline=dark, width=4)
        if kind == "alpaca":
            d.ellipse((cx - hw + 6, cy - hh - 22 * s, cx + hw - 6, cy - hh + 40 * s),
                      fill=_tint(colour, 0.5))
        for side in (-1, 1):
            d.ellipse((cx + side * 28 * s - 9 * s, cy - 22 * s, cx + side * 28 * s + 9 * s,
                       cy - 4 * s), fill=(255, 255, 255))
            d.ellipse((cx + side * 28 * s - 4 * s, cy - 16 * s, cx + side * 28 * s + 4 * s,
                       cy - 8 * s), fill=INK)
        d.ellipse((cx - 36 * s, cy + 22 * s, cx + 36 * s, cy + 72 * s), fill=_tint(colour, 0.55))
        d.line((cx - 12 * s, cy + 46 * s, cx + 12 * s, cy + 46 * s), fill=dark, width=3)
        if ctype == "magical":
            _star(d, cx + 110, cy - 110, 34, GOLD)
        if kind == "goat":
            d.polygon([(cx - 14 * s, cy + hh - 10), (cx + 14 * s, cy + hh - 10),
                       (cx, cy + hh + 36 * s)], fill=dark)
    elif ctype == "magic":
        _star(d, cx, cy, 110, colour)
    elif ctype in ("upgrade", "downgrade"):
        up = ctype == "upgrade"
        tip, base = (cy - 110, cy + 10) if up else (cy + 110, cy - 10)
        d.polygon([(cx, tip), (cx - 100, base), (cx + 100, base)], fill=colour)
        y0, y1 = (base, cy + 110) if up else (cy - 110, base)
        d.rectangle((cx - 40, min(y0, y1), cx + 40, max(y0, y1)), fill=colour)
    else:  # instant: a lightning bolt
        d.polygon([(cx + 20, cy - 120), (cx - 70, cy + 15), (cx - 5, cy + 15), (cx - 30, cy + 120),
                   (cx + 70, cy - 20), (cx + 5, cy - 20)], fill=colour, outline=dark)


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB) -> None:
    import math

    pts = []
    for i in range(10):
        a = math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy - rr * math.sin(a)))
    d.polygon(pts, fill=colour, outline=_dark(colour))


@cache
def _card_png(key: str) -> bytes:
    design = catalog().designs[key]
    kind = design.kind
    colour = KIND_STYLE[kind][0] if kind in KIND_STYLE else TYPE_STYLE.get(
        design.type, (MUTED, "?"))[0]
    img = Image.new("RGB", (CARD_W, CARD_H), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((6, 6, CARD_W - 6, CARD_H - 6), radius=30, fill=_tint(colour, 0.88),
                        outline=_dark(colour), width=6)
    d.rounded_rectangle((24, 24, CARD_W - 24, 120), radius=18, fill=colour)
    title = font(40, True)
    d.text((CARD_W // 2, 72), _fit(d, design.name, title, CARD_W - 140), font=title,
           fill=(255, 255, 255), anchor="mm")
    letter = KIND_STYLE[kind][1] if kind in KIND_STYLE else TYPE_STYLE.get(
        design.type, (MUTED, "?"))[1]
    badge(d, 62, 72, 26, _dark(colour, 0.8), letter, size=28)
    words = TYPE_WORDS[design.type] + (f" \u00b7 {kind.title()}" if kind else "")
    d.text((CARD_W // 2, 150), words, font=font(28, True), fill=_dark(colour, 0.6), anchor="mm")
    _emblem(d, CARD_W // 2, 345, kind, design.type, colour)
    box = (40, 520, CARD_W - 40, CARD_H - 40)
    d.rounded_rectangle(box, radius=16, fill=(255, 255, 255), outline=_dark(colour, 0.8), width=2)
    size = 28
    while size > 18:
        lines = wrap(d, design.text, font(size), box[2] - box[0] - 36)
        if len(lines) * (size + 8) <= box[3] - box[1] - 30:
            break
        size -= 2
    ty = box[1] + 18
    for line in lines:
        d.text((box[0] + 18, ty), line, font=font(size), fill=INK)
        ty += size + 8
    return to_png(img, palette=True)


def render_card(card_id: int) -> bytes:
    """One card face (``CARD_W`` x ``CARD_H`` PNG) for the catalog card ``card_id``. Raises
    ``IndexError`` for an id outside the catalog. Cached per design."""
    return _card_png(catalog()[card_id].key)
