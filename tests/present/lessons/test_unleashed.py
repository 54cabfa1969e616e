"""The Llamas Unleashed lesson's triggers (bot/present/lessons/unleashed.py)."""

from __future__ import annotations

from types import SimpleNamespace

from bot.games.base import Event, Pending
from bot.present.lessons import Moment, due
from bot.present.lessons.unleashed import LESSON


def told(kind="turn", seats=("s0",), phase="action", events=(), said=()) -> list[str]:
    moment = Moment("s0", SimpleNamespace(phase=phase), Pending(list(seats), kind, "k"), [],
                    list(events))
    return [s.key for s in due(LESSON, moment, said)]


def test_the_baby_the_turn_and_the_choices():
    assert told("setup", ("s0", "s1"), "setup") == ["baby"]
    assert told("turn", phase="start") == ["turn"]
    assert told("turn", phase="action") == ["action"]
    assert told("turn", ("s1",), phase="action") == []
    assert told("choice") == ["target"]
    assert told("over", (), "over") == ["over"]


def test_an_instant_a_chain_and_a_herd_bonus():
    assert told("reaction", ("s0",)) == ["instant"]
    assert told("reaction", ("s1",)) == []
    respond = Event(type="respond", text="s1 answers Stampede with No Way.",
                    data={"seat": "s1"})
    assert told("turn", ("s1",), events=[respond]) == ["chain"]
    herd = Event(type="activate", text="s1 uses the Llama Herd Bonus.",
                 data={"seat": "s1", "source": "herd:llama"})
    assert told("turn", ("s1",), events=[herd]) == ["herd"]
    assert told("turn", ("s1",), events=[herd], said=["herd"]) == []
