"""The store: games, seats, the action log, timers, stats, settings. With ``bot/store/db.py``
the only code that writes SQL.

Two backends (``bot/store/db.py``): a SQLite file (the default; every write transaction
behind one asyncio lock, one process per file) or a PostgreSQL URL (a pool; several
processes may share the database). Every write is one transaction, so nothing is ever
half-written: :meth:`Store.commit_action` writes the new state and its action row together,
under a row lock on the game in PostgreSQL plus the version check. A committed change to
a game's play is noted for the request that made it (``bot.store.tracking``).
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from bot.store.db import (
    APPLIED,
    UNKNOWN,
    Backend,
    Conn,
    Op,
    PgBackend,
    Refused,
    Row,
    SqliteBackend,
)
from bot.store.errors import (  # noqa: F401 - re-exported: bot.store.store was their home
    PostgresUnavailable,
    SchemaTooNew,
    StoreDown,
    StoreError,
    StoreUnavailable,
    is_postgres_url,
    unavailable_cause,
)
from bot.store.migrations import MIGRATIONS, SCHEMA_VERSION, statements
from bot.store.tracking import tracking, wrote


class LobbyLimit(Exception):
    """Raised by :meth:`Store.create_game` when the host already has ``open`` open lobbies
    in the server (``open`` >= the ``max_open`` asked for); nothing was created."""

    def __init__(self, open_lobbies: int) -> None:
        super().__init__(f"{open_lobbies} open lobbies")
        self.open = open_lobbies


class StaleVersion(Exception):
    """The game's stored version is not the one the caller expected (an old button)."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, stored {actual}")
        self.expected = expected
        self.actual = actual


class UnreadableRow(ValueError):
    """A stored row of game ``game_id`` (the game itself or one of its seats) that does not
    validate: hand-edited, written by a newer herdbot, or missing a field. ``reason`` is a
    one-line summary of the validation error (field paths and messages, no values)."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id}: {reason}")
        self.game_id = game_id
        self.reason = reason


def describe_error(exc: Exception, limit: int = 3) -> str:
    """One line naming what failed in ``exc``: for a pydantic ``ValidationError`` the first
    ``limit`` errors as ``path: message`` (never the stored values), else ``Type: text``."""
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False, include_input=False)
        parts = [f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
                 for e in errors[:limit]]
        more = f" (+{len(errors) - limit} more)" if len(errors) > limit else ""
        return f"{exc.error_count()} validation error(s): " + "; ".join(parts) + more
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class GameHeader(BaseModel):
    """The few columns of a game row that ending and archiving it need, read without
    parsing its options, state or seats (for a game whose row does not validate).
    A column that is not of its type reads as ``None``."""

    id: int
    kind: str | None
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    table_message_id: int | None
    host_id: int | None
    status: str | None


class GameRecord(BaseModel):
    """One row of ``games``: a lobby or a game. ``state`` is the engine state JSON."""

    id: int
    kind: str
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    lobby_message_id: int | None
    table_message_id: int | None
    host_id: int
    status: str
    options: dict[str, Any]
    seed: int
    state: str | None
    version: int
    created_at: float
    updated_at: float
    #: The decision whose members were last pinged (migration 5; the publisher pings once
    #: per decision).
    pinged_key: str | None = None
    #: The state version the game's thread shows (its table, or what the cog posts instead;
    #: ``None``: nothing posted yet). Behind ``version`` after a crash or a refused post.
    table_version: int | None = None


class SeatRecord(BaseModel):
    """One row of ``seats``: a seat id, its Discord member (``None`` for an AI) and flags."""

    game_id: int
    seat: str
    position: int
    user_id: int | None
    name: str
    is_ai: bool
    missed_turns: int = 0
    ai_takeover: bool = False
    #: What the seat's member was last sent by DM about their hand (a game's own key).
    dm_hand: str | None = None
    #: How strongly an AI seat plays (migration 8; a ``bot.ai.levels.Level`` value). A
    #: member's seat keeps ``"normal"``: a seat the AI takes over plays at Normal.
    ai_level: str = "normal"


class ActionRecord(BaseModel):
    """One row of the append-only action log: the action that produced ``version``."""

    game_id: int
    version: int
    seat: str
    action: dict[str, Any]
    events: list[dict[str, Any]]
    created_at: float


class TimerRecord(BaseModel):
    """A stored timer: at ``due_at`` (unix seconds) fire ``kind`` for the game."""

    id: int
    game_id: int
    kind: str
    key: str
    due_at: float
    payload: dict[str, Any]


class GameBundle(NamedTuple):
    """A game as one read gives it (:meth:`Store.load_game`)."""

    record: GameRecord
    seats: list[SeatRecord]
    #: kind -> the game's timer of that kind
    timers: dict[str, TimerRecord]


#: A timer to write: ``(game_id, kind, key, due_at, payload)``.
TimerRow = tuple[int, str, str, float, dict[str, Any]]


class GuildSettings(BaseModel):
    """Per-server settings; ``None`` fields fall back to the bot's config defaults."""

    guild_id: int
    turn_timer: str | None = None
    dm_notifications: bool | None = None
    game_channel_id: int | None = None
    max_open_lobbies: int | None = None
    end_idle_games: bool | None = None


class StatRecord(BaseModel):
    """Per-server, per-member, per-game statistics."""

    guild_id: int
    user_id: int
    kind: str
    played: int
    won: int
    best_score: int | None


_GAME_COLS = (
    "id, kind, guild_id, channel_id, thread_id, lobby_message_id, table_message_id, host_id, "
    "status, options, seed, state, version, created_at, updated_at"
)
#: Game columns added by later migrations (5, 6), read when the database has them
#: (``GameRecord`` defaults them when absent).
_LATER_GAME_COLS = ("pinged_key", "table_version")


#: Game columns whose change is a change of play (:meth:`Store.update_game` notes the game
#: for ``bot.store.tracking``); the others (message ids, pings, the shown version) are
#: bookkeeping of what is shown.
_PLAY_FIELDS = frozenset({"status", "options", "host_id"})

#: The timers whose deadlines a table shows (:meth:`Store.game_and_deadlines`).
_TABLE_TIMERS = ("rules", "turn")


def _game(row: Row | dict[str, Any]) -> GameRecord:
    """Parse a games row. Raises :class:`UnreadableRow` when it does not validate."""
    data = dict(row)
    try:
        data["options"] = json.loads(data["options"] or "{}")
        return GameRecord.model_validate(data)
    except (ValueError, TypeError) as exc:
        raise UnreadableRow(_int_or(data.get("id"), -1), "game row: " + describe_error(exc)) from exc


