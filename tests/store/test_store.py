"""Store: one-transaction commits, seats, timers, settings, stats - on both backends
(``[sqlite]`` and ``[postgres]``; see tests/support/databases.py)."""

from __future__ import annotations

import sqlite3

import pytest
import pytest_asyncio

from bot.store import (
    GuildSettings,
    StaleVersion,
    Store,
    StoreDown,
)
from tests.support.databases import PG_URL, SKIP_REASON
from tests.support.store_faults import active_game

needs_pg = pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)



@pytest_asyncio.fixture
async def opened(new_database):
    """``await opened()``: a migrated store on a fresh database of this run's backend;
    ``await opened(target)`` another store on the same database. All closed after."""
    stores: list[Store] = []

    async def _open(target=None, **kw):
        store = await Store.open(target or await new_database(), **kw)
        stores.append(store)
        return store

    yield _open
    for store in stores:
        await store.close()


async def test_commit_action_writes_state_and_action_together(opened):
    store = await opened()
    gid = await active_game(store)
    await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1, seat="s0",
                              action={"type": "add", "n": 1}, events=[{"type": "add"}])
    rec = await store.get_game(gid)
    assert (rec.version, rec.state) == (1, '{"v": 1}')
    log = await store.actions(gid)
    assert [(a.version, a.seat, a.action) for a in log] == [(1, "s0", {"type": "add", "n": 1})]


async def test_stale_version_writes_nothing(opened):
    store = await opened()
    gid = await active_game(store)
    with pytest.raises(StaleVersion) as info:
        await store.commit_action(gid, expected_version=5, state="{}", version=6, seat="s0",
                                  action={}, events=[])
    assert (info.value.expected, info.value.actual) == (5, 0)
    assert (await store.get_game(gid)).version == 0
    assert await store.actions(gid) == []


@pytest.mark.parametrize("together", [False, True], ids=["one-statement", "in-turn"])
async def test_a_commit_with_no_move_from_an_older_version_writes_nothing(opened, together):
    """A commit with no move (timers, seat flags, missed turns: a catch-up, "I'm back", a
    turn timeout the AI had no move for) computed from version 0 after another move
    stored version 1: StaleVersion, and the timers and seats the newer version stored
    stay. ``together``: a seat both flagged and counted, which PostgreSQL writes as
    statements in turn rather than as one. Before, it overwrote them."""
    store = await opened()
    gid = await active_game(store)
    await store.commit_moves(gid, expected_version=0, state='{"v": 1}',
                             moves=[(1, "s0", {}, [])],
                             timers=[(gid, "turn", "v1", 200.0, {"seats": ["s1"]})])
    with pytest.raises(StaleVersion) as info:
        await store.commit_moves(
            gid, expected_version=0, timers=[(gid, "turn", "v0", 100.0, {"seats": ["s0"]})],
            drop_timers=["idle"], seats={"s0": {"ai_takeover": True}},
            missed_turns=(["s0"], 3) if together else None)
    assert (info.value.expected, info.value.actual) == (0, 1)
    assert [(t.kind, t.key, t.due_at, t.payload) for t in await store.timers()] == [
        ("turn", "v1", 200.0, {"seats": ["s1"]})]
    assert [(s.missed_turns, s.ai_takeover) for s in await store.seats(gid)] == [(0, False)]
    # from the stored version, it writes
    _, missed = await store.commit_moves(
        gid, expected_version=1, timers=[(gid, "turn", "v1b", 300.0, {})],
        seats={"s0": {"ai_takeover": True}}, missed_turns=(["s0"], 3) if together else None)
    assert missed == ({"s0": 1} if together else {})
    assert [(t.key, t.due_at) for t in await store.timers()] == [("v1b", 300.0)]
    assert [(s.missed_turns, s.ai_takeover) for s in await store.seats(gid)] == [
        (1 if together else 0, True)]


