"""The SQLite store: games, seats, the action log, timers, stats, settings."""

from bot.store.store import (
    ActionRecord,
    GameRecord,
    GuildSettings,
    LobbyLimit,
    SeatRecord,
    StaleVersion,
    StatRecord,
    Store,
    TimerRecord,
)

__all__ = [
    "ActionRecord",
    "GameRecord",
    "GuildSettings",
    "LobbyLimit",
    "SeatRecord",
    "StaleVersion",
    "StatRecord",
    "Store",
    "TimerRecord",
]
