"""States stored before the engines moved to plain dataclass states (``PlainState``) still
load, dump to the same JSON and play on: the fixtures were written by the pydantic-model
engines in the middle of a 3-player game: Llamas & Alpacas and Alpaca Pacapaca (during a
negotiation) at commit e00e5bf, Llamas Unleashed at commit 4e32c3d (seed 7, hidden
windows, after 101 AI moves: a card resolving on the pile, a link being built with a
target planned, a choice open)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.app import builtin_games
from bot.games.base import PlainGameState, PlainState

FIXTURES = Path(__file__).parent / "fixtures"
SPECS = {spec.key: spec for spec in builtin_games()}


@pytest.mark.parametrize("key", ["pacapaca", "llamas-alpacas", "llamas-unleashed"])
def test_a_state_stored_by_the_pydantic_engines_loads_and_plays_on(key):
    text = (FIXTURES / f"{key}-before-plain-state.json").read_text()
    engine = SPECS[key].engine
    state = engine.load_state(text)
    expected = json.loads(text)
    if key == "pacapaca":  # pile cards stored before their public moment was recorded
        assert len(expected["pile"]) == 2
        for card in expected["pile"]:
            card.update(kept=None, deck=0, alpacas=[])
    if key == "llamas-unleashed":  # a choice stored before it said what it asks
        assert expected["choice"]["prompt"].startswith("Choose a card from the discard pile")
        expected["choice"].update(ask="", about=None, whose=None)
    assert json.loads(state.model_dump_json()) == expected
    assert engine.load_state(state.model_dump_json()) == state
    pending = engine.pending(state)
    seat = next(s for s in pending.seats if engine.legal_actions(state, s))
    version = state.version
    new, events = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    assert new.version == version + 1 and events
    assert state.version == version  # apply left the loaded state alone


@pytest.mark.parametrize("key", ["pacapaca", "llamas-alpacas", "llamas-unleashed"])
def test_a_stored_state_with_an_unknown_or_missing_field_is_refused(key):
    data = json.loads((FIXTURES / f"{key}-before-plain-state.json").read_text())
    engine = SPECS[key].engine
    with pytest.raises(ValidationError):
        engine.load_state(json.dumps({**data, "surprise": 1}))
    del data["seed"]
    with pytest.raises(ValidationError):
        engine.load_state(json.dumps(data))


def test_the_stored_unleashed_state_loads_into_plain_parts_and_plays_as_before():
    text = (FIXTURES / "llamas-unleashed-before-plain-state.json").read_text()
    engine = SPECS["llamas-unleashed"].engine
    state = engine.load_state(text)
    assert type(state).__name__ == "UnleashedState" and isinstance(state, PlainGameState)
    assert isinstance(state.choice, PlainState) and isinstance(state.building.tasks[0], PlainState)
    assert state.choice.seat == "s0" and [o.card for o in state.choice.options] == [12, 58, 15]
    assert state.stack[0].resolving is True and state.plan == {"81:/f": [73]}
    # option 1 (card 58) brings it from the discard pile into s0's Field
    new, events = engine.apply(state, "s0", engine.parse_action({"type": "choose", "option": 1}))
    assert 58 in new.fields["s0"] and 58 not in new.discard
    assert 58 in state.discard and 58 not in state.fields["s0"]  # the loaded state is untouched
    # the same events the pydantic engine gave for this move (checked at commit 4e32c3d)
    assert [(e.type, e.data) for e in events] == [
        ("discard", {"seat": "s0", "card": 73}),
        ("bring", {"seat": "s0", "card": 58, "src": "discard"}),
    ]


def test_a_stored_unleashed_state_with_nine_seats_is_refused():
    data = json.loads((FIXTURES / "llamas-unleashed-before-plain-state.json").read_text())
    engine = SPECS["llamas-unleashed"].engine
    with pytest.raises(ValidationError, match="2 to 8 distinct seats"):
        engine.load_state(json.dumps({**data, "seats": [f"s{i}" for i in range(9)]}))
    with pytest.raises(ValidationError, match="2 to 8 distinct seats"):
        engine.load_state(json.dumps({**data, "seats": ["s0", "s0", "s1"]}))
