"""What a game table shows and offers, as plain data (no Discord, no asyncio, no I/O).

A presenter (one per game, a subclass of :class:`Presenter`) turns what one seat may know
(the engine's ``view()``, the pending decision, the seat's ``legal_actions`` and the events
just played) into a :class:`TableModel`: the turn text, the picture's inputs and the
choices. Every choice that plays something is bound to the INDEX of an action in
``legal_actions(state, seat)``; the Discord layer draws the model and, on a click,
recomputes the legal actions and plays ``legal_actions[index]`` (:func:`decode`), so the
engine stays the one source of truth and nothing on a button can disagree with it.

How a choice is coded on a button, and decoded on a click: :mod:`bot.present.codes`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from bot.games.base import Action, Event, Pending, Result
from bot.i18n import ENGLISH, translate, translate_n
from bot.present.codes import (
    KEY_LENGTH,
    REPICK_KINDS,
    ForgedChoice,
    Prints,
    StaleChoice,
    action_code,
    choice_value,
    decision_key,
    decode,
    fingerprint,
    index_of,
    panel_code,
    parse_code,
    print_of,
    refusal,
    repick_prints,
    seat_for,
    select_code,
    simultaneous,
    still_deciding,
)

#: Button styles a choice may ask for (Discord's primary, secondary, success, danger).
Style = Literal["primary", "secondary", "success", "danger"]

@dataclass(frozen=True)
class Choice:
    """One thing a player may press or pick.

    Exactly one of ``index`` (play ``legal_actions[index]``) and ``opens`` (open the panel
    of that name) is set, or neither for a choice shown disabled. ``row`` is the Discord
    action row (0-4, ``None``: the next free), ``description`` is shown under a select
    option, ``says`` is what an ephemeral panel reads once the choice is clicked (while the
    move is played); ``emoji`` is one Unicode emoji. ``seat`` names the seat whose
    ``legal_actions`` ``index`` points into when it is not the model's seat (a public
    panel offering two players' actions, e.g. Pacapaca's Accept and Decline)."""

    label: str
    index: int | None = None
    opens: str | None = None
    style: Style = "primary"
    row: int | None = None
    disabled: bool = False
    emoji: str | None = None
    description: str | None = None
    says: str | None = None
    seat: str | None = None


@dataclass(frozen=True)
class Select:
    """A pick of one option among ``options`` (each a :class:`Choice` with an ``index``);
    more than 25 are paged by the Discord layer (``noun`` names them in the presenter's
    language: "Splits 1-25 of 40"; ``None``: the Discord layer's "Options" in the
    language it shows them in). Takes one row (two when paged) from ``row``."""

    placeholder: str
    options: tuple[Choice, ...]
    noun: str | None = None
    row: int | None = None


Item = Choice | Select


@dataclass(frozen=True)
class Panel:
    """A private (ephemeral) panel a choice opens: its text and its items. A choice in it
    may open another panel (which replaces this one in place)."""

    text: str
    items: tuple[Item, ...]


@dataclass
class TableModel:
    """What the table shows one decision.

    Attributes:
        seat: the seat whose ``legal_actions`` the choices index (``None``: no choices).
        key: that seat's :func:`decision_key` (``""`` with no seat).
        lines: the turn text, markdown, display names already in (one line or a few).
        picture: keyword inputs of the game's table renderer besides the view and names
            (e.g. ``{"highlight": {...}}``).
        items: the choices on the table message, in order.
        panels: panel name -> the private panel a choice opens.
        keys: seat -> its decision key, for every seat with legal actions (the Discord
            layer fills it; choices with a ``seat`` are coded with that seat's key).
        prints: decision key -> the fingerprints of its actions, in a
            :func:`simultaneous` decision (the Discord layer fills it, see
            :func:`choice_value`).
    """

    seat: str | None
    key: str
    lines: list[str] = field(default_factory=list)
    picture: dict[str, Any] = field(default_factory=dict)
    items: list[Item] = field(default_factory=list)
    panels: dict[str, Panel] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    prints: dict[str, Sequence[str]] = field(default_factory=dict)

    def panel_path(self, index: int) -> list[str] | None:
        """The panels to open, in order, to reach the choice bound to action ``index``
        (``[]``: it is on the table; ``None``: no choice plays it)."""
        def holds(items: Sequence[Item]) -> bool:
            for item in items:
                opts = item.options if isinstance(item, Select) else (item,)
                if any(o.index == index and not o.disabled for o in opts):
                    return True
            return False

        if holds(self.items):
            return []
        # Breadth-first from the table's openers through panels' openers.
        frontier: list[tuple[list[str], Sequence[Item]]] = [([], self.items)]
        seen: set[str] = set()
        while frontier:
            path, items = frontier.pop(0)
            for item in items:
                if isinstance(item, Choice) and item.opens and item.opens not in seen \
                        and not item.disabled and item.opens in self.panels:
                    seen.add(item.opens)
                    panel = self.panels[item.opens]
                    if holds(panel.items):
                        return [*path, item.opens]
                    frontier.append(([*path, item.opens], panel.items))
        return None


@dataclass(frozen=True)
class Seen:
    """A presenter's inputs for one seat: all that seat may know now.

    Attributes:
        seat: the seat the choices are for (``None``: nobody may act, e.g. finished).
        view: the engine's ``view(state, viewer)`` (for the public table, the spectator's).
        pending: who must decide now.
        legal: ``legal_actions(state, seat)`` (empty with no seat).
        events: the events just played that this viewer may see.
        names: seat id -> display name, markdown-escaped (for text).
        plain_names: seat id -> display name as typed (for labels and pictures).
        legal_of: seat -> its ``legal_actions``, for every seat that has any (``seat``'s
            included): for choices bound to another seat's actions (``Choice.seat``).
        lang: the language of the words (:mod:`bot.i18n`): the game's for the public
            table, the member's for a private panel.
        known_key: :attr:`key` when the caller has it (``None``: worked out here).
    """

    seat: str | None
    view: Any
    pending: Pending
    legal: list[Action]
    events: list[Event]
    names: dict[str, str]
    plain_names: dict[str, str]
    legal_of: dict[str, list[Action]] = field(default_factory=dict)
    lang: str = ENGLISH
    known_key: str | None = None

    @property
    def key(self) -> str:
        """The decision key of :attr:`seat` (``""`` with no seat)."""
        return ("" if self.seat is None
                else self.known_key or decision_key(self.pending, self.legal))


class Presenter:
    """Base of a game's presenter: pure functions from :class:`Seen` to words and models.

    Subclasses set ``game`` (the registry key) and override :meth:`table` (and, where the
    game has them, :meth:`final_lines`, :meth:`private_lines`)."""

    game: str = ""
    #: The game's accent colour (0xRRGGBB): the edge of its messages' container.
    accent: ClassVar[int] = 0xC8A165
    #: The action row of the table's My hand / I'm back (``None``: after the choices).
    utility_row: ClassVar[int | None] = None

    def table(self, seen: Seen) -> TableModel:
        """The table for ``seen`` (default: who is waited for, no choices)."""
        names = ", ".join(f"**{seen.names.get(s, s)}**" for s in seen.pending.seats)
        return TableModel(seen.seat, seen.key,
                          [translate(seen.lang, "Waiting for {names}.", names=names)]
                          if names else [])

    def alt_text(self, view: Any, pending: Pending, names: dict[str, str],
                 lines: Sequence[str] = (), *, lang: str = ENGLISH) -> str:
        """The table picture's alternative text: the position in plain words from the
        spectator ``view`` (whose turn, each player's standing, the shared cards, what
        just happened: ``lines``, the last moves already named), never a hidden card;
        ``names`` as typed. Default: who is waited for. Cut to 1,024 characters by the
        Discord layer; keep it shorter (:func:`alt_join`)."""
        who = ", ".join(names.get(s, s) for s in pending.seats)
        return alt_join([translate(lang, "Waiting for {names}.", names=who) if who else "",
                         *lines[-1:]], lang=lang)

    def final_lines(self, view: Any, result: Result, names: dict[str, str], *,
                    lang: str = ENGLISH) -> list[str]:
        """The end-of-game breakdown in words (markdown); default: nothing special."""
        return []

    def final_head(self, result: Result, names: dict[str, str], *, lang: str = ENGLISH) -> str:
        """The line above :meth:`final_lines`: by default why the game ended, in bold."""
        return f"**{named(result.reason, names)}**"

    def turns(self, view: Any) -> int | None:
        """How many turns the finished game in ``view`` took (``None``: not counted)."""
        return None

    def highlight(self, view: Any, result: Result, names: dict[str, str], *,
                  lang: str = ENGLISH) -> str:
        """The result card's moment of the finished game (plain text; ``""``: none)."""
        return ""

    def quiet(self, pending: Pending, steps: Sequence[tuple[str, Action]]) -> bool:
        """True when ``steps`` (``(seat, action)`` of an update whose events are all
        private, with no note and no result) show nothing in the thread, ``pending``
        being who decides after them; default False (every move shows)."""
        return False

    def private_lines(self, view: Any, seat: str, names: dict[str, str], *,
                      lang: str = ENGLISH) -> list[str]:
        """The "My hand" text for ``seat`` from its own ``view`` (markdown), in ``lang``
        (the member's)."""
        return [translate(lang, "You have no hidden cards in this game.")]

    def refusal(self, message: str, names: dict[str, str], *, lang: str = ENGLISH) -> str:
        """The engine's refusal ``message`` (an ``IllegalAction``'s, seat ids in it) in
        ``lang`` with ``names`` put in; default: :func:`refusal_words` (the game's words
        module marks its engine's refusals for the catalogue)."""
        return refusal_words(message, names, lang)

    def rules(self, summary: str, *, lang: str = ENGLISH) -> str:
        """The ``/rules`` summary in ``lang``; default: the game's ``summary`` as it is."""
        return summary

    def event_line(self, event: Event, names: dict[str, str], *, lang: str = ENGLISH) -> str:
        """The thread's line for ``event`` (one the viewer may see) in ``lang``, ``names``
        seat -> name; default: the engine's text with the names put in (:func:`named`)."""
        return named(event.text, names)

    def example(self) -> tuple[Any, dict[str, str]] | None:
        """A seeded mid-game spectator view for ``/rules`` and the names on it, or
        ``None`` for no example (the default)."""
        return None

    def ping_key(self, pending: Pending, view: Any = None) -> str:
        """The turn a table message is for (``view``: the spectator view, when known): a new
        table message pinging the members who must act is posted when this changes; the
        decisions inside it edit that message in place. Default: the pending decision and
        who owes it."""
        return f"{pending.kind}:{pending.key}:{','.join(pending.seats)}"

    def pings(self, pending: Pending) -> bool:
        """True when the members who must decide ``pending`` are pinged (default). A
        decision that must not name who owes it (a reaction window) returns False."""
        return True

    def headline(self, view: Any, pending: Pending, names: dict[str, str], *,
                 lang: str = ENGLISH) -> str | None:
        """The text above a new table while the game runs, instead of the pings of the
        members who must act (markdown, from the spectator ``view``); ``None`` (the
        default): the pings."""
        return None

    def picture_inputs(self, events: Sequence[Event] | None) -> dict[str, Any]:
        """Keyword inputs of the table renderer besides the view and the names, from the
        events of the last update that made moves (``None``: no such update seen); the
        Discord layer keeps them per game until the next such update. Default: none."""
        return {}

    # -- hand DMs (UX.md "Private information": the hand is DMed after it changes; a
    # change the player made and saw in its own ephemeral answer needs no DM) ----------

    #: The public event type after which each member whose hand changed is DMed it
    #: (Llamas Unleashed: ``"turn"``, once per change of turn); ``None`` (the default):
    #: the game DMs no hands and each private event goes out as it happens.
    hand_dm_after: ClassVar[str | None] = None
    #: Public event types that move cards into or out of the hand of the seat they name.
    hand_moves: ClassVar[frozenset[str]] = frozenset()
    #: Private event types the hand DM always tells, even to the seat whose own move made
    #: them (the deal).
    dealt: ClassVar[frozenset[str]] = frozenset()

    def hand_cards(self, view: Any) -> list[tuple[int, str]]:
        """``(card id, name)`` of each card in the hand of ``view``'s seat (its own view)
        for a hand DM; default: none."""
        return []

    def hand_dm_due(self, events: Sequence[Event]) -> bool:
        """True when ``events`` (an update's) call for hand DMs (:attr:`hand_dm_after`)."""
        return self.hand_dm_after is not None and any(e.type == self.hand_dm_after
                                                      for e in events)

    def moves_hand_of(self, event: dict[str, Any], seat: str) -> bool:
        """True when the stored ``event`` moved cards into or out of ``seat``'s hand in
        public (a :attr:`hand_moves` event naming it; a ``countered`` card only when it
        was taken back)."""
        data = event.get("data") or {}
        if event.get("type") not in self.hand_moves or seat not in data.values():
            return False
        return event.get("type") != "countered" or bool(data.get("taken"))

    def seen_by(self, seat: str, rows: Sequence[Any], had: set[int], has: set[int],
                unseen_after: int | None = None) -> bool:
        """True when ``seat`` already knows how its hand went from ``had`` to ``has``
        (card ids): every card that left or arrived is named by one of its own moves
        among ``rows`` (action-log rows since its last hand DM: ``seat``, ``version``,
        ``action`` and ``events`` as stored) whose words reached it: the card it played
        or answered with, or a card in an event of that move it could see (a draw told to
        it alone included; not :attr:`dealt`). Its moves after version ``unseen_after``
        do not count: their words did not reach it (steps of someone else's click or a
        timer). When another seat's move told it something privately (a pull, a take) or
        moved cards of its hand in public (:meth:`moves_hand_of`), the change is not all
        its own: a DM goes."""
        known: set[int] = set()
        for row in rows:
            if row.seat != seat:
                if any(seat in (e.get("to") or []) or self.moves_hand_of(e, seat)
                       for e in row.events):
                    return False  # another seat's move touched its hand (a pull, a swap ...)
                continue
            if unseen_after is not None and row.version > unseen_after:
                continue
            if isinstance(row.action.get("card"), int):
                known.add(row.action["card"])
            for e in row.events:
                if (e.get("to") is not None and seat not in e["to"]) or e.get("type") in self.dealt:
                    continue
                data = e.get("data") or {}
                if isinstance(data.get("card"), int):
                    known.add(data["card"])
                known.update(c for c in data.get("cards") or [] if isinstance(c, int))
        return (had ^ has) <= known

    def hand_dm(self, seat: str, cards: list[tuple[int, str]], rows: Sequence[Any],
                had: set[int], names: dict[str, str],
                unseen_after: int | None = None, *, lang: str = ENGLISH) -> str | None:
        """The hand DM of ``seat``, whose hand went from ``had`` (card ids, as last DMed)
        to ``cards`` (:meth:`hand_cards`) over ``rows`` (the action log since that DM):
        the private lines other seats' moves sent it (the deal's left out: the hand says
        it), then the hand (``"Your hand (2): Hay Harvest, Llama Spit."``); ``None`` when
        it saw the change itself (:meth:`seen_by`) and nobody else told it anything."""
        notes = [named(str(e.get("text", "")), names)
                 for row in rows if row.seat != seat for e in row.events
                 if seat in (e.get("to") or []) and e.get("type") not in self.dealt]
        if not notes and self.seen_by(seat, rows, had, {c for c, _ in cards}, unseen_after):
            return None
        words = ", ".join(name for _, name in cards) or translate(lang, "no cards")
        hand = translate(lang, "Your hand ({count}): {cards}.", count=len(cards), cards=words)
        return "\n".join([*notes[-8:], hand])[:1900]