def _seat(row: Row) -> SeatRecord:
    """Parse a seats row. Raises :class:`UnreadableRow` when it does not validate."""
    data = dict(row)
    try:
        return SeatRecord.model_validate(data)
    except (ValueError, TypeError) as exc:
        raise UnreadableRow(_int_or(data.get("game_id"), -1),
                            f"seat {data.get('seat')!r}: " + describe_error(exc)) from exc


def _int_or(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _readable(rows: list[Row], unreadable: dict[int, str]) -> list[GameRecord]:
    """The rows that parse; the others go to ``unreadable`` (game id -> reason)."""
    out = []
    for row in rows:
        try:
            out.append(_game(row))
        except UnreadableRow as exc:
            unreadable[exc.game_id] = exc.reason
    return out


class Store:
    """Async repository over one database: a SQLite file or a PostgreSQL URL.

    Use :meth:`open` (which migrates) and :meth:`close`. A path may be ``":memory:"``.
    """

    #: Seconds a claimed timer stays with the process that claimed it (PostgreSQL); after
    #: that another process may fire it (the claimer died while firing it).
    TIMER_LEASE_S = 60.0

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

    # -- lifecycle ---------------------------------------------------------------------

    @classmethod
    async def open(cls, target: str | Path, *, migrate: bool = True,
                   clock: Any = time.time) -> Store:
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

    # -- games -------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        kind: str,
        guild_id: int | None,
        channel_id: int | None,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        seed: int,
        max_open: int | None = None,
    ) -> GameRecord:
        """Create a lobby with the host in seat ``s0``; return its record.

        With ``max_open`` (and a ``guild_id``), raises :class:`LobbyLimit` instead when
        the host already hosts that many open lobbies (status ``lobby``) in the server;
        the count and the insert are one transaction (serialised per host and server in
        PostgreSQL), so two requests cannot both pass.
        """
        now = self._clock()
        changed: set[int] = set()
        async with self._tx(changed=changed) as db:
            if max_open is not None and guild_id is not None:
                await db.serialize(f"lobbies:{guild_id}:{host_id}")
                row = await db.fetchrow(
                    "SELECT COUNT(*) FROM games WHERE host_id=? AND guild_id=? AND status='lobby'",
                    (host_id, guild_id),
                )
                count = int(row[0]) if row else 0
                if count >= max_open:
                    raise LobbyLimit(count)
            game_id = await db.insert_id(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, seed,"
                " version, created_at, updated_at) VALUES (?,?,?,?,'lobby',?,?,0,?,?)",
                (kind, guild_id, channel_id, host_id, json.dumps(options), seed, now, now),
            )
            await db.execute(
                "INSERT INTO seats (game_id, seat, position, user_id, name, is_ai)"
                " VALUES (?, 's0', 0, ?, ?, 0)",
                (game_id, host_id, host_name),
            )
            changed.add(game_id)
        record = await self.get_game(game_id)
        assert record is not None
        return record

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with ``game_id`` or ``None``. Raises :class:`UnreadableRow` when its
        row does not validate (as do :meth:`game_by_thread` and :meth:`seats`)."""
        row = await self._one(f"SELECT {self._game_cols} FROM games WHERE id=?", (game_id,))
        return _game(row) if row else None

    async def load_game(self, game_id: int) -> GameBundle | None:
        """Game ``game_id`` with its seats (in turn order) and its timers (kind -> timer),
        in one query; ``None`` when there is no such game. Raises :class:`UnreadableRow`
        when the game row or a seat does not validate; a timer that does not validate is
        left out and noted in :attr:`unreadable_timers`."""
        reader = self._backend.reader
        row = await self._one(
            f"SELECT {self._game_cols},"
            f" {reader.json_rows('seats', 'game_id=games.id', 'position')} AS seats_json,"
            f" {reader.json_rows('timers', 'game_id=games.id', 'id')} AS timers_json"
            " FROM games WHERE id=?", (game_id,))
        if row is None:
            return None
        data = dict(row)
        seats_json, timers_json = data.pop("seats_json"), data.pop("timers_json")
        record = _game(data)
        seats = [_seat(r) for r in json.loads(seats_json or "[]")]
        timers = {t.kind: t for t in self._timers_of(json.loads(timers_json or "[]"))}
        return GameBundle(record, seats, timers)

    async def game_and_deadlines(self, game_id: int) -> tuple[GameRecord | None, dict[str, float]]:
        """The game with ``game_id`` (as :meth:`get_game`, ``None`` when there is none) and
        when its ``rules`` and ``turn`` timers are due (kind -> Unix seconds; a kind with no
        timer is absent), in one round trip: what a posted table needs."""
        due = ", ".join(f"(SELECT due_at FROM timers WHERE timers.game_id=games.id "
                        f"AND timers.kind='{kind}') AS {kind}_due" for kind in _TABLE_TIMERS)
        row = await self._one(f"SELECT {self._game_cols}, {due} FROM games WHERE id=?",
                              (game_id,))
        if row is None:
            return None, {}
        data = dict(row)
        deadlines = {kind: float(at) for kind in _TABLE_TIMERS
                     if (at := data.pop(f"{kind}_due", None)) is not None}
        return _game(data), deadlines

    async def game_by_thread(self, thread_id: int) -> GameRecord | None:
        """The most recent game played in ``thread_id`` or ``None``."""
        row = await self._one(
            f"SELECT {self._game_cols} FROM games WHERE thread_id=? ORDER BY id DESC LIMIT 1",
            (thread_id,),
        )
        return _game(row) if row else None

    async def game_header(self, game_id: int) -> GameHeader | None:
        """The columns of game ``game_id`` needed to end and archive it, read leniently (no
        JSON parsed; a value of the wrong type reads as ``None``), or ``None`` if no row."""
        row = await self._one(
            "SELECT id, kind, guild_id, channel_id, thread_id, table_message_id, host_id, status"
            " FROM games WHERE id=?", (game_id,))
        if row is None:
            return None
        data = dict(row)
        text = {k: data[k] if isinstance(data[k], str) else None for k in ("kind", "status")}
        ints = {k: _int_or(data[k], 0) or None for k in (
            "guild_id", "channel_id", "thread_id", "table_message_id", "host_id")}
        return GameHeader.model_validate({"id": game_id, **text, **ints})

    async def game_id_by_thread(self, thread_id: int) -> int | None:
        """The id of the most recent game played in ``thread_id`` (no row parsed)."""
        row = await self._one(
            "SELECT id FROM games WHERE thread_id=? ORDER BY id DESC LIMIT 1", (thread_id,))
        return int(row[0]) if row else None

    async def games_with_status(self, *statuses: str) -> list[GameRecord]:
        """Every game whose status is one of ``statuses``; rows that do not validate are
        left out and noted in :attr:`unreadable`."""
        marks = ",".join("?" * len(statuses))
        rows = await self._all(
            f"SELECT {self._game_cols} FROM games WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return _readable(rows, self.unreadable)

    async def finished_games_behind(self) -> list[GameRecord]:
        """Finished games whose posted table shows an older version than the stored one
        (or none was posted); rows that do not validate are noted in :attr:`unreadable`."""
        rows = await self._all(
            f"SELECT {self._game_cols} FROM games WHERE status='finished'"
            " AND (table_version IS NULL OR table_version < version) ORDER BY id")
        return _readable(rows, self.unreadable)

    async def active_games_of(self, user_id: int, guild_id: int | None = None) -> list[GameRecord]:
        """Lobbies and active games where ``user_id`` holds a seat (newest first); rows that
        do not validate are left out and noted in :attr:`unreadable`."""
        where, args = "", [user_id]
        if guild_id is not None:
            where, args = " AND g.guild_id=?", [user_id, guild_id]
        rows = await self._all(
            f"SELECT {', '.join('g.' + c.strip() for c in self._game_cols.split(','))} FROM games g"
            " JOIN seats s ON s.game_id=g.id WHERE s.user_id=? AND g.status IN ('lobby','active')"
            f"{where} ORDER BY g.id DESC",
            args,
        )
        return _readable(rows, self.unreadable)

    async def update_game(self, game_id: int, *, when_status: str | None = None,
                          **fields: Any) -> bool:
        """Set columns of a game row (message ids, thread id, status, options). With
        ``when_status`` only while the game's status is that one (checked in the same
        statement, so a change another process made first wins). Returns whether the row
        was written."""
        allowed = {
            "thread_id", "lobby_message_id", "table_message_id", "status", "options", "host_id",
            "pinged_key", "table_version",
        }
        unknown = set(fields) - allowed
        if unknown:
            raise ValueError(f"cannot update {sorted(unknown)}")
        if "options" in fields:
            fields["options"] = json.dumps(fields["options"])
        cols = ", ".join(f"{k}=?" for k in fields)
        where, extra = ("", ()) if when_status is None else (" AND status=?", (when_status,))
        changed: set[int] = set()
        if set(fields) & _PLAY_FIELDS:
            # noted before the statement: a COMMIT sent with it may raise once applied
            changed.add(game_id)
        async with self._tx(changed=changed) as db:
            [count] = await db.batch([Op(
                f"UPDATE games SET {cols}, updated_at=? WHERE id=?{where}",
                (*fields.values(), self._clock(), game_id, *extra))], last=True)
            if not count:
                changed.discard(game_id)
        return bool(count)

    @asynccontextmanager
    async def catching_up(self, game_id: int) -> AsyncIterator[None]:
        """Hold the catch-up of game ``game_id`` (re-showing a move its thread missed) while
        the body runs. PostgreSQL: a transaction-scoped advisory lock on a pooled
        connection, so two processes never post the same missed table at once (the second
        waits, then finds it shown). SQLite serves one process: nothing to hold. Raises
        :class:`StoreDown` when the lock cannot be taken."""
        if self.dialect != "postgres":
            yield
            return
        async with self._tx() as db:
            await db.serialize(f"herdbot-catch-up:{game_id}")
            yield

    async def mark_shown(self, game_id: int, version: int) -> None:
        """Record that the game's thread shows state ``version`` (its table, or what the
        game's cog posts instead); ``table_version`` only ever grows."""
        async with self._tx() as db:
            await db.batch([Op("UPDATE games SET table_version=? WHERE id=?"
                               " AND (table_version IS NULL OR table_version < ?)",
                               (version, game_id, version))], last=True)

    async def start_game(self, game_id: int, *, state: str, version: int) -> None:
        """Turn a lobby into an active game with its first state (version ``version``).
        Raises :class:`StaleVersion` if the lobby is no longer a lobby."""
        async with self._tx(game_id) as db:
            count = await db.execute(
                "UPDATE games SET status='active', state=?, version=?, updated_at=?"
                " WHERE id=? AND status='lobby'",
                (state, version, self._clock(), game_id),
            )
            if count != 1:
                raise StaleVersion(0, -1)

    async def reset_to_lobby(self, game_id: int) -> bool:
        """Undo a start whose table could not be shown: the game becomes a lobby again (no
        state, version 0, no table message or ping, its action log emptied; seats, options and
        ``thread_id`` kept). Returns False when the game was not active (nothing done)."""
        changed: set[int] = set()
        async with self._tx(changed=changed) as db:
            count = await db.execute(
                "UPDATE games SET status='lobby', state=NULL, version=0, table_message_id=NULL,"
                " pinged_key=NULL, table_version=NULL, updated_at=? WHERE id=? AND status='active'",
                (self._clock(), game_id),
            )
            if count != 1:
                return False
            await db.execute("DELETE FROM actions WHERE game_id=?", (game_id,))
            changed.add(game_id)
        return True

    async def commit_action(
        self,
        game_id: int,
        *,
        expected_version: int,
        state: str,
        version: int,
        seat: str,
        action: dict[str, Any],
        events: list[dict[str, Any]],
        status: str | None = None,
        result: tuple[int, str, list[tuple[int, bool, int]]] | None = None,
        missed_turn: tuple[str, int] | None = None,
    ) -> int | None:
        """Write the new state and its action row in ONE transaction; with ``result``
        (``(guild_id, kind, rows)`` as :meth:`record_result` takes them: the game's final
        move) the stats too, in the same transaction. With ``missed_turn`` (``(seat,
        limit)``: the AI made this move because the seat's time ran out) the seat's missed
        turns go up by one in the same transaction too (see :meth:`_add_missed_turn`), and
        the new count is returned (else ``None``).

        The game's row is read with a row lock (PostgreSQL ``SELECT ... FOR UPDATE``; the
        SQLite transaction holds the file), so moves on one game from any process apply
        one at a time. Raises :class:`StaleVersion` when the stored version is not
        ``expected_version`` or the game is not active (nothing is written then).
        """
        now = self._clock()
        async with self._tx(game_id) as db:
            row = await db.fetchrow(
                "SELECT version, status FROM games WHERE id=?" + db.for_update, (game_id,))
            if row is None or row["version"] != expected_version or row["status"] != "active":
                raise StaleVersion(expected_version, int(row["version"]) if row else -1)
            await db.execute(
                "UPDATE games SET state=?, version=?, updated_at=?, status=COALESCE(?, status)"
                " WHERE id=?",
                (state, version, now, status, game_id),
            )
            await db.execute(
                "INSERT INTO actions (game_id, version, seat, action, events, created_at)"
                " VALUES (?,?,?,?,?,?)",
                (game_id, version, seat, json.dumps(action), json.dumps(events), now),
            )
            if result is not None:
                await db.execute("UPDATE games SET result_recorded=1 WHERE id=?", (game_id,))
                await self._add_results(db, *result)
            if missed_turn is not None:
                return await self._add_missed_turn(db, game_id, *missed_turn)
        return None

    async def commit_moves(
        self,
        game_id: int,
        *,
        expected_version: int | None,
        state: str | None = None,
        moves: list[tuple[int, str, dict[str, Any], list[dict[str, Any]]]] = (),  # type: ignore[assignment]
        status: str | None = None,
        result: tuple[int, str, list[tuple[int, bool, int]]] | None = None,
        missed_turns: tuple[list[str], int] | None = None,
        seats: dict[str, dict[str, Any]] | None = None,
        timers: list[TimerRow] = (),  # type: ignore[assignment]
        drop_timers: Iterable[str] = (),
    ) -> tuple[float, dict[str, int]]:
        """Write one turn of a game in ONE transaction: the new ``state`` and its ``moves``
        (``(version, seat, action, events)`` rows of the action log, in order; the state's
        version is the last one), with ``result`` (as :meth:`record_result` takes it: the
        game's final move) the stats, with ``missed_turns`` (``(seats, limit)``) one more
        missed turn for each of those seats (:meth:`_add_missed_turn`), ``seats`` (seat
        -> columns, as :meth:`set_seat` takes them) the seats' flags, ``timers`` written
        (replacing the game's timer of each kind) and the timers of kinds ``drop_timers``
        deleted (a kind also written is replaced in place). PostgreSQL: one statement
        (:func:`_pg_commit_op`, one round trip) unless it would change a row twice.

        With ``moves`` the game's row is updated only if its stored version is
        ``expected_version`` and it is active (the UPDATE holds the row lock in PostgreSQL;
        the SQLite transaction holds the file), so moves on one game from any process apply
        one at a time; otherwise :class:`StaleVersion` is raised and nothing is written.
        Returns the ``updated_at`` written and each seat's new missed-turn count."""
        now = self._clock()
        moves, timers = list(moves), list(timers)
        # a kind written is replaced in place, not deleted first
        drop = sorted(set(drop_timers) - {t[1] for t in timers if t[0] == game_id})
        play = bool(moves or missed_turns or (seats and any(set(f) - {"dm_hand"}
                                                             for f in seats.values())))
        args = _MoveArgs(game_id, expected_version, state, moves, status, result,
                         missed_turns, seats or {}, timers, drop, now)
        single = self.dialect == "postgres" and _one_statement(args)
        counted: list[tuple[str, int]] = []  # seat, index of its missed-turn count's read
        ops = [_pg_commit_op(args)] if single else self._commit_ops(args, counted)
        check = None
        if single and moves:
            version, seat, action, _ = moves[-1]
            check = Op("SELECT EXISTS (SELECT 1 FROM actions WHERE game_id=? AND version=?"
                       " AND seat=? AND action=? AND created_at=?)",
                       (game_id, version, seat, json.dumps(action), now))
        try:
            async with self._tx(*([game_id] if play else [])) as db:
                out = await db.batch(ops, last=True, check=check)
                if single and moves and not out[0][0]["applied"]:
                    raise Refused(0, 0)
        except Refused as exc:  # the version check: another move came first
            row = await self._one("SELECT version FROM games WHERE id=?", (game_id,))
            raise StaleVersion(expected_version or 0, int(row[0]) if row else -1) from exc
        if single:
            row = out[0][0]
            counts = dict(zip(row["missed_seats"], row["missed_counts"], strict=True))
        else:
            counts = {seat: int(out[i][0][0]) if out[i] else 0 for seat, i in counted}
        return now, {seat: counts.get(seat, 0) for seat in (missed_turns or ([], 0))[0]}

    def _commit_ops(self, a: _MoveArgs, counted: list[tuple[str, int]]) -> list[Op]:
        """:meth:`commit_moves` as statements run one after the other in a transaction;
        ``counted`` gets each missed-turn seat and the index of its count's read."""
        ops: list[Op] = []
        if a.moves:
            ops += [Op("UPDATE games SET state=?, version=?, updated_at=?,"
                       " status=COALESCE(?, status) WHERE id=? AND version=? AND status='active'",
                       (a.state, a.moves[-1][0], a.now, a.status, a.game_id, a.expected),
                       expect=1),
                    Op("INSERT INTO actions (game_id, version, seat, action, events, created_at)"
                       " VALUES (?,?,?,?,?,?)",
                       rows=[(a.game_id, version, seat, json.dumps(action), json.dumps(events),
                              a.now) for version, seat, action, events in a.moves])]
        elif a.missed:
            ops.append(Op("SELECT id FROM games WHERE id=?" + self._backend.reader.for_update,
                          (a.game_id,), fetch=True))
        if a.result is not None:
            guild_id, kind, rows = a.result
            ops += [Op("UPDATE games SET result_recorded=1 WHERE id=?", (a.game_id,)),
                    Op(_ADD_RESULT, rows=[(guild_id, user_id, kind, int(won), score)
                                          for user_id, won, score in rows])]
        for seat, fields in a.seats.items():
            cols = ", ".join(f"{k}=?" for k in fields)
            ops.append(Op(f"UPDATE seats SET {cols} WHERE game_id=? AND seat=?",
                          (*_flag_values(fields), a.game_id, seat)))
        for seat in (a.missed or ([], 0))[0]:
            ops += _missed_turn_ops(a.game_id, seat, a.missed[1])  # type: ignore[index]
            counted.append((seat, len(ops) - 1))
        if a.drop:
            ops.append(Op(
                f"DELETE FROM timers WHERE game_id=? AND kind IN ({','.join('?' * len(a.drop))})",
                (a.game_id, *a.drop)))
        if a.timers:
            ops.append(Op(_UPSERT_TIMER, rows=[
                (g, kind, key, float(due), json.dumps(payload))
                for g, kind, key, due, payload in a.timers]))
        return ops

    async def miss_turn(self, game_id: int, seat: str, limit: int) -> int:
        """Count one missed turn for ``seat`` when no move went with it (the AI had none to
        make), under the game's row lock: see :meth:`_add_missed_turn`. Returns the new
        count (0 when the seat does not exist)."""
        async with self._tx(game_id) as db:
            await db.fetchrow("SELECT id FROM games WHERE id=?" + db.for_update, (game_id,))
            return await self._add_missed_turn(db, game_id, seat, limit)

    @staticmethod
    async def _add_missed_turn(db: Conn, game_id: int, seat: str, limit: int) -> int:
        """Inside a transaction that holds the game's row: ``seat``'s missed turns go up by
        one from the stored count (never from a copy read earlier, which another process
        may have changed since: an "I'm back" there stays), and the AI takes the seat over
        once the count reaches ``limit``. Returns the new count (0: no such seat)."""
        rows = (await db.batch(_missed_turn_ops(game_id, seat, limit)))[-1]
        return int(rows[0][0]) if rows else 0

    async def actions(self, game_id: int) -> list[ActionRecord]:
        """The action log of a game in order."""
        rows = await self._all(
            "SELECT game_id, version, seat, action, events, created_at FROM actions"
            " WHERE game_id=? ORDER BY version",
            (game_id,),
        )
        return [
            ActionRecord(
                game_id=r["game_id"],
                version=r["version"],
                seat=r["seat"],
                action=json.loads(r["action"]),
                events=json.loads(r["events"]),
                created_at=r["created_at"],
            )
            for r in rows
        ]

    async def count_games(self) -> dict[str, int]:
        """Number of games per status."""
        rows = await self._all("SELECT status, COUNT(*) FROM games GROUP BY status")
        return {r[0]: r[1] for r in rows}

    # -- seats -------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRecord]:
        """Seats of a game in turn order."""
        rows = await self._all(
            "SELECT * FROM seats WHERE game_id=? ORDER BY position", (game_id,)
        )
        return [_seat(r) for r in rows]

    async def add_seat(
        self, game_id: int, *, user_id: int | None, name: str, is_ai: bool, max_seats: int,
        ai_level: str = "normal",
    ) -> SeatRecord | None:
        """Add a seat to a lobby (next free ``sN`` id and position; ``ai_level``: an AI
        seat's level). Returns ``None`` when the lobby is full, not a lobby any more, or
        ``user_id`` already sits there. The game's row is locked while the seats are
        counted."""
        changed: set[int] = set()
        async with self._tx(changed=changed) as db:
            game = await db.fetchrow(
                "SELECT status FROM games WHERE id=?" + db.for_update, (game_id,))
            if game is None or game[0] != "lobby":
                return None
            rows = await db.fetch(
                "SELECT seat, position, user_id FROM seats WHERE game_id=?", (game_id,)
            )
            if len(rows) >= max_seats:
                return None
            if user_id is not None and any(r["user_id"] == user_id for r in rows):
                return None
            used = {r["seat"] for r in rows}
            seat = next(f"s{i}" for i in range(len(rows) + 1) if f"s{i}" not in used)
            position = max((r["position"] for r in rows), default=-1) + 1
            await db.execute(
                "INSERT INTO seats (game_id, seat, position, user_id, name, is_ai, ai_level)"
                " VALUES (?,?,?,?,?,?,?)",
                (game_id, seat, position, user_id, name, int(is_ai), ai_level),
            )
            await db.execute("UPDATE games SET updated_at=? WHERE id=?", (self._clock(), game_id))
            changed.add(game_id)
        return SeatRecord(
            game_id=game_id, seat=seat, position=position, user_id=user_id, name=name, is_ai=is_ai,
            ai_level=ai_level,
        )

    async def remove_seat(self, game_id: int, seat: str) -> bool:
        """Remove a seat from a lobby; True if one was removed."""
        changed: set[int] = set()
        async with self._tx(changed=changed) as db:
            count = await db.execute(
                "DELETE FROM seats WHERE game_id=? AND seat=? AND EXISTS"
                " (SELECT 1 FROM games WHERE id=? AND status='lobby')",
                (game_id, seat, game_id),
            )
            if count == 1:
                changed.add(game_id)
        return count == 1

    async def renumber_seats(self, game_id: int) -> list[SeatRecord]:
        """Give a lobby's seats the ids ``s0..sN-1`` in position order (before start)."""
        async with self._tx(game_id) as db:
            await db.fetchrow("SELECT id FROM games WHERE id=?" + db.for_update, (game_id,))
            rows = await db.fetch(
                "SELECT seat FROM seats WHERE game_id=? ORDER BY position", (game_id,))
            for i, row in enumerate(rows):
                await db.execute(
                    "UPDATE seats SET seat=?, position=? WHERE game_id=? AND seat=?",
                    (f"tmp{i}", i, game_id, row["seat"]),
                )
            for i in range(len(rows)):
                await db.execute(
                    "UPDATE seats SET seat=? WHERE game_id=? AND seat=?",
                    (f"s{i}", game_id, f"tmp{i}"),
                )
        return await self.seats(game_id)

    async def set_seat(self, game_id: int, seat: str, **fields: Any) -> None:
        """Update a seat's ``is_ai``, ``missed_turns``, ``ai_takeover``, ``user_id``, ``name``,
        ``dm_hand`` or ``ai_level``."""
        allowed = {"is_ai", "missed_turns", "ai_takeover", "user_id", "name", "dm_hand",
                   "ai_level"}
        if set(fields) - allowed:
            raise ValueError(f"cannot update {sorted(set(fields) - allowed)}")
        cols = ", ".join(f"{k}=?" for k in fields)
        # the hand a DM showed is bookkeeping of what is shown, not play
        async with self._tx(*([game_id] if set(fields) - {"dm_hand"} else [])) as db:
            await db.batch([Op(
                f"UPDATE seats SET {cols} WHERE game_id=? AND seat=?",
                (*(int(v) if isinstance(v, bool) else v for v in fields.values()), game_id,
                 seat))], last=True)

    # -- timers ------------------------------------------------------------------------

    async def upsert_timer(
        self, game_id: int, kind: str, key: str, due_at: float, payload: dict[str, Any]
    ) -> TimerRecord:
        """Create or replace the game's timer of ``kind``."""
        await self.upsert_timers([(game_id, kind, key, due_at, payload)])
        row = await self._one(
            "SELECT * FROM timers WHERE game_id=? AND kind=?", (game_id, kind)
        )
        assert row is not None
        return _timer(row)  # just written by json.dumps: it parses

    async def upsert_timers(
        self, timers: list[tuple[int, str, str, float, dict[str, Any]]]
    ) -> None:
        """Create or replace several ``(game_id, kind, key, due_at, payload)`` timers in
        one transaction (a turn timer and its reminder go together or not at all). A
        replaced timer is unclaimed (any lease dropped)."""
        async with self._tx() as db:
            for game_id, kind, key, due_at, payload in timers:
                await db.execute(_UPSERT_TIMER,
                                 (game_id, kind, key, float(due_at), json.dumps(payload)))

    async def delete_timer(self, game_id: int, kind: str | None = None) -> int:
        """Delete the game's timer of ``kind`` (every timer of the game when ``None``);
        return how many rows went. One statement, so no explicit transaction is needed."""
        if kind is None:
            return await self._backend.write("DELETE FROM timers WHERE game_id=?", (game_id,))
        return await self._backend.write(
            "DELETE FROM timers WHERE game_id=? AND kind=?", (game_id, kind))

    async def delete_timer_if_unchanged(self, timer: TimerRecord) -> bool:
        """Delete ``timer`` unless it was replaced meanwhile (other key or due time)."""
        async with self._tx() as db:
            count = await db.execute(
                "DELETE FROM timers WHERE id=? AND key=? AND due_at=?",
                (timer.id, timer.key, float(timer.due_at)),
            )
            return count == 1

    async def due_timers(self, now: float) -> list[TimerRecord]:
        """Timers due at ``now`` (unix seconds) or earlier, earliest first.

        PostgreSQL: they are also *claimed* for this process in one statement (``FOR
        UPDATE SKIP LOCKED``): ``claimed_by`` is :attr:`claimant` and ``lease_until`` is
        ``now +`` :attr:`TIMER_LEASE_S`. A timer another process holds a live lease on is
        left out, so exactly one process fires it; after the lease (its process died) any
        process may claim it. SQLite has one writer process and ignores leases.
        """
        if self.dialect != "postgres":
            rows = await self._all(
                "SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id", (float(now),))
            return self._timers_of(rows)
        rows = await self._all(
            "UPDATE timers SET claimed_by=?, lease_until=? WHERE id IN (SELECT id FROM timers"
            " WHERE due_at <= ? AND (lease_until IS NULL OR lease_until <= ? OR claimed_by=?)"
            " ORDER BY due_at, id FOR UPDATE SKIP LOCKED) RETURNING *",
            (self.claimant, float(now) + self.TIMER_LEASE_S, float(now), float(now),
             self.claimant))
        return sorted(self._timers_of(rows), key=lambda t: (t.due_at, t.id))

    async def next_due(self) -> float | None:
        """When a timer may next be fired here (unix seconds): the earliest ``due_at``, or
        for a timer another process holds a lease on, the end of that lease. ``None`` when
        there are no timers. In SQLite a ``due_at`` that is not a number is never due
        (reading the row drops it); a PostgreSQL column holds numbers only."""
        numeric = (" WHERE typeof(due_at) IN ('integer', 'real')"
                   if self.dialect == "sqlite" else "")
        row = await self._one(
            "SELECT MIN(CASE WHEN lease_until IS NOT NULL AND lease_until > due_at"
            " AND claimed_by <> ? THEN lease_until ELSE due_at END) FROM timers" + numeric,
            (self.claimant,))
        return float(row[0]) if row and row[0] is not None else None

    async def timers(self) -> list[TimerRecord]:
        """Every stored timer that validates, earliest first (see :meth:`_timers_of`)."""
        rows = await self._all("SELECT * FROM timers ORDER BY due_at, id")
        return self._timers_of(rows)

    async def timer(self, game_id: int, kind: str) -> TimerRecord | None:
        """The game's timer of ``kind``, or ``None`` when there is none or its row does not
        validate (noted in :attr:`unreadable_timers`; writing the timer again replaces it)."""
        row = await self._one(
            "SELECT * FROM timers WHERE game_id=? AND kind=?", (game_id, kind)
        )
        parsed = self._timers_of([row]) if row is not None else []
        return parsed[0] if parsed else None

    def _timers_of(self, rows: list[Row]) -> list[TimerRecord]:
        """The rows that validate as timers; the others go to :attr:`unreadable_timers`."""
        out = []
        for row in rows:
            try:
                out.append(_timer(row))
            except (ValueError, TypeError) as exc:  # bad JSON, or pydantic's ValidationError
                data = dict(row)
                game_id = _int_or(data.get("game_id"), -1)
                self.unreadable_timers[int(data["id"])] = (
                    game_id, f"{data.get('kind')!r} timer: " + describe_error(exc))
        return out

    async def delete_timer_row(self, timer_id: int) -> bool:
        """Delete the timer row ``timer_id`` if it is still unreadable (a timer written
        since over the same game and kind keeps the row id and is kept); True if deleted."""
        async with self._tx() as db:
            row = await db.fetchrow("SELECT * FROM timers WHERE id=?" + db.for_update,
                                    (timer_id,))
            if row is None:
                return False
            try:
                _timer(row)
                return False
            except (ValueError, TypeError):
                pass
            return await db.execute("DELETE FROM timers WHERE id=?", (timer_id,)) == 1

    # -- settings and preferences ------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """Stored settings for a server (all ``None`` when never set)."""
        row = await self._one("SELECT * FROM guild_settings WHERE guild_id=?", (guild_id,))
        if row is None:
            return GuildSettings(guild_id=guild_id)
        data = dict(row)
        for flag in ("dm_notifications", "end_idle_games"):
            if data[flag] is not None:
                data[flag] = bool(data[flag])
        return GuildSettings.model_validate(data)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Insert or replace a server's settings."""
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_timer, dm_notifications,"
                " game_channel_id, max_open_lobbies, end_idle_games) VALUES (?,?,?,?,?,?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_timer=excluded.turn_timer,"
                " dm_notifications=excluded.dm_notifications,"
                " game_channel_id=excluded.game_channel_id,"
                " max_open_lobbies=excluded.max_open_lobbies,"
                " end_idle_games=excluded.end_idle_games",
                (
                    settings.guild_id,
                    settings.turn_timer,
                    None if settings.dm_notifications is None else int(settings.dm_notifications),
                    settings.game_channel_id,
                    settings.max_open_lobbies,
                    None if settings.end_idle_games is None else int(settings.end_idle_games),
                ),
            )

    _PREFS = ("dm_opt_out", "dm_closed", "dm_closed_told", "turn_notices")

    async def member_prefs(self, user_id: int) -> dict[str, bool]:
        """``{"dm_opt_out", "dm_closed", "dm_closed_told", "turn_notices"}`` for a member
        (all False by default)."""
        row = await self._one("SELECT * FROM member_prefs WHERE user_id=?", (user_id,))
        if row is None:
            return dict.fromkeys(self._PREFS, False)
        return {k: bool(row[k]) for k in self._PREFS}

    #: Seconds a process keeps a member's ``turn_notices`` choice (:meth:`turn_notices`)
    #: on PostgreSQL, where another process may change it; SQLite has one process, whose
    #: own writes drop the kept value.
    TURN_NOTICES_TTL_S = 30.0

    async def turn_notices(self, user_id: int) -> bool:
        """Whether the member asked for turn notices (``/notify``), kept per process: read
        at most once per :attr:`TURN_NOTICES_TTL_S` on PostgreSQL, once on SQLite, and
        read again after this store changed the member's preferences."""
        now = time.monotonic()
        kept = self._turn_notices.get(user_id)
        if kept is not None and (kept[1] is None or now < kept[1]):
            return kept[0]
        value = (await self.member_prefs(user_id))["turn_notices"]
        if len(self._turn_notices) >= 10_000:
            self._turn_notices.clear()
        self._turn_notices[user_id] = (
            value, None if self.dialect == "sqlite" else now + self.TURN_NOTICES_TTL_S)
        return value

    async def dm_channel(self, user_id: int) -> int | None:
        """The id of the DM channel opened with ``user_id`` (``None``: not opened yet)."""
        row = await self._one("SELECT dm_channel_id FROM member_prefs WHERE user_id=?",
                              (user_id,))
        return int(row[0]) if row is not None and row[0] is not None else None

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Remember the DM channel opened with ``user_id`` (its other preferences kept)."""
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO member_prefs (user_id, dm_channel_id) VALUES (?,?)"
                " ON CONFLICT (user_id) DO UPDATE SET dm_channel_id=excluded.dm_channel_id",
                (user_id, channel_id))

    async def set_member_prefs(self, user_id: int, **flags: bool) -> None:
        """Set some of the member's DM flags (see :meth:`member_prefs`); the others keep
        their stored value (one statement, so two changes at once both stay)."""
        if set(flags) - set(self._PREFS):
            raise ValueError(f"unknown preference {sorted(set(flags) - set(self._PREFS))}")
        names = [k for k in self._PREFS if k in flags]
        cols = "".join(f", {k}" for k in names)
        marks = ",?" * len(names)
        update = (" DO UPDATE SET " + ", ".join(f"{k}=excluded.{k}" for k in names)
                  if names else " DO NOTHING")
        self._turn_notices.pop(user_id, None)
        try:
            async with self._tx() as db:
                await db.execute(
                    f"INSERT INTO member_prefs (user_id{cols}) VALUES (?{marks})"
                    f" ON CONFLICT (user_id){update}",
                    (user_id, *(int(flags[k]) for k in names)),
                )
        finally:
            self._turn_notices.pop(user_id, None)

    # -- stats -------------------------------------------------------------------------

    async def record_result(
        self, guild_id: int, kind: str, rows: list[tuple[int, bool, int]],
        *, game_id: int | None = None,
    ) -> bool:
        """Add one finished game to the stats: ``rows`` of ``(user_id, won, score)``. With
        ``game_id`` the result is recorded once per game, whatever the number of calls and
        processes (the game row is marked in the same transaction). Returns False when
        that game's result was already recorded (nothing written)."""
        changed: set[int] = set()
        async with self._tx(changed=changed) as db:
            if game_id is not None:
                count = await db.execute(
                    "UPDATE games SET result_recorded=1 WHERE id=? AND result_recorded=0",
                    (game_id,))
                if count != 1:
                    return False
                changed.add(game_id)
            await self._add_results(db, guild_id, kind, rows)
        return True

    @staticmethod
    async def _add_results(db: Conn, guild_id: int, kind: str,
                           rows: list[tuple[int, bool, int]]) -> None:
        """Inside ``db``'s transaction: add one game to each ``(user_id, won, score)``
        member's stats row (created at the first game)."""
        for user_id, won, score in rows:
            await db.execute(_ADD_RESULT, (guild_id, user_id, kind, int(won), score))

    async def stats(
        self, guild_id: int, *, kind: str | None = None, user_id: int | None = None
    ) -> list[StatRecord]:
        """Stats rows of a server, optionally of one game and/or member, best first."""
        where, args = _filters({"kind": kind, "user_id": user_id})
        rows = await self._all(
            f"SELECT * FROM stats WHERE guild_id=?{where}"
            " ORDER BY won DESC, played ASC, user_id",
            (guild_id, *args),
        )
        return [StatRecord.model_validate(dict(r)) for r in rows]

    async def forget_stats(self, user_id: int, guild_id: int | None = None) -> int:
        """Delete a member's stats (in one server, or everywhere); return rows deleted."""
        where, args = _filters({"guild_id": guild_id})
        async with self._tx() as db:
            return await db.execute(
                f"DELETE FROM stats WHERE user_id=?{where}", (user_id, *args))


