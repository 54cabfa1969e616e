"""Llamas Unleashed's close-up for "My hand" (Pillow): the viewer's Field and hand as
larger cards with art, in the member's language (the table: :mod:`bot.render.unleashed`,
whose sizes, colours and words it shares)."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from bot.games.unleashed.models import UnleashedView
from bot.i18n import ENGLISH, translate, translate_n
from bot.render.common import Draw, Picture, font, kept_by, measuring, paste, sprite
from bot.render.herd_art import KIND_STYLE, TYPE_FRAME, icon, tint
from bot.render.kept import inputs_key
from bot.render.mapped import blank
from bot.render.unleashed import (
    BAND_WORDS,
    BG,
    INK,
    MARGIN,
    MUTED,
    TEXT,
    WIDTH,
    _encode,
    _groups,
    _kind_of,
    _names,
    _palette,
    card_name,
    first_fit,
    fit,
    style_colour,
    type_art,
    type_word,
)

MINI_W, MINI_H = 232, 262


def _name_lines(d: ImageDraw.ImageDraw, name: str, fnt: object, width: int) -> list[str]:
    """A card's name in lines of ``width`` px: word wrapped, a word too long for a line
    broken after a hyphen of its own or with one added (German compounds)."""

    def w(text: str) -> float:
        return d.textlength(text, font=fnt)  # type: ignore[arg-type]

    pieces: list[tuple[str, bool]] = []  # (piece, glued to the one before)
    for word in name.split():
        glued = False
        while w(word) > width and len(word) > 5:
            cut = word.rfind("-", 0, len(word) - 1)
            while cut > 0 and w(word[:cut + 1]) > width:
                cut = word.rfind("-", 0, cut)
            if cut > 0:
                head, word = word[:cut + 1], word[cut + 1:]
            else:
                n = len(word) - 3  # at least three letters go on
                while n > 1 and w(word[:n] + "-") > width:
                    n -= 1
                head, word = word[:n] + "-", word[n:]
            pieces.append((head, glued))
            glued = True
        pieces.append((word, glued))
    lines: list[str] = []
    for piece, glued in pieces:
        if lines and not glued and w(f"{lines[-1]} {piece}") <= width:
            lines[-1] = f"{lines[-1]} {piece}"
        else:
            lines.append(piece)
    return lines


@sprite
def _mini(name: str, ctype: str, kind: str | None, width: int = MINI_W,
          lang: str = ENGLISH) -> Image.Image:
    """A card as the close-up shows it (RGBA ``width`` x ``MINI_H``): the type band with
    its icon and word (the word alone when both do not fit), the portrait or type icon,
    the name in up to two lines."""
    frame, icon_name, _ = TYPE_FRAME.get(ctype, TYPE_FRAME["basic"])
    img = Image.new("RGBA", (width, MINI_H), (0, 0, 0, 0))
    d = Draw(img)
    colour = style_colour(ctype, kind)
    d.rounded_rectangle((0, 0, width - 1, MINI_H - 1), radius=18, fill=tint(colour, 0.86),
                        outline=frame, width=6 if ctype == "magical" else 4)
    d.rounded_rectangle((6, 6, width - 7, 48), radius=12, fill=frame)
    word = translate(lang, BAND_WORDS[ctype]) if ctype in BAND_WORDS else type_word(lang, ctype)
    if d.textlength(word, font=font(TEXT, True)) <= width - 64:
        paste(img, icon(icon_name, 36, fill=(255, 255, 255)), (12, 9))
        d.text((54, 27), word, font=font(TEXT, True), fill=(255, 255, 255), anchor="lm")
    elif d.textlength(word, font=font(TEXT, True)) <= width - 24:
        # a long word ("Downgrade") takes the whole band: the portrait shows the type
        d.text((width // 2, 27), word, font=font(TEXT, True), fill=(255, 255, 255),
               anchor="mm")
    else:  # a word too long even for that ("Natychmiastowa"): the type's icon alone
        paste(img, icon(icon_name, 36, fill=(255, 255, 255)), ((width - 36) // 2, 9))
    lines = _name_lines(d, name, font(TEXT, True), width - 16)
    if len(lines) > 2:  # a smaller portrait leaves room for a third line
        lines = lines[:2] + [" ".join(lines[2:])]
        paste(img, type_art(ctype, kind, 92), ((width - 92) // 2, 56))
        top = 168
    else:
        paste(img, type_art(ctype, kind, 120), ((width - 120) // 2, 56))
        top = 200 - (16 if len(lines) == 1 else 0)
    for i, line in enumerate(lines):
        d.text((width // 2, top + i * 30), fit(d, line, font(TEXT, True), width - 16),
               font=font(TEXT, True), fill=INK, anchor="mm")
    return img


def _hand_key(view: UnleashedView, *, names: Mapping[str, str] | None = None,
              lang: str = ENGLISH) -> bytes | None:
    """What :func:`hand_picture` shows: the viewer, their name, Field and hand, the
    language (``None`` for a spectator's view)."""
    if view.viewer is None or view.hand is None:
        return None
    return inputs_key(view.viewer, _names(view, names)[view.viewer],
                      view.fields[view.viewer], view.hand, lang)


@kept_by(_hand_key)
def hand_picture(view: UnleashedView, *, names: Mapping[str, str] | None = None,
                 lang: str = ENGLISH) -> Picture:
    """The close-up for the viewer of ``view`` (a seat's view, not the spectator's): their
    Field and their hand as cards with art, 1000 px wide (its height follows the number
    of cards). Raises ``ValueError`` for a spectator view. Kept by what it shows
    (:func:`~bot.render.common.kept_by`): an unchanged Field and hand is not drawn again."""
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
        img = blank((WIDTH, height), BG, _palette())
        d = Draw(img)
        y = 20
        for title, cards in (
            (first_fit(d, font(32, True), WIDTH - 2 * MARGIN, translate(
                lang, "{name}'s Field: {count}/{target} Animals", name=nm[view.viewer],
                count=f.animal_count, target=f.animals_to_win), translate(
                lang, "Your Field: {count}/{target} Animals", count=f.animal_count,
                target=f.animals_to_win)), field),
            (translate_n(lang, "Your hand: {count} card", "Your hand: {count} cards",
                         len(hand)), hand),
        ):
            d.text((MARGIN, y + 26), fit(d, title, font(32, True), WIDTH - 2 * MARGIN),
                   font=font(32, True), fill=INK, anchor="lm")
            y += 60
            if not cards:
                d.text((MARGIN, y + 30), translate(lang, "none"), font=font(TEXT), fill=MUTED,
                       anchor="lm")
            for i, (c, kind) in enumerate(cards):
                paste(img, _mini(card_name(lang, c.name), c.type, kind, MINI_W, lang),
                      (x0 + (i % per) * step, y + (i // per) * (MINI_H + 12)))
            y += rows(len(cards)) * (MINI_H + 12)
    return _encode(img, meter)


def render_hand(view: UnleashedView, *, names: Mapping[str, str] | None = None,
                lang: str = ENGLISH) -> bytes:
    """PNG bytes of :func:`hand_picture`."""
    return hand_picture(view, names=names, lang=lang).png

