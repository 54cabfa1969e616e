"""Posting a stored change's table (bot/discord/table_posts.py): on SQLite (one process per
file) the change in hand is trusted with no read; on PostgreSQL the stored game is read
under the post lock, so a table older than one another process stored only tells its
events."""

from __future__ import annotations

from typing import Any

import pytest
import pytest_asyncio

from bot.runtime import GameService
from bot.store import Store
from tests.discord.conftest import make_bot
from tests.faults.common import start_tiny
from tests.support.databases import PG_URL, SKIP_REASON, databases
from tests.support.tinygame import Add, tiny_registry


@pytest_asyncio.fixture
async def pg_url(tmp_path):
    """A fresh PostgreSQL schema's URL (skipped without a server)."""
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    async with databases("postgres", tmp_path) as new:
        yield await new()


def reads_of_the_stored_table(store: Store, monkeypatch: Any) -> list[int]:
    """The game ids ``store.game_and_deadlines`` is asked for from now on."""
    asked: list[int] = []
    original = store.game_and_deadlines

    async def counted(game_id: int) -> Any:
        asked.append(game_id)
        return await original(game_id)
    monkeypatch.setattr(store, "game_and_deadlines", counted)
    return asked


async def test_on_sqlite_a_clicks_table_is_posted_without_reading_the_game_again(
        world, sb, monkeypatch):
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    asked = reads_of_the_stored_table(sb.bot.store, monkeypatch)
    await ana.click(lobby.thread.last_message, "Add 1")
    await world.settle()
    assert asked == []
    assert lobby.thread.last_message.labels == ["Add 1", "Add 2", "Wait", "My hand", "Watch"]


async def test_on_postgresql_a_table_older_than_another_processs_move_only_tells_its_events(
        world, clock, pg_url, monkeypatch):
    """Ana's click is committed (version 1); before this process posts its table, another
    process on the same database moves the game on (Bo adds 2: version 2). The click's
    table is then only its event line, with no buttons: the stored game, read under the
    post lock, is newer. Before, this process trusted the change in hand and posted the
    version 1 table with live buttons after the newer move."""
    sb = await world.connect(make_bot(pg_url, clock))
    other = GameService(await Store.open(pg_url, clock=clock.now), tiny_registry(),
                        clock=clock)
    try:
        ana, bo = world.member("Ana"), world.member("Bo")
        lobby = await start_tiny(world, ana, [bo])
        thread = lobby.thread
        commit = sb.bot.store.commit_moves

        async def then_the_other_process_moves(*args: Any, **kwargs: Any) -> Any:
            out = await commit(*args, **kwargs)
            await other.act(1, "s1", Add(n=2), expected_version=1)
            return out
        monkeypatch.setattr(sb.bot.store, "commit_moves", then_the_other_process_moves)
        asked = reads_of_the_stored_table(sb.bot.store, monkeypatch)
        count = len(thread.all_messages)
        await ana.click(thread.last_message, "Add 1")
        await world.settle()
        posted = [m for m in thread.all_messages[count:] if not m.ephemeral]
        assert [(m.content, m.labels) for m in posted] == [("\N{BULLET} Ana adds 1: 1.", [])]
        assert asked == [1]
        assert (await sb.bot.store.get_game(1)).version == 2
    finally:
        await other.store.close()
        await world.disconnect()
