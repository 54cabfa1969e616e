"""Private lines a player of a one-message game has not seen yet (what the thread's outbox
would have sent them by DM: a card pulled from their hand, a card they drew on a timer):
kept per seat in this process until that player's next private answer (My hand, or the
ephemeral reply to their next move), which starts with them. Only that player's own
answers ever show them."""

from __future__ import annotations

from typing import Any

import discord

#: Lines kept per seat (the oldest go; /game log has every public move).
KEPT = 20
#: The heading above them.
HEADING = "**Since you last looked:**"


class Unseen:
    """(game id, seat) -> the private lines not shown yet, oldest first."""

    def __init__(self) -> None:
        self._lines: dict[tuple[int, str], list[str]] = {}

    def add(self, game_id: int, seat: str, lines: list[str]) -> None:
        """Keep ``lines`` for ``seat`` of game ``game_id``."""
        kept = self._lines.setdefault((game_id, seat), [])
        kept.extend(lines)
        del kept[:-KEPT]

    def take(self, game_id: int, seat: str) -> list[str]:
        """The lines kept for ``seat`` (now forgotten: they are being shown)."""
        return self._lines.pop((game_id, seat), [])

    def forget(self, game_id: int) -> None:
        """Drop every line kept for game ``game_id``."""
        for key in [k for k in self._lines if k[0] == game_id]:
            del self._lines[key]


def led_by(kwargs: dict[str, Any], lines: list[str]) -> dict[str, Any]:
    """A private answer's message arguments (a Components V2 ``view``) led by ``lines``
    under :data:`HEADING`, as a text display at the top of its container; unchanged
    without lines."""
    if not lines:
        return kwargs
    view = kwargs.get("view")
    text: discord.ui.TextDisplay[Any] = discord.ui.TextDisplay("\n".join([HEADING, *lines])[:1900])
    if not isinstance(view, discord.ui.LayoutView):
        return kwargs
    box = next((c for c in view.children if isinstance(c, discord.ui.Container)), None)
    holder: Any = box if box is not None else view
    items = list(holder.children)
    holder.clear_items()
    for item in [text, *items]:
        holder.add_item(item)
    return kwargs
