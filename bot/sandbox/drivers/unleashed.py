"""UI driver for Llamas Unleashed: performs an engine action by clicking like a player,
choosing every component by the action it plays (never by its label).

Set-up: the table's Baby opener, then the panel's choice that plays the action. Reaction
windows: the table's Pass, or its Respond then the Instant that plays the action. Every
other action goes through the private panel opened with My hand. A presenter choice is
found by decoding its custom id (``legal_actions[index]`` at its decision key, see
:mod:`bot.present.base`). Raises ``AssertionError`` (with the bot's last answer) when the
action did not change the game.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.games.base import Action
from bot.games.unleashed.models import ChooseBaby, Pass, Respond
from bot.present import base as present
from bot.sandbox.drivers import (
    DriverContext,
    NotMade,
    base_code,
    choose,
    click,
    legal_now,
    opened,
    performs,
)


def _code(comp: dict[str, Any]) -> str:
    """The code part of a herdbot custom id (``hb:g:1:x:a.<key>.3`` -> ``a.<key>.3``)."""
    return str(comp.get("custom_id", "")).split(":", 4)[-1]


def find(message: Any, prefix: str) -> dict[str, Any]:
    """The first component of ``message`` whose code starts with ``prefix``: a select
    first (whatever page it shows), then a button."""
    for comp in [*message.selects(), *message.buttons()]:
        if base_code(comp).startswith(prefix):
            return comp
    raise AssertionError(f"no component {prefix!r} on {message!r}")


async def press(ctx: DriverContext, message: Any, action: Action) -> None:
    """Press the button, or choose the select option (turning its pages), of ``message``
    that plays ``action`` for ``ctx.seat`` now. Raises :class:`~bot.sandbox.drivers.NotLegal`
    when ``action`` is not legal for the seat, ``AssertionError`` when nothing plays it,
    :class:`~bot.sandbox.drivers.NotMade` when the bot refused the click as busy."""
    cog = ctx.bot.game_cog("llamas-unleashed")
    table = await cog.load_table(ctx.game_id)
    engine = table.spec.engine
    legal = legal_now(table, ctx.seat, action)
    index = legal.index(action)

    def plays(code: str, value: str | None = None) -> bool:
        parsed = present.parse_code(code)
        if parsed is None or parsed[0] == "o":
            return False
        kind, key, arg = parsed
        try:
            chosen = present.decode(engine, table.state, ctx.seat, key,
                                    present.index_of(arg if kind == "a" else value or ""))
        except (present.StaleChoice, present.ForgedChoice):
            return False
        return bool(chosen == action)

    for b in message.buttons():
        if not b.get("disabled") and plays(_code(b)):
            await click(ctx.member, message, b["custom_id"])
            return
    for sel in message.selects():
        if plays(base_code(sel), str(index)):
            await choose(ctx.member, message, base_code(sel), str(index))
            return
    raise AssertionError(f"nothing on {message!r} plays {action!r}")


@performs
async def perform(ctx: DriverContext, action: Action) -> None:
    """Carry out ``action`` for ``ctx.seat`` through the member's visible components;
    returns its :data:`~bot.sandbox.drivers.Outcome` (a click refused as busy at any
    step: ``"busy"``)."""
    m = ctx.member
    before = (await ctx.bot.store.get_game(ctx.game_id)).version
    table = ctx.table_message()
    if isinstance(action, Pass):
        await click(m, table, find(table, "pass.")["custom_id"])
    else:
        if isinstance(action, ChooseBaby):
            opener = next((b for b in table.buttons()
                           if _code(b).startswith("o.") and _code(b).endswith(".baby")), None)
            if opener is None:
                raise AssertionError(f"no Baby button on {table!r}")
        elif isinstance(action, Respond):
            opener = find(table, "resp.")
        else:
            opener = find(table, "hand")
        await press(ctx, await opened(ctx, await click(m, table, opener["custom_id"])), action)
    await ctx.world.settle()
    # A bot in another process may store the move after the click returned: wait for
    # it as a player waits for the table (up to ctx.patience).
    end = time.perf_counter() + ctx.patience
    while (await ctx.bot.store.get_game(ctx.game_id)).version == before:
        last_it = m.last_interaction
        if time.perf_counter() < end:
            await asyncio.sleep(0.05)
            continue
        if last_it is not None and not last_it.responded:
            raise NotMade("unanswered", f"{action!r}")
        last = m.last_reply
        raise AssertionError(f"{m.name}: {action!r} changed nothing; the bot said "
                             f"{last.text if last is not None else None!r}")
