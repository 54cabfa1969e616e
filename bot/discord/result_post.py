"""The end of a game's share: its result card (``bot.render.result_card``) in the end
message beside the final picture, with a Rematch button that works after a restart (its
custom id names the finished game; the lobby cog answers it)."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.discord.components import button, view_of
from bot.discord.table import Table
from bot.present.result_card import card_inputs
from bot.ratings import Rating
from bot.render.result_card import render_card

#: The result card's file name in the end message.
CARD_FILE = "result.png"
#: The Rematch button's code (scope ``l``: the lobby cog opens the rematch lobby).
REMATCH = "rematch"
AGAIN = "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}"


def rematch_view(game_id: int) -> discord.ui.View:
    """The Rematch button of finished game ``game_id``."""
    return view_of(button("l", game_id, REMATCH, "Rematch", emoji=AGAIN,
                          style=discord.ButtonStyle.success))


async def with_card(bot: Any, table: Table, parts: dict[str, Any]) -> dict[str, Any]:
    """The end message's ``parts`` (``embeds`` and the final picture's ``file``) with the
    result card added: one more embed showing it, its file in ``cards`` and the Rematch
    button as ``view``. Unchanged for a game without a presenter. Two store reads: the
    rating changes written with the final move and the span of the moves."""
    if table.result is None or table.spec.presenter is None:
        return parts
    store = bot.store
    changes = await store.game_rating_changes(table.record.id)
    minutes = round(await store.game_span(table.record.id) / 60)
    inputs = card_inputs(table.spec.presenter, game=table.spec.name, game_id=table.record.id,
                         view=table.view(None), result=table.result, names=table.plain_names,
                         seats=[s.seat for s in table.seats], changes=changes, minutes=minutes,
                         first=Rating().ordinal)
    data = await bot.render(render_card, **inputs)
    card = discord.File(io.BytesIO(data), filename=CARD_FILE,
                        description=f"{inputs['headline']}. {inputs['highlight']}"[:1024])
    embed = discord.Embed(colour=0xE0B000).set_image(url=f"attachment://{CARD_FILE}")
    return {**parts, "embeds": [*parts["embeds"], embed], "cards": [card],
            "view": rematch_view(table.record.id)}


def files_of(parts: dict[str, Any]) -> list[discord.File]:
    """Every file of the end message's ``parts``: the final picture, then the card."""
    return [parts["file"], *parts.get("cards", [])]
