"""The base of every game cog: the table message, turn pings, private updates, the end.

A game cog subclasses :class:`GameCog` and supplies what is particular to its game:
``render`` (PNG bytes from a view), ``turn_text``, ``table_items`` (the action buttons),
``on_game_component`` (what a click or selection does) and ``private_panel`` (the
ephemeral "My hand" content). Rules stay in the engine; this layer only translates.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import discord
from discord.ext import commands

from bot.ai.levels import DEFAULT_LEVEL, level_label
from bot.discord import choices, ids
from bot.discord import publisher as pub
from bot.discord.components import button, view_of
from bot.discord.host import Host
from bot.discord.replies import defer, edit_panel, send_ephemeral, send_error
from bot.discord.text import md_name, pinging, plain_name
from bot.games.base import Action, Event, Pending, Result, State
from bot.games.registry import GameSpec
from bot.present import base as present
from bot.present.base import Presenter, Seen, TableModel, named
from bot.render.pool import Job
from bot.runtime import GameError, Known, Update, UpdateKind
from bot.store import STORE_FAILURES, GameRecord, SeatRecord

log = logging.getLogger(__name__)

#: Discord's limit on an embed description.
EMBED_LIMIT = 4096

#: The update kinds that carry moves to show: a member's, a timer's, or those a catch-up
#: shows after a restart (the thread never saw them); the cogs treat them alike.
MOVES = (UpdateKind.ACTION, UpdateKind.TIMEOUT, UpdateKind.CATCHUP)
#: The update kinds that show a new state version in the game's thread.
SHOWS_A_VERSION = (UpdateKind.STARTED, *MOVES)

#: Discord's error codes for a channel that no longer exists and for a locked thread.
UNKNOWN_CHANNEL = 10003
THREAD_ARCHIVED = 50083


def thread_is_gone(exc: discord.HTTPException) -> bool:
    """True when Discord says the game's channel or thread no longer exists (404, 10003)."""
    return exc.status == 404 and exc.code == UNKNOWN_CHANNEL


def why_not_posted(exc: discord.HTTPException) -> str:
    """A few words on why Discord refused a post in the game's thread (for a sentence)."""
    if exc.code == THREAD_ARCHIVED:
        return "it is locked"
    if exc.code == 50013:
        return "I am missing a permission there"
    if exc.code == 50001:
        return "I cannot see it"
    if thread_is_gone(exc):
        return "it was deleted"
    return "Discord refused the message"


def fit_lines(lines: list[str], limit: int) -> str:
    """Bullet ``lines`` into at most ``limit`` characters; when they do not fit, the oldest
    are summarised as "(N earlier moves: /game log)" so no move goes untold."""
    out: list[str] = []
    size = 0
    for line in reversed(lines):
        text = f"\N{BULLET} {line}"
        if size + len(text) + 1 > limit - 60:
            hidden = len(lines) - len(out)
            out.append(f"({hidden} earlier move{'s' * (hidden != 1)}: see /game log)")
            break
        out.append(text)
        size += len(text) + 1
    return "\n".join(reversed(out))


def _event_lines(message: discord.Message | None) -> list[str]:
    """The event lines (bullets) at the top of a table message's embed, unbulleted."""
    if message is None or not message.embeds:
        return []
    out = []
    for line in (message.embeds[0].description or "").split("\n"):
        if not line.startswith("\N{BULLET} "):
            break
        out.append(line[2:])
    return out


def ai_seat_lines(seats: list[SeatRecord]) -> list[str]:
    """The table's "AI seats" lines, in seat order: each AI seat with its level
    (``🤖 AI Pancho (Hard)``), and each member's seat the AI plays for now, at Normal
    (``🤖 Ana (Normal, until they are back)``). Empty when no seat is the AI's."""
    out = []
    for s in seats:
        if s.is_ai:
            out.append(f"\N{ROBOT FACE} {md_name(s.name)} ({level_label(s.ai_level)})")
        elif s.ai_takeover:
            out.append(f"\N{ROBOT FACE} {md_name(s.name)} ({level_label(DEFAULT_LEVEL)}, "
                       "until they are back)")
    return out


