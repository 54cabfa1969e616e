"""bot/config.py: every setting's refusal is one clean sentence naming its variable, the
value and what is allowed (never pydantic's own wording)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.config import _ALLOWED, Settings, describe_errors

#: A value each setting refuses (the token takes any text, so it has none).
REFUSED = {
    "database_path": "mysql://db/herdbot",
    "dev_guild_ids": "abc",
    "log_level": "loud",
    "default_turn_timer": "5m",
    "default_dm_notifications": "maybe",
    "reaction_window_s": "2",
    "archive_after_s": "-1",
    "max_open_lobbies": "26",
    "discord_api_url": "http://example.com:80/api/v10",
    "shard_count": "0",
    "shard_ids": "1,1",
    "render_processes": "9",
    "event_loop": "Trio",
}


def _refusal(monkeypatch, var: str, value: str) -> list[str]:
    for key in ("DISCORD_TOKEN", *(v for v, _ in _ALLOWED.values())):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv(var, value)
    with pytest.raises(ValidationError) as info:
        Settings(_env_file=None)  # type: ignore[call-arg]  # (pydantic-settings keyword)
    return describe_errors(info.value)


def test_render_processes_out_of_range_is_one_clean_sentence(monkeypatch):
    assert _refusal(monkeypatch, "HERDBOT_RENDER_PROCESSES", "9") == [
        "herdbot: HERDBOT_RENDER_PROCESSES='9' is not allowed; use a whole number of "
        "processes from 0 to 8 (set in the environment or .env)."]


def test_every_setting_has_its_own_sentence(monkeypatch):
    assert set(_ALLOWED) == set(Settings.model_fields)
    assert set(REFUSED) == set(Settings.model_fields) - {"discord_token"}
    for field, value in REFUSED.items():
        var, allowed = _ALLOWED[field]
        assert _refusal(monkeypatch, var, value) == [
            f"herdbot: {var}={value!r} is not allowed; use {allowed} "
            "(set in the environment or .env)."], field


@pytest.mark.parametrize(("given", "loop"), [(None, "uvloop"), ("asyncio", "asyncio"),
                                             ("UVLoop", "uvloop")])
def test_the_event_loop_setting(monkeypatch, given, loop):
    monkeypatch.delenv("HERDBOT_EVENT_LOOP", raising=False)
    if given is not None:
        monkeypatch.setenv("HERDBOT_EVENT_LOOP", given)
    assert Settings(_env_file=None).event_loop == loop  # type: ignore[call-arg]
