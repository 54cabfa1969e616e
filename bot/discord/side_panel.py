"""Side panels: a public message tied to a game's table for one phase of play.

A phase such as a negotiation between two players (or a reaction window) is shown on a
panel of its own: when the phase begins the table picture is posted with the moves so far
(no buttons), then the panel, which holds the buttons from then on (it is recorded as the
table message); while the phase lasts each step edits the panel in place, which tells the
step's lines last (no message of its own: at most one new message per turn); when it ends
the panel is closed (its buttons gone, a closing embed), and the base shows the next table
as usual.

A cog uses it by subclassing :class:`SidePanelCog` and supplying :meth:`panel_open`,
:meth:`panel_kwargs` and :meth:`closed_panel`, with the event types that open and close
a panel in :attr:`panel_opens` and :attr:`panel_closes`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

import discord

from bot.discord.errors import thread_refuses
from bot.discord.game_cog import GameCog
from bot.discord.outbox import retire
from bot.discord.replies import send_ephemeral
from bot.discord.table import EMBED_LIMIT, MOVES, Table
from bot.discord.table_posts import posted_anew
from bot.games.base import Event
from bot.present.base import named
from bot.runtime import Update

log = logging.getLogger(__name__)


class SidePanelCog(GameCog):
    """A :class:`GameCog` whose table moves onto a side panel during one phase."""

    #: What the panel is called in log lines ("negotiation panel").
    panel_name: ClassVar[str] = "side panel"
    #: Event types that begin a new panel (its phase starts).
    panel_opens: ClassVar[tuple[str, ...]] = ()
    #: Event types that end the panel opened earlier.
    panel_closes: ClassVar[tuple[str, ...]] = ()

    # -- hooks ---------------------------------------------------------------------------

    def panel_open(self, table: Table) -> bool:
        """True while ``table`` is in the panel's phase (the game not over)."""
        return False

    async def panel_kwargs(self, table: Table) -> dict[str, Any]:
        """The panel message's keyword arguments (embed, view ...) for a post or an edit."""
        raise NotImplementedError

    def closed_panel(self, table: Table, event: Event) -> discord.Embed:
        """The embed a panel shows once ``event`` (one of :attr:`panel_closes`) ended it."""
        raise NotImplementedError

    # -- posting -------------------------------------------------------------------------

    async def post_table(self, table: Table, events: list[Event] | None = None,
                         interaction: discord.Interaction | None = None, *,
                         fresh: bool = False) -> None:
        """Show the table as the base does; in the panel's phase, post the picture with
        the moves so far and then the panel (recorded as the table message, which then
        holds the buttons; it pings the members who owe an answer, unless
        :meth:`pings_members` says not to), and retire the old table's buttons."""
        channel = self.channel_of(table.record)
        if channel is None:
            return
        if table.result is not None or not self.panel_open(table):
            await super().post_table(table, events, interaction, fresh=fresh)
            return
        # Posts of one game are serialised, and a panel older than the stored state (an
        # update published late) only tells its events, as the base does for tables.
        lock = self._post_locks.setdefault(table.record.id, asyncio.Lock())
        async with lock:
            stored, due = await self.bot.store.game_and_deadlines(table.record.id)
            if stored is not None and stored.version > table.state.version:
                async with self.bot.render_slots:
                    await self._post_table(channel, table, events, interaction, fresh=fresh)
                return
            if stored is not None:
                table.record = stored
            table.deadline = due.get("rules")
            await self._post_panel(channel, table, events)

    async def _post_panel(self, channel: discord.abc.Messageable, table: Table,
                          events: list[Event] | None) -> None:
        """Post the picture with ``events`` and then the panel (see :meth:`post_table`)."""
        old = table.record.table_message_id
        file = await self.render_file(table)
        await channel.send(view=self.table_card(table, events, buttons=False), file=file)
        humans = [s for s in table.pending.seats if table.is_human(s)
                  and self.pings_members(table)]
        ping = " ".join(table.mention(s) for s in humans)
        panel = await channel.send(content=ping or None, **await self.panel_kwargs(table),
                                   allowed_mentions=table.pings(humans))
        await self.bot.store.update_game(table.record.id, table_message_id=panel.id)
        await retire(channel, None, old, None, self._retired.pop(table.record.id, None))

    async def edit_panel(self, table: Table, latest: list[str] | None = None
                         ) -> discord.HTTPException | None:
        """Redraw the open panel in place (no ping), ``latest`` (the step just made, in
        words) as bullets at the end of its embed. When Discord refuses the edit (an old
        message's edits used up, a permission, the message deleted) the panel is posted
        anew (no ping), recorded as the table message, and that refusal returned (None:
        edited, or not shown at all); a refusal of the thread itself or of the new post
        is logged, not raised."""
        channel = self.channel_of(table.record)
        old = table.record.table_message_id
        if channel is None or not old:
            return None
        kwargs = await self.panel_kwargs(table)
        embed = kwargs.get("embed")
        if latest and isinstance(embed, discord.Embed):
            told = "\n".join(f"\N{BULLET} {t}" for t in latest)
            embed.description = (f"{embed.description or ''}\n\n{told}".strip())[-EMBED_LIMIT:]
        try:
            await channel.get_partial_message(old).edit(**kwargs)  # type: ignore[attr-defined]
            return None
        except AttributeError:
            refused = None
        except discord.HTTPException as exc:
            refused = exc
        if refused is None or thread_refuses(refused):
            log.info("could not edit the %s of game %s", self.panel_name, table.record.id)
            return None
        async with self._post_locks.setdefault(table.record.id, asyncio.Lock()):
            try:
                panel = await channel.send(**kwargs)
            except discord.HTTPException as exc:
                log.info("could not edit the %s of game %s (%s) nor post it anew (%s)",
                         self.panel_name, table.record.id, refused, exc)
                return None
            await self.bot.store.update_game(table.record.id, table_message_id=panel.id)
        log.info("game %s: the edit of its %s was refused (%s); posted anew",
                 table.record.id, self.panel_name, refused)
        await retire(channel, None, old)
        return refused

    async def close_panel(self, table: Table, event: Event) -> None:
        """Close the panel ended by ``event``: :meth:`closed_panel`'s embed, no content,
        no buttons; a refusal is logged, not raised."""
        channel = self.channel_of(table.record)
        if channel is None or not table.record.table_message_id:
            return
        embed = self.closed_panel(table, event)
        try:
            await channel.get_partial_message(table.record.table_message_id).edit(  # type: ignore[attr-defined]
                content=None, embed=embed, view=None)
        except (discord.HTTPException, AttributeError):
            log.info("could not close the %s of game %s", self.panel_name, table.record.id)

    async def on_update(self, update: Update, interaction: discord.Interaction | None = None) -> None:
        """As the base, plus: a panel opened earlier is closed when its phase ends; while
        it lasts, each step edits the panel in place (:meth:`panel_step`)."""
        if update.kind not in MOVES or update.state is None:
            await super().on_update(update, interaction)
            return
        table = Table(update.record, update.seats, update.spec, update.state)
        events = update.events()
        for e in events:
            if e.type in self.panel_opens:
                break
            if e.type in self.panel_closes:
                await self.close_panel(table, e)
                break
        started_now = any(e.type in self.panel_opens for e in events)
        if not self.panel_open(table) or started_now:
            await super().on_update(update, interaction)
            return
        await self.panel_step(table, update, interaction)
        await self.send_private_events(table, update, interaction)

    async def panel_step(self, table: Table, update: Update,
                         interaction: discord.Interaction | None) -> None:
        """A step inside the panel's phase: the panel edited in place, telling the step's
        public lines (and notes) last. No message of its own and so no ping: the panel
        pinged the members who owe an answer when it opened (at most one new message per
        turn)."""
        lines = [named(e.text, table.names) for e in update.events() if e.to is None]
        lines += [named(n, table.names) for n in update.notes]
        refused = await self.edit_panel(table, lines)
        if refused is not None and interaction is not None:
            await send_ephemeral(interaction, posted_anew(refused, f"the {self.panel_name}"))


__all__ = ["SidePanelCog"]
