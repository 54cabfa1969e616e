"""States stored before the engines moved to plain dataclass states (``PlainState``) still
load, dump to the same JSON and play on: the fixtures were written by the pydantic-model
engines (commit e00e5bf) in the middle of a 3-player game (Alpaca Pacapaca during a
negotiation)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.app import builtin_games

FIXTURES = Path(__file__).parent / "fixtures"
SPECS = {spec.key: spec for spec in builtin_games()}


@pytest.mark.parametrize("key", ["pacapaca", "llamas-alpacas"])
def test_a_state_stored_by_the_pydantic_engines_loads_and_plays_on(key):
    text = (FIXTURES / f"{key}-before-plain-state.json").read_text()
    engine = SPECS[key].engine
    state = engine.load_state(text)
    assert json.loads(state.model_dump_json()) == json.loads(text)
    assert engine.load_state(state.model_dump_json()) == state
    pending = engine.pending(state)
    seat = next(s for s in pending.seats if engine.legal_actions(state, s))
    version = state.version
    new, events = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    assert new.version == version + 1 and events
    assert state.version == version  # apply left the loaded state alone


@pytest.mark.parametrize("key", ["pacapaca", "llamas-alpacas"])
def test_a_stored_state_with_an_unknown_or_missing_field_is_refused(key):
    data = json.loads((FIXTURES / f"{key}-before-plain-state.json").read_text())
    engine = SPECS[key].engine
    with pytest.raises(ValidationError):
        engine.load_state(json.dumps({**data, "surprise": 1}))
    del data["seed"]
    with pytest.raises(ValidationError):
        engine.load_state(json.dumps(data))
