"""The table: a loaded game as the Discord layer sees it, and how it looks in Discord.

:class:`Table` is the value (record, seats, state and what is worked out from them once);
:class:`TableLook` draws it from the game's spec (:class:`~bot.games.registry.GameSpec`:
its presenter and display hooks, its table renderer): the picture, the turn text, the
presenter model and its Discord components, the Components V2 card, the final text. A
game cog overrides a hook only for a flow of its own.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot.discord import choices
from bot.discord.components import button
from bot.discord.host import Host
from bot.discord.installs import is_one_message
from bot.discord.layout import action_rows, card
from bot.discord.table_lines import ai_seat_lines, fit_lines
from bot.discord.text import and_list, md_name, pinging, plain_name
from bot.games.base import Action, Event, Pending, Result, State
from bot.games.registry import GameSpec
from bot.i18n import ENGLISH, member_language, supported, translate, translate_n
from bot.present import base as present
from bot.present.base import Presenter, Seen, TableModel, named
from bot.render.pool import Job
from bot.runtime import Known, UpdateKind
from bot.runtime.core import is_lesson
from bot.runtime.updates import game_title
from bot.store import GameRecord, SeatRecord

#: How many characters of moves a message tells at most (an embed description's limit,
#: within the 4,000 of a Components V2 message's texts).
EMBED_LIMIT = 4096
#: The Watch button's code (on every running table) and emoji.
WATCH = "watch"
WATCH_EMOJI = "\N{EYES}"

#: The update kinds that carry moves to show: a member's, a timer's, or those a catch-up
#: shows after a restart (the thread never saw them); the cogs treat them alike.
MOVES = (UpdateKind.ACTION, UpdateKind.TIMEOUT, UpdateKind.CATCHUP)
#: The update kinds that show a new state version in the game's thread.
SHOWS_A_VERSION = (UpdateKind.STARTED, *MOVES)


def plain_line(line: str, table: Table) -> str:
    """``line`` (markdown, names escaped by :attr:`Table.names`) as plain text for an
    alternative text, which Discord shows as typed: bold marks dropped, each escaped name
    back as typed (:attr:`Table.plain_names`)."""
    return _plain(line, _name_pairs(table))


def _name_pairs(table: Table) -> list[tuple[str, str]]:
    """(escaped name, name as typed) of each seat, the longest escaped name first."""
    plain = table.plain_names
    return [(name, plain.get(seat, name))
            for seat, name in sorted(table.names.items(), key=lambda kv: -len(kv[1]))]


def _plain(line: str, pairs: list[tuple[str, str]]) -> str:
    line = line.replace("**", "")
    for name, typed in pairs:
        line = line.replace(name, typed)
    return line


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
    #: (``"legal"``, ``"key"``, ``"view"``, ``"pending"`` or ``"result"``, seat or ``None``)
    #: -> what :meth:`legal`, :meth:`key`, :meth:`view`, :attr:`pending` and :attr:`result`
    #: worked out from :attr:`state`, which a table never replaces (a new state is a new
    #: Table); shared with every table of the same state object (:attr:`Update.derived`,
    #: :attr:`Known.derived`).
    derived: dict[tuple[str, str | None], Any] = dataclasses.field(default_factory=dict)
    #: When the game's ``rules`` and ``turn`` timers run out (kind -> Unix seconds), as
    #: the change being shown left them (``None``: not known; read before drawing).
    deadlines: dict[str, float] | None = None
    #: The game as read for the click being handled (:meth:`GameService.peek`): the
    #: move it makes uses this read instead of reading again.
    known: Known | None = None
    #: The lesson's explanation to show on this table (markdown; ``""``: none; see
    #: :class:`bot.discord.lesson_notes.LessonNotes`).
    lesson: str = ""
    #: True once the end was shown in the last table message (:meth:`GameCog.final_message`,
    #: :func:`bot.discord.outbox.show_end`): :meth:`GameCog.finish` posts no more.
    shown_end: bool = False
    #: The client locale of the member whose click is being answered (Discord's, such as
    #: ``"de"``; ``None``: no click): their private replies' language (:attr:`member_lang`).
    client_locale: str | None = None

    @property
    def lang(self) -> str:
        """The game's language (chosen at ``/play``, kept in its options): its public
        table, pictures and thread."""
        return supported(self.record.options.get("language")) or ENGLISH

    @property
    def member_lang(self) -> str:
        """The language of what the clicking member alone sees: their client's, else the
        game's, else English (:func:`bot.i18n.member_language`)."""
        return member_language(self.client_locale, self.lang)

    @property
    def names(self) -> dict[str, str]:
        """Seat id -> display name for markdown-rendered text (content, text displays, embed
        titles and descriptions): escaped, never a mention (:func:`bot.discord.text.md_name`)."""
        return {s.seat: md_name(s.name) for s in self.seats}

    @property
    def plain_names(self) -> dict[str, str]:
        """Seat id -> display name as typed, for pictures and the places Discord shows
        without markdown (labels, placeholders: :func:`bot.discord.text.plain_name`)."""
        return {s.seat: plain_name(s.name) for s in self.seats}

    def told_in(self, lang: str) -> Table:
        """This table told in ``lang`` (a spectator's or a member's own copy of the public
        table): the same state and worked-out values, its words and picture in ``lang``."""
        if lang == self.lang:
            return self
        record = self.record.model_copy(update={"options": {**self.record.options,
                                                            "language": lang}})
        return dataclasses.replace(self, record=record, models={})

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
        """Who must decide now (worked out once: see :attr:`derived`; do not change it)."""
        key = ("pending", None)
        if key not in self.derived:
            self.derived[key] = self.spec.engine.pending(self.state)
        return self.derived[key]  # type: ignore[no-any-return]

    @property
    def result(self) -> Result | None:
        """The result once finished (worked out once: see :attr:`derived`)."""
        key = ("result", None)
        if key not in self.derived:
            self.derived[key] = self.spec.engine.result(self.state)
        return self.derived[key]  # type: ignore[no-any-return]

    def legal(self, seat_id: str) -> list[Action]:
        """Legal actions of ``seat_id`` (worked out once per seat: see :attr:`derived`;
        do not change the list): none, without asking the engine, for a seat that is not
        deciding now in a game where only those act (``Engine.only_pending_act``)."""
        key = ("legal", seat_id)
        if key not in self.derived:
            engine = self.spec.engine
            self.derived[key] = (
                [] if engine.only_pending_act and seat_id not in self.pending.seats
                else engine.legal_actions(self.state, seat_id))
        return self.derived[key]  # type: ignore[no-any-return]

    def key(self, seat_id: str) -> str:
        """The decision key of ``seat_id`` (:func:`bot.present.base.decision_key` of
        :attr:`pending` and :meth:`legal`; worked out once per seat: see :attr:`derived`)."""
        key = ("key", seat_id)
        if key not in self.derived:
            self.derived[key] = present.decision_key(self.pending, self.legal(seat_id))
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


