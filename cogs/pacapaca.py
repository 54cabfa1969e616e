"""The Alpaca Pacapaca cog: turn buttons, the secret Draw 2, the negotiation panel and the
scoring shown step by step (UX.md, "Alpaca Pacapaca"; issue 4, item 5).

Components (custom id codes, scope ``g``):

- table (versioned): ``draw`` (Draw 2), ``take`` (Take discard pile (N)), ``neg`` (Negotiate:
  opens an ephemeral partner select ``partner``), ``pass``;
- the drawer's ephemeral (versioned): ``keep.<card>`` for each of the two drawn cards;
- the negotiation panel (a public message, version-free; ``<t>`` = the turn number so a
  panel of an older negotiation is refused): ``edit.<t>`` (opens the negotiator's
  ephemeral "Edit deal" panel), ``acc.<t>.<deal version>``, ``dec.<t>.<deal version>``,
  ``giveup.<t>``;
- the "Edit deal" ephemeral: selects ``give.<t>`` ("Cards I give") and ``get.<t>`` ("Cards
  I get"; past 25 cards a list is several selects ``give.<t>,p<k>``, one per 25 cards, all
  shown), button ``prop.<t>`` (Propose). Each select change re-draws the ephemeral with
  the chosen options marked as defaults, so the draft lives in the message itself (one
  select per interaction, nothing kept in memory, survives a restart); Propose reads both
  selects' defaults from the message it was clicked on.

Hidden cards (the deck, someone's drawn pair, someone else's face-down discards) appear
only in their owner's ephemerals and DMs; everything public names neck cards only.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.discord import choices, ids
from bot.discord.choices import Option, paged_select, split_selects
from bot.discord.components import button, select, view_of
from bot.discord.game_cog import EMBED_LIMIT, MOVES, GameCog, Table, named
from bot.discord.replies import edit_panel, send_ephemeral
from bot.games.base import Event, state_as
from bot.games.pacapaca.cards import catalog
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import (
    Accept,
    Decline,
    Draw2,
    GiveUp,
    Keep,
    PacapacaState,
    PacapacaView,
    Pass,
    Propose,
    StartNegotiation,
    TakePile,
)
from bot.render.pacapaca import alpaca_picture, render_cards, render_final, render_table
from bot.render.pool import Job
from bot.runtime import GameError, Update
from bot.store import SeatRecord

log = logging.getLogger(__name__)

#: Events that close a negotiation opened earlier.
_CLOSING = ("traded", "negotiation_failed")
NEG_COLOUR = 0x4A90D9


def card_name(card: int) -> str:
    """Display name of a card id (our own words, from ``seeds/pacapaca.json``)."""
    return catalog().name_of(card)


def card_list(cards: list[int]) -> str:
    """``"Scarf top; Bow, right loop"`` or ``"nothing"`` (semicolons: some names hold a
    comma)."""
    return "; ".join(card_name(c) for c in cards) if cards else "nothing"


def card_options(cards: list[int], chosen: set[int]) -> list[Option]:
    """Options for ``cards`` (public neck cards and babies), value = card id, every card
    offered (:func:`bot.discord.choices.split_selects` spreads them over selects of 25).

    Copies of a kind are numbered ("Plain neck #2")."""
    cat = catalog()
    ordered = sorted(cards, key=lambda c: (cat.kind_of(c), c))
    seen: dict[str, int] = {}
    total = {k: sum(1 for c in ordered if cat.kind_of(c) == k) for k in {cat.kind_of(c) for c in ordered}}
    out = []
    for c in ordered:
        kind = cat.card_kind(c)
        seen[kind.kind] = seen.get(kind.kind, 0) + 1
        label = kind.name if total[kind.kind] == 1 else f"{kind.name} #{seen[kind.kind]}"
        out.append(Option(label=label, value=str(c), description=kind.blurb, default=c in chosen))
    return out


def _code_parts(code: str) -> list[str]:
    return code.split(".")


class PacapacaCog(GameCog):
    """Alpaca Pacapaca on Discord (registry key ``pacapaca``)."""

    kind = "pacapaca"

    # -- pictures ------------------------------------------------------------------------

    def picture(self, table: Table) -> Job:
        """The public table picture (spectator view; the final picture once over)."""
        return Job(render_table, (table.view(None),), {"names": table.plain_names})

    def build_example(self) -> bytes:
        """An example table for /rules: three alpacas after a few seeded turns."""
        return _example_png()

    # -- table -----------------------------------------------------------------------------

    def _state(self, table: Table) -> PacapacaState:
        return state_as(table.state, PacapacaState)

    def turn_text(self, table: Table) -> str:
        """Whose turn and the choices, with deck and pile counts."""
        v: PacapacaView = table.view(None)
        if v.active is None:
            return ""
        who = f"**{table.names[v.active]}**"
        counts = f"Deck {v.deck_size} \N{MIDDLE DOT} discard pile {v.pile_size}"
        if v.final_round:
            left = v.final_turns_left
            counts += f" \N{MIDDLE DOT} final round: {left} turn{'' if left == 1 else 's'} left"
        if v.phase == "drawn":
            return f"{who} is choosing which of two drawn cards to keep.\n{counts}"
        if v.phase == "negotiation" and v.negotiation is not None:
            other = table.names[v.negotiation.partner]
            return f"{who} is negotiating with **{other}**: see the panel below.\n{counts}"
        choices = []
        if v.deck_size:
            choices.append("draw 2")
        if v.pile_size:
            choices.append(f"take the discard pile ({v.pile_size})")
        if any(isinstance(a, StartNegotiation) for a in table.legal(v.active)):
            choices.append("negotiate")
        if any(isinstance(a, Pass) for a in table.legal(v.active)):
            choices.append("pass (deck and pile are empty)")
        text = ", ".join(choices[:-1]) + (" or " if len(choices) > 1 else "") + choices[-1]
        after = " (the negotiation failed, so no second one this turn)" if v.negotiated else ""
        return f"{who}'s turn: {text}{after}.\n{counts}"

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        """Draw 2 / Take discard pile (N) / Negotiate (and Pass when it is the only move)."""
        st = self._state(table)
        if st.phase != "turn":
            return []
        gid, ver = table.record.id, table.record.version
        active = st.seats[st.active]
        legal = table.legal(active)
        can_neg = any(isinstance(a, StartNegotiation) for a in legal)
        items: list[discord.ui.Item[Any]] = [
            button("g", gid, "draw", "Draw 2", version=ver, style=discord.ButtonStyle.primary,
                   disabled=not st.deck),
            button("g", gid, "take", f"Take discard pile ({len(st.pile)})", version=ver,
                   style=discord.ButtonStyle.primary, disabled=not st.pile),
            button("g", gid, "neg", "Negotiate", version=ver, style=discord.ButtonStyle.success,
                   disabled=not can_neg),
        ]
        if any(isinstance(a, Pass) for a in legal):
            items.append(button("g", gid, "pass", "Pass", version=ver))
        return items

    async def post_table(self, table: Table, events: list[Event] | None = None,
                         interaction: discord.Interaction | None = None, *,
                         fresh: bool = False) -> None:
        """Show the table as the base does; a new negotiation posts the picture with the
        moves so far and then the negotiation panel (which then holds the buttons)."""
        st = self._state(table)
        channel = self.channel_of(table.record)
        if channel is None:
            return
        if table.result is not None or st.phase != "negotiation":
            await super().post_table(table, events, interaction, fresh=fresh)
            return
        # A new negotiation: the picture with the moves so far, then the panel.
        old = table.record.table_message_id
        file = await self.render_file(table)
        await channel.send(embed=self.table_embed(table, events), file=file)
        panel = await channel.send(**await self._panel_kwargs(table))
        await self.bot.store.update_game(table.record.id, table_message_id=panel.id)
        await self._retire(channel, old)

    async def _retire(self, channel: Any, message_id: int | None) -> None:
        if not message_id:
            return
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except (discord.HTTPException, AttributeError):
            pass

    # -- negotiation panel --------------------------------------------------------------

    async def _panel_kwargs(self, table: Table) -> dict[str, Any]:
        st = self._state(table)
        v: PacapacaView = table.view(None)
        neg = v.negotiation
        assert neg is not None
        names = table.names
        a, p = names[neg.active], names[neg.partner]
        deadline = await self.bot.service.deadline(table.record.id)
        lines = [f"**{a}** is negotiating with **{p}**."]
        if deadline:
            lines.append(f"\N{STOPWATCH} The talks end <t:{int(deadline)}:R>.")
        if neg.active_gives or neg.partner_gives:
            by = names.get(neg.proposed_by or "", "?")
            lines.append(f"\n**Deal v{neg.deal_version}** (proposed by {by}):")
            lines.append(f"\N{BULLET} {a} gives: {card_list(neg.active_gives)}")
            lines.append(f"\N{BULLET} {p} gives: {card_list(neg.partner_gives)}")
            acc = [names[s] for s in neg.accepted]
            lines.append("Accepted by: " + (", ".join(acc) if acc else "nobody yet"))
        else:
            lines.append("\nNo deal on the table yet.")
        lines.append(f"Proposals left: {neg.proposals_left}.")
        lines.append(
            "\nPress **Edit deal** to pick the cards you give and get, then **Propose**. "
            "The swap happens once both accept the same version. Chat here meanwhile!"
        )
        embed = discord.Embed(title=f"Negotiation: {a} \N{LEFT RIGHT ARROW} {p}",
                              description="\n".join(lines)[:EMBED_LIMIT], colour=NEG_COLOUR)
        embed.set_footer(text=f"Move {st.version}")
        gid, t = table.record.id, st.turn_number
        has_deal = bool(neg.active_gives or neg.partner_gives)
        dv = neg.deal_version
        items = [
            button("g", gid, f"edit.{t}", "Edit deal", style=discord.ButtonStyle.primary,
                   disabled=neg.proposals_left <= 0),
            button("g", gid, f"acc.{t}.{dv}", f"Accept deal v{dv}" if has_deal else "Accept",
                   style=discord.ButtonStyle.success, disabled=not has_deal),
            button("g", gid, f"dec.{t}.{dv}", "Decline", style=discord.ButtonStyle.danger,
                   disabled=not has_deal),
            button("g", gid, f"giveup.{t}", "Give up", style=discord.ButtonStyle.secondary),
            button("g", gid, "hand", "My hand", emoji="\N{OPEN BOOK}",
                   style=discord.ButtonStyle.secondary),
        ]
        humans = [s for s in table.pending.seats if table.is_human(s)]
        ping = " ".join(table.mention(s) for s in humans)
        return {"content": ping or None, "embed": embed, "view": view_of(*items),
                "allowed_mentions": table.pings(humans)}

    async def _edit_panel(self, table: Table) -> None:
        channel = self.channel_of(table.record)
        if channel is None or not table.record.table_message_id:
            return
        kwargs = await self._panel_kwargs(table)
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
        then = "can only pass" if "only pass" in event.text else "must now draw or take the pile"
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
        runs, proposals and answers edit the panel in place with one short line each."""
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
        st = self._state(table)
        started_now = any(e.type == "negotiation_started" for e in events)
        if st.phase != "negotiation" or started_now:
            await super().on_update(update, interaction)
            return
        channel = self.channel_of(table.record)
        await self._edit_panel(table)
        lines = [named(e.text, table.names) for e in events if e.to is None]
        lines += [named(n, table.names) for n in update.notes]
        if channel is not None and lines:
            actor = table.seat_of(interaction.user.id) if interaction is not None else None
            humans = [s for s in table.pending.seats if table.is_human(s)
                      and (actor is None or s != actor.seat)]
            ping = " ".join(table.mention(s) for s in humans)
            text = "\n".join(f"\N{BULLET} {t}" for t in lines)
            await channel.send((text + (f"\n{ping}" if ping else ""))[:1900],
                               allowed_mentions=table.pings(humans))
        await self.send_private_events(table, update, interaction)

    # -- private -----------------------------------------------------------------------

    def _keep_panel(self, table: Table, seat: str, intro: str) -> dict[str, Any]:
        v: PacapacaView = table.view(seat)
        gid, ver = table.record.id, table.record.version
        items = []
        used: dict[str, int] = {}
        for c in v.drawn:
            name = card_name(c)
            used[name] = used.get(name, 0) + 1
            label = f"Keep {name}" + (f" ({used[name]})" if used[name] > 1 else "")
            items.append(button("g", gid, f"keep.{c}", label, version=ver,
                                style=discord.ButtonStyle.success))
        data = render_cards(v.drawn, title="You drew these two: keep one")
        content = (f"{intro}You drew **{card_list(v.drawn)}**. Keep one for your alpaca; "
                   "the other goes face down on the discard pile (nobody else learns which).")
        return {"content": content, "file": discord.File(io.BytesIO(data), filename="drawn.png"),
                "view": view_of(*items)}

    async def send_private_events(
        self, table: Table, update: Update, interaction: discord.Interaction | None
    ) -> None:
        """The drawer gets the two cards pictured with a Keep button each (ephemeral);
        other private events go to their seat as in the base (ephemeral to the actor, DM
        otherwise)."""
        actor = table.seat_of(interaction.user.id) if interaction else None
        st = self._state(table)
        per_seat: dict[str, list[str]] = {}
        for event in update.events():
            for seat in event.to or []:
                if (event.type == "drew_private" and actor is not None and seat == actor.seat
                        and st.phase == "drawn" and st.seats[st.active] == seat):
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
        mine = v.my_discards
        pile = (f"Your cards face down in the discard pile: **{card_list(mine)}**."
                if mine else "You have no cards face down in the discard pile.")
        if v.drawn:
            return await self.bot.render(self._keep_panel, table, seat.seat, pile + "\n")
        if not mine:
            pic = await self.bot.render(alpaca_picture, v, seat.seat, names=table.plain_names)
            return {"content": pile + " Here is your alpaca, close up.",
                    "file": discord.File(io.BytesIO(pic.png), filename="my-alpaca.png")}
        data = await self.bot.render(render_cards, mine, title="Your cards face down in the pile")
        return {"content": pile + " Only you know these; whoever takes the pile gets them.",
                "file": discord.File(io.BytesIO(data), filename="my-discards.png")}

    # -- components ----------------------------------------------------------------------

    async def on_game_component(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord,
        cid: ids.ComponentId, values: list[str],
    ) -> None:
        """Decode a Pacapaca button or select into an engine action (see the module doc)."""
        st = self._state(table)
        parts = _code_parts(cid.code)
        head = parts[0]
        if head == "draw":
            await self.act(interaction, table, seat, Draw2(), version=cid.version)
        elif head == "take":
            await self.act(interaction, table, seat, TakePile(), version=cid.version)
        elif head == "pass":
            await self.act(interaction, table, seat, Pass(), version=cid.version)
        elif head == "keep" and len(parts) == 2 and parts[1].isdecimal():
            update = await self.act(interaction, table, seat, Keep(card=int(parts[1])),
                                    version=cid.version)
            if update is not None:
                await self._done_ephemeral(interaction, f"You kept the {card_name(int(parts[1]))}.")
        elif head == "neg":
            await self._ask_partner(interaction, table, seat)
        elif head == "partner":
            if len(values) != 1:
                raise GameError("pick_one", "Pick one player to negotiate with.")
            update = await self.act(interaction, table, seat, StartNegotiation(partner=values[0]),
                                    version=cid.version)
            if update is not None:
                who = table.names.get(values[0], values[0])
                await self._done_ephemeral(interaction, f"You opened a negotiation with {who}.")
        elif head in ("edit", "acc", "dec", "giveup", "give", "get", "prop"):
            if len(parts) < 2 or not parts[1].isdecimal():
                raise GameError("bad_button", "This button is not one herdbot understands.")
            if st.phase != "negotiation" or st.turn_number != int(parts[1]):
                raise GameError("neg_over", "This negotiation is over.")
            neg = st.negotiation
            assert neg is not None
            if seat.seat not in (st.seats[st.active], neg.partner):
                raise GameError("not_negotiating", "Only the two negotiating players can act now.")
            if head == "edit":
                await send_ephemeral(interaction, secret=True,
                                     **self._deal_panel(table, seat.seat, None))
            elif head in ("give", "get"):
                await self._draft_changed(interaction, table, seat.seat, head, values)
            elif head == "prop":
                give, get = self._draft_of(interaction.message, table, seat.seat)
                await self.act(interaction, table, seat, Propose(give=give, get=get))
            elif head == "giveup":
                await self.act(interaction, table, seat, GiveUp())
            else:
                if len(parts) != 3 or not parts[2].isdecimal():
                    raise GameError("bad_button", "This button is not one herdbot understands.")
                dv = int(parts[2])
                if head == "acc":
                    await self.act(interaction, table, seat, Accept(version=dv))
                else:
                    if dv != neg.deal_version and seat.seat == neg.partner:
                        raise GameError("stale_deal", "The deal changed since you saw it; look again.")
                    await self.act(interaction, table, seat, Decline())
        else:
            raise GameError("bad_button", "This button is not one herdbot understands.")

    async def _done_ephemeral(self, interaction: discord.Interaction, text: str) -> None:
        """Replace the ephemeral the click came from (its buttons are spent)."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            return
        try:
            await interaction.edit_original_response(content=text, attachments=[], view=None)
        except discord.HTTPException:
            pass

    async def _ask_partner(self, interaction: discord.Interaction, table: Table,
                           seat: SeatRecord) -> None:
        st = self._state(table)
        active = st.seats[st.active]
        if seat.seat != active:
            raise GameError("not_your_turn", f"It is {table.names[active]}'s turn.")
        partners = [a.partner for a in table.legal(seat.seat) if isinstance(a, StartNegotiation)]
        if not partners:
            if st.negotiated:
                raise GameError("already_negotiated",
                                "You already negotiated this turn: draw or take the pile.")
            raise GameError("cannot_negotiate", "You cannot negotiate now.")
        options = [Option(label=table.plain_names[p], value=p) for p in partners]
        sel = paged_select("g", table.record.id, "partner", options,
                           version=table.record.version, placeholder="Negotiate with...",
                           noun="Players")
        await send_ephemeral(interaction, "Who do you want to negotiate with? You will have "
                             f"{catalog().negotiation.seconds} seconds to agree on one swap.",
                             view=view_of(*sel))

    # -- the deal editor ------------------------------------------------------------------

    def _sides(self, table: Table, seat: str) -> tuple[str, list[int], list[int]]:
        st = self._state(table)
        neg = st.negotiation
        assert neg is not None
        active = st.seats[st.active]
        other = neg.partner if seat == active else active
        mine = [*st.alpacas[seat].neck, *st.alpacas[seat].babies]
        theirs = [*st.alpacas[other].neck, *st.alpacas[other].babies]
        return other, mine, theirs

    def _deal_panel(self, table: Table, seat: str,
                    draft: tuple[list[int], list[int]] | None) -> dict[str, Any]:
        """The negotiator's ephemeral: "Cards I give" / "Cards I get" and Propose. Without
        a draft it starts from the deal on the table (seen from ``seat``'s side)."""
        st = self._state(table)
        neg = st.negotiation
        assert neg is not None
        active = st.seats[st.active]
        if draft is None:
            draft = ((neg.active_gives, neg.partner_gives) if seat == active
                     else (neg.partner_gives, neg.active_gives))
        give, get = draft
        other, mine, theirs = self._sides(table, seat)
        gid, t = table.record.id, st.turn_number
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
    def _selects(message: discord.Message | None, code: str) -> list[discord.SelectMenu]:
        """The selects of ``message`` whose code is ``code`` (any of its pages)."""
        out = []
        for row in message.components if message is not None else []:
            for child in getattr(row, "children", []):
                cid = getattr(child, "custom_id", None) or ""
                if (isinstance(child, discord.SelectMenu) and cid.startswith("hs:")
                        and choices.parse_page(cid.split(":", 4)[-1])[0] == code):
                    out.append(child)
        return out

    @classmethod
    def _defaults(cls, message: discord.Message | None, code: str) -> list[int] | None:
        """The chosen (default) options of the selects ``code`` on ``message``."""
        sels = cls._selects(message, code)
        if not sels:
            return None
        return [int(o.value) for s in sels for o in s.options
                if o.default and o.value.isdecimal()]

    def _draft_of(self, message: discord.Message | None, table: Table,
                  seat: str) -> tuple[list[int], list[int]]:
        t = self._state(table).turn_number
        give = self._defaults(message, f"give.{t}") or []
        get = self._defaults(message, f"get.{t}") or []
        return give, get

    async def _draft_changed(self, interaction: discord.Interaction, table: Table, seat: str,
                             which: str, values: list[str]) -> None:
        give, get = self._draft_of(interaction.message, table, seat)
        chosen = [int(v) for v in values if v.isdecimal()]
        t = self._state(table).turn_number
        # Only the cards of the select that changed are replaced: the other selects of
        # the same list (past 25 cards) keep their choices.
        cid = str(dict(interaction.data or {}).get("custom_id", ""))
        changed = next((s for s in self._selects(interaction.message, f"{which}.{t}")
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

    def scoring_steps(self, table: Table) -> list[str]:
        """The scoring in three messages: what falls off, neck lengths, then the looks,
        charms, mud and babies (RULES.md: Alpaca Pacapaca, the scoring order)."""
        v: PacapacaView = table.view(None)
        assert v.final is not None
        names = table.names
        off, necks, rest = [], [], []
        for fa in v.final.alpacas:
            who = f"**{names[fa.seat]}**"
            verb = "falls" if len(fa.removed) == 1 else "fall"
            off.append(f"{who}: " + (f"{card_list(fa.removed)} {verb} off." if fa.removed
                                     else "nothing falls off."))
            neck = [ln for ln in fa.lines if ln.label.startswith("Neck")]
            other = [ln for ln in fa.lines if not ln.label.startswith("Neck")]
            necks.append(f"{who}: " + ", ".join(f"{ln.label} ({ln.points:+d})" for ln in neck))
            rest.append(f"{who}: " + (", ".join(f"{ln.label} {ln.points:+d}" for ln in other)
                                      if other else "nothing more."))
        return [
            "**Scoring, step 1 of 3: unfinished looks fall off** (a bow needs both loops, a "
            "scarf its top and bottom).\n" + "\n".join(off),
            "**Step 2 of 3: neck lengths** (longest +4, second +2; mud counts).\n"
            + "\n".join(necks),
            "**Step 3 of 3: bows, scarves, charms, mud and babies.**\n" + "\n".join(rest),
        ]

    async def finish(self, table: Table) -> None:
        """Record the members' results, then show the scoring steps one by one, the final
        picture and totals."""
        channel = self.channel_of(table.record)
        result = table.result
        if result is None:
            return
        if channel is not None:
            # One message: the three scoring steps, then the totals with the final picture
            # (Discord allows 10 embeds and 6,000 characters over a message's embeds).
            steps = [discord.Embed(description=step[:1300], colour=0xE0B000)
                     for step in self.scoring_steps(table)]
            data = await self.bot.render(render_final, table.view(None), names=table.plain_names)
            embed = discord.Embed(title=f"{table.spec.name} #{table.record.id}: final scores",
                                  description=self.final_text(table)[:1500],
                                  colour=0xE0B000)
            embed.set_image(url="attachment://final.png")
            await channel.send(embeds=[*steps, embed],
                               file=discord.File(io.BytesIO(data), filename="final.png"))


def _example_png() -> bytes:
    """A seeded 3-player table after a few draws (for /rules)."""
    engine = PacapacaEngine()
    state = engine.new_game(["s0", "s1", "s2"], seed=11)
    for _ in range(18):
        seat = state.seats[state.active]
        legal = engine.legal_actions(state, seat)
        act = next((a for a in legal if isinstance(a, Keep | Draw2)), None)
        if act is None:
            break
        state, _ = engine.apply(state, seat, act)
    return render_table(engine.view(state, None), names={"s0": "Maya", "s1": "Tomasz", "s2": "Ana"})


async def setup(bot: Any) -> None:
    """Extension entry point."""
    await bot.add_cog(PacapacaCog(bot))


__all__ = ["PacapacaCog", "card_options", "setup"]
