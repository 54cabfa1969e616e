"""Clocks for the runtime: the real one, and a manual one tests advance without sleeping."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable


class Clock:
    """Wall-clock time in unix seconds, and waiting on an event with a timeout."""

    def now(self) -> float:
        """Current unix time in seconds."""
        return time.time()

    async def wait(self, event: asyncio.Event, timeout: float | None) -> None:
        """Wait until ``event`` is set or ``timeout`` seconds passed (``None``: forever)."""
        if timeout is None:
            await event.wait()
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), max(0.0, timeout))

    def on_advance(self, callback: Callable[[], None]) -> None:
        """Register a callback for manual time jumps (the real clock never jumps)."""


class ManualClock(Clock):
    """A clock that only moves when :meth:`advance` is called (tests, the sandbox).

    ``wait`` never sleeps in real time; it returns when the event is set, which
    :meth:`advance` does through the registered callbacks.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._callbacks: list[Callable[[], None]] = []

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds`` and wake every waiter."""
        self._now += seconds
        for cb in list(self._callbacks):
            cb()

    async def wait(self, event: asyncio.Event, timeout: float | None) -> None:
        await event.wait()

    def on_advance(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)
