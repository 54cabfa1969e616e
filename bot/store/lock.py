"""One writer per SQLite file: an OS lock on ``<database>.lock`` held by ``herdbot run``.

The lock is ``flock(LOCK_EX | LOCK_NB)`` on a file beside the database (POSIX). The kernel
drops it when the holding process ends in any way, SIGKILL included, so a lock left by a
killed bot never blocks the next start; the ``.lock`` file itself stays (it is never
deleted, since removing a lock file while another process opens it would let two
processes each lock a different file). The holder writes its process id into the file
for the refusal message. Readers (``herdbot backup``) do not take it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from bot.store.errors import StoreError, StoreUnavailable, unavailable_cause


class DatabaseInUse(StoreError):
    """Another process holds the database's writer lock; ``pid`` is its process id when
    the lock file names one."""

    def __init__(self, database: str | Path, pid: int | None) -> None:
        who = f"another herdbot (process {pid})" if pid else "another herdbot"
        super().__init__(
            f"herdbot: {who} is already running on the database {database}: stop it first, "
            "or set HERDBOT_DATABASE to another file."
        )
        self.database = database
        self.pid = pid


def lock_path(database: str | Path) -> Path:
    """The lock file of ``database``: its path with ``.lock`` appended."""
    return Path(f"{database}.lock")


class WriterLock:
    """The exclusive writer lock of one SQLite file, for ``with`` or acquire/release.

    :meth:`acquire` raises :class:`DatabaseInUse` when another process (or another
    :class:`WriterLock` in this one) holds it, :class:`StoreUnavailable` when the lock file
    cannot be created (a missing or read-only folder).
    """

    def __init__(self, database: str | Path) -> None:
        self.database = database
        self.path = lock_path(database)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def acquire(self) -> WriterLock:
        """Take the lock without waiting; returns ``self``."""
        if self._fd is not None:
            return self
        if Path(self.database).is_dir():
            raise StoreUnavailable(self.database, "that is a folder, not a file")
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreUnavailable(self.database,
                                   unavailable_cause(self.database, exc)) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            raise DatabaseInUse(self.database, pid) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        """Drop the lock (closing the file releases it); the file stays."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def __enter__(self) -> WriterLock:
        return self.acquire()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
