"""The store's games: creating, reading and listing them, their status and what their
thread shows."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot.store.base import StoreBase
from bot.store.db import Op
from bot.store.records import (
    ActionRecord,
    GameBundle,
    GameHeader,
    GameRecord,
    LobbyLimit,
    StaleVersion,
    int_or,
    parse_game,
    parse_seat,
    readable_games,
)

#: Game columns whose change is a change of play (:meth:`Store.update_game` notes the game
#: for ``bot.store.tracking``); the others (message ids, pings, the shown version) are
#: bookkeeping of what is shown.
_PLAY_FIELDS = frozenset({"status", "options", "host_id"})


#: The timers whose deadlines a table shows (:meth:`Store.game_and_deadlines`).
_TABLE_TIMERS = ("rules", "turn")


class GameStore(StoreBase):
    """Games (see :class:`bot.store.Store`)."""

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
        return parse_game(row) if row else None

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
        record = parse_game(data)
        seats = [parse_seat(r) for r in json.loads(seats_json or "[]")]
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
        return parse_game(data), deadlines

    async def game_by_thread(self, thread_id: int) -> GameRecord | None:
        """The most recent game played in ``thread_id`` or ``None``."""
        row = await self._one(
            f"SELECT {self._game_cols} FROM games WHERE thread_id=? ORDER BY id DESC LIMIT 1",
            (thread_id,),
        )
        return parse_game(row) if row else None

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
        ints = {k: int_or(data[k], 0) or None for k in (
            "guild_id", "channel_id", "thread_id", "table_message_id", "host_id")}
        return GameHeader.model_validate({"id": game_id, **text, **ints})

    async def game_id_by_thread(self, thread_id: int) -> int | None:
        """The id of the most recent game played in ``thread_id`` (no row parsed)."""
        row = await self._one(
            "SELECT id FROM games WHERE thread_id=? ORDER BY id DESC LIMIT 1", (thread_id,))
        return int(row[0]) if row else None

    async def last_hosted(self, host_id: int, kind: str) -> GameRecord | None:
        """The latest game of ``kind`` that ``host_id`` opened (any status), or None; an
        unreadable row counts as none."""
        rows = await self._all(f"SELECT {self._game_cols} FROM games WHERE host_id=? AND "
                               "kind=? ORDER BY id DESC LIMIT 1", (host_id, kind))
        games = readable_games(rows, {})
        return games[0] if games else None

    async def games_with_status(self, *statuses: str) -> list[GameRecord]:
        """Every game whose status is one of ``statuses``; rows that do not validate are
        left out and noted in :attr:`unreadable`."""
        marks = ",".join("?" * len(statuses))
        rows = await self._all(
            f"SELECT {self._game_cols} FROM games WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return readable_games(rows, self.unreadable)

    async def finished_games_behind(self) -> list[GameRecord]:
        """Finished games whose posted table shows an older version than the stored one
        (or none was posted); rows that do not validate are noted in :attr:`unreadable`."""
        rows = await self._all(
            f"SELECT {self._game_cols} FROM games WHERE status='finished'"
            " AND (table_version IS NULL OR table_version < version) ORDER BY id")
        return readable_games(rows, self.unreadable)

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
        return readable_games(rows, self.unreadable)

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

    async def game_span(self, game_id: int) -> float:
        """Seconds from a game's first stored move to its last (0.0 with fewer than two)."""
        row = await self._one("SELECT min(created_at), max(created_at) FROM actions"
                              " WHERE game_id=?", (game_id,))
        if row is None or row[0] is None:
            return 0.0
        return float(row[1]) - float(row[0])

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
