"""Spectators: anyone in the channel watches a running game without a seat.

The Watch button on every running table (:meth:`TableLook.table_buttons`) answers its
presser alone with the table as it is now: the public picture and words, drawn from the
spectator's view (``view(None)``, which never holds a hidden card), without the players'
buttons, and with "Follow in the thread", which adds the member to the game's thread
without a seat. A spectator who then presses a player's button is told "You are watching
this game". Who watches is kept in memory per game until it ends (after a restart a
spectator's click gets the plain "You are not in this game").
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from bot.discord.components import button
from bot.discord.layout import action_rows
from bot.discord.replies import send_ephemeral
from bot.discord.table import WATCH_EMOJI, Table, TableLook
from bot.i18n import N_, translate
from bot.runtime import GameError

log = logging.getLogger(__name__)

#: The code of "Follow in the thread" (a spectator's panel).
FOLLOW = "follow"
#: What a spectator's click on a player's button gets.
WATCHING = N_("You are watching this game: only its players can use its buttons.")


def with_row(view: ui.LayoutView, items: Sequence[ui.Item[Any]]) -> ui.LayoutView:
    """``view`` (a :func:`~bot.discord.layout.card`) with ``items`` in action rows at the
    end of its container, above its small footer line."""
    box = next(c for c in view.children if isinstance(c, ui.Container))
    children = list(box.children)
    foot = children[-1] if children and isinstance(children[-1], ui.TextDisplay) \
        and children[-1].content.startswith("-# ") else None
    if foot is not None:
        box.remove_item(foot)
    for row in action_rows(items):
        box.add_item(row)
    if foot is not None:
        box.add_item(foot)
    return view


class Watching(TableLook):
    """Watch, Follow and the spectators' refusals (a mixin of the game cog's clicks)."""

    #: game id -> the members who pressed Watch on it (until the game ends).
    _watchers: dict[int, set[int]]

    def is_watching(self, game_id: int, user_id: int) -> bool:
        """True when ``user_id`` pressed Watch on game ``game_id`` (in this process)."""
        return user_id in self._watchers.get(game_id, set())

    def refuse_outsider(self, table: Table, user_id: int) -> GameError:
        """The refusal of a click on a player's button by ``user_id``, who holds no seat:
        :data:`WATCHING` for a spectator, else "You are not in this game."."""
        if self.is_watching(table.record.id, user_id):
            return GameError("watching", WATCHING)
        return GameError("not_in_game", N_("You are not in this game."))

    async def watch(self, interaction: discord.Interaction, table: Table) -> None:
        """Watch: the table now, to the presser alone (the spectator's view, no player's
        button), with Follow in the thread; a player is pointed to My hand instead."""
        if table.seat_of(interaction.user.id) is not None:
            await send_ephemeral(interaction, translate(
                table.member_lang, "You play in this game: My hand shows your cards."))
            return
        self._watchers.setdefault(table.record.id, set()).add(interaction.user.id)
        lang = table.member_lang
        head = WATCH_EMOJI + " " + translate(
            lang, "You are watching {title}. Here is its table now; only its players see "
            "their hands. Press Watch again for a newer one.",
            title=self.table_title(table, lang))
        shown = table.told_in(lang)  # the spectator's own copy: in their language
        view = self.table_card(shown, buttons=False, head=head)
        record = table.record
        if record.thread_id is not None and record.thread_id != record.channel_id:
            view = with_row(view, [button("g", record.id, FOLLOW,
                                          translate(lang, "Follow in the thread"),
                                          emoji="\N{SPEECH BALLOON}")])
        await send_ephemeral(interaction, view=view, file=await self.render_file(shown))

    async def follow(self, interaction: discord.Interaction, table: Table) -> None:
        """Follow in the thread: add the presser to the game's thread, without a seat."""
        thread_id = table.record.thread_id
        if thread_id is None or thread_id == table.record.channel_id:
            raise GameError("no_thread", N_("This game is played in the channel itself: "
                            "everything it shows is there already."))
        try:
            thread = self.bot.get_channel(thread_id)
            if isinstance(thread, discord.Thread):
                await thread.add_user(discord.Object(id=interaction.user.id))
            else:
                await self.bot.http.add_user_to_thread(thread_id, interaction.user.id)
        except discord.HTTPException as exc:
            log.info("game %s: could not add %s to its thread: %s", table.record.id,
                     interaction.user.id, exc)
            code = exc.code or exc.status
            raise GameError("no_follow", lambda lang: translate(
                lang, "I could not add you to the game's thread (Discord refused: error "
                "{code}).", code=code)) from exc
        self._watchers.setdefault(table.record.id, set()).add(interaction.user.id)
        lang = table.member_lang
        await send_ephemeral(interaction, translate(
            lang, "You follow {title} in {thread} now, without a seat: its tables and moves "
            "show there.", title=self.table_title(table, lang), thread=f"<#{thread_id}>"))


__all__ = ["FOLLOW", "WATCHING", "Watching", "with_row"]
