"""The end of a game's share: its result card (``bot.render.result_card``) posted in the
thread right after the final scores, with a Rematch button that works after a restart
(its custom id names the finished game; the lobby cog answers it)."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.discord.components import button, view_of
from bot.discord.table import Table
from bot.present.result_card import card_inputs
from bot.ratings import Rating
from bot.render.result_card import render_card

log = logging.getLogger(__name__)

#: The Rematch button's code (scope ``l``: the lobby cog opens the rematch lobby).
REMATCH = "rematch"
AGAIN = "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}"


def rematch_view(game_id: int) -> discord.ui.View:
    """The Rematch button of finished game ``game_id``."""
    return view_of(button("l", game_id, REMATCH, "Rematch", emoji=AGAIN,
                          style=discord.ButtonStyle.success))


async def card_parts(bot: Any, table: Table) -> dict[str, Any]:
    """The result card message of ``table``'s finished game: the picture (drawn in the
    render thread) and the Rematch button. Two store reads: the rating changes written
    with the final move and the span of the moves."""
    assert table.result is not None
    store = bot.store
    changes = await store.game_rating_changes(table.record.id)
    minutes = round(await store.game_span(table.record.id) / 60)
    inputs = card_inputs(table.spec.presenter, game=table.spec.name, game_id=table.record.id,
                         view=table.view(None), result=table.result, names=table.plain_names,
                         seats=[s.seat for s in table.seats], changes=changes, minutes=minutes,
                         first=Rating().ordinal)
    data = await bot.render(render_card, **inputs)
    return {"file": discord.File(io.BytesIO(data), filename="result.png",
                                 description=f"{inputs['headline']}. {inputs['highlight']}"[:1024]),
            "view": rematch_view(table.record.id)}


async def post_card(bot: Any, channel: discord.abc.Messageable, table: Table) -> None:
    """Post ``table``'s result card in ``channel``; a refusal is logged, never raised (the
    game is over and scored all the same)."""
    if table.spec.presenter is None:
        return
    try:
        await channel.send(**await card_parts(bot, table))
    except discord.HTTPException as exc:
        log.info("game %s: the result card could not be posted: %s", table.record.id, exc)
