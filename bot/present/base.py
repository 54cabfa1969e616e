"""What a game table shows and offers, as plain data (no Discord, no asyncio, no I/O).

A presenter (one per game, a subclass of :class:`Presenter`) turns what one seat may know
(the engine's ``view()``, the pending decision, the seat's ``legal_actions`` and the events
just played) into a :class:`TableModel`: the turn text, the picture's inputs and the
choices. Every choice that plays something is bound to the INDEX of an action in
``legal_actions(state, seat)``; the Discord layer draws the model and, on a click,
recomputes the legal actions and plays ``legal_actions[index]`` (:func:`decode`), so the
engine stays the one source of truth and nothing on a button can disagree with it.

A model is drawn for one seat and one decision, named by a short *decision key*
(:func:`decision_key`): a hash of the pending decision (kind and key) and of that seat's
legal actions. A click whose key is no longer the clicker's (or, for someone not to act,
any pending seat's) decision key is stale ("This table has moved on"). Because the key
hashes the legal actions, not the state version, two set-up placements by different
players at the same moment both stand: one's placement does not change the other's
choices, so the other's key stays the same.

A decision several seats make at once (:func:`simultaneous`: a set-up, a reaction
window, a negotiation) may change a seat's key though its own decision is still open:
another seat's pick shrinks the list (Llamas Unleashed's Babies come from one Nursery),
or a choice shared by two seats is coded with the key of the one whose action it indexes
(Pacapaca's Accept) and that seat has acted. There each choice also carries a
fingerprint of its action (:func:`choice_value`), and a click whose key went stale still
plays the action it names when that action is in the clicker's legal actions now
(:func:`decode`); an opener of a private panel opens the clicker's panel as it is now
(:func:`still_deciding`). A seat's own answer takes it out of such a decision (it
passes, accepts, places once), so a second press of a spent choice stays stale.

Custom ids (see :mod:`bot.discord.ids`) carry the game id and a code:

- ``a.<key>.<index>``: a button playing action ``index``;
- ``s.<key>``: a select whose option values are action indexes (a paged select adds the
  ``,p<page>`` / ``,b<page>`` / ``,f<page>`` of :mod:`bot.discord.choices`);
- ``o.<key>.<panel>``: a button opening the ephemeral panel ``panel`` of the model
  (``panel``: letters, digits, ``_`` and ``-``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from bot.games.base import Action, Engine, Event, IllegalAction, Pending, Result
from bot.i18n import ENGLISH, translate

#: Button styles a choice may ask for (Discord's primary, secondary, success, danger).
Style = Literal["primary", "secondary", "success", "danger"]

#: Characters of a decision key (hex digits of a BLAKE2b digest: 40 bits).
KEY_LENGTH = 10

_PANEL = re.compile(r"[A-Za-z0-9_\-]{1,24}")
_CODE = re.compile(
    rf"(?P<kind>[aso])\.(?P<key>[0-9a-f]{{{KEY_LENGTH}}})(?:\.(?P<arg>[A-Za-z0-9_\-]{{1,24}}))?"
)


class StaleChoice(Exception):
    """The choice was drawn for a decision that is over ("This table has moved on")."""


class ForgedChoice(Exception):
    """The choice names no action of the decision (an index out of range, a bad code)."""


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
    more than 25 are paged by the Discord layer (``noun`` names them: "Splits 1-25 of
    40"). Takes one row (two when paged) from ``row``."""

    placeholder: str
    options: tuple[Choice, ...]
    noun: str = "Options"
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
                         *lines[-1:]])

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


def alt_join(parts: Sequence[str], limit: int = ALT_LIMIT) -> str:
    """``parts`` (sentences) joined by spaces within ``limit`` characters: parts that do
    not fit are left out from the end and counted (``"(3 more: see the table)"``)."""
    out: list[str] = []
    parts = [p.strip() for p in parts if p and p.strip()]
    for n, part in enumerate(parts):
        rest = len(parts) - n - 1
        tail = f" ({rest + 1} more: see the table)"
        if len(" ".join([*out, part])) + (len(tail) if rest else 0) > limit:
            out.append(f"({len(parts) - n} more: see the table)")
            break
        out.append(part)
    return " ".join(out)[:limit]


_SEAT_ID = re.compile(r"\bs(\d{1,2})\b")


