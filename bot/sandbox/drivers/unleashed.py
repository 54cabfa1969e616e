"""UI driver for Llamas Unleashed: performs an engine action by clicking like a player.

Set-up: "Choose your Baby" on the table, then the Baby select (or "Pick one for me").
Reaction windows: "Pass" on the table, or "Respond" then the Instant select. Everything
else goes through the private panel opened with "My hand": the hand select (then the
Field select when the card may go into several Fields), "Draw a card", the Proceed and
Activate buttons, and the choice select or buttons. Raises ``AssertionError`` (with the
bot's last answer) when the action did not change the game.
"""

from __future__ import annotations

from typing import Any

from bot.games.base import Action
from bot.games.unleashed.models import (
    Activate,
    Choose,
    ChooseBaby,
    DrawCard,
    Pass,
    Play,
    Proceed,
    Respond,
)
from bot.sandbox.drivers import DriverContext, base_code, choose


def _code(comp: dict[str, Any]) -> str:
    """The code part of a herdbot custom id (``hb:g:1:x:play.3`` -> ``play.3``)."""
    return str(comp.get("custom_id", "")).split(":", 4)[-1]


def find(message: Any, prefix: str) -> dict[str, Any]:
    """The first component of ``message`` whose code starts with ``prefix``: a select
    first (whatever page it shows), then a button."""
    for comp in [*message.selects(), *message.buttons()]:
        if base_code(comp).startswith(prefix):
            return comp
    raise AssertionError(f"no component {prefix!r} on {message!r}")


async def _choose(ctx: DriverContext, panel: Any, option: int) -> None:
    m = ctx.member
    for comp in panel.buttons():
        if _code(comp).startswith("chb.") and _code(comp).endswith(f".{option}"):
            await m.click(panel, comp["custom_id"])
            return
    await choose(m, panel, "ch.", str(option))


async def perform(ctx: DriverContext, action: Action) -> None:
    """Carry out ``action`` for ``ctx.seat`` through the member's visible components."""
    m = ctx.member
    before = (await ctx.bot.store.get_game(ctx.game_id)).version
    table = ctx.table_message()
    if isinstance(action, ChooseBaby):
        await m.click(table, "Choose your Baby")
        panel = m.last_reply
        if action.card is None:
            await m.click(panel, "Pick one for me")
        else:
            await choose(m, panel, "bsel", str(action.card))
    elif isinstance(action, Pass):
        await m.click(table, "Pass")
    elif isinstance(action, Respond):
        await m.click(table, "Respond")
        panel = m.last_reply
        await choose(m, panel, "rsel", str(action.card))
    else:
        await m.click(table, "My hand")
        panel = m.last_reply
        if isinstance(action, Play):
            await choose(m, panel, "play.", str(action.card))
            reply = m.last_reply
            if reply is not None and reply.ephemeral and any(
                    _code(c).startswith("field.") for c in reply.selects()):
                await choose(m, reply, "field.", str(action.field))
        elif isinstance(action, DrawCard):
            await m.click(panel, find(panel, "draw.")["custom_id"])
        elif isinstance(action, Proceed):
            await m.click(panel, find(panel, "proc.")["custom_id"])
        elif isinstance(action, Activate):
            src = action.source.replace(":", "=")
            comp = next((c for c in panel.buttons() if _code(c).startswith("act.")
                         and _code(c).endswith("." + src)), None)
            if comp is None:
                raise AssertionError(f"no button for {action.source} on {panel!r}")
            await m.click(panel, comp["custom_id"])
        elif isinstance(action, Choose):
            await _choose(ctx, panel, action.option)
        else:  # pragma: no cover - every action type is handled above
            raise AssertionError(f"the driver cannot perform {action!r}")
    await ctx.world.settle()
    after = (await ctx.bot.store.get_game(ctx.game_id)).version
    if after == before:
        last = m.last_reply
        raise AssertionError(f"{m.name}: {action!r} changed nothing; the bot said "
                             f"{last.text if last is not None else None!r}")
