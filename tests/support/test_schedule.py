"""The start order under pytest-xdist (tests.support.schedule): slow tests at the heads of
the blocks xdist's worksteal scheduler hands out first, the others in collected order."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support import schedule
from tests.support.schedule import block_sizes, heads_first


def test_block_sizes_are_the_worksteal_schedulers_first_split():
    assert block_sizes(10, 4) == [2, 2, 3, 3]
    assert block_sizes(1158, 4) == [289, 289, 290, 290]
    assert block_sizes(8, 1) == [8]


def test_slow_tests_lead_the_blocks_longest_first_and_the_rest_keep_their_order(monkeypatch):
    monkeypatch.setattr(schedule, "SLOW", {"t::a": 70, "t::b": 60, "t::c[": 20, "t::d": 15})
    ids = ["t::x1", "t::c[1]", "t::x2", "t::d", "t::a", "t::x3", "t::c[2]", "t::x4", "t::b",
           "t::x5"]
    assert heads_first(ids, ids, 3) == [
        "t::a", "t::x1", "t::x2",            # 70
        "t::b", "t::x3", "t::x4",            # 60
        "t::c[1]", "t::c[2]", "t::d", "t::x5",  # 20 + 20 + 15
    ]
    assert heads_first(ids, ids, 1) == ids  # no xdist: the collected order
    assert heads_first(ids, ids, 0) == ids


def test_a_parametrized_entry_covers_every_parameter_and_the_longest_entry_wins(monkeypatch):
    monkeypatch.setattr(schedule, "SLOW", {"t::a": 5, "t::a[big]": 50})
    assert (schedule.seconds("t::a[small]"), schedule.seconds("t::a[big]"),
            schedule.seconds("t::b")) == (5, 50, 0)


def test_every_slow_entry_names_a_test_that_exists():
    """An entry left behind by a moved or renamed test would let the slow test start last."""
    root = Path(__file__).resolve().parents[2]
    missing = []
    for key in schedule.SLOW:
        path, _, name = key.partition("::")
        name = name.split("[")[0]
        source = (root / path).read_text(encoding="utf-8") if (root / path).is_file() else ""
        if not source or (name and not re.search(rf"^(async )?def {name}\(", source, re.M)):
            missing.append(key)
    assert missing == []
