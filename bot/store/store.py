"""The SQLite store (aiosqlite, WAL, foreign keys). The only module that writes SQL.

Every write is one transaction behind a single asyncio lock, so a coroutine never sees
another's half-written change. :meth:`Store.commit_action` writes the new state and its
action row together: a crash between them cannot leave one without the other.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite
from pydantic import BaseModel, ValidationError

from bot.store.migrations import MIGRATIONS, SCHEMA_VERSION


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


class StoreError(Exception):
    """The database cannot be used; ``str()`` is one line for the terminal, starting with
    ``herdbot:``."""


class StoreUnavailable(StoreError):
    """The database file cannot be opened or written: ``path`` and a one-phrase ``cause``."""

    def __init__(self, path: str | Path, cause: str) -> None:
        super().__init__(f"herdbot: cannot use the database {path}: {cause}.")
        self.path = path
        self.cause = cause


class SchemaTooNew(StoreError):
    """The file's ``PRAGMA user_version`` (``found``) is above this herdbot's ``supported``
    schema: a newer herdbot wrote it, and this one must not touch it."""

    def __init__(self, path: str | Path, found: int, supported: int) -> None:
        super().__init__(
            f"herdbot: the database {path} has schema version {found}, newer than this "
            f"herdbot's {supported}: run the newer herdbot that wrote it, or restore a backup."
        )
        self.path = path
        self.found = found
        self.supported = supported


def unavailable_cause(path: str | Path, error: BaseException) -> str:
    """Why ``path`` cannot be used, in one phrase: a missing folder, a folder in its place,
    a read-only file or folder, else SQLite's (or the OS's) own message."""
    where = Path(path)
    folder = where.parent
    if not folder.is_dir():
        return f"its folder {folder} does not exist"
    if where.is_dir():
        return "that is a folder, not a file"
    if where.exists() and not os.access(where, os.R_OK | os.W_OK):
        return "the file is read-only (herdbot must write it)"
    if not os.access(folder, os.W_OK | os.X_OK):
        return (f"its folder {folder} is read-only (SQLite writes {where.name}-wal and "
                f"{where.name}-shm beside the file)")
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or error.__class__.__name__


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
    #: The decision whose members were last pinged (the publisher pings once per turn).
    pinged_key: str | None = None


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


class GuildSettings(BaseModel):
    """Per-server settings; ``None`` fields fall back to the bot's config defaults."""

    guild_id: int
    turn_timer: str | None = None
    dm_notifications: bool | None = None
    game_channel_id: int | None = None
    max_open_lobbies: int | None = None


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
#: Game columns added by later migrations (``GameRecord`` defaults them when absent).
_LATER_GAME_COLS = ("pinged_key",)


def _game(row: aiosqlite.Row) -> GameRecord:
    """Parse a games row. Raises :class:`UnreadableRow` when it does not validate."""
    data = dict(row)
    try:
        data["options"] = json.loads(data["options"] or "{}")
        return GameRecord.model_validate(data)
    except (ValueError, TypeError) as exc:
        raise UnreadableRow(_int_or(data.get("id"), -1), "game row: " + describe_error(exc)) from exc


def _seat(row: aiosqlite.Row) -> SeatRecord:
    """Parse a seats row. Raises :class:`UnreadableRow` when it does not validate."""
    data = dict(row)
    try:
        return SeatRecord.model_validate(data)
    except (ValueError, TypeError) as exc:
        raise UnreadableRow(_int_or(data.get("game_id"), -1),
                            f"seat {data.get('seat')!r}: " + describe_error(exc)) from exc


