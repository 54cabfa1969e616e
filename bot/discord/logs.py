"""discord.py's reconnect logging as one short line per attempt.

When Discord (or a local Discord) cannot be reached, discord.py logs every reconnect
attempt at ERROR with the whole traceback of the refused connection (``discord.shard``:
"Attempting a reconnect for shard ID 0 in 1.39s"; ``discord.client`` for a client that is
not sharded; ``discord.shard`` "Failed to connect for shard_id" at start-up): some sixty
lines a try on the operator's terminal for what is an expected, handled condition.
:class:`ReconnectLines` rewrites each such record, in place and before any handler sees
it, into one WARNING line naming the shard, the delay and the cause::

    lost the connection to Discord (shard 0); reconnecting in 1.4 s (ConnectionRefusedError)

:func:`quiet_reconnects` installs it on those loggers (``herdbot run`` does, in
``bot.cli.setup_logging``). Other records of discord.py pass unchanged.
"""

from __future__ import annotations

import logging
from typing import Any

#: The loggers whose reconnect records :class:`ReconnectLines` rewrites.
RECONNECT_LOGGERS = ("discord.client", "discord.shard")

#: discord.py's message (its format string) -> our line's template, filled with the
#: shard part (" (shard 0)" or ""), the delay in seconds and the cause.
_LINES = {
    "Attempting a reconnect for shard ID %s in %.2fs":
        "lost the connection to Discord%s; reconnecting in %.1f s (%s)",
    "Attempting a reconnect in %.2fs":
        "lost the connection to Discord%s; reconnecting in %.1f s (%s)",
    "Failed to connect for shard_id: %s. Retrying...":
        "could not connect to Discord%s; trying again in %.0f s (%s)",
}
#: The seconds discord.py waits before it launches a shard again (``launch_shard``).
LAUNCH_RETRY_S = 5.0


def cause_of(exc: BaseException | None) -> str:
    """A short name for why a connection failed: the class of the innermost cause of
    ``exc`` (aiohttp's ``ClientConnectorError`` from a ``ConnectionRefusedError`` gives
    ``ConnectionRefusedError``), with the close code of a closed websocket
    (``ConnectionClosed 1006``); ``unknown`` without an exception."""
    if exc is None:
        return "unknown"
    seen: set[int] = set()
    while id(exc) not in seen:
        seen.add(id(exc))
        inner = exc.__cause__ or (None if exc.__suppress_context__ else exc.__context__)
        if inner is None:
            break
        exc = inner
    code = getattr(exc, "code", None)
    name = type(exc).__name__
    return f"{name} {code}" if isinstance(code, int) else name


class ReconnectLines(logging.Filter):
    """Rewrites discord.py's reconnect records (see the module's docstring) into one
    WARNING line without a traceback; drops them when the logger does not log WARNING
    (``HERDBOT_LOG_LEVEL=ERROR``). Every other record passes unchanged."""

    def filter(self, record: logging.LogRecord) -> bool:
        template = _LINES.get(record.msg) if isinstance(record.msg, str) else None
        if template is None:
            return True
        args: tuple[Any, ...] = record.args if isinstance(record.args, tuple) else ()
        shard: Any
        delay: Any
        if record.msg.startswith("Failed to connect"):
            shard, delay = (args[0] if args else None), LAUNCH_RETRY_S
        elif len(args) == 2:
            shard, delay = args
        else:
            shard, delay = None, (args[0] if args else 0.0)
        exc = record.exc_info[1] if record.exc_info else None
        record.msg = template
        record.args = ("" if shard is None else f" (shard {shard})", float(delay),
                       cause_of(exc))
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return logging.getLogger(record.name).isEnabledFor(logging.WARNING)


_FILTER = ReconnectLines()


def quiet_reconnects() -> None:
    """Install :class:`ReconnectLines` on :data:`RECONNECT_LOGGERS` (once; calling again
    changes nothing)."""
    for name in RECONNECT_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
