"""bot.present.hand_dm: the stored record of a seat's last hand DM."""

from __future__ import annotations

from bot.present.hand_dm import hand_record, parse_hand_record


def test_the_stored_hand_record_reads_back_and_a_missing_one_reads_as_nothing():
    assert hand_record(7, [40, 3, 12]) == "7:3,12,40"
    assert parse_hand_record("7:3,12,40") == (7, [3, 12, 40])
    assert parse_hand_record("9:") == (9, [])
    assert parse_hand_record(None) == (0, [])
    assert parse_hand_record("x:3,y") == (0, [3])
