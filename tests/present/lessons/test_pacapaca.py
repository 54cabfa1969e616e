"""The Alpaca Pacapaca lesson's triggers (bot/present/lessons/pacapaca.py)."""

from __future__ import annotations

from types import SimpleNamespace

from bot.games.base import Event, Pending
from bot.present.lessons import Moment, due
from bot.present.lessons.pacapaca import LESSON


def told(kind="turn", seats=("s0",), phase="turn", negotiation=None, events=(),
         said=()) -> list[str]:
    view = SimpleNamespace(phase=phase, negotiation=negotiation)
    moment = Moment("s0", view, Pending(list(seats), kind, "k"), [], list(events))
    return [s.key for s in due(LESSON, moment, said)]


def ev(type_, seat="s0") -> Event:
    return Event(type=type_, text="-", data={"seat": seat})


def test_the_turn_the_drawn_pair_and_the_pile():
    assert told() == ["start"]
    assert told(seats=("s1",)) == []
    assert told(phase="drawn", said=["start"]) == ["drawn"]
    assert told(seats=("s1",), events=[ev("took_pile")]) == ["pile"]
    assert told(seats=("s1",), events=[ev("took_pile", "s1")]) == []


def test_a_negotiation_is_explained_to_its_two_players_and_a_rejected_deal_once():
    ours = SimpleNamespace(active="s1", partner="s0")
    assert told("negotiation", ("s1",), "negotiation", ours) == ["negotiation"]
    theirs = SimpleNamespace(active="s1", partner="s2")
    assert told("negotiation", ("s1",), "negotiation", theirs) == []
    assert told(seats=("s1",), events=[ev("declined", "s1")]) == ["rejected"]
    assert told(seats=("s1",), events=[ev("negotiation_failed", "s1")]) == ["rejected"]
    assert told(seats=("s1",), events=[ev("declined")], said=["rejected"]) == []
    assert told(seats=("s1",), events=[ev("traded", "s1"), ev("final_round")]) == [
        "traded", "final_round"]
    assert told("finished", (), "finished") == ["over"]
