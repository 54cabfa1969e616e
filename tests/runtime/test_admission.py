"""Admission: at most ``limit`` requests in flight; the one beyond is refused at once."""

from __future__ import annotations

import pytest

from bot.runtime.admission import MAX_IN_FLIGHT, Admission


def test_admits_up_to_the_limit_then_refuses_and_counts():
    adm = Admission(2)
    assert [adm.enter(), adm.enter(), adm.enter(), adm.enter()] == [True, True, False, False]
    assert (adm.in_flight, adm.admitted, adm.refused, adm.peak) == (2, 2, 2, 2)
    adm.leave()
    assert adm.enter() is True
    assert (adm.in_flight, adm.admitted, adm.refused, adm.peak) == (2, 3, 2, 2)


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
    assert Admission().limit == MAX_IN_FLIGHT == 24