#: Characters of a picture's alternative text (Discord's media description limit).
ALT_LIMIT = 1024


def alt_join(parts: Sequence[str], limit: int = ALT_LIMIT, *, lang: str = ENGLISH) -> str:
    """``parts`` (sentences) joined by spaces within ``limit`` characters: parts that do
    not fit are left out from the end and counted (``"(3 more: see the table)"``, in
    ``lang``)."""
    def more(count: int) -> str:
        return translate_n(lang, "({count} more: see the table)",
                           "({count} more: see the table)", count)

    out: list[str] = []
    parts = [p.strip() for p in parts if p and p.strip()]
    for n, part in enumerate(parts):
        rest = len(parts) - n - 1
        tail = " " + more(rest + 1)
        if len(" ".join([*out, part])) + (len(tail) if rest else 0) > limit:
            out.append(more(len(parts) - n))
            break
        out.append(part)
    return " ".join(out)[:limit]


_SEAT_ID = re.compile(r"\bs(\d{1,2})\b")


def named(text: str, names: dict[str, str]) -> str:
    """``text`` with the engines' seat ids (``s0``, ``s1`` ...) replaced by ``names``."""
    return _SEAT_ID.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def refusal_words(message: str, names: dict[str, str], lang: str = ENGLISH) -> str:
    """An engine's refusal ``message`` (English, at most one seat id in it, which the
    catalogue's message writes ``{name}``) in ``lang`` with ``names`` put in. A message
    the catalogue lacks stays English with the names (logged once per language, as every
    missing translation is: :mod:`bot.i18n.catalog`)."""
    seats = [m.group(0) for m in _SEAT_ID.finditer(message)]
    if len(seats) > 1 or "{" in message or "}" in message:
        return named(message, names)
    template = _SEAT_ID.sub("{name}", message)
    return translate(lang, template, **({"name": names.get(seats[0], seats[0])}
                                        if seats else {}))


def first_index(model: TableModel, panel: str, seen: frozenset[str] = frozenset()) -> int | None:
    """The first action index reachable from ``panel`` of ``model`` (through nested
    panels), ``None`` when there is none or no such panel."""
    if panel not in model.panels:
        return None
    for item in model.panels[panel].items:
        for opt in item.options if isinstance(item, Select) else (item,):
            if opt.index is not None:
                return opt.index
            if opt.opens and opt.opens not in seen:
                found = first_index(model, opt.opens, seen | {panel})
                if found is not None:
                    return found
    return None


__all__ = [
    "ALT_LIMIT", "KEY_LENGTH", "Choice", "alt_join", "ForgedChoice", "Item", "Panel", "Presenter", "Seen", "Select",
    "StaleChoice", "Style", "TableModel", "action_code", "decision_key", "decode",
    "named",
    "REPICK_KINDS", "Prints", "choice_value", "fingerprint", "first_index", "index_of",
    "panel_code", "parse_code", "print_of", "refusal", "refusal_words", "repick_prints", "seat_for",
    "select_code", "simultaneous", "still_deciding",
]
