"""The Llamas Unleashed ``/card`` picture (Pillow): one card as a real card, with its
type's colours, portrait or icon, and its name, type line and our rules text from the seed
file in a language (the catalogue's cards part)."""

from __future__ import annotations

import re
from functools import cache

from PIL import Image

from bot.games.unleashed.cards import KIND_NAMES, TYPE_NAMES, CardDesign, catalog
from bot.i18n import CARD_NAME, ENGLISH, translate_in
from bot.i18n import CARD_TEXT as RULES_TEXT
from bot.render.common import PROBE, Draw, Picture, font, measuring, min_font, paste, picture, wrap
from bot.render.herd_art import TYPE_FRAME, dark, draw_icon, icon, tint
from bot.render.unleashed import GOLD, INK, fit, style_colour, type_art

CARD_W, CARD_H = 600, 840
#: The smallest text on a card (26 px: about 22 px when shown 500 px wide).
CARD_TEXT = max(min_font(CARD_W), 26)
#: The name's font sizes (px), largest first; the name takes the largest that fits.
NAME_SIZES = (42, 40, 38, 36, 34, 32, 30)
#: The name's room in the band (px).
NAME_W = CARD_W - 150
#: The type line's font sizes (px), largest first.
LINE_SIZES = (30, 28, 26)
#: The rules text's font sizes (px), largest first, down to :data:`CARD_TEXT`.
TEXT_SIZES = tuple(range(34, CARD_TEXT - 1, -2))
#: The heights (px) the art may take, largest first: a long rules text takes room from
#: the art (its box starts lower the taller the art) before it would overflow.
ART_AREAS = (290, 240, 190)
#: The top of the art (px).
ART_TOP = 170
#: The rules text box's margins (px): from the card's sides and bottom, inside the box
#: to the text left and right (``PAD_X``) and top and bottom together (``PAD_Y``).
BOX_MARGIN, PAD_X, PAD_Y = 40, 18, 30
#: The space between two lines of rules text (px).
LEADING = 8

#: A space a line must not break at: before French high punctuation (``tour ;``), and in
#: Polish after a one-letter word or a number (``z Pastwiska``, ``w fazie``, ``2 karty``),
#: which Polish typesetting keeps off a line's end.
_NO_BREAK = {"fr": (re.compile(r" (?=[:;!?\u00bb])|(?<=\u00ab) "), ""),
             "pl": (re.compile(r"\b([AaIiOoUuWwZz]|\d+) "), r"\1")}
NBSP = "\u00a0"


def glued(text: str, lang: str) -> str:
    """``text`` with the spaces a line must not break at in ``lang`` made no-break."""
    if lang not in _NO_BREAK:
        return text
    rule, keep = _NO_BREAK[lang]
    return rule.sub(keep + NBSP, text)


def _type_line(lang: str, design: CardDesign) -> str:
    words = translate_in(lang, CARD_NAME, TYPE_NAMES[design.type])
    if design.kind:
        words += " \u00b7 " + translate_in(lang, CARD_NAME, KIND_NAMES[design.kind])
    return words


def _largest(text: str, sizes: tuple[int, ...], width: int, bold: bool) -> int:
    """The largest of ``sizes`` at which ``text`` is at most ``width`` px wide (the
    smallest when none is)."""
    return next((s for s in sizes if PROBE.textlength(text, font=font(s, bold)) <= width),
                sizes[-1])


def rules_layout(text: str, lang: str = ENGLISH) -> tuple[int, int, list[str], bool]:
    """How the rules ``text`` (in ``lang``) is laid out: ``(art area height, font size,
    lines, fits)``. The art keeps the tallest of :data:`ART_AREAS` at which the text fits
    its box at one of :data:`TEXT_SIZES` (the largest such size); ``fits`` is false when
    it fits at none (then the smallest art and size). Lines break at spaces, never at
    those :func:`glued` holds."""
    width = CARD_W - 2 * BOX_MARGIN - 2 * PAD_X
    text = glued(text, lang)
    lines: list[str] = []
    for area in ART_AREAS:
        height = CARD_H - BOX_MARGIN - (ART_TOP + area + 20) - PAD_Y
        for size in TEXT_SIZES:
            lines = wrap(PROBE, text, font(size), width)  # type: ignore[arg-type]
            if len(lines) * (size + LEADING) <= height:
                return area, size, lines, True
    return ART_AREAS[-1], TEXT_SIZES[-1], lines, False


def name_fits(name: str) -> bool:
    """True when the card name ``name`` fits the band whole at the smallest of
    :data:`NAME_SIZES` (else it is cut with an ellipsis)."""
    return PROBE.textlength(name, font=font(NAME_SIZES[-1], True)) <= NAME_W


def type_line_fits(line: str) -> bool:
    """True when the type line ``line`` fits the card's width at the smallest of
    :data:`LINE_SIZES`."""
    return PROBE.textlength(line, font=font(LINE_SIZES[-1], True)) <= CARD_W - 60


@cache
def card_picture(card_id: int, lang: str = ENGLISH) -> Picture:
    """One card as a real card (``CARD_W`` x ``CARD_H``) in ``lang``: frame and band in
    the type's colour with its icon, the name, the type line, the portrait (Animals) or
    type icon, and the rules text (:func:`rules_layout`). Raises ``IndexError`` for an id
    outside the catalog. Cached per card and language."""
    design = catalog()[card_id]
    kind, ctype = design.kind, design.type
    frame, icon_name, _words = TYPE_FRAME[ctype]
    colour = style_colour(ctype, kind)
    name = translate_in(lang, CARD_NAME, design.name)
    line = _type_line(lang, design)
    area, size, lines, _fits = rules_layout(translate_in(lang, RULES_TEXT, design.text), lang)
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
        title = font(_largest(name, NAME_SIZES, NAME_W, True), True)
        d.text((112, 67), fit(d, name, title, NAME_W), font=title, fill=(255, 255, 255),
               anchor="lm")
        type_font = font(_largest(line, LINE_SIZES, CARD_W - 60, True), True)
        d.text((CARD_W // 2, 142), fit(d, line, type_font, CARD_W - 60), font=type_font,
               fill=dark(colour, 0.55), anchor="mm")
        # art
        art_size = min(290 if ctype in ("baby", "basic", "magical") else 240, area)
        paste(img, type_art(ctype, kind, art_size),
              ((CARD_W - art_size) // 2, ART_TOP + (area - art_size) // 2))
        if ctype == "magical":
            for sx, sy in ((110, 200), (490, 200), (480, ART_TOP + area - 30)):
                draw_icon(d, "star", sx, sy, 26, GOLD, dark(GOLD, 0.6))
        # rules text
        box = (BOX_MARGIN, ART_TOP + area + 20, CARD_W - BOX_MARGIN, CARD_H - BOX_MARGIN)
        d.rounded_rectangle(box, radius=16, fill=(255, 255, 255), outline=dark(colour, 0.8),
                            width=3)
        ty = box[1] + 18
        for text_line in lines:
            d.text((box[0] + PAD_X, ty), text_line, font=font(size), fill=INK)
            ty += size + LEADING
    return picture(img, meter, palette=True)


def render_card(card_id: int, lang: str = ENGLISH) -> bytes:
    """PNG bytes of :func:`card_picture` for the catalog card ``card_id`` in ``lang``.
    Raises ``IndexError`` for an id outside the catalog."""
    return card_picture(card_id, lang).png
