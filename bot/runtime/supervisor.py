"""One small supervisor for herdbot's long-lived background work.

Every background job (the timer loop, the start-up timer reconciliation) runs as an
asyncio task under :class:`Supervisor`: when the job raises, the failure is logged on ONE
line with its cause (exception type and message, no traceback; a repeat of the same cause
is logged at DEBUG only), and the job is started again after a backoff that doubles from
``first_delay`` up to ``max_delay`` seconds. A job reports progress with :meth:`ok`, which
resets the backoff (and logs the recovery once). Waits use the runtime's :class:`Clock`, so
a manual clock in tests moves them on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.runtime.clock import Clock
from bot.store.tracking import stop_tracking

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[Any]]


@dataclass
class JobStatus:
    """What the supervisor knows of one job.

    Attributes:
        name: the job's (and its task's) name.
        failures: failures since the job was started (never reset).
        streak: failures since the job last made progress (sets the backoff).
        last_cause: ``"Type: message"`` of the latest failure, ``None`` before any.
        done: True once a one-shot job finished successfully.
    """

    name: str
    failures: int = 0
    streak: int = 0
    last_cause: str | None = None
    done: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Supervisor:
    """Runs background jobs and restarts them with backoff when they fail.

    ``first_delay`` and ``max_delay`` are seconds on ``clock``. Cancellation (``stop``)
    is never treated as a failure.
    """

    def __init__(self, clock: Clock, *, first_delay: float = 1.0, max_delay: float = 300.0) -> None:
        self.clock = clock
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.jobs: dict[str, JobStatus] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        clock.on_advance(self._wake_all)

    def start(self, name: str, job: Job, *, forever: bool = True) -> asyncio.Task[None]:
        """Run ``job()`` in a task named ``name`` (one task per name: a running one is
        returned as is). A ``forever`` job that returns is started again after ``first_delay``; a
        one-shot job (``forever=False``) ends its task when it returns."""
        task = self._tasks.get(name)
        if task is not None and not task.done():
            return task
        status = self.jobs.setdefault(name, JobStatus(name))
        status.done = False
        task = asyncio.create_task(self._supervise(status, job, forever), name=name)
        self._tasks[name] = task
        return task

    def ok(self, name: str) -> None:
        """The job ``name`` made progress: its backoff starts again from ``first_delay``
        (the first progress after failures is logged once, at INFO)."""
        status = self.jobs.get(name)
        if status is None or status.streak == 0:
            return
        log.info("background job %s recovered after %d failed attempt(s)", name, status.streak)
        status.streak = 0
        status.last_cause = None

    def backoff(self, streak: int) -> float:
        """Seconds to wait after the ``streak``-th failure in a row (1-based)."""
        return float(min(self.max_delay, self.first_delay * 2 ** max(0, streak - 1)))

    async def stop(self, name: str | None = None) -> None:
        """Cancel the job ``name`` (every job when ``None``) and wait for its task."""
        names = [name] if name is not None else list(self._tasks)
        for n in names:
            task = self._tasks.pop(n, None)
            if task is None:
                continue
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass

    def _wake_all(self) -> None:
        for status in self.jobs.values():
            status.wake.set()

    async def _sleep(self, status: JobStatus, seconds: float) -> None:
        until = self.clock.now() + seconds
        while True:
            status.wake.clear()
            left = until - self.clock.now()
            if left <= 0:
                return
            await self.clock.wait(status.wake, left)

    async def _supervise(self, status: JobStatus, job: Job, forever: bool) -> None:
        # A job started inside a request (a catch-up after a refused command) copied its
        # context: its writes are nobody's request (bot.store.tracking).
        stop_tracking()
        while True:
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - every failure is logged and retried
                status.failures += 1
                status.streak += 1
                cause = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
                delay = self.backoff(status.streak)
                level = logging.DEBUG if cause == status.last_cause else logging.WARNING
                log.log(level, "background job %s failed (%s); retrying in %g s",
                        status.name, cause, delay)
                status.last_cause = cause
                await self._sleep(status, delay)
                continue
            if not forever:
                self.ok(status.name)
                status.done = True
                return
            await self._sleep(status, self.first_delay)  # a loop that returned: not at once
