"""The games herdbot ships, in the order /play lists them: one wiring module per game
(``bot.app.<game>``, whose ``SPEC`` is the game's full :class:`~bot.games.registry.GameSpec`).
A new game is its own modules plus one line here."""

from __future__ import annotations

from bot.app import llamas_alpacas, pacapaca, unleashed
from bot.games.registry import GameSpec

GAMES: tuple[GameSpec, ...] = (
    llamas_alpacas.SPEC,
    pacapaca.SPEC,
    unleashed.SPEC,
)

#: The game packages (``bot.games.<package>``) of :data:`GAMES`, in the same order.
BUILTIN_PACKAGES: tuple[str, ...] = tuple(type(spec.engine).__module__.split(".")[2]
                                          for spec in GAMES)
