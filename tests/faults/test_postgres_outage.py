"""The real HerdBot on PostgreSQL loses its database connection mid-game. A click while it
is away is refused with the "try again" answer and writes nothing; once the server is
reachable again the same bot (not restarted) applies the next click. Runs when
HERDBOT_TEST_DATABASE_URL is set (.ci/run sets it)."""

from __future__ import annotations

import pytest
import pytest_asyncio

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