#: Add one game to a member's stats row: ``(guild_id, user_id, kind, won, score)``.
_ADD_RESULT = (
    "INSERT INTO stats (guild_id, user_id, kind, played, won, best_score)"
    " VALUES (?,?,?,1,?,?) ON CONFLICT (guild_id, user_id, kind) DO UPDATE SET"
    " played=stats.played+1, won=stats.won+excluded.won,"
    " best_score=CASE WHEN stats.best_score IS NULL"
    " OR excluded.best_score > stats.best_score"
    " THEN excluded.best_score ELSE stats.best_score END")


def _missed_turn_ops(game_id: int, seat: str, limit: int) -> list[Op]:
    """:meth:`Store._add_missed_turn`'s statements; the last one reads the new count."""
    return [Op("UPDATE seats SET missed_turns=missed_turns+1, ai_takeover=CASE WHEN"
               " missed_turns+1>=? THEN 1 ELSE ai_takeover END WHERE game_id=? AND seat=?",
               (limit, game_id, seat)),
            Op("SELECT missed_turns FROM seats WHERE game_id=? AND seat=?", (game_id, seat),
               fetch=True)]


class _MoveArgs(NamedTuple):
    """The arguments of :meth:`Store.commit_moves` (``seats``: ``{}`` for none; ``drop``:
    the kinds deleted, those written left out)."""

    game_id: int
    expected: int | None
    state: str | None
    moves: list[tuple[int, str, dict[str, Any], list[dict[str, Any]]]]
    status: str | None
    result: tuple[int, str, list[tuple[int, bool, int]]] | None
    missed: tuple[list[str], int] | None
    seats: dict[str, dict[str, Any]]
    timers: list[TimerRow]
    drop: list[str]
    now: float


