"""Lessons in the runtime (bot/runtime/lessons.py): started without a lobby with Easy AI
seats, unrated and out of stats, told steps kept, ended quietly after a week (both
backends)."""

from __future__ import annotations

import pytest_asyncio

from bot.app import builtin_games
from bot.games.base import Result
from bot.runtime import GameService, ManualClock
from bot.runtime.advance import rating_of
from bot.runtime.core import LESSON_IDLE_S
from bot.runtime.lessons import SAID


@pytest_asyncio.fixture
async def lessons(store):
    svc = GameService(store, builtin_games(), clock=ManualClock())
    await svc.timers.start()
    yield svc
    await svc.timers.stop()


async def test_a_lesson_starts_at_once_against_easy_ai_seats_unrated_without_a_turn_timer(
        lessons):
    update = await lessons.start_lesson("llamas-alpacas", user_id=11, name="Ana", guild_id=5,
                                        channel_id=77, seed=7, ai_seats=1)
    record = update.record
    assert record.status == "active" and record.seed == 7
    assert record.channel_id == record.thread_id == 77
    assert record.options["lesson"] is True and record.options["rated"] is False
    assert record.options["turn_timer"] == "off"
    assert [(s.seat, s.user_id, s.is_ai, s.ai_level) for s in update.seats] == [
        ("s0", 11, False, "normal"), ("s1", None, True, "easy")]
    assert (await lessons.lesson_of_member(11)).id == record.id
    assert await lessons.lesson_of_member(12) is None
    idle = await lessons.store.timer(record.id, "idle")
    assert idle.due_at == lessons.clock.now() + LESSON_IDLE_S
    assert idle.payload == {"stage": "end", "version": update.state.version}
    assert await lessons.store.timer(record.id, "turn") is None
    assert await lessons.store.timer(record.id, "lobby") is None


async def test_the_steps_told_are_kept_in_the_lessons_options(lessons):
    update = await lessons.start_lesson("pacapaca", user_id=11, name="Ana", guild_id=None,
                                        channel_id=77, seed=5, ai_seats=1)
    gid = update.record.id
    await lessons.lesson_said(gid, ["start"])
    await lessons.lesson_said(gid, ["drawn", "start"])
    assert (await lessons.get(gid)).options[SAID] == ["drawn", "start"]


async def test_a_finished_lesson_is_neither_rated_nor_counted(lessons):
    update = await lessons.start_lesson("llamas-alpacas", user_id=11, name="Ana", guild_id=5,
                                        channel_id=77, seed=7, ai_seats=1)
    result = Result(scores={"s0": 20, "s1": 3}, winners=["s0"])
    assert lessons.stats_of(update.record, update.seats, update.spec, result) is None
    assert rating_of(update.record, update.seats, update.spec, result) is None
    # The same game outside a lesson would count.
    plain = update.record.model_copy(update={"options": {}})
    assert lessons.stats_of(plain, update.seats, update.spec, result) == (
        5, "llamas-alpacas", [(11, True, 20)])


async def test_a_lesson_nobody_moves_in_for_a_week_ends_and_says_nothing(lessons):
    published = []

    async def seen(update):
        published.append(update.kind)

    lessons.subscribe(seen)
    update = await lessons.start_lesson("llamas-alpacas", user_id=11, name="Ana", guild_id=5,
                                        channel_id=77, seed=7, ai_seats=1)
    lessons.clock.advance(LESSON_IDLE_S)
    await lessons.timers.fire_due()
    assert (await lessons.get(update.record.id)).status == "ended"
    assert published == []
    assert await lessons.store.timer(update.record.id, "idle") is None
    assert await lessons.store.timer(update.record.id, "archive") is None