async def test_a_missed_turn_is_counted_from_the_stored_count_in_the_moves_transaction(
        opened):
    """``missed_turn`` adds one to the seat's stored count with the move (the AI takes the
    seat over at the limit) and returns it; ``miss_turn`` does the same with no move; a
    seat that does not exist counts 0 and nothing changes."""
    store = await opened()
    gid = await active_game(store)
    seats = await store.seats(gid)
    assert [(s.seat, s.missed_turns, s.ai_takeover) for s in seats] == [("s0", 0, False)]
    await store.set_seat(gid, "s0", missed_turns=1)
    assert await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1,
                                     seat="s0", action={}, events=[],
                                     missed_turn=("s0", 3)) == 2
    assert [(s.missed_turns, s.ai_takeover) for s in await store.seats(gid)] == [(2, False)]
    assert await store.commit_action(gid, expected_version=1, state='{"v": 2}', version=2,
                                     seat="s0", action={}, events=[]) is None
    assert await store.miss_turn(gid, "s0", 3) == 3
    assert [(s.missed_turns, s.ai_takeover) for s in await store.seats(gid)] == [(3, True)]
    assert await store.miss_turn(gid, "s7", 3) == 0
    with pytest.raises(StaleVersion):  # a refused move counts nothing
        await store.commit_action(gid, expected_version=0, state="{}", version=1, seat="s0",
                                  action={}, events=[], missed_turn=("s0", 3))
    assert [(s.missed_turns, s.ai_takeover) for s in await store.seats(gid)] == [(3, True)]


async def test_failed_action_insert_rolls_back_the_state(opened):
    """A crash between the state write and the action write cannot leave half a move:
    a duplicate action row makes the INSERT fail, and the state UPDATE is rolled back."""
    store = await opened()
    gid = await active_game(store)
    await store._backend.write(
        "INSERT INTO actions (game_id, version, seat, action, events, created_at)"
        " VALUES (?, 1, 's9', '{}', '[]', 0)", (gid,))
    expected = sqlite3.IntegrityError if store.dialect == "sqlite" else StoreDown
    with pytest.raises(expected) as info:
        await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1,
                                  seat="s0", action={}, events=[])
    if store.dialect == "postgres":
        assert info.value.lost is False
        assert type(info.value.__cause__).__name__ == "UniqueViolationError"
    rec = await store.get_game(gid)
    assert (rec.version, rec.state) == (0, '{"v": 0}')


def count_trips(conn) -> list[str]:
    """Record (by function name) every trip the aiosqlite connection ``conn`` makes to its
    thread from now on; returns the list it appends to."""
    trips: list[str] = []
    real = conn._execute

    async def counted(fn, *args, **kw):
        trips.append(getattr(fn, "__name__", "?"))
        return await real(fn, *args, **kw)

    conn._execute = counted
    return trips


async def test_sqlite_transactions_take_one_trip_per_statement_plus_the_commit(tmp_path):
    """BEGIN IMMEDIATE goes with a transaction's first statement; a statement is one trip
    to aiosqlite's thread (no separate cursor close); a failed first statement (its BEGIN
    done) is rolled back and the next transaction works."""
    store = await Store.open(tmp_path / "a.db")
    try:
        gid = await active_game(store)
        conn = store._backend._db
        trips = count_trips(conn)
        assert await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1,
                                         seat="s0", action={}, events=[]) is None
        assert trips == ["_sqlite_begin_then", "_sqlite_rowcount", "_sqlite_rowcount",
                         "_sqlite_rowcount"]  # SELECT, UPDATE, INSERT, COMMIT
        trips.clear()
        assert await store._backend.write("UPDATE games SET seed=8 WHERE id=?", (gid,)) == 1
        assert trips == ["_sqlite_rowcount"]
        trips.clear()
        with pytest.raises(sqlite3.OperationalError):
            async with store._backend.tx() as db:
                await db.execute("UPDATE no_such_table SET x=1")
        assert trips == ["_sqlite_begin_then", "_sqlite_rollback"]
        assert not conn._conn.in_transaction
        async with store._backend.tx():
            pass  # no statement: nothing begins, nothing is sent
        await store.mark_shown(gid, 1)
        assert (await store.get_game(gid)).table_version == 1
    finally:
        await store.close()


