"""The registry of games: key -> :class:`GameSpec`.

Each game package exposes a ``SPEC`` in ``bot/games/<pkg>/spec.py`` describing its rules;
:func:`game_specs` imports the ones that exist. The AI policy and the cog of each game are
wired in at the top (``bot.app.builtin_games``), never here. Tests may register their own
games in a private registry.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.games.base import Engine, Options

log = logging.getLogger(__name__)
EngineT = TypeVar("EngineT", bound=Engine[Any, Any])

#: Packages of the games herdbot ships, in the order /play lists them.
BUILTIN_PACKAGES = ("llamas_alpacas", "pacapaca", "unleashed")


@dataclass(frozen=True)
class GameSpec:
    """What the bot needs to know about one game.

    Attributes:
        key: the stable key used in commands, custom_ids and the store (``"pacapaca"``).
        name: the display name (``"Alpaca Pacapaca"``).
        description: one line shown in the /play choice list (max 100 characters).
        min_players / max_players: the supported player range (rulebook / RULES.md).
        engine: the rules engine instance.
        options_model: pydantic model of the lobby options.
        cog: dotted path of the cog extension that plays it in Discord (may be empty; set
            by ``bot.app``, not by the game package).
        policy: ``policy(view, legal_actions, rng) -> Action`` for AI seats (``None``: no
            AI seats; set by ``bot.app``, not by the game package): the Normal level, which
            also plays every seat the AI takes over.
        levels: AI level value (``"easy"``, ``"normal"``, ``"hard"``: ``bot.ai.levels``)
            -> the policy that plays it, in the order the lobby offers them; set by
            ``bot.app``. Empty: the game offers one level, ``policy`` (see
            :meth:`level_policy`).
        rules_summary: the /rules text in our own words (markdown).
    """

    key: str
    name: str
    description: str
    min_players: int
    max_players: int
    engine: Engine[Any, Any]
    options_model: type[Options]
    cog: str = ""
    policy: Callable[..., Any] | None = None
    rules_summary: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    levels: dict[str, Callable[..., Any]] = field(default_factory=dict)

    def level_policy(self, level: str) -> Callable[..., Any] | None:
        """The policy that plays AI level ``level`` (a ``bot.ai.levels.Level`` value):
        from :attr:`levels`, else :attr:`policy` for ``"normal"``; ``None`` when the
        game does not offer that level (or has no AI at all)."""
        if level in self.levels:
            return self.levels[level]
        return self.policy if level == "normal" else None

    def offered_levels(self) -> list[str]:
        """The AI levels the lobby offers, in order (``["normal"]`` for a game with one
        policy and no :attr:`levels`; empty for a game with no AI)."""
        if self.levels:
            return list(self.levels)
        return ["normal"] if self.policy is not None else []

    def engine_as(self, cls: type[EngineT]) -> EngineT:
        """The engine typed as the game's own engine class ``cls``, to reach its
        game-specific methods (e.g. ``spec.engine_as(LlamasAlpacasEngine).costs(...)``).
        Raises ``TypeError`` when the engine is not a ``cls``."""
        if not isinstance(self.engine, cls):
            raise TypeError(f"{self.key} is played by {type(self.engine).__name__}, "
                            f"not {cls.__name__}")
        return self.engine


class Registry:
    """An ordered mapping of game key to :class:`GameSpec`."""

    def __init__(self, specs: list[GameSpec] | None = None) -> None:
        self._specs: dict[str, GameSpec] = {}
        for spec in specs or []:
            self.register(spec)

    def register(self, spec: GameSpec) -> None:
        """Add ``spec``. Raises ``ValueError`` on a duplicate key."""
        if spec.key in self._specs:
            raise ValueError(f"game {spec.key!r} is already registered")
        self._specs[spec.key] = spec

    def get(self, key: str) -> GameSpec | None:
        """The spec for ``key``, or ``None``."""
        return self._specs.get(key)

    def __getitem__(self, key: str) -> GameSpec:
        return self._specs[key]

    def __contains__(self, key: object) -> bool:
        return key in self._specs

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    def keys(self) -> list[str]:
        """Registered keys in order."""
        return list(self._specs)


def game_specs() -> list[GameSpec]:
    """The rules-only spec (no AI, no cog) of every game package under ``bot.games`` that
    provides ``spec.SPEC``, in :data:`BUILTIN_PACKAGES` order."""
    specs: list[GameSpec] = []
    for pkg in BUILTIN_PACKAGES:
        try:
            module = importlib.import_module(f"bot.games.{pkg}.spec")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith(f"bot.games.{pkg}"):
                continue
            raise
        specs.append(module.SPEC)
    return specs
