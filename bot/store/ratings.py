"""The store's ratings: each member's rating per server, game and season, the history of
every rated seat, the leaderboard and seasons. The maths is the caller's (``bot.ratings``):
the store reads the ratings a game's end starts from and writes what it is given, in the
final move's transaction (:func:`rate_in_tx`, called by :meth:`Store.commit_moves`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.store.base import StoreBase
from bot.store.db import Conn, Op

#: ``(mu, sigma)`` of a rating.
MuSigma = tuple[float, float]


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a rated game: its member (``None``: played by the AI, never rated),
    the AI level playing it, the name shown, its rank (0 first) and whether it won."""

    seat: str
    user_id: int | None
    ai_level: str | None
    name: str
    rank: int
    won: bool


@dataclass(frozen=True)
class RateJob:
    """The rating of a game's end, for :meth:`Store.commit_moves`: the server, the game
    kind, its seats, and ``rate`` (member id -> current ``(mu, sigma)``, those absent
    unrated so far) -> seat -> ``(mu, sigma, ordinal)`` after the game (every seat)."""

    guild_id: int
    kind: str
    seats: tuple[RatedSeat, ...]
    rate: Callable[[dict[int, MuSigma]], dict[str, tuple[float, float, float]]]


class RatingRecord(BaseModel):
    """A member's rating in one server, game and season."""

    guild_id: int
    kind: str
    season: int
    user_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    updated_at: float


class Matchup(BaseModel):
    """A member's record against one opponent (a member, or an AI level when ``user_id``
    is ``None``) over the rated games they both sat in: games, times ahead, times behind."""

    user_id: int | None
    ai_level: str | None
    name: str
    games: int
    ahead: int
    behind: int


#: Write a member's rating (absolute values, computed inside the same transaction).
UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, kind, season, user_id, name, mu, sigma, ordinal, games,"
    " wins, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (guild_id, kind, season,"
    " user_id) DO UPDATE SET name=excluded.name, mu=excluded.mu, sigma=excluded.sigma,"
    " ordinal=excluded.ordinal, games=excluded.games, wins=excluded.wins,"
    " updated_at=excluded.updated_at")
#: One rated seat's row of the history (a game is rated once: the key is (game, seat)).
INSERT_HISTORY = (
    "INSERT INTO rating_history (game_id, seat, guild_id, kind, season, user_id, ai_level,"
    " name, rank, mu, sigma, ordinal, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")


