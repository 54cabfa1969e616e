"""``herdbot run`` processes against a local Discord (:mod:`bot.sandbox.loopback`):
starting and stopping one (:func:`bot_process`), the environment it gets, and
:class:`ProcessView`, what the demo's game driver reads of a bot in another process.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from bot.app import builtin_games
from bot.discord.game_cog import GameCog
from bot.runtime import GameService
from bot.store import Store

from .loopback import LocalDiscord


class _WaitingTimers:
    """``timers`` of :class:`ProcessView`: the bot process fires its own timers on its
    real clock; ``fire_due`` just gives it ``wait`` seconds and settles."""

    def __init__(self, hub: LocalDiscord, wait: float):
        self.hub = hub
        self.wait = wait

    async def fire_due(self) -> int:
        await asyncio.sleep(self.wait)
        await self.hub.settle()
        return 0


class _Service:
    """``service`` of :class:`ProcessView`: reads games from the shared database."""

    def __init__(self, store: Any, registry: Any, timers: _WaitingTimers):
        self._service = GameService(store, registry)
        self.registry = registry
        self.timers = timers

    async def load(self, game_id: int, record: Any = None) -> Any:
        """Record, seats, spec and state of game ``game_id`` as the bot last stored them
        (``record``: its row as just read, as :meth:`GameService.load` takes it)."""
        return await self._service.load(game_id, record)

    async def get(self, game_id: int) -> Any:
        """The stored record of game ``game_id``."""
        return await self._service.get(game_id)

    def derived_of(self, game_id: int, state: Any) -> Any:
        """What is worked out from ``state`` so far (:meth:`GameService.derived_of`)."""
        return self._service.derived_of(game_id, state)


class _RealClock:
    """``clock`` of :class:`ProcessView`: the bot's clock is real time; advancing is a
    no-op (waiting happens in ``service.timers.fire_due``)."""

    def advance(self, seconds: float) -> None:
        return None


class ProcessView:
    """What :func:`bot.sandbox.demo.play_game` reads of a bot, for a bot running in
    another process: ``store`` (the same database, opened here to read game state, the
    way the AI policies of the simulated members need it), ``registry`` (the game specs
    the drivers' cogs draw with), ``service.load`` and a clock
    whose timers fire by themselves (``service.timers.fire_due`` waits ``timer_wait``
    real seconds). Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, store: Any, hub: LocalDiscord, timer_wait: float = 1.0):
        self.store = store
        self.clock = _RealClock()
        self.registry = builtin_games()
        self.service = _Service(store, self.registry, _WaitingTimers(hub, timer_wait))
        self._cogs: dict[str, Any] = {}

    @classmethod
    async def open(cls, database: Any, hub: LocalDiscord, timer_wait: float = 1.0
                   ) -> ProcessView:
        """A view of the bot whose database is ``database`` (a SQLite path or a URL)."""
        return cls(await Store.open(database, migrate=False), hub, timer_wait)

    async def close(self) -> None:
        await self.store.close()

    def game_cog(self, kind: str) -> Any:
        """An instance of game ``kind``'s cog class reading through this view (not
        loaded in any bot): what the UI drivers decode components with
        (``load_table``, ``model``). ``None`` for a game without a cog."""
        if kind not in self._cogs:
            spec = self.service.registry.get(kind)
            module = importlib.import_module(spec.cog) if spec and spec.cog else None
            found = [c for c in vars(module).values() if isinstance(c, type)
                     and issubclass(c, GameCog) and getattr(c, "kind", None) == kind
                     ] if module else []
            self._cogs[kind] = found[0](self) if found else None  # type: ignore[arg-type]  # reads only service
        return self._cogs[kind]


#: Settings every test bot gets unless a test overrides them: the shortest reaction window
#: (Llamas Unleashed), no turn timer (tests do not wait 24 h), and pictures drawn in the
#: bot's own render thread: settling watches the bot's process, not a render worker's.
BOT_ENV = {"HERDBOT_REACTION_WINDOW_S": "5", "HERDBOT_LOG_LEVEL": "INFO",
           "HERDBOT_RENDER_PROCESSES": "0"}


def clean_environ() -> dict[str, str]:
    """The environment without herdbot's own variables (none of the developer's settings
    leak into a test bot)."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith("HERDBOT_") and k != "DISCORD_TOKEN"}


@contextlib.asynccontextmanager
async def bot_process(hub: LocalDiscord, database: Path | str, folder: Path, *,
                      name: str = "bot", env: dict[str, str] | None = None,
                      python: Sequence[str] = (),
                      ) -> AsyncIterator[Any]:
    """A running ``herdbot run`` (the ``asyncio.subprocess.Process``) on ``database``,
    connected to ``hub``: ``python -m bot run`` in ``folder`` (so no ``.env`` of the
    developer's is read), with :data:`BOT_ENV` and ``env``; watched by ``hub`` (see
    :meth:`LocalDiscord.watch`) and stopped at exit (SIGTERM, then SIGKILL after 20 s).
    Its output goes to ``<folder>/<name>.log``. ``python``: the interpreter and its
    arguments before ``-m bot run`` (default: this one), e.g. another checkout's, or
    ``(python, "-m", "pyinstrument", ...)`` to profile the bot."""
    folder.mkdir(parents=True, exist_ok=True)
    full = {**clean_environ(), **hub.bot_env(), **BOT_ENV,
            "HERDBOT_DATABASE": str(database), **(env or {})}
    log = open(folder / f"{name}.log", "ab")  # noqa: SIM115 - closed below
    proc = await asyncio.create_subprocess_exec(
        *(python or (sys.executable,)), "-m", "bot", "run", cwd=folder, env=full, stdout=log,
        stderr=asyncio.subprocess.STDOUT)
    hub.watch(proc.pid)
    try:
        yield proc
    finally:
        hub.unwatch(proc.pid)
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 20)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        log.close()