class TableLegal:
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

    def decision_key(self, state: State, seat: str) -> str:
        """The decision key of ``seat`` in ``state`` (the table's own, worked out once)."""
        if state is self._table.state:
            return self._table.key(seat)
        return present.decision_key(self._engine.pending(state),
                                    self._engine.legal_actions(state, seat))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)



class TableLook:
    """How a game's table looks in Discord, drawn from the game's spec (found in the
    bot's registry by the cog's :attr:`kind`); a game cog
    (:class:`bot.discord.game_cog.GameCog`) overrides a hook for a flow of its own."""

    #: The registry key of the game this cog plays.
    kind: ClassVar[str] = ""

    bot: Host
    #: the /rules example picture per language, once built.
    _examples: dict[str, bytes]
    #: game id -> the presenter's picture inputs from the last update that made moves
    #: (:meth:`bot.present.base.Presenter.picture_inputs`), until the game is forgotten.
    _picture_inputs: dict[int, dict[str, Any]]

    # -- the game's spec -----------------------------------------------------------------

    @property
    def spec(self) -> GameSpec | None:
        """The spec of the game this cog plays (``None``: the bot does not offer it)."""
        return self.bot.registry.get(self.kind)

    @property
    def presenter(self) -> Presenter | None:
        """The game's presenter (the spec's): when set, the turn text, the choices, their
        clicks and the final and private texts come from it (:mod:`bot.present.base`)."""
        spec = self.spec
        return None if spec is None else spec.presenter  # type: ignore[no-any-return]

    @property
    def table_renderer(self) -> Callable[..., bytes] | None:
        """The spec's table renderer: when set, the default :meth:`picture` and
        :meth:`build_example` draw with it."""
        spec = self.spec
        return None if spec is None else spec.table_renderer

    @property
    def hidden_info(self) -> bool:
        """True when the game has hidden cards (the spec's :attr:`GameSpec.hidden_info`;
        a game the bot does not offer counts as hiding them)."""
        spec = self.spec
        return True if spec is None else spec.hidden_info

    @property
    def utility_row(self) -> int | None:
        """The action row of My hand / I'm back (the presenter's; ``None``: after the
        choices)."""
        return None if self.presenter is None else self.presenter.utility_row

    # -- hooks for subclasses ----------------------------------------------------------

    def picture(self, table: Table, inputs: dict[str, Any] | None = None) -> Job | None:
        """The public table picture as a :class:`~bot.render.pool.Job` (a renderer and its
        picklable inputs), drawn by the bot in a render process and kept by its inputs:
        by default :attr:`table_renderer` on the spectator view, the plain names and the
        presenter's picture inputs (``inputs``, else those of the game's last update);
        ``None`` (no renderer): :meth:`render` draws it in the render thread instead."""
        draw = self.table_renderer
        if draw is None:
            return None
        if inputs is None:
            inputs = self._picture_inputs.get(table.record.id)
        if inputs is None:
            inputs = {} if self.presenter is None else self.presenter.picture_inputs(None)
        return Job(draw, (table.view(None),), {"names": table.plain_names, **inputs})

    def end_picture(self, table: Table, inputs: dict[str, Any] | None = None) -> Job | None:
        """The picture of the end message of a finished ``table`` (``final.png``): by
        default the table picture (:meth:`picture`); a game with a picture of its own for
        the end overrides it."""
        return self.picture(table, inputs)

    def render(self, table: Table) -> bytes:
        """PNG bytes of the public table (runs in a worker thread): the :meth:`picture`
        job drawn here. Raises ``NotImplementedError`` for a game with neither."""
        job = self.picture(table)
        if job is None:
            raise NotImplementedError
        return job.run()

    def build_example(self, lang: str = ENGLISH) -> bytes | None:
        """PNG bytes of an example table for ``/rules`` in ``lang`` (seeded; runs in a
        worker thread): the presenter's example drawn by :attr:`table_renderer`, or
        ``None`` for no picture (no example or no renderer)."""
        draw = self.table_renderer
        example = self.presenter.example() if self.presenter is not None else None
        if draw is None or example is None:
            return None
        view, names = example
        return draw(view, names=names, **({} if lang == ENGLISH else {"lang": lang}))

    async def example_image(self, lang: str | None = None) -> bytes | None:
        """The :meth:`build_example` picture in ``lang`` (English when ``None``), built
        once per language, off the event loop."""
        lang = lang or ENGLISH
        found = self._examples.get(lang)
        if found is None:
            found = await self.bot.render(self.build_example, lang)
            if found is not None:
                self._examples[lang] = found
        return found

    def turn_text(self, table: Table) -> str:
        """One or two lines: whose turn and what they can do (the presenter's lines)."""
        if self.presenter is not None:
            return "\n".join(self.model(table).lines)
        names = ", ".join(table.names[s] for s in table.pending.seats)
        return translate(table.lang, "Waiting for **{names}**.", names=names)

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        """The public action buttons for the current state (excluding My hand): the
        presenter model's items."""
        if self.presenter is None:
            return []
        model = self.model(table)
        return self.draw(table.record.id, model.key, model.items, keys=model.keys,
                         prints=model.prints, lang=table.lang)

    # -- presenter models ----------------------------------------------------------------

    def model(self, table: Table, seat: str | None = None,
              events: list[Event] | None = None, lang: str | None = None) -> TableModel:
        """The presenter's model of ``table`` with choices for ``seat`` (``None``: the
        first pending seat), from the spectator's view (drawn once per table and seat), in
        ``lang`` (``None``: the game's language; another language is drawn anew)."""
        assert self.presenter is not None
        if seat is None and table.result is None and table.record.status == "active":
            seat = next(iter(table.pending.seats), None)
        lang = lang or table.lang
        if events is None and seat in table.models and lang == table.lang:
            return table.models[seat]
        pending = table.pending
        legal_of = {s: legal for s in table.state.seats if (legal := table.legal(s))}
        seen = Seen(seat, table.view(None), pending, legal_of.get(seat, []) if seat else [],
                    [e for e in events or [] if e.to is None], table.names, table.plain_names,
                    legal_of, lang, table.key(seat) if seat else None)
        model = self.stamp(table, self.presenter.table(seen), legal_of)
        if events is None and lang == table.lang:
            table.models[seat] = model
        return model

    @staticmethod
    def stamp(table: Table, model: TableModel,
              legal_of: dict[str, list[Action]] | None = None) -> TableModel:
        """``model`` with its ``keys`` (every seat with legal actions -> its decision key)
        and ``prints`` (see :func:`bot.present.base.repick_prints`: every seat's, in a
        decision several seats make at once) filled in."""
        pending = table.pending
        if legal_of is None:
            legal_of = {s: legal for s in table.state.seats if (legal := table.legal(s))}
        model.keys = {s: table.key(s) if table.derived.get(("legal", s)) is legal
                      else present.decision_key(pending, legal) for s, legal in legal_of.items()}
        together = present.simultaneous(pending, legal_of)
        model.prints = {model.keys[s]: prints for s, legal in legal_of.items()
                        if (prints := present.repick_prints(pending, legal, together))}
        return model

    def draw(self, game_id: int, key: str, items: Any, page: dict[str, int] | None = None,
             keys: dict[str, str] | None = None,
             prints: dict[str, Sequence[str]] | None = None,
             lang: str | None = None) -> list[discord.ui.Item[Any]]:
        """Discord components of presenter ``items`` decided under ``key``: buttons coded
        ``a.<key>.<index>`` / ``o.<key>.<panel>``, selects ``s.<key>`` whose values are
        action indexes (paged past 25; ``page`` maps a select's code to its page). A
        choice with a ``seat`` is coded with ``keys[seat]`` (the model's ``keys``); in a
        decision with fingerprints (the model's ``prints``) indexes carry them. A paged
        select's page words are in ``lang``."""
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
                                            page=(page or {}).get(code, 0), lang=lang)
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

    def ping_key(self, table: Table) -> str:
        """The turn a table message is for: a new message pinging the members who must act
        (and a turn notice) when this changes, else the table edited in place (the
        presenter's :meth:`~Presenter.ping_key`; default: the pending decision and who
        owes it)."""
        pending = table.pending
        if self.presenter is not None:
            return self.presenter.ping_key(pending, table.view(None))
        return f"{pending.kind}:{pending.key}:{','.join(pending.seats)}"

    def final_text(self, table: Table) -> str:
        """The end-of-game breakdown in words."""
        result = table.result
        if result is None:
            return ""
        names = table.names
        if self.presenter is not None:
            out = self.presenter.final_lines(table.view(None), result, names, lang=table.lang)
            if out:
                return "\n".join([self.presenter.final_head(result, names, lang=table.lang),
                                  *out])
        lines = []
        order = sorted(result.scores, key=lambda s: -result.scores[s])
        for seat in order:
            parts = ", ".join(f"{ln.label} {ln.points:+d}" for ln in result.breakdown.get(seat, []))
            crown = "\N{TROPHY} " if seat in result.winners else ""
            lines.append(f"{crown}**{names[seat]}**: {result.scores[seat]}" +
                         (f" ({parts})" if parts else ""))
        lang = table.lang
        if result.winners:
            win = and_list(lang, [names[s] for s in result.winners])
            head = translate_n(lang, "**{names}** wins!", "**{names}** win!",
                               len(result.winners), names=win)
        else:
            head = translate(lang, "Nobody wins this time.")
        if result.reason:
            head = f"{named(result.reason, names)} {head}"
        return head + "\n" + "\n".join(lines)


    async def render_file(self, table: Table, filename: str = "table.png") -> discord.File:
        """Draw the table (its :meth:`picture` through the bot's render processes and kept
        pictures, else :meth:`render` in the render thread) and wrap it as an attachment."""
        job = self.picture(table)
        data = (await self.bot.render(self.render, table) if job is None
                else await self.bot.draw(job))
        return discord.File(io.BytesIO(data), filename=filename)

    def table_buttons(self, table: Table) -> list[discord.ui.Item[Any]]:
        """The action buttons plus My hand (and I'm back for a taken-over seat) and Watch
        (anyone not seated: the table privately, see :mod:`bot.discord.watch`; not on a
        lesson's table nor on a game in one message)."""
        items = list(self.table_items(table)) if table.result is None else []
        lang = table.lang
        if table.record.status == "active" and table.result is None:
            items.append(button("g", table.record.id, "hand", translate(lang, "My hand"),
                                emoji="\N{OPEN BOOK}", style=discord.ButtonStyle.secondary,
                                row=self.utility_row))
            if any(s.ai_takeover for s in table.seats):
                items.append(button("g", table.record.id, "back", translate(lang, "I'm back"),
                                    style=discord.ButtonStyle.success, row=self.utility_row))
            if not is_lesson(table.record) and not is_one_message(table.record):
                # (a lesson's table is in the learner's DMs; a game in one message is seen
                # by everyone where it is played)
                items.append(button("g", table.record.id, WATCH, translate(lang, "Watch"),
                                    emoji=WATCH_EMOJI,
                                    style=discord.ButtonStyle.secondary, row=self.utility_row))
        return items

    def public_lines(self, table: Table, events: list[Event] | None) -> list[str]:
        """The public events' lines with display names, in the game's language (private
        events left out)."""
        return [self.event_line(table, e) for e in (events or []) if e.to is None]

    def refusal_line(self, table: Table, message: str) -> str:
        """A refusal's ``message`` (the engine's or the runtime's, seat ids in it) for the
        clicking member: the presenter's :meth:`~bot.present.base.Presenter.refusal` in
        their language, with the display names."""
        if self.presenter is None:
            return named(message, table.names)
        return self.presenter.refusal(message, table.names, lang=table.member_lang)

    def event_line(self, table: Table, event: Event, names: dict[str, str] | None = None,
                   lang: str | None = None) -> str:
        """``event``'s line with ``names`` (default: the display names) in ``lang``
        (default: the game's language): the presenter's
        :meth:`~bot.present.base.Presenter.event_line`, else the engine's text."""
        names = table.names if names is None else names
        if self.presenter is None:
            return named(event.text, names)
        return self.presenter.event_line(event, names, lang=lang or table.lang)

    def alt_text(self, table: Table, lines: list[str]) -> str:
        """The picture's alternative text: the position in words from the public view
        (the presenter's :meth:`~Presenter.alt_text`, with ``lines``, the moves just
        shown, already named, as plain text: :func:`plain_line`), at most :data:`~bot.discord.layout.ALT_LIMIT` characters."""
        if self.presenter is None:
            return translate(table.lang, "{game} table, move {move}.", game=table.spec.name,
                             move=table.state.version)
        pairs = _name_pairs(table) if lines else []
        return self.presenter.alt_text(table.view(None), table.pending, table.plain_names,
                                       [_plain(line, pairs) for line in lines],
                                       lang=table.lang)

    @property
    def accent(self) -> int:
        """The game's accent colour (the presenter's)."""
        return 0xC8A165 if self.presenter is None else self.presenter.accent

    def table_card(
        self, table: Table, events: list[Event] | None = None, *, deadline: float | None = None,
        lines: list[str] | None = None, humans: list[str] | None = None, buttons: bool = True,
        head: str | None = None,
    ) -> discord.ui.LayoutView:
        """The table as one Components V2 message: the :meth:`headline` (pinging
        ``humans``; ``None``: no headline; ``head``: these words instead), the events just played (or ``lines``, already
        named) as bullets, the picture (``table.png``) with its :meth:`alt_text`, whose
        turn (with the turn timer's deadline, said once), the AI seats, the choices
        (unless ``buttons`` is False), a lesson's explanation (:attr:`Table.lesson`) and the footer "<game> #<id> · Move <version>"."""
        if lines is None:
            lines = self.public_lines(table, events)
        lang = table.lang
        said = fit_lines(lines, EMBED_LIMIT - 1000, lang)
        turn = ""
        if table.result is None and table.record.status == "active":
            turn = self.turn_text(table)
            if deadline is not None:
                turn += "\n\N{ALARM CLOCK} " + translate(
                    lang, "Turn timer: the AI plays for you {when}.",
                    when=f"<t:{int(deadline)}:R>")
        ai_lines = ai_seat_lines(table.seats, lang)
        ai = (translate(lang, "**AI seats**") + "\n" + "\n".join(ai_lines)) if ai_lines else ""
        if head is None and humans is not None:
            head = self.headline(table, humans)
        return card(accent=self.accent, before=[head or "", said], picture="table.png",
                    alt=self.alt_text(table, lines), after=[turn, table.lesson, ai],
                    rows=action_rows(self.table_buttons(table)) if buttons else [],
                    footer=self.table_footer(table), lang=lang)

    def table_footer(self, table: Table, lang: str | None = None) -> str:
        """The table's small last line in ``lang`` (default: the game's): its title and
        the version it shows (``Some Game #12 · Move 7``)."""
        lang = lang or table.lang
        return translate(lang, "{title} · Move {move}", title=self.table_title(table, lang),
                         move=table.state.version)

    def headline(self, table: Table, humans: list[str]) -> str | None:
        """The text above a new table: while the game runs, the presenter's
        :meth:`~Presenter.headline` when it has one; else the pings of ``humans`` (the
        members who must act now, empty when already pinged for this decision)."""
        if table.result is None and self.presenter is not None:
            said = self.presenter.headline(table.view(None), table.pending, table.names,
                                           lang=table.lang)
            if said is not None:
                return said
        return " ".join(table.mention(s) for s in humans) or None

    def pings_members(self, table: Table) -> bool:
        """True when the members who must decide now are pinged (the presenter's
        :meth:`~Presenter.pings`; default True)."""
        return self.presenter is None or self.presenter.pings(table.pending)

    def table_title(self, table: Table, lang: str | None = None) -> str:
        """The table's title (in its footer) in ``lang`` (default: the game's): the game's
        name and number."""
        return game_title(lang or table.lang, table.spec.name, table.record.id)

