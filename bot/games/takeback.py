"""Take-backs in the action log, the same for every game.

A take-back undoes its player's last action with the table's consent. It is logged like
any action, as :class:`TakeBack` (``{"type": "take_back", "version": v}``, by the seat whose
action produced version ``v``), and its application restores the state before version
``v`` at the next version: the game's own rules never see it. Which actions may be taken
back is each engine's rule (:meth:`bot.games.base.Engine.take_back_point`).

:func:`replay_log` rebuilds every state of a game from its first state and its log, take-
backs included, exactly and deterministically.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeVar

from pydantic import Field

from bot.games.base import Action, Engine, Event, State

#: The ``type`` of a logged take-back.
TAKE_BACK = "take_back"

StateT = TypeVar("StateT", bound=State)


class TakeBack(Action):
    """The action that produced ``version`` is taken back: the state becomes the one
    before it, at the next version."""

    type: Literal["take_back"] = "take_back"
    version: int = Field(ge=1)


def is_take_back(action: Mapping[str, Any]) -> bool:
    """True when a logged action (its JSON dict) is a take-back."""
    return action.get("type") == TAKE_BACK


def taken_back(before: StateT, version: int) -> StateT:
    """The state a take-back leaves: an independent copy of ``before`` (the state before
    the action taken back) at ``version`` (the take-back's own, one above the state it
    replaces)."""
    return before.model_copy(update={"version": version}, deep=True)


def take_back_event(seat: str, version: int) -> Event:
    """The public event of a take-back (``seat`` names the player, as events do)."""
    return Event(type="took_back", text=f"{seat} took back their last move, with the "
                 "table's consent.", data={"seat": seat, "version": version})


def parse_logged(engine: Engine[Any, Any], action: Mapping[str, Any]) -> Action:
    """A logged action as its model: a :class:`TakeBack`, else the game's own action.
    Raises :class:`~bot.games.base.IllegalAction` (``bad_action``) as
    :meth:`Engine.parse_action` does."""
    if is_take_back(action):
        return TakeBack.model_validate(dict(action))
    return engine.parse_action(dict(action))


def replay_log(engine: Engine[Any, Any], first: StateT,
               rows: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[int, StateT]:
    """Every state of a game by version: ``first`` (the state ``new_game`` made), then
    each logged ``(seat, action)`` row applied in order, a take-back restoring the state
    before the version it names (:func:`taken_back`). Raises
    :class:`~bot.games.base.IllegalAction` for a row the rules refuse and ``KeyError`` for
    a take-back of a version never reached."""
    history: dict[int, StateT] = {first.version: first}
    state = first
    for seat, raw in rows:
        parsed = parse_logged(engine, raw)
        if isinstance(parsed, TakeBack):
            state = taken_back(history[parsed.version - 1], state.version + 1)
        else:
            state, _ = engine.apply(state, seat, parsed)
        history[state.version] = state
    return history


__all__ = ["TAKE_BACK", "TakeBack", "is_take_back", "parse_logged", "replay_log",
           "take_back_event", "taken_back"]
