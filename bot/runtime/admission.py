"""Admission: which requests (clicks, commands) a process takes on when it is busy.

Past its capacity a bot that takes every request does not get faster: each request waits
behind all the others, so every one of them finishes late (after Discord's 3-second
acknowledgement window, after the player gave up) and the work done for them is lost.
:class:`Admission` bounds the work five ways, each cheap where it refuses:

- **age**: a request received more than ``max_age_s`` after Discord made it (it waited
  in the socket or the event loop) cannot be acknowledged in time; it is dropped before
  anything is built for it (:meth:`Admission.too_old`);
- **count**: at most ``limit`` requests in flight; the one beyond is refused at once in
  one sentence (:meth:`Admission.enter`);
- **event-loop lag**: while the loop runs its callbacks more than ``max_lag_s`` late
  (:class:`LagProbe`), no new request is taken beyond ``floor`` in flight;
- **time in flight**: while even the quickest request done over the last
  ``interval_s`` took more than ``max_wait_s`` from admission to its end (the bot waits on
  something: the database, the pictures, Discord, the cores), no new request is taken
  beyond ``floor`` either. The quickest, not the slowest: one slow request (a Hard AI's
  search) is no sign of a queue, and every request being slow is;
- **backlog**: while the process is queueing or was crowded over the last interval (at
  least ``burst`` requests in flight at once), at most ``max_backlog_s`` seconds of work
  at the pace requests ended over that interval (Little's law: in flight = pace x time in
  flight), and never fewer than ``burst``, are in flight; past that any request is
  refused, retries too; a step of a move begun is refused past ``max_step_backlog_s``
  seconds of work. A quiet process takes a burst of presses.

The lag and time-in-flight bounds refuse new work only. A step of a move already begun
(the caller tells: a choice on a private panel opened lately for a move; one per member
at a time, :attr:`Admission.stepping`) has the longer backlog: a busy bot finishes the
moves it began before it begins others, and the work spent opening a panel is not lost
to a refusal of its next click. A click its member was refused lately and makes again
(:class:`Refused`) is refused at ``limit`` or past the backlog only: told "try again in
a moment", the member who does gets in, first come first served.

Drops and refusals are counted; one INFO line a minute at most sums them up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator

log = logging.getLogger(__name__)

#: Requests (clicks and commands) one process handles at once by default: enough for a
#: burst of presses on one table (a stale press costs a read), few enough that the last
#: one admitted is still acknowledged well within Discord's 3 seconds at a full core's
#: pace (each is acknowledged before its work); the lag bound guards a loop behind.
MAX_IN_FLIGHT = 64
#: A request received this many seconds after it was made is dropped unanswered: the
#: answer could not reach Discord within its 3-second acknowledgement window.
MAX_AGE_S = 2.0
#: Seconds after Discord made a click by which it is acknowledged whatever its work: a
#: move whose first write is not ready by then is deferred, and that write follows.
ACK_BY_S = 1.5
#: Event-loop lag (seconds) past which no request is taken beyond :data:`LAG_FLOOR`: a
#: safety net for a loop so far behind that each await of a request takes a second. (A
#: bound of 0.25 s refused more and achieved fewer moves on a shared machine, where much
#: of the lag is other processes' use of the cores.)
MAX_LAG_S = 1.0
#: Requests in flight always allowed whatever the lag (a slow callback alone is no reason
#: to refuse a quiet bot).
LAG_FLOOR = 8
#: Seconds from admission to the end of the quickest request of an interval past which the
#: process counts as queueing (click to table well within a second for those admitted).
MAX_WAIT_S = 0.5
#: Seconds of work (at the pace requests ended over the last interval) that may be in
#: flight while the process is queueing or crowded; past them any request is refused.
MAX_BACKLOG_S = ACK_BY_S
#: Seconds of work a step of a move begun may find in flight while the process is
#: queueing or crowded; past them it is refused too.
MAX_STEP_BACKLOG_S = 2 * MAX_BACKLOG_S
#: Requests in flight the backlog always allows, whatever the pace; as many at once over
#: an interval make the process crowded. It holds per process: processes sharing the
#: same cores each have this many.
BACKLOG_FLOOR = 8
#: Seconds over which the quickest request's time in flight is taken.
WAIT_INTERVAL_S = 1.0
#: Seconds between two INFO summaries of the drops and refusals, at least.
SUMMARY_EVERY_S = 60.0
#: The clock offset (Discord's request time against this host's clock, plus the network)
#: is the smallest lateness seen over the last one to two periods of this many seconds.
OFFSET_PERIOD_S = 120.0
#: Seconds a click refused as busy is remembered: made again within them, it is a retry.
RETRY_WITHIN_S = 60.0
#: Refused clicks remembered at most (the oldest forgotten first).
REFUSED_KEPT = 4096
#: Discord's epoch (2015-01-01) in unix milliseconds: snowflake times count from it.
DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake_time(snowflake: int) -> float:
    """The unix time (seconds) a Discord snowflake id was made at."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000.0


