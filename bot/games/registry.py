"""The registry of games: key -> :class:`GameSpec`, everything herdbot knows about a game.

Each game package exposes a rules-only ``SPEC`` in ``bot/games/<pkg>/spec.py`` (key,
names, player range, engine, options, /rules text). Its AI levels, presenter, renderers,
cog and demo driver are higher layers, so the full spec of each game is put together at
the top, one wiring module per game (``bot.app.<game>``), and the games herdbot ships are
one list there (``bot.app.games.GAMES``). Tests may register their own games in a private
registry.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.games.base import Engine, Options

log = logging.getLogger(__name__)
EngineT = TypeVar("EngineT", bound=Engine[Any, Any])


@dataclass(frozen=True)
class GameSpec:
    """Everything the bot knows about one game. The game package fills in the rules
    (key to rules_summary); the wiring module of the game (``bot.app.<game>``) the rest,
    which ``bot.games`` may not import (AI, presenter, renderers, cog, driver).

    Attributes:
        key: the stable key used in commands, custom_ids and the store (``"pacapaca"``).
        name: the display name (``"Alpaca Pacapaca"``).
        description: one line shown in the /play choice list (max 100 characters).
        min_players / max_players: the supported player range (rulebook / RULES.md).
        engine: the rules engine instance.
        options_model: pydantic model of the lobby options.
        cog: dotted path of the cog extension that plays it in Discord: the game's own
            panels and flows on top of ``bot.discord.game_cog.GameCog`` (may be empty).
        policy: ``policy(view, legal_actions, rng) -> Action`` for AI seats (``None``: no
            AI seats): the Normal level, which also plays every seat the AI takes over.
        levels: AI level value (``"easy"``, ``"normal"``, ``"hard"``: ``bot.ai.levels``)
            -> the policy that plays it, in the order the lobby offers them. Empty: the
            game offers one level, ``policy`` (see :meth:`level_policy`).
        rules_summary: the /rules text in our own words (markdown).
        presenter: the game's presenter (a ``bot.present.base.Presenter``: turn text,
            choices, final text and the display hooks: ping key, pings, headline, quiet
            steps, hand DMs, picture inputs); ``None``: the cog draws the table itself.
        table_renderer: ``(spectator view, *, names=..., **picture inputs) -> PNG bytes``
            (a module-level function, so that a render process can run it); ``None``: the
            cog's ``render`` draws the table.
        closeups: name -> renderer of a private close-up picture (a board, a hand, a
            card) that the game's cog shows.
        hidden_info: True when the game has hidden cards: refusals (which may name them)
            then never fall back to the channel when Discord refuses the ephemeral answer.
        hint: ``hint(view, legal_actions, rng) -> str``: the move the Normal AI would
            choose for the seat of ``view`` and why, in one or two sentences naming
            players by seat id (``None``: the game offers no hints).
        driver: dotted path of the sandbox UI driver module (``perform(ctx, action)``:
            plays an action through a simulated member's clicks; the demo and the
            full-game tests use it); empty: none.
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
    presenter: Any = None
    table_renderer: Callable[..., bytes] | None = None
    closeups: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    hidden_info: bool = True
    hint: Callable[..., str] | None = None
    driver: str = ""

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

