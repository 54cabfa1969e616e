"""How a game moves on, with or without a click: the AI seats' moves (decided off the
loop), then one commit of the moves, seat flags, stats and the timers the new state calls
for (:meth:`Advance._advance`)."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any, cast

from bot.ai.levels import DEFAULT_LEVEL
from bot.games.base import Action, Result, State
from bot.games.registry import GameSpec
from bot.i18n import N_
from bot.ratings import Entry, Rating, ranks, rate
from bot.runtime.core import (
    IDLE_END_S,
    IDLE_NOTICE_S,
    LESSON_IDLE_S,
    MAX_AI_STEPS,
    TURN_TIMERS,
    ServiceCore,
    is_lesson,
)
from bot.runtime.updates import GameError, Step, Update, UpdateKind
from bot.store import (
    STORE_FAILURES,
    GameRecord,
    RatedSeat,
    RateJob,
    SeatRecord,
    StaleVersion,
    TimerRecord,
    TimerRow,
)

log = logging.getLogger(__name__)

#: A move as the store writes it: ``(version, seat, action, events)``.
MoveRow = tuple[int, str, dict[str, Any], list[dict[str, Any]]]


class Advance(ServiceCore):
    """The path every change of a started game takes (:meth:`_advance`), and the AI."""

    async def _advance(
        self, kind: UpdateKind, record: GameRecord, seats: list[SeatRecord], spec: GameSpec,
        timers: dict[str, TimerRecord], base: State, state: State, steps: list[Step], *,
        notes: list[str] | None = None, seat_flags: dict[str, dict[str, Any]] | None = None,
        drop: tuple[str, ...] = (), drive: bool = True, origin: Any = None,
        done: list[Step] | None = None,
    ) -> Update:
        """The one way a game moves on, with or without a click: ``steps`` (applied in
        memory from ``base``, the stored state read as ``record``, to ``state``), then the
        AI seats' moves until a human must decide (``drive``; decided off the loop, in
        memory), then ONE transaction: the moves with the version check, the seats'
        ``seat_flags``, the stats and ratings of a final move, and the timers the new state calls for
        (from ``timers``, the game's timers as read; kinds ``drop`` deleted too). Returns
        the update of ``kind`` built from what is in hand (nothing is read again);
        ``done``: steps committed before, shown first. Raises :class:`GameError`
        (``stale``) when the stored version is no longer ``base``'s."""
        if seat_flags:
            seats = [s.model_copy(update=seat_flags[s.seat]) if s.seat in seat_flags else s
                     for s in seats]
        if drive:
            more, state = await self._drive_ai(seats, spec, state)
            steps = [*steps, *more]
        engine = spec.engine
        result = engine.result(state)
        status = "finished" if result is not None and steps else None
        after = record.model_copy(update={"status": status}) if status else record
        put, gone = self._plan_timers(after, seats, spec, state, timers)
        gone |= set(drop)
        stats = self.stats_of(record, seats, spec, result if status else None)
        rating = rating_of(record, seats, spec, result if status else None)
        moves = self.move_rows(steps)
        dump = state.model_dump_json() if moves else None
        if moves or seat_flags or put or gone:
            try:
                updated_at, _ = await self.store.commit_moves(
                    record.id, expected_version=base.version, state=dump, moves=moves,
                    status=status, result=stats, seats=seat_flags, timers=put,
                    drop_timers=gone, rate=rating)
            except StaleVersion as exc:
                raise GameError("stale", N_("This table has moved on.")) from exc
            except STORE_FAILURES:
                # The commit may have been applied all the same: the game is read again
                # next time and the timer loop wakes for the timers it may have stored.
                self.changed(record.id)
                self.timers.armed([t[3] for t in put])
                raise
            self.changed(record.id)
            self.timers.armed([t[3] for t in put])
            if moves:
                after = after.model_copy(update={"state": dump, "version": state.version,
                                                 "updated_at": updated_at})
        derived = self.derived_of(record.id, state)
        if moves and dump is not None:
            derived = {}
            self.remember(record.id, dump, state, derived)
        due = {k: t.due_at for k, t in timers.items() if k not in gone}
        due.update({t[1]: float(t[3]) for t in put})
        return Update(kind, after, seats, spec, state, [*(done or []), *steps], result,
                      list(notes or []), origin=origin,
                      deadlines={k: v for k, v in due.items() if k in ("rules", "turn")},
                      derived=derived)

    def _plan_timers(self, record: GameRecord, seats: list[SeatRecord], spec: GameSpec,
                     state: State, timers: dict[str, TimerRecord]
                     ) -> tuple[list[TimerRow], set[str]]:
        """The timers to write and the kinds to delete for game ``record`` at ``state``,
        given its timers ``timers``: a finished game keeps only its archive timer; an
        active one gets its idle count (from each move), its rules deadline (negotiation
        minute, reaction window, baby choice) and its turn timer and reminder for the
        members who must decide."""
        now = self.clock.now()
        put: list[TimerRow] = []
        gone: set[str] = set()
        gid = record.id
        if record.status != "active" or spec.engine.result(state) is not None:
            gone = {"rules", "turn", "remind", "idle"} & timers.keys()
            if "archive" not in timers:
                put.append((gid, "archive", "archive", now + self.archive_after_s, {}))
            return put, gone
        pending = spec.engine.pending(state)
        # A game nobody moves in ends after IDLE_END_S (warned IDLE_NOTICE_S before); every
        # move (a new version) starts the count again. A lesson ends after LESSON_IDLE_S,
        # unwarned.
        idle = timers.get("idle")
        if is_lesson(record):
            if idle is None or idle.payload.get("version") != state.version:
                put.append((gid, "idle", f"end:{state.version}", now + LESSON_IDLE_S,
                            {"stage": "end", "version": state.version}))
        elif idle is None or idle.payload.get("version") != state.version:
            put.append((gid, "idle", f"notice:{state.version}", now + IDLE_END_S - IDLE_NOTICE_S,
                        {"stage": "notice", "version": state.version}))
        if pending.seconds is not None and pending.timeouts:
            current = timers.get("rules")
            if current is None or current.key != pending.key:
                put.append((gid, "rules", pending.key, now + pending.seconds,
                            {"timeouts": [t.model_dump(mode="json") for t in pending.timeouts]}))
        elif "rules" in timers:
            gone.add("rules")
        seconds = self.turn_timer_seconds(record)
        humans = [s for s in pending.seats if not self.is_ai(seats, s)]
        if seconds and humans and pending.seconds is None:
            key = f"{pending.kind}:{pending.key}:{state.version}:{','.join(humans)}"
            decision = turn_key(pending, humans)
            current = timers.get("turn")
            if current is None or current.payload.get("turn_key") != decision:
                put += [(gid, "turn", key, now + seconds, {"seats": humans, "turn_key": decision}),
                        (gid, "remind", key, now + seconds / 2,
                         {"seats": humans, "turn_key": decision, "deadline": now + seconds})]
        else:
            gone |= {"turn", "remind"} & timers.keys()
        return put, gone

    @staticmethod
    def _result_rows(seats: list[SeatRecord], result: Result) -> list[tuple[int, bool, int]]:
        """The stats rows of a finished game: ``(user_id, won, score)`` of every member
        seated (a seat the AI took over counts as played, never as won)."""
        return [(s.user_id, s.seat in result.winners and not s.ai_takeover,
                 result.scores.get(s.seat, 0))
                for s in seats if s.user_id is not None and not s.is_ai]

    def is_ai(self, seats: list[SeatRecord], seat: str) -> bool:
        """True when ``seat`` is played by the AI (an AI seat or one taken over)."""
        return any(s.seat == seat and (s.is_ai or s.ai_takeover) for s in seats)

    @staticmethod
    def ai_level(seats: list[SeatRecord], seat: str) -> str:
        """The level the AI plays ``seat`` at: an AI seat's own; Normal for a member's seat
        it took over (after a timeout or a leave) and for an unknown seat."""
        record = next((s for s in seats if s.seat == seat), None)
        return record.ai_level if record is not None and record.is_ai else DEFAULT_LEVEL

    def ai_action(self, spec: GameSpec, state: State, seat: str,
                  level: str = DEFAULT_LEVEL) -> Action | None:
        """The AI's choice for ``seat`` at ``level`` from its own view, or ``None`` if it
        has no move. A level the game no longer offers plays Normal. Deterministic: the
        policy's RNG is seeded by the game's seed, the state's version and the seat.
        Pure CPU work: the runtime calls it through :meth:`ai_choice`, off the loop."""
        legal = spec.engine.legal_actions(state, seat)
        if not legal:
            return None
        policy = spec.level_policy(level) or spec.policy
        if policy is None:
            return legal[0]
        rand = random.Random(f"{state.seed}:{state.version}:{seat}")
        choice = policy(spec.engine.view(state, seat), legal, rand)
        # Applied without a second check (Engine.apply_legal): a choice outside a listed
        # ``legal`` is a policy bug, logged and replaced by the first legal action. (An
        # indexable deal space is not scanned: its engine's apply_legal checks.)
        if isinstance(legal, list) and choice not in legal:
            log.error("the %s AI playing seat %s chose an action that is not legal: %r",
                      level, seat, choice)
            return legal[0]
        return choice

    async def ai_choice(self, spec: GameSpec, state: State, seats: list[SeatRecord],
                        seat: str) -> Action | None:
        """:meth:`ai_action` at the seat's level (:meth:`ai_level`), run in a worker
        thread so a slow decision (a Hard search) never blocks the event loop. The state
        is not changed meanwhile: the caller holds the game's lock."""
        return await asyncio.to_thread(self.ai_action, spec, state, seat,
                                       self.ai_level(seats, seat))

    async def _drive_ai(self, seats: list[SeatRecord], spec: GameSpec, state: State
                        ) -> tuple[list[Step], State]:
        """The AI seats' moves from ``state`` until a human must decide or the game ends;
        see :meth:`ai_steps`."""
        return await self.ai_steps(
            seats, spec, state,
            lambda pending: next((s for s in pending.seats if self.is_ai(seats, s)), None))

    async def ai_steps(self, seats: list[SeatRecord], spec: GameSpec, state: State,
                       pick: Callable[[Any], str | None]) -> tuple[list[Step], State]:
        """The AI's moves from ``state``, applied in memory (each decided off the loop,
        :meth:`ai_choice`), for the seat ``pick`` names among each pending decision's,
        until it names none, the AI has no move or the game ends (at most
        ``MAX_AI_STEPS``); the steps and the state after them."""
        steps: list[Step] = []
        for _ in range(MAX_AI_STEPS):
            if spec.engine.result(state) is not None:
                break
            seat = pick(spec.engine.pending(state))
            if seat is None:
                break
            action = await self.ai_choice(spec, state, seats, seat)
            if action is None:
                break
            state, events = spec.engine.apply_legal(state, seat, action)
            steps.append(Step(seat, action, events, by_ai=True, version=state.version))
        return steps, state

    def turn_timer_seconds(self, record: GameRecord) -> int | None:
        """The game's turn timer in seconds (``None``: off), from its options."""
        return TURN_TIMERS.get(str(record.options.get("turn_timer", "off")))

    @staticmethod
    def move_rows(steps: list[Step]) -> list[MoveRow]:
        """The store's rows of ``steps`` (see :data:`MoveRow`)."""
        return [(cast(int, s.version), s.seat, s.action.model_dump(mode="json"),
                 [e.model_dump(mode="json") for e in s.events]) for s in steps]

    def stats_of(self, record: GameRecord, seats: list[SeatRecord], spec: GameSpec,
                 result: Result | None) -> tuple[int, str, list[tuple[int, bool, int]]] | None:
        """The stats to record with a game's final move (``result``: its result, ``None``
        when it is not final): ``(guild_id, kind, rows)``, or ``None`` (no result, no
        server, no member seated)."""
        if result is None or record.guild_id is None or is_lesson(record):
            return None
        rows = self._result_rows(seats, result)
        return (record.guild_id, spec.key, rows) if rows else None


def turn_key(pending: Any, humans: list[str]) -> str:
    """The decision a turn timer and its reminder time out: its kind, key and the members
    who must decide."""
    return f"{pending.kind}:{pending.key}:{','.join(sorted(humans))}"


def rating_of(record: GameRecord, seats: list[SeatRecord], spec: GameSpec,
              result: Result | None) -> RateJob | None:
    """The rating of a game's final move (``result``: its result, ``None`` when not final),
    or ``None`` when the game is unrated: no result, no server, the lobby's ``rated``
    option off, fewer than 2 members seated, or every member's seat taken over by the AI.
    A seat the AI took over plays as the Normal AI and its member is not rated (RULES.md
    proposal "Ratings"); ranks by :func:`bot.ratings.ranks`."""
    if result is None or record.guild_id is None or record.options.get("rated") is False \
            or is_lesson(record):
        return None
    members = [s for s in seats if s.user_id is not None and not s.is_ai]
    if len(members) < 2 or all(s.ai_takeover for s in members):
        return None
    place = ranks(result, [s.seat for s in seats])
    rated = tuple(RatedSeat(
        seat=s.seat, user_id=None if s.is_ai or s.ai_takeover else s.user_id,
        ai_level=s.ai_level if s.is_ai else ("normal" if s.ai_takeover else None),
        name=s.name, rank=place[s.seat], won=s.seat in result.winners) for s in seats)
    entries = [Entry(s.seat, s.user_id, s.ai_level, s.rank) for s in rated]
    kind = spec.key

    def compute(current: dict[int, tuple[float, float]]) -> dict[str, tuple[float, float, float]]:
        after = rate(kind, entries, {u: Rating(*ms) for u, ms in current.items()})
        return {seat: (r.mu, r.sigma, r.ordinal) for seat, r in after.items()}

    return RateJob(record.guild_id, kind, rated, compute)
