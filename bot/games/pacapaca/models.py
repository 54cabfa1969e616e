"""Alpaca Pacapaca models: options, state, actions and views (all JSON-safe).

The state and its parts are plain slotted dataclasses (:class:`PlainState`: pydantic
validates them when they load and serialises them, but reading their fields costs what a
plain object's does, which random playouts need); options, actions and views are
pydantic models. Card ids refer to :mod:`bot.games.pacapaca.cards`. Seats are opaque
strings.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Annotated, Literal, overload

from pydantic import ConfigDict, Field, TypeAdapter

from bot.games.base import Action, Model, Options, PlainGameState, PlainState, ScoreLine

Phase = Literal["turn", "drawn", "negotiation", "finished"]


class PacapacaOptions(Options):
    """Lobby options.

    Attributes:
        players: optional expected player count (2-6); when given, ``new_game`` checks it.
        babies: add the four baby alpacas to the random pool (2-5 players; default off).
            With 6 players babies are always in (RULES.md: Alpaca Pacapaca, babies).
    """

    players: int | None = Field(default=None, ge=2, le=6)
    babies: bool = False

    def notes(self, players: int) -> list[str]:
        """With 6 players the babies are always in (RULES.md: Alpaca Pacapaca, babies)."""
        if players == 6 and not self.babies:
            return ["With 6 players the baby alpacas are always in the game."]
        return []


@dataclass(slots=True, kw_only=True)
class Alpaca(PlainState):
    """One player's alpaca: head and body design ids, neck card ids (top to bottom in
    the order added; order never matters for scoring) and babies beside it."""

    head: int
    body: int
    neck: list[int] = field(default_factory=list)
    babies: list[int] = field(default_factory=list)


@dataclass(slots=True, kw_only=True, frozen=True)
class PileCard(PlainState):
    """A face-down discard: the card and who put it there (frozen: shared by states),
    with the public moment it was put there (everyone at the table saw it: RULES.md,
    Alpaca Pacapaca, A): ``kept``, the drawn card its player added at the same time;
    ``deck``, the deck size then (after the draw); ``alpacas``, every alpaca's cards
    (neck + babies, in seat order) just before that card was added. The defaults (no
    moment recorded) are for states stored before these fields existed."""

    card: int
    by: str
    kept: int | None = None
    deck: int = 0
    alpacas: tuple[tuple[int, ...], ...] = ()


@dataclass(slots=True, kw_only=True)
class Negotiation(PlainState):
    """The deal being shaped (RULES.md: Alpaca Pacapaca, C).

    Attributes:
        partner: the other seat.
        active_gives / partner_gives: card ids moving from the active player to the
            partner / from the partner to the active player.
        deal_version: bumped by every proposal or decline; ``Accept`` names it.
        accepted: seats that accepted the current version.
        proposals: proposals made so far (capped by the seed's ``max_proposals``).
        proposed_by: who made the current proposal (``None`` when the deal is empty).
    """

    partner: str
    active_gives: list[int] = field(default_factory=list)
    partner_gives: list[int] = field(default_factory=list)
    deal_version: int = 0
    accepted: list[str] = field(default_factory=list)
    proposals: int = 0
    proposed_by: str | None = None


@dataclass(slots=True, kw_only=True)
class PacapacaState(PlainGameState):
    """The full (secret-holding) state.

    Attributes:
        options: the lobby options; babies: whether babies are in play.
        alpacas: seat -> :class:`Alpaca`.
        deck: face-down draw pile, top card last.
        pile: face-down discard pile, oldest first.
        active: index into ``seats`` of the player whose turn it is.
        turn_number: 1 for the first turn, +1 per turn.
        phase: ``turn`` (choose A/B/C), ``drawn`` (keep one of ``drawn``),
            ``negotiation`` or ``finished``.
        drawn: the active player's two secret drawn cards (phase ``drawn``).
        negotiation: the open negotiation (phase ``negotiation``).
        negotiated: a negotiation failed this turn (C is no longer allowed).
        final_turns_left: ``None`` until the deck runs out; then the turns still to play.
        pool_size: how many cards the game uses (deck at set-up).
    """

    options: PacapacaOptions = field(default_factory=PacapacaOptions)
    babies: bool = False
    alpacas: dict[str, Alpaca] = field(default_factory=dict)
    deck: list[int] = field(default_factory=list)
    pile: list[PileCard] = field(default_factory=list)
    active: int = 0
    turn_number: int = 1
    phase: Phase = "turn"
    drawn: list[int] = field(default_factory=list)
    negotiation: Negotiation | None = None
    negotiated: bool = False
    final_turns_left: int | None = None
    pool_size: int = 0


# -- actions ----------------------------------------------------------------------------


class PacapacaActionBase(Action):
    """Base of the Alpaca Pacapaca actions: frozen, because ``legal_actions`` hands out
    shared instances (never change a ``Propose``'s lists either)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Draw2(PacapacaActionBase):
    """A: draw two cards secretly (with one card left it is drawn and added at once)."""

    type: Literal["draw2"] = "draw2"


class Keep(PacapacaActionBase):
    """After Draw2: add ``card`` (one of the drawn) to the neck; the other goes face down
    on the discard pile."""

    type: Literal["keep"] = "keep"
    card: int


class TakePile(PacapacaActionBase):
    """B: add every card of the discard pile (illegal when it is empty)."""

    type: Literal["take_pile"] = "take_pile"


class StartNegotiation(PacapacaActionBase):
    """C: open a negotiation with ``partner`` (another seat in the game)."""

    type: Literal["negotiate"] = "negotiate"
    partner: str


class Propose(PacapacaActionBase):
    """Either negotiator sets the deal: ``give`` = cards the proposer hands over, ``get`` =
    cards the proposer receives (neck cards and babies only; any sizes, not both empty).
    Resets acceptance and bumps ``deal_version``."""

    type: Literal["propose"] = "propose"
    give: list[int] = Field(default_factory=list)
    get: list[int] = Field(default_factory=list)


class Accept(PacapacaActionBase):
    """Accept the deal as of ``version``; the trade runs when both accepted it."""

    type: Literal["accept"] = "accept"
    version: int


class Decline(PacapacaActionBase):
    """The partner refuses the current proposal (the deal is cleared; talks go on)."""

    type: Literal["decline"] = "decline"


class GiveUp(PacapacaActionBase):
    """The active player ends the negotiation early; it fails."""

    type: Literal["give_up"] = "give_up"


class NegotiationTimeout(PacapacaActionBase):
    """The minute ran out (applied by the runtime as ``SYSTEM_SEAT``); it fails."""

    type: Literal["negotiation_timeout"] = "negotiation_timeout"


class Pass(PacapacaActionBase):
    """Only when neither A nor B is possible (deck and pile empty in the final round)."""

    type: Literal["pass"] = "pass"


PacapacaAction = Annotated[
    Draw2
    | Keep
    | TakePile
    | StartNegotiation
    | Propose
    | Accept
    | Decline
    | GiveUp
    | NegotiationTimeout
    | Pass,
    Field(discriminator="type"),
]

ACTION_ADAPTER: TypeAdapter[PacapacaAction] = TypeAdapter(PacapacaAction)


# -- the deal space ---------------------------------------------------------------------


def _deal(give: tuple[int, ...], get: tuple[int, ...]) -> Propose:
    """The shared (never to be changed) :class:`Propose` giving ``give`` and getting
    ``get`` (cached: random playouts list the same small deals again and again)."""
    if len(give) <= 1 and len(get) <= 1:
        return _one_each(give[0] if give else None, get[0] if get else None)
    return _many(give, get)


@cache
def _one_each(give: int | None, get: int | None) -> Propose:
    """A deal moving at most one card each way (at most 61 x 61 of them: kept for good)."""
    return Propose(give=[] if give is None else [give], get=[] if get is None else [get])


@lru_cache(maxsize=4096)
def _many(give: tuple[int, ...], get: tuple[int, ...]) -> Propose:
    """A deal moving two or more cards one way (the most recent ones kept)."""
    return Propose(give=list(give), get=list(get))


@dataclass(frozen=True, slots=True)
class DealSpace(Sequence[Propose]):
    """Every deal one negotiator may propose now (RULES.md: Alpaca Pacapaca, C: any cards
    of the two alpacas' necks and babies, any numbers, not nothing for nothing), as a
    factorised, indexable space: choose any subset of :attr:`give` (cards the proposer
    may hand over) and any subset of :attr:`get` (cards the proposer may ask for), not
    both empty. ``PacapacaEngine.deal_space(state, seat)`` makes it; ``apply`` accepts a
    :class:`Propose` exactly when it is in the space.

    A deal names two *sets* of cards: the order of a ``Propose``'s lists does not matter
    (``p in space`` ignores it); the space lists each deal once, lists ascending.

    Indexing (for a presenter that pages or encodes a deal in a component id): deal
    ``i`` (``0 <= i < len(space)``) is the bit mask ``i + 1`` over ``give + get`` (bit
    ``j`` set: card ``(give + get)[j]`` is in the deal), so ``len(space) ==
    2 ** (len(give) + len(get)) - 1`` and deals ``0 .. len(give) - 1`` give one card
    each. The space can be huge (2**33 - 1 deals at the worst opening measured, see
    ``PacapacaEngine.legal_actions``): index it, never iterate or list it whole.

    Attributes:
        give: the proposer's tradeable cards (neck cards and babies), ascending ids.
        get: the other negotiator's tradeable cards, ascending ids.
    """

    give: tuple[int, ...]
    get: tuple[int, ...]

    def __len__(self) -> int:
        return (1 << (len(self.give) + len(self.get))) - 1

    @overload
    def __getitem__(self, index: int) -> Propose: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Propose]: ...

    def __getitem__(self, index: int | slice) -> Propose | Sequence[Propose]:
        """Deal number ``index`` (negative counts from the end; a slice gives a list).
        Raises ``IndexError`` outside the space."""
        n = len(self)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(n))]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"deal {index} is outside a space of {n}")
        return self._at(index + 1)

    def _at(self, mask: int) -> Propose:
        """The deal of bit mask ``mask`` (``1 <= mask <= len(self)``)."""
        give, k = self.give, len(self.give)
        return _deal(tuple([c for j, c in enumerate(give) if mask >> j & 1]),
                     tuple([c for j, c in enumerate(self.get) if mask >> (k + j) & 1]))

    def __iter__(self) -> Iterator[Propose]:
        """Every deal in index order (only for a small space: see the class docstring)."""
        at = self._at
        for mask in range(1, len(self) + 1):
            yield at(mask)

    def _mask(self, give: Iterable[int], get: Iterable[int]) -> int | None:
        """The deal's bit mask, or ``None`` when it is not in the space."""
        give, get = list(give), list(get)
        if len(set(give)) != len(give) or len(set(get)) != len(get):
            return None
        mask = 0
        k = len(self.give)
        for c in give:
            if c not in self.give:
                return None
            mask |= 1 << self.give.index(c)
        for c in get:
            if c not in self.get:
                return None
            mask |= 1 << (k + self.get.index(c))
        return mask or None

    def __contains__(self, action: object) -> bool:
        """True when ``action`` is a :class:`Propose` of this space (lists in any order)."""
        return isinstance(action, Propose) and self._mask(action.give, action.get) is not None

    def index(self, action: object, start: int = 0, stop: int | None = None) -> int:
        """The index of ``action`` (a :class:`Propose`, lists in any order). Raises
        ``ValueError`` when it is not in the space (or not between ``start`` and
        ``stop``)."""
        mask = self._mask(action.give, action.get) if isinstance(action, Propose) else None
        if mask is None or not start <= mask - 1 < (len(self) if stop is None else stop):
            raise ValueError("that deal is not in this deal space")
        return mask - 1

    def count(self, action: object) -> int:
        """1 when ``action`` is in the space, else 0 (each deal is listed once)."""
        return int(action in self)

    def deal(self, give: Iterable[int], get: Iterable[int]) -> Propose:
        """The canonical :class:`Propose` (ascending lists) giving ``give`` and getting
        ``get``. Raises ``ValueError`` when that deal is not in the space."""
        mask = self._mask(give, get)
        if mask is None:
            raise ValueError("that deal is not in this deal space")
        return self[mask - 1]


