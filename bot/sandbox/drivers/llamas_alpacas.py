"""UI driver for Llamas & Alpacas: performs Place / Take / Move / Keep by pressing the
buttons (and choosing the select) the member sees, as a player would.

- ``Place`` (set-up or after a take): the grid button of the space, labelled
  ``"<space+1> · ..."`` on the current table message.
- ``Take``: the button ``"Take <position> (...)"``.
- ``Keep``: the keep-treats select, option value = clovers kept.
- ``Move``: "Move a card" on the table, then the from-space and the to-space buttons of
  the ephemeral move panel.
"""

from __future__ import annotations

from typing import Any

from bot.games.base import Action
from bot.games.llamas_alpacas.models import Keep, Move, Place, Take
from bot.sandbox.drivers import DriverContext


def _button(message: Any, prefix: str) -> str:
    """The label of the first button on ``message`` whose label starts with ``prefix``."""
    for label in message.labels:
        if label.startswith(prefix):
            return str(label)
    raise AssertionError(f"no button starting with {prefix!r}; buttons: {message.labels}")


async def perform(ctx: DriverContext, action: Action) -> None:
    """Carry out ``action`` for ``ctx.seat`` through clicks and selects only.

    Raises ``AssertionError`` when the expected component is missing and the sandbox's
    error when it is disabled."""
    member = ctx.member
    table = ctx.table_message()
    if isinstance(action, Place):
        await member.click(table, _button(table, f"{action.space + 1} · "))
    elif isinstance(action, Take):
        await member.click(table, _button(table, f"Take {action.position} ("))
    elif isinstance(action, Keep):
        await member.select(table, values=[str(action.clovers)])
    elif isinstance(action, Move):
        await member.click(table, "Move a card")
        panel = member.last_reply
        assert panel is not None and panel.ephemeral, "the move panel did not open"
        await member.click(panel, _button(panel, f"{action.src + 1} · "))
        panel = member.last_reply
        await member.click(panel, _button(panel, f"{action.dst + 1} · "))
    else:
        raise AssertionError(f"not a Llamas & Alpacas action: {action!r}")
