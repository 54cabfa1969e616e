"""The Llamas Unleashed cog (UX.md: "Llamas Unleashed").

What the table says and offers comes from
:class:`bot.present.unleashed.UnleashedPresenter`; clicks on its choices are decoded by
:class:`GameCog` into the engine's legal actions. What stays here is special to this game:

- reaction windows: the public Respond and Pass (``resp.<window>`` / ``pass.<window>``,
  the window's number from the pending key) look the same to every member and answer a
  member who cannot respond with the same neutral words, so nothing tells who holds an
  Instant; nobody is pinged for a window, the table's text leads with what is on the
  pile, and a Pass that leaves it open posts nothing (:meth:`UnleashedPresenter.quiet`,
  :meth:`~UnleashedPresenter.pings` and :meth:`~UnleashedPresenter.turn_text`, applied
  by the base for any game); a Pass is
  decoded against the state it applies to (:func:`passing_in`), so seats passing at the
  same moment all count;
- the My hand panel: the presenter's ``hand`` panel with the hand in words and a picture,
  a fresh one after a panel action when the same player decides again;
- ``/card`` (drawn wherever this cog is loaded, so with its own renderer).

Hands are DMed once per change of turn, only for a change the player did not see in its
own answer: the presenter's policy (:attr:`UnleashedPresenter.hand_dm_after`), sent by
:func:`bot.discord.outbox.dm_hands` as for any game.

Hands reach only their owner (RULES.md: Llamas Unleashed).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.discord import ids, layout
from bot.discord.components import button
from bot.discord.game_cog import GameCog
from bot.discord.replies import quoted, send_ephemeral, send_error
from bot.discord.table import EMBED_LIMIT, Table
from bot.games.base import Action, Event, Pending
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import Pass, Respond
from bot.i18n import member_language, translate
from bot.present.base import Seen, TableModel
from bot.present.unleashed import (
    NEUTRAL_PASS,
    NEUTRAL_RESPOND,
    PASS,
    REFRESH,
    RESPOND,
    UnleashedPresenter,
)
from bot.present.unleashed_card import card_reply, find_card, names_matching, no_such_card
from bot.render.pool import Job
from bot.render.unleashed_card import render_card
from bot.runtime import GameError, Update
from bot.store import SeatRecord

__all__ = ["NEUTRAL_PASS", "NEUTRAL_RESPOND", "UnleashedCog", "passing_in", "window_of"]


def window_of(pending: Pending) -> str:
    """The number of the open reaction window (pending key ``reaction:<n>``), else ``""``."""
    return pending.key.partition(":")[2] if pending.kind == "reaction" else ""


def passing_in(engine: Any, window: str, seat: str) -> Callable[[Any], Action]:
    """A decoder for ``GameService.act``: ``seat``'s Pass on reaction window ``window``,
    against the state it applies to (another seat's Pass meanwhile leaves it legal);
    raises ``GameError("stale")`` once that window is over or the seat has passed."""

    def passing(state: Any) -> Action:
        if window_of(engine.pending(state)) != window \
                or Pass() not in engine.legal_actions(state, seat):
            raise GameError("stale", "This table has moved on.")
        return Pass()
    return passing


class UnleashedCog(GameCog):
    """Llamas Unleashed in Discord on top of :class:`GameCog`."""

    kind = "llamas-unleashed"
    held_codes = frozenset({"resp", "pass"})

    def model(self, table: Table, seat: str | None = None,
              events: list[Event] | None = None, lang: str | None = None) -> TableModel:
        """As the base, plus the seat's own view for its private panels and the rules
        timer's deadline for the words. The public table's model (``seat`` ``None``: the
        first pending seat's) has no ``hand`` panel: that seat's own view is not drawn
        for it (kept under ``None``; a model asked for that seat by name has it)."""
        public = seat is None
        if public and table.result is None and table.record.status == "active":
            seat = next(iter(table.pending.seats), None)
        lang = lang or table.lang
        kept = None if public else seat
        if events is None and lang == table.lang:
            if kept in table.models:
                return table.models[kept]
            if public and seat in table.models:  # (the seat's full model serves as well)
                return table.models[seat]
        seen = Seen(seat, table.view(None), table.pending, table.legal(seat) if seat else [],
                    [e for e in events or [] if e.to is None], table.names, table.plain_names,
                    lang=lang, known_key=table.key(seat) if seat else None)
        presenter: UnleashedPresenter = table.spec.presenter
        own = table.view(seat) if seat and not public else None
        model = self.stamp(table, presenter.table(seen, own, table.deadline))
        if events is None and lang == table.lang:
            table.models[kept] = model
        return model

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        """Respond and Pass during a reaction window; else the presenter's (set-up)."""
        window = window_of(table.pending)
        if window and table.result is None:
            gid = table.record.id
            lang = table.lang
            return [button("g", gid, f"resp.{window}", translate(lang, RESPOND),
                           emoji="\N{HIGH VOLTAGE SIGN}", style=discord.ButtonStyle.danger),
                    button("g", gid, f"pass.{window}", translate(lang, PASS),
                           style=discord.ButtonStyle.secondary)]
        return super().table_items(table)

    def picture(self, table: Table, inputs: dict[str, Any] | None = None) -> Job | None:
        """As the base, drawn in the game's language."""
        job = super().picture(table, inputs)
        if job is None:
            return None
        return Job(job.func, job.args, {**job.kwargs, "lang": table.lang})

    # -- the private panel and the reaction windows ------------------------------------------

    async def private_panel(self, table: Table, seat: SeatRecord) -> dict[str, Any]:
        """A Components V2 panel: what you must decide now (the presenter's ``hand``
        panel), your hand in words, your Field and hand as a picture (``my-hand.png``,
        described in its alternative text: the panel is yours), the panel's choices and
        Refresh."""
        gid = table.record.id
        if table.pending.kind in ("reaction", "setup") and table.deadline is None:
            table.deadline = await self.bot.service.deadline(gid)
        own = table.view(seat.seat)
        lang = table.member_lang
        heading, listed = UnleashedPresenter.hand_words(own, lang)
        model = self.model(table, seat.seat, lang=lang)
        hand_panel = model.panels["hand"]
        items = [*self.draw(gid, model.key, hand_panel.items, prints=model.prints, lang=lang),
                 button("g", gid, "hand", translate(lang, REFRESH),
                        emoji="\N{CLOCKWISE OPEN CIRCLE ARROW}")]
        png = await self.closeup(table, "hand", own, names=table.plain_names, lang=lang)
        return {"view": layout.panel(accent=self.accent, words=[
                    hand_panel.text, heading, listed[:EMBED_LIMIT]],
                    picture="my-hand.png", alt=UnleashedPresenter.hand_alt(own, lang),
                    items=items, lang=lang),
                "file": discord.File(io.BytesIO(png), filename="my-hand.png")}

    async def on_choice(self, interaction: discord.Interaction, table: Table, seat: SeatRecord,
                        kind: str, key: str, arg: str, values: list[str]) -> Update | None:
        """As the base; after a move, a fresh panel when the same player decides again
        (drawn from the move's update: nothing is read again)."""
        update = await super().on_choice(interaction, table, seat, kind, key, arg, values)
        if kind == "o" or update is None or update.state is None:
            return update
        after = Table(update.record, update.seats, update.spec, update.state,
                      deadlines=update.deadlines, derived=update.derived)
        if update.deadlines is not None:
            after.deadline = update.deadlines.get("rules")
        if (after.record.version != table.record.version and after.result is None
                and after.record.status == "active" and seat.seat in after.pending.seats
                and after.pending.kind in ("choice", "turn")):
            await send_ephemeral(interaction, secret=True,
                                 **await self.own_panel(after, after.seat(seat.seat)))
        return update

    async def on_game_component(self, interaction: discord.Interaction, table: Table,
                                seat: SeatRecord, cid: ids.ComponentId,
                                values: list[str]) -> None:
        """Respond and Pass of a reaction window (see the module docstring)."""
        code, _, window = cid.code.partition(".")
        if code not in ("resp", "pass"):
            raise GameError("bad_button", "This button is not one herdbot understands.")
        if window_of(table.pending) != window or not window:
            raise GameError("window_closed", "This reaction window has closed.")
        legal = table.legal(seat.seat)
        if code == "pass":
            if Pass() in legal:
                await self.act(interaction, table, seat,
                               passing_in(table.spec.engine, window, seat.seat), version=-1)
            await send_ephemeral(interaction, translate(table.member_lang, NEUTRAL_PASS),
                                 secret=True)
            return
        if not any(isinstance(a, Respond) for a in legal):
            await send_ephemeral(interaction, translate(table.member_lang, NEUTRAL_RESPOND),
                                 secret=True)
            return
        model = self.model(table, seat.seat, lang=table.member_lang)
        respond = model.panels["respond"]
        await send_ephemeral(interaction, secret=True, view=layout.panel(
            accent=self.accent, words=respond.text, lang=table.member_lang,
            items=self.draw(table.record.id, model.key, respond.items, prints=model.prints,
                            lang=table.member_lang)))

    # -- /card -----------------------------------------------------------------------------

    @app_commands.command(name="card", description="Show a Llamas Unleashed card and its text.")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(name="The card's name")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        """Ephemeral picture and rules text of the card called ``name`` (in the member's
        client language, or in English), in the member's client language."""
        lang = member_language(str(interaction.locale), None)
        try:
            design = find_card(lang, name)
        except KeyError:
            await send_error(interaction, no_such_card(lang, quoted(name)))
            return
        data = await self.bot.render(render_card, catalog().ids_of(design.key)[0], lang)
        reply = card_reply(lang, design)
        view = layout.card(accent=self.accent, before=[f"### {reply.title}", reply.text],
                           picture="card.png", alt=reply.alt, footer=reply.footer, lang=lang)
        await send_ephemeral(interaction, view=view,
                             file=discord.File(io.BytesIO(data), filename="card.png"))

    @card.autocomplete("name")
    async def card_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """Card names in the member's client language containing what was typed (names
        starting with it first), 25 at most."""
        lang = member_language(str(interaction.locale), None)
        return [app_commands.Choice(name=n, value=n) for n in names_matching(lang, current)]

async def setup(bot: Any) -> None:
    """Load the cog."""
    await bot.add_cog(UnleashedCog(bot))
