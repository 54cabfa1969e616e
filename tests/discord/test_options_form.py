"""The Options form's checks (bot/discord/options_form.py): the options model, a trial
set-up at the seated count, the notes on options the count overrides, and what a preset
keeps."""

from __future__ import annotations

import pytest

from bot.app import builtin_games
from bot.discord.options_form import check_options, number_choices, preset_options
from bot.runtime import GameError
from tests.support.tinygame import TINY_SPEC

SHIPPED = builtin_games()


def _refused(spec, options, seated) -> tuple[str, str]:
    with pytest.raises(GameError) as info:
        check_options(spec, options, seated)
    return info.value.code, info.value.message


def test_pacapaca_babies_off_at_six_players_is_explained_not_refused():
    spec = SHIPPED["pacapaca"]
    assert check_options(spec, {"babies": False, "turn_timer": "off"}, 6) == [
        "With 6 players the baby alpacas are always in the game."]
    assert check_options(spec, {"babies": True}, 6) == []
    assert check_options(spec, {"babies": False}, 5) == []


def test_refusals_name_what_does_not_work():
    assert _refused(TINY_SPEC, {"turn_timer": "5m"}, 2) == (
        "bad_options", "That turn timer is not one herdbot offers.")
    assert _refused(TINY_SPEC, {"take_backs": "yes"}, 2) == (
        "bad_options", "Take-backs are on or off.")
    assert _refused(TINY_SPEC, {"target": 99}, 2) == (
        "bad_options", "These options do not work: Target must be at most 50.")
    assert _refused(TINY_SPEC, {"double": True, "target": 5}, 1) == (
        "bad_options", "These options do not work: Some of these options do not go together.")
    assert _refused(TINY_SPEC, {"double": True, "target": 30}, 4) == (
        "bad_options", "With 4 players these options do not work: double steps are for 2 or "
        "3 players.")
    assert check_options(TINY_SPEC, {"double": True, "target": 30}, 3) == []
    assert check_options(TINY_SPEC, {"double": True, "target": 30}, 0) == []


def test_number_choices_and_what_a_preset_keeps():
    spec = SHIPPED["llamas-unleashed"]
    assert number_choices(spec, "reaction_seconds", 25.0) == [
        5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 45.0, 60.0, 90.0, 120.0, 180.0, 300.0, 600.0]
    assert number_choices(TINY_SPEC, "target", 20) == [5, 10, 15, 20, 30, 45]
    assert preset_options(spec, {"turn_timer": "1h", "rated": False, "expires_at": 1.0,
                                 "ai_level": "hard", "take_backs": True,
                                 "open_windows": False, "reaction_seconds": 30.0}) == {
        "turn_timer": "1h", "take_backs": True, "open_windows": False,
        "reaction_seconds": 30.0}
