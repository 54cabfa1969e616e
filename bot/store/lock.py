"""One writer per SQLite file: an OS lock on ``<database>.lock`` held by ``herdbot run``.

The lock is ``flock(LOCK_EX | LOCK_NB)`` on a file beside the database (POSIX), named after
the database's resolved path (symbolic links followed, ``..`` folded), so a second path to
the same file (a symlink, a linked folder, a relative path) finds the same lock. The kernel
drops it when the holding process ends in any way, SIGKILL included, so a lock left by a
killed bot never blocks the next start; the ``.lock`` file itself stays (it is never
deleted, since removing a lock file while another process opens it would let two
processes each lock a different file). The holder writes its process id into the file
for the refusal message. Readers (``herdbot backup``) do not take it.

The ``.lock`` file is also the sign that herdbot ran on a database before:
:meth:`WriterLock.check_not_lost` refuses to start on a missing database whose ``.lock``
was there (the file was deleted or moved; a new, empty one would silently replace it).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from bot.i18n import N_
from bot.store.errors import IS_A_FOLDER, StoreError, StoreUnavailable, said, unavailable_cause


class DatabaseInUse(StoreError):
    """Another process holds the database's writer lock; ``pid`` is its process id when
    the lock file names one."""

    def __init__(self, database: str | Path, pid: int | None) -> None:
        real = Path(database).resolve()
        linked = Path(database).absolute() != real
        if pid and linked:
            say = said(N_("another herdbot (process {pid}) is already running on the database "
                          "{database} (the file {real}): stop it first, or set "
                          "HERDBOT_DATABASE to another file."),
                       pid=pid, database=database, real=real)
        elif pid:
            say = said(N_("another herdbot (process {pid}) is already running on the database "
                          "{database}: stop it first, or set HERDBOT_DATABASE to another "
                          "file."), pid=pid, database=database)
        elif linked:
            say = said(N_("another herdbot is already running on the database {database} (the "
                          "file {real}): stop it first, or set HERDBOT_DATABASE to another "
                          "file."), database=database, real=real)
        else:
            say = said(N_("another herdbot is already running on the database {database}: "
                          "stop it first, or set HERDBOT_DATABASE to another file."),
                       database=database)
        super().__init__(say)
        self.database = database
        self.pid = pid


class DatabaseMissing(StoreError):
    """The database file is missing although herdbot ran on it before (its ``.lock`` file
    is there): it was deleted or moved, and starting would create a new, empty one."""

    def __init__(self, database: str | Path) -> None:
        super().__init__(said(N_(
            "the database {database} is missing, but herdbot has run on it before ({lock} is "
            "beside it): put the file back or restore a backup (README: The database), or "
            "start a new, empty database with `herdbot run --new-database`."),
            database=database, lock=lock_path(database).name))
        self.database = database


def lock_path(database: str | Path) -> Path:
    """The lock file of ``database``: its resolved path (symbolic links followed) with
    ``.lock`` appended."""
    return Path(f"{Path(database).resolve()}.lock")


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
        #: whether the lock file was there before :meth:`acquire` (herdbot ran here before)
        self.existed = False

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def acquire(self) -> WriterLock:
        """Take the lock without waiting; returns ``self``."""
        if self._fd is not None:
            return self
        if Path(self.database).is_dir():
            raise StoreUnavailable(self.database, IS_A_FOLDER)
        self.existed = self.path.exists()
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

    def check_not_lost(self) -> None:
        """Once acquired: raise :class:`DatabaseMissing` when the database does not exist
        but its lock file was there before (herdbot ran on it); a path never used, or an
        existing file, passes."""
        if self.existed and not Path(self.database).exists():
            raise DatabaseMissing(self.database)

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
