"""The end of a game's share: its result card (``bot.render.result_card``) in the end
message beside the final picture, with a Rematch button that works after a restart (its
custom id names the finished game; the lobby cog answers it) and a Replay button (the
replay viewer, :mod:`bot.discord.replay_view`)."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.discord.components import HerdButton, button
from bot.discord.layout import ALT_LIMIT, action_rows
from bot.discord.replay_view import replay_button
from bot.discord.table import Table
from bot.i18n import ENGLISH, translate
from bot.present.result_card import card_inputs
from bot.ratings import Rating
from bot.render.result_card import render_card
from bot.runtime.core import is_lesson

#: The result card's file name in the end message.
CARD_FILE = "result.png"
#: The Rematch button's code (scope ``l``: the lobby cog opens the rematch lobby).
REMATCH = "rematch"
AGAIN = "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}"


def rematch_button(game_id: int, lang: str | None = None) -> HerdButton:
    """The Rematch button (in ``lang``) of finished game ``game_id``."""
    return button("l", game_id, REMATCH, translate(lang, "Rematch"), emoji=AGAIN,
                  style=discord.ButtonStyle.success)


async def with_card(bot: Any, table: Table, parts: dict[str, Any]) -> dict[str, Any]:
    """The end message's ``parts`` (a Components V2 ``view`` and the final picture's
    ``file``) with the result card added: a second picture in its media gallery, its file
    in ``cards``, and the Rematch button in its container (:func:`with_rematch`). Unchanged for a game without a presenter. Two store reads: the
    rating changes written with the final move and the span of the moves. A lesson
    (``/learn``: nothing to share, no rematch in a DM) keeps ``parts`` as they are."""
    if table.result is None or table.spec.presenter is None or is_lesson(table.record):
        return parts
    store = bot.store
    changes = await store.game_rating_changes(table.record.id)
    minutes = round(await store.game_span(table.record.id) / 60)
    inputs = card_inputs(table.spec.presenter, game=table.spec.name, game_id=table.record.id,
                         view=table.view(None), result=table.result, names=table.plain_names,
                         seats=[s.seat for s in table.seats], changes=changes, minutes=minutes,
                         first=Rating().ordinal, lang=table.lang or ENGLISH)
    data = await bot.render(render_card, **inputs)
    alt = f"{inputs['headline']}. {inputs['highlight']}"[:ALT_LIMIT]
    card = discord.File(io.BytesIO(data), filename=CARD_FILE, description=alt)
    return {**parts, "view": with_rematch(parts["view"], table.record.id, alt, table.lang),
            "cards": [card]}


def with_rematch(view: discord.ui.LayoutView, game_id: int, alt: str,
                 lang: str | None = None) -> discord.ui.LayoutView:
    """``view`` (an end message made by :func:`~bot.discord.layout.card`) with the result
    card as the second item of its media gallery (alternative text ``alt``) and the
    Rematch and Replay buttons of finished game ``game_id`` in an action row inside its
    container, above its footer (the buttons in ``lang``)."""
    box = next(c for c in view.children if isinstance(c, discord.ui.Container))
    gallery = next((c for c in box.children if isinstance(c, discord.ui.MediaGallery)), None)
    item = discord.MediaGalleryItem(f"attachment://{CARD_FILE}", description=alt or None)
    if gallery is None:
        box.add_item(discord.ui.MediaGallery(item))
    else:
        gallery.append_item(item)
    children = list(box.children)
    foot = children[-1] if children and isinstance(children[-1], discord.ui.TextDisplay) \
        and children[-1].content.startswith("-# ") else None
    if foot is not None:
        box.remove_item(foot)
    box.add_item(action_rows([rematch_button(game_id, lang), replay_button(game_id, lang)])[0])
    if foot is not None:
        box.add_item(foot)
    return view


def files_of(parts: dict[str, Any]) -> list[discord.File]:
    """Every file of the end message's ``parts``: the final picture, then the card."""
    return [parts["file"], *parts.get("cards", [])]
