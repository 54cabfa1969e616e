"""Admission: at most ``limit`` requests in flight; the one beyond is refused at once."""

from __future__ import annotations

import asyncio
import logging
import math
import time

import pytest

from bot.runtime.admission import (
    BACKLOG_FLOOR,
    LAG_FLOOR,
    MAX_AGE_S,
    MAX_BACKLOG_S,
    MAX_IN_FLIGHT,
    MAX_LAG_S,
    MAX_STEP_BACKLOG_S,
    MAX_WAIT_S,
    OFFSET_PERIOD_S,
    REFUSED_KEPT,
    RETRY_WITHIN_S,
    WAIT_INTERVAL_S,
    Admission,
    LagProbe,
    Refused,
    snowflake_time,
)


def test_admits_up_to_the_limit_then_refuses_and_counts():
    adm = Admission(2)
    assert [adm.enter(), adm.enter(), adm.enter(), adm.enter()] == [True, True, False, False]
    assert (adm.in_flight, adm.admitted, adm.refused, adm.peak) == (2, 2, 2, 2)
    adm.leave()
    assert adm.enter() is True
    assert (adm.in_flight, adm.admitted, adm.refused, adm.peak) == (2, 3, 2, 2)


def test_refuses_tells_and_counts_a_refusal_but_admits_nothing():
    adm = Admission(1)
    assert adm.refuses() is False
    assert (adm.in_flight, adm.admitted, adm.refused) == (0, 0, 0)
    assert adm.enter() is True
    assert [adm.refuses(), adm.refuses()] == [True, True]
    assert (adm.in_flight, adm.admitted, adm.refused) == (1, 1, 2)


def test_nothing_grows_with_the_refused_requests():
    adm = Admission(3)
    for _ in range(3):
        assert adm.enter()
    assert [adm.enter() for _ in range(10_000)] == [False] * 10_000
    assert (adm.in_flight, adm.peak, adm.refused) == (3, 3, 10_000)


def test_slot_leaves_on_exit_and_on_error_and_a_refused_slot_leaves_nothing():
    adm = Admission(1)
    with adm.slot() as first:
        assert first is True
        with adm.slot() as second:
            assert second is False
        assert adm.in_flight == 1
    assert adm.in_flight == 0
    with pytest.raises(KeyError), adm.slot() as admitted:
        assert admitted is True
        raise KeyError("x")
    assert (adm.in_flight, adm.admitted, adm.refused) == (0, 2, 1)


def test_leave_without_a_request_and_a_limit_below_one_are_errors():
    with pytest.raises(RuntimeError, match="without a request in flight"):
        Admission(1).leave()
    with pytest.raises(ValueError, match="at least 1, not 0"):
        Admission(0)
    assert Admission().limit == MAX_IN_FLIGHT == 64


