"""A database outage in the log: one line per kind of failure, no traceback.

While PostgreSQL is away (or a SQLite disk is full) every request that needs the database
fails the same way, and each logs it: the refused click or command, the timer loop, and
asyncpg's pool, which logs the whole traceback of each failed reconnect ("Failed to
restore the pool connection floor; retrying") - five of them in a second and a half of
clicks. :class:`OutageLines`, a filter on the operator's log handlers
(:func:`quiet_store_outages`, installed by ``herdbot run``), keeps the first record of
each kind - per logger, per exception class and its innermost cause - at its level, as
one line without a traceback; the repeats within :attr:`OutageLines.REPEAT_S` go to
DEBUG, and the next line of that kind after them counts them. Every other record passes
unchanged.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot.store.errors import STORE_FAILURES

#: Loggers whose every record with an exception is a database connection failing.
DATABASE_LOGGERS = ("asyncpg.pool", "asyncpg.connection")


def innermost(exc: BaseException) -> BaseException:
    """The innermost cause of ``exc`` (``__cause__``, else an unsuppressed
    ``__context__``), or ``exc`` itself."""
    seen = {id(exc)}
    while True:
        inner = exc.__cause__ or (None if exc.__suppress_context__ else exc.__context__)
        if inner is None or id(inner) in seen:
            return exc
        seen.add(id(inner))
        exc = inner


def store_failure(record: logging.LogRecord) -> BaseException | None:
    """The database failure ``record`` reports (its exception, or an exception among its
    arguments, that is a store failure; any exception of :data:`DATABASE_LOGGERS`), or
    ``None``."""
    exc = record.exc_info[1] if record.exc_info else None
    if exc is not None and (record.name in DATABASE_LOGGERS
                            or isinstance(exc, STORE_FAILURES)):
        return exc
    args = record.args if isinstance(record.args, tuple) else ()
    return next((a for a in args if isinstance(a, STORE_FAILURES)), None)


def kind_of(exc: BaseException) -> str:
    """``Class`` or ``Class/InnermostCause``: what makes two failures the same kind."""
    inner = innermost(exc)
    name = type(exc).__name__
    return name if inner is exc else f"{name}/{type(inner).__name__}"


class OutageLines(logging.Filter):
    """See the module's docstring. ``clock``: monotonic seconds (tests pass their own)."""

    #: Seconds during which a repeat of a kind goes to DEBUG.
    REPEAT_S = 60.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._clock = clock
        #: (logger, kind) -> (when its last line passed, repeats since)
        self._shown: dict[tuple[str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        decided = getattr(record, "herdbot_outage", None)  # (another handler saw it)
        if decided is not None:
            return bool(decided)
        exc = store_failure(record)
        if exc is None:
            return True
        if record.exc_info:
            cause = innermost(exc)
            text = " ".join(str(cause).split())[:200]
            message = record.getMessage()
            record.msg = "%s (%s%s)"
            record.args = (message, type(cause).__name__, f": {text}" if text else "")
            record.exc_info, record.exc_text, record.stack_info = None, None, None
        key = (record.name, kind_of(exc))
        now = self._clock()
        last, repeats = self._shown.get(key, (None, 0))
        if last is not None and now - last < self.REPEAT_S:
            self._shown[key] = (last, repeats + 1)
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            keep = logging.getLogger(record.name).isEnabledFor(logging.DEBUG)
        else:
            self._shown[key] = (now, 0)
            if repeats:
                record.msg = f"{record.msg} [and {repeats} more like it, logged at DEBUG]"
            keep = True
        record.herdbot_outage = keep
        return keep


def quiet_store_outages(*handlers: logging.Handler) -> OutageLines:
    """Install one :class:`OutageLines` on ``handlers`` (default: the root logger's) that
    have none yet; returns it."""
    outage = OutageLines()
    for handler in handlers or tuple(logging.getLogger().handlers):
        if not any(isinstance(f, OutageLines) for f in handler.filters):
            handler.addFilter(outage)
    return outage
