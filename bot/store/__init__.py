"""The SQLite store: games, seats, the action log, timers, stats, settings."""

from bot.store.store import (
    ActionRecord,
    GameHeader,
    GameRecord,
    GuildSettings,
    LobbyLimit,
    SchemaTooNew,
    SeatRecord,
    StaleVersion,
    StatRecord,
    Store,
    StoreError,
    StoreUnavailable,
    TimerRecord,
    UnreadableRow,
    describe_error,
)

__all__ = [
    "ActionRecord",
    "GameHeader",
    "GameRecord",
    "GuildSettings",
    "LobbyLimit",
    "SeatRecord",
    "SchemaTooNew",
    "StaleVersion",
    "StatRecord",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TimerRecord",
    "UnreadableRow",
    "describe_error",
]
