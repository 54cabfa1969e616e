"""bot/store/outage.py: a database outage logs one line per logger and kind of failure,
without a traceback; repeats go to DEBUG and are counted on the next line of their kind."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys

from bot.store import StoreDown
from bot.store.outage import OutageLines, quiet_store_outages


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[tuple[str, str, str, bool]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append((record.name, record.levelname, record.getMessage(),
                           record.exc_info is not None))


def lost() -> StoreDown:
    try:
        try:
            raise ConnectionRefusedError(111, "Connect call failed")
        except ConnectionRefusedError as exc:
            raise StoreDown(exc, lost=True) from exc
    except StoreDown as down:
        return down


def test_one_line_per_logger_and_kind_repeats_at_debug_then_counted():
    now = [0.0]
    handler, other = Lines(), Lines()
    outage = OutageLines(clock=lambda: now[0])
    handler.addFilter(outage)
    other.addFilter(outage)  # (one decision per record, whatever the handlers)
    log, pool = logging.getLogger("herdbot.test.outage"), logging.getLogger("asyncpg.pool")
    for logger in (log, pool):
        logger.addHandler(handler)
        logger.addHandler(other)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    try:
        for _ in range(3):
            log.warning("command %s refused: database error (%s)", "play", lost())
        log.warning("command %s refused: database error (%s)", "play",
                    sqlite3.OperationalError("database or disk is full"))
        try:
            raise ConnectionRefusedError(111, "Connect call failed")
        except ConnectionRefusedError:
            pool.warning("Failed to restore the pool connection floor; retrying", exc_info=True)
        log.warning("an unrelated line %s", 1)
        now[0] = 61.0
        log.warning("command %s refused: database error (%s)", "hand", lost())
    finally:
        for logger in (log, pool):
            logger.removeHandler(handler)
            logger.removeHandler(other)
            logger.setLevel(logging.NOTSET)
            logger.propagate = True
    refused = ("command {} refused: database error (herdbot: PostgreSQL connection lost "
               "(ConnectionRefusedError: [Errno 111] Connect call failed))")
    assert handler.lines == other.lines == [
        ("herdbot.test.outage", "WARNING", refused.format("play"), False),
        ("herdbot.test.outage", "WARNING",
         "command play refused: database error (database or disk is full)", False),
        ("asyncpg.pool", "WARNING", "Failed to restore the pool connection floor; retrying "
         "(ConnectionRefusedError: [Errno 111] Connect call failed)", False),
        ("herdbot.test.outage", "WARNING", "an unrelated line 1", False),
        ("herdbot.test.outage", "WARNING",
         refused.format("hand") + " [and 2 more like it, logged at DEBUG]", False),
    ]


def test_quiet_store_outages_installs_one_filter_per_handler():
    handler = Lines()
    first = quiet_store_outages(handler)
    quiet_store_outages(handler)
    assert handler.filters == [first]


def test_herdbot_logging_carries_the_outage_filter():
    code = ("import logging; from bot.cli import setup_logging; setup_logging('INFO'); "
            "from bot.store.outage import OutageLines; "
            "print([type(f).__name__ for h in logging.getLogger().handlers for f in h.filters])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert (out.stdout, out.stderr) == ("['OutageLines']\n", "")
