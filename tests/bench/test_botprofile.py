"""bench.botprofile: the refusing window (``BENCH_PROFILE_CLOCK=refuse``) and the timing
of coroutine steps."""

from __future__ import annotations

import asyncio
import time

import pytest
from discord.gateway import DiscordWebSocket

import bot.discord.bot as herd
from bench.botprofile import Refusing, Steps
from bot.runtime.admission import Admission
from tests.discord.test_admission import BUSY, start_tiny


def test_while_on_every_request_is_refused_and_counted_and_off_restores_what_it_changed():
    original = (Admission.refuses, DiscordWebSocket.received_message, herd.refuse_unbuilt)
    admission = Admission()
    refusing = Refusing()
    refusing.on()
    refusing.on()  # (once on, on again changes nothing)
    try:
        assert DiscordWebSocket.received_message is not original[1]
        assert herd.refuse_unbuilt is not original[2]
        assert admission.enter() is False
        assert admission.enter(continuing=True) is False
        assert admission.enter(step=1) is False
        assert admission.refuses() is True
        assert (admission.refused, admission.in_flight, admission.admitted) == (4, 0, 0)
    finally:
        refusing.off()
    assert (Admission.refuses, DiscordWebSocket.received_message,
            herd.refuse_unbuilt) == original
    assert admission.enter() is True
    assert (admission.refused, admission.in_flight, admission.admitted) == (4, 1, 1)
    refusing.off()  # (off when off changes nothing)
    assert Admission.refuses is original[0]
    assert refusing.figures() == {"gateway_messages": 0, "gateway_messages_cpu_s": 0.0,
                                  "busy_answers": 0, "busy_answers_cpu_s": 0.0}


def spin(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


async def test_steps_sum_the_cpu_of_a_coroutines_steps_and_not_of_its_waits():
    steps = Steps()

    async def work(x: int) -> int:
        spin(0.02)
        await asyncio.sleep(0.05)  # (waiting: no CPU of its own)
        spin(0.02)
        return x + 1

    timed = steps.wrap(work)
    assert await asyncio.gather(timed(1), timed(2)) == [2, 3]
    assert steps.count == 2
    assert 0.08 <= steps.cpu_s < 0.12


async def test_while_on_the_bot_answers_a_click_busy_and_the_answer_is_counted(world, sb):
    thread = await start_tiny(world)
    ana = world.member("Ana")
    before = await sb.bot.store.get_game(1)
    refusing = Refusing()
    refusing.on()
    try:
        await ana.click(thread.last_message, "Add 1")
    finally:
        refusing.off()
    assert ana.last_reply.ephemeral and ana.last_reply.content == BUSY
    after = await sb.bot.store.get_game(1)
    assert (after.version, after.state) == (before.version, before.state)
    figures = refusing.figures()
    assert (figures["busy_answers"], figures["gateway_messages"]) == (1, 0)  # (no websocket)
    assert figures["busy_answers_cpu_s"] > 0
    refusing.on()  # (each switch on counts afresh)
    refusing.off()
    assert refusing.figures()["busy_answers"] == 0


async def test_steps_pass_on_an_exception_and_a_cancellation():
    steps = Steps()

    async def fails() -> None:
        await asyncio.sleep(0)
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        await steps.wrap(fails)()
    waiting = asyncio.ensure_future(steps.wrap(asyncio.sleep)(10))
    await asyncio.sleep(0.01)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert steps.count == 2


async def test_steps_let_a_coroutine_that_catches_a_cancellation_go_on_and_return():
    steps = Steps()

    async def stubborn() -> str:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            await asyncio.sleep(0)
            return "finished anyway"
        return "slept"

    task = asyncio.ensure_future(steps.wrap(stubborn)())
    await asyncio.sleep(0.01)
    task.cancel()
    assert await task == "finished anyway"
