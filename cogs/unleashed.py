"""The Llamas Unleashed cog: table picture, Baby choice, private hand panel, choices, the
Instant reaction windows, hand DMs and ``/card``.

Component codes (scope ``g``, all version-free: each carries the key of the decision it
answers and is checked against the stored state, so a panel stays usable while other
players pass, and an out-of-date one is refused in words):

- ``baby`` (table) opens the Baby select ``bsel`` (values: card ids) with ``bpick``
  ("Pick one for me").
- ``play.<turn>`` (hand select, values: card ids) then, when the card may go into several
  Fields, ``field.<turn>.<card>`` (values: seat ids); ``draw.<turn>``,
  ``proc.<turn>.<phase letter>``, ``act.<turn>.<source>`` (``:`` written ``=``).
- ``ch.<choice id>`` (select, values: option indexes) or ``chb.<choice id>.<index>``.
- ``resp.<window id>`` / ``pass.<window id>`` (table, during a reaction window) and
  ``rsel.<window id>`` (the ephemeral Instant select).

Every select offers all its options: past 25 it shows one page at a time with
Previous/Next (``<code>,p<page>`` / ``,b<page>`` / ``,f<page>``, see
:mod:`bot.discord.choices`); :meth:`UnleashedCog.turn_page` redraws the message at the page.

Hidden information: the public table never says who may answer a reaction window (the
engine's eligible list is the list of Instant holders); nobody is pinged for a window, a
Pass is acknowledged only to the clicker, and Respond/Pass answer a player who cannot
respond with the same neutral words. Hands go only to their owner: the ephemeral panel and
a DM at most once per turn change (RULES.md: Llamas Unleashed; UX.md "Llamas Unleashed").
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord import app_commands

from bot.discord import ids
from bot.discord.choices import Option, paged_select
from bot.discord.components import button, view_of
from bot.discord.game_cog import EMBED_LIMIT, MOVES, GameCog, Table, named
from bot.discord.replies import edit_panel, quoted, send_ephemeral, send_error
from bot.games.base import Action, Event, state_as
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.engine import UnleashedEngine
from bot.games.unleashed.models import (
    Activate,
    Choose,
    ChooseBaby,
    DrawCard,
    Pass,
    Play,
    Proceed,
    Respond,
    UnleashedState,
)
from bot.render.unleashed import TYPE_WORDS, hand_picture, render_card, render_table
from bot.runtime import GameError, Update, UpdateKind
from bot.store import SeatRecord

#: Stale panel answer.
OUT_OF_DATE = "This panel is out of date (the game has moved on). Press **My hand** for a fresh one."
#: The neutral answer to Respond/Pass from a player who cannot (or no longer can) respond.
NEUTRAL_PASS = "You pass: you will not answer this card."
NEUTRAL_RESPOND = "You have no Instant you can play on this card right now."


def short(text: str, n: int = 100) -> str:
    """``text`` cut to ``n`` characters with an ellipsis."""
    return text if len(text) <= n else text[: n - 1].rstrip() + "\u2026"


def card_line(cid: int) -> str:
    """The type line of a card id: ``"Basic Animal · Llama"``, ``"Magic"``."""
    d = catalog()[cid]
    kind = f" \u00b7 {d.kind.title()}" if d.kind else ""
    return f"{TYPE_WORDS[d.type]}{kind}"


_OWN_FIELD = re.compile(r"\b(s\d{1,2}) plays (.+?) into \1's Field")


def _src_code(source: str) -> str:
    return source.replace(":", "=")


class UnleashedCog(GameCog):
    """Llamas Unleashed in Discord (issue 6)."""

    kind = "llamas-unleashed"

    # -- helpers ---------------------------------------------------------------------------

    @staticmethod
    def st(table: Table) -> UnleashedState:
        """The typed engine state."""
        return state_as(table.state, UnleashedState)

    def _deadline_text(self, table: Table) -> str:
        when = table.deadline
        return f"<t:{int(when)}:R>" if when else "soon"

    def pile_line(self, table: Table) -> str:
        """``"Ana plays Stampede"`` / ``"Bo answers Stampede with Llama Spit"`` for the top
        of the pile (public: played cards are face up)."""
        st = self.st(table)
        if not st.stack:
            return ""
        names = table.names
        top = st.stack[-1]
        who = names.get(top.seat, top.seat)
        d = catalog()[top.card]
        if d.type == "instant" and len(st.stack) > 1:
            return f"{who} answers {catalog()[st.stack[-2].card].name} with {d.name}"
        where = ""
        if top.field and top.field != top.seat:
            where = f" into {names.get(top.field, top.field)}'s Field"
        return f"{who} plays {d.name}{where}"

    # -- hooks -----------------------------------------------------------------------------

    def render(self, table: Table) -> bytes:
        """The public table picture (spectator view)."""
        return render_table(table.view(None), names=table.plain_names)

    def turn_text(self, table: Table) -> str:
        """Whose decision it is, without naming who may answer a reaction window."""
        st = self.st(table)
        names = table.names
        pending = table.pending
        if pending.kind == "setup":
            waiting = ", ".join(names[s] for s in pending.seats)
            return (f"Everyone picks a Baby with **Choose your Baby** (waiting for {waiting}; "
                    f"a random one is picked {self._deadline_text(table)}).")
        if pending.kind == "reaction":
            return ("Anyone who holds a fitting Instant may answer with **Respond**; the "
                    f"window closes {self._deadline_text(table)}.")
        if pending.kind == "choice" and st.choice is not None:
            why = ""
            if st.choice.source is not None:
                why = f" for {catalog()[st.choice.source].name}"
            elif st.choice.herd is not None:
                why = f" for the {st.choice.herd.title()} Herd Bonus"
            elif st.phase == "end":
                why = " what to discard down to the hand limit"
            return (f"Waiting for **{names[st.choice.seat]}** to choose{why}: open "
                    "**My hand**.")
        if st.active is not None:
            what = {"start": "start-of-turn effects, then draw",
                    "action": "play a card or draw"}.get(st.phase, "finish the turn")
            return f"**{names[st.active]}**'s turn: {what} (open **My hand**)."
        return super().turn_text(table)

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        """Choose your Baby during set-up; Respond and Pass during a reaction window."""
        st = self.st(table)
        gid = table.record.id
        if st.phase == "setup":
            return [button("g", gid, "baby", "Choose your Baby", emoji="\N{BABY BOTTLE}",
                           style=discord.ButtonStyle.primary)]
        if st.reaction is not None:
            rid = st.reaction.id
            return [button("g", gid, f"resp.{rid}", "Respond", emoji="\N{HIGH VOLTAGE SIGN}",
                           style=discord.ButtonStyle.danger),
                    button("g", gid, f"pass.{rid}", "Pass", style=discord.ButtonStyle.secondary)]
        return []

    def final_text(self, table: Table) -> str:
        """Winner(s), the reason (7 Animals or the deck ran out) and every player's count."""
        result = table.result
        if result is None:
            return ""
        names = table.names
        head = named(result.reason, names)
        if result.winners:
            head += f" **{' and '.join(names[s] for s in result.winners)}** wins!"
        else:
            head += " Still tied on Animals and letters: everyone loses."
        lines = []
        best = max(result.scores.values(), default=0)
        # Letters break a tie on Animals (RULES.md: deck runs out); shown only when one did.
        tied = sum(n == best for n in result.scores.values()) > 1
        for seat in sorted(result.scores, key=lambda s: -result.scores[s]):
            letters = next((ln.points for ln in result.breakdown.get(seat, [])
                            if ln.label.startswith("Letters")), 0)
            crown = "\N{TROPHY} " if seat in result.winners else ""
            n = result.scores[seat]
            tail = f" ({letters} letters in their names)" if tied and n == best else ""
            lines.append(f"{crown}**{names[seat]}**: {n} Animal{'' if n == 1 else 's'}{tail}")
        return head + "\n" + "\n".join(lines)

    # -- posting ---------------------------------------------------------------------------

    def pings_members(self, table: Table) -> bool:
        """Nobody is pinged for a reaction window (and no turn notice is sent): its
        eligible seats are the Instant holders, and naming them would leak hands."""
        return table.pending.kind != "reaction"

    def headline(self, table: Table, humans: list[str]) -> str | None:
        """During a reaction window, what is on the pile ("Ana plays Stampede"); the
        table's turn text says when the window closes."""
        if table.result is None and table.pending.kind == "reaction":
            return f"\N{HIGH VOLTAGE SIGN} {self.pile_line(table)}"
        return super().headline(table, humans)

    def ping_key(self, table: Table) -> str:
        """As the base, except that set-up (everyone picks a Baby) is one decision: each
        Baby chosen updates the same table instead of posting a new one."""
        if table.pending.kind == "setup":
            return "setup"
        return super().ping_key(table)

    async def on_update(self, update: Update, interaction: discord.Interaction | None = None) -> None:
        """As the base, but a Pass that leaves the window open posts nothing public, and
        hands are DMed once per change of turn."""
        if self.nothing_public(update):
            return
        await super().on_update(update, interaction)
        if update.state is not None and update.kind in (*MOVES, UpdateKind.STARTED):
            if any(e.type == "turn" for e in update.events()):
                table = Table(update.record, update.seats, update.spec, update.state)
                await self.dm_hands(table)

    def nothing_public(self, update: Update) -> bool:
        """True when ``update`` changed nothing anyone else needs to see: Passes that leave
        the window open (saying so would reveal who holds Instants; Passes after which an
        Instant resolved and a new window opened on the pile are public), or a step of a
        choice with no public event after which the same player decides again."""
        if update.kind not in MOVES or update.state is None or not update.steps:
            return False
        if update.result is not None or update.notes:
            return False
        st = state_as(update.state, UnleashedState)
        if any(e.to is None for e in update.events()):
            return False  # e.g. the last Pass let an Instant resolve: a new window opened
        if all(isinstance(s.action, Pass) for s in update.steps) and st.reaction is not None:
            return True
        pending = update.spec.engine.pending(st)
        actors = {s.seat for s in update.steps}
        return pending.kind == "choice" and set(pending.seats) <= actors

    def public_lines(self, table: Table, events: list[Event] | None) -> list[str]:
        """The base lines; "s0 plays X into s0's Field" reads "... into their own Field"."""
        return super().public_lines(table, [
            e.model_copy(update={"text": _OWN_FIELD.sub(r"\1 plays \2 into their own Field",
                                                        e.text)})
            for e in events or []])

    async def send_private_events(self, table: Table, update: Update,
                                  interaction: discord.Interaction | None) -> None:
        """Private events reach the acting player at once (ephemeral); other players get
        them with their next hand DM (at most one DM per change of turn)."""
        actor = table.seat_of(interaction.user.id) if interaction else None
        per_seat: dict[str, list[tuple[str, str]]] = {}
        for event in update.events():
            for seat in event.to or []:
                per_seat.setdefault(seat, []).append((event.type, named(event.text, table.names)))
        for seat_id, items in per_seat.items():
            if not table.is_human(seat_id):
                continue
            if actor is not None and actor.seat == seat_id and interaction is not None:
                await send_ephemeral(interaction, "\n".join(t for _, t in items)[:1900], secret=True)
            # Everyone else reads theirs in their next hand DM (see dm_hands).

    async def dm_hands(self, table: Table) -> None:
        """DM each member whose hand changed since their last DM (names the game and links
        the thread through the notifier; opt-outs and closed DMs are the notifier's).

        Derived from stored state, so a restart loses nothing: the seat's ``dm_hand``
        (``"<version>:<sorted card ids>"``) is the hand last sent and when; the DM leads
        with the private events for the seat logged since then by other seats' moves (the
        seat's own moves answered its member at once). The deal's own list is left out:
        the DM ends with the whole hand."""
        st = self.st(table)
        log: list[Any] | None = None
        for seat in table.seats:
            if not table.is_human(seat.seat) or seat.user_id is None:
                continue
            hand = sorted(st.hands[seat.seat])
            since, _, last = (seat.dm_hand or "0::").partition(":")
            if last == ",".join(map(str, hand)):
                continue
            if log is None:
                log = await self.bot.store.actions(table.record.id)
            notes = [named(str(e.get("text", "")), table.names)
                     for row in log if row.version > int(since or 0) and row.seat != seat.seat
                     for e in row.events
                     if seat.seat in (e.get("to") or []) and e.get("type") != "dealt_private"]
            await self.bot.store.set_seat(table.record.id, seat.seat,
                                          dm_hand=f"{st.version}:{','.join(map(str, hand))}")
            words = ", ".join(catalog()[c].name for c in st.hands[seat.seat]) or "no cards"
            body = "\n".join([*notes[-8:], f"Your hand ({len(hand)}): {words}."])
            await self.bot.notifier.dm(table.record, seat.user_id, body[:1900])

    # -- the private panel -----------------------------------------------------------------

    async def private_panel(self, table: Table, seat: SeatRecord, *,
                            page: int = 0) -> dict[str, Any]:
        """The ephemeral panel: your hand with short texts, what you must decide now, and
        its components (Baby select, choice select/buttons, triggers, hand select, Draw,
        End Action phase) plus Refresh. ``page`` (from 0) is the page shown of a paged
        choice or hand select (past 25 options, see :mod:`bot.discord.choices`)."""
        st = self.st(table)
        me = seat.seat
        gid = table.record.id
        names = table.names
        hand = st.hands[me]
        if table.pending.kind == "reaction" and table.deadline is None:
            table.deadline = await self.bot.service.deadline(gid)
        lines = [f"**{catalog()[c].name}** ({card_line(c)}): {short(catalog()[c].text, 90)}"
                 for c in hand]
        embed = discord.Embed(title=f"Your hand ({len(hand)} cards)",
                              description=("\n".join(lines) or "No cards.")[:EMBED_LIMIT],
                              colour=0xC46E20)
        items: list[discord.ui.Item[Any]] = []
        pending = table.pending
        legal = table.legal(me)
        status = "Nothing to decide right now."
        if st.phase == "setup":
            if me in st.babies_chosen:
                status = "You have your Baby; waiting for the others."
            else:
                status = "Choose your Baby."
                items += self._baby_items(table, page)
        elif st.choice is not None and st.choice.seat == me:
            status = f"**{named(st.choice.prompt, names)}**"
            items += self._choice_items(table, page)
        elif pending.kind == "reaction":
            status = (f"{self.pile_line(table)}: use **Respond** or **Pass** on the table "
                      f"(closes {self._deadline_text(table)}).")
        elif st.active == me and st.phase == "start" and legal:
            status = "Start of your turn: use an optional effect, or go on to the Draw phase."
            for a in legal:
                if isinstance(a, Activate):
                    items.append(button("g", gid, f"act.{st.turn}.{_src_code(a.source)}",
                                        named(self.label(table, a), table.plain_names),
                                        style=discord.ButtonStyle.primary))
            items.append(button("g", gid, f"proc.{st.turn}.s", "Go to the Draw phase",
                                style=discord.ButtonStyle.success))
        elif st.active == me and st.phase == "action" and legal:
            plays = st.plays_left + st.card_plays  # card_plays: extra plays, cards only
            left = "" if plays <= 1 else f" ({plays} plays left)"
            status = f"Your Action phase{left}: play a card or draw one."
            playable = {a.card for a in legal if isinstance(a, Play)}
            opts = []
            for c in hand:
                d = catalog()[c]
                ok = c in playable
                opts.append(Option(
                    label=d.name if ok else f"{d.name} (cannot be played now)",
                    value=str(c), description=f"{card_line(c)}: {d.text}"))
            if opts:
                items += paged_select("g", gid, f"play.{st.turn}", opts, page=page,
                                      placeholder="Play a card from your hand", noun="Cards")
            if any(isinstance(a, DrawCard) for a in legal):
                items.append(button("g", gid, f"draw.{st.turn}", "Draw a card",
                                    style=discord.ButtonStyle.primary))
            if any(isinstance(a, Proceed) for a in legal):
                items.append(button("g", gid, f"proc.{st.turn}.a", "End your Action phase",
                                    style=discord.ButtonStyle.secondary))
        elif pending.seats:
            if pending.kind == "choice" and st.choice is not None:
                status = f"Waiting for {names[st.choice.seat]} to choose."
            elif st.active is not None:
                status = f"It is {names[st.active]}'s turn."
        items.append(button("g", gid, "hand", "Refresh", emoji="\N{CLOCKWISE OPEN CIRCLE ARROW}"))
        pic = await self.bot.render(hand_picture, table.view(me), names=table.plain_names)
        return {"content": status, "embed": embed, "view": view_of(*items),
                "file": discord.File(io.BytesIO(pic.png), filename="my-hand.png")}

    def label(self, table: Table, action: Action) -> str:
        """The engine's words for ``action``."""
        return table.spec.engine_as(UnleashedEngine).action_label(self.st(table), action)

    def _baby_items(self, table: Table, page: int = 0) -> list[discord.ui.Item[Any]]:
        st = self.st(table)
        gid = table.record.id
        opts = [Option(label=catalog()[c].name, value=str(c), description=card_line(c))
                for c in st.nursery]
        return [*paged_select("g", gid, "bsel", opts, page=page, placeholder="Choose your Baby",
                              noun="Babies"),
                button("g", gid, "bpick", "Pick one for me")]

    def _choice_items(self, table: Table, page: int = 0) -> list[discord.ui.Item[Any]]:
        st = self.st(table)
        assert st.choice is not None
        gid = table.record.id
        names = table.plain_names  # labels and placeholders render no markdown
        ch = st.choice
        opts = ch.options
        if len(opts) <= 5 and all(o.card is None for o in opts):
            return [button("g", gid, f"chb.{ch.id}.{i}", short(named(o.label, names), 80),
                           style=discord.ButtonStyle.primary if o.value != "no"
                           else discord.ButtonStyle.secondary)
                    for i, o in enumerate(opts)]
        # The value is the option's index in the engine's list, whatever page shows it.
        shown = [Option(label=named(o.label, names), value=str(i),
                        description=card_line(o.card) if o.card is not None else None)
                 for i, o in enumerate(opts)]
        return list(paged_select("g", gid, f"ch.{ch.id}", shown, page=page,
                                 placeholder=named(ch.prompt, names), noun="Options"))

    # -- components ------------------------------------------------------------------------

    async def on_game_component(self, interaction: discord.Interaction, table: Table,
                                seat: SeatRecord, cid: ids.ComponentId,
                                values: list[str]) -> None:
        """Decode a click or selection into an engine action (see the module docstring)."""
        st = self.st(table)
        code, _, rest = cid.code.partition(".")
        me = seat.seat
        if code == "baby":
            if st.phase != "setup":
                raise GameError("over", "Everyone already has a Baby.")
            if me in st.babies_chosen:
                raise GameError("chosen", "You already chose your Baby.")
            await send_ephemeral(interaction, "Choose your Baby:",
                                 view=view_of(*self._baby_items(table)))
            return
        if code in ("bsel", "bpick"):
            if st.phase != "setup" or me in st.babies_chosen:
                raise GameError("chosen", "You already have your Baby.")
            card = None
            if code == "bsel":
                card = self._int(values)
                if card not in st.nursery:
                    raise GameError("gone", "That Baby is no longer in the Nursery: choose another.")
            await self.act(interaction, table, seat, ChooseBaby(card=card))
            return
        if code in ("resp", "pass", "rsel"):
            await self._reaction(interaction, table, seat, code, rest, values)
            return
        if code in ("ch", "chb"):
            choice_id, _, idx = rest.partition(".")
            if st.choice is None or str(st.choice.id) != choice_id:
                raise GameError("stale_choice", "That choice is no longer open. " + OUT_OF_DATE)
            if st.choice.seat != me:
                raise GameError("not_yours", "That choice is not yours to make.")
            option = self._int([idx] if code == "chb" else values)
            if option is None or not 0 <= option < len(st.choice.options):
                raise GameError("bad_option", "That is not one of the options.")
            if await self.act(interaction, table, seat, Choose(option=option)):
                await self.follow_up(interaction, table.record.id, me)
            return
        turn, _, extra = rest.partition(".")
        if code not in ("play", "field", "draw", "proc", "act"):
            raise GameError("bad_button", "This button is not one herdbot understands.")
        if st.active != me:
            raise GameError("not_your_turn", "It is not your turn.")
        if str(st.turn) != turn or st.choice is not None or st.reaction is not None:
            raise GameError("stale_panel", OUT_OF_DATE)
        action: Action
        if code == "play":
            card = self._int(values)
            if card is None or card not in st.hands[me]:
                raise GameError("not_in_hand", "That card is no longer in your hand. " + OUT_OF_DATE)
            plays = [a for a in table.legal(me) if isinstance(a, Play) and a.card == card]
            name = catalog()[card].name
            if not plays:
                why = (" Instants answer other players' cards from a reaction window."
                       if catalog()[card].type == "instant" else "")
                raise GameError("unplayable", f"You cannot play {name} right now.{why}")
            if len(plays) > 1:
                await send_ephemeral(interaction, f"Into whose Field does {name} go?",
                                     secret=True, view=view_of(*self._field_select(table, plays)))
                return
            action = plays[0]
        elif code == "field":
            card = self._int([extra])
            field = values[0] if values else ""
            action = Play(card=card if card is not None else -1, field=field)
            if card is None or card not in st.hands[me]:
                raise GameError("not_in_hand", "That card is no longer in your hand. " + OUT_OF_DATE)
            if action not in table.legal(me):
                raise GameError("bad_field", f"{catalog()[card].name} cannot go into that Field now.")
        elif code == "draw":
            action = DrawCard()
        elif code == "proc":
            if extra != st.phase[:1]:
                raise GameError("stale_panel", OUT_OF_DATE)
            action = Proceed()
        else:
            action = Activate(source=extra.replace("=", ":"))
        if action not in table.legal(me):
            raise GameError("stale_panel", OUT_OF_DATE)
        if await self.act(interaction, table, seat, action):
            await self.follow_up(interaction, table.record.id, me)

    def _field_select(self, table: Table, plays: list[Play],
                      page: int = 0) -> list[discord.ui.Item[Any]]:
        st = self.st(table)
        names = table.plain_names  # option labels render no markdown
        card = plays[0].card
        opts = [Option(
            label="Your Field" if p.field == st.active else f"{names[p.field or '']}'s Field",
            value=p.field or "") for p in plays]
        return list(paged_select("g", table.record.id, f"field.{st.turn}.{card}", opts,
                                 page=page, placeholder="Choose the Field", noun="Fields"))

    async def turn_page(self, interaction: discord.Interaction, table: Table,
                        seat: SeatRecord, code: str, page: int) -> None:
        """Previous/Next of a paged select: the same message redrawn at ``page`` from the
        current state; a select whose decision is over is refused like its own clicks."""
        st = self.st(table)
        me = seat.seat
        head, _, rest = code.partition(".")
        kwargs: dict[str, Any]
        if head == "bsel":
            if st.phase != "setup" or me in st.babies_chosen:
                raise GameError("chosen", "You already have your Baby.")
            kwargs = {"content": "Choose your Baby:",
                      "view": view_of(*self._baby_items(table, page))}
        elif head == "rsel":
            if st.reaction is None or str(st.reaction.id) != rest:
                raise GameError("window_closed", "This reaction window has closed.")
            responses = [a for a in table.legal(me) if isinstance(a, Respond)]
            if not responses:
                raise GameError("cannot_respond", NEUTRAL_RESPOND)
            kwargs = self._respond_message(table, rest, responses, page)
        elif head == "ch":
            if st.choice is None or str(st.choice.id) != rest:
                raise GameError("stale_choice", "That choice is no longer open. " + OUT_OF_DATE)
            if st.choice.seat != me:
                raise GameError("not_yours", "That choice is not yours to make.")
            kwargs = await self.private_panel(table, seat, page=page)
            kwargs.pop("file", None)  # an edited panel keeps its picture
        elif head in ("play", "field"):
            turn, _, card_text = rest.partition(".")
            if (st.active != me or str(st.turn) != turn or st.phase != "action"
                    or st.choice is not None or st.reaction is not None):
                raise GameError("stale_panel", OUT_OF_DATE)
            if head == "play":
                kwargs = await self.private_panel(table, seat, page=page)
                kwargs.pop("file", None)  # an edited panel keeps its picture
            else:
                card = self._int([card_text])
                plays = [a for a in table.legal(me) if isinstance(a, Play) and a.card == card]
                if card is None or len(plays) < 2:
                    raise GameError("stale_panel", OUT_OF_DATE)
                kwargs = {"content": f"Into whose Field does {catalog()[card].name} go?",
                          "view": view_of(*self._field_select(table, plays, page))}
        else:
            raise GameError("bad_button", "This button is not one herdbot understands.")
        await edit_panel(interaction, private=True, **kwargs)

    async def follow_up(self, interaction: discord.Interaction, game_id: int, seat: str) -> None:
        """After a panel action: if the same player must decide again (a choice, or more
        of their turn), send them a fresh panel."""
        table = await self.load_table(game_id)
        if table.record.status != "active" or table.result is not None:
            return
        st = self.st(table)
        if seat in table.pending.seats and table.pending.kind in ("choice", "turn") and (
                st.choice is not None or st.active == seat):
            await send_ephemeral(interaction, secret=True,
                                 **await self.private_panel(table, table.seat(seat)))

    async def _reaction(self, interaction: discord.Interaction, table: Table, seat: SeatRecord,
                        code: str, rid: str, values: list[str]) -> None:
        st = self.st(table)
        if st.reaction is None or str(st.reaction.id) != rid:
            raise GameError("window_closed", "This reaction window has closed.")
        me = seat.seat
        legal = table.legal(me)
        if code == "pass":
            if Pass() in legal:
                await self.act(interaction, table, seat, Pass())
            await send_ephemeral(interaction, NEUTRAL_PASS, secret=True)
            return
        responses = [a for a in legal if isinstance(a, Respond)]
        if code == "resp":
            if not responses:
                await send_ephemeral(interaction, NEUTRAL_RESPOND, secret=True)
                return
            await send_ephemeral(interaction, secret=True,
                                 **self._respond_message(table, rid, responses))
            return
        card = self._int(values)
        if card is None or Respond(card=card) not in responses:
            raise GameError("cannot_respond", NEUTRAL_RESPOND)
        await self.act(interaction, table, seat, Respond(card=card))

    def _respond_message(self, table: Table, rid: str, responses: list[Respond],
                         page: int = 0) -> dict[str, Any]:
        """The ephemeral Instant select of window ``rid`` (paged past 25) and Pass."""
        opts = [Option(label=catalog()[a.card].name, value=str(a.card),
                       description=catalog()[a.card].text) for a in responses]
        gid = table.record.id
        return {"content": f"Answer **{self.pile_line(table)}** with:",
                "view": view_of(*paged_select("g", gid, f"rsel.{rid}", opts, page=page,
                                              placeholder="Choose an Instant", noun="Instants"),
                                button("g", gid, f"pass.{rid}", "Pass"))}

    @staticmethod
    def _int(values: list[str]) -> int | None:
        try:
            return int(values[0])
        except (IndexError, ValueError):
            return None

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
        cid = catalog().ids_of(design.key)[0]
        data = await self.bot.render(render_card, cid)
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
