"""UI driver for Alpaca Pacapaca: performs an engine action through the member's clicks.

- Draw2 / TakePile / Pass / Negotiate: the table buttons (codes ``draw``, ``take``,
  ``pass``, ``neg``); StartNegotiation then picks the partner in the ephemeral select.
- Keep: the Keep button of the member's latest ephemeral showing the drawn cards (or the
  one My hand shows).
- Propose: Edit deal on the negotiation panel, then "Cards I give" and "Cards I get" in the
  ephemeral editor, then Propose. Accept / Decline / GiveUp: the panel's buttons.
- NegotiationTimeout is the clock's: never performed by a member (raises ``ValueError``).
"""

from __future__ import annotations

from typing import Any

from bot.games.base import Action
from bot.games.pacapaca.models import (
    Accept,
    Decline,
    Draw2,
    GiveUp,
    Keep,
    Pass,
    Propose,
    StartNegotiation,
    TakePile,
)
from bot.sandbox.drivers import DriverContext


def _code(component: dict[str, Any]) -> str:
    return str(component.get("custom_id", "")).split(":", 4)[-1]


def find(message: Any, code: str, *, prefix: bool = False) -> dict[str, Any] | None:
    """The enabled-or-not component of ``message`` whose id code is ``code`` (or starts with
    it when ``prefix``)."""
    for comp in [*message.buttons(), *message.selects()]:
        c = _code(comp)
        if c == code or (prefix and c.startswith(code)):
            return comp
    return None


async def _click(ctx: DriverContext, message: Any, code: str, *, prefix: bool = False) -> None:
    comp = find(message, code, prefix=prefix)
    if comp is None:
        raise AssertionError(f"no component {code!r} on {message!r}")
    await ctx.member.click(message, comp["custom_id"])


def _keep_message(ctx: DriverContext, card: int) -> Any | None:
    for msg in reversed(ctx.member.ephemerals):
        comp = find(msg, f"keep.{card}")
        if comp is not None and not comp.get("disabled"):
            return msg
    return None


async def perform(ctx: DriverContext, action: Action) -> None:
    """Carry out ``action`` for ``ctx.seat`` by clicking (see the module doc)."""
    member = ctx.member
    if isinstance(action, Draw2):
        await _click(ctx, ctx.table_message(), "draw")
    elif isinstance(action, TakePile):
        await _click(ctx, ctx.table_message(), "take")
    elif isinstance(action, Pass):
        await _click(ctx, ctx.table_message(), "pass")
    elif isinstance(action, Keep):
        msg = _keep_message(ctx, action.card)
        if msg is None:
            await _click(ctx, ctx.table_message(), "hand")
            msg = member.last_reply
        await _click(ctx, msg, f"keep.{action.card}")
    elif isinstance(action, StartNegotiation):
        await _click(ctx, ctx.table_message(), "neg")
        picker = member.last_reply
        comp = find(picker, "partner")
        if comp is None:
            raise AssertionError(f"no partner select: {picker!r}")
        await member.select(picker, [action.partner], custom_id=comp["custom_id"])
    elif isinstance(action, Propose):
        await _click(ctx, ctx.table_message(), "edit.", prefix=True)
        editor = member.last_reply
        for code, cards in (("give.", action.give), ("get.", action.get)):
            # Past 25 cards a list is spread over several selects (``give.<t>,p<k>``):
            # each gets the chosen cards among its own options.
            sels = [c for c in editor.selects() if _code(c).startswith(code)]
            if not sels or any(c.get("disabled") for c in sels):
                if cards:
                    raise AssertionError(f"cannot choose {cards} in {editor!r}")
                continue
            left = [str(c) for c in cards]
            for comp in sels:
                here = {o["value"] for o in comp.get("options", [])}
                await member.select(editor, [v for v in left if v in here],
                                    custom_id=comp["custom_id"])
                left = [v for v in left if v not in here]
                editor = member.last_reply
            if left:
                raise AssertionError(f"cards {left} are in no select of {editor!r}")
        await _click(ctx, editor, "prop.", prefix=True)
    elif isinstance(action, Accept):
        panel = ctx.table_message()
        comp = find(panel, "acc.", prefix=True)
        if comp is None:
            raise AssertionError("no Accept button on the negotiation panel")
        turn = _code(comp).split(".")[1]
        await _click(ctx, panel, f"acc.{turn}.{action.version}")
    elif isinstance(action, Decline):
        await _click(ctx, ctx.table_message(), "dec.", prefix=True)
    elif isinstance(action, GiveUp):
        await _click(ctx, ctx.table_message(), "giveup.", prefix=True)
    else:
        raise ValueError(f"{action.type} is not performed by a member")
