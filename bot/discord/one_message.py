"""A game in one message: the outbox where the bot has no thread (a DM, a group DM, a
server where only a member installed herdbot; UX.md "Play anywhere").

The lobby message becomes the table and every change edits that one Components V2
message through the interactions players make, never with the bot's token (the bot user
is no member there):

- a click on the table edits it through the click's own response;
- a change made elsewhere (a private panel's click, a turn timer, an AI seat) edits it
  through the token of the last interaction made on the table, while Discord keeps it
  (15 minutes; :class:`bot.discord.tokens.LiveTokens` forgets it a minute before, so no
  request is made with a dead token); then the table shows the change at the next click
  on it (a turn after the token expired is shown through the next player's interaction);
- the table says whose turn it is instead of pinging; nothing is sent by DM; private
  events reach the clicker ephemerally (at most a few followups per click, well under
  Discord's 5 for a user install); hands are seen with My hand, ephemerally;
- a **Continue** button on the table brings it up to date whenever nobody touched it
  longer than a token lives.

Same engines, presenters, timers, AI seats and store as the thread's outbox
(:mod:`bot.discord.table_posts`); only where the table goes differs.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord import ack, lean
from bot.discord.components import button
from bot.discord.installs import is_one_message
from bot.discord.layout import card
from bot.discord.outbox import edit_clicked, on_message
from bot.discord.replies import send_ephemeral
from bot.discord.result_post import with_card
from bot.discord.table import Table, TableLook
from bot.discord.table_lines import fit_lines
from bot.discord.text import and_list
from bot.discord.tokens import LiveTokens
from bot.discord.unseen import led_by
from bot.games.base import Event
from bot.i18n import translate
from bot.store import STORE_FAILURES

log = logging.getLogger(__name__)

#: Event lines one table keeps (the oldest go: /game log has every move).
KEPT_LINES = 12
#: The code of the table's Continue button.
CONTINUE = "continue"


class OneMessage(TableLook):
    """How a game cog shows a one-message game (a mixin of
    :class:`bot.discord.table_posts.TablePosts` and :class:`bot.discord.clicks.Clicks`)."""

    #: game id -> the last interaction made on its table while its token lives (it edits
    #: the table; never used past its 15 minutes).
    _tokens: LiveTokens
    #: game id -> the event lines its table shows (a display cache only).
    _said: dict[int, list[str]]

    async def final_message(self, table: Table,
                            lines: list[str] | None = None) -> dict[str, Any] | None:
        """The end as one message's parts (:meth:`TablePosts.final_message`)."""
        raise NotImplementedError

    def whose_turn(self, table: Table) -> str:
        """The line above a one-message table: whose turn it is, by name (no ping); none
        for a decision the thread would ping nobody for (a reaction window names nobody:
        its own text says who may answer)."""
        seats = table.pending.seats
        if table.result is not None or not seats or not self.pings_members(table):
            return ""
        names = [f"**{table.names[s]}**" for s in seats]
        return "\N{BLACK RIGHT-POINTING TRIANGLE} " + translate(
            table.lang, "Waiting for {who}.", who=and_list(table.lang, names))

    def _remember_token(self, game_id: int, interaction: discord.Interaction | None) -> None:
        if interaction is not None:
            self._tokens.keep(game_id, interaction)

    async def edit_one(self, table: Table, interaction: discord.Interaction | None,
                       **kwargs: Any) -> bool:
        """Edit the table message of one-message game ``table`` with ``kwargs``: through
        ``interaction`` when it was made on the table, else through the last token made
        on it. Returns False when no token can edit it now (it shows the change at the
        next click). Raises :class:`discord.HTTPException` for other refusals."""
        gid = table.record.id
        message_id = table.record.table_message_id
        kwargs.setdefault("embeds", [])  # the lobby's embed goes when it becomes the table
        if interaction is not None and on_message(interaction, message_id):
            if ack.ack_of(interaction) is not None:
                await edit_clicked(interaction, **kwargs)
            elif ack.answered(interaction):
                await lean.edit_original(interaction, **kwargs)
            else:
                await interaction.response.edit_message(**kwargs)
            self._remember_token(gid, interaction)
            return True
        return await self._tokens.edit(gid, **kwargs)

    def table_buttons(self, table: Table) -> list[discord.ui.Item[Any]]:
        """The table's buttons, and Continue on a running one-message table."""
        items = super().table_buttons(table)
        if is_one_message(table.record) and table.record.status == "active" \
                and table.result is None:
            items.append(button("g", table.record.id, CONTINUE, translate(table.lang, "Continue"),
                                emoji="\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}",
                                row=self.utility_row))
        return items

    async def brought_up_to_date(self, table: Table, events: list[Event] | None
                                 ) -> tuple[list[str], dict[str, float]] | None:
        """``table`` given the stored game and its rules deadline, and the lines its one
        message shows with the public ``events`` (the last :data:`KEPT_LINES`) with the
        game's deadlines; ``None`` when ``table`` is older than the stored game (the
        newer one follows). One read."""
        stored, due = await self.bot.store.game_and_deadlines(table.record.id)
        if stored is not None and stored.version > table.state.version:
            return None
        if stored is not None:
            table.record = stored
        table.deadline = due.get("rules")
        said = self._said.get(table.record.id, []) + self.public_lines(table, events)
        return said[-KEPT_LINES:], due

    async def post_one_message(self, table: Table, events: list[Event] | None,
                               interaction: discord.Interaction | None) -> None:
        """Show ``table`` (with the public ``events``) in its one message; a table older
        than the stored game shows nothing (the newer one follows). The end replaces it
        with the final scores and the result card. One read: the game and its deadlines."""
        gid = table.record.id
        fresh = await self.brought_up_to_date(table, events)
        if fresh is None:
            return
        lines, due = fresh
        if table.result is not None:
            parts = await self.final_message(table, lines)
            if parts is not None:
                parts = await with_card(self.bot, table, parts)
                table.shown_end = True  # (shown at the next click when no token can)
                await self.drop_unseen(gid)
                await self.edit_one(table, interaction, view=parts["view"],
                                    attachments=[parts["file"], *parts.get("cards", [])],
                                    allowed_mentions=discord.AllowedMentions.none())
                self.forget_one(gid)
                return
        file = await self.render_file(table)
        layout = self.table_card(table, lines=lines, deadline=due.get("turn"),
                                 head=self.whose_turn(table) or None)
        self._said[gid] = lines
        await self.edit_one(table, interaction, view=layout, attachments=[file],
                            allowed_mentions=discord.AllowedMentions.none())

    async def refresh_one_message(self, interaction: discord.Interaction, table: Table,
                                  note: str | None = None) -> None:
        """Continue (or a stale click on the table): the clicked table edited to the
        current state (the end, for a finished game) through this click; ``note`` is said
        to the clicker privately."""
        await self.post_one_message(table, None, interaction)
        if note is not None:
            await send_ephemeral(interaction, note)

    async def own_answer(self, table: Table, seat: str, kwargs: dict[str, Any]
                         ) -> dict[str, Any]:
        """A private answer to ``seat`` (My hand) led, in a one-message game, by the
        private lines kept for that seat since its last look (taken from the store), in
        the member's language."""
        if not is_one_message(table.record):
            return kwargs
        kept = await self.bot.store.take_unseen(table.record.id, seat)
        return led_by(kwargs, kept, table.member_lang)

    async def end_one_message(self, table: Table, why: str,
                              interaction: discord.Interaction | None = None) -> None:
        """A one-message game ended early: its table says so, without buttons (through
        ``interaction`` when it was made on the table, else the last token)."""
        view = card(accent=self.accent, before=[f"\N{BLACK SQUARE FOR STOP} {why}",
                                                fit_lines(self._said.get(table.record.id, []),
                                                          1500, table.lang)],
                    footer=self.table_footer(table), lang=table.lang)
        try:
            await self.edit_one(table, interaction, view=view, attachments=[])
        except discord.HTTPException as exc:
            log.info("game %s: could not show its end: %s", table.record.id, exc)
        await self.drop_unseen(table.record.id)
        self.forget_one(table.record.id)

    def forget_one(self, game_id: int) -> None:
        """Drop the token and lines kept in memory for game ``game_id``."""
        self._tokens.drop(game_id)
        self._said.pop(game_id, None)

    async def drop_unseen(self, game_id: int) -> None:
        """Delete the private lines kept for ended game ``game_id`` (nobody looks now); a
        store that cannot is logged (the lines go with the game's row)."""
        try:
            await self.bot.store.drop_unseen(game_id)
        except STORE_FAILURES as exc:
            log.info("game %s: could not drop its unseen lines: %s", game_id, exc)
