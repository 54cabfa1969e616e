"""The store's base: one database backend, opening and migrating it, transactions (and
the games they note for ``bot.store.tracking``), reads."""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

from bot.store.db import APPLIED, UNKNOWN, Backend, Conn, Row
from bot.store.errors import SchemaTooNew
from bot.store.migrations import MIGRATIONS, SCHEMA_VERSION, statements
from bot.store.postgres import PgBackend
from bot.store.records import TimerRecord, describe_error, int_or, parse_timer
from bot.store.sqlite import SqliteBackend
from bot.store.tracking import tracking, wrote
from bot.store.url import is_postgres_url

_GAME_COLS = (
    "id, kind, guild_id, channel_id, thread_id, lobby_message_id, table_message_id, host_id, "
    "status, options, seed, state, version, created_at, updated_at"
)


#: Game columns added by later migrations (5, 6, 10), read when the database has them
#: (``GameRecord`` defaults them when absent).
_LATER_GAME_COLS = ("pinged_key", "table_version", "rematch_id", "rematch_of")


class StoreBase:
    """Async repository over one database: a SQLite file or a PostgreSQL URL.

    Use :meth:`open` (which migrates) and :meth:`close`. A path may be ``":memory:"``.
    """

    def __init__(self, backend: Backend, clock: Any = time.time) -> None:
        self._backend = backend
        self._clock = clock
        #: Games whose row a listing skipped because it does not validate (id -> reason);
        #: the runtime quarantines them (see ``GameService.quarantine``).
        self.unreadable: dict[int, str] = {}
        #: Timer rows a read skipped because they do not validate (row id -> ``(game id,
        #: one-line reason)``); the timer service drops them (``TimerService.fire_due``).
        self.unreadable_timers: dict[int, tuple[int, str]] = {}
        #: user id -> (turn notices on, when that stops serving: ``None`` never)
        self._turn_notices: dict[int, tuple[bool, float | None]] = {}
        #: This process's name in ``timers.claimed_by`` (host, process id, a random tag).
        self.claimant = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        #: The games columns read, those of the schema the database is at (see
        #: :meth:`_read_columns`).
        self._game_cols = _GAME_COLS

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgres"``."""
        return self._backend.dialect

    @property
    def name(self) -> str:
        """The database as messages name it: the file, or the URL without its password."""
        return self._backend.name

    def watch(self) -> None:
        """A periodic look at the database (SQLite: was its file deleted or replaced?);
        logs what it finds, never raises."""
        self._backend.watch()

    async def _read_columns(self) -> None:
        """Read the ``games`` columns the database has: a store left at an older schema
        (``migrate=False``, the migration tests) reads what it has, the rest defaults."""
        if self.dialect == "sqlite":
            have = {row[1] for row in await self._all("PRAGMA table_info(games)")}
        else:
            rows = await self._all(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema=current_schema() AND table_name='games'")
            have = {row[0] for row in rows}
        self._game_cols = ", ".join([_GAME_COLS, *(c for c in _LATER_GAME_COLS if c in have)])

    @classmethod
    async def open(cls, target: str | Path, *, migrate: bool = True,
                   clock: Any = time.time) -> Self:
        """Open the database ``target`` (a SQLite file, created if missing, in WAL mode with
        foreign keys; or a ``postgresql://`` URL), check that it can be written, migrate.

        Raises :class:`SchemaTooNew` when its schema version is above
        :data:`SCHEMA_VERSION` (nothing is written to it); :class:`StoreUnavailable` when
        a file cannot be opened or written; :class:`PostgresUnavailable` (naming host and
        port) when PostgreSQL cannot be reached or refuses. On every failure the
        connections are closed (and SQLite's worker thread stopped), so a failed start
        lets the process exit.
        """
        backend: Backend
        if is_postgres_url(target):
            backend = await PgBackend.open(str(target))
        else:
            backend = await SqliteBackend.open(target)
        try:
            store = cls(backend, clock)
            found = await backend.schema_version()
            if found > SCHEMA_VERSION:
                raise SchemaTooNew(backend.name, found, SCHEMA_VERSION)
            await backend.prepare()
            if migrate:
                await store.migrate()
            await store._read_columns()
            await backend.check_writable()
        except BaseException as exc:
            await backend.abort()
            error = backend.open_error(exc)
            if error is exc:
                raise
            raise error from exc
        return store

    async def close(self) -> None:
        """Close the connection(s)."""
        await self._backend.close()

    async def user_version(self) -> int:
        """The schema version: the last migration applied (SQLite's ``PRAGMA
        user_version``, PostgreSQL's ``herdbot_schema``)."""
        return await self._backend.schema_version()

    async def migrate(self, target: int = SCHEMA_VERSION) -> int:
        """Apply migrations after the current version up to ``target``; return the version.
        Each migration runs in its own transaction with its version bump; in PostgreSQL
        that transaction holds an advisory lock, so processes starting together migrate
        once."""
        while True:
            async with self._tx() as db:
                await db.serialize("herdbot-migrate")
                current = await self._backend.schema_version(db)
                if current >= target:
                    break
                number = current + 1
                for statement in statements(MIGRATIONS[number - 1].script(db.dialect)):
                    await db.execute(statement)
                await self._backend.set_schema_version(db, number)
        await self._read_columns()
        return await self.user_version()

    @asynccontextmanager
    async def _tx(self, *games: int, changed: set[int] | None = None) -> AsyncIterator[Conn]:
        """One transaction. The games whose play it changes - ``games``, and the ids the
        block adds to ``changed`` (a write known to change a game only once it ran) - are
        noted for the request tracking its writes (``bot.store.tracking``) once it commits.
        The only place that notes a game: every write path goes through here.

        When the block raises, nothing is noted (rolled back). When the COMMIT itself
        raises (``Conn.commit_outcome``), the games are noted if the database applied it
        (PostgreSQL asks the server after a connection lost during the COMMIT) or if that
        cannot be told; not if the COMMIT was refused and rolled back.

        Why an unknown outcome is noted, and what is then claimed: a request's error answer
        says "what you did was saved" only for a noted game whose stored row differs from
        the one read before the request (``HerdBot.changed_games``). Applied, the
        difference is this write, and the claim is true. Not applied, a difference can only
        be another request's write to the same game meanwhile: that wrong claim needs two
        faults at once - PostgreSQL unreachable for the question yet readable for the
        comparison a moment later, or still running the lost transaction after
        ``PgBackend.STATUS_TRIES`` questions; SQLite (one process) a COMMIT failed on a
        disk error - AND another member's change of the same game in that request's
        window. Not noting would instead tell a member whose COMMIT was applied that it
        was not done, and skip the catch-up of the table.
        """
        noted = changed if changed is not None else set()
        db: Conn | None = None
        try:
            async with self._backend.tx() as db:
                db.outcome_asked = bool(games or noted) and tracking()
                yield db
                if (games or noted) and tracking():  # (else nobody asks: no round trip)
                    await db.watch_commit()
        except BaseException:
            if db is not None and db.commit_outcome in (APPLIED, UNKNOWN):
                self._note(games, noted)
            raise
        self._note(games, noted)

    @staticmethod
    def _note(games: Iterable[int], changed: Iterable[int]) -> None:
        """:func:`bot.store.tracking.wrote` for each of ``games`` and ``changed``."""
        for game_id in (*games, *changed):
            wrote(game_id)

    async def _one(self, sql: str, args: Iterable[Any] = ()) -> Row | None:
        return await self._backend.reader.fetchrow(sql, args)

    async def _all(self, sql: str, args: Iterable[Any] = ()) -> list[Row]:
        return await self._backend.reader.fetch(sql, args)

    def _timers_of(self, rows: list[Row]) -> list[TimerRecord]:
        """The rows that validate as timers; the others go to :attr:`unreadable_timers`."""
        out = []
        for row in rows:
            try:
                out.append(parse_timer(row))
            except (ValueError, TypeError) as exc:  # bad JSON, or pydantic's ValidationError
                data = dict(row)
                game_id = int_or(data.get("game_id"), -1)
                self.unreadable_timers[int(data["id"])] = (
                    game_id, f"{data.get('kind')!r} timer: " + describe_error(exc))
        return out
