"""Pictures kept by their inputs: :func:`inputs_key` turns a drawing's inputs into bytes
(equal values, equal bytes) and :class:`Kept` holds the last values drawn for such keys."""

from __future__ import annotations

import io
import pickle
import threading
from collections import OrderedDict
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
    """The last ``size`` values by key (least recently used first out); ``hits`` and
    ``misses`` count lookups. Safe to share between threads."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._kept: OrderedDict[bytes, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: bytes) -> V | None:
        """The value kept for ``key``, or ``None`` (counted as a miss)."""
        with self._lock:
            value = self._kept.get(key)
            if value is None:
                self.misses += 1
                return None
            self.hits += 1
            self._kept.move_to_end(key)
            return value

    def put(self, key: bytes, value: V) -> None:
        """Keep ``value`` for ``key``, forgetting the oldest past ``size``."""
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        """Forget every value and zero the counts."""
        with self._lock:
            self._kept.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)

