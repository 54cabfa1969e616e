"""What the parts of the Discord layer need of the bot, as a Protocol.

:class:`bot.discord.bot.HerdBot` satisfies :class:`Host`; the components, the notifier,
the publisher and the game cogs' base are typed against it, so none of them imports
``bot.discord.bot`` (which imports them): the layer has no import cycle, not even one for
type checking only (``tests/test_static.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import discord
from discord.ext import commands

from bot.config import Settings
from bot.games.registry import Registry
from bot.render.pool import Job
from bot.runtime import GameService, Update
from bot.store import GameRecord, Store

T = TypeVar("T")


class DirectMessages(Protocol):
    """The notifier as others use it (:class:`bot.discord.notify.Notifier`)."""

    async def dm(self, record: GameRecord, user_id: int, text: str, **kwargs: Any) -> bool:
        """DM ``text`` about ``record``'s game; True when sent."""
        ...


class ShowsUpdates(Protocol):
    """A game cog as the publisher uses it (:class:`bot.discord.game_cog.GameCog`)."""

    async def show_update(self, update: Update,
                          interaction: discord.Interaction | None = None) -> bool:
        """Show a stored change in the game's thread; True when all was posted."""
        ...


class Host(Protocol):
    """The bot: its store, service, registry, settings, notifier, render thread and
    discord.py client calls (read-only properties, so a subclass's narrower types fit)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def registry(self) -> Registry: ...

    @property
    def store(self) -> Store: ...

    @property
    def service(self) -> GameService: ...

    @property
    def notifier(self) -> DirectMessages: ...

    @property
    def render_slots(self) -> asyncio.Semaphore: ...

    @property
    def http(self) -> discord.http.HTTPClient: ...

    @property
    def user(self) -> discord.ClientUser | None:
        """The bot's own user once logged in (whose messages a catch-up may read)."""
        ...

    async def render(self, func: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a Pillow function in the render thread."""
        ...

    async def draw(self, job: Job) -> bytes:
        """PNG bytes of a table picture: kept, or drawn in a render process, or in the
        render thread."""
        ...

    def get_channel(self, id: int, /) -> Any:
        """A cached channel or thread, or ``None``."""
        ...

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None
                                ) -> discord.PartialMessageable:
        """A channel handle for sending without a cache entry."""
        ...

    def get_cog(self, name: str, /) -> commands.Cog | None:
        """A loaded cog by name."""
        ...

    def game_cog(self, kind: str) -> ShowsUpdates | None:
        """The cog playing game ``kind``."""
        ...

    async def route_component(self, interaction: discord.Interaction, custom_id: str,
                              values: list[str]) -> None:
        """Dispatch a herdbot button or select."""
        ...