def named(text: str, names: dict[str, str]) -> str:
    """``text`` with the engines' seat ids (``s0``, ``s1`` ...) replaced by ``names``."""
    return _SEAT_ID.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def decision_key(pending: Pending, legal: Sequence[Action]) -> str:
    """The :data:`KEY_LENGTH`-hex-digit key of a decision as one seat faces it: a BLAKE2b
    hash of the pending kind and key and of the seat's legal actions in order. Equal keys
    mean index ``i`` names the same action."""
    h = hashlib.blake2b(digest_size=KEY_LENGTH // 2)
    h.update(f"{pending.kind}\x1f{pending.key}".encode())
    for action in legal:
        h.update(b"\x1e")
        h.update(action.model_dump_json().encode())
    return h.hexdigest()


def action_code(key: str, index: int, prints: Sequence[str] = ()) -> str:
    """The component code of a button playing action ``index``: ``a.<key>.<index>``
    (``<index>-<fingerprint>`` in a decision with ``prints``, see :func:`choice_value`)."""
    return f"a.{key}.{choice_value(index, prints)}"


def select_code(key: str) -> str:
    """The component code of a select whose values are action indexes: ``s.<key>``."""
    return f"s.{key}"


def panel_code(key: str, panel: str) -> str:
    """The component code of a button opening ``panel``: ``o.<key>.<panel>``. Raises
    ``ValueError`` for a panel name outside ``[A-Za-z0-9_-]{1,24}``."""
    if not _PANEL.fullmatch(panel):
        raise ValueError(f"bad panel name {panel!r}")
    return f"o.{key}.{panel}"


def parse_code(code: str) -> tuple[str, str, str] | None:
    """``(kind, key, arg)`` of a presenter code (``kind`` ``"a"``, ``"s"`` or ``"o"``;
    ``arg`` the index or panel name, ``""`` for a select), or ``None`` when ``code`` is
    not one (an older cog's own code)."""
    match = _CODE.fullmatch(code)
    if match is None:
        return None
    kind, arg = match["kind"], match["arg"] or ""
    if (kind == "s") != (arg == "") or (kind == "a" and not _VALUE.fullmatch(arg)):
        return None
    return kind, match["key"], arg


#: Decisions each seat makes once while other seats make theirs, so that a seat's options
#: shrink as the others decide (Llamas Unleashed's set-up: every seat picks a Baby from
#: one Nursery): :func:`simultaneous` even when one seat is left.
REPICK_KINDS = frozenset({"setup"})

_VALUE = re.compile(r"(?P<index>\d{1,4})(?:-(?P<print>[0-9a-f]{6}))?")


def fingerprint(pending: Pending, action: Action) -> str:
    """Six hex digits naming ``action`` within the decision ``pending`` (its kind and key):
    a BLAKE2b hash, so a forged fingerprint names no action."""
    h = hashlib.blake2b(digest_size=3)
    h.update(f"{pending.kind}\x1f{pending.key}\x1e".encode())
    h.update(action.model_dump_json().encode())
    return h.hexdigest()


def simultaneous(pending: Pending, legal_of: Mapping[str, Sequence[Action]]) -> bool:
    """True when ``pending`` is decided by several seats at once: more than one seat has
    legal actions (``legal_of``: seat -> its ``legal_actions``), or it is one of
    :data:`REPICK_KINDS`. Its choices carry fingerprints (:func:`repick_prints`)."""
    return pending.kind in REPICK_KINDS or sum(1 for legal in legal_of.values() if legal) > 1


class Prints(Sequence[str]):
    """The fingerprints of ``legal`` in order (:func:`fingerprint`), each worked out when
    first asked for: a model draws only a few of a long list (Pacapaca's deals)."""

    def __init__(self, pending: Pending, legal: Sequence[Action]):
        self._pending, self._legal = pending, legal
        self._done: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self._legal)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        i = range(len(self._legal))[index]  # IndexError past the end, as a tuple
        if i not in self._done:
            self._done[i] = fingerprint(self._pending, self._legal[i])
        return self._done[i]


