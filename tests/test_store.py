"""Store: migrations, one-transaction commits, seats, timers, settings, stats."""

from __future__ import annotations

import sqlite3

import pytest
import pytest_asyncio

from bot.store import GuildSettings, StaleVersion, Store
from bot.store.migrations import MIGRATIONS, SCHEMA_VERSION


async def test_migrate_from_empty_reaches_latest(tmp_path):
    store = await Store.open(tmp_path / "a.db")
    assert await store.user_version() == SCHEMA_VERSION == len(MIGRATIONS) == 6
    async with store._db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    async with store._db.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1
    await store.close()


@pytest.mark.parametrize("start", range(0, SCHEMA_VERSION + 1))
async def test_migrate_from_each_earlier_version(tmp_path, start):
    path = tmp_path / "b.db"
    store = await Store.open(path, migrate=False)
    assert await store.migrate(target=start) == start
    await store.close()
    if start >= 1:  # rows as that schema holds them: a lobby, and a game with its table posted
        with sqlite3.connect(path) as conn:
            conn.executemany(
                "INSERT INTO games (kind, guild_id, channel_id, table_message_id, host_id, status,"
                " seed, state, version, created_at, updated_at) VALUES"
                " ('tiny', 1, 2, ?, 3, ?, 7, ?, ?, 0, 0)",
                [(None, "lobby", None, 0), (99, "active", "{}", 4), (98, "finished", "{}", 9)])
            conn.execute("INSERT INTO seats (game_id, seat, position, user_id, name)"
                         " VALUES (1, 's0', 0, 3, 'Ana')")
    store = await Store.open(path)
    assert await store.user_version() == SCHEMA_VERSION
    if start >= 1:
        seats = await store.seats(1)
        assert [(s.seat, s.name, s.missed_turns, s.ai_takeover) for s in seats] == [
            ("s0", "Ana", 0, False)
        ]
    if 1 <= start < 5:
        # A table posted before migration 5 counts as showing the stored version, and a
        # game finished before it as scored.
        assert [(g.id, g.table_version) for g in await store.games_with_status(
            "lobby", "active", "finished")] == [(1, None), (2, 4), (3, 9)]
        async with store._db.execute("SELECT id, result_recorded FROM games") as cur:
            assert [tuple(r) for r in await cur.fetchall()] == [(1, 0), (2, 0), (3, 1)]
    await store.close()


@pytest_asyncio.fixture
async def opened():
    """Open stores through ``await opened(path)``; all are closed after the test."""
    stores: list[Store] = []

    async def _open(path, **kw):
        store = await Store.open(path, **kw)
        stores.append(store)
        return store

    yield _open
    for store in stores:
        await store.close()


async def _active_game(store: Store) -> int:
    rec = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                  host_name="Ana", options={}, seed=7)
    await store.start_game(rec.id, state='{"v": 0}', version=0)
    return rec.id


async def test_commit_action_writes_state_and_action_together(tmp_path, opened):
    store = await opened(tmp_path / "c.db")
    gid = await _active_game(store)
    await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1, seat="s0",
                              action={"type": "add", "n": 1}, events=[{"type": "add"}])
    rec = await store.get_game(gid)
    assert (rec.version, rec.state) == (1, '{"v": 1}')
    log = await store.actions(gid)
    assert [(a.version, a.seat, a.action) for a in log] == [(1, "s0", {"type": "add", "n": 1})]


async def test_stale_version_writes_nothing(tmp_path, opened):
    store = await opened(tmp_path / "d.db")
    gid = await _active_game(store)
    with pytest.raises(StaleVersion) as info:
        await store.commit_action(gid, expected_version=5, state="{}", version=6, seat="s0",
                                  action={}, events=[])
    assert (info.value.expected, info.value.actual) == (5, 0)
    assert (await store.get_game(gid)).version == 0
    assert await store.actions(gid) == []


async def test_failed_action_insert_rolls_back_the_state(tmp_path, opened):
    """A crash between the state write and the action write cannot leave half a move:
    a duplicate action row makes the INSERT fail, and the state UPDATE is rolled back."""
    store = await opened(tmp_path / "e.db")
    gid = await _active_game(store)
    await store._db.execute(
        "INSERT INTO actions (game_id, version, seat, action, events, created_at)"
        " VALUES (?, 1, 's9', '{}', '[]', 0)", (gid,))
    with pytest.raises(sqlite3.IntegrityError):
        await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1,
                                  seat="s0", action={}, events=[])
    rec = await store.get_game(gid)
    assert (rec.version, rec.state) == (0, '{"v": 0}')


