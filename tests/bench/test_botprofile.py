"""bench.botprofile: the refusing window (``BENCH_PROFILE_CLOCK=refuse``)."""

from __future__ import annotations

from bench.botprofile import Refusing
from bot.runtime.admission import Admission


def test_while_on_every_request_is_refused_and_counted_and_off_restores_the_admission():
    original = Admission.refuses
    admission = Admission()
    refusing = Refusing()
    refusing.on()
    refusing.on()  # (once on, on again changes nothing)
    try:
        assert admission.enter() is False
        assert admission.enter(continuing=True) is False
        assert admission.refuses() is True
        assert (admission.refused, admission.in_flight, admission.admitted) == (3, 0, 0)
    finally:
        refusing.off()
    assert Admission.refuses is original
    assert admission.enter() is True
    assert (admission.refused, admission.in_flight, admission.admitted) == (3, 1, 1)
    refusing.off()  # (off when off changes nothing)
    assert Admission.refuses is original
