"""Configuration from the environment and ``.env`` (pydantic-settings).

Every variable is documented in ``.env.example``. The token is a ``SecretStr`` and is never
logged or printed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


def N_(msgid: str) -> str:  # noqa: N802 - gettext's name for a marker
    """Mark ``msgid`` for the catalogue (``bot.i18n.N_``; this leaf sits below
    ``bot.i18n``): :func:`describe_errors` has it translated by its caller."""
    return msgid


#: A translator: ``(msgid, **placeholders) -> the sentence`` (English by default).
Say = Callable[..., str]


def english(msgid: str, /, **placeholders: Any) -> str:
    """``msgid`` filled with ``placeholders``, untranslated."""
    return msgid.format(**placeholders)


class SettingRefused(ValueError):
    """A refusal of two settings together: the catalogue sentence ``msgid`` and its
    placeholders (``str()``: English)."""

    def __init__(self, msgid: str, /, **placeholders: Any) -> None:
        super().__init__("herdbot: " + english(msgid, **placeholders))
        self.msgid = msgid
        self.placeholders = placeholders


#: How a ``HERDBOT_DATABASE`` that names a PostgreSQL database starts.
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def redacted(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``, for messages and logs."""
    parts = urlsplit(url)
    try:
        password = parts.password
    except ValueError:  # pragma: no cover - urlsplit is lenient; kept safe for messages
        password = None
    if password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    return parts._replace(netloc=f"{parts.username or ''}:***@{netloc}").geturl()