async def test_seats_refuse_duplicates_and_overflow(tmp_path, opened):
    store = await opened(tmp_path / "f.db")
    rec = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                  host_name="Ana", options={}, seed=7)
    assert await store.add_seat(rec.id, user_id=3, name="Ana", is_ai=False, max_seats=2) is None
    bo = await store.add_seat(rec.id, user_id=4, name="Bo", is_ai=False, max_seats=2)
    assert (bo.seat, bo.position) == ("s1", 1)
    assert await store.add_seat(rec.id, user_id=5, name="Cy", is_ai=False, max_seats=2) is None
    assert await store.remove_seat(rec.id, "s1") is True
    ai = await store.add_seat(rec.id, user_id=None, name="AI", is_ai=True, max_seats=2)
    assert (ai.seat, ai.is_ai) == ("s1", True)


async def test_timers_upsert_and_order(tmp_path, opened):
    store = await opened(tmp_path / "g.db")
    gid = await _active_game(store)
    await store.upsert_timer(gid, "rules", "k1", 50.0, {"a": 1})
    await store.upsert_timer(gid, "rules", "k2", 40.0, {"a": 2})
    await store.upsert_timer(gid, "turn", "t", 45.0, {})
    timers = await store.timers()
    assert [(t.kind, t.key, t.due_at) for t in timers] == [("rules", "k2", 40.0), ("turn", "t", 45.0)]
    await store.delete_timer(gid)
    assert await store.timers() == []


async def test_settings_prefs_and_stats(tmp_path, opened):
    store = await opened(tmp_path / "h.db")
    assert (await store.guild_settings(9)).turn_timer is None
    await store.save_guild_settings(GuildSettings(guild_id=9, turn_timer="10m", dm_notifications=False))
    s = await store.guild_settings(9)
    assert (s.turn_timer, s.dm_notifications) == ("10m", False)
    await store.set_member_prefs(4, dm_closed=True)
    assert await store.member_prefs(4) == {"dm_opt_out": False, "dm_closed": True,
                                           "dm_closed_told": False, "turn_notices": False}
    await store.record_result(9, "tiny", [(4, True, 12), (5, False, 8)])
    await store.record_result(9, "tiny", [(4, False, 15), (5, True, 20)])
    rows = await store.stats(9, kind="tiny")
    assert [(r.user_id, r.played, r.won, r.best_score) for r in rows] == [(4, 2, 1, 15), (5, 2, 1, 20)]
    assert await store.forget_stats(4, 9) == 1
    assert [r.user_id for r in await store.stats(9)] == [5]


async def test_a_final_move_writes_its_stats_in_the_same_transaction(store):
    """Issue 15 item 3: commit_action with ``result`` adds the stats rows; a stale version
    writes neither the move nor the stats."""
    game = await store.create_game(kind="tiny", guild_id=9, channel_id=2, host_id=4,
                                   host_name="Ana", options={}, seed=7)
    await store.start_game(game.id, state="{}", version=0)
    with pytest.raises(StaleVersion):
        await store.commit_action(game.id, expected_version=3, state="{}", version=4, seat="s0",
                                  action={}, events=[], status="finished",
                                  result=(9, "tiny", [(4, True, 20)]))
    assert await store.stats(9) == []
    await store.commit_action(game.id, expected_version=0, state="{}", version=1, seat="s0",
                              action={}, events=[], status="finished",
                              result=(9, "tiny", [(4, True, 20), (5, False, 12)]))
    rows = [(r.user_id, r.played, r.won, r.best_score) for r in await store.stats(9)]
    assert rows == [(4, 1, 1, 20), (5, 1, 0, 12)]
    assert (await store.get_game(game.id)).status == "finished"


async def test_dm_channel_kept_beside_the_member_preferences(store):
    assert await store.dm_channel(8) is None
    await store.set_member_prefs(8, turn_notices=True)
    await store.set_dm_channel(8, 777)
    await store.set_member_prefs(8, dm_opt_out=True)
    assert await store.dm_channel(8) == 777
    assert (await store.member_prefs(8))["turn_notices"] is True


async def test_an_unreadable_timer_row_is_skipped_noted_and_dropped_only_while_unreadable(store):
    game = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                   host_name="Ana", options={}, seed=7)
    tid = (await store.upsert_timer(game.id, "turn", "k1", 10.0, {"seats": ["s0"]})).id
    await store._db.execute("UPDATE timers SET payload='{x' WHERE id=?", (tid,))
    assert await store.due_timers(20.0) == [] and await store.timer(game.id, "turn") is None
    assert store.unreadable_timers == {tid: (game.id, "'turn' timer: JSONDecodeError: Expecting "
                                             "property name enclosed in double quotes: line 1 "
                                             "column 2 (char 1)")}
    # Written again over the same game and kind (same row id): the new timer is kept.
    await store.upsert_timer(game.id, "turn", "k2", 30.0, {})
    assert await store.delete_timer_row(tid) is False
    assert [(t.id, t.key, t.due_at) for t in await store.timers()] == [(tid, "k2", 30.0)]
    # A due time that is not a number is never due, and next_due ignores it.
    await store._db.execute("UPDATE timers SET due_at='soon' WHERE id=?", (tid,))
    assert await store.next_due() is None and await store.due_timers(1e12) == []
    assert await store.delete_timer_row(tid) is True
    assert await store.timers() == []
