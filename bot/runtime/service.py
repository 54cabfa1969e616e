"""GameService: load -> lock -> validate -> apply -> persist -> publish.

The only path by which a game changes. Lobby operations (join, leave, add an AI seat,
start, cancel) also live here so that the cogs stay thin and every change is serialised
by the same per-game lock.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import SYSTEM_SEAT, Action, Event, IllegalAction, Result, State
from bot.games.registry import GameSpec, Registry
from bot.runtime.clock import Clock
from bot.runtime.timers import TimerService
from bot.store import GameRecord, LobbyLimit, SeatRecord, StaleVersion, Store, TimerRecord

log = logging.getLogger(__name__)

#: Turn-timer choices in seconds (``off``: none). UX.md, "Timers".
TURN_TIMERS: dict[str, int | None] = {"off": None, "2m": 120, "10m": 600, "1h": 3600, "24h": 86400}
#: Missed turns in a row after which a seat becomes an AI seat (issue 7).
MAX_MISSED_TURNS = 3
#: Safety cap on AI moves applied after one human action.
MAX_AI_STEPS = 2000


class GameError(Exception):
    """A refused request, with a ``code`` and a sentence for the player (no secrets)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass
class Step:
    """One applied action: who, what, and the events it produced."""

    seat: str
    action: Action
    events: list[Event]
    by_ai: bool = False


@dataclass
class Update:
    """What the service publishes after a change.

    Attributes:
        kind: ``"lobby"``, ``"started"``, ``"action"``, ``"cancelled"``, ``"ended"``.
        record: the game row after the change.
        seats: the seats in turn order.
        spec: the game's registry entry.
        state: the engine state after the change (``None`` for a lobby).
        steps: the actions applied (the human's first, then any AI moves).
        result: the final result when the game just finished.
        notes: extra lines for the thread, naming seats by id like events do (e.g.
            "Time ran out for s1: ..."; the cogs put in the names); for a ``"reminder"``
            the turn deadline (Unix seconds).
    """

    kind: str
    record: GameRecord
    seats: list[SeatRecord]
    spec: GameSpec
    state: State | None = None
    steps: list[Step] = field(default_factory=list)
    result: Result | None = None
    notes: list[str] = field(default_factory=list)

    def events(self) -> list[Event]:
        """Every event of every step in order."""
        return [e for s in self.steps for e in s.events]


Subscriber = Callable[[Update], Awaitable[None]]


