"""Side panels: a public message tied to a game's table for one phase of play.

A phase inside a turn, such as a negotiation between two players, is shown on a panel:
when the phase begins the turn's table message is edited in place into the panel (its
words, the table picture and the panel's buttons; posted anew only when Discord refuses
the edit or for /game status); while the phase lasts each step edits the panel in place,
which tells the turn's lines so far with the step's last (no message of its own: at most
one new message per turn); when it ends the base shows the table again in the same
message (same turn: no new message), or the panel is closed (its closing words, no
buttons) when the next table is a message of its own. Every form of the panel is one
Components V2 message (:func:`bot.discord.layout.card`).

A cog uses it by subclassing :class:`SidePanelCog` and supplying :meth:`panel_open`,
:meth:`panel_words` and :meth:`closed_words`, with the event types that open and close
a panel in :attr:`panel_opens` and :attr:`panel_closes`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any, ClassVar

import discord

from bot.discord import lean
from bot.discord.errors import thread_refuses
from bot.discord.game_cog import GameCog
from bot.discord.installs import is_one_message
from bot.discord.layout import action_rows, card
from bot.discord.outbox import edit_table, on_message, retire
from bot.discord.posting import posted_anew
from bot.discord.replies import lang_of, send_ephemeral
from bot.discord.table import EMBED_LIMIT, MOVES, Table
from bot.discord.table_lines import fit_lines
from bot.games.base import Event
from bot.i18n import N_, translate
from bot.present.base import named
from bot.runtime import Update
from bot.runtime.updates import in_language

log = logging.getLogger(__name__)


@dataclasses.dataclass
class PanelWords:
    """What an open side panel says and offers: its ``title`` (a ``### `` heading), its
    ``text`` (markdown), its choices ``items`` (buttons and selects, laid out in action
    rows) and a small ``footer`` line (``None``: none)."""

    title: str
    text: str
    items: list[discord.ui.Item[Any]] = dataclasses.field(default_factory=list)
    footer: str | None = None


class SidePanelCog(GameCog):
    """A :class:`GameCog` whose table moves onto a side panel during one phase."""

    #: What the panel is called in log lines ("negotiation panel").
    panel_name: ClassVar[str] = "side panel"
    #: The panel named for its players (a message id: "the negotiation panel").
    panel_called: ClassVar[str] = N_("the side panel")
    #: Event types that begin a new panel (its phase starts).
    panel_opens: ClassVar[tuple[str, ...]] = ()
    #: Event types that end the panel opened earlier.
    panel_closes: ClassVar[tuple[str, ...]] = ()

    # -- hooks ---------------------------------------------------------------------------

    def panel_open(self, table: Table) -> bool:
        """True while ``table`` is in the panel's phase (the game not over)."""
        return False

    async def panel_words(self, table: Table) -> PanelWords:
        """What the open panel says and offers (drawn anew for each post or edit)."""
        raise NotImplementedError

    def closed_words(self, table: Table, event: Event) -> tuple[str, str]:
        """``(title, text)`` a panel shows once ``event`` (one of :attr:`panel_closes`)
        ended it."""
        raise NotImplementedError

    # -- posting -------------------------------------------------------------------------

    async def post_table(self, table: Table, events: list[Event] | None = None,
                         interaction: discord.Interaction | None = None, *,
                         fresh: bool = False) -> None:
        """Show the table as the base does; in the panel's phase, the turn's table message
        edited into the panel (:meth:`_post_panel`)."""
        channel = self.channel_of(table.record)
        if channel is None:
            return
        if table.result is not None or not self.panel_open(table):
            await super().post_table(table, events, interaction, fresh=fresh)
            return
        if is_one_message(table.record):
            await self._panel_in_place(table, events, interaction)
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
            async with self.bot.render_slots:
                await self._post_panel(channel, table, events, interaction, fresh=fresh)

    async def _panel_in_place(self, table: Table, events: list[Event] | None,
                              interaction: discord.Interaction | None) -> None:
        """The panel of a one-message game: its one message edited into the panel, saying
        whose turn it is (no ping; :mod:`bot.discord.one_message`)."""
        gid = table.record.id
        async with self._post_locks.setdefault(gid, asyncio.Lock()), self.bot.render_slots:
            fresh = await self.brought_up_to_date(table, events)
            if fresh is None:
                return
            lines, _ = fresh
            self._said[gid] = lines
            parts = await self._panel_parts(table, lines, self.whose_turn(table) or None)
            await self.edit_one(table, interaction, attachments=[await self.render_file(table)],
                                allowed_mentions=discord.AllowedMentions.none(), **parts)

    async def _panel_parts(self, table: Table, latest: list[str] | None,
                           head: str | None = None) -> dict[str, Any]:
        """The panel as a Components V2 message's keyword arguments (``view``): ``head``
        (the pings the turn's table was posted with), :meth:`panel_words` (its title as a
        ``### `` heading, its text), ``latest`` (lines, already named) as bullets after
        it (the oldest summarised when they do not fit, see
        :func:`~bot.discord.table.fit_lines`), the table picture (``table.png``, with its
        alternative text), a lesson's explanation (:attr:`Table.lesson`), the panel's
        choices as action rows and its footer."""
        said = await self.panel_words(table)
        words = [f"### {said.title}" if said.title else "", said.text[:EMBED_LIMIT - 300]]
        if latest:
            words.append(fit_lines(latest, EMBED_LIMIT - sum(map(len, words)) - 2, table.lang))
        return {"view": card(accent=self.accent, before=[head or "", *words],
                             picture="table.png", alt=self.alt_text(table, latest or []),
                             after=[table.lesson], rows=action_rows(said.items),
                             footer=said.footer, lang=table.lang)}

    async def _post_panel(self, channel: discord.abc.Messageable, table: Table,
                          events: list[Event] | None,
                          interaction: discord.Interaction | None = None, *,
                          fresh: bool = False) -> None:
        """Show the panel as the turn's table message (see :meth:`post_table`): edited in
        place, with the lines it told and ``events``' last and no ping (the turn's ping was
        made); posted
        anew when there is no table message, with ``fresh`` (/game status), or when
        Discord refuses the edit (then with no ping). Raises as the base's posts."""
        old = table.record.table_message_id
        lines = self.public_lines(table, events)
        file = await self.render_file(table)
        refused: discord.HTTPException | None = None
        if old and not fresh:
            told = self._lines_shown(table.record.id, old, interaction) + lines
            # The turn's ping stays written as posted (an edit pings nobody again).
            kept = self._pinged(table, table.record.pinged_key, old)
            parts = await self._panel_parts(table, told, self._ping_text(table, kept))
            try:
                await edit_table(channel, interaction, old, self._posted.get(table.record.id),
                                 attachments=[file], allowed_mentions=table.pings(kept), **parts)
                self._remember(table, old, told, parts["view"])
                return
            except discord.HTTPException as exc:
                refused = self._edit_refused(table.record, exc)
            file.reset()
        humans = [s for s in table.pending.seats if table.is_human(s)
                  and self.pings_members(table)] if refused is None else []
        kwargs = await self._panel_parts(table, lines, self._ping_text(table, humans))
        panel = await lean.send(channel, file=file, **kwargs,
                                allowed_mentions=table.pings(humans))
        self._posted.pop(table.record.id, None)
        retired = self._retired.pop(table.record.id, None)
        self._remember(table, panel, lines, kwargs["view"])
        self._heads[table.record.id] = (panel, humans)
        await self.bot.store.update_game(table.record.id, table_message_id=panel)
        table.record = table.record.model_copy(update={"table_message_id": panel})
        self._note_recorded(table.record.id, table.state.version, panel,
                            table.record.pinged_key)
        await retire(channel, None, old, None, retired)
        if refused is not None and interaction is not None:
            lang = lang_of(interaction, table.lang)
            await send_ephemeral(interaction, posted_anew(
                refused, lang, translate(lang, self.panel_called)))

    @staticmethod
    def _ping_text(table: Table, seats: list[str]) -> str:
        """The mentions of ``seats``' members, as a panel's first line."""
        return " ".join(table.mention(s) for s in seats)

    async def edit_panel(self, table: Table, latest: list[str] | None = None,
                         interaction: discord.Interaction | None = None,
                         ) -> discord.HTTPException | None:
        """Redraw the open panel in place (no ping), the lines it told and ``latest`` (the
        step just made, in words) as bullets after its words; through ``interaction``
        (the click) when it was made on the panel (:func:`~bot.discord.outbox.edit_table`).
        When Discord refuses the edit (an old
        message's edits used up, a permission, the message deleted) the panel is posted
        anew (no ping), recorded as the table message, and that refusal returned (None:
        edited, or not shown at all); a refusal of the thread itself or of the new post
        is logged, not raised."""
        channel = self.channel_of(table.record)
        old = table.record.table_message_id
        if channel is None or not old:
            return None
        told = self._lines_shown(table.record.id, old, None) + (latest or [])
        kept = self._pinged(table, table.record.pinged_key, old)
        kwargs = await self._panel_parts(table, told, self._ping_text(table, kept))
        try:
            await edit_table(channel, interaction if on_message(interaction, old) else None,
                             old, allowed_mentions=table.pings(kept), **kwargs)
            self._remember(table, old, told, kwargs["view"])
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
                kwargs = await self._panel_parts(table, told)
                panel = await lean.send(channel, file=await self.render_file(table), **kwargs,
                                        allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                log.info("could not edit the %s of game %s (%s) nor post it anew (%s)",
                         self.panel_name, table.record.id, refused, exc)
                return None
            retired = self._retired.pop(table.record.id, None)
            self._remember(table, panel, told, kwargs["view"])
            self._heads[table.record.id] = (panel, [])
            await self.bot.store.update_game(table.record.id, table_message_id=panel)
        log.info("game %s: the edit of its %s was refused (%s); posted anew",
                 table.record.id, self.panel_name, refused)
        await retire(channel, None, old, None, retired)
        return refused

    async def close_panel(self, table: Table, event: Event) -> None:
        """Close the panel ended by ``event``: the turn's lines it told, then
        :meth:`closed_words` (a ``### `` title and its text), with the picture it showed;
        no buttons; a refusal is logged, not raised."""
        channel = self.channel_of(table.record)
        old = table.record.table_message_id
        if channel is None or not old:
            return
        title, text = self.closed_words(table, event)
        told = self._lines_shown(table.record.id, old, None)
        kept = self._pinged(table, table.record.pinged_key, old)
        words = [fit_lines(told, EMBED_LIMIT - len(text) - 2, table.lang) if told else "",
                 f"### {title}" if title else "", text]
        view = card(accent=self.accent, before=[self._ping_text(table, kept), *words],
                    picture="table.png", alt=self.alt_text(table, told), lang=table.lang)
        try:
            await lean.edit(channel, old, view=view, allowed_mentions=table.pings(kept))
            self._retired[table.record.id] = (old, view)  # retired as closed
        except (discord.HTTPException, AttributeError):
            log.info("could not close the %s of game %s", self.panel_name, table.record.id)

    async def on_update(self, update: Update, interaction: discord.Interaction | None = None) -> None:
        """As the base, plus: when its phase ends a panel opened earlier shows the table
        again (the same turn: edited in place), or is closed when the next table is a new
        message; while it lasts, each step edits the panel in place (:meth:`panel_step`)."""
        if update.kind not in MOVES or update.state is None or is_one_message(update.record):
            await super().on_update(update, interaction)  # one message: panel or table
            return
        table = Table(update.record, update.seats, update.spec, update.state,
                      derived=update.derived)
        events = update.events()
        for e in events:
            if e.type in self.panel_opens:
                break
            if e.type in self.panel_closes:
                if table.result is None and self.ping_key(table) != table.record.pinged_key:
                    await self.close_panel(table, e)  # the next table is a new message
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
        public lines (and notes) after the turn's lines so far. No message of its own and so no ping (at most one
        new message per turn)."""
        lines = [self.event_line(table, e) for e in update.events() if e.to is None]
        lines += [named(in_language(n, table.lang), table.names) for n in update.notes]
        refused = await self.edit_panel(table, lines, interaction)
        if refused is not None and interaction is not None:
            lang = lang_of(interaction, table.lang)
            await send_ephemeral(interaction, posted_anew(
                refused, lang, translate(lang, self.panel_called)))


__all__ = ["PanelWords", "SidePanelCog"]
