"""Timers stored in SQLite that survive restarts.

A timer is a row ``(game_id, kind, key, due_at, payload)``; at most one per game and kind.
:class:`TimerService` runs one background task (under the runtime's :class:`Supervisor`)
that sleeps until the earliest due timer, then hands it to the handler. On start every
stored timer is re-armed; already-due ones fire at once. When the database fails (a full
disk) the loop fails, the supervisor starts it again with backoff, and the timers it could
not fire are still stored, so the overdue ones fire as soon as writes succeed again.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

from bot.runtime.clock import Clock
from bot.runtime.supervisor import Supervisor
from bot.store import STORE_FAILURES, Store, TimerRecord

log = logging.getLogger(__name__)

TimerHandler = Callable[[TimerRecord], Awaitable[None]]
#: Called with a game id after one of its timer rows was dropped as unreadable.
DroppedHandler = Callable[[int], Awaitable[None]]


class TimerService:
    """Fires stored timers through ``handler(timer)``.

    The timer row is deleted after its handler returns, or raises anything but a database
    error (that is logged and does not stop the service), so a crash while firing leaves
    the timer to fire again at the next start; handlers must be idempotent. A database
    error (``STORE_FAILURES``: "database or disk is full", a lost PostgreSQL connection)
    keeps the row and fails the loop: its supervisor retries with backoff and the timer
    fires once writes work again. On PostgreSQL the store claims each due timer for this
    process (a lease), so of several processes exactly one fires it.
    """

    #: The name of the background task (the sandbox never waits for it to finish).
    TASK_NAME = "herdbot-timers"

    def __init__(self, store: Store, clock: Clock, handler: TimerHandler,
                 supervisor: Supervisor | None = None,
                 on_dropped: DroppedHandler | None = None) -> None:
        self._store = store
        self._on_dropped = on_dropped
        self._clock = clock
        self._handler = handler
        self._wake = asyncio.Event()
        self._running = False
        self._firing = asyncio.Lock()
        #: Timers whose handler ran but whose row could not be deleted (the database
        #: refused the write): a retry deletes them without running the handler again.
        self._handled: set[tuple[int, str, float]] = set()
        #: When the loop sleeps until (Unix seconds; ``None``: no timer; ``inf`` while it
        #: is awake): a timer due later needs no wake-up (:meth:`armed`).
        self._sleeps_until: float | None = math.inf
        self.supervisor = supervisor or Supervisor(clock)
        clock.on_advance(self.poke)

    async def start(self) -> int:
        """Re-arm every stored timer; return how many there are. Due ones fire at once."""
        count = len(await self._store.timers())
        self.supervisor.start(self.TASK_NAME, self._run)
        self._running = True
        self.poke()
        return count

    async def stop(self) -> None:
        """Stop the background task (timers stay stored)."""
        if self._running:
            await self.supervisor.stop(self.TASK_NAME)
            self._running = False

    def poke(self) -> None:
        """Wake the service to look at the stored timers again (after a change)."""
        self._wake.set()

    async def schedule(
        self, game_id: int, kind: str, key: str, due_at: float, payload: dict[str, Any] | None = None
    ) -> TimerRecord:
        """Store (or replace) the game's ``kind`` timer due at ``due_at`` (unix seconds)."""
        timer = await self._store.upsert_timer(game_id, kind, key, due_at, payload or {})
        self.armed([due_at])
        return timer

    def armed(self, due: list[float]) -> None:
        """Timers due at ``due`` (Unix seconds) were stored: wake the loop when one is due
        before the time it sleeps until (else it finds them when it wakes)."""
        until = self._sleeps_until
        if due and (until is None or min(due) < until):
            self.poke()

    async def cancel(self, game_id: int, kind: str | None = None) -> None:
        """Delete the game's ``kind`` timer (all of them when ``None``)."""
        if await self._store.delete_timer(game_id, kind):
            self.poke()

    async def fire_due(self) -> int:
        """Fire every timer due now; return how many fired."""
        fired = 0
        async with self._firing:
            due = await self._store.due_timers(self._clock.now())
            await self.drop_unreadable()
            for timer in due:
                current = await self._store.timer(timer.game_id, timer.kind)
                if current != timer:
                    self._handled.discard((timer.id, timer.key, timer.due_at))
                    continue
                # The row is deleted only after the handler ran, so a process killed while
                # firing fires the timer again after the restart (handlers check that the
                # decision they time out is still pending). A handler that schedules a new
                # timer of the same kind replaces the row, which is then kept.
                mark = (timer.id, timer.key, timer.due_at)
                if mark not in self._handled:
                    try:
                        await self._handler(timer)
                    except STORE_FAILURES:
                        raise  # the store cannot write: keep the row, retry after a backoff
                    except Exception:
                        log.exception("timer %s of game %s failed", timer.kind, timer.game_id)
                    self._handled.add(mark)
                await self._store.delete_timer_if_unchanged(timer)
                self._handled.discard(mark)
                fired += 1
        return fired

    async def drop_unreadable(self) -> int:
        """Delete the timer rows a read found unreadable (bad payload JSON, a ``due_at``
        that is not a number): each is logged once as a warning naming the row, its game
        and the error, then ``on_dropped(game_id)`` re-arms that game's timers from its
        state. Returns how many rows went. A database error propagates (the row stays
        noted and is dropped on the retry)."""
        dropped = 0
        for timer_id, (game_id, reason) in list(self._store.unreadable_timers.items()):
            gone = await self._store.delete_timer_row(timer_id)
            del self._store.unreadable_timers[timer_id]
            if not gone:  # rewritten meanwhile (the game's timers were armed again)
                continue
            dropped += 1
            log.warning("timer row %d of game %d dropped: it could not be read (%s); the "
                        "game's timers are re-armed from its state", timer_id, game_id, reason)
            if self._on_dropped is not None and game_id >= 0:
                try:
                    await self._on_dropped(game_id)
                except STORE_FAILURES:
                    raise
                except Exception:
                    log.exception("re-arming the timers of game %d failed", game_id)
        return dropped

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            self._sleeps_until = math.inf
            await self.fire_due()
            due = await self._store.next_due()
            self._sleeps_until = due
            self.supervisor.ok(self.TASK_NAME)
            timeout = None if due is None else max(0.0, due - self._clock.now())
            if timeout == 0.0:
                continue
            await self._clock.wait(self._wake, timeout)
