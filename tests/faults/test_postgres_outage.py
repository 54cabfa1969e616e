"""The real HerdBot on PostgreSQL loses its database connection mid-game. A click while it
is away is refused with the "try again" answer and writes nothing; once the server is
reachable again the same bot (not restarted) applies the next click. Runs when
HERDBOT_TEST_DATABASE_URL is set (.ci/run sets it)."""

from __future__ import annotations

import logging

import pytest
import pytest_asyncio

from bot.store.outage import quiet_store_outages
from bot.store.url import postgres_address
from tests.faults.common import make_bot, start_tiny
from tests.support.databases import PG_URL, SKIP_REASON, CuttableProxy, databases

STORE_DOWN = ("\N{NO ENTRY SIGN} herdbot cannot save anything right now (its database is "
              "full or unavailable), so this was not done. Please try again in a few minutes.")


@pytest_asyncio.fixture
async def proxied_database(tmp_path):
    """``(url, proxy)``: a fresh PostgreSQL schema reached through a cuttable proxy."""
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    proxy = await CuttableProxy(*postgres_address(PG_URL)).start()
    async with databases("postgres", tmp_path) as new:
        yield proxy.url(await new()), proxy
    await proxy.cut()


async def test_a_click_while_postgresql_is_away_is_refused_then_works_when_it_is_back(
        world, clock, proxied_database):
    url, proxy = proxied_database
    sb = await world.connect(make_bot(url, clock))
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    table = lobby.thread.last_message
    await proxy.cut()
    await ana.click(table, "Add 1")
    assert ana.last_reply.content == STORE_DOWN and ana.last_reply.ephemeral
    await proxy.restore()
    assert (await sb.bot.store.get_game(1)).version == 0  # nothing was written
    await ana.click(lobby.thread.last_message, "Add 1")
    record = await sb.bot.store.get_game(1)
    assert record.version == 1
    assert [(a.version, a.seat) for a in await sb.bot.store.actions(1)] == [(1, "s0")]
    await world.disconnect()


async def test_an_outage_logs_one_line_per_kind_of_failure_and_no_traceback(
        world, clock, proxied_database, caplog):
    """Five clicks while PostgreSQL is away, as ``herdbot run`` logs them (its handlers
    carry ``bot.store.outage``'s filter): one line per logger and kind, none a traceback
    (before: asyncpg's traceback at WARNING for every click, and one line per click)."""
    url, proxy = proxied_database
    await world.connect(make_bot(url, clock))
    quiet_store_outages(caplog.handler)
    caplog.set_level(logging.INFO)
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    await proxy.cut()
    caplog.clear()
    for _ in range(5):
        await ana.click(lobby.thread.last_message, "Add 1")
        assert ana.last_reply.content == STORE_DOWN
    lines = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
    assert all(r.exc_info is None and r.exc_text is None for r in caplog.records), lines
    assert "Traceback" not in caplog.text
    refused = [line for line in lines if line[0] == "bot.discord.bot"]
    assert refused == [("bot.discord.bot", "WARNING",
                        "component hb:g:1:0:add.1 refused: database error (StoreDown: "
                        "herdbot: PostgreSQL connection lost (ConnectionRefusedError: "
                        f"[Errno 111] Connect call failed ('127.0.0.1', {proxy.port})))")]
    pool = [line for line in lines if line[0] == "asyncpg.pool"]
    assert pool in ([], [("asyncpg.pool", "WARNING",
                          "Failed to restore the pool connection floor; retrying "
                          "(ConnectionRefusedError: [Errno 111] Connect call failed "
                          f"('127.0.0.1', {proxy.port}))")])
    assert {name for name, _, _ in lines} <= {"bot.discord.bot", "asyncpg.pool"}, lines
    await proxy.restore()
    await world.disconnect()