def repick_prints(pending: Pending, legal: Sequence[Action],
                  together: bool = False) -> Sequence[str]:
    """The fingerprints of ``legal`` in order (:class:`Prints`) when ``pending`` is one of
    :data:`REPICK_KINDS` or ``together`` (a :func:`simultaneous` decision), else ``()``."""
    if not together and pending.kind not in REPICK_KINDS:
        return ()
    return Prints(pending, legal)


def choice_value(index: int, prints: Sequence[str] = ()) -> str:
    """A select value or button argument for action ``index``: ``"<index>"``, or
    ``"<index>-<fingerprint>"`` when ``prints`` (from :func:`repick_prints`) has one."""
    return f"{index}-{prints[index]}" if 0 <= index < len(prints) else str(index)


def index_of(text: str) -> int:
    """An action index from a code or a select value (``"3"`` or ``"3-<fingerprint>"``).
    Raises :class:`ForgedChoice` unless the index is a decimal number below 10000."""
    match = _VALUE.fullmatch(text)
    if match is None:
        raise ForgedChoice(text)
    return int(match["index"])


def print_of(text: str) -> str:
    """The fingerprint of a value made by :func:`choice_value`, ``""`` when it has none."""
    match = _VALUE.fullmatch(text)
    return (match["print"] or "") if match else ""


def seat_for(engine: Engine[Any, Any], state: Any, seat: str, key: str) -> str:
    """The seat whose decision ``key`` names now: ``seat`` itself when it is its decision
    key, else the pending seat, then any other seat, whose key it is (someone pressed a
    choice meant for another player). Raises :class:`StaleChoice` when it is nobody's.
    An ``engine`` with a ``decision_key(state, seat)`` method gives the keys itself."""
    pending = engine.pending(state)
    order = [seat, *pending.seats, *getattr(state, "seats", [])]
    known = getattr(engine, "decision_key", None)
    for who in dict.fromkeys(order):
        if (known(state, who) if known is not None
                else decision_key(pending, engine.legal_actions(state, who))) == key:
            return who
    raise StaleChoice(key)


def decode(engine: Engine[Any, Any], state: Any, seat: str, key: str, index: int,
           fingerprint_: str = "") -> Action:
    """The action a click of ``seat`` on choice ``index`` of decision ``key`` plays now:
    ``legal_actions(state, who)[index]`` for ``who`` = :func:`seat_for`; when ``who`` is
    not ``seat``, the engine refuses it for ``seat`` in its own words ("It is Maya's
    turn."). Raises :class:`StaleChoice` (see :func:`seat_for`) and
    :class:`ForgedChoice` for an index past the actions.

    A stale key with a ``fingerprint`` (see :func:`choice_value`: drawn in a
    :func:`simultaneous` decision) plays the action it names when that action is in
    ``seat``'s legal actions now, in the same decision (the fingerprint hashes its kind
    and key): another seat's move changed the key, not this choice."""
    try:
        who = seat_for(engine, state, seat, key)
    except StaleChoice:
        if fingerprint_:
            pending = engine.pending(state)
            for action in engine.legal_actions(state, seat):
                if fingerprint(pending, action) == fingerprint_:
                    return action
        raise
    legal = engine.legal_actions(state, who)
    if not 0 <= index < len(legal):
        raise ForgedChoice(str(index))
    return legal[index]


def still_deciding(engine: Engine[Any, Any], state: Any, seat: str) -> bool:
    """True when ``seat`` has legal actions in a :func:`simultaneous` decision now: a
    private panel it opens from a table drawn before another seat's move (a stale key)
    opens as it is now, for it to decide."""
    if not engine.legal_actions(state, seat):
        return False
    if engine.pending(state).kind in REPICK_KINDS:
        return True
    return any(engine.legal_actions(state, s) for s in getattr(state, "seats", []) if s != seat)


def refusal(engine: Engine[Any, Any], state: Any, seat: str, action: Action) -> IllegalAction:
    """The engine's refusal of ``action`` for ``seat`` (``apply`` on a copy, nothing
    stored): used when someone opens a panel meant for another player. An action the
    engine would accept yields ``IllegalAction("not_yours", ...)``."""
    try:
        engine.apply(state, seat, action)
    except IllegalAction as exc:
        return exc
    return IllegalAction("not_yours", "This choice is not yours to make.")


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
    "panel_code", "parse_code", "print_of", "refusal", "repick_prints", "seat_for",
    "select_code", "simultaneous", "still_deciding",
]
