"""The top of herdbot, its composition root: wires engines, AIs and cogs into one
registry, and builds the bot with its parts (store, service, outbox, notifier, render
pool) from the registry and the settings.

Layers import downwards only (``tests/test_static.py`` checks it)::

    games  <  ai, render, store  <  runtime  <  discord  <  cogs  <  app, cli, sandbox

A game package (``bot/games/<game>/spec.py``) describes only its rules: key, names,
player range, engine, options and the /rules text. Which AI plays an AI seat and which cog
plays the game in Discord are decided here, so ``bot.games`` never imports ``bot.ai`` or
names a cog, and ``bot.discord`` never names a cog either: the CLI, the sandbox, the bench
and the tests build their registry with :func:`builtin_games` and their bot with
:func:`make_bot`, whose parts :func:`assemble` builds in the bot's event loop (the store
is opened once, before the bot logs in to Discord).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from bot.ai.easy import llamas_alpacas_easy, pacapaca_easy, unleashed_easy
from bot.ai.levels import Level
from bot.ai.llamas_alpacas import heuristic_policy as llamas_alpacas_policy
from bot.ai.llamas_alpacas_hard import hard_policy as llamas_alpacas_hard
from bot.ai.pacapaca import heuristic_policy as pacapaca_policy
from bot.ai.pacapaca_hard import hard_policy as pacapaca_hard
from bot.ai.unleashed import heuristic_policy as unleashed_policy
from bot.ai.unleashed_hard import hard_policy as unleashed_hard
from bot.config import Settings
from bot.discord.bot import PICTURES_KEPT, HerdBot, Parts
from bot.discord.notify import Notifier
from bot.discord.outbox import Outbox
from bot.games.registry import GameSpec, Registry, game_specs
from bot.render.pool import PictureCache, shared_pool
from bot.runtime import Clock, GameService
from bot.store import Store

#: Cogs every bot loads (as discord.py extensions), before the games' own cogs.
CORE_EXTENSIONS: tuple[str, ...] = ("cogs.lobby", "cogs.game", "cogs.admin")

#: Game key -> the cog extension that plays it in Discord.
GAME_COGS: dict[str, str] = {
    "llamas-alpacas": "cogs.llamas_alpacas",
    "pacapaca": "cogs.pacapaca",
    "llamas-unleashed": "cogs.unleashed",
}

#: Game key -> the AI policy for AI seats: ``policy(view, legal_actions, rng) -> Action``
#: (the Normal level, which also plays every seat the AI takes over).
POLICIES: dict[str, Callable[..., Any]] = {
    "llamas-alpacas": llamas_alpacas_policy,
    "pacapaca": pacapaca_policy,
    "llamas-unleashed": unleashed_policy,
}

#: Game key -> AI level -> the policy playing that level, in the order the lobby offers
#: them (issue 19). A level is offered only where a policy is wired here; Hard is the
#: search over the seat's own view (``bot.ai.search``, ``bot.ai.<game>_hard``).
LEVEL_POLICIES: dict[str, dict[Level, Callable[..., Any]]] = {
    "llamas-alpacas": {Level.EASY: llamas_alpacas_easy, Level.NORMAL: llamas_alpacas_policy,
                       Level.HARD: llamas_alpacas_hard},
    "pacapaca": {Level.EASY: pacapaca_easy, Level.NORMAL: pacapaca_policy,
                 Level.HARD: pacapaca_hard},
    "llamas-unleashed": {Level.EASY: unleashed_easy, Level.NORMAL: unleashed_policy,
                         Level.HARD: unleashed_hard},
}


def wire(spec: GameSpec) -> GameSpec:
    """``spec`` with its AI policy, its AI levels and its cog from :data:`POLICIES`,
    :data:`LEVEL_POLICIES` and :data:`GAME_COGS` (a key in none comes back unchanged)."""
    levels = LEVEL_POLICIES.get(spec.key)
    return dataclasses.replace(
        spec,
        policy=POLICIES.get(spec.key, spec.policy),
        levels={str(k): v for k, v in levels.items()} if levels else spec.levels,
        cog=GAME_COGS.get(spec.key, spec.cog),
    )


def builtin_games() -> Registry:
    """A registry of every game herdbot ships, each wired to its AI and its cog, in the
    order /play lists them."""
    return Registry([wire(spec) for spec in game_specs()])


def extensions_for(registry: Registry) -> tuple[str, ...]:
    """The extensions a bot offering ``registry`` loads: :data:`CORE_EXTENSIONS`, then
    each game's cog (no duplicates, in order)."""
    return tuple(dict.fromkeys((*CORE_EXTENSIONS, *(s.cog for s in registry if s.cog))))


def make_bot(
    settings: Settings,
    *,
    registry: Registry | None = None,
    clock: Clock | None = None,
    extensions: tuple[str, ...] | None = None,
    **kwargs: Any,
) -> HerdBot:
    """A :class:`~bot.discord.bot.HerdBot` for ``settings`` offering ``registry`` (default
    :func:`builtin_games`) and loading ``extensions`` (default :func:`extensions_for` the
    registry); its parts are :func:`assemble`'s; ``kwargs`` go to ``HerdBot`` (e.g.
    ``sync_commands=False``)."""
    reg = registry if registry is not None else builtin_games()
    exts = extensions if extensions is not None else extensions_for(reg)
    return HerdBot(settings, registry=reg, assemble=assemble, clock=clock, extensions=exts,
                   **kwargs)


async def assemble(bot: HerdBot) -> Parts:
    """The parts of ``bot``, built in its event loop from its settings and registry: the
    store (``HERDBOT_DATABASE``, opened and migrated), the service over it (serving the
    bot's shards), the outbox subscribed to it (finding each game's cog and the lobby
    through the bot), the notifier, and the render process pool
    (``HERDBOT_RENDER_PROCESSES`` > 0, shared by the bots of this process) with the last
    pictures kept. Raises :class:`~bot.store.StoreError` when the database cannot be
    used (nothing is left open then)."""
    settings = bot.settings
    store = await Store.open(settings.database_path, clock=bot.clock.now)
    try:
        service = GameService(store, bot.registry, clock=bot.clock,
                              archive_after_s=settings.archive_after_s)
        service.serves = bot.serves_guild
        outbox = Outbox(bot, games=bot.game_cog, lobby=bot.lobby_cog)
        service.subscribe(outbox)
        procs = settings.render_processes
        pool = shared_pool(procs, warm=("PIL.Image", "bot.render.common")) if procs else None
    except BaseException:
        await store.close()
        raise
    return Parts(store=store, service=service, outbox=outbox, notifier=Notifier(bot),
                 render_pool=pool, pictures=PictureCache(PICTURES_KEPT))