# -- views ------------------------------------------------------------------------------


class AlpacaView(Model):
    """A public alpaca: seat, head/body design ids, neck and baby card ids."""

    seat: str
    head: int
    body: int
    neck: list[int]
    babies: list[int]


class DiscardView(Model):
    """The public side of one face-down pile card (never the card itself): who put it
    there (``by``), the drawn card that player added at the same time (``kept``;
    ``None`` when not recorded), the deck size then (``deck_size``) and every alpaca's
    cards (neck + babies, in seat order) just before ``kept`` was added (``before``)."""

    by: str
    kept: int | None
    deck_size: int
    before: list[list[int]]


class NegotiationView(Model):
    """The public negotiation (it happens in the open thread).

    ``deadline_seconds`` is the rules' limit; the runtime knows when it started."""

    active: str
    partner: str
    active_gives: list[int]
    partner_gives: list[int]
    deal_version: int
    accepted: list[str]
    proposals: int
    proposals_left: int
    proposed_by: str | None
    deadline_seconds: int


class FinalAlpaca(Model):
    """One alpaca's scoring for the end picture.

    Attributes:
        seat; kept / removed: neck card ids staying / removed as incomplete;
        scarves: complete scarves ``[top, middles..., bottom]``; ribbons: ``[left, right]``;
        neck_length; lines: the score lines (neck first); total.
    """

    seat: str
    kept: list[int]
    removed: list[int]
    scarves: list[list[int]]
    ribbons: list[list[int]]
    neck_length: int
    lines: list[ScoreLine]
    total: int


