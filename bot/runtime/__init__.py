"""The runtime: GameService (one path for every change) and stored timers."""

from bot.runtime.clock import Clock, ManualClock
from bot.runtime.service import GameError, GameService, Step, Update
from bot.runtime.timers import TimerService

__all__ = ["Clock", "GameError", "GameService", "ManualClock", "Step", "TimerService", "Update"]
