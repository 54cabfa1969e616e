"""Clocks for the runtime: the real one, and a manual one tests advance without sleeping."""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import Callable

#: Tasks waiting in :meth:`ManualClock.wait` with a timeout: a timer only
#: :meth:`ManualClock.advance` (or their event) ends, as the sandbox's settle sees it.
_TIMED: weakref.WeakSet[asyncio.Task[object]] = weakref.WeakSet()


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
            async with asyncio.timeout(max(0.0, timeout)):  # in this task: no task of its own
                await event.wait()

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
        task = asyncio.current_task()
        if timeout is None or task is None:
            await event.wait()
            return
        _TIMED.add(task)
        try:
            await event.wait()
        finally:
            _TIMED.discard(task)

    def on_advance(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)


def waits_on_manual_time(task: asyncio.Task[object]) -> bool:
    """True while ``task`` waits in :meth:`ManualClock.wait` with a timeout (a timer that
    ends only when a test or the sandbox advances the clock, or its event is set)."""
    return task in _TIMED
