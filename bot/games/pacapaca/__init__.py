"""Alpaca Pacapaca: grow the longest, best-dressed alpaca neck (rules engine package)."""

from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import PacapacaOptions, PacapacaState, PacapacaView

__all__ = ["PacapacaEngine", "PacapacaOptions", "PacapacaState", "PacapacaView"]
