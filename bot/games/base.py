"""The engine contract every game implements (ARCHITECTURE.md, "The engine contract").

An engine is a stateless object whose methods are pure functions over typed, JSON
round-trippable values: actions, events, views and results are pydantic models; every
game's state is a plain slotted dataclass (:class:`PlainGameState`, its parts
:class:`PlainState`) that pydantic validates when it loads and serialises (one kind for all
three games: ``python -m bench.state_kinds`` measured a pydantic state copying 8-12 times
slower and reading fields 4 times slower). The runtime sees it through the :class:`State`
protocol.

- ``new_game(players, seed=..., options=...) -> State``
- ``legal_actions(state, player) -> list[Action]``: the single source of truth for buttons,
  the AI and validation.
- ``apply(state, player, action) -> (State, list[Event])``: never mutates its input, raises
  :class:`IllegalAction` on a refused action and never "fixes" one.
- ``view(state, viewer) -> BaseModel``: all that ``viewer`` (a seat id, or ``None`` for a
  spectator) may see. Hidden cards never appear in another seat's view.
- ``pending(state) -> Pending``: who must decide now, and the timeout the runtime enforces.
- ``result(state) -> Result | None``: final scores with breakdown, ``None`` while running.

Seats are opaque strings (``"s0"``, ``"s1"`` ...); no Discord ids live in the rules.
Randomness comes only from :func:`rng`, derived from the state's seed and a counter, so a
game replays exactly from ``(seed, options, actions)``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

#: The seat id the runtime uses for actions nobody chose (timeouts). Engines accept it only
#: for the actions they list in :attr:`Pending.timeouts`.
SYSTEM_SEAT = "@system"


class IllegalAction(Exception):
    """An action the rules refuse.

    Attributes:
        code: a stable machine-readable reason, e.g. ``"not_your_turn"``, ``"cannot_pay"``.
        message: one sentence for the player, in plain words, with no hidden information.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Model(BaseModel):
    """Base for actions, events, views and options: strict fields, JSON round-trippable
    (states are :class:`PlainState` dataclasses)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Options(Model):
    """Base of every game's lobby options: a pydantic model with strict fields (an unknown
    option is refused with ``pydantic.ValidationError``); validators enforce the ranges."""

    def notes(self, players: int) -> list[str]:
        """Sentences about options that ``players`` seated players override (told to the
        host who sets them); none by default."""
        return []


class Action(Model):
    """Base for a game's actions. Each game defines subclasses with a ``type`` literal and
    exposes a discriminated union through :attr:`Engine.action_adapter`."""

    type: str


class Event(Model):
    """Something that happened, told in words.

    Attributes:
        type: a short tag (``"took"``, ``"scored"`` ...).
        text: one sentence a player reads in the thread or the game log.
        to: ``None`` for a public event; otherwise the seats allowed to see it (a private
            event may name hidden cards; a public one never does).
        data: structured details for renderers and tests (same visibility as ``text``).
    """

    type: str
    text: str
    to: list[str] | None = None
    data: dict[str, Any] = Field(default_factory=dict)

    def visible_to(self, seat: str | None) -> bool:
        """True when ``seat`` (``None`` = spectator) may see this event."""
        return self.to is None or (seat is not None and seat in self.to)


def say(ev: list[Event], type_: str, text: str, to: list[str] | None = None, **data: Any) -> None:
    """Append one :class:`Event` to ``ev``: public when ``to`` is ``None``, else only for
    the seats in ``to``; ``data`` becomes the event's ``data``. Engines call it only when
    they produce events (``apply``), so ``play`` builds no texts."""
    ev.append(Event(type=type_, text=text, to=to, data=data))


class Timeout(Model):
    """What the runtime does when a timed decision runs out.

    Attributes:
        seat: the seat the action is applied for (may be :data:`SYSTEM_SEAT`).
        action: the action applied at expiry, as a JSON-able dict of the game's actions.
    """

    seat: str
    action: dict[str, Any]


class ScoreLine(Model):
    """One line of a player's final score breakdown, e.g. ``("Longest neck", 4)``."""

    label: str
    points: int


