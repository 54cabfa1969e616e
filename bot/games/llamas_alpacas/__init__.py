"""Llamas & Alpacas: deck data, pure rules engine and helpers."""

from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.games.llamas_alpacas.models import (
    Keep,
    LlamasAlpacasOptions,
    LlamasAlpacasState,
    LlamasAlpacasView,
    Move,
    Place,
    Take,
)

__all__ = [
    "Keep",
    "LlamasAlpacasEngine",
    "LlamasAlpacasOptions",
    "LlamasAlpacasState",
    "LlamasAlpacasView",
    "Move",
    "Place",
    "Take",
]
