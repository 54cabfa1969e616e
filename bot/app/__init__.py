"""The top of herdbot, its composition root: the registry of the games it ships, and the
bot built with its parts (store, service, outbox, notifier, render pool) from the
registry and the settings.

Layers import downwards only (``tests/test_static.py`` checks it)::

    games  <  ai, render, present, store  <  runtime  <  discord  <  cogs  <  app
           <  sandbox  <  cli

A game package (``bot/games/<game>/spec.py``) describes only its rules: key, names,
player range, engine, options and the /rules text. Its wiring module here
(``bot/app/<game>.py``) adds what the higher layers give it: the AI levels, the presenter,
the renderers, the cog and the demo driver; :data:`bot.app.games.GAMES` lists them. So
``bot.games`` never imports ``bot.ai``, and nothing in ``bot.discord`` or ``bot.runtime``
names a game: the CLI, the sandbox, the bench and the tests build their registry with
:func:`builtin_games` and their bot with :func:`make_bot`, whose parts :func:`assemble`
builds in the bot's event loop (the store is opened once, before the bot logs in to
Discord).
"""

from __future__ import annotations

from typing import Any

from bot.app.games import GAMES
from bot.config import Settings
from bot.discord.bot import PICTURES_KEPT, HerdBot, Parts
from bot.discord.notify import Notifier
from bot.discord.outbox import Outbox
from bot.games.registry import Registry
from bot.render.pool import PictureCache, shared_pool
from bot.runtime import Clock, GameService
from bot.store import Store

#: Cogs every bot loads (as discord.py extensions), before the games' own cogs.
CORE_EXTENSIONS: tuple[str, ...] = ("cogs.lobby", "cogs.game", "cogs.admin", "cogs.learn")


def builtin_games() -> Registry:
    """A registry of every game herdbot ships (:data:`bot.app.games.GAMES`: each game's
    full spec), in the order /play lists them."""
    return Registry(list(GAMES))


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
