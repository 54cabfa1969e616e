"""Unseen private lines in the store (bot/store/unseen.py), on each backend: kept in order
per seat, at most 20 (the oldest go), taken once, still there after the store is
reopened, and gone when their game ends or its row is deleted."""

from __future__ import annotations

import asyncio

from bot.runtime import GameService
from bot.store import Store
from bot.store.unseen import KEPT
from tests.support.tinygame import tiny_registry


async def _game(store: Store) -> int:
    svc = GameService(store, tiny_registry())
    up = await svc.create_lobby("tiny", guild_id=None, channel_id=2, host_id=10,
                                host_name="Ana", seed=42)
    return up.record.id


async def test_lines_are_kept_per_seat_in_order_and_taken_once_after_reopening(database):
    store = await Store.open(database)
    try:
        gid = await _game(store)
        other = await _game(store)
        await store.keep_unseen(gid, "s1", ["Ana pulls **Woolly Ram** from Bo's hand."])
        await store.keep_unseen(gid, "s1", ["You draw Meadow Goat.", "You draw Trail Llama."])
        await store.keep_unseen(gid, "s2", ["You draw Kid Clover."])
        await store.keep_unseen(other, "s1", ["Another game's line."])
        await store.keep_unseen(gid, "s1", [])
    finally:
        await store.close()
    store = await Store.open(database)
    try:
        assert await store.take_unseen(gid, "s1") == [
            "Ana pulls **Woolly Ram** from Bo's hand.", "You draw Meadow Goat.",
            "You draw Trail Llama."]
        assert await store.take_unseen(gid, "s1") == []
        assert await store.take_unseen(gid, "s0") == []
        assert await store.take_unseen(gid, "s2") == ["You draw Kid Clover."]
        assert await store.take_unseen(other, "s1") == ["Another game's line."]
    finally:
        await store.close()


async def test_at_most_twenty_lines_per_seat_the_newest(store):
    gid = await _game(store)
    assert KEPT == 20
    await store.keep_unseen(gid, "s1", [f"line {i}" for i in range(15)])
    await store.keep_unseen(gid, "s1", [f"line {i}" for i in range(15, 30)])
    await store.keep_unseen(gid, "s2", ["s2's only line"])
    assert await store.take_unseen(gid, "s1") == [f"line {i}" for i in range(10, 30)]
    assert await store.take_unseen(gid, "s2") == ["s2's only line"]


async def test_two_takes_at_once_share_the_lines_never_both(store):
    gid = await _game(store)
    await store.keep_unseen(gid, "s1", ["one", "two"])
    first, second = await asyncio.gather(store.take_unseen(gid, "s1"),
                                         store.take_unseen(gid, "s1"))
    assert sorted([first, second]) == [[], ["one", "two"]]


async def test_lines_go_when_the_game_ends_or_its_row_is_deleted(store):
    gid = await _game(store)
    other = await _game(store)
    await store.keep_unseen(gid, "s1", ["one", "two"])
    await store.keep_unseen(gid, "s2", ["three"])
    await store.keep_unseen(other, "s1", ["four"])
    assert await store.drop_unseen(gid) == 3
    assert await store.take_unseen(gid, "s1") == []
    assert await store.take_unseen(gid, "s2") == []
    await store.keep_unseen(gid, "s1", ["five"])
    async with store._tx() as db:
        await db.execute("DELETE FROM games WHERE id=?", (gid,))
    rows = await store._all("SELECT game_id, seat, line FROM unseen_lines")
    assert [tuple(r) for r in rows] == [(other, "s1", "four")]