class FinalView(Model):
    """The end of the game: every alpaca's scoring, in seat order, and the winners."""

    alpacas: list[FinalAlpaca]
    winners: list[str]


class PacapacaView(Model):
    """What one seat (or a spectator, ``viewer=None``) may see.

    Attributes:
        viewer; seats (turn order); active (seat whose turn it is, ``None`` when over);
        turn_number; phase (``turn | drawn | negotiation | finished``);
        alpacas: every alpaca (public);
        deck_size, pile_size: counts only (the deck and the pile are face down);
        my_discards: the viewer's own discards still in the pile (empty for others);
        discards: the public side of every pile card, oldest first (:class:`DiscardView`:
            who put it there and what they added with it, never the card);
        drawn: the viewer's own drawn cards while choosing (empty for everyone else);
        drawn_count: how many cards the active player holds drawn (public);
        negotiation: the open negotiation, if any;
        negotiated: a negotiation already failed this turn;
        final_round: the deck ran out; final_turns_left: turns still to play;
        babies: babies are in play; pool_size: cards in the game;
        final: the scoring once finished.
    """

    viewer: str | None
    seats: list[str]
    active: str | None
    turn_number: int
    phase: Phase
    alpacas: list[AlpacaView]
    deck_size: int
    pile_size: int
    my_discards: list[int]
    drawn: list[int]
    drawn_count: int
    negotiation: NegotiationView | None
    negotiated: bool
    final_round: bool
    final_turns_left: int | None
    babies: bool
    pool_size: int
    final: FinalView | None = None
    discards: list[DiscardView] = Field(default_factory=list)

    def alpaca(self, seat: str) -> AlpacaView:
        """The alpaca of ``seat``. Raises ``KeyError``."""
        for a in self.alpacas:
            if a.seat == seat:
                return a
        raise KeyError(seat)
