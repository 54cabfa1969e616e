"""A picture's pixel rows deflated in bands, a band met before taking its kept bytes.

Consecutive tables of a game differ in a few places, so most bands of rows are the same
bytes as in the game's previous picture. Each band is deflated on its own (the
compressor's history reset at its start, RFC 1951's full flush), so its deflated bytes
depend on its rows alone and can be kept by the rows' content (length, CRC-32 and
Adler-32) and joined with other bands' into one zlib stream (RFC 1950).
"""

from __future__ import annotations

import struct
import threading
from collections import OrderedDict

from zlib_ng import zlib_ng

#: Rows per band.
BAND_ROWS = 32
#: Bytes the kept bands may take in each process that draws (their deflated bytes and
#: :data:`ENTRY_BYTES` each): a few hundred active tables' bands.
KEPT_BYTES = 24 * 2**20
#: Bytes a kept band takes beside its deflated bytes (its key and the entry).
ENTRY_BYTES = 256
#: A zlib stream's header: deflate with a 32 KiB window, the "fastest" level flag.
_HEADER = b"\x78\x01"
#: A last, empty block (fixed codes, end of block at once): ends the deflate stream.
_LAST = b"\x03\x00"

Key = tuple[int, int, int]


class Bands:
    """Deflated bands kept by content, the least recently used dropped first past
    ``budget`` bytes (deflated bytes plus :data:`ENTRY_BYTES` a band). Safe to share
    between threads."""

    def __init__(self, budget: int = KEPT_BYTES) -> None:
        self.budget = budget
        self.kept_bytes = 0
        self._kept: OrderedDict[Key, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def deflate(self, data: bytes, stride: int, level: int) -> bytes:
        """The zlib stream of ``data`` (rows of ``stride`` bytes), deflated at ``level``
        band by band of :data:`BAND_ROWS` rows. Raises ValueError when ``stride`` is not
        positive."""
        if stride <= 0:
            raise ValueError(f"a row is at least one byte, not {stride}")
        view = memoryview(data)
        step = stride * BAND_ROWS
        keys = [(len(band), zlib_ng.crc32(band), zlib_ng.adler32(band))
                for band in (view[i:i + step] for i in range(0, len(data), step))]
        found: list[bytes | None] = []
        with self._lock:
            for key in keys:
                part = self._kept.get(key)
                if part is not None:
                    self._kept.move_to_end(key)
                found.append(part)
        compressor = None
        parts: list[bytes] = []
        made: list[tuple[Key, bytes]] = []
        for index, (key, part) in enumerate(zip(keys, found, strict=True)):
            if part is None:
                if compressor is None:
                    compressor = zlib_ng.compressobj(level, zlib_ng.DEFLATED, -15)
                start = index * step
                part = (compressor.compress(view[start:start + step])
                        + compressor.flush(zlib_ng.Z_FULL_FLUSH))
                made.append((key, part))
            parts.append(part)
        with self._lock:
            self.hits += len(keys) - len(made)
            self.misses += len(made)
            for key, part in made:
                if key not in self._kept:
                    self._kept[key] = part
                    self.kept_bytes += len(part) + ENTRY_BYTES
            while self.kept_bytes > self.budget and self._kept:
                self.kept_bytes -= len(self._kept.popitem(last=False)[1]) + ENTRY_BYTES
        return b"".join((_HEADER, *parts, _LAST, struct.pack(">I", zlib_ng.adler32(data))))

    def clear(self) -> None:
        """Forget every band and zero the counts."""
        with self._lock:
            self._kept.clear()
            self.kept_bytes = self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)


#: This process's kept bands (every renderer's pictures).
BANDS = Bands()
