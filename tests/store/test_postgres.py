"""What only PostgreSQL has: several processes on one database (row locks, timer leases),
a lost connection, an unreachable server at start; ``HERDBOT_DATABASE`` as a file or a URL."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys

import pytest
import pytest_asyncio

from bot.store import (
    PostgresUnavailable,
    StaleVersion,
    Store,
    StoreDown,
    postgres,
)
from bot.store.url import postgres_address
from tests.support.databases import PG_URL, SKIP_REASON, CuttableProxy, databases
from tests.support.store_faults import COMMIT_ERROR, active_game, commits_fail, noted_by

needs_pg = pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)



# -- PostgreSQL: several processes on one database ------------------------------------


@pytest_asyncio.fixture
async def pg_database(tmp_path):
    """A fresh PostgreSQL schema's URL (skipped without a server)."""
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    async with databases("postgres", tmp_path) as new:
        yield await new()


async def test_a_due_timer_is_claimed_by_exactly_one_process_until_its_lease_ends(pg_database):
    """Two stores stand for two processes: both ask for the due timers at once; one gets
    the timer, the other nothing, and the other waits for the lease's end. After the lease
    (the claimer died while firing) the other takes it over."""
    a, b = await Store.open(pg_database), await Store.open(pg_database)
    try:
        gid = await active_game(a)
        await a.upsert_timer(gid, "rules", "k", 100.0, {})
        got_a, got_b = await asyncio.gather(a.due_timers(150.0), b.due_timers(150.0))
        assert sorted([len(got_a), len(got_b)]) == [0, 1]
        winner, other = (a, b) if got_a else (b, a)
        row = await a._one("SELECT claimed_by, lease_until FROM timers")
        assert (row["claimed_by"], row["lease_until"]) == (winner.claimant, 150.0 + 60.0)
        assert await other.due_timers(209.0) == []
        assert await other.next_due() == 210.0
        assert await winner.next_due() == 100.0  # its own claim: retry after a failure
        assert [t.key for t in await winner.due_timers(160.0)] == ["k"]  # renews its lease
        taken = await other.due_timers(220.0)  # lease of 160 + 60 is over
        assert [t.key for t in taken] == ["k"]
        # Rescheduling the timer drops the claim: anyone may fire the new deadline.
        await winner.upsert_timer(gid, "rules", "k2", 300.0, {})
        row = await a._one("SELECT claimed_by, lease_until FROM timers")
        assert (row["claimed_by"], row["lease_until"]) == (None, None)
    finally:
        await a.close()
        await b.close()


async def test_concurrent_moves_from_two_processes_apply_once(pg_database):
    """The row lock on the game plus the version check: 20 commits of version 1 from two
    stores at once, exactly one is applied and 19 are StaleVersion; the log has one row."""
    a, b = await Store.open(pg_database), await Store.open(pg_database)
    try:
        gid = await active_game(a)

        async def move(store: Store, n: int) -> None:
            await store.commit_action(gid, expected_version=0, state=f'{{"n": {n}}}', version=1,
                                      seat="s0", action={"n": n}, events=[])

        results = await asyncio.gather(*(move(a if n % 2 else b, n) for n in range(20)),
                                       return_exceptions=True)
        assert sum(r is None for r in results) == 1
        assert sum(isinstance(r, StaleVersion) and r.actual == 1 for r in results) == 19
        log = await a.actions(gid)
        assert len(log) == 1 and (await b.get_game(gid)).state == f'{{"n": {log[0].action["n"]}}}'
    finally:
        await a.close()
        await b.close()


async def test_a_lost_connection_refuses_and_the_store_recovers_by_itself(pg_database):
    """The connection to PostgreSQL is cut (a proxy drops it and refuses new ones): a move
    fails with StoreDown(lost=True) and writes nothing; once the server is reachable again
    the same store commits the move without being reopened."""
    proxy = await CuttableProxy(*postgres_address(PG_URL)).start()
    store = await Store.open(proxy.url(pg_database))
    try:
        gid = await active_game(store)
        await proxy.cut()
        with pytest.raises(StoreDown) as info:
            await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1,
                                      seat="s0", action={}, events=[])
        assert info.value.lost is True
        assert str(info.value).startswith("herdbot: PostgreSQL connection lost (")
        with pytest.raises(StoreDown):  # still down: refused again, quickly
            await store.get_game(gid)
        await proxy.restore()
        await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1,
                                  seat="s0", action={}, events=[])
        assert [(a.version, a.seat) for a in await store.actions(gid)] == [(1, "s0")]
    finally:
        await store.close()
        await proxy.cut()