class Clocks:
    """A fake unix clock (``now``) and monotonic clock (``mono``) for :class:`Admission`."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0
        self.mono = 1000.0

    def admission(self, **kwargs) -> Admission:
        return Admission(clock=lambda: self.now, monotonic=lambda: self.mono, **kwargs)


def test_a_request_received_over_two_seconds_late_is_dropped_and_counted():
    c = Clocks()
    adm = c.admission()
    assert MAX_AGE_S == 2.0
    assert adm.too_old(c.now - 0.3) is False  # the quickest arrival: 0.3 s of network
    assert adm.too_old(c.now - 2.3) is False  # waited 2.0 s beyond it: still answerable
    assert adm.too_old(c.now - 2.31) is True
    assert adm.too_old(c.now - 60) is True
    assert (adm.dropped, adm.admitted, adm.refused, adm.in_flight) == (2, 0, 0, 0)
    assert round(adm.age_s(c.now - 1.3), 3) == 1.0


def test_the_age_allows_for_a_host_clock_off_from_discords_either_way():
    c = Clocks()
    ahead = c.admission()  # this host's clock 10 s ahead of Discord's
    assert [ahead.too_old(c.now - 10.02), ahead.too_old(c.now - 11.9),
            ahead.too_old(c.now - 12.1)] == [False, False, True]
    behind = c.admission()  # 5 s behind: requests seem made in the future
    assert [behind.too_old(c.now + 5.0), behind.too_old(c.now + 3.1),
            behind.too_old(c.now + 2.9)] == [False, False, True]


def test_the_clock_offset_follows_the_last_two_periods_only():
    c = Clocks()
    adm = c.admission()
    assert OFFSET_PERIOD_S == 120.0
    assert adm.too_old(c.now + 30) is False  # a clock once 30 s off (corrected since)
    assert adm.too_old(c.now - 0.1) is True  # 30.1 s later than that quickest arrival
    c.mono += 120  # the next period: the previous one's minimum still counts
    assert adm.too_old(c.now - 0.1) is True
    c.mono += 120  # and the one after: it is forgotten
    assert adm.too_old(c.now - 0.1) is False
    assert adm.too_old(c.now - 1.0) is False
    assert adm.too_old(c.now - 2.2) is True
    assert adm.dropped == 3


def test_while_the_loop_lags_only_the_floor_is_admitted():
    lag = [1.2]
    adm = Admission(24, lag=lambda: lag[0])
    assert (MAX_LAG_S, LAG_FLOOR) == (1.0, 8)
    assert [adm.enter() for _ in range(10)] == [True] * 8 + [False] * 2
    assert (adm.in_flight, adm.refused, adm.refused_lag) == (8, 2, 2)
    lag[0] = 1.0  # at the bound: not beyond it
    assert [adm.enter() for _ in range(17)] == [True] * 16 + [False]
    assert (adm.in_flight, adm.admitted, adm.refused, adm.refused_lag) == (24, 24, 3, 2)
    no_floor = Admission(24, floor=0, lag=lambda: 1.01)
    assert no_floor.enter() is False and no_floor.refused_lag == 1


def test_while_even_the_quickest_request_waits_only_the_floor_is_admitted():
    """The quickest request of the last interval over 0.5 s in flight: the process is
    queueing, and only the floor (8) is admitted until an interval's quickest is quick.
    (A burst of 16 here: the 12 in flight do not make the process crowded.)"""
    assert (MAX_WAIT_S, WAIT_INTERVAL_S) == (0.5, 1.0)
    c = Clocks()
    adm = c.admission(limit=24, burst=16)
    started = c.mono
    assert [adm.enter() for _ in range(12)] == [True] * 12
    c.mono += 0.6
    adm.leave(started)  # 0.6 s: over the bound, in the first interval
    adm.leave(started)
    assert adm.queueing() is False  # the interval is not over
    c.mono += 0.5  # 1.1 s: the first interval (quickest 0.6 s) is over
    assert adm.queueing() is True
    assert adm.in_flight == 10
    assert [adm.enter() for _ in range(3)] == [False] * 3
    assert (adm.refused, adm.refused_wait, adm.refused_lag) == (3, 3, 0)
    for _ in range(3):  # down to the floor, then one is admitted
        adm.leave(c.mono - 0.6)
    assert [adm.enter(), adm.enter()] == [True, False]
    # one quick request in the next interval ends the queueing however slow the others
    adm.leave(c.mono - 0.1)
    adm.leave(c.mono - 3.0)
    c.mono += 1.0
    assert adm.queueing() is False
    assert [adm.enter() for _ in range(3)] == [True] * 3


def test_work_already_begun_is_refused_at_the_limit_or_the_backlog_only():
    """Lagging or queueing, a retry (``continuing``) is admitted up to ``limit`` or the
    backlog; a new request is refused past the floor."""
    c = Clocks()
    lagging = c.admission(limit=10, floor=2, lag=lambda: MAX_LAG_S + 0.01)
    assert [lagging.enter(), lagging.enter(), lagging.enter()] == [True, True, False]
    assert [lagging.enter(continuing=True) for _ in range(9)] == [True] * 8 + [False]
    assert (lagging.in_flight, lagging.refused, lagging.refused_lag) == (10, 2, 1)
    assert lagging.refuses(continuing=True) is True
    queueing = c.admission(limit=24, floor=2)
    assert [queueing.enter() for _ in range(3)] == [True] * 3
    c.mono += 1.5  # an interval with three in flight and none ended
    assert queueing.queueing() is True
    assert queueing.backlog() == BACKLOG_FLOOR  # none ended: the burst alone
    assert (queueing.enter(), queueing.enter(continuing=True)) == (False, True)
    assert (queueing.in_flight, queueing.refused_wait) == (4, 1)


def test_past_the_backlog_every_request_but_a_step_is_refused():
    """At most 1.5 s of work at the last interval's pace is in flight, and never fewer
    than ``burst``: with 12 requests ended in a 1 s interval, 18; past them retries are
    refused too (a step of a move begun has its own backlog), until a quiet interval
    lifts the bound."""
    assert (MAX_BACKLOG_S, BACKLOG_FLOOR) == (1.5, 8)
    c = Clocks()
    adm = c.admission(limit=64, floor=2, burst=4)
    assert adm.backlog() == math.inf  # no interval yet: no bound but the limit
    assert [adm.enter(continuing=True) for _ in range(30)] == [True] * 30
    c.mono += 0.9
    for _ in range(12):
        adm.leave(c.mono - 0.1)  # twelve ended, each 0.1 s in flight: not queueing
    c.mono += 0.1  # the interval is over: twelve a second
    assert (adm.queueing(), adm.backlog()) == (False, 18.0)
    assert adm.in_flight == 18
    assert [adm.enter(continuing=True), adm.enter()] == [False, False]
    assert (adm.refused, adm.refused_backlog, adm.refused_wait) == (2, 2, 0)
    adm.leave(c.mono - 0.1)
    assert [adm.enter(continuing=True), adm.enter(continuing=True)] == [True, False]
    c.mono += 2.5  # a whole interval with neither an end nor a refusal: afresh
    assert adm.backlog() == math.inf
    assert adm.enter(continuing=True) is True



def test_a_step_of_a_move_begun_has_twice_the_backlog_and_no_lag_or_wait_bound():
    """Lagging and queueing at twelve a second: past the floor a new request is refused
    for the lag, and past the backlog (18 in flight) a retry is refused; a step of a
    move begun is admitted up to its own backlog (3 s of work: 36 in flight)."""
    assert MAX_STEP_BACKLOG_S == 3.0
    c = Clocks()
    adm = c.admission(limit=64, floor=2, burst=4, lag=lambda: MAX_LAG_S + 0.01)
    assert [adm.enter(step=n) for n in range(30)] == [True] * 30  # no interval yet
    c.mono += 0.9
    for n in range(12):
        adm.leave(c.mono - 0.6, n)  # twelve ended, each 0.6 s in flight: queueing
    c.mono += 0.1
    assert (adm.queueing(), adm.backlog(), adm.backlog(step=True)) == (True, 18.0, 36.0)
    assert adm.in_flight == 18
    assert [adm.enter(), adm.enter(continuing=True)] == [False, False]
    assert [adm.enter(step=n) for n in range(100, 119)] == [True] * 18 + [False]
    assert (adm.in_flight, adm.refused, adm.refused_lag, adm.refused_backlog) == (36, 3, 1, 2)


def test_one_step_per_member_is_in_flight_at_a_time():
    """A member is stepping from the admission of their step to its end; a second step
    of theirs meanwhile is a caller's mistake; a refused step leaves them out."""
    c = Clocks()
    adm = c.admission(limit=3)
    assert adm.enter(step="ana") is True
    assert adm.stepping == {"ana"}
    with pytest.raises(ValueError, match="a step of 'ana' is in flight already"):
        adm.enter(step="ana")
    assert [adm.enter(step="bo"), adm.enter()] == [True, True]
    assert adm.enter(step="cy") is False  # the limit
    assert (adm.stepping, adm.in_flight) == ({"ana", "bo"}, 3)
    adm.leave(c.mono, "ana")
    adm.leave(c.mono)  # the request that was no step
    assert (adm.stepping, adm.in_flight) == ({"bo"}, 1)
    adm.leave(c.mono, "bo")
    assert (adm.stepping, adm.in_flight) == (set(), 0)
    assert adm.enter(step="ana") is True