#: The most shards ``HERDBOT_SHARD_COUNT`` allows.
MAX_SHARDS = 1024

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
        database_path: ``HERDBOT_DATABASE``: a SQLite file (a ``Path``; default
            ``./herdbot.sqlite3``), or a PostgreSQL URL ``postgresql://user:password@host:port/db``
            (kept as a ``str``; see :attr:`database_url`).
        dev_guild_ids: guilds to sync commands to instantly (``HERDBOT_DEV_GUILDS``,
            comma-separated ids); empty syncs globally.
        log_level: ``HERDBOT_LOG_LEVEL`` (DEBUG, INFO, WARNING, ERROR).
        default_turn_timer: per-server default until ``/settings`` changes it (``24h``:
            when a turn's time runs out the AI plays it; ``off`` for none).
        default_dm_notifications: whether hands and turn notices are DMed by default.
        reaction_window_s: Llamas Unleashed reaction window in seconds.
        archive_after_s: seconds after a game ends before its thread is archived.
        max_open_lobbies: open lobbies (not yet started) one member may host at once in a
            server, until ``/settings`` changes it (``HERDBOT_MAX_OPEN_LOBBIES``, 1-25).
        discord_api_url: DEVELOPMENT ONLY (``HERDBOT_DISCORD_API_URL``): the REST base of a
            local Discord on this machine (``herdbot local-discord``), e.g.
            ``http://127.0.0.1:8555/api/v10``; unset, the bot talks to discord.com. Only
            loopback hosts are accepted, so a token is never sent elsewhere by mistake.
        shard_count: ``HERDBOT_SHARD_COUNT``: how many gateway shards the bot has over all
            its processes (1-1024); ``None``: Discord's recommended count, all served here.
        shard_ids: ``HERDBOT_SHARD_IDS``: the shards this process serves (comma-separated,
            each ``0 <= id < shard_count``; needs ``shard_count``); ``None``: all of them.
            Serving only some needs other processes on the same PostgreSQL database, so
            a SQLite ``HERDBOT_DATABASE`` refuses it (:data:`SQLITE_SHARDS`).
        render_processes: ``HERDBOT_RENDER_PROCESSES``: worker processes that draw the
            table pictures (0-8; default 1, so a second core draws while the bot answers;
            0 draws them in the bot's render thread).
        event_loop: ``HERDBOT_EVENT_LOOP``: ``uvloop`` (default; asyncio's own loop where
            uvloop is not installed) or ``asyncio``.
    """

    discord_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    database_path: Path | str = Field(default=Path("herdbot.sqlite3"), alias="HERDBOT_DATABASE")
    dev_guild_ids: Annotated[list[int], NoDecode] = Field(
        default_factory=list, alias="HERDBOT_DEV_GUILDS"
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    default_turn_timer: TurnTimer = "24h"
    default_dm_notifications: bool = True
    reaction_window_s: int = Field(default=20, ge=5, le=120)
    archive_after_s: int = Field(default=600, ge=0)
    max_open_lobbies: int = Field(default=3, ge=1, le=25)
    discord_api_url: str | None = None
    shard_count: int | None = Field(default=None, ge=1, le=MAX_SHARDS)
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    render_processes: int = Field(default=1, ge=0, le=8)
    event_loop: Literal["uvloop", "asyncio"] = "uvloop"

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
            ids = [int(part) for part in value.replace(" ", "").split(",") if part]
            if any(i <= 0 for i in ids):
                raise ValueError("a server id is a positive whole number")
            return ids
        if isinstance(value, int):
            return [value]
        return value

    @field_validator("discord_api_url")
    @classmethod
    def _local_only(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if any(ch.isspace() or not ch.isprintable() for ch in value):
            raise ValueError("a URL has no spaces or control characters")
        parts = urlsplit(value)  # .port raises ValueError for a port out of range
        if parts.scheme != "http" or parts.hostname not in LOOPBACK_HOSTS or not parts.port:
            raise ValueError("not a loopback URL")
        return value.rstrip("/")

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_shards(cls, value: object) -> object:
        if isinstance(value, str):
            ids = [int(part) for part in value.replace(" ", "").split(",") if part]
            if not ids or any(i < 0 for i in ids) or len(set(ids)) != len(ids):
                raise ValueError("shard ids are different whole numbers from 0")
            return sorted(ids)
        if isinstance(value, int):
            return [value]
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        # Cross-field rules: each one line through describe_errors (a ValueError's text).
        ids, count = self.shard_ids, self.shard_count
        if ids is not None:
            shown = ",".join(map(str, ids))
            if count is None:
                raise SettingRefused(SHARD_IDS_NEED_COUNT, ids=shown)
            if max(ids) >= count:
                raise SettingRefused(SHARD_ID_TOO_BIG, ids=shown, count=count, last=count - 1)
            if self.sqlite_path is not None and len(ids) < count:
                raise SettingRefused(SQLITE_SHARDS, ids=shown, count=count)
        return self

    @field_validator("database_path", mode="before")
    @classmethod
    def _database(cls, value: object) -> object:
        # A postgresql:// URL stays a string (a Path would fold its "//"); another scheme is
        # refused rather than taken for a file name; anything else is a file path.
        if isinstance(value, str):
            if value.lower().startswith(POSTGRES_SCHEMES):
                return value
            if "://" in value:
                raise ValueError("not a file path or a postgresql:// URL")
            return Path(value)
        return value

    @property
    def database_url(self) -> str | None:
        """The PostgreSQL URL of ``HERDBOT_DATABASE``, or ``None`` for a SQLite file."""
        return self.database_path if isinstance(self.database_path, str) else None

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file of ``HERDBOT_DATABASE``, or ``None`` for a PostgreSQL URL."""
        return self.database_path if isinstance(self.database_path, Path) else None

    @field_validator("event_loop", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        # Only a known loop is lower-cased, so that an error shows the value as written.
        if isinstance(value, str) and value.lower() in ("uvloop", "asyncio"):
            return value.lower()
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        # Only a known level is upper-cased, so that an error shows the value as written.
        if isinstance(value, str) and value.upper() in LOG_LEVELS:
            return value.upper()
        return value


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
#: Hosts ``HERDBOT_DISCORD_API_URL`` may name (a local Discord on this machine).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")

#: The configuration errors about shards that involve two settings (one line each).
SHARD_IDS_NEED_COUNT = N_(
    "HERDBOT_SHARD_IDS={ids} needs HERDBOT_SHARD_COUNT, the number of shards over all "
    "processes (set in the environment or .env).")
SHARD_ID_TOO_BIG = N_(
    "HERDBOT_SHARD_IDS={ids} is not allowed with HERDBOT_SHARD_COUNT={count}; use shard ids "
    "from 0 to {last} (set in the environment or .env).")
SQLITE_SHARDS = N_(
    "HERDBOT_SHARD_IDS={ids} serves only some of the {count} shards, so other processes "
    "must serve the rest, and a SQLite file serves one process; use a PostgreSQL "
    "HERDBOT_DATABASE (README: Running at scale) or leave HERDBOT_SHARD_IDS empty.")
#: The refusal of one setting (``{allowed}``: what it allows, from :data:`_ALLOWED`).
NOT_ALLOWED = N_("{var}={value} is not allowed; use {allowed} (set in the environment or "
                 ".env).")
#: The value of a refused token as a refusal shows it.
HIDDEN = N_("(hidden)")

#: Per setting: its variable and what it allows, as a configuration error states it.
_ALLOWED: dict[str, tuple[str, str]] = {
    "discord_token": ("DISCORD_TOKEN", N_("the bot token from the Discord developer portal")),
    "database_path": ("HERDBOT_DATABASE",
                      N_("a file path, or a PostgreSQL URL postgresql://user:password@host:port/db")),
    "dev_guild_ids": ("HERDBOT_DEV_GUILDS",
                      N_("server ids (positive whole numbers) separated by commas, or empty")),
    "log_level": ("HERDBOT_LOG_LEVEL", N_("DEBUG, INFO, WARNING or ERROR")),
    "default_turn_timer": ("HERDBOT_DEFAULT_TURN_TIMER", N_("off, 2m, 10m, 1h or 24h")),
    "default_dm_notifications": ("HERDBOT_DEFAULT_DM_NOTIFICATIONS", N_("true or false")),
    "reaction_window_s": ("HERDBOT_REACTION_WINDOW_S", N_("a whole number of seconds from 5 to 120")),
    "archive_after_s": ("HERDBOT_ARCHIVE_AFTER_S", N_("a whole number of seconds, 0 or more")),
    "discord_api_url": ("HERDBOT_DISCORD_API_URL",
                        N_("a local Discord's URL http://127.0.0.1:PORT/api/v10 "
                           "(development only), or nothing")),
    "max_open_lobbies": ("HERDBOT_MAX_OPEN_LOBBIES", N_("a whole number from 1 to 25")),
    "shard_count": ("HERDBOT_SHARD_COUNT",
                    N_("a whole number of shards from 1 to 1024, or empty")),
    "shard_ids": ("HERDBOT_SHARD_IDS",
                  N_("shard ids (different whole numbers from 0) separated by commas, or "
                     "empty for all")),
    "render_processes": ("HERDBOT_RENDER_PROCESSES", N_("a whole number of processes from 0 to 8")),
    "event_loop": ("HERDBOT_EVENT_LOOP", N_("uvloop or asyncio")),
}


def describe_errors(exc: ValidationError, say: Say = english) -> list[str]:
    """One line per bad setting in ``exc`` (from :class:`Settings`), naming the variable, the
    value as given and what is allowed, e.g. ``herdbot: HERDBOT_DEFAULT_TURN_TIMER='5m' is
    not allowed; use off, 2m, 10m, 1h or 24h (set in the environment or .env).``, each
    sentence put in a language by ``say`` (``bot.i18n.translate`` with the language bound;
    default English). The token's value is never shown."""
    by_var = {var: (var, allowed) for var, allowed in _ALLOWED.values()}
    lines: dict[str, str] = {}
    for error in exc.errors():
        if not error["loc"] and error["type"] == "value_error":  # a cross-field rule
            cause = error.get("ctx", {}).get("error", error["msg"])
            line = ("herdbot: " + say(cause.msgid, **cause.placeholders)
                    if isinstance(cause, SettingRefused) else str(cause))
            lines.setdefault(line, line)
            continue
        key = str(error["loc"][0]) if error["loc"] else ""
        known = _ALLOWED.get(key) or by_var.get(key)
        var, allowed = known or (key, error["msg"])
        if var in lines:
            continue
        value = say(HIDDEN) if var == "DISCORD_TOKEN" else repr(error.get("input"))
        if var == "HERDBOT_DATABASE" and isinstance(error.get("input"), str):
            value = repr(redacted(error["input"]))
        if len(value) > 60:
            value = value[:57] + "..."
        lines[var] = "herdbot: " + say(NOT_ALLOWED, var=var, value=value,
                                       allowed=say(allowed) if known else allowed)
    return list(lines.values())