async def test_sqlite_reads_run_at_once_on_a_query_only_connection(tmp_path):
    """Outside a transaction a read takes no trip to aiosqlite's thread; it sees every
    committed write and never a transaction in flight; the connection refuses writes. An
    in-memory database (a second connection would be another database) reads as before."""
    store = await Store.open(tmp_path / "a.db")
    try:
        gid = await active_game(store)
        conn = store._backend._db
        trips = count_trips(conn)
        assert (await store.get_game(gid)).version == 0
        assert trips == []
        async with store._backend.tx() as db:
            await db.execute("UPDATE games SET version=5 WHERE id=?", (gid,))
            assert (await db.fetchrow("SELECT version FROM games WHERE id=?", (gid,)))[0] == 5
            assert (await store.get_game(gid)).version == 0  # not committed yet
        assert (await store.get_game(gid)).version == 5
        assert trips == ["_sqlite_begin_then", "_execute_fetchall", "_sqlite_rowcount"]
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store._backend.reader.direct.execute("DELETE FROM games")
    finally:
        await store.close()
    assert store._backend.reader.direct is None
    memory = await Store.open(":memory:")
    try:
        assert memory._backend.reader.direct is None
        assert (await memory.get_game(await active_game(memory))).version == 0
    finally:
        await memory.close()


async def test_seats_refuse_duplicates_and_overflow(opened):
    store = await opened()
    rec = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                  host_name="Ana", options={}, seed=7)
    assert await store.add_seat(rec.id, user_id=3, name="Ana", is_ai=False, max_seats=2) is None
    bo = await store.add_seat(rec.id, user_id=4, name="Bo", is_ai=False, max_seats=2)
    assert (bo.seat, bo.position) == ("s1", 1)
    assert await store.add_seat(rec.id, user_id=5, name="Cy", is_ai=False, max_seats=2) is None
    assert await store.remove_seat(rec.id, "s1") is True
    ai = await store.add_seat(rec.id, user_id=None, name="AI", is_ai=True, max_seats=2)
    assert (ai.seat, ai.is_ai) == ("s1", True)


async def test_discord_sized_ids_round_trip(opened):
    """Discord ids are 64-bit: 1_300_000_000_000_000_000 fits both backends' columns."""
    store = await opened()
    big = 1_300_000_000_000_000_000
    rec = await store.create_game(kind="tiny", guild_id=big, channel_id=big + 1, host_id=big + 2,
                                  host_name="Ana", options={"x": 1}, seed=2**31 - 1)
    await store.update_game(rec.id, thread_id=big + 3)
    got = await store.game_by_thread(big + 3)
    assert (got.guild_id, got.channel_id, got.host_id, got.options, got.seed) == (
        big, big + 1, big + 2, {"x": 1}, 2**31 - 1)
    assert [g.id for g in await store.active_games_of(big + 2, big)] == [rec.id]
    assert await store.active_games_of(big + 2, 5) == []


async def test_lobby_limit_counts_open_lobbies(opened):
    store = await opened()
    for _ in range(2):
        await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                host_name="Ana", options={}, seed=7, max_open=2)
    with pytest.raises(Exception) as info:
        await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                host_name="Ana", options={}, seed=7, max_open=2)
    assert (type(info.value).__name__, info.value.open) == ("LobbyLimit", 2)
    assert await store.count_games() == {"lobby": 2}


async def test_timers_upsert_and_order(opened):
    store = await opened()
    gid = await active_game(store)
    await store.upsert_timer(gid, "rules", "k1", 50.0, {"a": 1})
    await store.upsert_timer(gid, "rules", "k2", 40.0, {"a": 2})
    await store.upsert_timer(gid, "turn", "t", 45.0, {})
    timers = await store.timers()
    assert [(t.kind, t.key, t.due_at, t.payload) for t in timers] == [
        ("rules", "k2", 40.0, {"a": 2}), ("turn", "t", 45.0, {})]
    assert await store.next_due() == 40.0
    assert [t.kind for t in await store.due_timers(44.0)] == ["rules"]
    assert await store.delete_timer(gid, "turn") == 1
    assert await store.delete_timer(gid) == 1
    assert await store.timers() == []
    assert await store.next_due() is None


