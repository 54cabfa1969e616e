"""The Alpaca Pacapaca cog: the table, the secret Draw 2, the negotiation panel with its
deal editor, and the scoring shown step by step (UX.md, "Alpaca Pacapaca").

The turn buttons, the partner picker, the drawer's Keep panel and the negotiation
panel's Accept / Decline / Give up come from
:class:`bot.present.pacapaca.PacapacaPresenter` and are decoded by :class:`GameCog` into
the engine's legal actions. This cog keeps what is special to the game:

- the negotiation panel (a public message holding the answers, edited in place while the
  talks go on, closed when they end);
- the deal editor (custom id codes, scope ``g``, ``<t>`` = the turn number so a panel
  of an older negotiation is refused): ``edit.<t>`` (opens the negotiator's ephemeral),
  selects ``give.<t>`` ("Cards I give") and ``get.<t>`` ("Cards I get"; past 25 cards a
  list is several selects ``give.<t>,p<k>``, all shown), button ``prop.<t>`` (Propose).
  Each select change re-draws the ephemeral with the chosen options marked as defaults,
  so the draft lives in the message itself; Propose plays the deal of the engine's deal
  space (``PacapacaEngine.deal_space``) that the draft names.

Hidden cards appear only in their owner's ephemerals and DMs, drawn from their own view.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from bot.discord import choices, ids
from bot.discord import publisher as pub
from bot.discord.choices import Option, split_selects
from bot.discord.components import button, select, view_of
from bot.discord.game_cog import EMBED_LIMIT, MOVES, GameCog, Table, named
from bot.discord.replies import edit_panel, send_ephemeral
from bot.games.base import Action, Event
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import PacapacaView, Propose
from bot.present.pacapaca import PacapacaPresenter, card_choices, card_list
from bot.render.pacapaca import alpaca_picture, render_cards, render_final, render_table
from bot.runtime import GameError, Update
from bot.store import SeatRecord

log = logging.getLogger(__name__)

#: Events that close a negotiation opened earlier.
_CLOSING = ("traded", "negotiation_failed")
NEG_COLOUR = 0x4A90D9


def card_options(cards: list[int], chosen: set[int]) -> list[Option]:
    """Deal editor options for ``cards`` (value = card id; ``chosen`` marked default)."""
    return [Option(label=label, value=str(c), description=blurb, default=c in chosen)
            for c, label, blurb in card_choices(cards)]


class PacapacaCog(GameCog):
    """Alpaca Pacapaca on Discord (registry key ``pacapaca``)."""

    kind = "pacapaca"
    presenter = PacapacaPresenter()

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        #: Games whose end the last table message shows: :meth:`finish` posts no more.
        self._ended_in_place: set[int] = set()

    def render(self, table: Table) -> bytes:
        """The public table picture (spectator view; the final picture once over)."""
        return render_table(table.view(None), names=table.plain_names)

    def build_example(self) -> bytes:
        """The presenter's example table for /rules (three alpacas after a few turns)."""
        view, names = PacapacaPresenter().example()
        return render_table(view, names=names)

    async def post_table(self, table: Table, events: list[Event] | None = None,
                         interaction: discord.Interaction | None = None, *,
                         fresh: bool = False) -> None:
        """Show the table as the base does; a new negotiation posts the picture with the
        moves so far and then the negotiation panel (which then holds the buttons); the end
        of the game is shown in the last table message (:meth:`_final_in_place`)."""
        v: PacapacaView = table.view(None)
        channel = self.channel_of(table.record)
        if channel is None:
            return
        if table.result is not None and not fresh and table.record.table_message_id:
            await self._final_in_place(channel, table, events, interaction)
            return
        if table.result is not None or v.phase != "negotiation":
            await super().post_table(table, events, interaction, fresh=fresh)
            return
        old = table.record.table_message_id
        file = await self.render_file(table)
        await channel.send(embed=self.table_embed(table, events), file=file)
        panel = await channel.send(**await self._panel_kwargs(table))
        await self.bot.store.update_game(table.record.id, table_message_id=panel.id)
        if old:
            try:
                await channel.get_partial_message(old).edit(view=None)  # type: ignore[attr-defined]
            except (discord.HTTPException, AttributeError):
                pass

    # -- negotiation panel --------------------------------------------------------------

    async def _panel_kwargs(self, table: Table, latest: list[str] | None = None) -> dict[str, Any]:
        """The public negotiation panel: the presenter's words and answers, Edit deal (the
        deal editor) and My hand; the members who owe an answer are pinged. ``latest``: the
        lines of the step just made (a proposal, an answer), shown last on the panel
        instead of in a message of their own."""
        v: PacapacaView = table.view(None)
        neg = v.negotiation
        assert neg is not None and self.presenter is not None
        names = table.names
        a, p = names[neg.active], names[neg.partner]
        deadline = await self.bot.service.deadline(table.record.id)
        lines = [f"**{a}** is negotiating with **{p}**."]
        if deadline:
            lines.append(f"\N{STOPWATCH} The talks end <t:{int(deadline)}:R>.")
        lines += PacapacaPresenter.negotiation_lines(v, names)
        if latest:
            lines.append("\n" + "\n".join(f"\N{BULLET} {t}" for t in latest))
        embed = discord.Embed(title=f"Negotiation: {a} \N{LEFT RIGHT ARROW} {p}",
                              description="\n".join(lines)[:EMBED_LIMIT], colour=NEG_COLOUR)
        embed.set_footer(text=f"Move {table.state.version}")
        gid = table.record.id
        model = self.model(table)
        items = [
            button("g", gid, f"edit.{v.turn_number}", "Edit deal",
                   style=discord.ButtonStyle.primary, disabled=neg.proposals_left <= 0),
            *self.draw(gid, model.key, model.items, keys=model.keys),
            button("g", gid, "hand", "My hand", emoji="\N{OPEN BOOK}",
                   style=discord.ButtonStyle.secondary),
        ]
        humans = [s for s in table.pending.seats if table.is_human(s)]
        ping = " ".join(table.mention(s) for s in humans)
        return {"content": ping or None, "embed": embed, "view": view_of(*items),
                "allowed_mentions": table.pings(humans)}

    async def _edit_panel(self, table: Table, latest: list[str] | None = None) -> None:
        channel = self.channel_of(table.record)
        if channel is None or not table.record.table_message_id:
            return
        kwargs = await self._panel_kwargs(table, latest)
        kwargs.pop("content", None)
        kwargs.pop("allowed_mentions", None)
        try:
            await channel.get_partial_message(table.record.table_message_id).edit(**kwargs)  # type: ignore[attr-defined]
        except (discord.HTTPException, AttributeError):
            log.info("could not edit the negotiation panel of game %s", table.record.id)

    async def _close_panel(self, table: Table, event: Event) -> None:
        channel = self.channel_of(table.record)
        if channel is None or not table.record.table_message_id:
            return
        names = table.names
        a = names.get(event.data.get("seat", ""), "?")
        p = names.get(event.data.get("partner", ""), "?")
        v: PacapacaView = table.view(None)
        then = "must now draw or take the pile" if v.deck_size or v.pile_size else "can only pass"
        if event.type == "traded":
            head = "\N{HANDSHAKE} " + named(event.text, names)
        elif event.data.get("reason") == "timeout":
            head = f"\N{ALARM CLOCK} Time is up: no deal. {a} {then}."
        else:
            head = f"\N{WHITE FLAG} {a} gave up: no deal. {a} {then}."
        embed = discord.Embed(title=f"Negotiation: {a} \N{LEFT RIGHT ARROW} {p} (closed)",
                              description=head, colour=NEG_COLOUR)
        try:
            await channel.get_partial_message(table.record.table_message_id).edit(  # type: ignore[attr-defined]
                content=None, embed=embed, view=None)
        except (discord.HTTPException, AttributeError):
            log.info("could not close the negotiation panel of game %s", table.record.id)

    async def on_update(self, update: Update, interaction: discord.Interaction | None = None) -> None:
        """As the base, plus: a negotiation opened earlier is closed on its panel; while it
        runs, proposals and answers edit the panel in place, which then shows their lines
        (no message of their own: at most one new message per turn, issue 15 item 4)."""
        if update.kind not in MOVES or update.state is None:
            await super().on_update(update, interaction)
            return
        table = Table(update.record, update.seats, update.spec, update.state)
        events = update.events()
        for e in events:
            if e.type == "negotiation_started":
                break
            if e.type in _CLOSING:
                await self._close_panel(table, e)
                break
        v: PacapacaView = table.view(None)
        started_now = any(e.type == "negotiation_started" for e in events)
        if v.phase != "negotiation" or started_now:
            await super().on_update(update, interaction)
            return
        lines = [named(e.text, table.names) for e in events if e.to is None]
        lines += [named(n, table.names) for n in update.notes]
        await self._edit_panel(table, lines)
        await self.send_private_events(table, update, interaction)

    # -- private -----------------------------------------------------------------------

    def _keep_panel(self, table: Table, seat: str, intro: str) -> dict[str, Any]:
        """The drawer's ephemeral: the presenter's Keep panel with the two cards pictured
        (from the drawer's own view; runs in the render thread)."""
        model = self.model(table, seat)
        panel = model.panels["keep"]
        drawn = table.view(seat).drawn
        data = render_cards(drawn, title="You drew these two: keep one")
        return {"content": intro + panel.text,
                "file": discord.File(io.BytesIO(data), filename="drawn.png"),
                "view": view_of(*self.draw(table.record.id, model.key, panel.items,
                                           keys=model.keys))}

    async def send_private_events(
        self, table: Table, update: Update, interaction: discord.Interaction | None
    ) -> None:
        """The drawer gets the two cards pictured with a Keep button each (ephemeral);
        other private events go to their seat as in the base (ephemeral to the actor, DM
        otherwise)."""
        actor = table.seat_of(interaction.user.id) if interaction else None
        per_seat: dict[str, list[str]] = {}
        for event in update.events():
            for seat in event.to or []:
                if (event.type == "drew_private" and actor is not None and seat == actor.seat
                        and "keep" in self.model(table, seat).panels):
                    assert interaction is not None
                    await send_ephemeral(interaction, secret=True, **await self.bot.render(
                        self._keep_panel, table, seat, ""))
                    continue
                per_seat.setdefault(seat, []).append(named(event.text, table.names))
        await self.deliver_private(table, per_seat, interaction)

    async def private_panel(self, table: Table, seat: SeatRecord) -> dict[str, Any]:
        """My hand: the two drawn cards with Keep buttons while choosing; otherwise the
        player's own cards face down in the discard pile."""
        v: PacapacaView = table.view(seat.seat)
        assert self.presenter is not None
        pile = self.presenter.private_lines(v, seat.seat, table.names)[0]
        if "keep" in self.model(table, seat.seat).panels:
            return await self.bot.render(self._keep_panel, table, seat.seat, pile + "\n")
        if not v.my_discards:
            pic = await self.bot.render(alpaca_picture, v, seat.seat, names=table.plain_names)
            return {"content": pile + " Here is your alpaca, close up.",
                    "file": discord.File(io.BytesIO(pic.png), filename="my-alpaca.png")}
        data = await self.bot.render(render_cards, v.my_discards,
                                     title="Your cards face down in the pile")
        return {"content": pile + " Only you know these; whoever takes the pile gets them.",
                "file": discord.File(io.BytesIO(data), filename="my-discards.png")}

    # -- components ----------------------------------------------------------------------

    async def on_game_component(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord,
        cid: ids.ComponentId, values: list[str],
    ) -> None:
        """The deal editor's components (see the module docstring); the other choices are
        the presenter's, decoded by the base."""
        parts = cid.code.split(".")
        head = parts[0]
        if head not in ("edit", "give", "get", "prop") or len(parts) != 2 \
                or not parts[1].isdecimal():
            raise GameError("bad_button", "This button is not one herdbot understands.")
        v: PacapacaView = table.view(None)
        neg = v.negotiation
        if neg is None or v.turn_number != int(parts[1]):
            raise GameError("neg_over", "This negotiation is over.")
        if seat.seat not in (neg.active, neg.partner):
            raise GameError("not_negotiating", "Only the two negotiating players can act now.")
        if head == "edit":
            await send_ephemeral(interaction, secret=True,
                                 **self._deal_panel(table, seat.seat, None))
        elif head in ("give", "get"):
            await self._draft_changed(interaction, table, seat.seat, head, values)
        else:
            give, get = self._draft_of(interaction.message, v.turn_number)
            await self.act(interaction, table, seat, self._deal(table, seat.seat, give, get),
                           version=-1)

    @staticmethod
    def _deal(table: Table, seat: str, give: list[int], get: list[int]) -> Any:
        """A decoder for :meth:`GameService.act`: the deal of ``seat``'s deal space giving
        ``give`` and getting ``get`` (as stored when played), or, when the space has no
        such deal, that Propose as drafted, for the engine to refuse in its own words."""
        engine = table.spec.engine_as(PacapacaEngine)

        def choose(state: Any) -> Action:
            space = engine.deal_space(state, seat)
            if space is not None and Propose(give=give, get=get) in space:
                return space.deal(give, get)
            return Propose(give=give, get=get)
        return choose

    # -- the deal editor ------------------------------------------------------------------

    def _sides(self, table: Table, seat: str) -> tuple[str, list[int], list[int]]:
        """``(the other negotiator, seat's tradeable cards, the other's)`` (public view)."""
        v: PacapacaView = table.view(None)
        neg = v.negotiation
        assert neg is not None
        other = neg.partner if seat == neg.active else neg.active
        me, them = v.alpaca(seat), v.alpaca(other)
        return other, [*me.neck, *me.babies], [*them.neck, *them.babies]

    def _deal_panel(self, table: Table, seat: str,
                    draft: tuple[list[int], list[int]] | None) -> dict[str, Any]:
        """The negotiator's ephemeral: "Cards I give" / "Cards I get" and Propose. Without
        a draft it starts from the deal on the table (seen from ``seat``'s side)."""
        v: PacapacaView = table.view(None)
        neg = v.negotiation
        assert neg is not None
        if draft is None:
            draft = ((neg.active_gives, neg.partner_gives) if seat == neg.active
                     else (neg.partner_gives, neg.active_gives))
        give, get = draft
        other, mine, theirs = self._sides(table, seat)
        gid, t = table.record.id, v.turn_number
        oname = table.names[other]
        plain = table.plain_names[other]  # placeholders and option labels render no markdown
        items: list[discord.ui.Item[Any]] = []
        # 4 rows for the selects (one per 25 cards), the 5th for Propose; 60 tradeable
        # cards in all never need more than 4 (tests/discord/test_selects.py).
        for code, cards, chosen, ph, empty in (
            ("give", mine, give, "Cards I give", "Your alpaca has no neck cards to give"),
            ("get", theirs, get, f"Cards I get from {plain}", f"{plain} has no neck cards"),
        ):
            if cards:
                room = choices.MAX_ROWS - 1 - len(items) - (
                    choices.selects_needed(len(theirs)) if code == "give" else 0)
                items += split_selects("g", gid, f"{code}.{t}", card_options(cards, set(chosen)),
                                       placeholder=ph, noun="Cards", max_selects=room)
            else:
                items.append(select("g", gid, f"{code}.{t}",
                                    [discord.SelectOption(label=empty[:100], value="none")],
                                    placeholder=empty[:150], disabled=True))
        items.append(button("g", gid, f"prop.{t}", "Propose", style=discord.ButtonStyle.success))
        content = (f"**Your deal with {oname}** (only you see this until you press Propose)\n"
                   f"\N{BULLET} You give: {card_list(give)}\n"
                   f"\N{BULLET} You get: {card_list(get)}\n"
                   "Change either list, then press **Propose**.")
        return {"content": content, "view": view_of(*items)}

    @staticmethod
    def _draft_of(message: discord.Message | None, t: int) -> tuple[list[int], list[int]]:
        """``(cards given, cards got)`` chosen in the deal editor ``message`` of turn ``t``."""
        give, get = ([int(v) for v in choices.chosen_values(message, f"{side}.{t}")
                      if v.isdecimal()] for side in ("give", "get"))
        return give, get

    async def _draft_changed(self, interaction: discord.Interaction, table: Table, seat: str,
                             which: str, values: list[str]) -> None:
        t = table.view(None).turn_number
        give, get = self._draft_of(interaction.message, t)
        chosen = [int(v) for v in values if v.isdecimal()]
        # Only the cards of the select that changed are replaced: the other selects of
        # the same list (past 25 cards) keep their choices.
        cid = str(dict(interaction.data or {}).get("custom_id", ""))
        changed = next((s for s in choices.selects_of(interaction.message, f"{which}.{t}")
                        if s.custom_id == cid), None)
        here = ({int(o.value) for o in changed.options if o.value.isdecimal()}
                if changed is not None else None)
        if which == "give":
            give = chosen if here is None else [c for c in give if c not in here] + chosen
        else:
            get = chosen if here is None else [c for c in get if c not in here] + chosen
        kwargs = self._deal_panel(table, seat, (give, get))
        try:
            await edit_panel(interaction, private=True, **kwargs)
        except discord.HTTPException as exc:
            log.info("could not update the deal editor: %s", exc)

    # -- the end ---------------------------------------------------------------------------

    async def final_message(self, table: Table,
                            lines: list[str] | None = None) -> dict[str, Any]:
        """The end of the game as one message's parts: the three scoring steps, then the
        totals with the final picture, led by ``lines`` (the last moves, already named).
        Discord allows 10 embeds and 6,000 characters over a message's embeds: 3 x 1,300
        + 400 + 1,500 and the title stay under it."""
        steps = [discord.Embed(description=step[:1300], colour=0xE0B000)
                 for step in PacapacaPresenter.scoring_steps(table.view(None), table.names)]
        data = await self.bot.render(render_final, table.view(None), names=table.plain_names)
        head = "\n".join(f"\N{BULLET} {t}" for t in lines or [])
        if len(head) > 400:
            head = head[:399] + "\N{HORIZONTAL ELLIPSIS}"
        embed = discord.Embed(title=f"{table.spec.name} #{table.record.id}: final scores",
                              description=(f"{head}\n\n" if head else "")
                              + self.final_text(table)[:1500], colour=0xE0B000)
        embed.set_image(url="attachment://final.png")
        return {"embeds": [*steps, embed],
                "file": discord.File(io.BytesIO(data), filename="final.png")}

    async def _final_in_place(self, channel: Any, table: Table, events: list[Event] | None,
                              interaction: discord.Interaction | None) -> None:
        """Show the end in the last table message, edited in place through the click
        where it can (:func:`bot.discord.publisher.edit_table`): the last moves' lines,
        the scoring steps, the totals and the final picture, its buttons and the last
        turn's ping gone (an edit pings nobody). No new message: the thread gets at most
        one per turn (UX.md "A quiet thread"; issue 15, item 4)."""
        gid = table.record.id
        parts = await self.final_message(table, self.public_lines(table, events))
        async with self._post_locks.setdefault(gid, asyncio.Lock()):
            await pub.edit_table(channel, interaction, table.record.table_message_id or 0,
                                 self._posted.get(gid), content=None, embeds=parts["embeds"],
                                 attachments=[parts["file"]], view=None)
        self._ended_in_place.add(gid)

    async def finish(self, table: Table) -> None:
        """The scoring steps, the final picture and totals as a message of their own, unless
        the last table already shows them (:meth:`_final_in_place`)."""
        if table.result is None:
            return
        if table.record.id in self._ended_in_place:
            self._ended_in_place.discard(table.record.id)
            return
        channel = self.channel_of(table.record)
        if channel is not None:
            await channel.send(**await self.final_message(table))


async def setup(bot: Any) -> None:
    """Extension entry point."""
    await bot.add_cog(PacapacaCog(bot))


__all__ = ["PacapacaCog", "card_options", "setup"]