def test_eight_at_once_make_a_process_crowded_and_seven_do_not():
    """With the default burst (8): an interval that had 8 requests in flight at once
    makes the process crowded, so the next takes 1.5 s of work at its pace (8 ended in
    1 s: 12); after 7 at once it is not crowded and takes a burst up to the limit."""
    for at_once, admitted in ((8, 12), (7, 20)):
        c = Clocks()
        adm = c.admission(limit=64, floor=2)
        assert [adm.enter(continuing=True) for _ in range(at_once)] == [True] * at_once
        c.mono += 0.5
        for _ in range(at_once):
            adm.leave(c.mono - 0.1)
        c.mono += 0.5  # the interval is over; its quickest took 0.1 s: not queueing
        assert adm.queueing() is False
        got = [adm.enter(continuing=True) for _ in range(20)]
        assert (got.count(True), adm.refused_backlog) == (admitted, 20 - admitted)

def test_the_backlog_is_never_below_the_burst():
    c = Clocks()
    adm = c.admission(limit=64, floor=2, burst=5)
    assert [adm.enter() for _ in range(6)] == [True] * 6
    c.mono += 0.6
    adm.leave(c.mono - 0.1)  # one ended in the interval: a pace of one a second
    c.mono += 0.4
    assert adm.backlog() == 5.0
    assert adm.enter(continuing=True) is False
    adm.leave(c.mono - 0.1)
    assert [adm.enter(continuing=True), adm.enter(continuing=True)] == [True, False]


def test_a_process_neither_crowded_nor_queueing_takes_a_burst_up_to_the_limit():
    """A light interval (one request, 0.1 s in flight) gives a slow pace, but the process
    was not crowded: a burst of 20 presses is admitted whole."""
    c = Clocks()
    adm = c.admission(limit=64, floor=2)
    assert adm.enter() is True
    c.mono += 0.1
    adm.leave(c.mono - 0.1)
    c.mono += 1.4
    assert (adm.queueing(), adm.backlog()) == (False, float(BACKLOG_FLOOR))
    assert [adm.enter(continuing=True) for _ in range(20)] == [True] * 20
    assert adm.refused_backlog == 0