async def test_game_and_deadlines_reads_the_game_and_its_table_timers_in_one_query(opened):
    store = await opened()
    gid = await active_game(store)
    assert await store.game_and_deadlines(gid) == (await store.get_game(gid), {})
    await store.upsert_timer(gid, "rules", "k1", 50.5, {"a": 1})
    await store.upsert_timer(gid, "archive", "a", 90.0, {})
    record, due = await store.game_and_deadlines(gid)
    assert (record, due) == (await store.get_game(gid), {"rules": 50.5})
    await store.upsert_timer(gid, "turn", "t", 45.0, {})
    assert (await store.game_and_deadlines(gid))[1] == {"rules": 50.5, "turn": 45.0}
    other = await active_game(store)
    assert await store.game_and_deadlines(other) == (await store.get_game(other), {})
    assert await store.game_and_deadlines(999) == (None, {})


async def test_load_game_gives_the_seats_and_timers_the_full_reads_give(opened):
    """One query (``load_game``) reads every stored field of the game's seats and timers,
    exactly as the reads of whole rows do: a seat with every field set away from its
    default, and a timer due at a time that needs all 17 digits of a double."""
    store = await opened()
    gid = (await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                   host_name="Ana", options={}, seed=7)).id
    await store.add_seat(gid, user_id=None, name="AI Bo", is_ai=True, max_seats=4,
                         ai_level="hard")
    await store.start_game(gid, state='{"v": 0}', version=0)
    for seat in await store.seats(gid):
        await store.set_seat(gid, seat.seat, missed_turns=2, ai_takeover=True,
                             dm_hand="7:[1, 2]")
    await store.upsert_timer(gid, "rules", "k1", 1764835200.1234567, {"a": [1, "b"]})
    await store.upsert_timer(gid, "turn", "t", 45.0, {})
    bundle = await store.load_game(gid)
    assert bundle is not None
    assert bundle.record == await store.get_game(gid)
    assert bundle.seats == await store.seats(gid)
    assert [s.ai_level for s in bundle.seats] == ["normal", "hard"]
    assert bundle.timers == {"rules": await store.timer(gid, "rules"),
                             "turn": await store.timer(gid, "turn")}
    assert bundle.timers["rules"].due_at == 1764835200.1234567


async def test_settings_prefs_and_stats(opened):
    store = await opened()
    assert (await store.guild_settings(9)).turn_timer is None
    await store.save_guild_settings(GuildSettings(guild_id=9, turn_timer="10m", dm_notifications=False))
    await store.save_guild_settings(GuildSettings(guild_id=9, turn_timer="2m", dm_notifications=False,
                                                  max_open_lobbies=4))
    s = await store.guild_settings(9)
    assert (s.turn_timer, s.dm_notifications, s.max_open_lobbies) == ("2m", False, 4)
    await store.set_member_prefs(4, dm_closed=True)
    await store.set_member_prefs(4, turn_notices=True)
    assert await store.member_prefs(4) == {"dm_opt_out": False, "dm_closed": True,
                                           "dm_closed_told": False, "turn_notices": True}
    await store.record_result(9, "tiny", [(4, True, 12), (5, False, 8)])
    await store.record_result(9, "tiny", [(4, False, 15), (5, True, 20)])
    await store.record_result(9, "tiny", [(5, False, 3)])
    rows = await store.stats(9, kind="tiny")
    assert [(r.user_id, r.played, r.won, r.best_score) for r in rows] == [(4, 2, 1, 15), (5, 3, 1, 20)]
    assert [r.user_id for r in await store.stats(9, user_id=5)] == [5]
    assert await store.forget_stats(4, 9) == 1
    assert [r.user_id for r in await store.stats(9)] == [5]
    assert await store.forget_stats(5) == 1


