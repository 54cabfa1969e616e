"""Values kept by key (``bot.render.kept.Kept``), bounded by count and by bytes."""

from __future__ import annotations

import pytest

from bot.render.kept import Kept


def test_weighed_values_are_kept_within_their_budget_oldest_out_first():
    kept: Kept[bytes] = Kept(10, budget=10, weigh=len)
    kept.put("a", b"xxxx")
    kept.put("b", b"yyyy")
    assert (len(kept), kept.kept_bytes) == (2, 8)
    assert kept.get("a") == b"xxxx"  # now the most recently used
    kept.put("c", b"zzz")
    assert (kept.get("b"), kept.get("a"), kept.get("c")) == (None, b"xxxx", b"zzz")
    assert (len(kept), kept.kept_bytes) == (2, 7)
    kept.put("a", b"x")  # kept again: weighed anew
    assert kept.kept_bytes == 4
    kept.put("big", b"w" * 50)  # over the budget alone: kept, the others out
    assert (len(kept), kept.kept_bytes, kept.get("big")) == (1, 50, b"w" * 50)
    assert (kept.hits, kept.misses) == (4, 1)
    kept.clear()
    assert (len(kept), kept.kept_bytes, kept.hits, kept.misses) == (0, 0, 0, 0)


def test_without_weights_the_count_bounds_alone():
    kept: Kept[int] = Kept(2)
    for key in "abc":
        kept.put(key, 7)
    assert (len(kept), kept.kept_bytes, kept.get("a"), kept.get("c")) == (2, 0, None, 7)


def test_a_budget_needs_a_weight():
    with pytest.raises(ValueError, match="needs a weigh function"):
        Kept(2, budget=1)
