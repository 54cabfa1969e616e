"""Regression tests for the faults this suite found in product code (fixed in commit
687c5dc): each test failed before the fix, for the reason in its docstring.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from bot.runtime import GameService, ManualClock
from bot.store import Store, sqlite
from tests.faults.common import (
    MOVED_ON,
    answer_text,
    answered,
    click_injected,
    click_raw,
    make_bot,
    start_tiny,
)
from tests.faults.test_isolation import FULL, STORE_DOWN
from tests.support import headline, rows
from tests.support.tinygame import tiny_registry


async def test_a_click_on_a_button_already_removed_from_its_message_is_answered(world, sb):
    """Before the fix: bot/discord: a click on an hb:/hs: id that is not a component
    of the interaction's message (the table was reposted and its old buttons removed
    between the click and the interaction) matches the DynamicItem template, so
    HerdBot.on_interaction ignores it, and discord.py's
    ViewStore.schedule_dynamic_item_call silently returns when the message has no
    such component: the member gets no answer at all."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    first = lobby.thread.last_message
    await ana.click(first, "Add 1")
    assert rows(first) == []  # post_table retired its buttons
    it = await click_raw(sb, bo, first, "hb:g:1:0:add.1")
    assert (await sb.bot.store.get_game(1)).version == 1
    assert answered(it) and answer_text(it).startswith(MOVED_ON)


async def test_an_hb_id_with_a_line_feed_is_answered(world, sb):
    """Before the fix: bot/discord: HerdButton's template r'hb:(?P<rest>.*)' does
    not match an id with a line feed ('.' without DOTALL) while
    HerdBot.on_interaction skips every id starting with 'hb:'/'hs:': such a click is
    answered by nobody."""
    it = await click_injected(sb, world.member("Ana"), world.main, "hb:g:1:0:add.1\n")
    assert answered(it)
    assert "This button is not one herdbot understands." in answer_text(it)


class Crash(BaseException):
    """Stands for the process dying (SIGKILL): nothing after it runs."""


async def test_a_timer_whose_firing_was_cut_by_a_crash_fires_after_the_restart(database):
    """Before the fix: bot/runtime/timers.py: TimerService.fire_due deletes the
    timer row (committed) BEFORE running its handler; a crash in between loses the
    timer, so after a restart the game waits for ever (tiny Wait / Pacapaca
    negotiation / Unleashed reaction window). On PostgreSQL the dead process's claim on
    the timer holds until its lease ends; then the restarted process takes it over."""
    db = database
    clock = ManualClock()
    store = await Store.open(db, clock=clock.now)
    svc = GameService(store, tiny_registry(), clock=clock)
    lobby = await svc.create_lobby("tiny", guild_id=1, channel_id=2, host_id=10,
                                   host_name="Ana", seed=7)
    gid = lobby.record.id
    await svc.join(gid, 11, "Bo")
    await svc.start(gid, 10)
    await svc.act(gid, "s0", {"type": "wait"})
    assert (await store.timer(gid, "rules")) is not None

    async def die(timer):  # the process is killed as the handler starts
        raise Crash

    svc.timers._handler = die
    clock.advance(31)
    with pytest.raises(Crash):
        await svc.timers.fire_due()
    await store.close()

    store = await Store.open(db, clock=clock.now)
    svc = GameService(store, tiny_registry(), clock=clock)
    await svc.timers.start()
    try:
        if store.dialect == "postgres":  # claimed by the dead process until its lease ends
            assert await svc.timers.fire_due() == 0
            assert await store.next_due() == clock.now() + Store.TIMER_LEASE_S
            clock.advance(Store.TIMER_LEASE_S)
        await svc.timers.fire_due()
        state = tiny_registry()["tiny"].engine.load_state((await store.get_game(gid)).state)
        assert not state.waiting, "the rules timer was lost: the game waits for ever"
        assert [a.action for a in await store.actions(gid)][-1] == {"type": "stop_waiting"}
    finally:
        await svc.timers.stop()
        await store.close()


async def test_a_move_whose_timers_cannot_be_written_is_not_made(world, clock, tmp_path,
                                                                  monkeypatch):
    """Before the fix: bot/runtime/service.py: GameService.act committed the action, then
    armed the timers in separate transactions (_sync_timers); a crash in between left a
    state waiting on a rules deadline with no timer row, and the game waited for ever.
    Now the move and its timers are one transaction, so that gap is gone: a timer write
    that fails rolls the move back (nothing half-written), the member is told it was not
    done, and the same click once the disk works makes the move with its timer, which
    fires after a restart."""
    db = tmp_path / "arm.sqlite3"
    sb = await world.connect(make_bot(db, clock))
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    statement = sqlite.sqlite_statement

    def on_thread(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> Any:
        if sql.startswith("INSERT INTO timers"):
            raise sqlite3.OperationalError(FULL)
        return statement(conn, sql, args)

    with monkeypatch.context() as patch:
        patch.setattr(sqlite, "sqlite_statement", on_thread)
        await ana.click(thread.last_message, "Wait")
    assert headline(ana.last_reply) == STORE_DOWN and ana.last_reply.ephemeral
    store = sb.bot.store
    assert (await store.get_game(1)).version == 0
    assert await store.actions(1) == []
    assert await store.timer(1, "rules") is None

    await ana.click(thread.last_message, "Wait")
    assert (await store.get_game(1)).version == 1
    assert await store.timer(1, "rules") is not None
    await world.disconnect()

    sb = await world.connect(make_bot(db, clock))  # the restart
    clock.advance(31)
    await sb.bot.service.timers.fire_due()
    await sb.settle()
    state = tiny_registry()["tiny"].engine.load_state((await sb.bot.store.get_game(1)).state)
    assert not state.waiting, "no timer fired: the game waits for ever"
    await world.disconnect()
