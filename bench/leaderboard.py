"""``/leaderboard`` and ``/stats show`` reads with 100,000 rated games and 5,000 members in
one server, on SQLite and PostgreSQL.

``python -m bench.leaderboard [--games 100000] [--members 5000] [--queries 1000]
[--postgres URL]``

The store gets ``--games`` rated 4-seat games of one kind in one server (each seat's row
in ``rating_history``), ``--members`` members on its table, and as much again spread over
49 other servers and two other kinds (so the index, not the table size, decides). Then
``--queries`` leaderboard requests as ``/leaderboard`` makes them (the season, a random
page, the viewer's own place: :func:`bot.discord.leaderboard.leaderboard_page`'s three
store reads) and as many ``/stats show`` rating reads (the member's ratings, place,
history and matchups) are timed one after the other; p50/p99 in ms. Prints the query plans.
Not a test: figures depend on the machine (the load average is printed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import loadavg, summary_ms
from bot.store import Store
from bot.store.postgres import drop_schemas, new_schema
from bot.store.ratings import INSERT_HISTORY, UPSERT_RATING

GUILD = 1
KIND = "pacapaca"
PAGE = 10


async def fill(store: Store, games: int, members: int, seed: int) -> None:
    """The rows described in the module docstring, in batches of 20,000."""
    rand = random.Random(seed)
    ratings = []
    for user in range(members):
        mu, sigma = rand.gauss(25, 4), rand.uniform(1.5, 8.3)
        ratings.append((GUILD, KIND, 0, 10_000 + user, f"Member {user}", mu, sigma,
                        mu - 3 * sigma, 20, 5, 0.0))
    for guild in range(2, 51):  # the other servers and kinds
        for user in range(members // 50):
            for kind in ("pacapaca", "llamas-alpacas", "llamas-unleashed"):
                mu = rand.gauss(25, 4)
                ratings.append((guild, kind, 0, 10_000 + user, f"M{user}", mu, 4.0, mu - 12,
                                3, 1, 0.0))
    history: list[tuple[Any, ...]] = []

    async def flush() -> None:
        async with store._tx() as db:
            await db.executemany(INSERT_HISTORY, history)
        history.clear()

    for game in range(games):
        seated = rand.sample(range(members), 4)
        for place, user in enumerate(seated):
            mu = rand.gauss(25, 4)
            history.append((game + 1, f"s{place}", GUILD, KIND, 0, 10_000 + user, None,
                            f"Member {user}", place, mu, 4.0, mu - 12, float(game)))
        if len(history) >= 20_000:
            await flush()
    if history:
        await flush()
    for start in range(0, len(ratings), 20_000):
        async with store._tx() as db:
            await db.executemany(UPSERT_RATING, ratings[start:start + 20_000])


async def leaderboard_reads(store: Store, members: int, rand: random.Random) -> None:
    """The three store reads of one ``/leaderboard`` page."""
    season, _ = await store.season(GUILD)
    page = rand.randrange((members + PAGE - 1) // PAGE)
    await store.leaderboard(GUILD, KIND, season, offset=page * PAGE, limit=PAGE)
    await store.rank_of(GUILD, KIND, season, 10_000 + rand.randrange(members))


async def stats_reads(store: Store, members: int, rand: random.Random) -> None:
    """The store reads of ``/stats show``'s rating part for one member and one game."""
    user = 10_000 + rand.randrange(members)
    season, _ = await store.season(GUILD)
    await store.member_ratings(GUILD, user, season)
    await store.rank_of(GUILD, KIND, season, user)
    await store.matchups(GUILD, user, KIND)
    await store.rating_history(GUILD, user, KIND, season)


async def plans(store: Store) -> dict[str, list[str]]:
    """The query plans of the leaderboard page and the member's place."""
    page = ("SELECT * FROM ratings WHERE guild_id=? AND kind=? AND season=?"
            " ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?")
    place = ("SELECT count(*) FROM ratings WHERE guild_id=? AND kind=? AND season=? AND"
             " ordinal >= ? AND (ordinal > ? OR (ordinal = ? AND user_id < ?))")
    args: list[tuple[Any, ...]] = [(GUILD, KIND, 0, PAGE, 2500),
                                   (GUILD, KIND, 0, 10.0, 10.0, 10.0, 5)]
    explain = "EXPLAIN QUERY PLAN " if store.dialect == "sqlite" else "EXPLAIN "
    out = {}
    for name, sql, a in (("page", page, args[0]), ("place", place, args[1])):
        rows = await store._all(explain + sql, a)
        out[name] = [str(r[-1]) for r in rows]
    return out


async def run(database: str, games: int, members: int, queries: int) -> dict[str, Any]:
    store = await Store.open(database)
    try:
        t0 = time.perf_counter()
        await fill(store, games, members, 1)
        filled = time.perf_counter() - t0
        rand = random.Random(2)
        out: dict[str, Any] = {"backend": store.dialect, "fill_s": round(filled, 1),
                               "plans": await plans(store)}
        for name, reads in (("leaderboard", leaderboard_reads), ("stats_show", stats_reads)):
            for _ in range(20):  # warm the caches
                await reads(store, members, rand)
            times = []
            for _ in range(queries):
                start = time.perf_counter()
                await reads(store, members, rand)
                times.append(time.perf_counter() - start)
            out[name] = summary_ms(times)
        return out
    finally:
        await store.close()


async def fresh_postgres(url: str) -> tuple[str, Any]:
    """A new schema on ``url`` and a coroutine function dropping it."""
    schema, reached = await new_schema(url, "herdbench_")

    async def drop() -> None:
        await drop_schemas(url, [schema])

    return reached, drop


async def main_async(a: argparse.Namespace) -> None:
    results = []
    with tempfile.TemporaryDirectory(prefix="herdbench-") as tmp:
        results.append(await run(str(Path(tmp) / "board.sqlite3"), a.games, a.members,
                                 a.queries))
    if a.postgres:
        url, drop = await fresh_postgres(a.postgres)
        try:
            results.append(await run(url, a.games, a.members, a.queries))
        finally:
            await drop()
    for r in results:
        print(json.dumps({**r, "games": a.games, "members": a.members, "queries": a.queries,
                          "loadavg": loadavg()}))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--members", type=int, default=5_000)
    parser.add_argument("--queries", type=int, default=1_000)
    parser.add_argument("--postgres", default=None, help="a postgresql:// URL (a new schema)")
    asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