@dataclass
class Table:
    """A loaded game as a cog sees it."""

    record: GameRecord
    seats: list[SeatRecord]
    spec: GameSpec
    state: State
    #: When the rules' own timer (a reaction window, a negotiation) runs out, Unix seconds;
    #: filled in before a table is drawn (``None``: no such timer).
    deadline: float | None = None
    #: True for a restart's (or a failed write's) catch-up: its table may already be in
    #: the thread, posted but not recorded (see :meth:`GameCog.adopt_posted`).
    catchup: bool = False
    #: seat (``None``: the first pending seat) -> its presenter model, drawn once.
    models: dict[str | None, TableModel] = dataclasses.field(default_factory=dict)
    #: (``"legal"`` or ``"view"``, seat) -> what :meth:`legal` / :meth:`view` worked out
    #: from :attr:`state`, which a table never replaces (a new state is a new Table).
    derived: dict[tuple[str, str | None], Any] = dataclasses.field(default_factory=dict)
    #: When the game's ``rules`` and ``turn`` timers run out (kind -> Unix seconds), as
    #: the change being shown left them (``None``: not known; read before drawing).
    deadlines: dict[str, float] | None = None
    #: The game as read for the click being handled (:meth:`GameService.peek`): the
    #: move it makes uses this read instead of reading again.
    known: Known | None = None
    #: True once the end was shown in the last table message (:meth:`GameCog.final_message`,
    #: :func:`bot.discord.publisher.show_end`): :meth:`GameCog.finish` posts no more.
    shown_end: bool = False

    @property
    def names(self) -> dict[str, str]:
        """Seat id -> display name for markdown-rendered text (content, embed titles and
        descriptions): escaped, never a mention (:func:`bot.discord.text.md_name`)."""
        return {s.seat: md_name(s.name) for s in self.seats}

    @property
    def plain_names(self) -> dict[str, str]:
        """Seat id -> display name as typed, for pictures and the places Discord shows
        without markdown (labels, placeholders: :func:`bot.discord.text.plain_name`)."""
        return {s.seat: plain_name(s.name) for s in self.seats}

    def seat_of(self, user_id: int) -> SeatRecord | None:
        """The seat held by ``user_id``."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def seat(self, seat_id: str) -> SeatRecord:
        """The seat record of ``seat_id``."""
        return next(s for s in self.seats if s.seat == seat_id)

    def is_human(self, seat_id: str) -> bool:
        """True when a member plays ``seat_id`` (not an AI, not taken over)."""
        s = self.seat(seat_id)
        return s.user_id is not None and not s.is_ai and not s.ai_takeover

    @property
    def pending(self) -> Pending:
        """Who must decide now."""
        return self.spec.engine.pending(self.state)

    @property
    def result(self) -> Result | None:
        """The result once finished."""
        return self.spec.engine.result(self.state)

    def legal(self, seat_id: str) -> list[Action]:
        """Legal actions of ``seat_id`` (worked out once per seat: see :attr:`derived`;
        do not change the list)."""
        key = ("legal", seat_id)
        if key not in self.derived:
            self.derived[key] = self.spec.engine.legal_actions(self.state, seat_id)
        return self.derived[key]  # type: ignore[no-any-return]

    def view(self, seat_id: str | None) -> Any:
        """The engine view for ``seat_id`` (``None``: spectator), made once per seat (see
        :attr:`derived`; do not change it)."""
        key = ("view", seat_id)
        if key not in self.derived:
            self.derived[key] = self.spec.engine.view(self.state, seat_id)
        return self.derived[key]

    def mention(self, seat_id: str) -> str:
        """``<@id>`` for a member, the (escaped) name for an AI."""
        s = self.seat(seat_id)
        return f"<@{s.user_id}>" if s.user_id is not None and not s.is_ai else md_name(s.name)

    def pings(self, seat_ids: list[str]) -> discord.AllowedMentions:
        """Allowed mentions pinging exactly the members playing ``seat_ids`` (AI seats
        ping nobody); pass it with every message meant to ping."""
        return pinging(s.user_id for s in self.seats
                       if s.seat in seat_ids and s.user_id is not None and not s.is_ai)


class _TableLegal:
    """The table's engine for :func:`bot.present.base.decode`, with ``legal_actions`` of
    the table's own state taken from the table (:meth:`Table.legal`, worked out once per
    seat); any other state is asked of the engine."""

    def __init__(self, table: Table) -> None:
        self._table = table
        self._engine = table.spec.engine

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        if state is self._table.state:
            return self._table.legal(seat)
        return self._engine.legal_actions(state, seat)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)


class GameCog(commands.Cog):
    """Base class of the game cogs. Subclasses set ``kind`` and override the hooks."""

    kind: ClassVar[str] = ""
    #: True when the game has hidden cards: refusals (which may name them) then never fall
    #: back to the channel when Discord refuses the ephemeral answer.
    hidden_info: ClassVar[bool] = True
    #: The game's presenter: when set, the turn text, the choices, their clicks and the
    #: final and private texts come from it (:mod:`bot.present.base`).
    presenter: ClassVar[Presenter | None] = None
    #: The action row of My hand / I'm back (``None``: after the choices).
    utility_row: ClassVar[int | None] = None
    #: The game's table renderer, ``(spectator view, *, names=...) -> PNG bytes`` (a
    #: module-level function, so that a render process can run it): when set, the default
    #: :meth:`picture` and :meth:`build_example` draw with it.
    table_renderer: ClassVar[Callable[..., bytes] | None] = None

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        #: game id -> lock serialising the posts of its tables.
        self._post_locks: dict[int, asyncio.Lock] = {}
        #: game id -> (table message id, the event lines it shows): a display cache only,
        #: forgotten when the game ends (see _lines_shown).
        self._shown: dict[int, tuple[int, list[str]]] = {}
        #: game id -> its table as posted by a click's followup: edits go through that
        #: interaction's token while Discord keeps it (15 minutes), not the bot's.
        self._posted: dict[int, discord.WebhookMessage] = {}
        #: game id -> (version, table message id, pinged key) this cog last stored as the
        #: game's table (:meth:`_note_recorded`).
        self._recorded: dict[int, tuple[int, int | None, str | None]] = {}
        #: game id -> the newest state version this cog drew a table for or saw stored.
        self._newest: dict[int, int] = {}
        #: the /rules example picture, once built.
        self._example: bytes | None = None

    # -- hooks for subclasses ----------------------------------------------------------

    def picture(self, table: Table) -> Job | None:
        """The public table picture as a :class:`~bot.render.pool.Job` (a renderer and its
        picklable inputs), drawn by the bot in a render process and kept by its inputs:
        by default :attr:`table_renderer` on the spectator view and the plain names;
        ``None`` (no renderer): :meth:`render` draws it in the render thread instead."""
        draw = type(self).table_renderer
        return None if draw is None else Job(draw, (table.view(None),),
                                             {"names": table.plain_names})

    def render(self, table: Table) -> bytes:
        """PNG bytes of the public table (runs in a worker thread): the :meth:`picture`
        job drawn here. Raises ``NotImplementedError`` for a game with neither."""
        job = self.picture(table)
        if job is None:
            raise NotImplementedError
        return job.run()

    def build_example(self) -> bytes | None:
        """PNG bytes of an example table for ``/rules`` (seeded; runs in a worker thread):
        the presenter's example drawn by :attr:`table_renderer`, or ``None`` for no
        picture (no example or no renderer)."""
        draw = type(self).table_renderer
        example = self.presenter.example() if self.presenter is not None else None
        if draw is None or example is None:
            return None
        view, names = example
        return draw(view, names=names)

    async def example_image(self) -> bytes | None:
        """The :meth:`build_example` picture, built once, off the event loop."""
        if self._example is None:
            self._example = await self.bot.render(self.build_example)
        return self._example

    def turn_text(self, table: Table) -> str:
        """One or two lines: whose turn and what they can do (the presenter's lines)."""
        if self.presenter is not None:
            return "\n".join(self.model(table).lines)
        names = ", ".join(table.names[s] for s in table.pending.seats)
        return f"Waiting for **{names}**."

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        """The public action buttons for the current state (excluding My hand): the
        presenter model's items."""
        if self.presenter is None:
            return []
        model = self.model(table)
        return self.draw(table.record.id, model.key, model.items, keys=model.keys,
                         prints=model.prints)

    # -- presenter models ----------------------------------------------------------------

    def model(self, table: Table, seat: str | None = None,
              events: list[Event] | None = None) -> TableModel:
        """The presenter's model of ``table`` with choices for ``seat`` (``None``: the
        first pending seat), from the spectator's view (drawn once per table and seat)."""
        assert self.presenter is not None
        if seat is None and table.result is None and table.record.status == "active":
            seat = next(iter(table.pending.seats), None)
        if events is None and seat in table.models:
            return table.models[seat]
        pending = table.pending
        legal_of = {s: legal for s in table.state.seats if (legal := table.legal(s))}
        seen = Seen(seat, table.view(None), pending, legal_of.get(seat, []) if seat else [],
                    [e for e in events or [] if e.to is None], table.names, table.plain_names,
                    legal_of)
        model = self.stamp(table, self.presenter.table(seen), legal_of)
        if events is None:
            table.models[seat] = model
        return model

    @staticmethod
    def stamp(table: Table, model: TableModel,
              legal_of: dict[str, list[Action]] | None = None) -> TableModel:
        """``model`` with its ``keys`` (every seat with legal actions -> its decision key)
        and ``prints`` (see :func:`bot.present.base.repick_prints`) filled in."""
        pending = table.pending
        if legal_of is None:
            legal_of = {s: legal for s in table.state.seats if (legal := table.legal(s))}
        model.keys = {s: present.decision_key(pending, legal) for s, legal in legal_of.items()}
        model.prints = {model.keys[s]: prints for s, legal in legal_of.items()
                        if (prints := present.repick_prints(pending, legal))}
        return model

    def draw(self, game_id: int, key: str, items: Any, page: dict[str, int] | None = None,
             keys: dict[str, str] | None = None,
             prints: dict[str, tuple[str, ...]] | None = None) -> list[discord.ui.Item[Any]]:
        """Discord components of presenter ``items`` decided under ``key``: buttons coded
        ``a.<key>.<index>`` / ``o.<key>.<panel>``, selects ``s.<key>`` whose values are
        action indexes (paged past 25; ``page`` maps a select's code to its page). A
        choice with a ``seat`` is coded with ``keys[seat]`` (the model's ``keys``); in a
        decision with fingerprints (the model's ``prints``) indexes carry them."""
        out: list[discord.ui.Item[Any]] = []
        prints = prints or {}
        for n, item in enumerate(items):
            if isinstance(item, present.Select):
                opts = [choices.Option(o.label, present.choice_value(o.index, prints.get(key, ())),
                                       o.description)
                        for o in item.options if o.index is not None]
                code = present.select_code(key)
                out += choices.paged_select("g", game_id, code, opts, placeholder=item.placeholder,
                                            noun=item.noun, row=item.row,
                                            page=(page or {}).get(code, 0))
                continue
            if item.index is not None:
                item_key = (keys or {}).get(item.seat or "", key)
                code = present.action_code(item_key, item.index, prints.get(item_key, ()))
            else:  # a panel, or a disabled choice leading nowhere (still a unique id)
                code = present.panel_code(key, item.opens or f"none{n}")
            out.append(button("g", game_id, code, item.label, row=item.row,
                              style=getattr(discord.ButtonStyle, item.style),
                              disabled=item.disabled, emoji=item.emoji))
        return out

    async def on_choice(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord,
        kind: str, key: str, arg: str, values: list[str],
    ) -> Update | None:
        """A presenter choice was clicked: play ``legal_actions[index]`` (a button ``a``
        or a select ``s``) or open a panel (``o``). Stale keys answer "This table has
        moved on", forged indexes and panels are refused in a sentence; nothing changes.
        Returns the move's update (``None``: no move was made)."""
        bad = GameError("bad_button", "This button is not one herdbot understands.")
        engine: Any = _TableLegal(table)
        try:
            if kind == "o":
                await self.open_panel(interaction, table, seat, key, arg)
                return None
            if kind == "s" and len(values) != 1:
                raise GameError("bad_choice", "Choose one option.")
            value = arg if kind == "a" else values[0]
            index, fingerprint = present.index_of(value), present.print_of(value)
            action = present.decode(engine, table.state, seat.seat, key, index, fingerprint)
        except present.StaleChoice:
            await self.answer_stale(interaction, table)
            return None
        except present.ForgedChoice:
            if kind == "s":
                raise GameError("bad_choice", "Choose one of the options shown.") from None
            raise bad from None
        if seat.ai_takeover:
            await send_error(interaction, "The AI is playing your seat: press I'm back first.")
            return None
        ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
        said: str | None = None
        if ephemeral:
            # The choice as drawn now (a fingerprinted pick may name another index today).
            legal = table.legal(seat.seat)
            shown = legal.index(action) if action in legal else index
            said = next((c.says for c in self._choices(self.model(table, seat.seat))
                         if c.index == shown and c.says and c.seat in (None, seat.seat)), None)

        def choose(state: State) -> Action:
            try:
                return present.decode(engine, state, seat.seat, key, index, fingerprint)
            except present.StaleChoice:
                raise GameError("stale", "This table has moved on.") from None
            except present.ForgedChoice:
                raise bad from None

        update = await self.act(interaction, table, seat, choose, version=-1)
        if update is not None and ephemeral and said:
            # The private panel's buttons are spent: it says what was done instead.
            try:
                await edit_panel(interaction, private=True, content=said, attachments=[],
                                 view=None)
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
        who = present.seat_for(table.spec.engine, table.state, seat.seat, key)
        if who != seat.seat:
            raise GameError("not_yours", "This choice is not yours to make.")
        model = self.model(table, who)
        items: Sequence[present.Item] = model.items
        text = "\n".join(model.lines)
        ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
        if ephemeral:
            panel = next((p for p in model.panels.values()
                          if any(isinstance(i, present.Select) for i in p.items)), None)
            if panel is not None:
                items, text = panel.items, panel.text
        view = view_of(*self.draw(table.record.id, key, items, keys=model.keys,
                                  page={present.select_code(key): page}, prints=model.prints))
        if ephemeral:
            await edit_panel(interaction, private=True, content=text, view=view)
        else:
            await send_ephemeral(interaction, text, view=view)

    async def open_panel(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord, key: str,
        name: str,
    ) -> None:
        """Show panel ``name`` of the model drawn for decision ``key`` privately: a new
        ephemeral message, or the clicked panel edited in place. Someone other than the
        player to choose gets the engine's refusal in words."""
        engine = table.spec.engine
        who = present.seat_for(engine, table.state, seat.seat, key)
        model = self.model(table, who)
        if name not in model.panels:
            raise present.ForgedChoice(name)
        if who != seat.seat:
            first = present.first_index(model, name)
            if first is None:
                raise present.ForgedChoice(name)
            exc = present.refusal(engine, table.state, seat.seat, table.legal(who)[first])
            raise GameError(exc.code, named(exc.message, table.names))
        panel = model.panels[name]
        kwargs: dict[str, Any] = {"content": panel.text,
                                  "view": view_of(*self.draw(table.record.id, key, panel.items,
                                                             keys=model.keys,
                                                             prints=model.prints))}
        if interaction.message is not None and interaction.message.flags.ephemeral:
            await edit_panel(interaction, private=True, **kwargs)
        else:
            await send_ephemeral(interaction, **kwargs)

    async def on_game_component(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord,
        cid: ids.ComponentId, values: list[str],
    ) -> None:
        """Handle a game button or select (the base already checked game, seat and version)."""
        raise GameError("bad_button", "This button is not one herdbot understands.")

    async def turn_page(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord, code: str,
        page: int,
    ) -> None:
        """Previous/Next of the paged select ``code`` (see :mod:`bot.discord.choices`):
        edit the clicked message to show page ``page`` (from 0), or raise
        :class:`GameError` when the select is out of date. Default: no paged selects."""
        raise GameError("bad_button", "This button is not one herdbot understands.")

    async def private_panel(
        self, table: Table, seat: SeatRecord
    ) -> dict[str, Any]:
        """Keyword arguments for the ephemeral "My hand" message (content/embed/file/view):
        by default the presenter's private lines from the seat's own view."""
        if self.presenter is not None:
            lines = self.presenter.private_lines(table.view(seat.seat), seat.seat, table.names)
            return {"content": "\n".join(lines)}
        return {"content": "You have no hidden cards in this game."}

    def ping_key(self, table: Table) -> str:
        """The decision a ping is for: the members who must act are pinged (and sent a turn
        notice) when this changes. Default: the pending decision and who owes it."""
        pending = table.pending
        return f"{pending.kind}:{pending.key}:{','.join(pending.seats)}"

    def final_text(self, table: Table) -> str:
        """The end-of-game breakdown in words."""
        result = table.result
        if result is None:
            return ""
        names = table.names
        if self.presenter is not None:
            out = self.presenter.final_lines(table.view(None), result, names)
            if out:
                return "\n".join([self.presenter.final_head(result, names), *out])
        lines = []
        order = sorted(result.scores, key=lambda s: -result.scores[s])
        for seat in order:
            parts = ", ".join(f"{ln.label} {ln.points:+d}" for ln in result.breakdown.get(seat, []))
            crown = "\N{TROPHY} " if seat in result.winners else ""
            lines.append(f"{crown}**{names[seat]}**: {result.scores[seat]}" +
                         (f" ({parts})" if parts else ""))
        if result.winners:
            win = " and ".join(names[s] for s in result.winners)
            head = f"**{win}** win{'s' if len(result.winners) == 1 else ''}!"
        else:
            head = "Nobody wins this time."
        if result.reason:
            head = f"{named(result.reason, names)} {head}"
        return head + "\n" + "\n".join(lines)

    # -- loading -----------------------------------------------------------------------

    async def load_table(self, game_id: int, record: GameRecord | None = None,
                         known: Known | None = None) -> Table:
        """Load a started game (``record``: its row as just read, not read again;
        ``known``: the game, its seats and timers as just read, nothing read again). Raises
        :class:`GameError` if it does not exist."""
        if known is not None and known.bundle is not None:
            record, seats, spec, state, _ = await self.bot.service.read(game_id, known)
            return Table(record, seats, spec, state, known=known)
        record, seats, spec, state = await self.bot.service.load(game_id, record)
        return Table(record, seats, spec, state)

    async def render_file(self, table: Table, filename: str = "table.png") -> discord.File:
        """Draw the table (its :meth:`picture` through the bot's render processes and kept
        pictures, else :meth:`render` in the render thread) and wrap it as an attachment."""
        job = self.picture(table)
        data = (await self.bot.render(self.render, table) if job is None
                else await self.bot.draw(job))
        return discord.File(io.BytesIO(data), filename=filename)

    def table_view(self, table: Table) -> discord.ui.View:
        """The action buttons plus My hand (and I'm back for a taken-over seat)."""
        items = list(self.table_items(table)) if table.result is None else []
        if table.record.status == "active" and table.result is None:
            items.append(button("g", table.record.id, "hand", "My hand", emoji="\N{OPEN BOOK}",
                                style=discord.ButtonStyle.secondary, row=self.utility_row))
            if any(s.ai_takeover for s in table.seats):
                items.append(button("g", table.record.id, "back", "I'm back",
                                    style=discord.ButtonStyle.success, row=self.utility_row))
        return view_of(*items)

    def public_lines(self, table: Table, events: list[Event] | None) -> list[str]:
        """The public events' texts with display names (private events left out)."""
        return [named(e.text, table.names) for e in (events or []) if e.to is None]

    def table_embed(
        self, table: Table, events: list[Event] | None = None, *, deadline: float | None = None,
        lines: list[str] | None = None,
    ) -> discord.Embed:
        """The table embed: events just played (or ``lines``, already named), whose turn
        (with the turn timer's deadline as a relative timestamp), the picture."""
        if lines is None:
            lines = self.public_lines(table, events)
        desc = fit_lines(lines, EMBED_LIMIT - 600)
        if table.result is None and table.record.status == "active":
            desc = (desc + "\n\n" if desc else "") + self.turn_text(table)
            if deadline is not None:
                desc += f"\n\N{ALARM CLOCK} Turn timer: the AI plays for you <t:{int(deadline)}:R>."
        embed = discord.Embed(
            title=self.table_title(table), description=desc[:EMBED_LIMIT],
            colour=0xC8A165,
        )
        ai_lines = ai_seat_lines(table.seats)
        if ai_lines:
            embed.add_field(name="AI seats", value="\n".join(ai_lines), inline=False)
        embed.set_image(url="attachment://table.png")
        embed.set_footer(text=f"Move {table.state.version}")
        return embed

    # -- posting -----------------------------------------------------------------------

    def channel_of(self, record: GameRecord) -> discord.abc.Messageable | None:
        """The game's thread (or channel) object, from the cache or as a partial."""
        target = record.thread_id or record.channel_id
        if target is None:
            return None
        return self.bot.get_channel(target) or self.bot.get_partial_messageable(target)  # type: ignore[return-value]

    async def post_table(
        self, table: Table, events: list[Event] | None = None,
        interaction: discord.Interaction | None = None, *, fresh: bool = False,
    ) -> None:
        """Show the table (picture, turn text, buttons) in the thread: a new message when a
        new decision begins (pinging the members who must act, once per decision: the key
        is stored with the game) or with ``fresh`` (/game status), else the current table
        edited in place; the old table's buttons are retired. ``interaction`` (the click that made the change) carries the
        posts where it can (see :mod:`bot.discord.publisher`)."""
        channel = self.channel_of(table.record)
        if channel is None:
            return
        lock = self._post_locks.setdefault(table.record.id, asyncio.Lock())
        async with lock, self.bot.render_slots:
            await self._post_table(channel, table, events, interaction, fresh=fresh)

    def _lines_shown(self, game_id: int, message_id: int,
                     interaction: discord.Interaction | None) -> list[str]:
        """The event lines table message ``message_id`` shows now: remembered since this
        process drew it, else read from the clicked message. The bot has no message
        intent, so after a restart an edit by a timer may start the lines afresh (every
        move stays in /game log)."""
        remembered = self._shown.get(game_id)
        if remembered is not None and remembered[0] == message_id:
            return list(remembered[1])
        if interaction is not None and pub.on_message(interaction, message_id):
            return _event_lines(interaction.message)
        return []

    def _remember(self, table: Table, message_id: int, lines: list[str]) -> None:
        if table.result is None and table.record.status == "active":
            self._shown[table.record.id] = (message_id, lines[-60:])
        else:
            self.forget(table.record.id)

    def headline(self, table: Table, humans: list[str]) -> str | None:
        """The text above a new table: the pings of ``humans`` (the members who must act
        now, empty when already pinged for this decision). Override to say more."""
        return " ".join(table.mention(s) for s in humans) or None

    def pings_members(self, table: Table) -> bool:
        """True when the members who must decide now are pinged (default). A game whose
        decision must not name who owes it (a reaction window) returns False."""
        return True

    async def _post_table(
        self, channel: discord.abc.Messageable, table: Table, events: list[Event] | None,
        interaction: discord.Interaction | None = None, *, fresh: bool = False,
    ) -> None:
        # Two updates of one game can be published out of order (a timer and a click);
        # posts are serialised per game and a table older than the stored state only
        # tells its events, so the newest table is the one with live buttons. One read:
        # the stored game and its rules and turn timers' deadlines.
        gid = table.record.id
        if table.deadlines is None:
            stored, due = await self.bot.store.game_and_deadlines(gid)
        else:  # a change just stored: its record, deadlines and what this cog posted since
            stored, due = table.record, table.deadlines
            mine = self._recorded.get(gid)
            if mine is not None and mine[0] >= (stored.table_version or 0):
                stored = stored.model_copy(update={"table_version": mine[0],
                                                   "table_message_id": mine[1],
                                                   "pinged_key": mine[2]})
            if self._newest.get(gid, -1) > stored.version:
                stored = stored.model_copy(update={"version": self._newest[gid]})
        if stored is not None:
            self._newest[gid] = max(self._newest.get(gid, -1), stored.version)
        thread_id = table.record.thread_id or table.record.channel_id
        if stored is not None and stored.version > table.state.version:
            lines = self.public_lines(table, events)
            if lines:
                await pub.new_table(channel, interaction, thread_id,
                                    content="\n".join(f"\N{BULLET} {t}" for t in lines)[:2000])
            return
        if stored is not None:
            table.record = stored
        table.deadline = due.get("rules")
        old = table.record.table_message_id
        key: str | None = None
        if table.result is None and table.record.status == "active":
            key = self.ping_key(table)
        if old and not fresh and table.result is not None:
            parts = await self.final_message(table, self.public_lines(table, events))
            if parts is not None:
                await pub.show_end(channel, interaction, old, self._posted.get(table.record.id),
                                   parts)
                table.shown_end = True
                return
        if old and not fresh and (key is None or key == table.record.pinged_key):
            # A step inside the decision already shown (or the end): the table is edited
            # in place and keeps the earlier steps' lines (see _lines_shown).
            earlier = self._lines_shown(table.record.id, old, interaction)
            lines = earlier + self.public_lines(table, events)
            deadline = due.get("turn")
            file = await self.render_file(table)
            await pub.edit_table(channel, interaction, old, self._posted.get(table.record.id),
                                 embed=self.table_embed(table, lines=lines, deadline=deadline),
                                 attachments=[file], view=self.table_view(table))
            self._remember(table, old, lines)
            return
        if table.catchup and await self.adopt_posted(channel, table, key, old):
            return
        humans: list[str] = []
        if key is not None and key != table.record.pinged_key and self.pings_members(table):
            # (a /game status repost of the decision already pinged pings nobody again)
            humans = [s for s in table.pending.seats if table.is_human(s)]
        file = await self.render_file(table)
        deadline = due.get("turn")
        lines = self.public_lines(table, events)
        message = await pub.new_table(
            channel, interaction, thread_id,
            content=self.headline(table, humans),
            embed=self.table_embed(table, lines=lines, deadline=deadline),
            file=file, view=self.table_view(table), allowed_mentions=table.pings(humans),
        )
        posted = self._posted.pop(table.record.id, None)
        self._remember(table, message.id, lines)
        if isinstance(message, discord.WebhookMessage) and table.result is None:
            self._posted[table.record.id] = message
        await self.bot.store.update_game(table.record.id, table_message_id=message.id,
                                         pinged_key=key, table_version=table.state.version)
        self._note_recorded(table.record.id, table.state.version, message.id, key)
        table.record = table.record.model_copy(update={"table_message_id": message.id,
                                                       "pinged_key": key,
                                                       "table_version": table.state.version})
        for seat_id in humans:
            await self.turn_notice(table, seat_id, message)
        await pub.retire(channel, interaction, old, posted)

    def table_title(self, table: Table) -> str:
        """The title of the table embed: the game's name and number."""
        return f"{table.spec.name} #{table.record.id}"

    async def adopt_posted(
        self, channel: discord.abc.Messageable, table: Table, key: str | None,
        old: int | None,
    ) -> bool:
        """Catch-up only: when the newest table in the thread already shows this state's
        version (it was posted, then recording it failed: a full disk, or a crash between
        the post and the write), record that message as the table (with its ping) instead
        of posting a second table and pinging again; the older table's buttons are retired.
        Reads the thread's last few messages (one request). Returns True when adopted;
        False (post as usual) when the newest table is older or the thread cannot be read.
        Raises the store's errors."""
        me = self.bot.user
        found: discord.Message | None = None
        try:
            async for message in channel.history(limit=5):  # type: ignore[attr-defined]
                if me is None or message.author.id != me.id or not message.embeds:
                    continue
                if message.embeds[0].title == self.table_title(table):
                    found = message
                    break
        except (discord.HTTPException, AttributeError) as exc:
            log.info("game %s: could not read its thread to catch up: %s", table.record.id, exc)
            return False
        footer = found.embeds[0].footer.text if found is not None else None
        if found is None or footer != f"Move {table.state.version}":
            return False
        await self.bot.store.update_game(table.record.id, table_message_id=found.id,
                                         pinged_key=key, table_version=table.state.version)
        self._note_recorded(table.record.id, table.state.version, found.id, key)
        table.record = table.record.model_copy(update={"table_message_id": found.id,
                                                       "pinged_key": key,
                                                       "table_version": table.state.version})
        self._remember(table, found.id, _event_lines(found))
        if old != found.id:
            await pub.retire(channel, None, old)
        log.info("game %s: its table for move %d was posted but not recorded; recorded now",
                 table.record.id, table.state.version)
        return True

    def _note_recorded(self, game_id: int, version: int, message_id: int | None,
                       key: str | None) -> None:
        """Remember what this cog stored as game ``game_id``'s table: the version shown,
        the message and the decision pinged (newer than an update's record read before)."""
        if self._recorded.get(game_id, (-1,))[0] <= version:
            self._recorded[game_id] = (version, message_id, key)

    def forget(self, game_id: int) -> None:
        """Drop what this cog keeps in memory about game ``game_id`` (the lines its table
        shows, the followup that posted it, its post lock): called when the game ends."""
        self._recorded.pop(game_id, None)
        self._newest.pop(game_id, None)
        self._shown.pop(game_id, None)
        self._posted.pop(game_id, None)
        lock = self._post_locks.get(game_id)
        if lock is not None and not lock.locked():
            del self._post_locks[game_id]

    async def show_update(
        self, update: Update, interaction: discord.Interaction | None = None
    ) -> bool:
        """:meth:`on_update` for a change that is already stored; once shown, its version
        is stored as what the thread shows (``Store.mark_shown``; a version left unshown is
        caught up at the next start). When Discord refuses a
        post in the game's thread the change stays made and the member who acted (if any)
        is told so, with where to look; a deleted thread ends the game (see
        :meth:`thread_gone`). Never raises for a Discord refusal; returns True when
        everything was posted."""
        try:
            if not self.nothing_public(update):
                await self.on_update(update, interaction)
            if update.state is not None and update.kind in SHOWS_A_VERSION:
                # The thread shows this version now (a table, a panel edit or a line; some
                # changes show nothing public): start-up catch-up skips it.
                try:
                    if self._recorded.get(update.record.id, (-1,))[0] < update.state.version:
                        await self.bot.store.mark_shown(update.record.id, update.state.version)
                except STORE_FAILURES as exc:  # shown all the same; a restart shows it again
                    log.warning("game %s: could not record the version shown (%s)",
                                update.record.id, exc)
            return True
        except discord.HTTPException as exc:
            what = await self.posting_failed(update.record, exc)
            if interaction is not None:
                more = "" if thread_is_gone(exc) else " See /game status."
                await send_ephemeral(interaction, f"Your move was made, but {what}.{more}")
            return False

    async def posting_failed(self, record: GameRecord, exc: discord.HTTPException) -> str:
        """Deal with Discord refusing a post in ``record``'s thread after a stored change
        and return a true clause for the member ("I could not post the table in the
        game's thread (it is locked)"). A deleted thread ends the game; other refusals
        are logged (warning, not error: a locked thread is a moderator's choice)."""
        if thread_is_gone(exc):
            await self.thread_gone(record)
            return "the game's thread was deleted, so the game has ended (no scores recorded)"
        log.warning("game %s: could not post in %s: %s", record.id,
                    record.thread_id or record.channel_id, exc)
        return f"I could not post the table in the game's thread ({why_not_posted(exc)})"

    async def thread_gone(self, record: GameRecord) -> bool:
        """The game's thread was deleted on Discord: end the game (timers stop, nothing
        more is posted there, no scores) and say so in the lobby's channel. Returns True
        when this call ended it (False: it was not running)."""
        update = await self.bot.service.end_without_thread(record.id)
        self.forget(record.id)
        if update is None:
            return False
        if record.channel_id and record.channel_id != record.thread_id:
            try:
                await self.bot.get_partial_messageable(record.channel_id).send(
                    f"\N{BLACK SQUARE FOR STOP} {update.spec.name} #{record.id} has ended: its "
                    "thread was deleted. No scores are recorded."
                )
            except discord.HTTPException as exc:
                log.info("game %s: could not post the end note: %s", record.id, exc)
        return True

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A deleted thread that holds one of this cog's running games ends that game."""
        record = await self.bot.store.game_by_thread(payload.thread_id)
        if record is None or record.kind != self.kind or record.thread_id == record.channel_id:
            return
        await self.thread_gone(record)

    async def on_update(self, update: Update, interaction: discord.Interaction | None = None) -> None:
        """Show what changed: notes, the new table, private events, and the end."""
        if update.kind in (UpdateKind.ARCHIVE, UpdateKind.ENDED):
            self.forget(update.record.id)
        if update.kind == UpdateKind.ARCHIVE:
            await self.archive(update.record)
            return
        if update.kind == UpdateKind.ENDED and update.state is None:  # a quarantined game
            await self._announce_end(update.record, update.notes)
            return
        if update.kind in (UpdateKind.LOBBY, UpdateKind.CANCELLED, UpdateKind.EXPIRED) or update.state is None:
            return
        table = Table(update.record, update.seats, update.spec, update.state,
                      catchup=update.kind == UpdateKind.CATCHUP, deadlines=update.deadlines)
        channel = self.channel_of(table.record)
        if update.kind == UpdateKind.REMINDER:
            humans = [s for s in table.pending.seats if table.is_human(s)]
            if channel is not None and humans:
                deadline = int(update.deadline or 0)
                await channel.send(
                    f"\N{ALARM CLOCK} {' '.join(table.mention(s) for s in humans)}, half your "
                    f"time is gone: the AI plays for you <t:{deadline}:R>.",
                    allowed_mentions=table.pings(humans),
                )
            return
        if update.kind == UpdateKind.ENDED:
            await self._announce_end(table.record, update.notes)
            return
        if update.kind == UpdateKind.IDLE_NOTICE:
            if channel is not None:
                humans = [s for s in table.pending.seats if table.is_human(s)]
                who = " ".join(table.mention(s) for s in humans)
                await channel.send(
                    f"\N{HOURGLASS WITH FLOWING SAND} This game will end in 24 hours unless "
                    f"someone moves.{f' Waiting for {who}.' if who else ''}",
                    allowed_mentions=table.pings(humans))
            return
        # Notes (a turn timer ran out) lead the table's lines: no message of their own.
        notes = [Event(type="note", text=n) for n in update.notes]
        await self.post_table(table, notes + update.events(), interaction)
        await self.send_private_events(table, update, interaction)
        if update.result is not None:
            self.forget(table.record.id)
            await self.finish(table)
        if self.presenter is not None and self.presenter.hand_dm_due(update.events()):
            actor = table.seat_of(interaction.user.id) if interaction else None
            await pub.dm_hands(self.bot, self.presenter, table, actor.seat if actor else None,
                               update.record.version - len(update.steps))

    def nothing_public(self, update: Update) -> bool:
        """True for moves that show nothing in the thread: all their events private, no
        note, no result, and steps the presenter calls quiet (:meth:`Presenter.quiet`)."""
        if self.presenter is None or update.kind not in MOVES or update.state is None \
                or not update.steps or update.result is not None or update.notes \
                or any(e.to is None for e in update.events()):
            return False
        return self.presenter.quiet(update.spec.engine.pending(update.state),
                                    [(s.seat, s.action) for s in update.steps])

    async def _announce_end(self, record: GameRecord, notes: list[str] | None = None) -> None:
        """Say in the thread that the game was ended early (``notes``: why, instead of the
        plain sentence) and retire the table's buttons."""
        channel = self.channel_of(record)
        if channel is None:
            return
        why = " ".join(notes or []) or "This game was ended early; no scores are recorded."
        try:
            await channel.send(f"\N{BLACK SQUARE FOR STOP} {why}"[:2000])
        except discord.HTTPException as exc:  # the game is ended all the same
            log.info("game %s: could not post the end: %s", record.id, exc)
            return
        if record.table_message_id:
            try:
                await channel.get_partial_message(record.table_message_id).edit(view=None)  # type: ignore[attr-defined]
            except (discord.HTTPException, AttributeError):
                pass

    async def turn_notice(self, table: Table, seat_id: str, message: discord.Message) -> None:
        """DM a turn notice to a member who opted in with ``/notify on``."""
        user_id = table.seat(seat_id).user_id
        if user_id is None or not await self.bot.store.turn_notices(user_id):
            return
        await self.bot.notifier.dm(table.record, user_id, "It is your turn.")

    async def archive(self, record: GameRecord) -> None:
        """Archive the finished game's thread (its buttons were already retired)."""
        if not record.thread_id or record.thread_id == record.channel_id:
            return
        thread = self.bot.get_channel(record.thread_id)
        try:
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=True)
            else:
                await self.bot.http.edit_channel(record.thread_id, archived=True)
        except discord.HTTPException:
            log.info("could not archive thread %s", record.thread_id)

    async def send_private_events(
        self, table: Table, update: Update, interaction: discord.Interaction | None
    ) -> None:
        """Private events reach their seat: the actor by an ephemeral followup (a panel of
        its own where :meth:`event_panel` gives one), others by DM, or in a game that DMs
        hands, in their next hand DM (:func:`bot.discord.publisher.dm_hands`)."""
        actor = table.seat_of(interaction.user.id) if interaction else None
        later = self.presenter is not None and self.presenter.hand_dm_after is not None
        per_seat: dict[str, list[str]] = {}
        for event in update.events():
            for seat in event.to or []:
                if actor is not None and seat == actor.seat and interaction is not None:
                    panel = await self.event_panel(table, seat, event)
                    if panel is not None:
                        await send_ephemeral(interaction, secret=True, **panel)
                        continue
                elif later:
                    continue
                per_seat.setdefault(seat, []).append(named(event.text, table.names))
        await self.deliver_private(table, per_seat, interaction)

    async def event_panel(self, table: Table, seat: str, event: Event) -> dict[str, Any] | None:
        """Keyword arguments of an ephemeral panel that shows private ``event`` to ``seat``,
        the member who just acted, instead of its line (a drawn pair with its Keep
        buttons); ``None`` (the default): the line."""
        return None

    async def deliver_private(
        self, table: Table, per_seat: dict[str, list[str]],
        interaction: discord.Interaction | None,
    ) -> None:
        """Send each human seat its private lines: the member who clicked gets an ephemeral
        followup, everyone else a DM (through the notifier's opt-outs and closed-DM memory)."""
        actor = table.seat_of(interaction.user.id) if interaction else None
        for seat_id, texts in per_seat.items():
            if not table.is_human(seat_id):
                continue
            body = "\n".join(texts)[:1900]
            if actor is not None and actor.seat == seat_id and interaction is not None:
                await send_ephemeral(interaction, body, secret=True)
            else:
                user_id = table.seat(seat_id).user_id
                assert user_id is not None
                await self.bot.notifier.dm(table.record, user_id, body)

    async def final_message(self, table: Table,
                            lines: list[str] | None = None) -> dict[str, Any] | None:
        """The end of the game as one message's parts (``embeds`` and a ``file``), led by
        ``lines`` (the last moves, already named), which then replace the last table in
        place (:func:`bot.discord.publisher.show_end`); ``None`` (the default): the last
        table shows the last moves and the final scores follow as a message of their own
        (:meth:`finish`)."""
        return None

    async def finish(self, table: Table) -> None:
        """Post the final scores (:meth:`final_message`, else :meth:`final_text` in an
        embed), unless the last table shows them already (``table.shown_end``)."""
        channel = self.channel_of(table.record)
        if table.result is None or table.shown_end or channel is None:
            return
        parts = await self.final_message(table)
        if parts is None:
            parts = {"embed": discord.Embed(
                title=f"{table.spec.name} #{table.record.id}: final scores",
                description=self.final_text(table)[:EMBED_LIMIT], colour=0xE0B000)}
        await channel.send(**parts)

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
            await send_ephemeral(interaction, "The game has ended.")
            return
        table = await self.load_table(cid.game_id, record, known)
        seat = table.seat_of(interaction.user.id)
        if table.record.status != "active":
            raise GameError("not_active", "This game is over.")
        if seat is None:
            raise GameError("not_in_game", "You are not in this game.")
        if cid.code == "hand":
            await send_ephemeral(interaction, secret=True, **await self.private_panel(table, seat))
            return
        if cid.code == "back":
            if not seat.ai_takeover:
                raise GameError("not_away", "Your seat is already yours.")
            await defer(interaction)
            update = await self.bot.service.set_takeover(table.record.id, interaction.user.id, False)
            await send_ephemeral(interaction, "Welcome back: your seat is yours again.")
            del update
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
                raise GameError("bad_button", "This button is not one herdbot understands.") from None
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
        """"This table has moved on", with the current table (ephemeral)."""
        file = await self.render_file(table)
        await send_ephemeral(
            interaction, "This table has moved on. Here is the current one:",
            embed=self.table_embed(table), file=file,
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
        """Acknowledge, apply ``action`` through the service and show the result. A refusal
        is answered ephemerally in words and changes nothing; returns ``None`` then.
        ``version``: the state version the click was drawn for (``None``: the loaded
        table's; ``-1``: none, for a callable that decodes the click itself)."""
        if seat.ai_takeover:
            await send_error(interaction, "The AI is playing your seat: press I'm back first.")
            return None
        await defer(interaction)
        try:
            # The service publishes the change; the publisher shows it through this click.
            return await self.bot.service.act(
                table.record.id, seat.seat, action,
                expected_version=(table.record.version if version is None
                                  else None if version < 0 else version),
                origin=interaction, known=table.known,
            )
        except GameError as exc:
            if exc.code == "stale":
                await self.answer_stale(interaction, await self.load_table(table.record.id))
            else:
                await send_error(interaction, named(exc.message, table.names),
                                 secret=self.hidden_info)
            return None
