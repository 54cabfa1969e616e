"""Pictures kept by their inputs: :func:`inputs_key` turns a drawing's inputs into bytes
(equal values, equal bytes) and :class:`Kept` holds the last values drawn for such keys
(or any hashable keys), bounded by their count and, when weighed, by their bytes."""

from __future__ import annotations

import io
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")


def inputs_key(*inputs: Any) -> bytes:
    """``inputs`` as bytes: equal values give equal bytes. Pickled without the memo: with
    it, an object met twice is written the second time as a back-reference, so equal
    inputs made of shared or of separate objects (an interned string, a name dict reused)
    would give different bytes. Raises ``pickle.PicklingError`` (or ``TypeError`` /
    ``AttributeError``) for inputs that cannot be pickled."""
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True
    pickler.dump(inputs)
    return buf.getvalue()


class Kept(Generic[V]):
    """The last ``size`` values by key (least recently used first out) and, with
    ``weigh`` (a value's bytes), at most ``budget`` bytes of them; ``hits`` and ``misses``
    count lookups. Safe to share between threads. Raises ValueError for a ``budget``
    without ``weigh``."""

    def __init__(self, size: int = 64, *, budget: int | None = None,
                 weigh: Callable[[V], int] | None = None) -> None:
        if budget is not None and weigh is None:
            raise ValueError("a byte budget needs a weigh function")
        self.size = size
        self.budget = budget
        self._weigh = weigh
        #: Bytes of the values kept (0 unless weighed).
        self.kept_bytes = 0
        self._kept: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> V | None:
        """The value kept for ``key``, or ``None`` (counted as a miss)."""
        with self._lock:
            entry = self._kept.get(key)
            if entry is None:
                self.misses += 1
                return None
            self.hits += 1
            self._kept.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, value: V) -> None:
        """Keep ``value`` for ``key``, forgetting the oldest past ``size`` values or
        ``budget`` bytes."""
        weight = self._weigh(value) if self._weigh is not None else 0
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self.kept_bytes -= old[1]
            self._kept[key] = (value, weight)
            self.kept_bytes += weight
            budget = self.budget
            while len(self._kept) > self.size or (
                    budget is not None and self.kept_bytes > budget and len(self._kept) > 1):
                self.kept_bytes -= self._kept.popitem(last=False)[1][1]

    def clear(self) -> None:
        """Forget every value and zero the counts."""
        with self._lock:
            self._kept.clear()
            self.kept_bytes = self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)
