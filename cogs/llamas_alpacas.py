"""The Llamas & Alpacas table in Discord (UX.md: "Llamas & Alpacas").

What the table says, offers and pictures comes from the game's spec (``bot.app.
llamas_alpacas``): :class:`bot.present.llamas_alpacas.LlamasAlpacasPresenter` (grids,
takes, the move panel, the keep select, the gold outlines of the last update's cards) and
the table renderer; clicks are decoded by :class:`GameCog` into the engine's legal
actions. This cog adds the player's own board under My hand and the renderer's warm-up,
and draws the pictures in the game's language (My hand's board in the member's).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.game_cog import GameCog
from bot.discord.layout import panel
from bot.discord.table import Table
from bot.present.llamas_alpacas import LlamasAlpacasPresenter
from bot.render.llamas_alpacas import warm_up
from bot.render.pool import Job
from bot.store import SeatRecord

if TYPE_CHECKING:
    from bot.discord.bot import HerdBot

class LlamasAlpacasCog(GameCog):
    """Discord flows of Llamas & Alpacas on top of :class:`GameCog`."""

    kind = "llamas-alpacas"

    async def cog_load(self) -> None:
        """Pay the renderer's one-off warm-up (about 1 s: palette and card tiles) and build
        the /rules example picture at start-up, in a worker thread, so that the first
        table of the first game is as quick as the others."""
        await self.bot.render(warm_up)
        await self.example_image()

    def picture(self, table: Table, inputs: dict[str, Any] | None = None) -> Job | None:
        """The table picture (the base's job) drawn in the game's language."""
        job = super().picture(table, inputs)
        if job is not None:
            job.kwargs["lang"] = table.lang
        return job

    async def private_panel(self, table: Table, seat: SeatRecord) -> dict[str, Any]:
        """A Components V2 panel: the presenter's words (treats, score, lines, board) and
        the board's picture (the spec's ``board`` close-up, ``my-board.png``) with the
        board in words as its alternative text."""
        view = table.view(seat.seat)
        presenter: LlamasAlpacasPresenter = table.spec.presenter
        text = presenter.private_lines(view, seat.seat, table.names, lang=table.member_lang)
        png = await self.closeup(table, "board", view, seat.seat, names=table.plain_names,
                                 lang=table.member_lang)
        return {"view": panel(accent=self.accent, words="\n".join(text), picture="my-board.png",
                              alt=presenter.closeup_alt(view, seat.seat, table.member_lang),
                              lang=table.member_lang),
                "file": discord.File(io.BytesIO(png), filename="my-board.png")}


async def setup(bot: HerdBot) -> None:
    """Extension entry point."""
    await bot.add_cog(LlamasAlpacasCog(bot))
