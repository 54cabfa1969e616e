"""Counting a store's read round trips (test-only)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def store_reads(store: Any) -> Iterator[list[str]]:
    """Within the block, every read round trip of ``store`` (``_one``: one row, ``_all``:
    rows) is listed by name in the list yielded; the store is as before afterwards."""
    reads: list[str] = []

    def counting(name: str) -> Any:
        real = getattr(store, name)

        async def counted(*args: Any) -> Any:
            reads.append(name)
            return await real(*args)
        return counted

    store._one, store._all = counting("_one"), counting("_all")
    try:
        yield reads
    finally:
        del store._one, store._all


__all__ = ["store_reads"]
