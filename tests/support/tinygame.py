"""A tiny game for lobby and runtime tests (never registered in the shipped bot).

"Race to 20": seats take turns adding 1 or 2 to a shared counter; whoever brings it to 10
or more wins. Each seat holds one secret token (hidden from others) that it may reveal
instead of adding, for a test of hidden information. ``negotiate`` opens a 30 s timed
decision whose timeout passes the turn, for timer tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, model_validator

from bot.games.base import (
    Action,
    Engine,
    Event,
    IllegalAction,
    Model,
    Options,
    Pending,
    PlainGameState,
    Result,
    ScoreLine,
    Timeout,
    rng,
)
from bot.games.registry import GameSpec, Registry


class TinyOptions(Options):
    """``double``: a test option that changes nothing in play, with a rule about another
    option (a target of 10 or more) and one about the seat count (2 or 3 players)."""

    players: int = Field(default=2, ge=2, le=4)
    target: int = Field(default=20, ge=3, le=50)
    double: bool = Field(default=False, description="Double steps")

    @model_validator(mode="after")
    def _double_needs_a_long_race(self) -> TinyOptions:
        if self.double and self.target < 10:
            raise ValueError("double steps need a target of 10 or more")
        return self


class Add(Action):
    type: Literal["add"] = "add"
    n: int


class Wait(Action):
    type: Literal["wait"] = "wait"


class StopWaiting(Action):
    type: Literal["stop_waiting"] = "stop_waiting"


TinyAction = Annotated[Add | Wait | StopWaiting, Field(discriminator="type")]


@dataclass(slots=True, kw_only=True)
class TinyState(PlainGameState):
    counter: int = 0
    target: int = 20
    turn: int = 0
    turn_count: int = 0
    secrets: dict[str, int] = field(default_factory=dict)
    waiting: bool = False
    winner: str | None = None


class TinyView(Model):
    counter: int
    turn: str
    my_secret: int | None


class TinyEngine(Engine[TinyState, TinyOptions]):
    key = "tiny"
    state_model = TinyState
    options_model = TinyOptions
    action_adapter = TypeAdapter(TinyAction)

    def new_game(self, players, *, seed, options):  # type: ignore[no-untyped-def]
        if options.double and len(players) > 3:
            raise ValueError("double steps are for 2 or 3 players")
        state = TinyState(seats=list(players), seed=seed, target=options.target)
        r = rng(state)
        state.secrets = {p: r.randint(100, 999) for p in players}
        return state

    def _active(self, state: TinyState) -> str:
        return state.seats[state.turn]

    def legal_actions(self, state, player):  # type: ignore[no-untyped-def]
        if state.winner or player != self._active(state):
            return []
        if state.waiting:
            return [StopWaiting()]
        return [Add(n=1), Add(n=2), *([] if state.turn_count % 5 == 4 else [Wait()])]

    def apply(self, state, player, action):  # type: ignore[no-untyped-def]
        if action not in self.legal_actions(state, player):
            if state.winner:
                raise IllegalAction("game_over", "The game is over.")
            if player != self._active(state):
                raise IllegalAction("not_your_turn", "It is not your turn.")
            raise IllegalAction("illegal", "You cannot do that now.")
        s = state.model_copy(deep=True)
        s.version += 1
        events: list[Event] = []
        if isinstance(action, Wait):
            s.waiting = True
            events.append(Event(type="wait", text=f"{player} starts a 30 second wait."))
            return s, events
        if isinstance(action, StopWaiting):
            s.waiting = False
            events.append(Event(type="stop", text=f"{player} stops waiting."))
        else:
            s.counter += action.n
            events.append(Event(type="add", text=f"{player} adds {action.n}: {s.counter}."))
            events.append(Event(type="secret", text=f"Your token is {s.secrets[player]}.",
                                to=[player]))
            if s.counter >= s.target:
                s.winner = player
                return s, events
        s.turn = (s.turn + 1) % len(s.seats)
        s.turn_count += 1
        return s, events

    def take_back_point(self, before, seat, action, after):  # type: ignore[no-untyped-def]
        """Add (unless it won) and Wait show nothing hidden (the token told is the
        actor's own)."""
        return isinstance(action, (Add, Wait)) and after.winner is None

    def view(self, state, viewer):  # type: ignore[no-untyped-def]
        return TinyView(
            counter=state.counter,
            turn=self._active(state),
            my_secret=state.secrets.get(viewer) if viewer else None,
        )

    def pending(self, state):  # type: ignore[no-untyped-def]
        if state.winner:
            return Pending(seats=[], kind="over")
        seat = self._active(state)
        if state.waiting:
            return Pending(seats=[seat], kind="wait", key=f"wait:{state.turn_count}",
                           seconds=30.0, timeouts=[Timeout(seat=seat, action={"type": "stop_waiting"})])
        return Pending(seats=[seat], kind="turn", key=f"turn:{state.turn_count}")

    def result(self, state):  # type: ignore[no-untyped-def]
        if not state.winner:
            return None
        return Result(
            scores={p: (1 if p == state.winner else 0) for p in state.seats},
            winners=[state.winner],
            breakdown={p: [ScoreLine(label="Reached the target", points=int(p == state.winner))]
                       for p in state.seats},
            reason=f"{state.winner} reached {state.target}.",
        )


def tiny_policy(view, legal, rand):  # type: ignore[no-untyped-def]
    """Always add the most it can."""
    adds = [a for a in legal if isinstance(a, Add)]
    return max(adds, key=lambda a: a.n) if adds else legal[0]


TINY_SPEC = GameSpec(
    key="tiny",
    name="Tiny Race",
    description="A test game: race the counter to 20.",
    min_players=2,
    max_players=4,
    engine=TinyEngine(),
    options_model=TinyOptions,
    cog="tests.support.tiny_cog",
    policy=tiny_policy,
    hidden_info=False,
    driver="tests.support.tiny_driver",
    rules_summary="Add 1 or 2 to the counter; reach the target to win.",
)


def tiny_registry() -> Registry:
    """A registry holding only the tiny game."""
    return Registry([TINY_SPEC])
