"""``herdbot run`` processes against a local Discord (:mod:`bot.sandbox.loopback`).

:func:`bot_process` starts one (``python -m bot run`` in a folder of its own, so no
``.env`` of the developer's is read), tells the local Discord to watch it, and stops it at
exit (SIGTERM, then SIGKILL after 20 s); its output goes to ``<folder>/<name>.log``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.sandbox.loopback import LocalDiscord

#: Settings every test bot gets unless a test overrides them: the shortest reaction window
#: (Llamas Unleashed), no turn timer (tests do not wait 24 h).
BOT_ENV = {"HERDBOT_REACTION_WINDOW_S": "5", "HERDBOT_LOG_LEVEL": "INFO"}


def clean_environ() -> dict[str, str]:
    """The environment without herdbot's own variables (none of the developer's settings
    leak into a test bot)."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith("HERDBOT_") and k != "DISCORD_TOKEN"}


@contextlib.asynccontextmanager
async def bot_process(hub: LocalDiscord, database: Path | str, folder: Path, *,
                      name: str = "bot", env: dict[str, str] | None = None,
                      ) -> AsyncIterator[Any]:
    """A running ``herdbot run`` on ``database`` connected to ``hub`` (the
    ``asyncio.subprocess.Process``)."""
    folder.mkdir(parents=True, exist_ok=True)
    full = {**clean_environ(), **hub.bot_env(), **BOT_ENV,
            "HERDBOT_DATABASE": str(database), **(env or {})}
    log = open(folder / f"{name}.log", "ab")  # noqa: SIM115 - closed below
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=folder, env=full, stdout=log,
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


def log_text(folder: Path, name: str = "bot") -> str:
    """What bot ``name`` wrote to its log so far."""
    path = folder / f"{name}.log"
    return path.read_text(errors="replace") if path.exists() else ""