class GameService:
    """Runs games: creates lobbies, seats players, applies actions, drives AI seats and
    timers, and publishes :class:`Update` objects to subscribers (the cogs).

    Errors: every refusal raises :class:`GameError` with a player-facing sentence and
    changes nothing.
    """

    def __init__(
        self, store: Store, registry: Registry, *, clock: Clock | None = None,
        archive_after_s: float = 600,
    ) -> None:
        self.store = store
        self.archive_after_s = archive_after_s
        self.registry = registry
        self.clock = clock or Clock()
        self.timers = TimerService(store, self.clock, self._on_timer)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._subscribers: list[Subscriber] = []
        #: Where new lobbies get their seed (the demo and tests make it deterministic).
        self.seed_factory: Callable[[], int] = lambda: secrets.randbits(31)

    # -- plumbing ----------------------------------------------------------------------

    def subscribe(self, handler: Subscriber) -> None:
        """Call ``handler(update)`` after every change (errors are logged, not raised)."""
        self._subscribers.append(handler)

    def unsubscribe(self, handler: Subscriber) -> None:
        """Stop calling ``handler``."""
        if handler in self._subscribers:
            self._subscribers.remove(handler)

    def lock(self, game_id: int) -> asyncio.Lock:
        """The per-game lock (created on demand)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def publish(self, update: Update) -> None:
        """Hand ``update`` to every subscriber."""
        for handler in list(self._subscribers):
            try:
                await handler(update)
            except Exception:
                log.exception("subscriber failed on %s of game %s", update.kind, update.record.id)

    def spec_of(self, record: GameRecord) -> GameSpec:
        """The registry entry of a game. Raises :class:`GameError` for an unknown kind."""
        spec = self.registry.get(record.kind)
        if spec is None:
            raise GameError("unknown_game", "This game is not available on this bot.")
        return spec

    async def get(self, game_id: int) -> GameRecord:
        """The game row. Raises :class:`GameError` (``no_game``) when it does not exist."""
        record = await self.store.get_game(game_id)
        if record is None:
            raise GameError("no_game", "That game no longer exists.")
        return record

    async def load(self, game_id: int) -> tuple[GameRecord, list[SeatRecord], GameSpec, State]:
        """Record, seats, spec and parsed state of a started game."""
        record = await self.get(game_id)
        spec = self.spec_of(record)
        if record.state is None:
            raise GameError("not_started", "This game has not started yet.")
        state = spec.engine.load_state(record.state)
        return record, await self.store.seats(game_id), spec, state

    @staticmethod
    def seat_of(seats: list[SeatRecord], user_id: int) -> SeatRecord | None:
        """The seat held by ``user_id`` or ``None``."""
        return next((s for s in seats if s.user_id == user_id), None)

    # -- lobby -------------------------------------------------------------------------

    async def create_lobby(
        self,
        kind: str,
        *,
        guild_id: int | None,
        channel_id: int | None,
        host_id: int,
        host_name: str,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        max_open: int | None = None,
    ) -> Update:
        """Open a lobby of game ``kind`` with the host seated. Raises :class:`GameError`:
        ``unknown_game`` for a kind not in the registry, ``too_many_lobbies`` when
        ``max_open`` is given and the host already hosts that many open (not yet started)
        lobbies in the server ``guild_id``."""
        spec = self.registry.get(kind)
        if spec is None:
            raise GameError("unknown_game", f"There is no game called “{kind}”.")
        try:
            record = await self.store.create_game(
                kind=kind,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                host_name=host_name,
                options=options or {},
                seed=seed if seed is not None else self.seed_factory(),
                max_open=max_open,
            )
        except LobbyLimit as exc:
            lobbies = "lobby" if exc.open == 1 else "lobbies"
            raise GameError(
                "too_many_lobbies",
                f"You already have {exc.open} open {lobbies} in this server; start or cancel "
                "one first.",
            ) from None
        update = Update("lobby", record, await self.store.seats(record.id), spec)
        return update

    async def _lobby(self, game_id: int) -> tuple[GameRecord, GameSpec, list[SeatRecord]]:
        record = await self.get(game_id)
        if record.status != "lobby":
            raise GameError("not_lobby", "This lobby is closed: the game has started or ended.")
        return record, self.spec_of(record), await self.store.seats(game_id)

    async def join(self, game_id: int, user_id: int, name: str) -> Update:
        """Seat ``user_id`` in the lobby. Refused when already seated or full."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            if self.seat_of(seats, user_id):
                raise GameError("already_joined", "You are already in this lobby.")
            if len(seats) >= spec.max_players:
                raise GameError("full", f"This table is full ({spec.max_players} players).")
            await self.store.add_seat(
                game_id, user_id=user_id, name=name, is_ai=False, max_seats=spec.max_players
            )
            return await self._lobby_update(game_id)

    async def leave_lobby(self, game_id: int, user_id: int) -> Update:
        """Remove ``user_id`` from the lobby. The host cannot leave (they cancel instead)."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            seat = self.seat_of(seats, user_id)
            if seat is None:
                raise GameError("not_in_lobby", "You are not in this lobby.")
            if user_id == record.host_id:
                raise GameError("host_leave", "You are the host: use Cancel to close the lobby.")
            await self.store.remove_seat(game_id, seat.seat)
            return await self._lobby_update(game_id)

    async def add_ai(self, game_id: int, user_id: int) -> Update:
        """Add an AI seat (host only)."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            if user_id != record.host_id:
                raise GameError("not_host", "Only the host can add AI seats.")
            if len(seats) >= spec.max_players:
                raise GameError("full", f"This table is full ({spec.max_players} players).")
            if spec.policy is None:
                raise GameError("no_ai", "This game has no AI players yet.")
            n = sum(1 for s in seats if s.is_ai) + 1
            await self.store.add_seat(
                game_id, user_id=None, name=f"AI {AI_NAMES[(n - 1) % len(AI_NAMES)]}",
                is_ai=True, max_seats=spec.max_players,
            )
            return await self._lobby_update(game_id)

    async def remove_ai(self, game_id: int, user_id: int) -> Update:
        """Remove the last AI seat (host only)."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            if user_id != record.host_id:
                raise GameError("not_host", "Only the host can remove AI seats.")
            ai = [s for s in seats if s.is_ai]
            if not ai:
                raise GameError("no_ai_seat", "There is no AI seat to remove.")
            await self.store.remove_seat(game_id, ai[-1].seat)
            return await self._lobby_update(game_id)

    async def set_options(self, game_id: int, user_id: int, options: dict[str, Any]) -> Update:
        """Change lobby options (host only)."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            if user_id != record.host_id:
                raise GameError("not_host", "Only the host can change the options.")
            await self.store.update_game(game_id, options={**record.options, **options})
            return await self._lobby_update(game_id)

    async def cancel(self, game_id: int, user_id: int, *, manage_guild: bool = False) -> Update:
        """Close a lobby (host, or a member with Manage Server)."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            if user_id != record.host_id and not manage_guild:
                raise GameError("not_host", "Only the host (or a server manager) can cancel.")
            await self.store.update_game(game_id, status="cancelled")
            record = await self.get(game_id)
            update = Update("cancelled", record, seats, spec)
        await self.publish(update)
        return update

    async def _lobby_update(self, game_id: int) -> Update:
        record = await self.get(game_id)
        update = Update("lobby", record, await self.store.seats(game_id), self.spec_of(record))
        return update

    async def start(self, game_id: int, user_id: int, *, publish: bool = True) -> Update:
        """Start the game (host only, player count in range): new state, seats renumbered in
        lobby order, AI seats moved, timers armed; publishes ``started``."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            if user_id != record.host_id:
                raise GameError("not_host", "Only the host can start the game.")
            if len(seats) < spec.min_players:
                raise GameError(
                    "too_few", f"{spec.name} needs at least {spec.min_players} players."
                )
            seats = await self.store.renumber_seats(game_id)
            try:
                options = self.engine_options(spec, record.options, len(seats))
                state = spec.engine.new_game([s.seat for s in seats], seed=record.seed, options=options)
            except (ValueError, IllegalAction) as exc:
                raise GameError("bad_options", f"These options do not work: {exc}") from exc
            await self.store.start_game(game_id, state=state.model_dump_json(), version=state.version)
            record = await self.get(game_id)
            update = Update("started", record, seats, spec, state)
            steps, notes = await self._drive_ai(record, seats, spec, state)
            update.steps = steps
            update.notes = notes
            update.record = await self.get(game_id)
            if steps:
                update.state = spec.engine.load_state(update.record.state or "")
            update.result = spec.engine.result(update.state)  # type: ignore[arg-type]
            await self._sync_timers(update.record, seats, spec, update.state)  # type: ignore[arg-type]
        if publish:
            await self.publish(update)
        return update

    @staticmethod
    def engine_options(spec: GameSpec, options: dict[str, Any], players: int) -> Any:
        """The engine's options model from a lobby's options: keys the model does not know
        (the runtime's own, such as ``turn_timer``) are left out; ``players`` is set when
        the model has it. Raises ``ValueError`` (pydantic) for invalid values."""
        fields = spec.options_model.model_fields
        data = {k: v for k, v in options.items() if k in fields}
        if "players" in fields:
            data["players"] = players
        return spec.options_model.model_validate(data)

    # -- play --------------------------------------------------------------------------

    async def act(
        self,
        game_id: int,
        seat: str,
        action: Action | dict[str, Any],
        expected_version: int | None = None,
        *,
        publish: bool = True,
    ) -> Update:
        """Apply ``action`` for ``seat``; then let AI seats move until a human must decide.

        Raises :class:`GameError`: ``stale`` when ``expected_version`` is not the stored
        version (an old button), ``not_active`` when the game is over, or the engine's
        :class:`IllegalAction` code and sentence. On any refusal nothing changes.
        """
        async with self.lock(game_id):
            record, seats, spec, state = await self.load(game_id)
            if record.status != "active":
                raise GameError("not_active", "This game is over.")
            if expected_version is not None and expected_version != record.version:
                raise GameError("stale", "This table has moved on.")
            engine = spec.engine
            try:
                parsed = engine.parse_action(action) if isinstance(action, dict) else action
                new_state, events = engine.apply(state, seat, parsed)
            except IllegalAction as exc:
                raise GameError(exc.code, exc.message) from exc
            await self._commit(record, spec, state, new_state, seat, parsed, events)
            steps = [Step(seat, parsed, events)]
            for s in seats:
                if s.seat == seat and s.missed_turns:
                    await self.store.set_seat(game_id, seat, missed_turns=0)
            more, notes = await self._drive_ai(await self.get(game_id), seats, spec, new_state)
            steps += more
            record = await self.get(game_id)
            state_after = engine.load_state(record.state or "")
            update = Update("action", record, await self.store.seats(game_id), spec, state_after,
                            steps, engine.result(state_after), notes)
            await self._sync_timers(record, update.seats, spec, state_after)
        if publish:
            await self.publish(update)
        return update

    async def _commit(
        self,
        record: GameRecord,
        spec: GameSpec,
        old: State,
        new: State,
        seat: str,
        action: Action,
        events: list[Event],
    ) -> None:
        status = "finished" if spec.engine.result(new) is not None else None
        try:
            await self.store.commit_action(
                record.id,
                expected_version=old.version,
                state=new.model_dump_json(),
                version=new.version,
                seat=seat,
                action=action.model_dump(mode="json"),
                events=[e.model_dump(mode="json") for e in events],
                status=status,
            )
        except StaleVersion as exc:
            raise GameError("stale", "This table has moved on.") from exc

    def is_ai(self, seats: list[SeatRecord], seat: str) -> bool:
        """True when ``seat`` is played by the AI (an AI seat or one taken over)."""
        return any(s.seat == seat and (s.is_ai or s.ai_takeover) for s in seats)

    def ai_action(self, spec: GameSpec, state: State, seat: str) -> Action | None:
        """The AI's choice for ``seat`` from its own view, or ``None`` if it has no move."""
        legal = spec.engine.legal_actions(state, seat)
        if not legal:
            return None
        if spec.policy is None:
            return legal[0]
        rand = random.Random(f"{state.seed}:{state.version}:{seat}")
        return spec.policy(spec.engine.view(state, seat), legal, rand)

    async def _drive_ai(
        self, record: GameRecord, seats: list[SeatRecord], spec: GameSpec, state: State
    ) -> tuple[list[Step], list[str]]:
        steps: list[Step] = []
        for _ in range(MAX_AI_STEPS):
            if spec.engine.result(state) is not None:
                break
            pending = spec.engine.pending(state)
            seat = next((s for s in pending.seats if self.is_ai(seats, s)), None)
            if seat is None:
                break
            action = self.ai_action(spec, state, seat)
            if action is None:
                break
            new_state, events = spec.engine.apply(state, seat, action)
            await self._commit(record, spec, state, new_state, seat, action, events)
            steps.append(Step(seat, action, events, by_ai=True))
            state = new_state
        return steps, []

    # -- timers ------------------------------------------------------------------------

    def turn_timer_seconds(self, record: GameRecord) -> int | None:
        """The game's turn timer in seconds (``None``: off), from its options."""
        return TURN_TIMERS.get(str(record.options.get("turn_timer", "off")))

    async def _sync_timers(
        self, record: GameRecord, seats: list[SeatRecord], spec: GameSpec, state: State
    ) -> None:
        if record.status != "active" or spec.engine.result(state) is not None:
            await self.timers.cancel(record.id, "rules")
            await self.timers.cancel(record.id, "turn")
            await self.timers.cancel(record.id, "remind")
            if await self.store.timer(record.id, "archive") is None:
                await self.timers.schedule(record.id, "archive", "archive",
                                           self.clock.now() + self.archive_after_s)
            return
        pending = spec.engine.pending(state)
        now = self.clock.now()
        # The rules' own deadline (negotiation minute, reaction window, baby choice).
        if pending.seconds is not None and pending.timeouts:
            current = await self.store.timer(record.id, "rules")
            if current is None or current.key != pending.key:
                await self.timers.schedule(
                    record.id, "rules", pending.key, now + pending.seconds,
                    {"timeouts": [t.model_dump(mode="json") for t in pending.timeouts]},
                )
        else:
            await self.timers.cancel(record.id, "rules")
        # The optional per-game turn timer for human seats.
        seconds = self.turn_timer_seconds(record)
        humans = [s for s in pending.seats if not self.is_ai(seats, s)]
        if seconds and humans and pending.seconds is None:
            key = f"{pending.kind}:{pending.key}:{state.version}:{','.join(humans)}"
            current = await self.store.timer(record.id, "turn")
            if current is None or current.payload.get("turn_key") != _turn_key(pending, humans):
                turn_key = _turn_key(pending, humans)
                await self.timers.schedule_many([
                    (record.id, "turn", key, now + seconds,
                     {"seats": humans, "turn_key": turn_key}),
                    (record.id, "remind", key, now + seconds / 2,
                     {"seats": humans, "turn_key": turn_key, "deadline": now + seconds}),
                ])
        else:
            await self.timers.cancel(record.id, "turn")
            await self.timers.cancel(record.id, "remind")

    async def reconcile_timers(self) -> int:
        """Arm the timers every active game's state calls for (start-up, in the background).

        An action is committed before its timers are armed; a process killed in between
        would leave a game waiting on a deadline with no timer. Returns the games checked.
        """
        checked = 0
        for record in await self.store.games_with_status("active"):
            async with self.lock(record.id):
                record = await self.get(record.id)
                if record.status != "active" or record.state is None:
                    continue
                spec = self.registry.get(record.kind)
                if spec is None:
                    continue
                state = spec.engine.load_state(record.state)
                await self._sync_timers(record, await self.store.seats(record.id), spec, state)
                checked += 1
        return checked

    async def deadline(self, game_id: int, kind: str = "rules") -> float | None:
        """Unix time at which the game's ``kind`` timer fires, or ``None``."""
        timer = await self.store.timer(game_id, kind)
        return timer.due_at if timer else None

    async def _on_timer(self, timer: TimerRecord) -> None:
        if timer.kind == "rules":
            await self._fire_rules_timer(timer)
        elif timer.kind == "turn":
            await self._fire_turn_timer(timer)
        elif timer.kind in ("remind", "archive"):
            record = await self.store.get_game(timer.game_id)
            if record is None:
                return
            spec = self.spec_of(record)
            state = spec.engine.load_state(record.state) if record.state else None
            if timer.kind == "remind":
                if record.status != "active" or state is None:
                    return
                pending = spec.engine.pending(state)
                seats = await self.store.seats(record.id)
                humans = [s for s in pending.seats if not self.is_ai(seats, s)]
                if timer.payload.get("turn_key") != _turn_key(pending, humans):
                    return
                update = Update("reminder", record, seats, spec, state,
                                notes=[str(timer.payload.get("deadline", ""))])
            else:
                update = Update("archive", record, await self.store.seats(record.id), spec, state)
            await self.publish(update)

    async def _fire_rules_timer(self, timer: TimerRecord) -> None:
        async with self.lock(timer.game_id):
            record, seats, spec, state = await self.load(timer.game_id)
            if record.status != "active" or spec.engine.pending(state).key != timer.key:
                return
            steps: list[Step] = []
            for raw in timer.payload.get("timeouts", []):
                seat = raw["seat"]
                try:
                    action = spec.engine.parse_action(raw["action"])
                    new_state, events = spec.engine.apply(state, seat, action)
                except IllegalAction:
                    continue
                await self._commit(record, spec, state, new_state, seat, action, events)
                record = await self.get(timer.game_id)
                steps.append(Step(seat, action, events))
                state = new_state
            more, notes = await self._drive_ai(record, seats, spec, state)
            steps += more
            record = await self.get(timer.game_id)
            state = spec.engine.load_state(record.state or "")
            update = Update("timeout", record, seats, spec, state, steps,
                            spec.engine.result(state), notes)
            await self._sync_timers(record, seats, spec, state)
        await self.publish(update)

    async def _fire_turn_timer(self, timer: TimerRecord) -> None:
        async with self.lock(timer.game_id):
            record, seats, spec, state = await self.load(timer.game_id)
            pending = spec.engine.pending(state)
            if record.status != "active":
                return
            humans = [s for s in pending.seats if not self.is_ai(seats, s)]
            if timer.payload.get("turn_key") != _turn_key(pending, humans):
                return
            steps: list[Step] = []
            notes: list[str] = []
            for seat_id in timer.payload.get("seats", []):
                # The AI plays this seat's decisions until it no longer has to decide.
                for _ in range(50):
                    if seat_id not in spec.engine.pending(state).seats:
                        break
                    action = self.ai_action(spec, state, seat_id)
                    if action is None:
                        break
                    new_state, events = spec.engine.apply(state, seat_id, action)
                    await self._commit(record, spec, state, new_state, seat_id, action, events)
                    record = await self.get(timer.game_id)
                    steps.append(Step(seat_id, action, events, by_ai=True))
                    state = new_state
                seat = next(s for s in seats if s.seat == seat_id)
                missed = seat.missed_turns + 1
                if missed >= MAX_MISSED_TURNS:
                    await self.store.set_seat(record.id, seat_id, missed_turns=missed,
                                              ai_takeover=True)
                    notes.append(
                        f"{seat_id} missed {missed} turns in a row: the AI plays their "
                        "seat until they press I'm back."
                    )
                else:
                    await self.store.set_seat(record.id, seat_id, missed_turns=missed)
                    notes.append(f"Time ran out for {seat_id}: the AI played their turn.")
            seats = await self.store.seats(record.id)
            more, _ = await self._drive_ai(record, seats, spec, state)
            steps += more
            record = await self.get(timer.game_id)
            state = spec.engine.load_state(record.state or "")
            update = Update("timeout", record, seats, spec, state, steps,
                            spec.engine.result(state), notes)
            await self._sync_timers(record, seats, spec, state)
        await self.publish(update)

    async def set_takeover(self, game_id: int, user_id: int, takeover: bool) -> Update:
        """Hand a member's seat to the AI (``True``, e.g. /game leave) or back ("I'm back")."""
        async with self.lock(game_id):
            record, seats, spec, state = await self.load(game_id)
            seat = self.seat_of(seats, user_id)
            if seat is None:
                raise GameError("not_in_game", "You are not in this game.")
            if record.status != "active":
                raise GameError("not_active", "This game is over.")
            await self.store.set_seat(game_id, seat.seat, ai_takeover=takeover, missed_turns=0)
            seats = await self.store.seats(game_id)
            steps: list[Step] = []
            if takeover:
                steps, _ = await self._drive_ai(record, seats, spec, state)
            record = await self.get(game_id)
            state = spec.engine.load_state(record.state or "")
            update = Update("action", record, seats, spec, state, steps, spec.engine.result(state))
            await self._sync_timers(record, seats, spec, state)
        await self.publish(update)
        return update

    async def end(self, game_id: int, user_id: int, *, manage_guild: bool = False) -> Update:
        """End an active game early (host or Manage Server); no result is recorded."""
        async with self.lock(game_id):
            record = await self.get(game_id)
            if record.status != "active":
                raise GameError("not_active", "This game is not running.")
            if user_id != record.host_id and not manage_guild:
                raise GameError("not_host", "Only the host (or a server manager) can end it.")
            await self.store.update_game(game_id, status="ended")
            await self.timers.cancel(game_id)
            await self.timers.schedule(game_id, "archive", "archive",
                                       self.clock.now() + self.archive_after_s)
            record = await self.get(game_id)
            spec = self.spec_of(record)
            state = spec.engine.load_state(record.state or "")
            update = Update("ended", record, await self.store.seats(game_id), spec, state)
        await self.publish(update)
        return update

    async def return_to_lobby(self, game_id: int) -> Update:
        """Undo the start of a game whose table could not be posted (Discord refused): its
        timers are cancelled and it is a lobby again with the same seats and options, so
        the host can press Start once the cause is fixed. Nothing is published. Raises
        :class:`GameError` (``not_active``) when the game is not running."""
        async with self.lock(game_id):
            await self.timers.cancel(game_id)
            if not await self.store.reset_to_lobby(game_id):
                raise GameError("not_active", "This game is not running.")
            return await self._lobby_update(game_id)

    async def end_without_thread(self, game_id: int) -> Update | None:
        """End an active game whose thread was deleted on Discord: status ``ended``, every
        timer (turn, reminder, rules, archive) cancelled, no result recorded, nothing
        published (there is nowhere to post). Returns the ``ended`` update, or ``None``
        when the game was not active (already ended: nothing done)."""
        async with self.lock(game_id):
            record = await self.store.get_game(game_id)
            if record is None or record.status != "active":
                return None
            await self.store.update_game(game_id, status="ended")
            await self.timers.cancel(game_id)
            record = await self.get(game_id)
            spec = self.spec_of(record)
            state = spec.engine.load_state(record.state) if record.state else None
            return Update("ended", record, await self.store.seats(game_id), spec, state)

    async def system_seat_act(self, game_id: int, action: dict[str, Any]) -> Update:
        """Apply an action as :data:`SYSTEM_SEAT` (used by rules timeouts in tests)."""
        return await self.act(game_id, SYSTEM_SEAT, action)


def _turn_key(pending: Any, humans: list[str]) -> str:
    return f"{pending.kind}:{pending.key}:{','.join(sorted(humans))}"


#: Friendly names for AI seats.
AI_NAMES = ["Pancho", "Dolly", "Cusco", "Nube", "Luna", "Tito", "Perla", "Quinoa"]
