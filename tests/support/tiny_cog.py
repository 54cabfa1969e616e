"""The tiny game's cog (tests only): buttons Add 1 / Add 2 / Wait, a 1-line picture."""

from __future__ import annotations

import io
from typing import Any, cast

import discord
from PIL import Image, ImageDraw

from bot.discord import ids
from bot.discord.components import button
from bot.discord.game_cog import GameCog, Table
from bot.discord.layout import panel
from bot.runtime import GameError
from bot.store import SeatRecord
from tests.support.tinygame import TinyState


class TinyCog(GameCog):
    kind = "tiny"

    def render(self, table: Table) -> bytes:
        img = Image.new("RGB", (200, 60), "white")
        ImageDraw.Draw(img).text((10, 20), f"counter {cast(TinyState, table.state).counter}", fill="black")
        buf = io.BytesIO()
        img.save(buf, "PNG")
        return buf.getvalue()

    def turn_text(self, table: Table) -> str:
        seat = table.pending.seats[0]
        return f"**{table.names[seat]}**'s turn: add 1 or 2."

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        gid, ver = table.record.id, table.record.version
        legal = {a.model_dump_json() for s in table.pending.seats for a in table.legal(s)}
        items: list[discord.ui.Item[Any]] = []
        for n in (1, 2):
            on = any(f'"n":{n}' in a for a in legal)
            items.append(button("g", gid, f"add.{n}", f"Add {n}", version=ver, disabled=not on))
        items.append(button("g", gid, "wait", "Wait", version=ver))
        return items

    async def on_game_component(self, interaction: discord.Interaction, table: Table,
                                seat: SeatRecord, cid: ids.ComponentId, values: list[str]) -> None:
        if cid.code.startswith("add."):
            await self.act(interaction, table, seat, {"type": "add", "n": int(cid.code[4:])},
                           version=cid.version)
        elif cid.code == "boom":
            raise RuntimeError("a bug in a cog")
        elif cid.code == "wait":
            await self.act(interaction, table, seat, {"type": "wait"}, version=cid.version)
        else:
            raise GameError("bad_button", "This button is not one herdbot understands.")

    async def private_panel(self, table: Table, seat: SeatRecord) -> dict[str, Any]:
        return {"view": panel(accent=self.accent, words=f"Your secret token is "
                              f"{cast(TinyState, table.state).secrets[seat.seat]}.")}


async def setup(bot: Any) -> None:
    await bot.add_cog(TinyCog(bot))
