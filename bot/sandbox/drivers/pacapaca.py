"""UI driver for Alpaca Pacapaca: performs an engine action through the member's clicks.

- Draw2 / TakePile / Pass / StartNegotiation / Keep / Accept / Decline / GiveUp: the
  component whose decoded action equals it (:func:`perform_choice`: the table's buttons,
  the Negotiate panel's partner select, the Keep panel sent after Draw 2 or by My hand,
  the negotiation panel's answers).
- Propose: Edit deal on the negotiation panel, then "Cards I give" and "Cards I get" in the
  ephemeral editor, then Propose.
- NegotiationTimeout is the clock's: never performed by a member (raises ``ValueError``).
"""

from __future__ import annotations

from typing import Any

from bot.games.base import Action
from bot.games.pacapaca.models import NegotiationTimeout, Propose
from bot.sandbox.drivers import DriverContext, click, opened, perform_choice, performs, select


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


async def _click(ctx: DriverContext, message: Any, code: str, *, prefix: bool = False) -> Any:
    comp = find(message, code, prefix=prefix)
    if comp is None:
        raise AssertionError(f"no component {code!r} on {message!r}")
    return await click(ctx.member, message, comp["custom_id"])


@performs
async def perform(ctx: DriverContext, action: Action) -> None:
    """Carry out ``action`` for ``ctx.seat`` by clicking (see the module doc); returns its
    :data:`~bot.sandbox.drivers.Outcome` (a click refused as busy: ``"busy"``)."""
    member = ctx.member
    if isinstance(action, NegotiationTimeout):
        raise ValueError(f"{action.type} is not performed by a member")
    if not isinstance(action, Propose):
        await perform_choice(ctx, action)
        return
    editor = await opened(ctx, await _click(ctx, ctx.table_message(), "edit.", prefix=True))
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
            it = await select(member, editor, [v for v in left if v in here],
                              comp["custom_id"])
            left = [v for v in left if v not in here]
            editor = await opened(ctx, it)
        if left:
            raise AssertionError(f"cards {left} are in no select of {editor!r}")
    await _click(ctx, editor, "prop.", prefix=True)