def _int_or(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _readable(rows: list[aiosqlite.Row], unreadable: dict[int, str]) -> list[GameRecord]:
    """The rows that parse; the others go to ``unreadable`` (game id -> reason)."""
    out = []
    for row in rows:
        try:
            out.append(_game(row))
        except UnreadableRow as exc:
            unreadable[exc.game_id] = exc.reason
    return out


class Store:
    """Async repository over one SQLite file.

    Use :meth:`open` (which migrates) and :meth:`close`. ``path`` may be ``":memory:"``.
    """

    def __init__(self, conn: aiosqlite.Connection, clock: Any = time.time) -> None:
        self._db = conn
        self._lock = asyncio.Lock()
        self._clock = clock
        #: Games whose row a listing skipped because it does not validate (id -> reason);
        #: the runtime quarantines them (see ``GameService.quarantine``).
        self.unreadable: dict[int, str] = {}
        #: The games columns read, those of the schema the file is at (see _read_columns).
        self._game_cols = _GAME_COLS

    async def _read_columns(self) -> None:
        """Read the ``games`` columns the file has: a store left at an older schema
        (``migrate=False``, the migration tests) reads what it has, the rest defaults."""
        rows = await self._all("PRAGMA table_info(games)")
        have = {row[1] for row in rows}
        self._game_cols = ", ".join([_GAME_COLS, *(c for c in _LATER_GAME_COLS if c in have)])

    # -- lifecycle ---------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path, *, migrate: bool = True, clock: Any = time.time) -> Store:
        """Open (creating) the database at ``path``, enable WAL and foreign keys, check that
        it can be written, migrate.

        Raises :class:`SchemaTooNew` when the file's ``user_version`` is above
        :data:`SCHEMA_VERSION` (nothing is written to it), :class:`StoreUnavailable` when it
        cannot be opened or written. On every failure the connection and its worker thread
        are closed, so a failed start lets the process exit.
        """
        conn = aiosqlite.connect(str(path), isolation_level=None)
        try:
            await conn
        except sqlite3.Error as exc:
            # aiosqlite queues its thread's stop without waiting for it: wait here, with the
            # loop running, or the thread answers a closed loop with a traceback.
            await asyncio.to_thread(conn._thread.join, 5)
            raise StoreUnavailable(path, unavailable_cause(path, exc)) from exc
        try:
            conn.row_factory = aiosqlite.Row
            store = cls(conn, clock)
            found = await store.user_version()
            if found > SCHEMA_VERSION:
                raise SchemaTooNew(path, found, SCHEMA_VERSION)
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            if migrate:
                await store.migrate()
            await store._read_columns()
            # A read-only file opens and reads fine; find out now, not at the first move.
            async with store._tx() as db:
                await db.execute(f"PRAGMA user_version={await store.user_version()}")
        except BaseException as exc:
            try:
                await conn.close()
            except Exception:  # noqa: S110 - the first error is the one to report
                pass
            await asyncio.to_thread(conn._thread.join, 5)  # gone before open() returns
            if isinstance(exc, sqlite3.Error):
                raise StoreUnavailable(path, unavailable_cause(path, exc)) from exc
            raise
        return store

    async def close(self) -> None:
        """Close the connection."""
        await self._db.close()

    async def user_version(self) -> int:
        """The schema version recorded in ``PRAGMA user_version``."""
        async with self._db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self, target: int = SCHEMA_VERSION) -> int:
        """Apply migrations after the current ``user_version`` up to ``target``; return it.
        Each migration runs in its own transaction with its version bump."""
        current = await self.user_version()
        for number in range(current + 1, target + 1):
            script = MIGRATIONS[number - 1]
            async with self._tx() as db:
                for statement in _split_sql(script):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version={number}")
        await self._read_columns()
        return await self.user_version()

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            else:
                await self._db.execute("COMMIT")

    async def _one(self, sql: str, args: Iterable[Any] = ()) -> aiosqlite.Row | None:
        rows = await self._db.execute_fetchall(sql, tuple(args))
        return next(iter(rows), None)

    async def _all(self, sql: str, args: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        return list(await self._db.execute_fetchall(sql, tuple(args)))

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
        the count and the insert are one transaction, so two requests cannot both pass.
        """
        now = self._clock()
        async with self._tx() as db:
            if max_open is not None and guild_id is not None:
                cur = await db.execute(
                    "SELECT COUNT(*) FROM games WHERE host_id=? AND guild_id=? AND status='lobby'",
                    (host_id, guild_id),
                )
                row = await cur.fetchone()
                count = int(row[0]) if row else 0
                if count >= max_open:
                    raise LobbyLimit(count)
            cur = await db.execute(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, seed,"
                " version, created_at, updated_at) VALUES (?,?,?,?,'lobby',?,?,0,?,?)",
                (kind, guild_id, channel_id, host_id, json.dumps(options), seed, now, now),
            )
            game_id = int(cur.lastrowid or 0)
            await db.execute(
                "INSERT INTO seats (game_id, seat, position, user_id, name, is_ai)"
                " VALUES (?, 's0', 0, ?, ?, 0)",
                (game_id, host_id, host_name),
            )
        record = await self.get_game(game_id)
        assert record is not None
        return record

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with ``game_id`` or ``None``. Raises :class:`UnreadableRow` when its
        row does not validate (as do :meth:`game_by_thread` and :meth:`seats`)."""
        row = await self._one(f"SELECT {self._game_cols} FROM games WHERE id=?", (game_id,))
        return _game(row) if row else None

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

    async def active_games_of(self, user_id: int, guild_id: int | None = None) -> list[GameRecord]:
        """Lobbies and active games where ``user_id`` holds a seat (newest first); rows that
        do not validate are left out and noted in :attr:`unreadable`."""
        rows = await self._all(
            f"SELECT {', '.join('g.' + c.strip() for c in self._game_cols.split(','))} FROM games g"
            " JOIN seats s ON s.game_id=g.id WHERE s.user_id=? AND g.status IN ('lobby','active')"
            " AND (? IS NULL OR g.guild_id=?) ORDER BY g.id DESC",
            (user_id, guild_id, guild_id),
        )
        return _readable(rows, self.unreadable)

    async def update_game(self, game_id: int, **fields: Any) -> None:
        """Set columns of a game row (message ids, thread id, status, options)."""
        allowed = {
            "thread_id", "lobby_message_id", "table_message_id", "status", "options", "host_id",
            "pinged_key",
        }
        unknown = set(fields) - allowed
        if unknown:
            raise ValueError(f"cannot update {sorted(unknown)}")
        if "options" in fields:
            fields["options"] = json.dumps(fields["options"])
        cols = ", ".join(f"{k}=?" for k in fields)
        async with self._tx() as db:
            await db.execute(
                f"UPDATE games SET {cols}, updated_at=? WHERE id=?",
                (*fields.values(), self._clock(), game_id),
            )

    async def start_game(self, game_id: int, *, state: str, version: int) -> None:
        """Turn a lobby into an active game with its first state (version ``version``).
        Raises :class:`StaleVersion` if the lobby is no longer a lobby."""
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE games SET status='active', state=?, version=?, updated_at=?"
                " WHERE id=? AND status='lobby'",
                (state, version, self._clock(), game_id),
            )
            if cur.rowcount != 1:
                raise StaleVersion(0, -1)

    async def reset_to_lobby(self, game_id: int) -> bool:
        """Undo a start whose table could not be shown: the game becomes a lobby again (no
        state, version 0, no table message or ping, its action log emptied; seats, options and
        ``thread_id`` kept). Returns False when the game was not active (nothing done)."""
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE games SET status='lobby', state=NULL, version=0, table_message_id=NULL,"
                " pinged_key=NULL, updated_at=? WHERE id=? AND status='active'",
                (self._clock(), game_id),
            )
            if cur.rowcount != 1:
                return False
            await db.execute("DELETE FROM actions WHERE game_id=?", (game_id,))
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
    ) -> None:
        """Write the new state and its action row in ONE transaction; with ``result``
        (``(guild_id, kind, rows)`` as :meth:`record_result` takes them: the game's final
        move) the stats too, in the same transaction.

        Raises :class:`StaleVersion` when the stored version is not ``expected_version``
        (nothing is written then).
        """
        now = self._clock()
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE games SET state=?, version=?, updated_at=?, status=COALESCE(?, status)"
                " WHERE id=? AND version=? AND status='active'",
                (state, version, now, status, game_id, expected_version),
            )
            if cur.rowcount != 1:
                row = await self._one("SELECT version FROM games WHERE id=?", (game_id,))
                raise StaleVersion(expected_version, int(row[0]) if row else -1)
            await db.execute(
                "INSERT INTO actions (game_id, version, seat, action, events, created_at)"
                " VALUES (?,?,?,?,?,?)",
                (game_id, version, seat, json.dumps(action), json.dumps(events), now),
            )
            if result is not None:
                await self._add_results(db, *result)

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
        self, game_id: int, *, user_id: int | None, name: str, is_ai: bool, max_seats: int
    ) -> SeatRecord | None:
        """Add a seat to a lobby (next free ``sN`` id and position). Returns ``None`` when
        the lobby is full, not a lobby any more, or ``user_id`` already sits there."""
        async with self._tx() as db:
            game = await self._one("SELECT status FROM games WHERE id=?", (game_id,))
            if game is None or game[0] != "lobby":
                return None
            rows = await self._all(
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
                "INSERT INTO seats (game_id, seat, position, user_id, name, is_ai)"
                " VALUES (?,?,?,?,?,?)",
                (game_id, seat, position, user_id, name, int(is_ai)),
            )
            await db.execute("UPDATE games SET updated_at=? WHERE id=?", (self._clock(), game_id))
        return SeatRecord(
            game_id=game_id, seat=seat, position=position, user_id=user_id, name=name, is_ai=is_ai
        )

    async def remove_seat(self, game_id: int, seat: str) -> bool:
        """Remove a seat from a lobby; True if one was removed."""
        async with self._tx() as db:
            cur = await db.execute(
                "DELETE FROM seats WHERE game_id=? AND seat=? AND EXISTS"
                " (SELECT 1 FROM games WHERE id=? AND status='lobby')",
                (game_id, seat, game_id),
            )
            return cur.rowcount == 1

    async def renumber_seats(self, game_id: int) -> list[SeatRecord]:
        """Give a lobby's seats the ids ``s0..sN-1`` in position order (before start)."""
        seats = await self.seats(game_id)
        async with self._tx() as db:
            for i, s in enumerate(seats):
                await db.execute(
                    "UPDATE seats SET seat=?, position=? WHERE game_id=? AND seat=?",
                    (f"tmp{i}", i, game_id, s.seat),
                )
            for i in range(len(seats)):
                await db.execute(
                    "UPDATE seats SET seat=? WHERE game_id=? AND seat=?",
                    (f"s{i}", game_id, f"tmp{i}"),
                )
        return await self.seats(game_id)

    async def set_seat(self, game_id: int, seat: str, **fields: Any) -> None:
        """Update a seat's ``is_ai``, ``missed_turns``, ``ai_takeover``, ``user_id``, ``name``
        or ``dm_hand``."""
        allowed = {"is_ai", "missed_turns", "ai_takeover", "user_id", "name", "dm_hand"}
        if set(fields) - allowed:
            raise ValueError(f"cannot update {sorted(set(fields) - allowed)}")
        cols = ", ".join(f"{k}=?" for k in fields)
        async with self._tx() as db:
            await db.execute(
                f"UPDATE seats SET {cols} WHERE game_id=? AND seat=?",
                (*(int(v) if isinstance(v, bool) else v for v in fields.values()), game_id, seat),
            )

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
        return _timer(row)

    async def upsert_timers(
        self, timers: list[tuple[int, str, str, float, dict[str, Any]]]
    ) -> None:
        """Create or replace several ``(game_id, kind, key, due_at, payload)`` timers in
        one transaction (a turn timer and its reminder go together or not at all)."""
        async with self._tx() as db:
            for game_id, kind, key, due_at, payload in timers:
                await db.execute(
                    "INSERT INTO timers (game_id, kind, key, due_at, payload)"
                    " VALUES (?,?,?,?,?) ON CONFLICT (game_id, kind) DO UPDATE SET"
                    " key=excluded.key, due_at=excluded.due_at, payload=excluded.payload",
                    (game_id, kind, key, due_at, json.dumps(payload)),
                )

    async def delete_timer(self, game_id: int, kind: str | None = None) -> int:
        """Delete the game's timer of ``kind`` (every timer of the game when ``None``);
        return how many rows went. One statement, so no explicit transaction is needed."""
        async with self._lock:
            if kind is None:
                cur = await self._db.execute("DELETE FROM timers WHERE game_id=?", (game_id,))
            else:
                cur = await self._db.execute(
                    "DELETE FROM timers WHERE game_id=? AND kind=?", (game_id, kind)
                )
            count = cur.rowcount
            await cur.close()
            return count

    async def delete_timer_if_unchanged(self, timer: TimerRecord) -> bool:
        """Delete ``timer`` unless it was replaced meanwhile (other key or due time)."""
        async with self._tx() as db:
            cur = await db.execute(
                "DELETE FROM timers WHERE id=? AND key=? AND due_at=?",
                (timer.id, timer.key, timer.due_at),
            )
            return cur.rowcount == 1

    async def due_timers(self, now: float) -> list[TimerRecord]:
        """Timers due at ``now`` (unix seconds) or earlier, earliest first."""
        rows = await self._all(
            "SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id", (now,)
        )
        return [_timer(r) for r in rows]

    async def next_due(self) -> float | None:
        """The earliest ``due_at`` of all timers, or ``None`` when there are none."""
        row = await self._one("SELECT MIN(due_at) FROM timers")
        return float(row[0]) if row and row[0] is not None else None

    async def timers(self) -> list[TimerRecord]:
        """Every stored timer, earliest first."""
        rows = await self._all("SELECT * FROM timers ORDER BY due_at, id")
        return [_timer(r) for r in rows]

    async def timer(self, game_id: int, kind: str) -> TimerRecord | None:
        """The game's timer of ``kind`` or ``None``."""
        row = await self._one(
            "SELECT * FROM timers WHERE game_id=? AND kind=?", (game_id, kind)
        )
        return _timer(row) if row else None

    # -- settings and preferences ------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """Stored settings for a server (all ``None`` when never set)."""
        row = await self._one("SELECT * FROM guild_settings WHERE guild_id=?", (guild_id,))
        if row is None:
            return GuildSettings(guild_id=guild_id)
        data = dict(row)
        if data["dm_notifications"] is not None:
            data["dm_notifications"] = bool(data["dm_notifications"])
        return GuildSettings.model_validate(data)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Insert or replace a server's settings."""
        async with self._tx() as db:
            await db.execute(
                "INSERT OR REPLACE INTO guild_settings (guild_id, turn_timer, dm_notifications,"
                " game_channel_id, max_open_lobbies) VALUES (?,?,?,?,?)",
                (
                    settings.guild_id,
                    settings.turn_timer,
                    None if settings.dm_notifications is None else int(settings.dm_notifications),
                    settings.game_channel_id,
                    settings.max_open_lobbies,
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

    async def dm_channel(self, user_id: int) -> int | None:
        """The id of the DM channel opened with ``user_id`` (``None``: not opened yet)."""
        row = await self._one("SELECT dm_channel_id FROM member_prefs WHERE user_id=?",
                              (user_id,))
        return int(row[0]) if row is not None and row[0] is not None else None

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Remember the DM channel opened with ``user_id`` (its other preferences kept)."""
        async with self._tx() as db:
            await db.execute("INSERT OR IGNORE INTO member_prefs (user_id) VALUES (?)", (user_id,))
            await db.execute("UPDATE member_prefs SET dm_channel_id=? WHERE user_id=?",
                             (channel_id, user_id))

    async def set_member_prefs(self, user_id: int, **flags: bool) -> None:
        """Set some of the member's DM flags (see :meth:`member_prefs`)."""
        if set(flags) - set(self._PREFS):
            raise ValueError(f"unknown preference {sorted(set(flags) - set(self._PREFS))}")
        prefs = await self.member_prefs(user_id)
        prefs.update(flags)
        async with self._tx() as db:
            await db.execute("INSERT OR IGNORE INTO member_prefs (user_id) VALUES (?)", (user_id,))
            await db.execute(
                "UPDATE member_prefs SET dm_opt_out=?, dm_closed=?, dm_closed_told=?,"
                " turn_notices=? WHERE user_id=?",
                (*(int(prefs[k]) for k in self._PREFS), user_id),
            )

    # -- stats -------------------------------------------------------------------------

    async def record_result(
        self, guild_id: int, kind: str, rows: list[tuple[int, bool, int]]
    ) -> None:
        """Add one finished game to the stats: ``rows`` of ``(user_id, won, score)``."""
        async with self._tx() as db:
            await self._add_results(db, guild_id, kind, rows)

    @staticmethod
    async def _add_results(db: aiosqlite.Connection, guild_id: int, kind: str,
                           rows: list[tuple[int, bool, int]]) -> None:
        for user_id, won, score in rows:
            await db.execute(
                "INSERT INTO stats (guild_id, user_id, kind, played, won, best_score)"
                " VALUES (?,?,?,1,?,?) ON CONFLICT (guild_id, user_id, kind) DO UPDATE SET"
                " played=played+1, won=won+excluded.won,"
                " best_score=MAX(COALESCE(best_score, excluded.best_score), excluded.best_score)",
                (guild_id, user_id, kind, int(won), score),
            )

    async def stats(
        self, guild_id: int, *, kind: str | None = None, user_id: int | None = None
    ) -> list[StatRecord]:
        """Stats rows of a server, optionally of one game and/or member, best first."""
        rows = await self._all(
            "SELECT * FROM stats WHERE guild_id=? AND (? IS NULL OR kind=?)"
            " AND (? IS NULL OR user_id=?) ORDER BY won DESC, played ASC, user_id",
            (guild_id, kind, kind, user_id, user_id),
        )
        return [StatRecord.model_validate(dict(r)) for r in rows]

    async def forget_stats(self, user_id: int, guild_id: int | None = None) -> int:
        """Delete a member's stats (in one server, or everywhere); return rows deleted."""
        async with self._tx() as db:
            cur = await db.execute(
                "DELETE FROM stats WHERE user_id=? AND (? IS NULL OR guild_id=?)",
                (user_id, guild_id, guild_id),
            )
            return cur.rowcount


def _timer(row: aiosqlite.Row) -> TimerRecord:
    data = dict(row)
    data["payload"] = json.loads(data["payload"] or "{}")
    return TimerRecord.model_validate(data)


def _split_sql(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
