"""bot.store.tracking: which games a request's committed writes note, on both backends."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import pytest

from bot.store import (
    StaleVersion,
    postgres,
    sqlite,
    stop_tracking,
    tracking_writes,
)
from tests.support.databases import PG_URL, SKIP_REASON
from tests.support.store_faults import COMMIT_ERROR, active_game, commits_fail, noted_by

needs_pg = pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)



async def test_a_request_notes_the_games_its_committed_writes_changed_and_no_others(store):
    """bot.store.tracking: a committed change of a game's play (lobby, seats, start, move,
    options, status) notes the game for the request tracking its writes; bookkeeping of
    what is shown, timers, refused and rolled-back writes note nothing; tasks the request
    creates count for it, background jobs (``stop_tracking``) and untracked code do not."""
    untracked = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                        host_name="Ana", options={}, seed=7)
    with tracking_writes() as lobby:
        rec = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=4,
                                      host_name="Bo", options={}, seed=7)
    assert lobby == {rec.id} and untracked.id != rec.id
    with tracking_writes() as seated:
        await store.add_seat(untracked.id, user_id=None, name="AI", is_ai=True, max_seats=4)
    assert seated == {untracked.id}
    with tracking_writes() as shown:
        assert await store.update_game(rec.id, lobby_message_id=9, pinged_key="k")
        await store.mark_shown(rec.id, 0)
        await store.set_seat(rec.id, "s0", dm_hand="hand")
        await store.upsert_timer(rec.id, "lobby", "k", 100.0, {})
    assert shown == set()
    gid = await active_game(store)
    with tracking_writes() as refused:
        with pytest.raises(StaleVersion):  # rolled back
            await store.commit_action(gid, expected_version=5, state="{}", version=6,
                                      seat="s0", action={}, events=[])
        assert not await store.remove_seat(gid, "s0")  # not a lobby: nothing removed
        assert not await store.update_game(gid, when_status="lobby", status="cancelled")
        assert await store.add_seat(gid, user_id=None, name="AI", is_ai=True,
                                    max_seats=4) is None
    assert refused == set()
    with tracking_writes() as played:
        await store.commit_action(gid, expected_version=0, state="{}", version=1, seat="s0",
                                  action={}, events=[])
        await asyncio.create_task(store.update_game(rec.id, options={"x": 1}))

        async def background() -> None:
            stop_tracking()
            await store.set_seat(untracked.id, "s0", ai_takeover=True)
        await asyncio.create_task(background())
    assert played == {gid, rec.id}
    with tracking_writes() as outer:
        with tracking_writes() as inner:
            await store.set_seat(gid, "s0", missed_turns=1)
        await store.update_game(gid, status="finished")
    assert (outer, inner) == ({gid}, {gid})


async def test_a_commit_that_raises_after_it_was_applied_notes_the_game(store, monkeypatch):
    """Every write of a game's play whose COMMIT the database applied, though the COMMIT
    raised, notes the game for the request (PostgreSQL asks the server, which answers
    "committed"; SQLite cannot tell, so it notes: the request's before/after comparison
    decides). Before: nothing was noted, so a member whose move was saved was told "this
    was not done". Bookkeeping of what is shown notes nothing, as when it commits."""
    error = COMMIT_ERROR[store.dialect]
    with commits_fail(store, monkeypatch, applied=True) as fail:
        assert await noted_by(store.create_game(
            kind="tiny", guild_id=1, channel_id=2, host_id=3, host_name="Ana", options={},
            seed=7), error) == {1}
        assert await noted_by(store.add_seat(1, user_id=None, name="AI", is_ai=True,
                                             max_seats=4), error) == {1}
        assert await noted_by(store.add_seat(1, user_id=4, name="Bo", is_ai=False,
                                             max_seats=4), error) == {1}
        assert await noted_by(store.remove_seat(1, "s1"), error) == {1}
        assert await noted_by(store.update_game(1, options={"x": 1}), error) == {1}
        assert await noted_by(store.renumber_seats(1), error) == {1}
        assert await noted_by(store.start_game(1, state='{"v": 0}', version=0), error) == {1}
        assert await noted_by(store.commit_action(
            1, expected_version=0, state='{"v": 1}', version=1, seat="s0", action={},
            events=[]), error) == {1}
        assert await noted_by(store.set_seat(1, "s0", ai_takeover=True), error) == {1}
        assert await noted_by(store.record_result(1, "tiny", [(3, True, 1)], game_id=1),
                              error) == {1}
        assert await noted_by(store.mark_shown(1, 1), error) == set()
        assert await noted_by(store.update_game(1, table_message_id=5), error) == set()
        assert await noted_by(store.set_seat(1, "s0", dm_hand="h"), error) == set()
        assert await noted_by(store.reset_to_lobby(1), error) == {1}
        fail["on"] = False
    game = await store.get_game(1)  # every write above was applied
    assert (game.status, game.version, game.options, game.table_message_id) == (
        "lobby", 0, {"x": 1}, None)
    assert [(s.seat, s.name, s.ai_takeover, s.dm_hand) for s in await store.seats(1)] == [
        ("s0", "Ana", True, "h"), ("s1", "Bo", False, None)]
    assert [(r.user_id, r.played, r.won, r.best_score)
            for r in await store.stats(1, kind="tiny")] == [(3, 1, 1, 1)]


async def test_a_statement_or_commit_that_fails_before_it_is_applied_notes_nothing(
        store, monkeypatch):
    """A transaction that did not get through notes nothing: a statement that raises
    before the COMMIT (rolled back), and a COMMIT the database did not apply (SQLite
    refused it: the backend rolls the still open transaction back - before, it stayed
    open and the next write failed, "cannot start a transaction within a transaction";
    PostgreSQL lost the connection before the COMMIT arrived: the server, asked, answers
    "aborted", so a concurrent move cannot be taken for this one)."""
    gid = await active_game(store)
    move = {"seat": "s0", "action": {}, "events": []}
    with commits_fail(store, monkeypatch, applied=False) as fail:
        assert await noted_by(store.commit_action(
            gid, expected_version=0, state='{"v": 1}', version=1, **move)) == set()
        fail["on"] = False
        assert await store.update_game(gid, options={"x": 1})  # the next write works
        fail["on"] = True
        assert await noted_by(store.update_game(gid, options={"x": 2})) == set()
        fail["on"] = False
    if store.dialect == "sqlite":
        statement = sqlite.sqlite_statement

        def on_thread(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> Any:
            if sql.startswith("INSERT INTO actions"):
                raise sqlite3.OperationalError("database or disk is full")
            return statement(conn, sql, args)
        monkeypatch.setattr(sqlite, "sqlite_statement", on_thread)
    else:
        execute = postgres.PgConn.execute

        async def lost(self: postgres.PgConn, sql: str, args: Any = ()) -> int:
            if sql.startswith("INSERT INTO actions"):
                self._target.terminate()  # the connection drops before the statement
            return await execute(self, sql, args)
        monkeypatch.setattr(postgres.PgConn, "execute", lost)
    assert await noted_by(store.commit_action(
        gid, expected_version=0, state='{"v": 1}', version=1, **move)) == set()
    monkeypatch.undo()
    game = await store.get_game(gid)  # nothing refused was applied
    assert (game.version, game.options, await store.actions(gid)) == (0, {"x": 1}, [])
    with tracking_writes() as games:  # and the next write goes through
        await store.commit_action(gid, expected_version=0, state='{"v": 1}', version=1, **move)
    assert games == {gid}
    assert [a.version for a in await store.actions(gid)] == [1]
