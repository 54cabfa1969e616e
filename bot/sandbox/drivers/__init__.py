"""UI drivers: how a simulated member performs a chosen engine action by clicking.

One module per game, named by its spec (:attr:`bot.games.registry.GameSpec.driver`),
exposing::

    @performs
    async def perform(ctx: DriverContext, action: Action) -> None

which must carry out ``action`` for ``ctx.seat`` only through the member's visible
components (buttons, selects, modals), the way a player would, clicking through
:func:`click` and :func:`select` (or :func:`choose`) and reading a panel a click opens
with :func:`opened`. :func:`performs` makes it return an :data:`Outcome`: a click the
bot refused as too busy, at any step, ends the move as ``"busy"`` (never an exception).
The demo, the full-game Discord tests and the load benchmark use them.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from bot.discord.choices import parse_page
from bot.discord.errors import BUSY, BUSY_COMMAND
from bot.games.base import Action
from bot.games.registry import GameSpec
from bot.i18n import SHIPPED, translate
from bot.present import base as present

#: What a driver's ``perform`` returns: ``"done"``, every click sent and the ones that
#: open a panel answered; ``"busy"``, the bot refused one of the move's clicks with its
#: busy sentence (:data:`bot.discord.errors.BUSY`): nothing of the move was made and the
#: player may try again; ``"unanswered"``, a click that opens a panel got no answer
#: within :attr:`DriverContext.patience` (on Discord: "This interaction failed").
Outcome = Literal["done", "busy", "unanswered"]


@dataclass
class DriverContext:
    """What a driver needs: the sandbox world, the bot, the member and their game."""

    world: Any  # bot.sandbox.World
    bot: Any  # bot.discord.bot.HerdBot
    member: Any  # bot.sandbox.SimMember
    game_id: int
    seat: str
    #: Seconds a click that opens a panel may take to show it (wall clock) after the
    #: member's click returned: 0 when a click returns once the bot is done with it (the
    #: sandbox settles); more for a bot in another process, whose answer can come later.
    patience: float = 0.0

    @property
    def thread(self) -> Any:
        """The game's thread (or channel) in the world."""
        return self.world.channel(self._record_thread())

    def _record_thread(self) -> int:
        return self._thread_id

    _thread_id: int = 0

    def table_message(self) -> Any:
        """The current table message: the last message in the thread with buttons or
        selects (a DM in a lesson's channel is a V2 message without any)."""
        msgs = [m for m in self.member.visible(self.thread)
                if not m.ephemeral and (m.buttons() or m.selects())]
        if not msgs:
            raise AssertionError("no table message with buttons or selects in the thread")
        return msgs[-1]


Perform = Callable[[DriverContext, Action], Awaitable[Outcome]]


class NotLegal(AssertionError):
    """The action a driver was given is not legal for its seat when the driver reads the
    game, before it presses anything (the decision went meanwhile, or never was)."""


def legal_now(table: Any, seat: str, action: Action) -> list[Action]:
    """``seat``'s legal actions in ``table`` (a :class:`bot.discord.table.Table`) as read
    now; raises :class:`NotLegal` when ``action`` is not among them."""
    legal = table.legal(seat)
    if action not in legal:
        raise NotLegal(f"{action!r} is not legal for {seat} at move {table.state.version}: "
                       f"{table.spec.engine.pending(table.state)!r}")
    return list(legal)


class NotMade(Exception):
    """A click of the move was refused or never answered (``outcome``: ``"busy"`` or
    ``"unanswered"``); :func:`performs` turns it into ``perform``'s return value."""

    def __init__(self, outcome: Outcome, what: str = ""):
        super().__init__(f"{outcome}: {what}" if what else outcome)
        self.outcome: Outcome = outcome


@functools.cache
def _busy_sentences() -> tuple[str, ...]:
    return tuple({translate(lang, msgid) for lang in SHIPPED for msgid in (BUSY, BUSY_COMMAND)})


def refused_busy(it: Any) -> bool:
    """Whether the bot answered interaction ``it`` (a ``SimInteraction``) with its busy
    sentence, in any shipped language (the response message, a followup or the message
    it last touched)."""
    msgs = [it.original, *it.followups, it.last_touched]
    texts = [m.text for m in msgs if m is not None]
    return any(sentence in text for text in texts for sentence in _busy_sentences())


def checked(it: Any) -> Any:
    """``it`` (the interaction a click made) unless the bot refused it as busy: then
    raises :class:`NotMade` ``"busy"``."""
    if refused_busy(it):
        raise NotMade("busy", f"{it!r}")
    return it


async def click(member: Any, message: Any, key: str) -> Any:
    """``member.click(message, key)``; raises :class:`NotMade` when refused as busy."""
    return checked(await member.click(message, key))


async def select(member: Any, message: Any, values: list[Any], custom_id: str) -> Any:
    """``member.select(...)``; raises :class:`NotMade` when refused as busy."""
    return checked(await member.select(message, values, custom_id=custom_id))


async def opened(ctx: DriverContext, it: Any) -> Any:
    """The message the bot answered click ``it`` with (a panel it opened or updated),
    waiting up to :attr:`DriverContext.patience` for it. Raises :class:`NotMade`:
    ``"busy"`` when the answer is the busy sentence, ``"unanswered"`` when none came."""
    end = time.perf_counter() + ctx.patience
    while True:
        checked(it)
        if it.last_touched is not None:
            return it.last_touched
        if time.perf_counter() >= end:
            raise NotMade("unanswered", f"{it!r}")
        await asyncio.sleep(0.01)


