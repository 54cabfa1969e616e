"""The SQLite store: games, seats, the action log, timers, stats, settings."""

from bot.store.store import (
    ActionRecord,
    GameRecord,
    GuildSettings,
    SchemaTooNew,
    SeatRecord,
    StaleVersion,
    StatRecord,
    Store,
    StoreError,
    StoreUnavailable,
    TimerRecord,
)

__all__ = [
    "ActionRecord",
    "GameRecord",
    "GuildSettings",
    "SeatRecord",
    "SchemaTooNew",
    "StaleVersion",
    "StatRecord",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TimerRecord",
]
