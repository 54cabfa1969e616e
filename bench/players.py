"""The capacity bench's players: think after their turn came, take an arrival of the
open-loop schedule, act through the game's UI driver, and press again after a refusal.

A player told "herdbot is very busy; your move was not made, try again in a moment"
(the driver's outcome ``"busy"``), or whose panel never opened (``"unanswered"``: on
Discord, "This interaction failed"), waits :data:`RETRY_PAUSE` seconds and tries the same
decision again, up to :data:`TRIES` tries in all (``Players.tries``), unless the decision went meanwhile (to a
timer or another seat). A retry is extra load on top of the schedule: it takes no arrival
of the schedule (see bench/README.md, "Retries").

A decision found gone when the driver reads the game, before it presses (its
:class:`~bot.sandbox.drivers.NotLegal`), ends the move as not made, with those given up
and not as a fault; made when the try before went unanswered (its answer came late).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bench.schedule import Arrivals, Game, Move
from bot.sandbox.drivers import DriverContext, NotLegal, Perform, driver_for

#: Think time of a player after their turn came, seconds (uniform).
THINK = (5.0, 15.0)
#: A refused player's pause before pressing again, seconds (uniform).
RETRY_PAUSE = (2.0, 5.0)
#: Tries of one decision, the first included, before the player gives up.
TRIES = 3


class Players:
    """The players part of :class:`~bench.capacity.CapacityBench`."""

    #: Seconds a driver waits for a panel a click opens (see ``DriverContext.patience``).
    PATIENCE = 0.0
    #: Tries of one decision before the player gives up (1: no retry).
    tries = TRIES

    rand: random.Random
    registry: Any
    world: Any
    bot: Any
    stop: bool
    arrivals: Arrivals
    moves: list[Move]
    errors: dict[str, int]
    member_its: dict[int, list[Any]]

    # The bench's own (CapacityBench, GameReader): set up a game, new members, whose
    # decision it is, the rules' wait a move opened, whether an action is still legal.
    start_game: Callable[[Game], Awaitable[bool]]
    new_members: Callable[[int], list[Any]]
    decision: Callable[[Game], Awaitable[tuple[str, Any, Any] | str]]
    rule_wait: Callable[[Game], Awaitable[str | None]]
    still_legal: Callable[[Game, str, Any], Awaitable[bool]]

    async def play(self, g: Game) -> None:
        """The game's players: think after their turn came, wait for an arrival, act."""
        perform = driver_for(self.registry[g.key])
        # A fresh game's first player is somewhere in their think time already, as in a
        # steady state (otherwise every new game would become ready 5-15 s from now).
        first = True
        while not self.stop:
            if g.game_id is None:
                if not await self.start_game(g):
                    g.game_id = None
                    await asyncio.sleep(1.0)
                continue
            await asyncio.sleep(self.rand.uniform(0.0 if first else THINK[0], THINK[1]))
            first = False
            if self.stop:
                return
            t_sched = await self.arrivals.ticket()
            dec = await self.decision(g)
            if dec == "over":
                self.arrivals.hand(t_sched) or self._missed()
                g.game_id, g.last = None, None
                g.members = self.new_members(len(g.members))
                continue
            if dec == "wait":
                self.arrivals.hand(t_sched) or self._missed()
                continue
            assert not isinstance(dec, str)
            move = Move(g.key, t_sched)
            # Listed at once, so a phase's figures see a move still in flight (its wait so
            # far counts) and the phase waits for it (see CapacityBench.phase).
            self.moves.append(move)
            await self.make(g, move, perform, *dec)

    async def make(self, g: Game, move: Move, perform: Perform, seat: str, action: Any,
                   member: Any) -> None:
        """Carry ``move`` out: try ``action`` for ``seat`` through ``perform``, again after a
        refusal (see the module doc); fill the move's interactions, tries and outcome."""
        t_try = move.t_sched
        last: str | None = None  # the previous try's outcome
        while True:
            its: list[Any] = []
            self.member_its[member.id] = its
            ctx = DriverContext(self.world, self.bot, member, g.game_id or 0, seat,
                                patience=self.PATIENCE)
            ctx._thread_id = g.thread_id
            outcome: str | None = "done"
            gone = False
            try:
                outcome = await perform(ctx, action)
            except NotLegal:
                gone = True  # the decision went before the driver pressed: no fault
            except Exception as exc:  # noqa: BLE001 - a failed move is counted, not fatal
                # Digits out (member names, card indexes), so that one fault is one key.
                key = re.sub(r"\d+", "#", f"{g.key}: {type(exc).__name__}: {str(exc)[:80]}")
                self.errors[key] = self.errors.get(key, 0) + 1
                move.error = key
            finally:
                self.member_its.pop(member.id, None)
            if gone and last == "unanswered":
                # The previous try made the move, answered late: its clicks stay last.
                cut = len(move.its) - move.try_its
                move.its[cut:cut] = its
                break
            move.its.extend(its)
            move.t_try, move.try_its = t_try, len(its)
            if gone:  # to a timer or another seat: not made
                move.abandoned = True
                break
            if move.error is not None or outcome in (None, "done"):
                break
            last = outcome
            if outcome == "busy":
                move.busy += 1
            else:
                move.unanswered += 1
            if move.tries >= self.tries or self.stop:
                move.abandoned = True
                break
            await asyncio.sleep(self.rand.uniform(*RETRY_PAUSE))
            if self.stop:
                move.abandoned = True
                break
            if not await self.still_legal(g, seat, action):
                # The decision went meanwhile: to a timer or another seat after a refusal
                # (not made), or to this very try when its answer only came late.
                move.abandoned = outcome == "busy"
                break
            move.tries += 1
            t_try = time.perf_counter()
        if move.made:
            move.opens_wait = await self.rule_wait(g)
        if move.its:
            c = move.its[-1]
            started = move.t_sched if move.t_try is None else move.t_try
            move.t_commit = started if move.try_its == 1 else c.bench_t0
        move.finished = True

    def _missed(self) -> bool:
        self.arrivals.missed += 1
        return False
