"""The tiny game's UI driver (tests only): each action is the table button a player
presses (:mod:`tests.support.tiny_cog`)."""

from __future__ import annotations

from bot.games.base import Action
from bot.sandbox.drivers import DriverContext
from tests.support.tinygame import Add, Wait


async def perform(ctx: DriverContext, action: Action) -> None:
    """Press Add 1, Add 2 or Wait on the table for ``ctx.seat``. Raises ``ValueError`` for
    an action no button plays (the clock's Stop waiting)."""
    if isinstance(action, Add):
        label = f"Add {action.n}"
    elif isinstance(action, Wait):
        label = "Wait"
    else:
        raise ValueError(f"no button plays {action!r}")
    await ctx.member.click(ctx.table_message(), label)
