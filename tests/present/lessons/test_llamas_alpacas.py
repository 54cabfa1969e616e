"""The Llamas & Alpacas lesson's triggers (bot/present/lessons/llamas_alpacas.py)."""

from __future__ import annotations

from bot.games.base import Event, Pending
from bot.present.lessons import Moment, due
from bot.present.lessons.llamas_alpacas import LESSON


def told(kind="turn", seats=("s0",), events=(), said=()) -> list[str]:
    moment = Moment("s0", None, Pending(list(seats), kind, "k"), [], list(events))
    return [s.key for s in due(LESSON, moment, said)]


def ev(type_, seat="s0", **data) -> Event:
    return Event(type=type_, text="-", data={"seat": seat, **data})


def test_the_scripted_steps_follow_the_learners_decisions():
    assert told("setup", ("s0", "s1")) == ["start"]
    assert told("setup", ("s1",)) == []
    assert told("turn") == ["take"]
    assert told("turn", ("s1",)) == []
    assert told("choose_space") == ["place"]
    assert told("keep_treats") == ["keep"]
    assert told("finished", ()) == ["over"]


def test_treats_are_explained_when_the_learner_pays_and_when_they_pick_some_up():
    took = ev("took", paid=[[1, 0]], picked_up=[0, 0])
    assert told("choose_space", events=[took], said=["place"]) == ["paid"]
    took = ev("took", paid=[], picked_up=[1, 2])
    assert told("choose_space", events=[took], said=["place"]) == ["picked_up"]
    assert told("choose_space", events=[ev("took", paid=[], picked_up=[0, 0])],
                said=["place"]) == []
    assert told("turn", ("s1",), events=[ev("took", "s1", paid=[[1, 0]], picked_up=[0, 0])]) == []


def test_a_line_is_explained_for_the_learners_own_and_the_ais():
    assert told("turn", ("s1",), events=[ev("scored")]) == ["line"]
    assert told("turn", events=[ev("scored", "s1")], said=["take"]) == ["their_line"]
    assert told("turn", ("s1",), events=[ev("no_score")]) == ["no_score"]
    assert told("turn", ("s1",), events=[ev("end_triggered", "s1")]) == ["last_round"]
    assert told("turn", ("s1",), events=[ev("scored")], said=["line"]) == []
