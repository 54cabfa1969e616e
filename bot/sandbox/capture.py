"""One whole game played through the real bot in a fresh sandbox, every request the bot
sent recorded (for the conformance checks of :mod:`bot.sandbox.conformance`), with
display names that try every markdown and mention trick."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from bot.app import builtin_games, make_bot
from bot.config import TURN_TIMER_SECONDS, Settings
from bot.runtime import ManualClock

from .demo import play_game
from .world import World

#: Display names for :func:`capture_game`: markdown, mentions, links, escapes, wide and
#: astral characters, and Discord's documented maximum of 32 characters for a nickname or
#: display name. The first member hosts and has Manage Server.
MARKDOWN_NAMES = (
    "**B** _i_ ~~x~~ `c` <@123> @here",
    "<@&456> @everyone ||spoil|| #1 *",
    "[link](https://x.co) __u__ > q",
    "Bartholomew Maximilian Llamaherd",
    "# Big -# small `open **open _op",
    "\\*esc\\* <#789> <t:1:R> :llama:",
    "Zoë 🦙 Ñandú 漢字 <@!42> ~~end",
    "Ana",
)


async def capture_game(game: str, players: int, seed: int, *,
                       names: tuple[str, ...] = MARKDOWN_NAMES, turn_timer: str = "2m",
                       timeout_every: int = 5, leave_after: int | None = 3,
                       language: str | None = None, group_dm: bool = False) -> list[Any]:
    """Play one whole game through the real bot in a fresh sandbox and return every
    request the bot sent (:class:`~bot.sandbox.RecordedRequest`, from login to close).

    The host sets the server's turn timer with ``/settings turn_timer`` first; after every
    ``timeout_every``-th action the clock runs to the half-time reminder and then past the
    deadline, so reminders and timeout notes are posted; with 3+ players the last member
    leaves with ``/game leave`` after ``leave_after`` actions (``None``: nobody leaves).
    ``language``: the server's ``/settings language`` too (the game's language; ``None``:
    not set, English).
    With ``group_dm`` the players installed herdbot to their accounts and play in their
    group DM (one message; the turn timer is the bot's default there, no /settings).
    Raises ``RuntimeError``/``AssertionError`` (from the demo loop) when the game stalls,
    :class:`~bot.sandbox.SandboxError` when the bot logs an error.
    """
    world = World()
    host = world.add_member(names[0], manage_guild=True)
    for name in names[1:players]:
        world.add_member(name)
    seconds = TURN_TIMER_SECONDS[turn_timer] or 0
    actions = 0
    group = None
    if group_dm:
        players_ = [world.member(n) for n in names[:players]]
        world.install_for(*players_)
        group = world.add_group_dm(*players_)

    async def after_action(ctx: Any) -> None:
        nonlocal actions
        actions += 1
        bot = ctx.bot
        if leave_after is not None and players >= 3 and actions == leave_after:
            await world.member(names[players - 1]).slash("game leave", in_channel=ctx.thread)
        if seconds and actions % timeout_every == 0:
            for _ in range(2):  # the half-time reminder, then the deadline
                bot.clock.advance(seconds / 2)
                await bot.service.timers.fire_due()
                await world.settle()

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_path=Path(tmp) / "conformance.sqlite3",  # type: ignore[call-arg]  # pydantic-settings init arguments
                            _env_file=None, default_dm_notifications=True)
        if group_dm:  # no /settings in a group DM: the bot's default turn timer
            settings = settings.model_copy(update={"default_turn_timer": turn_timer})
        bot = make_bot(settings, registry=builtin_games(), clock=ManualClock())
        await world.connect(bot)
        try:
            if group is None:
                await host.slash("settings", turn_timer=turn_timer,
                                 **({"language": language} if language else {}))
            await play_game(world, bot, game=game, players=players, seed=seed,
                            game_seed=seed, names=names, extra_clicks=after_action,
                            channel=group)
        finally:
            await world.disconnect()
    return list(world.requests)
