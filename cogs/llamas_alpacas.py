"""The Llamas & Alpacas table in Discord (UX.md: "Llamas & Alpacas").

What the table says and offers comes from
:class:`bot.present.llamas_alpacas.LlamasAlpacasPresenter` (grids, takes, the move panel,
the keep select), and clicks are decoded by :class:`GameCog` into the engine's legal
actions; this cog adds the pictures: the table with the last update's cards outlined, the
player's own board under My hand, and the /rules example.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.game_cog import GameCog
from bot.discord.table import Table
from bot.present.llamas_alpacas import LlamasAlpacasPresenter, highlight_of
from bot.render.llamas_alpacas import board_picture, render_table, warm_up
from bot.render.pool import Job
from bot.runtime import Update, UpdateKind
from bot.store import SeatRecord

if TYPE_CHECKING:
    from bot.discord.bot import HerdBot

class LlamasAlpacasCog(GameCog):
    """Discord flows of Llamas & Alpacas on top of :class:`GameCog`."""

    kind = "llamas-alpacas"
    #: Nothing is hidden but the draw pile order, which no refusal names.
    hidden_info = False
    presenter = LlamasAlpacasPresenter()
    table_renderer = render_table
    #: My hand / I'm back below the 3x3 grids.
    utility_row = 3

    def __init__(self, bot: HerdBot) -> None:
        super().__init__(bot)
        #: game id -> gold outlines for the next pictures: the spaces where the last
        #: update placed or moved cards and the lines it scored (``{seat: [spaces]}``).
        self._highlight: dict[int, dict[str, list[int]]] = {}

    async def cog_load(self) -> None:
        """Pay the renderer's one-off warm-up (about 1 s: palette and card tiles) and build
        the /rules example picture at start-up, in a worker thread, so that the first
        table of the first game is as quick as the others."""
        await self.bot.render(warm_up)
        await self.example_image()

    def picture(self, table: Table) -> Job:
        """The table picture (row and every board) from the spectator view."""
        return Job(render_table, (table.view(None),),
                   {"names": table.plain_names, "highlight": self._highlight.get(table.record.id)})

    async def on_update(self, update: Update, interaction: discord.Interaction | None = None) -> None:
        """Remember where the update's cards landed and what scored (outlined in gold on
        the picture), then the base behaviour."""
        if update.state is not None and update.steps:
            self._highlight[update.record.id] = highlight_of(update.events())
        await super().on_update(update, interaction)
        if update.result is not None or update.kind in (UpdateKind.ENDED, UpdateKind.ARCHIVE):
            self._highlight.pop(update.record.id, None)
            self._post_locks.pop(update.record.id, None)

    def ping_key(self, table: Table) -> str:
        """Once per turn: the players who must place a starting card are pinged on the
        first table only, then the active player when a turn begins (not again for the
        keep-treats and place steps of the same turn, which share the pending key
        ``turn-N``)."""
        return table.pending.key

    async def private_panel(self, table: Table, seat: SeatRecord) -> dict[str, Any]:
        """The presenter's words (treats, score, lines, board) and the board's picture."""
        view = table.view(seat.seat)
        assert self.presenter is not None
        text = self.presenter.private_lines(view, seat.seat, table.names)
        pic = await self.bot.render(board_picture, view, seat.seat, names=table.plain_names)
        return {"content": "\n".join(text),
                "file": discord.File(io.BytesIO(pic.png), filename="my-board.png")}


async def setup(bot: HerdBot) -> None:
    """Extension entry point."""
    await bot.add_cog(LlamasAlpacasCog(bot))
