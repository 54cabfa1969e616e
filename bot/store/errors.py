"""The store's exceptions: what a caller above ``bot/store`` may catch.

:data:`STORE_FAILURES` is the tuple to catch for "the database failed" on either backend
(SQLite's own ``sqlite3.Error`` and :class:`DatabaseGone`, or :class:`StoreDown` for
PostgreSQL): the caller refuses
the request with a "try again" and nothing was half-written (every write is one
transaction).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from bot.i18n import ENGLISH, N_, LocalisedError, Sentence, sentence

#: A phrase inside a sentence: English text (the OS's or a library's words) or a
#: :data:`~bot.i18n.Sentence`.
Phrase = str | Sentence


def said(msgid: str, /, **values: object) -> Sentence:
    """``herdbot: `` and the catalogue sentence ``msgid`` in a language, filled with
    ``values`` (a callable value is a :data:`Phrase` put in the same language)."""
    say = sentence(msgid, **values)
    return lambda lang: "herdbot: " + say(lang)


#: A catalogue phrase (a part of a sentence, such as a cause) as a :data:`Phrase`.
phrase = sentence


def english(text: Phrase) -> str:
    """``text`` in English."""
    return text(ENGLISH) if callable(text) else text


class StoreError(LocalisedError):
    """The database cannot be used; ``str()`` is one line for the terminal in English,
    starting with ``herdbot:``, :meth:`text` the same in a language."""


class StoreUnavailable(StoreError):
    """The database file cannot be opened or written: ``path`` and a one-phrase ``cause``."""

    def __init__(self, path: str | Path, cause: Phrase) -> None:
        super().__init__(said(N_("cannot use the database {path}: {cause}."), path=path,
                              cause=cause))
        self.path = path
        self.cause = english(cause)


class PostgresUnavailable(StoreError):
    """The PostgreSQL server of ``HERDBOT_DATABASE`` cannot be reached or refuses the login
    at start: ``host``, ``port`` and a one-phrase ``cause``."""

    def __init__(self, host: str, port: int, cause: Phrase) -> None:
        super().__init__(said(N_("cannot use PostgreSQL at {host}:{port} (HERDBOT_DATABASE): "
                                 "{cause}."), host=host, port=port, cause=cause))
        self.host = host
        self.port = port
        self.cause = english(cause)


class StoreDown(StoreError):
    """A PostgreSQL call failed while running: a lost connection, a server shutting down or
    refusing (``lost`` is True then), or an error of the statement itself. The
    transaction was rolled back by the server; the pool reconnects by itself, so the same
    request can be tried again. ``__cause__`` is asyncpg's exception."""

    def __init__(self, error: BaseException, *, lost: bool) -> None:
        text = " ".join(str(error).split())[:200]
        super().__init__(f"herdbot: PostgreSQL {'connection lost' if lost else 'error'} "
                         f"({type(error).__name__}{': ' + text if text else ''})")
        self.lost = lost


class DatabaseGone(StoreError):
    """The SQLite file herdbot opened was deleted (``how="deleted"``) or another file put
    in its place (``"replaced"``) while it ran: a write would land in a file nobody will
    open again, so every write is refused until herdbot is restarted."""

    def __init__(self, path: str | Path, how: str) -> None:
        super().__init__(
            f"herdbot: the database file {path} was {how} while herdbot ran, so herdbot "
            "takes no more moves (they would be lost with it): stop herdbot, put the file "
            "back or restore a backup (README: The database), and start it again.")
        # (logged while the bot runs, never printed to the terminal: English)
        self.path = path
        self.how = how


class SchemaTooNew(StoreError):
    """The database's schema version (``found``) is above this herdbot's ``supported``
    schema: a newer herdbot wrote it, and this one must not touch it."""

    def __init__(self, path: str | Path, found: int, supported: int) -> None:
        super().__init__(said(N_(
            "the database {path} has schema version {found}, newer than this herdbot's "
            "{supported}: run the newer herdbot that wrote it, or restore a backup."),
            path=path, found=found, supported=supported))
        self.path = path
        self.found = found
        self.supported = supported


#: The cause of a database path that names a folder.
IS_A_FOLDER = phrase(N_("that is a folder, not a file"))

#: Catch these for "the database failed; refuse and let the player try again".
STORE_FAILURES: tuple[type[Exception], ...] = (sqlite3.Error, StoreDown, DatabaseGone)


def unavailable_cause(path: str | Path, error: BaseException) -> Phrase:
    """Why ``path`` cannot be used, in one phrase: a missing folder, a folder in its place,
    a read-only file or folder, else SQLite's (or the OS's) own message."""
    where = Path(path)
    folder = where.parent
    if not folder.is_dir():
        return phrase(N_("its folder {folder} does not exist"), folder=folder)
    if where.is_dir():
        return IS_A_FOLDER
    if where.exists() and not os.access(where, os.R_OK | os.W_OK):
        return phrase(N_("the file is read-only (herdbot must write it)"))
    if not os.access(folder, os.W_OK | os.X_OK):
        return phrase(N_("its folder {folder} is read-only (SQLite writes {name}-wal and "
                         "{name}-shm beside the file)"), folder=folder, name=where.name)
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or error.__class__.__name__

