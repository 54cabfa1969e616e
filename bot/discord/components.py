"""Persistent components: every herdbot button and select is a DynamicItem, so a message
posted before a restart still works after it.

Buttons match ``hb:...`` and selects ``hs:...`` (see :mod:`bot.discord.ids`); both route to
``bot.route_component(interaction, component_id, values)``.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord import ids
from bot.discord.host import Host


class HerdButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hb:(?P<rest>.*)"):
    """Any herdbot button; the custom id carries scope, game, version and code."""

    def __init__(self, custom_id: str, **kwargs: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, **kwargs))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HerdButton:
        button = item if isinstance(item, discord.ui.Button) else None
        return cls(
            match.string,
            label=getattr(button, "label", None),
            style=getattr(button, "style", discord.ButtonStyle.secondary),
            disabled=getattr(button, "disabled", False),
        )

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        bot: Host = interaction.client  # type: ignore[assignment]
        await bot.route_component(interaction, self.item.custom_id or "", [])


class HerdSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"hs:(?P<rest>.*)"):
    """Any herdbot string select; the chosen values go to the router."""

    def __init__(self, custom_id: str, **kwargs: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, **kwargs))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HerdSelect:
        select = item if isinstance(item, discord.ui.Select) else None
        options = list(select.options) if select else [discord.SelectOption(label="-")]
        return cls(
            match.string,
            options=options or [discord.SelectOption(label="-")],
            min_values=getattr(select, "min_values", 1),
            max_values=getattr(select, "max_values", 1),
            placeholder=getattr(select, "placeholder", None),
        )

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        bot: Host = interaction.client  # type: ignore[assignment]
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        await bot.route_component(interaction, self.item.custom_id or "", values)


def button(
    scope: str,
    game_id: int,
    code: str,
    label: str,
    *,
    version: int | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    emoji: str | None = None,
    row: int | None = None,
) -> HerdButton:
    """A herdbot button (persistent across restarts)."""
    item = HerdButton(
        ids.button_id(scope, game_id, code, version),
        label=label[:80], style=style, disabled=disabled, emoji=emoji,
    )
    if row is not None:
        item.row = row
    return item


def select(
    scope: str,
    game_id: int,
    code: str,
    options: list[discord.SelectOption],
    *,
    version: int | None = None,
    placeholder: str | None = None,
    min_values: int = 1,
    max_values: int = 1,
    disabled: bool = False,
    row: int | None = None,
) -> HerdSelect:
    """A herdbot string select (persistent across restarts) of 1 to 25 options, Discord's
    documented limit: more raise ``ValueError`` rather than being cut (offer more with
    :mod:`bot.discord.choices`)."""
    if not 1 <= len(options) <= 25:
        raise ValueError(f"a select holds 1-25 options, not {len(options)}")
    item = HerdSelect(
        ids.select_id(scope, game_id, code, version),
        options=options, placeholder=placeholder, min_values=min_values,
        max_values=min(max_values, len(options)), disabled=disabled,
    )
    if row is not None:
        item.row = row
    return item


class HerdView(discord.ui.View):
    """A classic view of herdbot's own items, which discord.py does not keep.

    Every herdbot item is a :class:`~discord.ui.DynamicItem` (routed by its custom id,
    before discord.py looks at views at all), so discord.py's view store would only hold
    a copy of each view sent, for ever: with :meth:`is_dispatchable` False, sending one
    skips that bookkeeping (the payload is the same)."""

    def is_dispatchable(self) -> bool:
        return False


class HerdLayout(discord.ui.LayoutView):
    """A Components V2 layout of herdbot's own items, which discord.py does not keep
    (see :class:`HerdView`)."""

    def is_dispatchable(self) -> bool:
        return False


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A timeout-free view holding ``items`` (their custom ids keep them alive)."""
    view = HerdView(timeout=None)
    for item in items:
        view.add_item(item)
    return view
