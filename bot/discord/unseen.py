"""Private lines a player of a one-message game has not seen yet (what the thread's outbox
would have sent them by DM: a card pulled from their hand, a card they drew on a timer):
kept per seat in the store (:mod:`bot.store.unseen`, so a restart or another process
keeps them) until that player's next private answer (My hand, or the ephemeral reply to
their next move), which starts with them under :data:`HEADING` in their language. Only
that player's own answers ever show them."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.layout import MAX_COMPONENTS, TEXT_LIMIT, fit_text
from bot.i18n import N_, translate, translate_n

#: The heading above them (shown bold, in the member's language: :func:`heading`).
HEADING = N_("Since you last looked:")
#: Characters the kept lines may always take in a panel, other words cut if need be.
FLOOR = 400


def heading(lang: str) -> str:
    """:data:`HEADING` in ``lang``, bold."""
    return f"**{translate(lang, HEADING)}**"


def since(lang: str, lines: list[str], budget: int) -> str:
    """:func:`heading` over ``lines`` in at most ``budget`` characters: the first lines
    that fit whole, the rest counted ("…and 3 more."); cut with a count
    (:func:`fit_text`) when not even the heading and the count fit."""
    head = heading(lang)
    text = head
    for keep in range(len(lines), -1, -1):
        rest = len(lines) - keep
        more = [translate_n(lang, "…and {count} more.", "…and {count} more.", rest)] \
            if rest else []
        text = "\n".join([head, *lines[:keep], *more])
        if len(text) <= budget:
            return text
    return fit_text(text, max(budget, 0), lang)


def _texts(view: discord.ui.LayoutView) -> list[discord.ui.TextDisplay[Any]]:
    return [c for c in view.walk_children() if isinstance(c, discord.ui.TextDisplay)]


def led_by(kwargs: dict[str, Any], lines: list[str], lang: str) -> dict[str, Any]:
    """A private answer's message arguments (a Components V2 ``view``) led by ``lines``
    under :func:`heading` in ``lang``, as a text display at the top of its container;
    unchanged without lines. Within Discord's limits for the message
    (:data:`~bot.discord.layout.MAX_COMPONENTS` components, nested ones counted;
    :data:`~bot.discord.layout.TEXT_LIMIT` characters over its text displays): with every
    component slot taken the lines lead its first text display instead; lines beyond the
    characters left are counted, not shown (:func:`since`), the panel's longest words
    cut with a count to leave them :data:`FLOOR` characters."""
    view = kwargs.get("view")
    if not lines or not isinstance(view, discord.ui.LayoutView):
        return kwargs
    box = next((c for c in view.children if isinstance(c, discord.ui.Container)), None)
    holder: Any = box if box is not None else view
    others = _texts(view)
    full = len(list(view.walk_children())) >= MAX_COMPONENTS
    first = next((c for c in holder.children if isinstance(c, discord.ui.TextDisplay)), None)
    if full and first is None:
        return kwargs  # (no panel of ours: each leads with words)
    joined = full
    gap = 2 if joined else 0  # the blank line between the lines and the words they lead
    room = TEXT_LIMIT - sum(len(t.content) for t in others) - gap
    while room < FLOOR and others:
        longest = max(others, key=lambda t: len(t.content))
        if len(longest.content) <= 40:
            break
        cut = fit_text(longest.content, max(len(longest.content) - (FLOOR - room), 40), lang)
        room += len(longest.content) - len(cut)
        longest.content = cut
    text = since(lang, lines, room)
    if joined and first is not None:
        first.content = f"{text}\n\n{first.content}"
        return kwargs
    items = list(holder.children)
    holder.clear_items()
    for item in [discord.ui.TextDisplay(text), *items]:
        holder.add_item(item)
    return kwargs
