"""The store: games, seats, the action log, timers, stats, settings, on SQLite (default)
or PostgreSQL (``HERDBOT_DATABASE=postgresql://...``)."""

from bot.store.errors import (
    STORE_FAILURES,
    DatabaseGone,
    PostgresUnavailable,
    SchemaTooNew,
    StoreDown,
    StoreError,
    StoreUnavailable,
)
from bot.store.presets import MAX_PRESET_NAME, PresetRecord
from bot.store.ratings import Matchup, RatedSeat, RateJob, RatingRecord
from bot.store.records import (
    ActionRecord,
    GameBundle,
    GameHeader,
    GameRecord,
    GuildSettings,
    LobbyLimit,
    SeatRecord,
    StaleVersion,
    StatRecord,
    TimerRecord,
    TimerRow,
    UnreadableRow,
    describe_error,
)
from bot.store.store import Store
from bot.store.tracking import stop_tracking, track_writes, tracking_writes
from bot.store.url import is_postgres_url

__all__ = [
    "STORE_FAILURES",
    "ActionRecord",
    "DatabaseGone",
    "GameBundle",
    "GameHeader",
    "GameRecord",
    "GuildSettings",
    "LobbyLimit",
    "MAX_PRESET_NAME",
    "Matchup",
    "PostgresUnavailable",
    "PresetRecord",
    "RateJob",
    "RatedSeat",
    "RatingRecord",
    "SeatRecord",
    "SchemaTooNew",
    "StaleVersion",
    "StatRecord",
    "Store",
    "StoreDown",
    "StoreError",
    "StoreUnavailable",
    "TimerRecord",
    "TimerRow",
    "UnreadableRow",
    "describe_error",
    "is_postgres_url",
    "stop_tracking",
    "track_writes",
    "tracking_writes",
]
