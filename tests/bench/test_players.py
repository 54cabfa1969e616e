"""bench.players: a player the bot refused presses again after a pause, up to three tries,
and stops when the decision went meanwhile; every try's clicks belong to the move."""

from __future__ import annotations

import random

import pytest

from bench import players
from bench.players import Players
from bench.schedule import Game, Move
from bot.sandbox.drivers import NotLegal


class _Click:
    def __init__(self, t0: float):
        self.bench_t0 = t0


class _Bench(Players):
    """A bench whose driver answers each try with the next of ``outcomes`` (one click per
    try, dispatched at 10.0, 20.0, ...)."""

    def __init__(self, outcomes: list, legal: bool = True):
        self.rand = random.Random(1)
        self.world = self.bot = None
        self.stop = False
        self.errors: dict[str, int] = {}
        self.member_its: dict[int, list] = {}
        self.outcomes = list(outcomes)
        self.legal = legal
        self.asked = 0

    async def perform(self, ctx, action):
        self.member_its[ctx.member.id].append(_Click(10.0 * (len(self.outcomes) + 1)))
        outcome = self.outcomes.pop()
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    async def still_legal(self, g, seat, action):
        self.asked += 1
        return self.legal

    async def rule_wait(self, g):
        return None


class _Member:
    id = 5


async def make(bench: _Bench) -> Move:
    move = Move("pacapaca", 1.0)
    game = Game("pacapaca", [_Member()], game_id=3, thread_id=9)
    await bench.make(game, move, bench.perform, "s0", "draw", _Member())
    return move


@pytest.fixture(autouse=True)
def no_pause(monkeypatch):
    monkeypatch.setattr(players, "RETRY_PAUSE", (0.0, 0.0))


async def test_a_move_refused_once_is_made_on_its_second_try():
    bench = _Bench(["done", "busy"])  # popped from the end: busy, then done
    mv = await make(bench)
    assert (mv.tries, mv.busy, mv.unanswered, mv.abandoned, mv.made) == (2, 1, 0, False, True)
    assert [it.bench_t0 for it in mv.its] == [30.0, 20.0]
    assert mv.try_its == 1 and mv.t_commit == mv.t_try and mv.t_try > 1.0
    assert (mv.t_sched, mv.finished, bench.asked, bench.member_its) == (1.0, True, 1, {})


async def test_a_player_gives_up_after_three_tries():
    bench = _Bench(["busy", "unanswered", "busy"])
    mv = await make(bench)
    assert (mv.tries, mv.busy, mv.unanswered, mv.abandoned, mv.made) == (3, 2, 1, True, False)
    assert (len(mv.its), bench.asked) == (3, 2)


async def test_no_retry_once_the_decision_went():
    bench = _Bench(["done", "busy"], legal=False)
    mv = await make(bench)
    assert (mv.tries, mv.busy, mv.abandoned, len(mv.its), bench.outcomes) == (
        1, 1, True, 1, ["done"])


async def test_an_unanswered_try_whose_decision_went_was_made_late():
    # No retry: the decision went, to this very try (its answer only came late).
    bench = _Bench(["done", "unanswered"], legal=False)
    mv = await make(bench)
    assert (mv.tries, mv.unanswered, mv.abandoned, mv.made, len(mv.its)) == (
        1, 1, False, True, 1)


async def test_a_driver_failure_is_counted_once_per_fault_and_not_retried():
    bench = _Bench([AssertionError("P00012: no component plays Draw2")])
    mv = await make(bench)
    assert (mv.tries, mv.error, mv.made) == (
        1, "pacapaca: AssertionError: P#: no component plays Draw#", False)
    assert bench.errors == {"pacapaca: AssertionError: P#: no component plays Draw#": 1}



async def test_a_decision_gone_before_the_first_press_is_not_made_and_no_fault():
    bench = _Bench([NotLegal("Draw2 is not legal for s0")])
    mv = await make(bench)
    assert (mv.tries, mv.error, mv.abandoned, mv.made, len(mv.its)) == (1, None, True, False, 1)
    assert (bench.errors, bench.asked) == ({}, 0)


async def test_a_decision_gone_after_a_refusal_is_not_made():
    bench = _Bench([NotLegal("Draw2 is not legal for s0"), "busy"])
    mv = await make(bench)
    assert (mv.tries, mv.busy, mv.error, mv.abandoned, mv.made, bench.asked) == (
        2, 1, None, True, False, 1)
    assert bench.errors == {}


async def test_a_decision_gone_to_a_late_answered_try_was_made_by_that_try():
    bench = _Bench([NotLegal("Draw2 is not legal for s0"), "unanswered"])
    mv = await make(bench)
    assert (mv.tries, mv.unanswered, mv.error, mv.abandoned, mv.made) == (
        2, 1, None, False, True)
    # the first try (its click dispatched at 30.0) commits; the gone try's click counts
    assert [it.bench_t0 for it in mv.its] == [20.0, 30.0]
    assert (mv.commit.bench_t0, mv.try_its, mv.t_try, mv.t_commit) == (30.0, 1, 1.0, 1.0)
