"""Llamas & Alpacas options, actions, state and views (pydantic / plain dataclasses,
JSON round-trippable). The rules that change them are in :mod:`.engine`; phases and who
decides are described there.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from bot.games.base import Action, Model, Options, PlainGameState, PlainState
from bot.games.llamas_alpacas.cards import Card

ROW_SIZE = 6
BOARD_SIZE = 9
TREAT_LIMIT = 10
START_TREATS = 3
END_SCORE = 18
MIN_PLAYERS = 2
MAX_PLAYERS = 4


def _empty_board() -> list[int | None]:
    return [None] * BOARD_SIZE


Phase = Literal["setup", "turn", "keep_treats", "choose_space", "finished"]


# -- options and actions ----------------------------------------------------------------


class LlamasAlpacasOptions(Options):
    """Lobby options: none; the game plays 2-4 players (checked by ``new_game``)."""


class Place(Action):
    """Put a card on board space ``space`` (0-8, row by row).

    In ``"setup"`` it places the seat's starting card; in ``"choose_space"`` the card just
    taken (on an empty space, or, with a full board, replacing the card on ``space``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["place"] = "place"
    space: int = Field(ge=0, le=8)


class Take(Action):
    """Take the row card at ``position`` (1-6), paying a treat for each earlier card."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["take"] = "take"
    position: int = Field(ge=1, le=ROW_SIZE)


class Move(Action):
    """Instead of taking, move the own card on ``src`` to the empty space ``dst`` (0-8)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["move"] = "move"
    src: int = Field(ge=0, le=8)
    dst: int = Field(ge=0, le=8)


class Keep(Action):
    """Keep ``clovers`` + ``carrots`` (= 10) treats; the excess goes onto the next row card."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["keep"] = "keep"
    clovers: int = Field(ge=0, le=TREAT_LIMIT)
    carrots: int = Field(ge=0, le=TREAT_LIMIT)


LlamasAlpacasAction = Annotated[Place | Take | Move | Keep, Field(discriminator="type")]

# -- state ----------------------------------------------------------------------------


@dataclasses.dataclass(slots=True, kw_only=True, frozen=True)
class RowSlot(PlainState):
    """A face-up row card with the treats lying on it (frozen: states share slots and
    replace them, never change them)."""

    card: int
    clovers: int = 0
    carrots: int = 0



@dataclasses.dataclass(slots=True, kw_only=True)
class PlayerState(PlainState):
    """One seat: board (9 card ids or ``None``), treats, points and bookkeeping.

    ``start_card`` holds the starting card until it is placed in set-up; ``lines`` counts
    the lines scored with 1, 2 and 3 conditions."""

    seat: str
    board: list[int | None] = dataclasses.field(default_factory=lambda: _empty_board())
    clovers: int = START_TREATS
    carrots: int = START_TREATS
    score: int = 0
    turns: int = 0
    start_card: int | None = None
    lines: list[int] = dataclasses.field(default_factory=lambda: [0, 0, 0])


@dataclasses.dataclass(slots=True, kw_only=True)
class KeepChoice(PlainState):
    """The open treat-limit choice: totals held and where the excess goes (row index 0-5)."""

    clovers: int
    carrots: int
    target: int


@dataclasses.dataclass(slots=True, kw_only=True)
class LlamasAlpacasState(PlainGameState):
    """The whole game. ``draw`` is the face-down pile (top = last item). A plain slotted
    dataclass, as are its parts (:class:`PlainState`: pydantic validates it when it loads;
    random playouts read its fields millions of times)."""

    phase: Phase = "setup"
    players: list[PlayerState]
    row: list[RowSlot]
    draw: list[int]
    discard: list[int] = dataclasses.field(default_factory=list)
    first: int = 0
    active: int = 0
    held: int | None = None
    keep: KeepChoice | None = None
    end_triggered: bool = False
    turn_no: int = 0


# -- views ----------------------------------------------------------------------------


class TakeCost(Model):
    """What taking a row position costs the active player, in treats."""

    clovers: int
    carrots: int


class RowCardView(Model):
    """A row card as everyone sees it.

    ``cost`` is the active player's payment to take it (``None`` when unaffordable or not
    in the ``"turn"`` phase)."""

    position: int
    card: Card
    clovers: int
    carrots: int
    cost: TakeCost | None = None


class PlayerView(Model):
    """A player as everyone sees it. ``board`` lists 9 spaces row by row."""

    seat: str
    board: list[Card | None]
    score: int
    clovers: int
    carrots: int
    turns: int
    placed_start: bool
    start_card: Card | None = None
    lines: list[int]


class LlamasAlpacasView(Model):
    """What a seat (or a spectator, ``viewer=None``) sees. All information in this game is
    public except the order of the draw pile, of which only the count is shown."""

    viewer: str | None
    version: int
    phase: Phase
    seats: list[str]
    first: str
    active: str | None
    pending: list[str]
    row: list[RowCardView]
    players: list[PlayerView]
    draw_count: int
    discard_count: int
    discard_top: Card | None
    held: Card | None
    keep: KeepChoice | None
    end_triggered: bool
    finished: bool
    winners: list[str]
