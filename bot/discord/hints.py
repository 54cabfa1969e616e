"""The Hint button: on a player's own My hand panel when the lobby's Hints option is on,
it shows that player, privately, the move the Normal AI would choose now and why.

The words come from the game's ``spec.hint`` (the AI's own weighing, put into words by
``bot.present.hints``), computed from the clicker's own view only. The answer is an
ephemeral Components V2 card; a Hint from a player with nothing to decide, or in a game
with hints off, is refused in one sentence.
"""

from __future__ import annotations

import random
from typing import Any

import discord
from discord import ui

from bot.discord.components import button, view_of
from bot.discord.layout import MAX_COMPONENTS, card
from bot.discord.replies import send_ephemeral
from bot.discord.table import Table
from bot.i18n import ENGLISH, translate
from bot.present import hints
from bot.present.base import named
from bot.runtime import GameError
from bot.store import SeatRecord

#: The Hint button's component code (custom id ``hb:g:<game>:x:hint``).
HINT = "hint"
#: The lobby option that turns the button on (see ``cogs.lobby``).
OPTION = "hints"


def hints_on(table: Table) -> bool:
    """Whether ``table``'s game shows the Hint button: the game offers hints and its
    lobby's Hints option is on."""
    return table.spec.hint is not None and bool(table.record.options.get(OPTION))


def with_hint_button(table: Table, kwargs: dict[str, Any]) -> dict[str, Any]:
    """A private panel's message arguments with the Hint button added (unchanged when
    hints are off): in a V2 panel a row at the end of its container (above its
    footer line), in a classic one beside its buttons."""
    if not hints_on(table):
        return kwargs
    item = button("g", table.record.id, HINT, translate(table.member_lang, "Hint"),
                  emoji="\N{ELECTRIC LIGHT BULB}")
    view = kwargs.get("view")
    if isinstance(view, ui.LayoutView):
        if sum(_count(c) for c in view.children) + 2 <= MAX_COMPONENTS:
            box = next((c for c in view.children if isinstance(c, ui.Container)), None)
            if box is None:
                view.add_item(ui.ActionRow(item))
            else:  # the last row of the container, above its small footer line
                last = box.children[-1] if box.children else None
                foot = (last if isinstance(last, ui.TextDisplay)
                        and last.content.startswith("-# ") else None)
                if foot is not None:
                    box.remove_item(foot)
                box.add_item(ui.ActionRow(item))
                if foot is not None:
                    box.add_item(foot)
    elif isinstance(view, ui.View):
        try:
            view.add_item(item)
        except ValueError:  # every row is full: the panel keeps its own choices
            pass
    else:
        kwargs["view"] = view_of(item)
    return kwargs


def _count(item: Any) -> int:
    """Components ``item`` counts for Discord's limit (itself and those nested in it)."""
    return 1 + sum(_count(c) for c in getattr(item, "children", None) or [])


def hint_text(table: Table, seat: SeatRecord, lang: str | None = None) -> str:
    """The hint for ``seat`` in words with display names, in ``lang`` (English when
    ``None``). Raises :class:`GameError` when hints are off or ``seat`` has nothing to
    decide now."""
    lang = lang or ENGLISH
    if not hints_on(table) or table.spec.hint is None:
        raise GameError("hints_off", hints.hints_off(lang), catalogued=False)
    legal = table.legal(seat.seat) if seat.seat in table.pending.seats else []
    if not legal:
        waiting = [s for s in table.pending.seats if s != seat.seat]
        raise GameError("not_your_move", named(hints.not_yours(waiting, lang), table.names),
                        catalogued=False)
    # Seeded by the game, its version and the seat: the same hint every time it is asked.
    rng = random.Random(f"hint:{table.record.id}:{table.record.version}:{seat.seat}")
    return named(table.spec.hint(table.view(seat.seat), legal, rng, lang=lang), table.names)


def hint_card(text: str, accent: int, lang: str | None = None) -> ui.LayoutView:
    """The ephemeral hint message in ``lang``: a heading, the hint and a footer."""
    return card(accent=accent,
                before=["### \N{ELECTRIC LIGHT BULB} " + translate(lang, "Hint"), text],
                footer=translate(lang, "What the Normal AI would do now, from what you can "
                                 "see."), lang=lang)


async def answer_hint(interaction: discord.Interaction, table: Table, seat: SeatRecord,
                      accent: int) -> None:
    """Answer a Hint click privately (see :func:`hint_text` for the refusals)."""
    await send_ephemeral(interaction, secret=True, view=hint_card(
        hint_text(table, seat, table.member_lang), accent, table.member_lang))


__all__ = ["HINT", "OPTION", "answer_hint", "hint_card", "hint_text", "hints_on",
           "with_hint_button"]
