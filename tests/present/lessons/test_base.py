"""The lessons' model (bot/present/lessons): which steps are due, told once, in order, and
each game's first steps on the real engines' opening positions."""

from __future__ import annotations

import pytest

from bot.app import builtin_games
from bot.games.base import Event, Pending
from bot.present.lessons import HEADING, LESSONS, Lesson, Moment, Step, due, lesson_of, note


def _moment(events=(), kind="turn", seats=("p1",)) -> Moment:
    return Moment("p1", None, Pending(list(seats), kind, "k"), [], list(events))


LESSON = Lesson("x", seed=1, ai_seats=1, steps=(
    Step("a", "Alpha.", lambda m: m.to_act),
    Step("b", "Beta.", lambda m: bool(m.happened("took", mine=True))),
    Step("c", "Gamma.", lambda m: bool(m.happened("took", mine=False))),
))


def test_due_steps_come_in_the_lessons_order_and_never_twice():
    took = Event(type="took", text="p1 took", data={"seat": "p1"})
    assert [s.key for s in due(LESSON, _moment([took]))] == ["a", "b"]
    assert [s.key for s in due(LESSON, _moment([took]), said=["a"])] == ["b"]
    assert due(LESSON, _moment([took], seats=("p2",)), said=["b"]) == []
    other = Event(type="took", text="p2 took", data={"seat": "p2"})
    assert [s.key for s in due(LESSON, _moment([other], seats=()))] == ["c"]


def test_a_note_is_the_heading_and_each_steps_text():
    assert note([]) == ""
    assert note([LESSON.step("a"), LESSON.step("b")]) == f"{HEADING}\n\nAlpha.\n\nBeta."
    with pytest.raises(KeyError):
        LESSON.step("z")


def test_every_game_has_a_lesson_with_unique_steps_against_easy_ai():
    assert sorted(LESSONS) == sorted(builtin_games().keys())
    for game, lesson in LESSONS.items():
        assert lesson_of(game) is lesson and lesson.game == game
        keys = [s.key for s in lesson.steps]
        assert len(keys) == len(set(keys))
        assert all(0 < len(s.text) <= 600 and "\n\n" not in s.text for s in lesson.steps)
        assert lesson.ai_seats == 1
    assert lesson_of("nope") is None


@pytest.mark.parametrize(("game", "first"), [("llamas-alpacas", ["start"]),
                                             ("pacapaca", ["start"]),
                                             ("llamas-unleashed", ["baby"])])
def test_each_lesson_opens_with_its_first_step_on_the_learners_first_decision(game, first):
    spec = builtin_games()[game]
    lesson = LESSONS[game]
    engine = spec.engine
    state = engine.new_game(["s1", "s2"], seed=lesson.seed,
                            options=spec.options_model.model_validate(lesson.options))
    learner = engine.pending(state).seats[0]
    moment = Moment(learner, engine.view(state, learner), engine.pending(state),
                    engine.legal_actions(state, learner), [])
    assert [s.key for s in due(lesson, moment)] == first
    watcher = next(s for s in state.seats if s not in engine.pending(state).seats) \
        if len(engine.pending(state).seats) == 1 else None
    if watcher is not None:  # the other seat, not to act, is told nothing yet
        other = Moment(watcher, engine.view(state, watcher), engine.pending(state), [], [])
        assert due(lesson, other) == []
