"""What the game service hands out and takes back: :class:`Update` (published after every
change) with its :class:`Step` and :class:`UpdateKind`, :class:`Known` (a game read before
its lock), and the refusals :class:`GameError` and :class:`GameUnreadable`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.games.base import Action, Event, Result, State
from bot.games.registry import GameSpec
from bot.i18n import ENGLISH, N_, PSEUDO, has_translation, translate
from bot.store import GameBundle, GameRecord, SeatRecord

#: A sentence in any language: the language (:data:`bot.i18n.Lang`) -> the words.
Sentence = Callable[[str], str]

#: What is worked out from one state object, shared by everything that holds it:
#: (``"legal"``, ``"key"``, ``"view"``, ``"pending"`` or ``"result"``, seat or ``None``)
#: -> the value (see :class:`bot.discord.table.Table`). A state is never changed in place
#: by the runtime, so its derived values hold as long as the state object lives.
Derived = dict[tuple[str, str | None], Any]


@dataclass
class Known:
    """A game as read before its lock was taken (:meth:`GameService.peek`), for
    :meth:`GameService.act` to use instead of reading it again."""

    bundle: GameBundle | None
    #: this process's change count of the game when it was read
    stamp: int
    #: the bundle's state, once parsed (``None``: not yet)
    state: State | None = None
    #: what is worked out from :attr:`state` (legal actions by seat, ...), shared with
    #: the tables drawn from it
    derived: Derived = field(default_factory=dict)


class _StaleRead(Exception):
    """A game read before the lock (``known``) was moved on by another process."""


class GameError(Exception):
    """A refused request, with a ``code`` and a sentence for the player (no secrets).

    ``message`` is the sentence: a catalogue message id without placeholders (marked
    ``N_``), or a function of the language for a sentence with placeholders or plural
    forms (``lambda lang: translate(lang, "...{n}...", n=...)``); with ``catalogued``
    False, text the catalogue may lack (an engine's refusal: English unless translated).
    :attr:`message` is it in English (logs, tests); :meth:`text` in the member's
    language."""

    def __init__(self, code: str, message: str | Sentence, *, catalogued: bool = True) -> None:
        self._say = message if callable(message) else None
        self.catalogued = catalogued
        text = message(ENGLISH) if callable(message) else message
        super().__init__(f"{code}: {text}")
        self.code = code
        self.message = text

    def text(self, lang: str | None) -> str:
        """The sentence in ``lang`` (English when the catalogue has it not)."""
        if self._say is not None:
            return self._say(lang or ENGLISH)
        if self.catalogued or (lang not in (None, ENGLISH, PSEUDO)
                               and has_translation(lang, None, self.message)):
            return translate(lang, self.message)
        return self.message


class Note(str):
    """A line for the thread from the runtime (an update's ``notes``): the English words,
    naming seats by id as events do, with :meth:`say` for any language."""

    say: Sentence

    def __new__(cls, say: Sentence) -> Note:
        note = super().__new__(cls, say(ENGLISH))
        note.say = say
        return note


def in_language(note: str, lang: str | None) -> str:
    """``note`` (an update's note) in ``lang``: a :class:`Note` said in it, any other
    text as it is."""
    return note.say(lang or ENGLISH) if isinstance(note, Note) else note


def game_title(lang: str | None, game: str, number: int) -> str:
    """A game's name and number in ``lang`` (``Some Game #12``), as its tables'
    footer and its refusals name it."""
    return translate(lang, "{game} #{number}", game=game, number=number)


#: What a player of a quarantined game sees on any button or command.
UNREADABLE = N_("This game's saved data could not be read; the host or a member with Manage "
                "Server can end it with /game end.")
#: The same for a lobby (not started yet): it is closed with its own Cancel button.
UNREADABLE_LOBBY = N_("This lobby's saved data could not be read; the host or a member with "
                      "Manage Server can close it with its Cancel button.")


class GameUnreadable(GameError):
    """Game ``game_id``'s stored row, state or seats do not validate (hand-edited, written
    by a newer herdbot, a field missing): the game is quarantined. Code
    ``game_unreadable``; ``reason`` is the one-line validation error (for the log only)."""

    def __init__(self, game_id: int, reason: str, message: str = UNREADABLE) -> None:
        super().__init__("game_unreadable", message)
        self.game_id = game_id
        self.reason = reason


@dataclass
class Step:
    """One applied action: who, what, and the events it produced."""

    seat: str
    action: Action
    events: list[Event]
    by_ai: bool = False
    #: The state's version after this step (``None``: not known).
    version: int | None = None


class UpdateKind(StrEnum):
    """What an :class:`Update` reports (a ``str``: ``UpdateKind.ACTION == "action"``)."""

    #: A lobby changed (a member joined or left, an AI seat, options); no state yet.
    LOBBY = "lobby"
    #: A lobby was closed by its host or a server manager before it started.
    CANCELLED = "cancelled"
    #: The game started: the first table (with any AI moves made before a human decides).
    STARTED = "started"
    #: A member acted (a click, I'm back, a seat handed to the AI), then any AI moves.
    ACTION = "action"
    #: A timer decided for someone: a rules deadline or a turn timer ran out.
    TIMEOUT = "timeout"
    #: Half of the turn timer is gone; ``Update.deadline`` is when it runs out.
    REMINDER = "reminder"
    #: The game was ended early (host, server manager, deleted thread): no scores.
    ENDED = "ended"
    #: The finished or ended game's thread is due to be archived.
    ARCHIVE = "archive"
    #: At start-up (or once writes work again): moves the thread never showed (a crash, a
    #: refused post) and the current table; shown like ``ACTION``.
    CATCHUP = "catchup"
    #: A lobby nobody started in time was closed (its ``lobby`` timer fired).
    EXPIRED = "expired"
    #: Nobody moved for a long time: the game ends in 24 hours unless someone moves.
    IDLE_NOTICE = "idle_notice"
    #: A take-back request ended with nothing changed (``notes``: ``"expired"`` or
    #: ``"moved_on"``); ``Update.take_back`` is the request.
    TAKE_BACK = "take_back"


@dataclass
class Update:
    """What the service publishes after a change.

    Attributes:
        kind: what happened (:class:`UpdateKind`).
        record: the game row after the change.
        seats: the seats in turn order.
        spec: the game's registry entry.
        state: the engine state after the change (``None`` for a lobby).
        steps: the actions applied (the human's first, then any AI moves).
        result: the final result when the game just finished.
        notes: extra lines for the thread, naming seats by id like events do (e.g.
            "Time ran out for s1: ..."; the publisher puts in the names); for ``ENDED``,
            why the game ended, said instead of the plain sentence.
        deadline: for a ``REMINDER``, when the turn timer runs out (Unix seconds).
        deadlines: when the game's ``rules`` and ``turn`` timers run out after the change
            (kind -> Unix seconds; a kind without a timer is absent; ``None``: not known,
            the publisher reads them).
        origin: what caused the change, opaque to the runtime: the Discord interaction of
            the click that made it (the publisher answers through it), ``None`` for a
            timer, an AI move or a restart's catch-up.
    """

    kind: UpdateKind
    record: GameRecord
    seats: list[SeatRecord]
    spec: GameSpec
    state: State | None = None
    steps: list[Step] = field(default_factory=list)
    result: Result | None = None
    notes: list[str] = field(default_factory=list)
    deadline: float | None = None
    origin: Any = None
    deadlines: dict[str, float] | None = None
    #: the take-back request a ``TAKE_BACK`` update ends (``bot.runtime.takeback``)
    take_back: Any = None
    #: what is worked out from :attr:`state` (see :data:`Derived`), shared with the
    #: tables drawn from it and with the next click's read of the same stored state
    derived: Derived = field(default_factory=dict)

    def events(self) -> list[Event]:
        """Every event of every step in order."""
        return [e for s in self.steps for e in s.events]


Subscriber = Callable[[Update], Awaitable[None]]