class Result(Model):
    """The end of a game.

    Attributes:
        scores: final total per seat.
        winners: the winning seats (several on a shared victory; empty if everyone loses).
        breakdown: per seat, the score lines in the order the rulebook scores them.
        reason: how the game ended, in words.
    """

    scores: dict[str, int]
    winners: list[str]
    breakdown: dict[str, list[ScoreLine]] = Field(default_factory=dict)
    reason: str = ""


class PlainState:
    """Base for a game state, or a part of one, kept as a plain slotted dataclass instead
    of a pydantic model: random playouts must be fast, and every game uses this
    one kind of state.

    Subclasses are ``@dataclass(slots=True, kw_only=True)`` classes with typed fields.
    pydantic still validates and serialises them (through a ``TypeAdapter``, which
    supports dataclasses), so they load and store like a pydantic model would (``Annotated``
    validators on fields run at load), and they offer pydantic's method names.
    Construction does not validate or convert (engines pass typed values); loading does,
    and refuses unknown fields. Unlike a pydantic model, a dataclass does not record which
    fields were set, so ``model_dump(exclude_unset=True)`` dumps every field.

    Why: reading an attribute of a pydantic model goes through pydantic's Python-level
    ``__getattr__`` hook, which makes CPython take a slower generic path for every read
    (about 400 instructions more; 3.11 cannot specialise it), and an engine's inner loop
    reads state fields millions of times per second; a slotted dataclass reads at C speed
    and copies several times faster."""

    __slots__ = ()
    # pydantic reads this for a stdlib dataclass (inherited by the subclasses).
    __pydantic_config__ = ConfigDict(extra="forbid")

    @classmethod
    def model_validate(cls, obj: Any) -> Self:
        """Validate ``obj`` (a dict of fields, or an instance) into this class. Raises
        ``pydantic.ValidationError``."""
        return _plain_adapter(cls).validate_python(obj)  # type: ignore[no-any-return]

    @classmethod
    def model_validate_json(cls, data: str | bytes) -> Self:
        """Load from JSON text. Raises ``pydantic.ValidationError``."""
        return _plain_adapter(cls).validate_json(data)  # type: ignore[no-any-return]

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        """The fields as plain Python data (``kwargs`` as ``TypeAdapter.dump_python``)."""
        return _plain_adapter(type(self)).dump_python(self, **kwargs)  # type: ignore[no-any-return]

    def model_dump_json(self, **kwargs: Any) -> str:
        """The JSON text :meth:`model_validate_json` loads (``kwargs`` as
        ``TypeAdapter.dump_json``)."""
        return _plain_adapter(type(self)).dump_json(self, **kwargs).decode()

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with ``update`` (field name -> value, not validated) applied: shallow, or
        fully independent with ``deep=True`` (``update``'s values are not copied). Works on
        frozen classes too. Raises ``TypeError`` for a name that is not a field."""
        base = _deep_copy(self) if deep else self
        return dataclasses.replace(base, **(update or {}))  # type: ignore[type-var]


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _plain_adapter(cls: type) -> TypeAdapter[Any]:
    """The ``TypeAdapter`` of a :class:`PlainState` class (made on first use)."""
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter


PlainStateT = TypeVar("PlainStateT", bound=PlainState)


def _deep_copy(obj: PlainStateT) -> PlainStateT:
    """A fully independent copy, through pydantic's own dump and validation."""
    return type(obj).model_validate(obj.model_dump())


@dataclasses.dataclass(slots=True, kw_only=True)
class PlainGameState(PlainState):
    """Fields every game's state carries.

    Attributes:
        seats: seat ids in turn order.
        seed: the game's seed.
        rng_calls: how many RNG streams :func:`rng` has handed out (part of replay).
        version: increases by one with every accepted action.
    """

    seats: list[str]
    seed: int
    rng_calls: int = 0
    version: int = 0


@dataclasses.dataclass(slots=True)
class Pending(PlainState):
    """Who must decide now (a plain dataclass: engines build one after every action;
    ``Pending(seats, kind, key, seconds, timeouts)``, positional arguments are cheaper).

    Attributes:
        seats: seats whose decision the game waits for (empty when finished).
        kind: ``"turn"``, ``"setup"``, ``"negotiation"``, ``"reaction"``, ``"choice"`` ...
        key: identifies this decision point; the runtime starts a new timer whenever the key
            changes and keeps a running one while it stays the same.
        seconds: the rules' own deadline in seconds (negotiation minute, reaction window);
            ``None`` when only the optional per-game turn timer applies.
        timeouts: actions the runtime applies, in order, when ``seconds`` run out.
    """

    seats: list[str]
    kind: str = "turn"
    key: str = ""
    seconds: float | None = None
    timeouts: list[Timeout] = dataclasses.field(default_factory=list)


class State(Protocol):
    """What the runtime needs of any game's state (a :class:`PlainGameState`): the common
    fields and the JSON round trip."""

    seats: list[str]
    seed: int
    rng_calls: int
    version: int

    def model_dump_json(self) -> str: ...

    def model_dump(self) -> dict[str, Any]: ...

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Self: ...


StateT = TypeVar("StateT")


def state_as(state: object, cls: type[StateT]) -> StateT:
    """``state`` typed as its game's own state class ``cls``, for code above the engines
    that knows which game it holds (a game's cog). Raises ``TypeError`` when ``state`` is
    not a ``cls``."""
    if not isinstance(state, cls):
        raise TypeError(f"expected a {cls.__name__}, got {type(state).__name__}")
    return state


def rng(state: State) -> random.Random:
    """Return a fresh deterministic RNG for ``state`` and advance its counter.

    Mutates ``state.rng_calls``: call it only on a copy the engine is building. The stream
    depends only on ``(seed, rng_calls)`` so replays reproduce every shuffle.
    """
    digest = hashlib.sha256(f"{state.seed}:{state.rng_calls}".encode()).digest()
    state.rng_calls += 1
    return random.Random(int.from_bytes(digest[:8], "big"))


S = TypeVar("S", bound=State)
OptT = TypeVar("OptT", bound=Options)


class Engine(ABC, Generic[S, OptT]):
    """A game's rules. Subclasses are stateless; every method is a pure function.

    Class attributes:
        key: registry key, e.g. ``"llamas-alpacas"``.
        state_model: the state class, a :class:`PlainGameState`
            (``state_model.model_validate_json`` loads it).
        options_model: the game's :class:`Options` class; its validators enforce ranges.
        action_adapter: a ``TypeAdapter`` over the discriminated union of actions.
    """

    key: ClassVar[str]
    state_model: ClassVar[type[PlainGameState]]
    options_model: ClassVar[type[Options]]
    action_adapter: ClassVar[TypeAdapter[Any]]
    #: True when ``legal_actions`` is empty for every seat not in ``pending(state).seats``
    #: (callers may then skip asking for those seats); False when a seat may act while
    #: another decides (Pacapaca: either negotiator may propose).
    only_pending_act: ClassVar[bool] = False

    @abstractmethod
    def new_game(self, players: Sequence[str], *, seed: int, options: OptT) -> S:
        """Set up a game for ``players`` (seat ids in turn order). Raises ``ValueError``
        for an unsupported player count."""

    @abstractmethod
    def legal_actions(self, state: S, player: str) -> list[Action]:
        """Every action ``player`` may take now (empty when it is not their decision)."""

    @abstractmethod
    def apply(self, state: S, player: str, action: Action) -> tuple[S, list[Event]]:
        """Apply ``action`` for ``player`` on a copy of ``state``; ``version`` + 1.
        Raises :class:`IllegalAction` when the rules refuse it."""

    @abstractmethod
    def view(self, state: S, viewer: str | None) -> BaseModel:
        """Everything ``viewer`` may see (``None``: a spectator)."""

    @abstractmethod
    def pending(self, state: S) -> Pending:
        """Who must decide now and any rules deadline."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The final result once the game is over, else ``None``."""

    def apply_legal(self, state: S, player: str, action: Action) -> tuple[S, list[Event]]:
        """:meth:`apply` of an action just taken from ``legal_actions(state, player)`` of
        this very state (a decoded click, an AI seat's choice): engines whose check lists
        the legal actions again skip it, so a wrong action is then not refused but
        undefined. This default checks, as :meth:`apply` does."""
        return self.apply(state, player, action)

    def take_back_point(self, before: S, seat: str, action: Action, after: S) -> bool:
        """Whether ``seat``'s ``action``, which took ``before`` to ``after``, may be taken
        back: it revealed nothing hidden to anyone (no card drawn, no face-down card seen,
        no random draw made) and did not end the game. Whether another player acted
        since is the runtime's check. This default: no action may be taken back."""
        return False

    # -- playouts ------------------------------------------------------------------------

    def fork(self, state: S) -> S:
        """An independent copy of ``state`` that :meth:`play` may change. Engines with a
        cheaper copy override it; this default is a deep ``model_copy``."""
        return state.model_copy(deep=True)

    def play(self, state: S, player: str, action: Action) -> None:
        """:meth:`apply` in place and without events: the fast path for playouts (bench,
        simulations, AI search). Any state may be played on: an engine's ``apply`` shares
        between its input and output only parts that no step changes in place, so playing
        on one never reaches the other; every other reference to this same object sees the
        change, so :meth:`fork` first to keep the original. Afterwards ``state`` equals what
        :meth:`apply` would have returned. Raises :class:`IllegalAction`, state unchanged.

        This default applies and copies the result's fields back; engines override it."""
        new, _ = self.apply(state, player, action)
        for f in dataclasses.fields(state):  # type: ignore[arg-type]
            setattr(state, f.name, getattr(new, f.name))

    def play_legal(self, state: S, player: str, action: Action) -> None:
        """:meth:`play` of an action just taken from ``legal_actions(state, player)`` of
        this very state (a playout's rollout step): engines whose check costs a second
        listing of the legal actions skip it, so a wrong action is then not refused but
        undefined. This default checks, as :meth:`play` does."""
        self.play(state, player, action)

    # -- helpers shared by all engines -------------------------------------------------

    def parse_action(self, data: dict[str, Any] | str) -> Action:
        """Parse an action from a dict or JSON. Raises :class:`IllegalAction`
        (``"bad_action"``) when it does not fit the game's action union."""
        try:
            if isinstance(data, str):
                return self.action_adapter.validate_json(data)
            return self.action_adapter.validate_python(data)
        except Exception as exc:  # pydantic.ValidationError and JSON errors
            raise IllegalAction("bad_action", "That action is not part of this game.") from exc

    def load_state(self, data: str) -> S:
        """Load a state from its JSON text."""
        return self.state_model.model_validate_json(data)  # type: ignore[return-value]

    def is_legal(self, state: S, player: str, action: Action) -> bool:
        """True when ``action`` is among ``legal_actions(state, player)``."""
        return action in self.legal_actions(state, player)

    def replay(
        self, players: Sequence[str], *, seed: int, options: OptT, actions: Sequence[tuple[str, Action]]
    ) -> S:
        """Rebuild a state from its seed, options and the ``(seat, action)`` log."""
        state = self.new_game(players, seed=seed, options=options)
        for seat, action in actions:
            state, _ = self.apply(state, seat, action)
        return state
