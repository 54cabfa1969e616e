"""The runtime: GameService (one path for every change) and stored timers."""

from bot.runtime.clock import Clock, ManualClock
from bot.runtime.service import (
    GameError,
    GameService,
    GameUnreadable,
    Known,
    Step,
    Update,
    UpdateKind,
)
from bot.runtime.supervisor import Supervisor
from bot.runtime.timers import TimerService

__all__ = [
    "Clock", "GameError", "GameService", "GameUnreadable", "Known", "ManualClock", "Step",
    "Supervisor",
    "TimerService", "Update", "UpdateKind",
]
