"""The SQLite store: games, seats, the action log, timers, stats, settings."""

from bot.store.store import (
    ActionRecord,
    GameHeader,
    GameRecord,
    GuildSettings,
    LobbyLimit,
    SeatRecord,
    StaleVersion,
    StatRecord,
    Store,
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
    "StaleVersion",
    "StatRecord",
    "Store",
    "TimerRecord",
    "UnreadableRow",
    "describe_error",
]
