"""What a Llamas & Alpacas player may do: the shared action instances ``legal_actions``
returns, what a seat can afford, and the checks that allow an action
(:func:`acting_index`) or explain why it is refused (:func:`refuse`; rulebook "Sequence of
Play"; RULES.md: Llamas & Alpacas)."""

from __future__ import annotations

from functools import cache, lru_cache
from operator import attrgetter

from bot.games.base import Action, IllegalAction
from bot.games.llamas_alpacas.cards import cards_by_id
from bot.games.llamas_alpacas.models import (
    BOARD_SIZE,
    ROW_SIZE,
    TREAT_LIMIT,
    Keep,
    LlamasAlpacasState,
    Move,
    Place,
    PlayerState,
    RowSlot,
    Take,
)
from bot.games.llamas_alpacas.scoring import affordable

# Prebuilt action instances (legal_actions returns these; treat them as read-only).
PLACES = [Place(space=s) for s in range(9)]
TAKES: list[Action] = [Take(position=k) for k in range(1, ROW_SIZE + 1)]
_MOVES = {(a, b): Move(src=a, dst=b) for a in range(9) for b in range(9) if a != b}
KEEPS = {c: Keep(clovers=c, carrots=10 - c) for c in range(11)}


@cache
def moves_for(empty: tuple[bool, ...]) -> tuple[Move, ...]:
    """Every Move on a board whose spaces 0-8 are empty where ``empty`` is True, in
    (src, dst) order (occupied -> empty); cached per occupancy pattern (512 at most)."""
    full = [sp for sp in range(BOARD_SIZE) if not empty[sp]]
    free = [sp for sp in range(BOARD_SIZE) if empty[sp]]
    return tuple(_MOVES[(a, b)] for a in full for b in free)


def keep_range(clovers: int, carrots: int) -> list[int]:
    """Clover counts that can be kept so that exactly 10 treats remain."""
    return list(range(max(0, TREAT_LIMIT - carrots), min(clovers, TREAT_LIMIT) + 1))


#: Card id -> its animal ("llama" or "alpaca").
ANIMAL = {cid: c.animal for cid, c in cards_by_id().items()}
_CARD_OF = attrgetter("card")


def affordable_count(row: list[RowSlot], clovers: int, carrots: int) -> int:
    """:func:`~bot.games.llamas_alpacas.scoring.affordable` for the row slots (cached by
    the row's card ids and the treats held: both change only when a card is taken)."""
    return _affordable_ids(tuple(map(_CARD_OF, row)), clovers, carrots)


@lru_cache(maxsize=4096)
def _affordable_ids(row: tuple[int, ...], clovers: int, carrots: int) -> int:
    return affordable(map(ANIMAL.__getitem__, row), clovers, carrots)


def player_state(state: LlamasAlpacasState, seat: str) -> PlayerState | None:
    """The state of ``seat``'s player, or ``None`` for a seat not in the game."""
    if seat in state.seats:
        return state.players[state.seats.index(seat)]
    return None


def acting_index(state: LlamasAlpacasState, player: str, action: Action) -> int:
    """The index of ``player`` in ``state.players`` when ``action`` is in
    ``legal_actions(state, player)``, else -1 (checked directly, without the list)."""
    phase = state.phase
    if phase == "turn" or phase == "choose_space" or phase == "keep_treats":
        index = state.active
        if state.seats[index] != player:
            return -1
        p = state.players[index]
        if phase == "turn":
            if type(action) is Move:
                board = p.board
                ok = (
                    board[action.src] is not None
                    and board[action.dst] is None
                )
            elif type(action) is Take:
                position = action.position
                ok = position <= affordable_count(state.row, p.clovers, p.carrots)
            else:
                ok = False
        elif phase == "keep_treats":
            k = state.keep
            ok = (
                type(action) is Keep
                and k is not None
                and action.clovers + action.carrots == TREAT_LIMIT
                and action.clovers in keep_range(k.clovers, k.carrots)
            )
        else:
            ok = type(action) is Place and (
                p.board[action.space] is None or None not in p.board
            )
        return index if ok else -1
    if phase == "setup" and type(action) is Place and player in state.seats:
        index = state.seats.index(player)
        return index if state.players[index].start_card is not None else -1
    return -1

def refuse(state: LlamasAlpacasState, player: str, action: Action) -> None:
    """Raise the IllegalAction that explains why ``action`` is refused."""
    p = player_state(state, player)
    if state.phase == "finished":
        raise IllegalAction("game_over", "The game is over.")
    if p is None:
        raise IllegalAction("not_in_game", "You are not in this game.")
    if state.phase == "setup":
        if p.start_card is None:
            raise IllegalAction("already_placed", "You have already placed your starting card.")
        raise IllegalAction(
            "wrong_step", "First place your starting card on an empty space of your board."
        )
    if state.seats[state.active] != player:
        raise IllegalAction("not_your_turn", f"It is {state.seats[state.active]}'s turn.")
    if state.phase == "turn":
        if isinstance(action, Take):
            if action.position > len(state.row):
                raise IllegalAction("no_card", "There is no card at that position of the row.")
            raise IllegalAction(
                "cannot_pay",
                "You cannot pay for every skipped card: each needs its own treat (clover for a llama, "
                "carrot for an alpaca) or two of the other kind.",
            )
        if isinstance(action, Move):
            if p.board[action.src] is None:
                raise IllegalAction("empty_space", "There is no card on that space to move.")
            raise IllegalAction("occupied", "A card can only move to an empty space.")
        raise IllegalAction(
            "wrong_step", "Take a card from the row or move a card on your board."
        )
    if state.phase == "keep_treats":
        if isinstance(action, Keep):
            raise IllegalAction("bad_keep", "Keep exactly 10 treats out of those you hold.")
        raise IllegalAction("wrong_step", "First choose which 10 treats to keep.")
    if isinstance(action, Place):
        raise IllegalAction("occupied", "Place the card on an empty space of your board.")
    raise IllegalAction("wrong_step", "First place the card you took on your board.")

