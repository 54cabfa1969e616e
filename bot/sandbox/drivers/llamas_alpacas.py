"""UI driver for Llamas & Alpacas: every action (Place, Take, Move, Keep) is performed by
the component whose decoded action equals it (:func:`perform_choice`): the grid and take
buttons on the table, the keep-treats select, and for a Move the "Move a card" panel, its
from-space button, then the to-space button."""

from __future__ import annotations

from bot.games.base import Action
from bot.sandbox.drivers import DriverContext, perform_choice, performs


@performs
async def perform(ctx: DriverContext, action: Action) -> None:
    """Carry out ``action`` for ``ctx.seat`` through clicks and selects only; returns its
    :data:`~bot.sandbox.drivers.Outcome`. Raises ``AssertionError`` when no visible
    component plays it."""
    await perform_choice(ctx, action)
