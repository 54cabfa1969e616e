"""The Llamas Unleashed ``/card`` picture (Pillow): one card as a real card, with its
type's colours, portrait or icon, and our rules text from the seed file."""

from __future__ import annotations

from functools import cache

from PIL import Image

from bot.games.unleashed.cards import catalog
from bot.render.common import Draw, Picture, font, measuring, min_font, paste, picture
from bot.render.herd_art import TYPE_FRAME, dark, draw_icon, icon, tint
from bot.render.unleashed import GOLD, INK, fit, style_colour, type_art, wrap

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
    colour = style_colour(ctype, kind)
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
        d.text((112, 67), fit(d, design.name, title, CARD_W - 150), font=title,
               fill=(255, 255, 255), anchor="lm")
        line = words + (f" \u00b7 {kind.title()}" if kind else "")
        d.text((CARD_W // 2, 142), line, font=font(30, True), fill=dark(colour, 0.55),
               anchor="mm")
        # art
        art_size = 290 if ctype in ("baby", "basic", "magical") else 240
        paste(img, type_art(ctype, kind, art_size), ((CARD_W - art_size) // 2, 170 + (290 - art_size) // 2))
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
