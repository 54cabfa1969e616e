"""Llamas Unleashed state, actions, options and views (all JSON round-trippable).

The state and its parts are plain slotted dataclasses (:class:`PlainState`, like the other
two games: pydantic validates them when they load and serialises them; ``bench/
state_kinds.py`` measured the move from pydantic models); options, actions and views are
pydantic models. Card ids are the catalog's physical ids
(:mod:`bot.games.unleashed.cards`). Zones hold ids; the top of the deck and of the discard
pile is the *last* element of their lists.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, TypeAdapter

from bot.games.base import Action, Model, Options, PlainGameState, PlainState, Result

Phase = Literal["setup", "start", "action", "end", "over"]


class UnleashedOptions(Options):
    """Lobby options.

    Attributes:
        reaction_seconds: length of each Instant reaction window (RULES.md: Llamas
            Unleashed, reaction window; default 20 s).
        setup_seconds: time to choose a Baby before the runtime picks one at random.
        open_windows: when True (the lobby's default), a window opens after every play
            for every other player who may play Instants and has cards in hand, holding a
            fitting Instant or not, and lasts ``min(reaction_seconds, OPEN_WINDOW_SECONDS)``
            for all of them alike, so neither its opening, its eligible seats nor its
            length reveals who holds an Instant (RULES.md: reaction window). False: only
            holders get a window (faster, revealing). The model's default stays False so
            states stored before the option keep their rules.
    """

    reaction_seconds: float = Field(default=20.0, gt=0, le=600, description="Reaction window")
    setup_seconds: float = Field(default=60.0, gt=0, le=3600,
                                 description="Time to choose a Baby")
    open_windows: bool = Field(default=False, description="Hide who holds Instants",
                               json_schema_extra={"lobby_default": True})


# -- actions -------------------------------------------------------------------------------


class ChooseBaby(Action):
    """Set-up: put Baby ``card`` from the Nursery into your Field; ``None`` = a random one
    (the runtime's timeout action)."""

    type: Literal["baby"] = "baby"
    card: int | None = None


class Play(Action):
    """Action phase: play ``card`` from your hand. ``field`` is the seat whose Field an
    Animal, Upgrade or Downgrade goes into (``None`` for Magic)."""

    type: Literal["play"] = "play"
    card: int
    field: str | None = None


class DrawCard(Action):
    """Action phase: draw a card instead of playing one."""

    type: Literal["draw"] = "draw"


class Activate(Action):
    """Start of turn: use an optional trigger. ``source`` is ``"card:<id>"`` for a card in
    your Field or ``"herd:<kind>"`` for a Herd Bonus."""

    type: Literal["activate"] = "activate"
    source: str


class Proceed(Action):
    """Move on: from the start of turn to the Draw phase (optional triggers not used are
    lost), or end the Action phase while an extra play is still unused."""

    type: Literal["proceed"] = "proceed"


class Choose(Action):
    """Answer the pending choice with the option at index ``option``."""

    type: Literal["choose"] = "choose"
    option: int


class Respond(Action):
    """Reaction window: play Instant ``card`` from your hand on the top card of the pile."""

    type: Literal["respond"] = "respond"
    card: int


class Pass(Action):
    """Reaction window: do not respond."""

    type: Literal["pass"] = "pass"


UnleashedAction = Annotated[
    ChooseBaby | Play | DrawCard | Activate | Proceed | Choose | Respond | Pass,
    Field(discriminator="type"),
]
action_adapter: TypeAdapter[Any] = TypeAdapter(UnleashedAction)


# -- state ---------------------------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class StackItem(PlainState):
    """A played card on the pile. ``field``: target Field of an Animal/Upgrade/Downgrade.
    ``resolving``: a Magic card whose effect is being carried out."""

    card: int
    seat: str
    field: str | None = None
    resolving: bool = False


@dataclass(slots=True, kw_only=True)
class Frame(PlainState):
    """One pending piece of the effect chain: an effect node (dict form of
    :class:`~bot.games.unleashed.cards.Effect`, or an internal op starting with ``_``),
    the player it acts for, the card it comes from (or ``herd``: the kind whose Herd Bonus
    it comes from), its link number and progress data.

    ``root`` numbers the whole effect this node belongs to and ``path`` says where in its
    tree the node sits (``""`` the root, ``"/f"`` the first part of a "then" ...): together
    they key the targets chosen for the node before its link resolved
    (:attr:`UnleashedState.plan`). ``root`` 0: nothing was chosen ahead (states stored
    before links chose their targets first)."""

    eff: dict[str, Any]
    actor: str
    source: int | None = None
    herd: str | None = None
    link: int = 0
    data: dict[str, Any] = field(default_factory=dict)
    root: int = 0
    path: str = ""


@dataclass(slots=True, kw_only=True)
class Link(PlainState):
    """A link of the effect chain whose targets are being chosen (rulebook, Order of
    Resolution: every target is chosen before the link resolves, mandatory ones first).

    ``roots``: the link's effects in the order they will resolve. ``tasks``: parts whose
    targets are still to choose, front first; ``later``: optional parts put off until every
    mandatory target is chosen; ``second`` is True once they are being asked. ``deferred``:
    plan keys chosen only when they resolve (a pick from a hand an earlier part of the
    same effect adds cards to). ``open``: the start-of-turn link, which waits for the
    player's optional effects (Activate) until they proceed."""

    id: int
    roots: list[Frame] = field(default_factory=list)
    tasks: list[Frame] = field(default_factory=list)
    later: list[Frame] = field(default_factory=list)
    second: bool = False
    deferred: list[str] = field(default_factory=list)
    open: bool = False


@dataclass(slots=True, kw_only=True)
class ChoiceOption(PlainState):
    """One option of a pending choice.

    ``value``: ``"c<id>"`` a card, ``"s<seat>"`` a player, ``"yes"``/``"no"``, ``"o<i>"``
    the i-th branch of a choose-one card, ``"done"`` to stop choosing players.
    ``label``: words for a button or select. ``card``/``seat``: what it names, if any."""

    value: str
    label: str
    card: int | None = None
    seat: str | None = None


@dataclass(slots=True, kw_only=True)
class Choice(PlainState):
    """A decision the effect chain waits for: ``seat`` picks one of ``options``
    (``Choose(option=index)``). ``prompt`` is shown only to ``seat``; ``source`` (a card)
    or ``herd`` (a Herd Bonus's kind) says publicly what the choice is for. ``ask``: what
    is asked, for the presenter's words (a targeting op such as ``"destroy"``,
    ``"bring:deck"``, or ``"optional"``, ``"choose_one"``, ``"players"``, ``"move_into"``,
    ``"take_from"``; ``""``: only ``prompt``); ``about``: the card it names, ``whose``: the
    player it names."""

    id: int
    seat: str
    prompt: str
    options: list[ChoiceOption]
    source: int | None = None
    herd: str | None = None
    ask: str = ""
    about: int | None = None
    whose: str | None = None


@dataclass(slots=True, kw_only=True)
class Reaction(PlainState):
    """An open reaction window on the top card of the pile."""

    id: int
    eligible: list[str]
    passed: list[str] = field(default_factory=list)


def _two_to_eight(seats: list[str]) -> list[str]:
    """Refuse a stored state whose seats are not 2-8 distinct players."""
    if not 2 <= len(seats) <= 8 or len(set(seats)) != len(seats):
        raise ValueError("Llamas Unleashed needs 2 to 8 distinct seats")
    return seats


@dataclass(slots=True, kw_only=True)
class UnleashedState(PlainGameState):
    """The whole game. See the module docstring for zone order.

    The effect chain: ``building`` is the link whose targets are being chosen; ``work``
    the frames of the link resolving (a stack, top last); ``queued`` the effects
    triggered meanwhile, which form the next link; ``plan`` the targets chosen ahead
    (``"<root>:<path>"`` -> a card id, a seat, a list of them, a branch index, a yes/no, or
    ``None`` for "no target"); ``links`` the cards chosen in each link (none twice).
    ``plays_left``: plays or draws left in the Action phase; ``card_plays``: extra plays
    that only a card play may use ("play one more card"). ``repoll``: an Instant has just
    resolved, so a new window opens on the card now on top of the pile.
    """

    seats: Annotated[list[str], AfterValidator(_two_to_eight)]
    options: UnleashedOptions = field(default_factory=UnleashedOptions)
    phase: Phase = "setup"
    active: str | None = None
    turn: int = 0
    deck: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    nursery: list[int] = field(default_factory=list)
    hands: dict[str, list[int]] = field(default_factory=dict)
    fields: dict[str, list[int]] = field(default_factory=dict)
    stack: list[StackItem] = field(default_factory=list)
    work: list[Frame] = field(default_factory=list)
    choice: Choice | None = None
    reaction: Reaction | None = None
    last_ok: bool = True
    links: dict[str, list[int]] = field(default_factory=dict)
    counter: int = 0
    plays_left: int = 0
    card_plays: int = 0
    building: Link | None = None
    plan: dict[str, Any] = field(default_factory=dict)
    queued: list[Frame] = field(default_factory=list)
    repoll: bool = False
    acted: bool = False
    start_done: bool = False
    herd: list[str] = field(default_factory=list)
    start_cards: list[int] = field(default_factory=list)
    used_triggers: list[str] = field(default_factory=list)
    skip_next: list[str] = field(default_factory=list)
    shields: dict[str, list[str]] = field(default_factory=dict)
    babies_chosen: list[str] = field(default_factory=list)
    result: Result | None = None


# -- views ---------------------------------------------------------------------------------


class CardView(Model):
    """A visible card: id, design key, name, type, kinds (as they count now), rules text.
    Frozen: views share one object per card and kinds."""

    model_config = ConfigDict(extra="forbid", validate_assignment=False, frozen=True)

    id: int
    key: str
    name: str
    type: str
    kinds: tuple[str, ...] = ()
    text: str


class FieldView(Model):
    """One player's Field and the numbers the rules read from it."""

    seat: str
    animals: list[CardView]
    upgrades: list[CardView]
    downgrades: list[CardView]
    animal_count: int
    animals_to_win: int
    hand_limit: int
    may_play_instants: bool
    shielded_kinds: list[str]
    skips_next_turn: bool


class StackView(Model):
    """A card on the pile (played cards are public)."""

    card: CardView
    seat: str
    field: str | None = None


class ChoiceView(Model):
    """The viewer's own pending choice (``ask``, ``about``, ``whose``, ``source``, ``herd``
    as :class:`Choice`)."""

    prompt: str
    options: list[ChoiceOption]
    ask: str = ""
    about: int | None = None
    whose: str | None = None
    source: int | None = None
    herd: str | None = None


class TriggerView(Model):
    """An optional start-of-turn trigger the active player may still use."""

    source: str
    text: str
    #: The source in words: ``"the Ram Herd Bonus"`` or the card's name.
    words: str = ""


class UnleashedView(Model):
    """What ``viewer`` sees (``None``: spectator, who sees no hand).

    ``hand`` is the viewer's own hand (``None`` for a spectator); ``hand_sizes`` gives every
    player's count. The discard pile and the Nursery are face up. ``choice`` is set only
    for the seat that must choose; everyone sees ``pending_seats``/``pending_kind``.
    ``reaction_*`` describe an open Instant window; ``triggers`` the active player's
    optional start-of-turn effects (shown to all: they are printed on public cards).
    """

    viewer: str | None
    seats: list[str]
    phase: Phase
    active: str | None
    turn: int
    hand: list[CardView] | None
    hand_sizes: dict[str, int]
    fields: dict[str, FieldView]
    deck_count: int
    discard: list[CardView]
    nursery: list[CardView]
    stack: list[StackView]
    pending_kind: str
    pending_seats: list[str]
    choice: ChoiceView | None
    #: What the pending choice is for, public to everyone: the card being resolved, or the
    #: Herd Bonus (its kind); both ``None`` for a discard down to the hand limit.
    choice_source: str | None = None
    choice_herd: str | None = None
    reaction_eligible: list[str]
    reaction_passed: list[str]
    reaction_seconds: float
    triggers: list[TriggerView]
    plays_left: int
    result: Result | None


# -- copying ------------------------------------------------------------------------------


def _copy_frame(f: Frame) -> Frame:
    """A frame with its own progress data (the effect tree is shared: only read)."""
    return replace(f, data=copy.deepcopy(f.data) if f.data else {})


def copy_state(state: UnleashedState) -> UnleashedState:
    """A copy of ``state`` that shares nothing the engine mutates (equal to
    ``state.model_copy(deep=True)``, many times faster). Effect trees inside frames are
    shared: the interpreter only reads them; so is a pending :class:`Choice`'s prompt and
    options (a choice is replaced, never changed)."""
    building = state.building
    choice = state.choice
    reaction = state.reaction
    return replace(
        state,
        seats=list(state.seats),
        deck=list(state.deck),
        discard=list(state.discard),
        nursery=list(state.nursery),
        hands={k: list(v) for k, v in state.hands.items()},
        fields={k: list(v) for k, v in state.fields.items()},
        stack=[replace(i) for i in state.stack],
        work=[_copy_frame(f) for f in state.work],
        choice=None if choice is None else replace(choice, options=list(choice.options)),
        reaction=None if reaction is None else replace(
            reaction, eligible=list(reaction.eligible), passed=list(reaction.passed)),
        links={k: list(v) for k, v in state.links.items()},
        plan={k: list(v) if isinstance(v, list) else v for k, v in state.plan.items()},
        queued=[_copy_frame(f) for f in state.queued],
        building=None if building is None else replace(
            building,
            roots=[_copy_frame(f) for f in building.roots],
            tasks=[_copy_frame(f) for f in building.tasks],
            later=[_copy_frame(f) for f in building.later],
            deferred=list(building.deferred),
        ),
        herd=list(state.herd),
        start_cards=list(state.start_cards),
        used_triggers=list(state.used_triggers),
        skip_next=list(state.skip_next),
        shields={k: list(v) for k, v in state.shields.items()},
        babies_chosen=list(state.babies_chosen),
    )

