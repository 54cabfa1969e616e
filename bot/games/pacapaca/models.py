"""Alpaca Pacapaca models: options, state, actions and views (all JSON-safe).

The state and its parts are plain slotted dataclasses (:class:`PlainState`: pydantic
validates them when they load and serialises them, but reading their fields costs what a
plain object's does, which random playouts need: issue 4); options, actions and views are
pydantic models. Card ids refer to :mod:`bot.games.pacapaca.cards`. Seats are opaque
strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

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
    """A face-down discard: the card and who put it there (frozen: shared by states)."""

    card: int
    by: str


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


# -- views ------------------------------------------------------------------------------


class AlpacaView(Model):
    """A public alpaca: seat, head/body design ids, neck and baby card ids."""

    seat: str
    head: int
    body: int
    neck: list[int]
    babies: list[int]


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

    def alpaca(self, seat: str) -> AlpacaView:
        """The alpaca of ``seat``. Raises ``KeyError``."""
        for a in self.alpacas:
            if a.seat == seat:
                return a
        raise KeyError(seat)