class LagProbe:
    """How late the event loop runs a callback: one is scheduled every ``interval_s``
    seconds and :attr:`lag_s` is how late the last one ran, or how late the pending one
    is already when that is more (seconds, 0 when stopped)."""

    def __init__(self, interval_s: float = 0.05) -> None:
        self.interval_s = interval_s
        self._last = 0.0
        self._due = math.inf
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Start probing the running loop (again: nothing more)."""
        if self._handle is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._schedule()

    def stop(self) -> None:
        """Stop probing; :attr:`lag_s` reads 0 from now."""
        if self._handle is not None:
            self._handle.cancel()
        self._handle, self._loop, self._last, self._due = None, None, 0.0, math.inf

    @property
    def lag_s(self) -> float:
        if self._loop is None:
            return 0.0
        return max(self._last, self._loop.time() - self._due)

    def _schedule(self) -> None:
        assert self._loop is not None
        self._due = self._loop.time() + self.interval_s
        self._handle = self._loop.call_at(self._due, self._tick)

    def _tick(self) -> None:
        assert self._loop is not None
        self._last = max(0.0, self._loop.time() - self._due)
        self._schedule()


class Refused:
    """Clicks refused as busy lately, by key (the caller's: member, message and custom
    id), each for ``within_s`` seconds of ``monotonic``, at most ``kept`` of them (the
    oldest forgotten first)."""

    def __init__(self, within_s: float = RETRY_WITHIN_S, kept: int = REFUSED_KEPT,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.within_s = within_s
        self.kept = kept
        self.monotonic = monotonic
        self._at: OrderedDict[Hashable, float] = OrderedDict()

    def __len__(self) -> int:
        return len(self._at)

    def note(self, key: Hashable) -> None:
        """``key`` was refused now."""
        self._at[key] = self.monotonic()
        self._at.move_to_end(key)
        while len(self._at) > self.kept:
            self._at.popitem(last=False)

    def retried(self, key: Hashable) -> bool:
        """Whether ``key`` was refused within ``within_s`` seconds (then forgotten: a
        retry counts once)."""
        at = self._at.pop(key, None)
        return at is not None and self.monotonic() - at <= self.within_s


class Admission:
    """Bounds the requests in flight (``ValueError`` when ``limit`` < 1).

    ``lag`` reads the event loop's lag in seconds (a :class:`LagProbe`'s ``lag_s``;
    ``None``: never lagging); ``clock`` is the unix time the age of a request is measured
    against.

    Attributes:
        limit / max_age_s / max_lag_s / floor / max_wait_s / max_backlog_s /
            max_step_backlog_s / burst: the bounds.
        in_flight: requests admitted and not yet done.
        admitted / refused: counts since the start; ``refused_lag``: the refusals made
            for the lag alone, ``refused_wait`` for the time in flight alone,
            ``refused_backlog`` those refused past the backlog (all counted in
            ``refused`` too).
        dropped: requests dropped as too old (:meth:`too_old`).
        peak: the most requests in flight at once so far.
        refused_clicks: the clicks refused lately (:class:`Refused`), whose retries are
            admitted as ``continuing``.
        stepping: the members with a step of a move begun in flight.
    """

    def __init__(self, limit: int = MAX_IN_FLIGHT, *, max_age_s: float = MAX_AGE_S,
                 max_lag_s: float = MAX_LAG_S, floor: int = LAG_FLOOR,
                 max_wait_s: float = MAX_WAIT_S, max_backlog_s: float = MAX_BACKLOG_S,
                 max_step_backlog_s: float = MAX_STEP_BACKLOG_S,
                 burst: int = BACKLOG_FLOOR,
                 interval_s: float = WAIT_INTERVAL_S,
                 lag: Callable[[], float] | None = None,
                 clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        if limit < 1:
            raise ValueError(f"admission limit must be at least 1, not {limit}")
        self.limit = limit
        self.max_age_s = max_age_s
        self.max_lag_s = max_lag_s
        self.floor = floor
        self.max_wait_s = max_wait_s
        self.max_backlog_s = max_backlog_s
        self.max_step_backlog_s = max_step_backlog_s
        self.burst = burst
        self.interval_s = interval_s
        self.lag = lag
        self.clock = clock
        self.monotonic = monotonic
        self.in_flight = 0
        self.admitted = 0
        self.refused = 0
        self.refused_lag = 0
        self.refused_wait = 0
        self.refused_backlog = 0
        self.dropped = 0
        self.peak = 0
        self.refused_clicks = Refused(monotonic=monotonic)
        self.stepping: set[Hashable] = set()
        # smallest lateness in the current and the previous offset period
        self._offset_now = math.inf
        self._offset_before = math.inf
        self._period_end = -math.inf
        # counts at the last summary line, and when it was logged
        self._summary_at = monotonic()
        self._summed = (0, 0)
        # the quickest time in flight of the current interval, its end, and whether the
        # last interval's quickest was over max_wait_s; the requests ended in the current
        # interval, when it began, and the pace (ended per second) of the last one
        self._quickest = math.inf
        self._interval_end = monotonic() + interval_s
        self._queueing = False
        self._ended = 0
        self._interval_start = monotonic()
        self._pace = math.inf
        # the most requests in flight at once over the current interval; whether the
        # last interval had ``burst`` at once
        self._crowd = 0
        self._crowded = False

    def enter(self, *, continuing: bool = False, step: Hashable | None = None) -> bool:
        """Admit one request (True; call :meth:`leave` when it is done), or refuse it as
        :meth:`refuses` does (False; nothing to undo). ``step``: the request is a step of
        a move begun, by this member (any key), who is then in :attr:`stepping` until
        :meth:`leave` (``ValueError`` when they are already)."""
        if step is not None and step in self.stepping:
            raise ValueError(f"a step of {step!r} is in flight already")
        if self.refuses(continuing=continuing, step=step is not None):
            return False
        if step is not None:
            self.stepping.add(step)
        self.in_flight += 1
        self.admitted += 1
        self._crowd = max(self._crowd, self.in_flight)
        self.peak = max(self.peak, self.in_flight)
        return True

    def refuses(self, *, continuing: bool = False, step: bool = False) -> bool:
        """Whether a request arriving now is refused (True, and counted in ``refused``):
        when ``limit`` are in flight; unless it is ``continuing`` (a retry) or a ``step``
        of a move begun, when ``floor`` are while the loop lags more than ``max_lag_s``
        or the process is queueing (:meth:`queueing`); and when the :meth:`backlog` (for
        a step, its longer one) is while the process is crowded or queueing. Admits
        nothing."""
        if self.in_flight >= self.limit:
            self._refuse()
            return True
        if self.in_flight >= self.floor and not (continuing or step):
            if self.lag is not None and self.lag() > self.max_lag_s:
                self.refused_lag += 1
                self._refuse()
                return True
            if self.queueing():
                self.refused_wait += 1
                self._refuse()
                return True
        if (self.in_flight >= self.backlog(step=step)
                and (self._crowded or self.queueing())):
            self.refused_backlog += 1
            self._refuse()
            return True
        return False

    def leave(self, started: float | None = None, step: Hashable | None = None) -> None:
        """One admitted request is done (``RuntimeError`` when none is in flight);
        ``started``: when it was admitted (``monotonic`` seconds), which counts its time
        in flight; ``step``: the member given to :meth:`enter`, taken out of
        :attr:`stepping` (without it, they stay)."""
        if self.in_flight <= 0:
            raise RuntimeError("Admission.leave without a request in flight")
        self.in_flight -= 1
        self.stepping.discard(step)
        if started is not None:
            self._roll()
            self._ended += 1
            self._quickest = min(self._quickest, self.monotonic() - started)

    def queueing(self) -> bool:
        """Whether the last interval's quickest request took over ``max_wait_s`` in
        flight, or none ended in it while some were in flight (after a whole interval in
        which no request arrived or ended: not queueing)."""
        self._roll()
        return self._queueing

    def backlog(self, *, step: bool = False) -> float:
        """The requests that may be in flight: ``max_backlog_s`` seconds of work
        (``max_step_backlog_s`` for a ``step``) at the pace requests ended over the last
        interval (per second), at least ``burst``; ``inf`` before any interval with
        requests and after a quiet one."""
        self._roll()
        seconds = self.max_step_backlog_s if step else self.max_backlog_s
        return max(float(self.burst), self._pace * seconds)

    def _roll(self) -> None:
        now = self.monotonic()
        if now < self._interval_end:
            return
        if now >= self._interval_end + self.interval_s:  # a quiet interval: afresh
            self._queueing = self._crowded = False
            self._pace = math.inf
        else:
            self._crowded = self._crowd >= self.burst
            self._queueing = (self._quickest > self.max_wait_s
                              if self._quickest < math.inf else self.in_flight > 0)
            self._pace = self._ended / max(now - self._interval_start, 1e-9)
        self._ended = 0
        self._crowd = self.in_flight
        self._interval_start = now
        self._quickest = math.inf
        self._interval_end = now + self.interval_s

    @contextlib.contextmanager
    def slot(self) -> Iterator[bool]:
        """``with admission.slot() as admitted:``: :meth:`enter` on entry, and
        :meth:`leave` on exit when it admitted (whatever the block raised), with the time
        it was in flight."""
        admitted = self.enter()
        started = self.monotonic()
        try:
            yield admitted
        finally:
            if admitted:
                self.leave(started)

    def age_s(self, made_at: float) -> float:
        """Seconds a request made at unix time ``made_at`` (Discord's clock) has waited
        beyond the quickest arrival seen lately: its lateness (``clock() - made_at``) less
        the smallest lateness of the last one to two :data:`OFFSET_PERIOD_S`, which is the
        offset between Discord's clock and this host's plus the network's delay."""
        lateness = self.clock() - made_at
        now = self.monotonic()
        if now >= self._period_end:
            self._offset_before, self._offset_now = self._offset_now, math.inf
            self._period_end = now + OFFSET_PERIOD_S
        self._offset_now = min(self._offset_now, lateness)
        return lateness - min(self._offset_now, self._offset_before)

    def too_old(self, made_at: float, what: str = "interaction") -> bool:
        """True (and counted in ``dropped``) when a request made at unix time ``made_at``
        has waited more than ``max_age_s`` (:meth:`age_s`): it is to be dropped with no
        work. ``what`` names it in the DEBUG line."""
        age = self.age_s(made_at)
        if age <= self.max_age_s:
            return False
        self.dropped += 1
        log.debug("%s dropped: received %.1f s after it was made", what, age)
        self.summarise()
        return True

    def _refuse(self) -> None:
        self.refused += 1
        self.summarise()

    def summarise(self) -> None:
        """Log one INFO line of the drops and refusals since the last one, when there are
        some and :data:`SUMMARY_EVERY_S` seconds passed since it."""
        now = self.monotonic()
        if now - self._summary_at < SUMMARY_EVERY_S:
            return
        dropped = self.dropped - self._summed[0]
        refused = self.refused - self._summed[1]
        if dropped or refused:
            log.info("busy: %d requests dropped (received over %.0f s after they were made) "
                     "and %d refused in the last %.0f s", dropped, self.max_age_s, refused,
                     now - self._summary_at)
        self._summary_at, self._summed = now, (self.dropped, self.refused)