async def rate_in_tx(db: Conn, game_id: int, job: RateJob, now: float
                     ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Inside the final move's transaction: hold the server's ratings of ``job.kind``
    (PostgreSQL advisory lock; the SQLite transaction holds the file), read its current
    season and the members' ratings, and compute the new ones with ``job.rate``. Returns
    the rows of :data:`UPSERT_RATING` and of :data:`INSERT_HISTORY`."""
    await db.serialize(f"ratings:{job.guild_id}:{job.kind}")
    row = await db.fetchrow("SELECT season FROM guild_settings WHERE guild_id=?",
                            (job.guild_id,))
    season = int(row[0]) if row is not None and row[0] is not None else 0
    members = [s.user_id for s in job.seats if s.user_id is not None]
    rows = await db.fetch(
        "SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id=? AND kind=?"
        f" AND season=? AND user_id IN ({','.join('?' * len(members))})",
        (job.guild_id, job.kind, season, *members)) if members else []
    current = {int(r["user_id"]): r for r in rows}
    after = job.rate({uid: (float(r["mu"]), float(r["sigma"])) for uid, r in current.items()})
    ratings, history = [], []
    for s in job.seats:
        mu, sigma, ordinal = after[s.seat]
        history.append((game_id, s.seat, job.guild_id, job.kind, season, s.user_id,
                         s.ai_level, s.name, s.rank, mu, sigma, ordinal, now))
        if s.user_id is not None:
            old = current.get(s.user_id)
            games, wins = (int(old["games"]), int(old["wins"])) if old is not None else (0, 0)
            ratings.append((job.guild_id, job.kind, season, s.user_id, s.name, mu, sigma,
                            ordinal, games + 1, wins + int(s.won), now))
    return ratings, history


def rating_ops(ratings: list[tuple[Any, ...]], history: list[tuple[Any, ...]]) -> list[Op]:
    """:func:`rate_in_tx`'s rows as statements of a batch."""
    ops = [Op(INSERT_HISTORY, rows=history)] if history else []
    return [*ops, Op(UPSERT_RATING, rows=ratings)] if ratings else ops


def pg_rating_parts(ratings: list[tuple[Any, ...]], history: list[tuple[Any, ...]],
                    args: list[Any]) -> list[str]:
    """:func:`rate_in_tx`'s rows as parts of the final move's one PostgreSQL statement
    (written only when its ``upd`` part has a row); their arguments appended to ``args``."""
    parts = []
    if history:
        parts.append(
            "hist AS (INSERT INTO rating_history (game_id, seat, guild_id, kind, season,"
            " user_id, ai_level, name, rank, mu, sigma, ordinal, created_at) SELECT h.* FROM"
            " upd, unnest(?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::bigint[],"
            " ?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::float8[], ?::float8[],"
            " ?::float8[], ?::float8[]) AS h(game_id, seat, guild_id, kind, season, user_id,"
            " ai_level, name, rank, mu, sigma, ordinal, created_at))")
        args += [list(col) for col in zip(*history, strict=True)]
    if ratings:
        parts.append(
            "rat AS (INSERT INTO ratings (guild_id, kind, season, user_id, name, mu, sigma,"
            " ordinal, games, wins, updated_at) SELECT r.* FROM upd, unnest(?::bigint[],"
            " ?::text[], ?::bigint[], ?::bigint[], ?::text[], ?::float8[], ?::float8[],"
            " ?::float8[], ?::bigint[], ?::bigint[], ?::float8[]) AS r(guild_id, kind,"
            " season, user_id, name, mu, sigma, ordinal, games, wins, updated_at)"
            " ON CONFLICT (guild_id, kind, season, user_id) DO UPDATE SET name=excluded.name,"
            " mu=excluded.mu, sigma=excluded.sigma, ordinal=excluded.ordinal,"
            " games=excluded.games, wins=excluded.wins, updated_at=excluded.updated_at)")
        args += [list(col) for col in zip(*ratings, strict=True)]
    return parts


class RatingStore(StoreBase):
    """Ratings, the leaderboard and seasons (see :class:`bot.store.Store`)."""

    async def season(self, guild_id: int) -> tuple[int, float | None]:
        """The server's current season and when it started (``(0, None)``: no seasons)."""
        row = await self._one(
            "SELECT season, season_started_at FROM guild_settings WHERE guild_id=?", (guild_id,))
        if row is None or row[0] is None:
            return 0, None
        return int(row[0]), (float(row[1]) if row[1] is not None else None)

    async def start_season(self, guild_id: int) -> int:
        """Start the server's next season (everybody unrated in it; the old seasons' tables
        stay); return its number (the first is 1)."""
        now = self._clock()
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, season, season_started_at) VALUES (?,1,?)"
                " ON CONFLICT (guild_id) DO UPDATE SET"
                " season=COALESCE(guild_settings.season, 0)+1, season_started_at=?",
                (guild_id, now, now))
            row = await db.fetchrow("SELECT season FROM guild_settings WHERE guild_id=?",
                                    (guild_id,))
        return int(row[0]) if row is not None else 1

    async def leaderboard(self, guild_id: int, kind: str, season: int, *, offset: int = 0,
                          limit: int = 10) -> tuple[list[RatingRecord], int]:
        """A page of the server's table of ``kind`` in ``season``, best ordinal first (ties:
        lower member id first), and how many members it holds. Reads the index
        ``ratings_board``, never the whole table."""
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id=? AND kind=? AND season=?"
            " ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, kind, season, limit, offset))
        total = await self._one(
            "SELECT count(*) FROM ratings WHERE guild_id=? AND kind=? AND season=?",
            (guild_id, kind, season))
        return [RatingRecord.model_validate(dict(r)) for r in rows], int(total[0] if total else 0)

    async def rank_of(self, guild_id: int, kind: str, season: int, user_id: int
                      ) -> tuple[int, RatingRecord] | None:
        """A member's place (1 first) on the table of ``kind`` in ``season`` and their
        rating, or ``None`` when they have no rated game there (a range of the index
        ``ratings_board``: the members above)."""
        row = await self._one(
            "SELECT * FROM ratings WHERE guild_id=? AND kind=? AND season=? AND user_id=?",
            (guild_id, kind, season, user_id))
        if row is None:
            return None
        mine = RatingRecord.model_validate(dict(row))
        above = await self._one(
            "SELECT count(*) FROM ratings WHERE guild_id=? AND kind=? AND season=? AND"
            " ordinal >= ? AND (ordinal > ? OR (ordinal = ? AND user_id < ?))",
            (guild_id, kind, season, mine.ordinal, mine.ordinal, mine.ordinal, user_id))
        return int(above[0] if above else 0) + 1, mine

    async def member_ratings(self, guild_id: int, user_id: int, season: int
                             ) -> list[RatingRecord]:
        """A member's ratings in a server's ``season``, one per game kind played."""
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id=? AND user_id=? AND season=? ORDER BY kind",
            (guild_id, user_id, season))
        return [RatingRecord.model_validate(dict(r)) for r in rows]

    async def rating_history(self, guild_id: int, user_id: int, kind: str, season: int,
                             limit: int = 50) -> list[float]:
        """A member's ordinal after each of their last ``limit`` rated games of ``kind`` in
        ``season``, oldest first."""
        rows = await self._all(
            "SELECT ordinal FROM rating_history WHERE guild_id=? AND user_id=? AND kind=?"
            " AND season=? ORDER BY created_at DESC, game_id DESC LIMIT ?",
            (guild_id, user_id, kind, season, limit))
        return [float(r[0]) for r in reversed(rows)]

    async def matchups(self, guild_id: int, user_id: int, kind: str) -> list[Matchup]:
        """A member's record against each opponent over their rated games of ``kind`` in
        the server (every season), most games first, then members before AI levels."""
        rows = await self._all(
            "SELECT o.user_id, o.ai_level, max(o.name) AS name, count(*) AS games,"
            " sum(CASE WHEN m.rank < o.rank THEN 1 ELSE 0 END) AS ahead,"
            " sum(CASE WHEN m.rank > o.rank THEN 1 ELSE 0 END) AS behind"
            " FROM rating_history m JOIN rating_history o"
            " ON o.game_id = m.game_id AND o.seat <> m.seat"
            " WHERE m.guild_id=? AND m.user_id=? AND m.kind=?"
            " AND (o.user_id IS NULL OR o.user_id <> m.user_id)"
            " GROUP BY o.user_id, o.ai_level ORDER BY count(*) DESC,"
            " CASE WHEN o.user_id IS NULL THEN 1 ELSE 0 END, o.user_id, o.ai_level",
            (guild_id, user_id, kind))
        return [Matchup.model_validate(dict(r)) for r in rows]

    async def forget_ratings(self, user_id: int, guild_id: int) -> int:
        """Delete a member's ratings and rated-seat history in a server (every season); the
        member leaves every leaderboard. Returns the rating rows deleted."""
        async with self._tx() as db:
            await db.execute("DELETE FROM rating_history WHERE user_id=? AND guild_id=?",
                             (user_id, guild_id))
            return await db.execute("DELETE FROM ratings WHERE user_id=? AND guild_id=?",
                                    (user_id, guild_id))

    async def game_rating_changes(self, game_id: int) -> dict[str, tuple[float, float | None]]:
        """A rated game's members' ratings: seat -> ``(ordinal after the game, ordinal
        before it)``, the second ``None`` for a member's first rated game of the kind in
        that season. Empty for an unrated game; AI seats are left out."""
        rows = await self._all(
            "SELECT h.seat, h.ordinal, (SELECT p.ordinal FROM rating_history p"
            " WHERE p.guild_id=h.guild_id AND p.user_id=h.user_id AND p.kind=h.kind"
            " AND p.season=h.season AND (p.created_at < h.created_at"
            " OR (p.created_at = h.created_at AND p.game_id < h.game_id))"
            " ORDER BY p.created_at DESC, p.game_id DESC LIMIT 1) AS before"
            " FROM rating_history h WHERE h.game_id=? AND h.user_id IS NOT NULL ORDER BY h.seat",
            (game_id,))
        return {str(r["seat"]): (float(r["ordinal"]),
                                 None if r["before"] is None else float(r["before"]))
                for r in rows}
