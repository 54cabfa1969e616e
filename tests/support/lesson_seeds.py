"""Find game seeds for a lesson (``/learn``): an engine-only mirror of a lesson played with
the Normal AI's choices for the learner (``random.Random(1)``, as
:func:`bot.sandbox.lessons.play_lesson` plays it) and Easy AI seats, printing for each seed
the steps it would tell and at which move. Approximate (the bot groups moves per click and
runs timers by the clock); the Discord test (tests/discord/test_learn.py) is the check.

    python -m tests.support.lesson_seeds llamas-unleashed 1 40
"""

from __future__ import annotations

import random
import sys
from typing import Any

from bot.app import builtin_games
from bot.games.base import Event
from bot.present.lessons import LESSONS, Moment, due


def mirror(game: str, seed: int, member_seed: int = 1, max_steps: int = 3000
           ) -> list[tuple[str, int]]:
    """The (step key, move) pairs a lesson of ``game`` on game seed ``seed`` would tell."""
    spec = builtin_games()[game]
    lesson = LESSONS[game]
    engine = spec.engine
    fields = spec.options_model.model_fields
    options = spec.options_model.model_validate(
        {**lesson.options, **({"players": 2} if "players" in fields else {})})
    learner, state = "s0", engine.new_game(["s0", "s1"], seed=seed, options=options)
    rand = random.Random(member_seed)
    easy = spec.level_policy("easy") or spec.policy
    assert easy is not None and spec.policy is not None
    said: set[str] = set()
    told: list[tuple[str, int]] = []

    def drive(state: Any, events: list[Event]) -> Any:
        for _ in range(2000):
            pending = engine.pending(state)
            seat = next((s for s in pending.seats if s != learner), None)
            if engine.result(state) is not None or seat is None:
                break
            legal = engine.legal_actions(state, seat)
            if not legal:
                break
            choice = easy(engine.view(state, seat), legal,
                          random.Random(f"{state.seed}:{state.version}:{seat}"))
            state, more = engine.apply(state, seat, choice)
            events += more
        return state

    events: list[Event] = []
    state = drive(state, events)
    for _ in range(max_steps):
        pending = engine.pending(state)
        over = engine.result(state) is not None
        moment = Moment(learner, engine.view(state, learner), pending,
                        [] if over else engine.legal_actions(state, learner),
                        [e for e in events if e.visible_to(learner)])
        for step in due(lesson, moment, said):
            said.add(step.key)
            told.append((step.key, state.version))
        if over:
            break
        events = []
        if learner in pending.seats:
            legal = engine.legal_actions(state, learner)
            state, more = engine.apply(state, learner,
                                       spec.policy(engine.view(state, learner), legal, rand))
            events += more
        else:
            for timeout in pending.timeouts:
                state, more = engine.apply(state, timeout.seat,
                                           engine.parse_action(timeout.action))
                events += more
        state = drive(state, events)
    return told


if __name__ == "__main__":
    game, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    keys = [s.key for s in LESSONS[game].steps]
    for seed in range(first, last):
        told = dict(mirror(game, seed))
        print(seed, f"{len(told)}/{len(keys)}", "missing:", [k for k in keys if k not in told],
              told)