def _flag_values(fields: dict[str, Any]) -> list[Any]:
    """A seat's column values as stored (flags as 0/1)."""
    return [int(v) if isinstance(v, bool) else v for v in fields.values()]


def _one_statement(a: _MoveArgs) -> bool:
    """Whether :func:`_pg_commit_op` can write ``a`` in one statement: it changes no row
    twice (a statement's parts all see the rows as they were before it, so a seat both
    flagged and counted, a seat counted twice, or two timers of one kind must be written
    one after the other)."""
    missed = (a.missed or ([], 0))[0]
    kinds = [(g, kind) for g, kind, *_ in a.timers]
    return (len(set(missed)) == len(missed) and not set(missed) & set(a.seats)
            and len(set(kinds)) == len(kinds))


def _pg_commit_op(a: _MoveArgs) -> Op:
    """:meth:`Store.commit_moves` as ONE PostgreSQL statement (data-modifying ``WITH``
    parts, atomic as any statement): ``upd`` is the game's row - updated with the moves'
    state only if its version is the expected one and it is active, else read (locked
    when turns are missed) - and every other part writes only when ``upd`` has a row, so
    a stale version writes nothing. Its one row: ``applied`` (0: stale), and the
    missed-turn seats with their new counts (``missed_seats``, ``missed_counts``)."""
    args: list[Any] = []
    if a.moves:
        recorded = ", result_recorded=1" if a.result is not None else ""
        parts = [f"upd AS (UPDATE games SET state=?, version=?, updated_at=?,"
                 f" status=COALESCE(?, status){recorded} WHERE id=? AND version=?"
                 f" AND status='active' RETURNING id)",
                 "acts AS (INSERT INTO actions (game_id, version, seat, action, events,"
                 " created_at) SELECT upd.id, m.version, m.seat, m.action, m.events, ?::float8"
                 " FROM upd, unnest(?::bigint[], ?::text[], ?::text[], ?::text[])"
                 " AS m(version, seat, action, events))"]
        args += [a.state, a.moves[-1][0], a.now, a.status, a.game_id, a.expected, a.now,
                 [m[0] for m in a.moves], [m[1] for m in a.moves],
                 [json.dumps(m[2]) for m in a.moves], [json.dumps(m[3]) for m in a.moves]]
    else:
        lock = " FOR UPDATE" if a.missed else ""
        parts = [f"upd AS (SELECT id FROM games WHERE id=?{lock})"]
        args.append(a.game_id)
    if a.result is not None:
        guild_id, kind, rows = a.result
        if not a.moves:
            parts.append("rec AS (UPDATE games SET result_recorded=1 WHERE id IN"
                         " (SELECT id FROM upd))")
        parts.append(
            "res AS (INSERT INTO stats (guild_id, user_id, kind, played, won, best_score)"
            " SELECT ?::bigint, r.user_id, ?::text, count(*), sum(r.won), max(r.score)"
            " FROM upd, unnest(?::bigint[], ?::int[], ?::bigint[]) AS r(user_id, won, score)"
            " GROUP BY r.user_id ON CONFLICT (guild_id, user_id, kind) DO UPDATE SET"
            " played=stats.played+excluded.played, won=stats.won+excluded.won,"
            " best_score=CASE WHEN stats.best_score IS NULL"
            " OR excluded.best_score > stats.best_score"
            " THEN excluded.best_score ELSE stats.best_score END)")
        args += [guild_id, kind, [r[0] for r in rows], [int(r[1]) for r in rows],
                 [r[2] for r in rows]]
    for i, (seat, fields) in enumerate(a.seats.items()):
        cols = ", ".join(f"{k}=?" for k in fields)
        parts.append(f"flag{i} AS (UPDATE seats SET {cols} WHERE game_id=? AND seat=?"
                     " AND EXISTS (SELECT 1 FROM upd))")
        args += [*_flag_values(fields), a.game_id, seat]
    missed = ("ARRAY[]::text[] AS missed_seats, ARRAY[]::bigint[] AS missed_counts")
    if a.missed:
        seats, limit = a.missed
        parts.append("missed AS (UPDATE seats SET missed_turns=missed_turns+1, ai_takeover="
                     "CASE WHEN missed_turns+1>=? THEN 1 ELSE ai_takeover END WHERE game_id=?"
                     " AND seat=ANY(?::text[]) AND EXISTS (SELECT 1 FROM upd)"
                     " RETURNING seat, missed_turns)")
        args += [limit, a.game_id, list(seats)]
        missed = ("ARRAY(SELECT seat FROM missed ORDER BY seat) AS missed_seats,"
                  " ARRAY(SELECT missed_turns FROM missed ORDER BY seat) AS missed_counts")
    if a.drop:
        parts.append("gone AS (DELETE FROM timers WHERE game_id=? AND kind=ANY(?::text[])"
                     " AND EXISTS (SELECT 1 FROM upd))")
        args += [a.game_id, list(a.drop)]
    if a.timers:
        parts.append(
            "put AS (INSERT INTO timers (game_id, kind, key, due_at, payload)"
            " SELECT t.game_id, t.kind, t.key, t.due_at, t.payload FROM upd,"
            " unnest(?::bigint[], ?::text[], ?::text[], ?::float8[], ?::text[])"
            " AS t(game_id, kind, key, due_at, payload) ON CONFLICT (game_id, kind)"
            " DO UPDATE SET key=excluded.key, due_at=excluded.due_at,"
            " payload=excluded.payload, claimed_by=NULL, lease_until=NULL)")
        args += [[t[0] for t in a.timers], [t[1] for t in a.timers], [t[2] for t in a.timers],
                 [float(t[3]) for t in a.timers], [json.dumps(t[4]) for t in a.timers]]
    return Op("WITH " + ", ".join(parts) + " SELECT (SELECT count(*) FROM upd) AS applied, "
              + missed, tuple(args), fetch=True)


#: Create or replace a game's timer of a kind (a replaced timer loses its lease).
_UPSERT_TIMER = (
    "INSERT INTO timers (game_id, kind, key, due_at, payload) VALUES (?,?,?,?,?)"
    " ON CONFLICT (game_id, kind) DO UPDATE SET key=excluded.key, due_at=excluded.due_at,"
    " payload=excluded.payload, claimed_by=NULL, lease_until=NULL")


def _filters(columns: dict[str, Any]) -> tuple[str, list[Any]]:
    """``" AND col=?"`` for each column whose value is not ``None``, and those values."""
    given = {k: v for k, v in columns.items() if v is not None}
    return "".join(f" AND {k}=?" for k in given), list(given.values())

def _timer(row: Row) -> TimerRecord:
    data = dict(row)
    data["payload"] = json.loads(data["payload"] or "{}")
    return TimerRecord.model_validate(data)

