"""Clicks on a game's table and panels: decode, call the runtime, answer the clicker.

:class:`Clicks` holds what a game cog does with a click the router handed it
(:meth:`Clicks.handle_component`): the checks shared by every game, the presenter's
choices decoded against the legal actions, the panels and pages drawn privately, the move
made through the service (whose update the outbox shows), and the ephemeral answers.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.discord import ack, choices, ids, layout, lean, takeback
from bot.discord.hints import HINT, answer_hint, with_hint_button
from bot.discord.installs import is_one_message
from bot.discord.one_message import CONTINUE, OneMessage
from bot.discord.outbox import on_message
from bot.discord.replies import defer, edit_panel, lang_of, send_ephemeral, send_error
from bot.discord.table import WATCH, Table, TableLegal
from bot.discord.watch import FOLLOW, Watching
from bot.games.base import Action, State
from bot.i18n import N_, translate
from bot.present import base as present
from bot.present.base import TableModel
from bot.render.pool import Job, picture_png
from bot.runtime import GameError, Known, Update
from bot.store import GameRecord, SeatRecord

log = logging.getLogger(__name__)


class Clicks(Watching, OneMessage):
    """What a game cog does with a click on its table or its panels (a mixin of
    :class:`bot.discord.game_cog.GameCog`; the hooks are
    :class:`~bot.discord.table.TableLook`'s, the spectators' :class:`Watching`'s and the
    one-message outbox's :class:`OneMessage`'s)."""

    async def on_choice(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord,
        kind: str, key: str, arg: str, values: list[str],
    ) -> Update | None:
        """A presenter choice was clicked: play ``legal_actions[index]`` (a button ``a``
        or a select ``s``) or open a panel (``o``). Stale keys answer "This table has
        moved on", forged indexes and panels are refused in a sentence; nothing changes.
        Returns the move's update (``None``: no move was made)."""
        bad = GameError("bad_button", N_("This button is not one herdbot understands."))
        engine: Any = TableLegal(table)
        try:
            if kind == "o":
                await self.open_panel(interaction, table, seat, key, arg)
                return None
            if kind == "s" and len(values) != 1:
                raise GameError("bad_choice", N_("Choose one option."))
            value = arg if kind == "a" else values[0]
            index, fingerprint = present.index_of(value), present.print_of(value)
            action = present.decode(engine, table.state, seat.seat, key, index, fingerprint)
        except present.StaleChoice:
            await self.answer_stale(interaction, table)
            return None
        except present.ForgedChoice:
            if kind == "s":
                raise GameError("bad_choice", N_("Choose one of the options shown.")) from None
            raise bad from None
        if seat.ai_takeover:
            await send_error(interaction, translate(
                table.member_lang, "The AI is playing your seat: press I'm back first."))
            return None
        ephemeral = lean.on_ephemeral(interaction)
        said: str | None = None
        if ephemeral:
            # The choice as drawn now (a fingerprinted pick may name another index today).
            legal = table.legal(seat.seat)
            shown = legal.index(action) if action in legal else index
            said = next((c.says for c in self._choices(self.model(table, seat.seat,
                                                                  lang=table.member_lang))
                         if c.index == shown and c.says and c.seat in (None, seat.seat)), None)

        def choose(state: State) -> Action:
            try:
                return present.decode(engine, state, seat.seat, key, index, fingerprint)
            except present.StaleChoice:
                raise GameError("stale", N_("This table has moved on.")) from None
            except present.ForgedChoice:
                raise bad from None

        update = await self.act(interaction, table, seat, choose, version=-1)
        if update is not None and ephemeral and said:
            # The private panel's buttons are spent: it says what was done instead.
            try:
                await edit_panel(interaction, private=True, content=None, attachments=[],
                                 view=layout.panel(accent=self.accent, words=said,
                                                   lang=table.member_lang))
            except discord.HTTPException as exc:
                log.info("could not close a private panel: %s", exc)
        return update

    @staticmethod
    def _choices(model: TableModel) -> list[present.Choice]:
        """Every choice of ``model``: the table's, the panels' and the selects' options."""
        out: list[present.Choice] = []
        for items in [model.items, *(p.items for p in model.panels.values())]:
            for item in items:
                out += item.options if isinstance(item, present.Select) else [item]
        return out

    async def turn_choice_page(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord, key: str,
        page: int,
    ) -> None:
        """Previous/Next of a paged presenter select: its items redrawn at ``page`` (from
        0) for the player to choose, in the clicked panel, or (from the public table) in
        a new ephemeral message."""
        engine: Any = TableLegal(table)
        who = present.seat_for(engine, table.state, seat.seat, key)
        if who != seat.seat:
            raise GameError("not_yours", N_("This choice is not yours to make."))
        model = self.model(table, who, lang=table.member_lang)
        items: Sequence[present.Item] = model.items
        text = "\n".join(model.lines)
        ephemeral = lean.on_ephemeral(interaction)
        if ephemeral:
            panel = next((p for p in model.panels.values()
                          if any(isinstance(i, present.Select) for i in p.items)), None)
            if panel is not None:
                items, text = panel.items, panel.text
        view = layout.panel(accent=self.accent, words=text, items=self.draw(
            table.record.id, key, items, keys=model.keys, page={present.select_code(key): page},
            prints=model.prints, lang=table.member_lang), lang=table.member_lang)
        if ephemeral:
            await edit_panel(interaction, private=True, content=None, view=view)
        else:
            await send_ephemeral(interaction, view=view)

    async def open_panel(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord, key: str,
        name: str,
    ) -> None:
        """Show panel ``name`` of the model drawn for decision ``key`` privately: a new
        ephemeral message, or the clicked panel edited in place. Someone other than the
        player to choose gets the engine's refusal in words. A stale ``key`` opens the
        clicker's panel as it is now when the clicker still decides in a decision several
        seats make at once (:func:`bot.present.base.still_deciding`), else raises
        :class:`~bot.present.base.StaleChoice`."""
        engine: Any = TableLegal(table)
        try:
            who = present.seat_for(engine, table.state, seat.seat, key)
        except present.StaleChoice:
            # Drawn before another seat's move in a decision this seat still makes: its
            # panel as it is now.
            if not (present.still_deciding(engine, table.state, seat.seat)
                    and name in self.model(table, seat.seat).panels):
                raise
            who = seat.seat
        model = self.model(table, who, lang=table.member_lang if who == seat.seat else None)
        if name not in model.panels:
            raise present.ForgedChoice(name)
        if who != seat.seat:
            first = present.first_index(model, name)
            if first is None:
                raise present.ForgedChoice(name)
            exc = present.refusal(engine, table.state, seat.seat, table.legal(who)[first])
            raise GameError(exc.code, self.refusal_line(table, exc.message), catalogued=False)
        panel = model.panels[name]
        view = layout.panel(accent=self.accent, words=panel.text, items=self.draw(
            table.record.id, model.key, panel.items, keys=model.keys, prints=model.prints,
            lang=table.member_lang), lang=table.member_lang)
        if lean.on_ephemeral(interaction):
            await edit_panel(interaction, private=True, content=None, view=view)
        else:
            await send_ephemeral(interaction, view=view)

    async def on_game_component(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord,
        cid: ids.ComponentId, values: list[str],
    ) -> None:
        """Handle a game button or select (the base already checked game, seat and version)."""
        raise GameError("bad_button", N_("This button is not one herdbot understands."))

    async def turn_page(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord, code: str,
        page: int,
    ) -> None:
        """Previous/Next of the paged select ``code`` (see :mod:`bot.discord.choices`):
        edit the clicked message to show page ``page`` (from 0), or raise
        :class:`GameError` when the select is out of date. Default: no paged selects."""
        raise GameError("bad_button", N_("This button is not one herdbot understands."))

    async def private_panel(
        self, table: Table, seat: SeatRecord
    ) -> dict[str, Any]:
        """Keyword arguments for the ephemeral "My hand" message: a Components V2 ``view``
        (:func:`bot.discord.layout.panel`, the game's accent colour) and, where it shows a
        close-up, its ``file``. By default the presenter's private lines from the seat's own
        view, in the member's language (:attr:`Table.member_lang`)."""
        if self.presenter is not None:
            lines = self.presenter.private_lines(table.view(seat.seat), seat.seat, table.names,
                                                 lang=table.member_lang)
            return {"view": layout.panel(accent=self.accent, words="\n".join(lines),
                                         lang=table.member_lang)}
        # (only a game without a presenter, such as the tests' own, comes here)
        return {"view": layout.panel(accent=self.accent,
                                     words="You have no hidden cards in this game.")}

    async def closeup(self, table: Table, name: str, *args: Any, **kwargs: Any) -> bytes:
        """PNG bytes of the game's close-up ``name`` (``table.spec.closeups``) drawn from
        ``args`` and ``kwargs``, through the kept pictures (:meth:`HerdBot.draw`)."""
        return await self.bot.draw(Job(picture_png, (table.spec.closeups[name], *args), kwargs))

    async def own_panel(self, table: Table, seat: SeatRecord) -> dict[str, Any]:
        """:meth:`private_panel` with the Hint button when the game's hints are on."""
        return with_hint_button(table, await self.private_panel(table, seat))


    # -- loading -----------------------------------------------------------------------

    async def load_table(self, game_id: int, record: GameRecord | None = None,
                         known: Known | None = None) -> Table:
        """Load a started game (``record``: its row as just read, not read again;
        ``known``: the game, its seats and timers as just read, nothing read again). Raises
        :class:`GameError` if it does not exist."""
        if known is not None and known.bundle is not None:
            record, seats, spec, state, _ = await self.bot.service.read(game_id, known)
            return Table(record, seats, spec, state, known=known,
                         derived=known.derived if state is known.state else {})
        record, seats, spec, state = await self.bot.service.load(game_id, record)
        return Table(record, seats, spec, state,
                     derived=self.bot.service.derived_of(game_id, state))


    # -- interactions ------------------------------------------------------------------

    async def handle_component(
        self, interaction: discord.Interaction, cid: ids.ComponentId, values: list[str],
        record: GameRecord | None = None, known: Known | None = None,
    ) -> None:
        """Checks shared by every game component, then :meth:`on_game_component`.
        ``record``: the game's row as the router just read it (not read again);
        ``known``: the game with its seats and timers as the router read it."""
        if cid.code == "endyes":  # before loading: a quarantined game can be ended too
            perms = getattr(interaction.user, "guild_permissions", None)
            await defer(interaction, ephemeral=True)
            await self.bot.service.end(cid.game_id, interaction.user.id,
                                       manage_guild=bool(perms and perms.manage_guild))
            await send_ephemeral(interaction, translate(lang_of(interaction), "The game has ended."))
            return
        table = await self.load_table(cid.game_id, record, known)
        table.client_locale = str(interaction.locale)
        seat = table.seat_of(interaction.user.id)
        on_table = is_one_message(table.record) and on_message(
            interaction, table.record.table_message_id)
        if seat is not None and on_table and (
                (cid.code == CONTINUE and table.record.status == "active")
                or table.result is not None):
            # The one message brought up to date through this click (the end, when over).
            over = None if cid.code == CONTINUE else translate(table.member_lang,
                                                                "This game is over.")
            await self.refresh_one_message(interaction, table, over)
            return
        if seat is not None and on_table and table.record.status != "active":
            # Ended early while no token could show it: shown through this click.
            await self.end_one_message(
                table, translate(table.lang, "This game has ended; no scores are recorded."),
                interaction)
        if table.record.status != "active":
            raise GameError("not_active", N_("This game is over."))
        if cid.code == WATCH:
            await self.watch(interaction, table)
            return
        if cid.code == FOLLOW:
            await self.follow(interaction, table)
            return
        if seat is None:
            raise self.refuse_outsider(table, interaction.user.id)
        if cid.code == "hand":
            await send_ephemeral(interaction, secret=True, **await self.own_answer(
                table, seat.seat, await self.own_panel(table, seat)))
            return
        if cid.code == HINT:
            await answer_hint(interaction, table, seat, self.accent)
            return
        if cid.code == "back":
            if not seat.ai_takeover:
                raise GameError("not_away", N_("Your seat is already yours."))
            await defer(interaction)
            update = await self.bot.service.set_takeover(table.record.id, interaction.user.id, False)
            await send_ephemeral(interaction, translate(table.member_lang,
                                                        "Welcome back: your seat is yours again."))
            del update
            return
        if cid.code in (takeback.ALLOW, takeback.REFUSE):
            await takeback.answer(self.bot, interaction, cid)
            return
        if cid.version is not None and cid.version != table.record.version:
            await self.answer_stale(interaction, table)
            return
        code, paged, page = choices.parse_page(cid.code)
        parsed = present.parse_code(code) if self.presenter is not None else None
        if parsed is not None:
            try:
                if paged in ("b", "f"):
                    await self.turn_choice_page(interaction, table, seat, parsed[1],
                                                page - 1 if paged == "b" else page + 1)
                else:
                    await self.on_choice(interaction, table, seat, *parsed, values)
            except present.StaleChoice:
                await self.answer_stale(interaction, table)
            except present.ForgedChoice:
                raise GameError("bad_button", N_("This button is not one herdbot understands.")) from None
            return
        if paged is not None:
            # A page of a paged select: the cog sees its own code; Previous/Next redraw.
            cid = dataclasses.replace(cid, code=code)
            if paged in ("b", "f"):
                await self.turn_page(interaction, table, seat, code,
                                     page - 1 if paged == "b" else page + 1)
                return
        await self.on_game_component(interaction, table, seat, cid, values)

    async def answer_stale(self, interaction: discord.Interaction, table: Table) -> None:
        """"This table has moved on", with the current table (ephemeral); a one-message
        table clicked is brought up to date in place instead."""
        if is_one_message(table.record) and on_message(interaction,
                                                       table.record.table_message_id):
            await self.refresh_one_message(interaction, table, translate(
                table.member_lang, "This table has moved on: it shows the current position now."))
            return
        shown = table.told_in(table.member_lang)  # the member's own copy: their language
        file = await self.render_file(shown)
        await send_ephemeral(
            interaction, view=self.table_card(
                shown, buttons=False, head=translate(
                    shown.lang, "This table has moved on. Here is the current one:")),
            file=file,
        )

    async def act(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: SeatRecord,
        action: Action | dict[str, Any] | Callable[[State], Action],
        *,
        version: int | None = None,
    ) -> Update | None:
        """Acknowledge (unless the click's answer is held for the table's first write,
        :mod:`bot.discord.ack`), apply ``action`` through the service and show the result.
        A refusal is answered ephemerally in words and changes nothing; returns ``None``
        then.
        ``version``: the state version the click was drawn for (``None``: the loaded
        table's; ``-1``: none, for a callable that decodes the click itself)."""
        if seat.ai_takeover:
            await send_error(interaction, translate(
                table.member_lang, "The AI is playing your seat: press I'm back first."))
            return None
        if not ack.pending(interaction):  # (held: the table's first write answers it)
            await defer(interaction)
        try:
            # The service publishes the change; the outbox shows it through this click.
            return await self.bot.service.act(
                table.record.id, seat.seat, action,
                expected_version=(table.record.version if version is None
                                  else None if version < 0 else version),
                origin=interaction, known=table.known,
            )
        except GameError as exc:
            if exc.code == "stale":
                fresh = await self.load_table(table.record.id)
                fresh.client_locale = table.client_locale
                await self.answer_stale(interaction, fresh)
            else:
                said = (exc if exc.catalogued
                        else self.refusal_line(table, exc.message))  # an engine's refusal
                await send_error(interaction, said, names=table.names, lang=table.member_lang,
                                 secret=self.hidden_info)
            return None
