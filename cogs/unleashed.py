"""The Llamas Unleashed cog (UX.md: "Llamas Unleashed").

What the table says and offers comes from
:class:`bot.present.unleashed.UnleashedPresenter`; clicks on its choices are decoded by
:class:`GameCog` into the engine's legal actions. What stays here is special to this game:

- reaction windows: the public Respond and Pass (``resp.<window>`` / ``pass.<window>``,
  the window's number from the pending key) look the same to every member and answer a
  member who cannot respond with the same neutral words, so nothing tells who holds an
  Instant; nobody is pinged for a window and a Pass that leaves it open posts nothing;
- the My hand panel: the presenter's ``hand`` panel with the hand in words and a picture,
  a fresh one after a panel action when the same player decides again;
- hands by DM at most once per change of turn, from stored state; ``/card``.

Hands reach only their owner (RULES.md: Llamas Unleashed).
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.discord import ids
from bot.discord.components import button, view_of
from bot.discord.game_cog import EMBED_LIMIT, MOVES, GameCog, Table, named
from bot.discord.replies import quoted, send_ephemeral, send_error
from bot.games.base import Event, Pending
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import Pass, Respond
from bot.present.base import Seen, TableModel
from bot.present.unleashed import TYPE_WORDS, UnleashedPresenter, card_line, pile_line, short
from bot.render.pool import Job
from bot.render.unleashed import hand_picture, render_card, render_table
from bot.runtime import GameError, Update, UpdateKind
from bot.store import SeatRecord

#: The neutral answer to Respond/Pass from a player who cannot (or no longer can) respond.
NEUTRAL_PASS = "You pass: you will not answer this card."
NEUTRAL_RESPOND = "You have no Instant you can play on this card right now."
PRESENTER = UnleashedPresenter()


def window_of(pending: Pending) -> str:
    """The number of the open reaction window (pending key ``reaction:<n>``), else ``""``."""
    return pending.key.partition(":")[2] if pending.kind == "reaction" else ""


#: Public events that move cards into or out of the hand of the seat they name (a swap
#: of hands, a card returned or taken back to its owner's hand).
HAND_MOVES = frozenset({"swap", "return", "returned", "countered"})


#: The deal's events: the first hand is always DMed, even when the member's own Baby
#: choice started the game and the answer told them their cards.
DEALT = frozenset({"dealt_private"})


def moves_hand_of(event: dict[str, Any], seat: str) -> bool:
    """True when the stored ``event`` moved cards into or out of ``seat``'s hand in public
    (a :data:`HAND_MOVES` event naming it; a countered card only when it was taken)."""
    data = event.get("data") or {}
    if event.get("type") not in HAND_MOVES or seat not in data.values():
        return False
    return event.get("type") != "countered" or bool(data.get("taken"))


def seen_by(seat: str, rows: list[Any], had: set[int], has: set[int],
            unseen_after: int | None = None) -> bool:
    """True when ``seat`` already knows how its hand went from ``had`` to ``has`` (card
    ids): every card that left or arrived is named by one of its own moves among ``rows``
    (action-log rows since its last hand DM) whose words reached it, i.e. the card it
    played or answered with, or a card in an event of that move it could see (a draw
    told to it alone included; not the deal: :data:`DEALT`). Its moves after version ``unseen_after`` do not count:
    their words did not reach it (this update's steps, made by someone else's click or
    a timer). When another seat's move told it something privately (a pull, a take) or
    moved cards of its hand in public (:data:`HAND_MOVES` naming it), the change is not
    all its own: a DM goes. UX.md, "Private information": the hand is DMed after it changes;
    a change the player made and saw in its own ephemeral answer needs no DM."""
    known: set[int] = set()
    for row in rows:
        if row.seat != seat:
            if any(seat in (e.get("to") or []) or moves_hand_of(e, seat) for e in row.events):
                return False  # another seat's move touched its hand (a pull, a swap, ...)
            continue
        if unseen_after is not None and row.version > unseen_after:
            continue
        if isinstance(row.action.get("card"), int):
            known.add(row.action["card"])
        for e in row.events:
            if (e.get("to") is not None and seat not in e["to"]) or e.get("type") in DEALT:
                continue
            data = e.get("data") or {}
            if isinstance(data.get("card"), int):
                known.add(data["card"])
            known.update(c for c in data.get("cards") or [] if isinstance(c, int))
    return (had ^ has) <= known


class UnleashedCog(GameCog):
    """Llamas Unleashed in Discord (issue 6) on top of :class:`GameCog`."""

    kind = "llamas-unleashed"
    presenter = PRESENTER

    def model(self, table: Table, seat: str | None = None,
              events: list[Event] | None = None) -> TableModel:
        """As the base, plus the seat's own view for its private panels and the rules
        timer's deadline for the words."""
        if seat is None and table.result is None and table.record.status == "active":
            seat = next(iter(table.pending.seats), None)
        if events is None and seat in table.models:
            return table.models[seat]
        seen = Seen(seat, table.view(None), table.pending, table.legal(seat) if seat else [],
                    [e for e in events or [] if e.to is None], table.names, table.plain_names)
        model = self.stamp(table, PRESENTER.table(seen, table.view(seat) if seat else None,
                                                  table.deadline))
        if events is None:
            table.models[seat] = model
        return model

    def picture(self, table: Table) -> Job:
        """The public table picture (spectator view)."""
        return Job(render_table, (table.view(None),), {"names": table.plain_names})

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        """Respond and Pass during a reaction window; else the presenter's (set-up)."""
        window = window_of(table.pending)
        if window and table.result is None:
            gid = table.record.id
            return [button("g", gid, f"resp.{window}", "Respond", emoji="\N{HIGH VOLTAGE SIGN}",
                           style=discord.ButtonStyle.danger),
                    button("g", gid, f"pass.{window}", "Pass", style=discord.ButtonStyle.secondary)]
        return super().table_items(table)

    def final_text(self, table: Table) -> str:
        """The reason, the winner(s) and every player's Animals (the presenter's lines)."""
        result = table.result
        if result is None:
            return ""
        names = table.names
        head = named(result.reason, names)
        if result.winners:
            head += f" **{' and '.join(names[s] for s in result.winners)}** wins!"
        else:
            head += " Still tied on Animals and letters: everyone loses."
        return "\n".join([head, *PRESENTER.final_lines(table.view(None), result, names)])

    # -- posting ---------------------------------------------------------------------------

    def pings_members(self, table: Table) -> bool:
        """Nobody is pinged for a reaction window (its seats are the Instant holders)."""
        return table.pending.kind != "reaction"

    def headline(self, table: Table, humans: list[str]) -> str | None:
        """During a reaction window, what is on the pile ("Ana plays Stampede")."""
        if table.result is None and table.pending.kind == "reaction":
            return f"\N{HIGH VOLTAGE SIGN} {pile_line(table.view(None), table.names)}"
        return super().headline(table, humans)

    def ping_key(self, table: Table) -> str:
        """As the base, except that set-up (everyone picks a Baby) is one decision."""
        return "setup" if table.pending.kind == "setup" else super().ping_key(table)

    async def on_update(self, update: Update, interaction: discord.Interaction | None = None) -> None:
        """As the base, but a step with nothing public posts nothing, and hands are DMed
        once per change of turn (one DM for the whole chain of moves that changed it)."""
        if self.nothing_public(update):
            return
        await super().on_update(update, interaction)
        if update.state is not None and update.kind in (*MOVES, UpdateKind.STARTED):
            if any(e.type == "turn" for e in update.events()):
                table = Table(update.record, update.seats, update.spec, update.state)
                actor = table.seat_of(interaction.user.id) if interaction else None
                await self.dm_hands(table, actor.seat if actor else None,
                                    update.record.version - len(update.steps))

    def nothing_public(self, update: Update) -> bool:
        """True for Passes that leave the window open (saying so would tell who holds
        Instants) and for a choice's private step after which the same player decides."""
        if update.kind not in MOVES or update.state is None or not update.steps:
            return False
        if update.result is not None or update.notes or any(e.to is None for e in update.events()):
            return False
        pending = update.spec.engine.pending(update.state)
        if all(isinstance(s.action, Pass) for s in update.steps) and pending.kind == "reaction":
            return True
        return pending.kind == "choice" and set(pending.seats) <= {s.seat for s in update.steps}

    async def send_private_events(self, table: Table, update: Update,
                                  interaction: discord.Interaction | None) -> None:
        """Private events reach the acting player at once; others read theirs in their
        next hand DM (:meth:`dm_hands`)."""
        actor = table.seat_of(interaction.user.id) if interaction else None
        if actor is None or interaction is None or not table.is_human(actor.seat):
            return
        mine = [named(e.text, table.names) for e in update.events() if actor.seat in (e.to or [])]
        if mine:
            await send_ephemeral(interaction, "\n".join(mine)[:1900], secret=True)

    async def dm_hands(self, table: Table, actor: str | None = None, start: int = 0) -> None:
        """DM each member whose hand changed since their last DM, from stored state (the
        seat's ``dm_hand``: ``"<version>:<sorted card ids>"``), leading with the private
        events other seats' moves sent them since (the deal's own list left out).

        No DM for a change the member made and saw themself (:func:`seen_by`): ``actor``
        is the seat whose click made this update (its private events reached it
        ephemerally), ``start`` the version before the update's first step. The stored
        hand moves on all the same, so the next DM counts from here."""
        log: list[Any] | None = None
        for seat in table.seats:
            if not table.is_human(seat.seat) or seat.user_id is None:
                continue
            cards = table.view(seat.seat).hand or []
            hand = sorted(c.id for c in cards)
            since, _, last = (seat.dm_hand or "0:").partition(":")
            if last == ",".join(map(str, hand)):
                continue
            if log is None:
                log = await self.bot.store.actions(table.record.id)
            rows = [row for row in log if row.version > int(since or 0)]
            notes = [named(str(e.get("text", "")), table.names)
                     for row in rows if row.seat != seat.seat
                     for e in row.events
                     if seat.seat in (e.get("to") or []) and e.get("type") != "dealt_private"]
            await self.bot.store.set_seat(table.record.id, seat.seat,
                                          dm_hand=f"{table.state.version}:{','.join(map(str, hand))}")
            had = {int(c) for c in last.split(",") if c}
            unseen_after = None if actor == seat.seat else start
            if not notes and seen_by(seat.seat, rows, had, set(hand), unseen_after):
                continue
            words = ", ".join(c.name for c in cards) or "no cards"
            body = "\n".join([*notes[-8:], f"Your hand ({len(hand)}): {words}."])
            await self.bot.notifier.dm(table.record, seat.user_id, body[:1900])

    # -- the private panel and the reaction windows ------------------------------------------

    async def private_panel(self, table: Table, seat: SeatRecord) -> dict[str, Any]:
        """Your hand in words and as a picture, what you must decide now and its choices
        (the presenter's ``hand`` panel), and Refresh."""
        gid = table.record.id
        if table.pending.kind in ("reaction", "setup") and table.deadline is None:
            table.deadline = await self.bot.service.deadline(gid)
        own = table.view(seat.seat)
        hand = own.hand or []
        lines = [f"**{c.name}** ({card_line(c.id)}): {short(c.text, 90)}" for c in hand]
        embed = discord.Embed(title=f"Your hand ({len(hand)} cards)",
                              description=("\n".join(lines) or "No cards.")[:EMBED_LIMIT],
                              colour=0xC46E20)
        model = self.model(table, seat.seat)
        panel = model.panels["hand"]
        items = [*self.draw(gid, model.key, panel.items, prints=model.prints),
                 button("g", gid, "hand", "Refresh", emoji="\N{CLOCKWISE OPEN CIRCLE ARROW}")]
        pic = await self.bot.render(hand_picture, own, names=table.plain_names)
        return {"content": panel.text, "embed": embed, "view": view_of(*items),
                "file": discord.File(io.BytesIO(pic.png), filename="my-hand.png")}

    async def on_choice(self, interaction: discord.Interaction, table: Table, seat: SeatRecord,
                        kind: str, key: str, arg: str, values: list[str]) -> None:
        """As the base; after a move, a fresh panel when the same player decides again."""
        await super().on_choice(interaction, table, seat, kind, key, arg, values)
        if kind == "o":
            return
        after = await self.load_table(table.record.id)
        if (after.record.version != table.record.version and after.result is None
                and after.record.status == "active" and seat.seat in after.pending.seats
                and after.pending.kind in ("choice", "turn")):
            await send_ephemeral(interaction, secret=True,
                                 **await self.private_panel(after, after.seat(seat.seat)))

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
                await self.act(interaction, table, seat, Pass())
            await send_ephemeral(interaction, NEUTRAL_PASS, secret=True)
            return
        if not any(isinstance(a, Respond) for a in legal):
            await send_ephemeral(interaction, NEUTRAL_RESPOND, secret=True)
            return
        model = self.model(table, seat.seat)
        panel = model.panels["respond"]
        await send_ephemeral(interaction, panel.text, secret=True,
                             view=view_of(*self.draw(table.record.id, model.key, panel.items,
                                                       prints=model.prints)))

    # -- /card -----------------------------------------------------------------------------

    @app_commands.command(name="card", description="Show a Llamas Unleashed card and its text.")
    @app_commands.describe(name="The card's name")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        """Ephemeral picture and rules text of the card called ``name``."""
        try:
            design = catalog().by_name(name.strip())
        except KeyError:
            await send_error(interaction, f"There is no Llamas Unleashed card called “{quoted(name)}”.")
            return
        data = await self.bot.render(render_card, catalog().ids_of(design.key)[0])
        kind = f" \u00b7 {design.kind.title()}" if design.kind else ""
        embed = discord.Embed(title=design.name, description=design.text, colour=0xC46E20)
        embed.set_footer(text=f"{TYPE_WORDS[design.type]}{kind} \u00b7 {design.copies} "
                              f"{'copy' if design.copies == 1 else 'copies'}")
        embed.set_image(url="attachment://card.png")
        await send_ephemeral(interaction, embed=embed,
                             file=discord.File(io.BytesIO(data), filename="card.png"))

    @card.autocomplete("name")
    async def card_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """Card names containing what was typed (names starting with it first), 25 at most."""
        typed = current.strip().lower()
        names = [d.name for d in catalog().designs.values() if typed in d.name.lower()]
        names.sort(key=lambda n: (not n.lower().startswith(typed), n))
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]


async def setup(bot: Any) -> None:
    """Load the cog."""
    await bot.add_cog(UnleashedCog(bot))
