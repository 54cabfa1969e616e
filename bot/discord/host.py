"""What the parts of the Discord layer need of the bot, as a Protocol.

:class:`bot.discord.bot.HerdBot` satisfies :class:`Host`; the components, the notifier,
the outbox and the game cogs' base are typed against it, so none of them imports
``bot.discord.bot``. The router and the outbox reach a game's cog through
:class:`GameDisplay` / :class:`ShowsUpdates`, found by a lookup given to them, never by
importing the cogs: the layer has no import cycle, not even one for type checking only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, runtime_checkable

import discord
from discord.ext import commands

from bot.config import Settings
from bot.discord.ids import ComponentId
from bot.games.registry import Registry
from bot.render.pool import Job
from bot.runtime import GameService, Known, Update
from bot.store import GameRecord, Store

T = TypeVar("T")


class DirectMessages(Protocol):
    """The notifier as others use it (:class:`bot.discord.notify.Notifier`)."""

    async def dm(self, record: GameRecord, user_id: int, text: str | Callable[[str], str],
                 **kwargs: Any) -> bool:
        """DM ``text`` about ``record``'s game (a callable: the text in the member's
        language); True when sent."""
        ...


class ShowsUpdates(Protocol):
    """A game cog as the outbox uses it (:class:`bot.discord.game_cog.GameCog`)."""

    async def show_update(self, update: Update,
                          interaction: discord.Interaction | None = None) -> bool:
        """Show a stored change in the game's thread; True when all was posted."""
        ...


@runtime_checkable
class GameDisplay(ShowsUpdates, Protocol):
    """A loaded game cog as the router and the outbox find it by its game's ``kind``
    (:class:`bot.discord.game_cog.GameCog`)."""

    kind: str

    @property
    def hidden_info(self) -> bool:
        """True when the game has hidden cards (refusals stay ephemeral)."""
        ...

    async def handle_component(
        self, interaction: discord.Interaction, cid: ComponentId, values: list[str],
        record: GameRecord | None = None, known: Known | None = None,
    ) -> None:
        """Handle a click on the game's table or panels (acknowledged by the router)."""
        ...


class LobbyUpdates(Protocol):
    """The lobby cog as the outbox uses it (``cogs.lobby.Lobby``)."""

    async def on_lobby_update(self, update: Update) -> None:
        """Show a change of a lobby (seats, options, cancelled, expired)."""
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

    async def route_component(self, interaction: discord.Interaction, custom_id: str,
                              values: list[str], *, admitted: bool = False) -> None:
        """Dispatch a herdbot button or select (``admitted``: its place in the admission
        is held by the caller)."""
        ...