def performs(fn: Callable[[DriverContext, Action], Awaitable[None]]) -> Perform:
    """A driver's ``perform`` returning its :data:`Outcome`: ``"done"`` when ``fn``
    returned, the :class:`NotMade` outcome when a click was refused; other exceptions
    (a component missing, an action not legal) go through."""

    @functools.wraps(fn)
    async def perform(ctx: DriverContext, action: Action) -> Outcome:
        try:
            await fn(ctx, action)
        except NotMade as refused:
            return refused.outcome
        return "done"

    return perform


def base_code(component: dict[str, Any]) -> str:
    """The code of a herdbot custom id without its page part (``hs:g:1:x:ch.7,p2`` ->
    ``ch.7``; see :mod:`bot.discord.choices`)."""
    return parse_page(str(component.get("custom_id", "")).split(":", 4)[-1])[0]


async def choose(member: Any, message: Any, prefix: str, value: str) -> None:
    """Choose the option ``value`` in the select whose code (page part aside) starts with
    ``prefix`` on ``message``, turning its pages with Next (then Previous) until the
    option shows, as a player would. Raises ``AssertionError`` when no page has it,
    :class:`NotMade` when the bot refused a click as busy."""
    world = member.world
    for direction in ("f", "b"):
        for _ in range(1000):
            message = world.messages.get(message.id, message)
            sel = next((c for c in message.selects() if base_code(c).startswith(prefix)), None)
            if sel is None:
                raise AssertionError(f"no select {prefix!r} on {message!r}")
            shown = next((o["value"] for o in sel.get("options", [])
                          if _same_option(o["value"], value)), None)
            if shown is not None:
                await select(member, message, [shown], sel["custom_id"])
                return
            code = str(sel["custom_id"]).split(":", 4)[-1]
            turn = next((b for b in message.buttons() if base_code(b) == base_code(sel)
                         and str(b["custom_id"]).split(":", 4)[-1].rpartition(",")[2][:1]
                         == direction and not b.get("disabled")), None)
            if turn is None or "," not in code:
                break
            await click(member, message, turn["custom_id"])
    raise AssertionError(f"option {value!r} is on no page of {prefix!r}")


def _same_option(shown: str, value: str) -> bool:
    """Whether option value ``shown`` is ``value``, or the same action index with the
    fingerprint a set-up pick carries (``"3-1a2b3c"`` for ``"3"``)."""
    if shown == value:
        return True
    try:
        return not present.print_of(value) and present.index_of(shown) == present.index_of(value)
    except present.ForgedChoice:
        return False


def _code(component: dict[str, Any]) -> str:
    """The code part of a component's custom id (``hb:g:1:x:a.<key>.3`` -> ``a.<key>.3``)."""
    return str(component.get("custom_id", "")).split(":", 4)[-1]


async def perform_choice(ctx: DriverContext, action: Action) -> None:
    """Carry out ``action`` through presenter-drawn components (:mod:`bot.present.base`):
    press the button (or choose the select option) whose decoded action,
    ``legal_actions[index]`` at its decision key, equals ``action``: on the member's
    latest private panels or the table, else behind the panels that lead to it (opened
    in turn), else in My hand. Raises :class:`NotLegal` when ``action`` is not legal for
    the seat, ``AssertionError`` when no component plays it, :class:`NotMade` when a
    click was refused as busy or a panel did not open."""
    cog = ctx.bot.game_cog((await ctx.bot.service.get(ctx.game_id)).kind)
    table = await cog.load_table(ctx.game_id)
    engine = table.spec.engine
    legal = legal_now(table, ctx.seat, action)

    def plays(code: str, value: str | None = None) -> bool:
        parsed = present.parse_code(base_code({"custom_id": code}))
        if parsed is None or parsed[0] == "o":
            return False
        kind, key, arg = parsed
        try:
            index = present.index_of(arg if kind == "a" else value or "")
            return present.decode(engine, table.state, ctx.seat, key, index) == action
        except (present.StaleChoice, present.ForgedChoice):
            return False

    async def press(message: Any) -> bool:
        for b in message.buttons():
            if not b.get("disabled") and plays(_code(b)):
                await click(member, message, b["custom_id"])
                return True
        for sel in message.selects():
            for opt in sel.get("options", []):
                if not sel.get("disabled") and plays(_code(sel), opt["value"]):
                    await choose(member, message, base_code(sel), opt["value"])
                    return True
        return False

    member = ctx.member
    for message in [*reversed(member.ephemerals[-3:]), ctx.table_message()]:
        if await press(message):
            return
    model = cog.model(table, ctx.seat)
    path = model.panel_path(legal.index(action))
    message = ctx.table_message()
    if path:
        for panel in path:
            opener = next((b for b in message.buttons()
                           if _code(b) == present.panel_code(model.key, panel)), None)
            if opener is None:
                raise AssertionError(f"no button opens panel {panel!r}; buttons: "
                                     f"{message.labels}")
            message = await opened(ctx, await click(member, message, opener["custom_id"]))
            assert message.ephemeral, f"panel {panel!r} did not open"
        if await press(message):
            return
    hand = next((b for b in message.buttons() if _code(b) == "hand"), None)
    if hand is not None:
        if await press(await opened(ctx, await click(member, message, hand["custom_id"]))):
            return
    raise AssertionError(f"no component plays {action!r}; buttons: {message.labels}")


def driver_for(spec: GameSpec) -> Perform:
    """The ``perform`` function of the game's driver module, which its spec names (the
    sandbox sits above the wiring of the specs, so a spec names its driver rather than
    holding it). Raises ``LookupError`` for a game without a driver."""
    if not spec.driver:
        raise LookupError(f"{spec.key} has no UI driver")
    module = importlib.import_module(spec.driver)
    return module.perform  # type: ignore[no-any-return]
