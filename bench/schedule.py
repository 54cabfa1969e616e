"""What the capacity bench schedules and records: the open-loop arrivals
(:class:`Arrivals`), the games and moves, whose decision it is in a game
(:class:`GameReader`), and the hook that times the bot's writes."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def hook_writes(router: Any, on_write: Any) -> None:
    """Make the sandbox ``router`` call ``on_write(message, interaction or None)`` after
    every message it creates or edits (the bench's way to time a click's table)."""
    orig_new, orig_edit = router.new_message, router.apply_edit

    def new_message(channel: Any, body: Any, files: Any, **kw: Any) -> Any:
        msg = orig_new(channel, body, files, **kw)
        on_write(msg, kw.get("interaction"))
        return msg

    def apply_edit(msg: Any, body: Any, files: Any, interaction: Any = None) -> Any:
        out = orig_edit(msg, body, files, interaction)
        on_write(out, interaction)
        return out

    router.new_message = new_message
    router.apply_edit = apply_edit


@dataclass
class Move:
    """One engine action performed by a player: scheduled arrival of its first try, the
    interactions of every try (the last one commits the action), and when the new table
    showed. A try the bot refused as busy, or whose panel never opened, is tried again
    (see :mod:`bench.players`): ``tries`` counts them all, ``busy`` and ``unanswered``
    the tries ended that way, ``abandoned`` is True when the player gave up or found
    the decision gone (the move was not made)."""

    game: str
    t_sched: float
    its: list[Any] = field(default_factory=list)
    t_commit: float = 0.0
    #: When the last try started (``perf_counter`` s): ``t_sched`` for the first try.
    t_try: float | None = None
    #: Interactions of the last try (the end of ``its``).
    try_its: int = 0
    tries: int = 1
    busy: int = 0
    unanswered: int = 0
    abandoned: bool = False
    t_table: float | None = None
    public: bool = True
    error: str | None = None
    #: The table time over the writes made with the committing click's token, by
    #: whatever handling (see ``Figures.table_time``).
    t_table_token: float | None = None
    #: The kind of the rules' own timed wait the move opened (``pending.seconds`` set
    #: after it: a Llamas Unleashed reaction window, a Pacapaca negotiation), else None.
    opens_wait: str | None = None
    #: True once the player's driver returned (the move's interactions are all known).
    finished: bool = False

    @property
    def commit(self) -> Any | None:
        return self.its[-1] if self.its else None

    @property
    def made(self) -> bool:
        """Whether the player's driver carried the move out: no error, not given up."""
        return self.error is None and not self.abandoned


@dataclass
class Game:
    """One of the N games: its key, members (the first hosts) and ids once started."""

    key: str
    members: list[Any]
    game_id: int | None = None
    thread_id: int = 0
    by_seat: dict[str, Any] = field(default_factory=dict)
    last: Move | None = None
    started: int = 0


class Arrivals:
    """The open-loop schedule: a Poisson process in wall-clock time that hands each
    arrival to the longest-ready player (a future in :attr:`ready`)."""

    def __init__(self, seed: int):
        self.rand = random.Random(seed)
        self.ready: deque[asyncio.Future[float]] = deque()
        self.offered = 0
        self.missed = 0
        self.lag: list[float] = []

    async def ticket(self) -> float:
        """Wait for an arrival; return its scheduled time (``perf_counter`` seconds)."""
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.ready.append(fut)
        return await fut

    def hand(self, t: float) -> bool:
        """Give the arrival at ``t`` to the longest-ready player; False when none is."""
        while self.ready:
            fut = self.ready.popleft()
            if not fut.done():
                fut.set_result(t)
                return True
        return False

    async def run(self, rate: float, until: float) -> None:
        """Arrivals at ``rate`` per second until ``until`` (``perf_counter``)."""
        t = time.perf_counter()
        while True:
            t += self.rand.expovariate(rate)
            if t >= until:
                return
            delay = t - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            self.lag.append(time.perf_counter() - t)
            self.offered += 1
            if not self.hand(t):
                self.missed += 1

    def close(self) -> None:
        """Cancel every waiting player (end of the bench)."""
        while self.ready:
            self.ready.popleft().cancel()


class GameReader:
    """The reading part of :class:`~bench.capacity.CapacityBench`: whose decision it is in
    a game, read from the bot's SQLite file on the bench's own read-only connection."""

    registry: Any
    rand: random.Random
    db_path: Path
    _db: sqlite3.Connection | None

    def db(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True,
                                       check_same_thread=False)
        return self._db

    def decide(self, g: Game) -> tuple[str, Any, Any] | str:
        """``(seat, action, member)`` for the game's next human decision (random legal
        action), ``"over"`` once it finished, ``"wait"`` when only a timer can move it."""
        row = self.db().execute("SELECT status, state FROM games WHERE id = ?",
                                (g.game_id,)).fetchone()
        if row is None or row[0] != "active" or row[1] is None:
            return "over"
        return self.pick(g, row[1])

    def pick(self, g: Game, stored_state: Any) -> tuple[str, Any, Any] | str:
        """``(seat, action, member)``: a random legal action of a member whose decision it
        is in the active game's stored state; ``"wait"`` when none has one."""
        engine = self.registry[g.key].engine
        state = engine.load_state(stored_state)
        seats = list(engine.pending(state).seats)
        self.rand.shuffle(seats)
        for seat in seats:
            member = g.by_seat.get(seat)
            if member is None:
                continue
            legal = engine.legal_actions(state, seat)
            if legal:
                return seat, self.rand.choice(legal), member
        return "wait"

    async def decision(self, g: Game) -> tuple[str, Any, Any] | str:
        """:meth:`decide`, awaitable (the bench with the bot in its own process reads the
        game through the store)."""
        return self.decide(g)

    def legal_in(self, g: Game, stored_state: Any, seat: str, action: Any) -> bool:
        """Whether ``action`` is legal for ``seat`` in the stored state of game ``g``."""
        engine = self.registry[g.key].engine
        return bool(action in engine.legal_actions(engine.load_state(stored_state), seat))

    async def still_legal(self, g: Game, seat: str, action: Any) -> bool:
        """Whether the active game ``g`` still offers ``action`` to ``seat`` (a player's
        retry: the decision may have gone meanwhile, to a timer or another seat)."""
        row = self.db().execute("SELECT status, state FROM games WHERE id = ?",
                                (g.game_id,)).fetchone()
        return (row is not None and row[0] == "active" and row[1] is not None
                and self.legal_in(g, row[1], seat, action))

    async def rule_wait(self, g: Game) -> str | None:
        """The kind of the game's pending decision when the rules time it (a reaction
        window, a negotiation: ``pending.seconds`` set), else ``None``."""
        row = self.db().execute("SELECT status, state FROM games WHERE id = ?",
                                (g.game_id,)).fetchone()
        if row is None or row[0] != "active" or row[1] is None:
            return None
        engine = self.registry[g.key].engine
        pending = engine.pending(engine.load_state(row[1]))
        return pending.kind if pending.seconds is not None else None
