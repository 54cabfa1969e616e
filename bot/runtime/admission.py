"""Admission: a bound on the requests (clicks, commands) a process handles at once.

Past its capacity a bot that takes every request does not get faster: each request waits
behind all the others, so every one of them finishes late (after Discord's 3-second
acknowledgement window, after the player gave up) and the work done for them is lost.
:class:`Admission` keeps at most ``limit`` requests in flight; the one beyond is refused at
once (answered in one sentence, nothing done), which costs little, so the requests taken
finish in time whatever the load.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

#: Requests (clicks and commands) one process handles at once by default: enough to keep
#: the event loop busy while some wait for Discord or the database, few enough that the
#: last one admitted still finishes well within a second at a full core's pace.
MAX_IN_FLIGHT = 24


class Admission:
    """At most ``limit`` requests in flight (``ValueError`` when ``limit`` < 1).

    Attributes:
        limit: the bound.
        in_flight: requests admitted and not yet done.
        admitted / refused: counts since the start.
        peak: the most requests in flight at once so far.
    """

    def __init__(self, limit: int = MAX_IN_FLIGHT) -> None:
        if limit < 1:
            raise ValueError(f"admission limit must be at least 1, not {limit}")
        self.limit = limit
        self.in_flight = 0
        self.admitted = 0
        self.refused = 0
        self.peak = 0

    def enter(self) -> bool:
        """Admit one request (True; call :meth:`leave` when it is done), or refuse it when
        ``limit`` are in flight (False; nothing to undo)."""
        if self.in_flight >= self.limit:
            self.refused += 1
            return False
        self.in_flight += 1
        self.admitted += 1
        self.peak = max(self.peak, self.in_flight)
        return True

    def leave(self) -> None:
        """One admitted request is done (``RuntimeError`` when none is in flight)."""
        if self.in_flight <= 0:
            raise RuntimeError("Admission.leave without a request in flight")
        self.in_flight -= 1

    @contextlib.contextmanager
    def slot(self) -> Iterator[bool]:
        """``with admission.slot() as admitted:``: :meth:`enter` on entry, and
        :meth:`leave` on exit when it admitted (whatever the block raised)."""
        admitted = self.enter()
        try:
            yield admitted
        finally:
            if admitted:
                self.leave()
