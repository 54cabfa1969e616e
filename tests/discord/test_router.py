"""The router's pure checks on a click's gateway payload: which clicks carry on a move
already begun (:func:`bot.discord.router.carries_on`), and the key of a click pressed
again (:func:`bot.discord.router.click_key`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.discord import ids
from bot.discord.errors import BUSY
from bot.discord.router import (
    EPHEMERAL,
    PANEL_FRESH_S,
    busy_body,
    carries_on,
    click_key,
    presenter_kind,
)
from bot.i18n import translate
from bot.runtime.admission import DISCORD_EPOCH_MS

#: A unix time, and a snowflake made at it.
NOW = 1_800_000_000.0


def snowflake(at: float) -> int:
    return (int(at * 1000) - DISCORD_EPOCH_MS) << 22


def click(custom_id: str, *, flags: int = EPHEMERAL, made: float = NOW - 30.0) -> dict[str, Any]:
    return {"id": str(snowflake(NOW)), "type": 3,
            "data": {"custom_id": custom_id, "component_type": 2},
            "message": {"id": str(snowflake(made)), "flags": flags}}


@pytest.mark.parametrize(("custom_id", "kind"), [
    ("hb:g:1:x:a.7fa504937a.0", "a"),
    ("hs:g:1:x:s.7fa504937a", "s"),
    ("hb:g:1:x:o.7fa504937a.mf4", "o"),
    ("hb:g:1:x:hand", None),
    ("hb:r:1:x:a.7fa504937a.0", None),
])
def test_the_presenter_kind_of_a_component(custom_id, kind):
    assert presenter_kind(ids.parse(custom_id)) == kind


def test_a_presenter_choice_on_a_fresh_private_panel_carries_on_a_move():
    assert carries_on(click("hb:g:1:x:o.7fa504937a.mf4"), NOW) is True
    assert carries_on(click("hb:g:1:x:a.7fa504937a.3"), NOW) is True


@pytest.mark.parametrize("payload", [
    click("hb:g:1:x:a.7fa504937a.0", flags=0),  # on the public table: new work
    click("hb:g:1:x:hand"),  # Refresh / My hand: redraws a panel, no move
    click("hb:r:1:x:a.7fa504937a.0"),  # a replay's step
    click("hb:g:1:x:a.7fa504937a.0", made=NOW - PANEL_FRESH_S - 1),  # a panel left open
    click("hb:g:1:x:not a code"),
    {"id": "1", "type": 3, "data": {"custom_id": "hb:g:1:x:a.7fa504937a.0"}},  # no message
    {**click("hb:g:1:x:a.7fa504937a.0"), "data": {}},  # no custom id
])
def test_anything_else_is_new_work(payload):
    assert carries_on(payload, NOW) is False


def test_a_clicks_key_is_its_member_message_and_custom_id_in_a_server_or_a_dm():
    data = click("hb:g:1:x:a.7fa504937a.0", flags=0)
    message = int(data["message"]["id"])
    guild = {**data, "member": {"user": {"id": "42"}}}
    dm = {**data, "user": {"id": "43"}}
    assert click_key(guild) == (42, message, "hb:g:1:x:a.7fa504937a.0")
    assert click_key(dm) == (43, message, "hb:g:1:x:a.7fa504937a.0")


@pytest.mark.parametrize("drop", ["member", "message", "data"])
def test_a_click_without_a_member_message_or_custom_id_has_no_key(drop):
    data = {**click("hb:g:1:x:a.7fa504937a.0"), "member": {"user": {"id": "42"}}}
    del data[drop]
    assert click_key(data) is None
    assert click_key({**data, "member": {"user": {"id": "x"}}}) is None


def test_the_busy_answer_from_the_gateway_form_is_made_once_per_language():
    body = busy_body(BUSY, "de")
    assert json.loads(body) == {"type": 4, "data": {
        "content": "\N{NO ENTRY SIGN} " + translate("de", BUSY), "flags": 64,
        "allowed_mentions": {"parse": []}}}
    assert busy_body(BUSY, "de") is body
    assert json.loads(busy_body(BUSY, "en"))["data"]["content"] == f"\N{NO ENTRY SIGN} {BUSY}"