def test_an_interval_with_requests_in_flight_and_none_ended_is_queueing():
    c = Clocks()
    adm = c.admission(limit=24)
    assert [adm.enter() for _ in range(8)] == [True] * 8
    c.mono += 1.0
    assert adm.enter() is False  # the first interval: none ended, 8 in flight
    c.mono += 0.5
    assert adm.queueing() is True
    c.mono += 2.0  # a whole interval with neither an end nor a refusal: afresh
    assert adm.queueing() is False
    assert adm.enter() is True


def test_a_slot_counts_its_time_in_flight():
    c = Clocks()
    adm = c.admission(limit=24, floor=0)
    with adm.slot() as admitted:
        assert admitted is True
        c.mono += 0.7
    c.mono += 0.4
    assert adm.queueing() is True
    with adm.slot() as admitted:
        assert admitted is False
    assert adm.refused_wait == 1


def test_one_info_line_a_minute_at_most_sums_up_drops_and_refusals(caplog):
    c = Clocks()
    adm = c.admission(limit=1)
    caplog.set_level(logging.DEBUG, logger="bot.runtime.admission")
    assert adm.enter()
    adm.too_old(c.now)
    for _ in range(3):
        adm.too_old(c.now - 5, "click 7")
        adm.enter()
    c.mono += 59
    adm.enter()
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.INFO] == []
    assert [r.getMessage() for r in caplog.records][0] == (
        "click 7 dropped: received 5.0 s after it was made")
    c.mono += 1
    adm.too_old(c.now - 5)
    c.mono += 30
    adm.enter()
    c.mono += 30
    adm.enter()
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.INFO] == [
        "busy: 4 requests dropped (received over 2 s after they were made) and 4 refused "
        "in the last 60 s",
        "busy: 0 requests dropped (received over 2 s after they were made) and 2 refused "
        "in the last 60 s"]


def test_the_probe_reads_how_late_the_loop_runs_its_callbacks():
    async def main() -> tuple[float, float, float]:
        probe = LagProbe(0.01)
        idle = probe.lag_s
        probe.start()
        await asyncio.sleep(0.02)
        time.sleep(0.3)  # the loop blocked: the probe's callback is overdue
        blocked = probe.lag_s
        probe.stop()
        return idle, blocked, probe.lag_s

    idle, blocked, stopped = asyncio.run(main())
    assert (idle, stopped) == (0.0, 0.0)
    assert blocked >= 0.28


def test_snowflake_time_is_discords_epoch_plus_the_ids_milliseconds():
    assert snowflake_time(0) == 1_420_070_400.0
    assert snowflake_time(175928847299117063) == 1_462_015_105.796  # Discord's docs example


def test_a_click_refused_lately_is_a_retry_once_within_its_time():
    now = [100.0]
    refused = Refused(monotonic=lambda: now[0])
    assert (RETRY_WITHIN_S, REFUSED_KEPT) == (60.0, 4096)
    assert refused.retried(("ana", 1, "a")) is False  # never refused: new work
    refused.note(("ana", 1, "a"))
    now[0] += 60.0
    assert refused.retried(("bo", 1, "a")) is False  # another member's click
    assert refused.retried(("ana", 1, "b")) is False  # another button
    assert refused.retried(("ana", 1, "a")) is True
    assert refused.retried(("ana", 1, "a")) is False  # a retry counts once
    refused.note(("ana", 1, "a"))
    now[0] += 60.5
    assert refused.retried(("ana", 1, "a")) is False  # refused too long ago
    assert len(refused) == 0


def test_refused_clicks_kept_are_bounded_the_oldest_forgotten_first():
    refused = Refused(kept=3, monotonic=lambda: 0.0)
    for n in range(5):
        refused.note(n)
    assert len(refused) == 3
    assert [refused.retried(n) for n in range(5)] == [False, False, True, True, True]
    refused.note("a")
    refused.note("b")
    refused.note("a")  # noted again: the newest
    refused.note("c")
    refused.note("d")  # "b" goes first
    assert [refused.retried(k) for k in ("a", "b", "c", "d")] == [True, False, True, True]


def test_an_admission_keeps_its_refused_clicks_on_its_own_clock():
    now = [5.0]
    adm = Admission(monotonic=lambda: now[0])
    adm.refused_clicks.note("k")
    now[0] += RETRY_WITHIN_S + 1
    assert adm.refused_clicks.retried("k") is False