@pytest.mark.parametrize("applied", [True, False], ids=["applied", "not-applied"])
async def test_a_move_sent_alone_whose_connection_is_lost_is_asked_about_once_released(
        pg_database, monkeypatch, applied):
    """A pool of one connection (every connection of the pool lost at once, as in a disk
    stall): a move sent as one statement alone loses its connection; the server is asked
    what became of it once that connection is back in the pool. Applied: the game is
    noted; not applied (the connection ended before the statement arrived): nothing is.
    Before, the question waited for a free connection while holding the only one: for
    ever."""
    monkeypatch.setattr(postgres.PgBackend, "POOL_SIZE", 1)
    store = await Store.open(pg_database)
    try:
        gid = await active_game(store)
        with commits_fail(store, monkeypatch, applied=applied):
            noted = await asyncio.wait_for(noted_by(store.commit_moves(
                gid, expected_version=0, state='{"v": 1}', moves=[(1, "s0", {}, [])]),
                COMMIT_ERROR["postgres"] if applied else None), 10)
        assert noted == ({gid} if applied else set())
        game = await store.get_game(gid)
        assert (game.version, [a.version for a in await store.actions(gid)]) == (
            (1, [1]) if applied else (0, []))
    finally:
        await store.close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_an_unreachable_postgresql_at_open_names_host_and_port():
    port = _closed_port()
    with pytest.raises(PostgresUnavailable) as info:
        await Store.open(f"postgresql://herdbot:secret@127.0.0.1:{port}/herdbot")
    assert str(info.value) == (
        f"herdbot: cannot use PostgreSQL at 127.0.0.1:{port} (HERDBOT_DATABASE): connection "
        "refused (no server listening there).")


def test_herdbot_run_on_an_unreachable_postgresql_prints_one_line_and_exits_1(tmp_path):
    port = _closed_port()
    env = {**os.environ, "DISCORD_TOKEN": "x" * 60,
           "HERDBOT_DATABASE": f"postgresql://herdbot:secret@127.0.0.1:{port}/herdbot"}
    proc = subprocess.run([sys.executable, "-m", "bot", "run"], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=60)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == (
        f"herdbot: cannot use PostgreSQL at 127.0.0.1:{port} (HERDBOT_DATABASE): connection "
        "refused (no server listening there).\n")


# -- HERDBOT_DATABASE: a file or a URL ------------------------------------------------


def test_herdbot_database_is_a_file_path_or_a_postgresql_url():
    from pathlib import Path

    from bot.config import Settings

    pg = Settings(_env_file=None, HERDBOT_DATABASE="postgresql://hb:pw@db:5433/herdbot")
    assert (pg.database_url, pg.sqlite_path) == ("postgresql://hb:pw@db:5433/herdbot", None)
    assert postgres_address(pg.database_url) == ("db", 5433)
    assert postgres_address("postgresql:///herdbot") == ("localhost", 5432)
    lite = Settings(_env_file=None, HERDBOT_DATABASE="data/bot.sqlite3")
    assert (lite.database_url, lite.sqlite_path) == (None, Path("data/bot.sqlite3"))


def test_another_url_scheme_is_refused_without_showing_the_password():
    from pydantic import ValidationError

    from bot.config import Settings, describe_errors

    with pytest.raises(ValidationError) as info:
        Settings(_env_file=None, HERDBOT_DATABASE="mysql://hb:pw@db/herdbot")
    assert describe_errors(info.value) == [
        "herdbot: HERDBOT_DATABASE='mysql://hb:***@db/herdbot' is not allowed; use a file "
        "path, or a PostgreSQL URL postgresql://user:password@host:port/db (set in the "
        "environment or .env)."]


def test_herdbot_backup_of_a_postgresql_database_points_to_pg_dump(tmp_path):
    env = {**os.environ, "HERDBOT_DATABASE": "postgresql://hb:pw@127.0.0.1:5/herdbot"}
    proc = subprocess.run([sys.executable, "-m", "bot", "backup", str(tmp_path / "b")],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == ("herdbot: `herdbot backup` copies a SQLite file, and "
                           "HERDBOT_DATABASE is a PostgreSQL database: back it up with "
                           "pg_dump.\n")
