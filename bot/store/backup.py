"""``herdbot backup``: a consistent copy of the live SQLite database.

The copy is made with SQLite's online backup API (``sqlite3.Connection.backup``, all pages
in one step, so inside one read transaction): it is the database as of one moment, even
while the bot writes. In WAL mode a reader never blocks the writer, so the bot carries on
during a backup, and the backup does not take the writer lock (see ``bot.store.lock``).
The copy is written beside the target and renamed over it only once SQLite's integrity
check passes, so a failed backup never leaves half a file under the target's name.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from bot.i18n import N_
from bot.store.errors import Phrase, StoreError, StoreUnavailable, phrase, said, unavailable_cause


def _target_error(target: Path, cause: Phrase) -> StoreError:
    return StoreError(said(N_("cannot write the backup {target}: {cause}."), target=target,
                           cause=cause))


def _make_folder(folder: Path, target: Path) -> None:
    """Create ``folder`` (and its parents) unless it is there; a one-line
    :class:`StoreError` naming ``target`` when it cannot be."""
    if folder.is_dir():
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _target_error(target, phrase(N_("cannot create its folder {folder} ({error})"),
                                           folder=folder, error=exc.strerror or exc)) from exc


@dataclass(frozen=True)
class BackupReport:
    """What ``backup`` wrote: the file, its size in bytes, its schema version and how many
    games (lobbies included) it holds."""

    path: Path
    size: int
    schema: int
    games: int


def backup_target(target: Path, now: float | None = None) -> Path:
    """``target`` itself, or inside it ``herdbot-YYYYmmdd-HHMMSS.sqlite3`` (UTC) when it
    is an existing folder."""
    if target.is_dir():
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
        return target / f"herdbot-{stamp}.sqlite3"
    return target


def backup(database: Path, target: Path, *, folder: bool = False) -> BackupReport:
    """Copy ``database`` (which must exist; it is never created) to ``target`` (a file,
    replaced if present, or a folder, see :func:`backup_target`; ``folder``: ``target``
    is a folder even if it does not exist yet). Missing folders on the way are created.

    The copy is a standalone file (rollback journal, no ``-wal`` beside it). Raises
    :class:`StoreUnavailable` naming the database and the cause, or :class:`StoreError`
    naming the target and the cause (one line each).
    """
    if not database.is_file():
        cause = phrase(N_("no such file")) if not database.exists() else unavailable_cause(
            database, OSError("not a regular file"))
        raise StoreUnavailable(database, cause)
    if folder:
        _make_folder(target, target)
    target = backup_target(target)
    _make_folder(target.parent, target)
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise _target_error(target, phrase(N_("its folder {folder} is read-only"),
                                           folder=target.parent))
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    # mode=rw: never create the database when it is missing.
    uri = f"file:{quote(str(database.resolve()))}?mode=rw"
    try:
        source = sqlite3.connect(uri, uri=True, timeout=30)
    except sqlite3.Error as exc:
        raise StoreUnavailable(database, unavailable_cause(database, exc)) from exc
    try:
        try:
            copy = sqlite3.connect(temp)
        except sqlite3.Error as exc:
            raise _target_error(target, str(exc)) from exc
        try:
            try:
                source.backup(copy)
            except sqlite3.Error as exc:
                raise StoreUnavailable(database, unavailable_cause(database, exc)) from exc
            copy.execute("PRAGMA journal_mode=DELETE")
            check = copy.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise StoreUnavailable(database, phrase(
                    N_("the copy fails SQLite's integrity check ({check})"), check=check))
            schema = int(copy.execute("PRAGMA user_version").fetchone()[0])
            has_games = copy.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name='games'").fetchone()
            games = int(copy.execute("SELECT COUNT(*) FROM games").fetchone()[0]) \
                if has_games else 0
        finally:
            copy.close()
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    return BackupReport(path=target, size=target.stat().st_size, schema=schema, games=games)