async def test_a_final_move_writes_its_stats_in_the_same_transaction(store):
    """commit_action with ``result`` adds the stats rows; a stale version writes neither the
    move nor the stats."""
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


async def test_shown_version_result_once_and_idle_setting_on_each_backend(store):
    """The catch-up columns (migrations 5-6): ``table_version`` only grows and a finished
    game behind it is listed; a result given with ``game_id`` is recorded once; a reset
    lobby forgets its table and ping; ``end_idle_games`` and 64-bit ids round-trip."""
    gid = await active_game(store)
    await store.update_game(gid, pinged_key="turn:s0", table_message_id=1_400_000_000_000_000_002)
    await store.mark_shown(gid, 3)
    await store.mark_shown(gid, 2)  # an older post never lowers it
    assert (await store.get_game(gid)).table_version == 3
    await store.commit_action(gid, expected_version=0, state="{}", version=4, seat="s0",
                              action={}, events=[], status="finished")
    assert [g.id for g in await store.finished_games_behind()] == [gid]
    await store.mark_shown(gid, 4)
    assert await store.finished_games_behind() == []
    rows = [(4, True, 20)]
    assert await store.record_result(9, "tiny", rows, game_id=gid) is True
    assert await store.record_result(9, "tiny", rows, game_id=gid) is False
    assert [(r.user_id, r.played, r.won) for r in await store.stats(9)] == [(4, 1, 1)]
    other = await active_game(store)
    await store.update_game(other, pinged_key="turn:s0", table_version=0)
    assert await store.reset_to_lobby(other) is True
    row = await store._one("SELECT status, pinged_key, table_version FROM games WHERE id=?",
                           (other,))
    assert tuple(row) == ("lobby", None, None)
    await store.save_guild_settings(GuildSettings(guild_id=1_300_000_000_000_000_000,
                                                  end_idle_games=False))
    assert (await store.guild_settings(1_300_000_000_000_000_000)).end_idle_games is False
    await store.save_guild_settings(GuildSettings(guild_id=1_300_000_000_000_000_000,
                                                  end_idle_games=True, turn_timer="24h"))
    got = await store.guild_settings(1_300_000_000_000_000_000)
    assert (got.end_idle_games, got.turn_timer) == (True, "24h")
    assert got.one_message is None
    await store.save_guild_settings(got.model_copy(update={"one_message": True}))
    got = await store.guild_settings(1_300_000_000_000_000_000)
    assert (got.one_message, got.end_idle_games, got.turn_timer) == (True, True, "24h")


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
    await store._backend.write("UPDATE timers SET payload='{x' WHERE id=?", (tid,))
    assert await store.due_timers(20.0) == [] and await store.timer(game.id, "turn") is None
    assert store.unreadable_timers == {tid: (game.id, "'turn' timer: JSONDecodeError: Expecting "
                                             "property name enclosed in double quotes: line 1 "
                                             "column 2 (char 1)")}
    # Written again over the same game and kind (same row id): the new timer is kept.
    await store.upsert_timer(game.id, "turn", "k2", 30.0, {})
    assert await store.delete_timer_row(tid) is False
    assert [(t.id, t.key, t.due_at) for t in await store.timers()] == [(tid, "k2", 30.0)]
    if store.dialect == "sqlite":
        # A due time that is not a number is never due, and next_due ignores it.
        await store._backend.write("UPDATE timers SET due_at='soon' WHERE id=?", (tid,))
        assert await store.next_due() is None and await store.due_timers(1e12) == []
    else:  # a PostgreSQL due_at holds numbers only: unreadable by its payload again
        await store._backend.write("UPDATE timers SET payload='[' WHERE id=?", (tid,))
        assert await store.due_timers(1e12) == [] and await store.next_due() == 30.0
    assert await store.delete_timer_row(tid) is True
    assert await store.timers() == []
