"""The store's moves: a turn of a game written at once (the state, the action log, stats,
seats' flags and missed turns, timers), on SQLite as statements in one transaction and
on PostgreSQL as one statement."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, NamedTuple

from bot.store.base import StoreBase
from bot.store.db import Conn, Op, Refused
from bot.store.ratings import RateJob, pg_rating_parts, rate_in_tx, rating_ops
from bot.store.records import (
    StaleVersion,
    TimerRow,
)
from bot.store.stats import ADD_RESULT, add_results
from bot.store.timers import UPSERT_TIMER


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
    #: the rows of the game's ratings (:func:`~bot.store.ratings.rate_in_tx`), if rated
    rating: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]] | None = None


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
    elif a.expected is not None:  # no move: still only while the version is the one read
        parts = ["upd AS (SELECT id FROM games WHERE id=? AND version=? FOR UPDATE)"]
        args += [a.game_id, a.expected]
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
    if a.rating is not None:
        parts += pg_rating_parts(*a.rating, args)
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


def _missed_turn_ops(game_id: int, seat: str, limit: int) -> list[Op]:
    """:meth:`Store._add_missed_turn`'s statements; the last one reads the new count."""
    return [Op("UPDATE seats SET missed_turns=missed_turns+1, ai_takeover=CASE WHEN"
               " missed_turns+1>=? THEN 1 ELSE ai_takeover END WHERE game_id=? AND seat=?",
               (limit, game_id, seat)),
            Op("SELECT missed_turns FROM seats WHERE game_id=? AND seat=?", (game_id, seat),
               fetch=True)]


class MoveStore(StoreBase):
    """Moves (see :class:`bot.store.Store`)."""

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
                await add_results(db, *result)
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
        rate: RateJob | None = None,
    ) -> tuple[float, dict[str, int]]:
        """Write one turn of a game in ONE transaction: the new ``state`` and its ``moves``
        (``(version, seat, action, events)`` rows of the action log, in order; the state's
        version is the last one), with ``result`` (as :meth:`record_result` takes it: the
        game's final move) the stats, with ``missed_turns`` (``(seats, limit)``) one more
        missed turn for each of those seats (:meth:`_add_missed_turn`), ``seats`` (seat
        -> columns, as :meth:`set_seat` takes them) the seats' flags, ``timers`` written
        (replacing the game's timer of each kind) and the timers of kinds ``drop_timers``
        deleted (a kind also written is replaced in place), and with ``rate`` (a game's
        final move, rated) the members' new ratings and the rated seats' history, computed
        inside the transaction from the ratings it holds (:func:`~bot.store.ratings.
        rate_in_tx`: rated once with the final move, never twice nor never). PostgreSQL:
        one statement (:func:`_pg_commit_op`, one round trip; after the ratings' read when
        rated) unless it would change a row twice.

        With ``moves`` the game's row is updated only if its stored version is
        ``expected_version`` and it is active (the UPDATE holds the row lock in PostgreSQL;
        the SQLite transaction holds the file), so moves on one game from any process apply
        one at a time; without, anything is written only while the stored version is
        ``expected_version`` (unless ``None``); otherwise :class:`StaleVersion` is raised
        and nothing is written.
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
        check = None
        if single and moves:
            version, seat, action, _ = moves[-1]
            check = Op("SELECT EXISTS (SELECT 1 FROM actions WHERE game_id=? AND version=?"
                       " AND seat=? AND action=? AND created_at=?)",
                       (game_id, version, seat, json.dumps(action), now))
        try:
            async with self._tx(*([game_id] if play else [])) as db:
                if rate is not None and moves:
                    args = args._replace(rating=await rate_in_tx(db, game_id, rate, now))
                ops = [_pg_commit_op(args)] if single else self._commit_ops(args, counted)
                out = await db.batch(ops, last=True, check=check)
                if (single and (moves or expected_version is not None)
                        and not out[0][0]["applied"]):
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
        elif a.expected is not None:  # no move: still only while the version is the one read
            ops.append(Op("UPDATE games SET version=version WHERE id=? AND version=?",
                          (a.game_id, a.expected), expect=1))
        elif a.missed:
            ops.append(Op("SELECT id FROM games WHERE id=?" + self._backend.reader.for_update,
                          (a.game_id,), fetch=True))
        if a.result is not None:
            guild_id, kind, rows = a.result
            ops += [Op("UPDATE games SET result_recorded=1 WHERE id=?", (a.game_id,)),
                    Op(ADD_RESULT, rows=[(guild_id, user_id, kind, int(won), score)
                                          for user_id, won, score in rows])]
        if a.rating is not None:
            ops += rating_ops(*a.rating)
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
            ops.append(Op(UPSERT_TIMER, rows=[
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
