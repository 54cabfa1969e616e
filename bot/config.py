"""Configuration from the environment and ``.env`` (pydantic-settings).

Every variable is documented in ``.env.example``. The token is a ``SecretStr`` and is never
logged or printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

TurnTimer = Literal["off", "2m", "10m", "1h", "24h"]

#: Seconds per turn-timer choice (``None``: no timer).
TURN_TIMER_SECONDS: dict[str, int | None] = {
    "off": None,
    "2m": 120,
    "10m": 600,
    "1h": 3600,
    "24h": 86400,
}


class Settings(BaseSettings):
    """herdbot settings.

    Attributes:
        discord_token: the bot token (``DISCORD_TOKEN``); required by ``herdbot run``.
        database_path: SQLite file (``HERDBOT_DATABASE``), default ``./herdbot.sqlite3``.
        dev_guild_ids: guilds to sync commands to instantly (``HERDBOT_DEV_GUILDS``,
            comma-separated ids); empty syncs globally.
        log_level: ``HERDBOT_LOG_LEVEL`` (DEBUG, INFO, WARNING, ERROR).
        default_turn_timer: per-server default until ``/settings`` changes it.
        default_dm_notifications: whether hands and turn notices are DMed by default.
        reaction_window_s: Llamas Unleashed reaction window in seconds.
        archive_after_s: seconds after a game ends before its thread is archived.
        max_open_lobbies: open lobbies (not yet started) one member may host at once in a
            server, until ``/settings`` changes it (``HERDBOT_MAX_OPEN_LOBBIES``, 1-25).
    """

    discord_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    database_path: Path = Field(default=Path("herdbot.sqlite3"), alias="HERDBOT_DATABASE")
    dev_guild_ids: Annotated[list[int], NoDecode] = Field(
        default_factory=list, alias="HERDBOT_DEV_GUILDS"
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    default_turn_timer: TurnTimer = "off"
    default_dm_notifications: bool = True
    reaction_window_s: int = Field(default=20, ge=5, le=120)
    archive_after_s: int = Field(default=600, ge=0)
    max_open_lobbies: int = Field(default=3, ge=1, le=25)

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_prefix="HERDBOT_",
        extra="ignore",
        populate_by_name=True,
        env_ignore_empty=True,
    )

    @field_validator("dev_guild_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        if isinstance(value, int):
            return [value]
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value
