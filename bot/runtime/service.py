"""GameService: load -> lock -> validate -> apply -> persist -> publish.

The only path by which a game changes. Lobby operations (join, leave, add an AI seat,
start, cancel) also live here so that the cogs stay thin.

Several processes (shards) may run a GameService each on one PostgreSQL database, so the
per-game asyncio lock (:meth:`GameService.lock`) is only an optimisation within one
process. What keeps a game consistent is the database: a move commits only if the stored
version is still the one it was computed from (the row is locked ``FOR UPDATE`` in the
move's transaction, :meth:`bot.store.Store.commit_action`), otherwise the click gets
"This table has moved on."; status changes (start, cancel, end, expire) apply only from
the status they expect; and each due timer is claimed by one process (a lease).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.ai.levels import DEFAULT_LEVEL, Level
from bot.games.base import SYSTEM_SEAT, Action, Event, IllegalAction, Result, State
from bot.games.registry import GameSpec, Registry
from bot.runtime.clock import Clock
from bot.runtime.supervisor import Supervisor
from bot.runtime.timers import TimerService
from bot.store import (
    STORE_FAILURES,
    GameBundle,
    GameRecord,
    LobbyLimit,
    SeatRecord,
    StaleVersion,
    Store,
    TimerRecord,
    TimerRow,
    UnreadableRow,
    describe_error,
)

log = logging.getLogger(__name__)

#: Turn-timer choices in seconds (``off``: none). UX.md, "Timers".
TURN_TIMERS: dict[str, int | None] = {"off": None, "2m": 120, "10m": 600, "1h": 3600, "24h": 86400}
#: Missed turns in a row after which a seat becomes an AI seat (issue 7).
MAX_MISSED_TURNS = 3
#: Safety cap on AI moves applied after one human action.
MAX_AI_STEPS = 2000
#: Seconds after it opens that a lobby nobody started closes (issue 14).
LOBBY_EXPIRES_S = 3600
#: Seconds without a move after which a game ends (where the server allows it), and how
#: long before that its thread is told (issue 14).
IDLE_END_S = 14 * 86400
IDLE_NOTICE_S = 86400
#: Whether a server that never chose ends games nobody moves in (``/settings``).
END_IDLE_GAMES_DEFAULT = True


#: The note of an ``ended`` update for a game nobody moved in (shown in its thread).
IDLE_ENDED = "Nobody has moved for 14 days, so this game has ended; no scores are recorded."


@dataclass
class Known:
    """A game as read before its lock was taken (:meth:`GameService.peek`), for
    :meth:`GameService.act` to use instead of reading it again."""

    bundle: GameBundle | None
    #: this process's change count of the game when it was read
    stamp: int
    #: the bundle's state, once parsed (``None``: not yet)
    state: State | None = None


class _StaleRead(Exception):
    """A game read before the lock (``known``) was moved on by another process."""


class GameError(Exception):
    """A refused request, with a ``code`` and a sentence for the player (no secrets)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


#: What a player of a quarantined game sees on any button or command.
UNREADABLE = ("This game's saved data could not be read; the host or a member with Manage "
              "Server can end it with /game end.")
#: The same for a lobby (not started yet): it is closed with its own Cancel button.
UNREADABLE_LOBBY = ("This lobby's saved data could not be read; the host or a member with "
                    "Manage Server can close it with its Cancel button.")


class GameUnreadable(GameError):
    """Game ``game_id``'s stored row, state or seats do not validate (hand-edited, written
    by a newer herdbot, a field missing): the game is quarantined. Code
    ``game_unreadable``; ``reason`` is the one-line validation error (for the log only)."""

    def __init__(self, game_id: int, reason: str, message: str = UNREADABLE) -> None:
        super().__init__("game_unreadable", message)
        self.game_id = game_id
        self.reason = reason


@dataclass
class Step:
    """One applied action: who, what, and the events it produced."""

    seat: str
    action: Action
    events: list[Event]
    by_ai: bool = False
    #: The state's version after this step (``None``: not known).
    version: int | None = None


class UpdateKind(StrEnum):
    """What an :class:`Update` reports (a ``str``: ``UpdateKind.ACTION == "action"``)."""

    #: A lobby changed (a member joined or left, an AI seat, options); no state yet.
    LOBBY = "lobby"
    #: A lobby was closed by its host or a server manager before it started.
    CANCELLED = "cancelled"
    #: The game started: the first table (with any AI moves made before a human decides).
    STARTED = "started"
    #: A member acted (a click, I'm back, a seat handed to the AI), then any AI moves.
    ACTION = "action"
    #: A timer decided for someone: a rules deadline or a turn timer ran out.
    TIMEOUT = "timeout"
    #: Half of the turn timer is gone; ``Update.deadline`` is when it runs out.
    REMINDER = "reminder"
    #: The game was ended early (host, server manager, deleted thread): no scores.
    ENDED = "ended"
    #: The finished or ended game's thread is due to be archived.
    ARCHIVE = "archive"
    #: At start-up (or once writes work again): moves the thread never showed (a crash, a
    #: refused post) and the current table; shown like ``ACTION``.
    CATCHUP = "catchup"
    #: A lobby nobody started in time was closed (its ``lobby`` timer fired).
    EXPIRED = "expired"
    #: Nobody moved for a long time: the game ends in 24 hours unless someone moves.
    IDLE_NOTICE = "idle_notice"


@dataclass
class Update:
    """What the service publishes after a change.

    Attributes:
        kind: what happened (:class:`UpdateKind`).
        record: the game row after the change.
        seats: the seats in turn order.
        spec: the game's registry entry.
        state: the engine state after the change (``None`` for a lobby).
        steps: the actions applied (the human's first, then any AI moves).
        result: the final result when the game just finished.
        notes: extra lines for the thread, naming seats by id like events do (e.g.
            "Time ran out for s1: ..."; the publisher puts in the names); for ``ENDED``,
            why the game ended, said instead of the plain sentence.
        deadline: for a ``REMINDER``, when the turn timer runs out (Unix seconds).
        deadlines: when the game's ``rules`` and ``turn`` timers run out after the change
            (kind -> Unix seconds; a kind without a timer is absent; ``None``: not known,
            the publisher reads them).
        origin: what caused the change, opaque to the runtime: the Discord interaction of
            the click that made it (the publisher answers through it), ``None`` for a
            timer, an AI move or a restart's catch-up.
    """

    kind: UpdateKind
    record: GameRecord
    seats: list[SeatRecord]
    spec: GameSpec
    state: State | None = None
    steps: list[Step] = field(default_factory=list)
    result: Result | None = None
    notes: list[str] = field(default_factory=list)
    deadline: float | None = None
    origin: Any = None
    deadlines: dict[str, float] | None = None

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
        #: Runs the long-lived background work (timers, reconciliation) with restarts.
        self.supervisor = Supervisor(self.clock)
        self.timers = TimerService(store, self.clock, self._on_timer, self.supervisor,
                                   on_dropped=self.resync_timers)
        #: Quarantined games: id -> why their saved data could not be read (logged once).
        self.quarantined: dict[int, str] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._subscribers: list[Subscriber] = []
        #: Where new lobbies get their seed (the demo and tests make it deterministic).
        self.seed_factory: Callable[[], int] = lambda: secrets.randbits(31)
        #: Whether this process serves the games of server ``guild_id`` (``None``: no
        #: server): the start-up catch-up (:meth:`reconcile_timers`) looks only at those,
        #: so that with several processes (shards) each catches up its own servers' games
        #: and none posts a table another process is posting. Default: every server.
        self.serves: Callable[[int | None], bool] = lambda guild_id: True
        #: Games whatever their server whose change this process could not show (a
        #: database failure while showing it): its next catch-up shows them too.
        self._behind: set[int] = set()
        #: game id -> how many changes this process wrote to it: a read made before
        #: (:meth:`peek`) serves :meth:`act` only if the count did not move since.
        self._stamps: dict[int, int] = {}

    # -- plumbing ----------------------------------------------------------------------

    def subscribe(self, handler: Subscriber) -> None:
        """Call ``handler(update)`` after every change (errors are logged, not raised)."""
        self._subscribers.append(handler)

    def unsubscribe(self, handler: Subscriber) -> None:
        """Stop calling ``handler``."""
        if handler in self._subscribers:
            self._subscribers.remove(handler)

    def lock(self, game_id: int) -> asyncio.Lock:
        """The per-game lock of this process (created on demand): it saves this process's
        own concurrent requests a wasted load and a refused commit; correctness across
        processes comes from the database (see the module docstring)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def publish(self, update: Update) -> None:
        """Hand ``update`` to every subscriber. A database failure while one shows it (a
        full disk while its table is recorded) is one WARNING line, and the catch-up shows
        the change again once writes work; during the catch-up itself the failure ends the
        pass (its supervisor logs it once and runs it again after a backoff). Other
        failures are logged with their traceback."""
        for handler in list(self._subscribers):
            try:
                await handler(update)
            except STORE_FAILURES as exc:
                if update.kind == UpdateKind.CATCHUP:
                    raise
                log.warning("game %s: showing %s stopped: database error (%s); the catch-up "
                            "shows it once writes work", update.record.id, update.kind,
                            describe_error(exc))
                self.start_catch_up(update.record.id)
            except Exception:
                log.exception("subscriber failed on %s of game %s", update.kind, update.record.id)

    def spec_of(self, record: GameRecord) -> GameSpec:
        """The registry entry of a game. Raises :class:`GameError` for an unknown kind."""
        spec = self.registry.get(record.kind)
        if spec is None:
            raise GameError("unknown_game", "This game is not available on this bot.")
        return spec

    def quarantine(self, game_id: int, reason: str) -> GameUnreadable:
        """Mark game ``game_id`` unreadable (the log names it and ``reason`` once per
        process) and return the :class:`GameUnreadable` to raise."""
        if game_id not in self.quarantined:
            self.quarantined[game_id] = reason
            log.warning("game %d quarantined: its saved data could not be read (%s); its "
                        "players are told, and the host can end it with /game end",
                        game_id, reason)
        return GameUnreadable(game_id, self.quarantined[game_id])

    def note_unreadable(self) -> None:
        """Quarantine the games the store's listings skipped (see ``Store.unreadable``)."""
        for game_id, reason in list(self.store.unreadable.items()):
            self.quarantine(game_id, reason)

    async def get(self, game_id: int) -> GameRecord:
        """The game row. Raises :class:`GameError` (``no_game``) when it does not exist and
        :class:`GameUnreadable` when its row does not validate."""
        try:
            record = await self.store.get_game(game_id)
        except UnreadableRow as exc:
            raise self.quarantine(game_id, exc.reason) from exc
        if record is None:
            raise GameError("no_game", "That game no longer exists.")
        return record

    async def seats(self, game_id: int) -> list[SeatRecord]:
        """The game's seats in turn order. Raises :class:`GameUnreadable` when a seat row
        does not validate."""
        try:
            return await self.store.seats(game_id)
        except UnreadableRow as exc:
            raise self.quarantine(game_id, exc.reason) from exc

    def parse_state(self, record: GameRecord, spec: GameSpec) -> State:
        """The engine state of a started game. Raises :class:`GameUnreadable` when the
        stored JSON does not validate (and ``not_started`` for a lobby)."""
        if record.state is None:
            raise GameError("not_started", "This game has not started yet.")
        try:
            return spec.engine.load_state(record.state)
        except (ValueError, TypeError, KeyError) as exc:  # pydantic's ValidationError too
            raise self.quarantine(record.id, "state: " + describe_error(exc)) from exc

    async def load(self, game_id: int, record: GameRecord | None = None
                   ) -> tuple[GameRecord, list[SeatRecord], GameSpec, State]:
        """Record, seats, spec and parsed state of a started game (``record``: the game's
        row as just read by the caller, not read again). Raises :class:`GameUnreadable`
        when any of them does not validate."""
        if game_id in self.quarantined:
            raise GameUnreadable(game_id, self.quarantined[game_id])
        if record is None:
            record = await self.get(game_id)
        spec = self.spec_of(record)
        state = self.parse_state(record, spec)
        return record, await self.seats(game_id), spec, state

    async def peek(self, game_id: int) -> Known:
        """The game as stored now (:meth:`Store.load_game`, one query; ``None``: no such
        game) and this process's change count of it, to hand to :meth:`act` as
        ``known``. Raises :class:`GameUnreadable` when the row or a seat does not
        validate."""
        stamp = self._stamps.get(game_id, 0)
        try:
            return Known(await self.store.load_game(game_id), stamp)
        except UnreadableRow as exc:
            raise self.quarantine(game_id, exc.reason) from exc

    async def read(self, game_id: int, known: Known | None = None
                   ) -> tuple[GameRecord, list[SeatRecord], GameSpec, State,
                              dict[str, TimerRecord]]:
        """Record, seats, spec, parsed state and timers of a started game, in one query,
        or from ``known`` (:meth:`peek`) when this process changed nothing since. Raises
        :class:`GameError` (``no_game``) and :class:`GameUnreadable` as :meth:`load`."""
        if game_id in self.quarantined:
            raise GameUnreadable(game_id, self.quarantined[game_id])
        if known is None or known.bundle is None or known.stamp != self._stamps.get(game_id, 0):
            known = await self.peek(game_id)
        bundle = known.bundle
        if bundle is None:
            raise GameError("no_game", "That game no longer exists.")
        spec = self.spec_of(bundle.record)
        if known.state is None:
            known.state = self.parse_state(bundle.record, spec)
        return bundle.record, bundle.seats, spec, known.state, bundle.timers

    def changed(self, game_id: int) -> None:
        """Note that this process wrote a change of game ``game_id`` (see :meth:`peek`)."""
        self._stamps[game_id] = self._stamps.get(game_id, 0) + 1

    async def record_or_stub(self, game_id: int) -> GameRecord:
        """The game row, or for a row that does not validate a stand-in built from the
        columns that can be read (no options, state or seed). Raises ``no_game``."""
        try:
            return await self.get(game_id)
        except GameUnreadable:
            header = await self.store.game_header(game_id)
            if header is None:
                raise GameError("no_game", "That game no longer exists.") from None
            now = self.clock.now()
            return GameRecord(
                id=game_id, kind=header.kind or "", guild_id=header.guild_id,
                channel_id=header.channel_id, thread_id=header.thread_id,
                lobby_message_id=None, table_message_id=header.table_message_id,
                host_id=header.host_id or 0, status=header.status or "active", options={},
                seed=0, state=None, version=0, created_at=now, updated_at=now,
            )

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
        expires_at = self.clock.now() + LOBBY_EXPIRES_S
        try:
            record = await self.store.create_game(
                kind=kind,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                host_name=host_name,
                options={**(options or {}), "expires_at": expires_at},
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
        await self.timers.schedule(record.id, "lobby", "expire", expires_at)
        update = Update(UpdateKind.LOBBY, record, await self.seats(record.id), spec)
        return update

    async def _lobby(self, game_id: int) -> tuple[GameRecord, GameSpec, list[SeatRecord]]:
        try:
            record = await self.get(game_id)
            if record.status != "lobby":
                raise GameError("not_lobby",
                                "This lobby is closed: the game has started or ended.")
            return record, self.spec_of(record), await self.seats(game_id)
        except GameUnreadable as exc:
            header = await self.store.game_header(game_id)
            if header is not None and header.status == "lobby":
                raise GameUnreadable(game_id, exc.reason, UNREADABLE_LOBBY) from exc
            raise

    async def join(self, game_id: int, user_id: int, name: str) -> Update:
        """Seat ``user_id`` in the lobby. Refused when already seated or full."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            if self.seat_of(seats, user_id):
                raise GameError("already_joined", "You are already in this lobby.")
            if len(seats) >= spec.max_players:
                raise GameError("full", f"This table is full ({spec.max_players} players).")
            if await self.store.add_seat(
                game_id, user_id=user_id, name=name, is_ai=False, max_seats=spec.max_players
            ) is None:  # another process seated someone, or started or closed the lobby
                await self._seat_refused(game_id, spec, user_id)
            return await self._lobby_update(game_id)

    async def _seat_refused(self, game_id: int, spec: GameSpec, user_id: int | None) -> None:
        """Raise why the store did not add a seat (its row-locked check saw a change made
        meanwhile, e.g. by another process): lobby closed, already seated, or full."""
        record, _, seats = await self._lobby(game_id)  # raises not_lobby
        if user_id is not None and self.seat_of(seats, user_id):
            raise GameError("already_joined", "You are already in this lobby.")
        raise GameError("full", f"This table is full ({spec.max_players} players).")

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

    async def add_ai(self, game_id: int, user_id: int, level: str = DEFAULT_LEVEL) -> Update:
        """Add an AI seat playing at ``level`` (a :class:`~bot.ai.levels.Level` value; host
        only). Refused (``no_level``) for a level the game does not offer."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            if user_id != record.host_id:
                raise GameError("not_host", "Only the host can add AI seats.")
            if len(seats) >= spec.max_players:
                raise GameError("full", f"This table is full ({spec.max_players} players).")
            if spec.policy is None:
                raise GameError("no_ai", "This game has no AI players yet.")
            if level not in spec.offered_levels():
                label = Level(level).label if level in {lv.value for lv in Level} else "that"
                raise GameError("no_level", f"{spec.name} has no {label} AI players yet.")
            n = sum(1 for s in seats if s.is_ai) + 1
            if await self.store.add_seat(
                game_id, user_id=None, name=f"AI {AI_NAMES[(n - 1) % len(AI_NAMES)]}",
                is_ai=True, max_seats=spec.max_players, ai_level=str(level),
            ) is None:
                await self._seat_refused(game_id, spec, None)
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
            if not await self.store.update_game(game_id, when_status="lobby",
                                                options={**record.options, **options}):
                raise GameError("not_lobby",  # another process started or closed it
                                "This lobby is closed: the game has started or ended.")
            return await self._lobby_update(game_id)

    async def cancel(self, game_id: int, user_id: int, *, manage_guild: bool = False) -> Update:
        """Close a lobby (host, or a member with Manage Server). A quarantined lobby (its
        row or seats do not validate) can be closed too: its update then has no seats.
        Raises ``not_lobby`` when it is not a lobby, ``not_host`` for anyone else."""
        async with self.lock(game_id):
            record = await self.record_or_stub(game_id)
            if record.status != "lobby":
                raise GameError("not_lobby",
                                "This lobby is closed: the game has started or ended.")
            if user_id != record.host_id and not manage_guild:
                raise GameError("not_host", "Only the host (or a server manager) can cancel.")
            try:
                seats = await self.seats(game_id)
            except GameUnreadable:
                seats = []
            spec = self.spec_of(record)
            if not await self.store.update_game(game_id, when_status="lobby",
                                                status="cancelled"):
                raise GameError("not_lobby",  # another process started or closed it
                                "This lobby is closed: the game has started or ended.")
            await self.timers.cancel(game_id, "lobby")
            record = await self.record_or_stub(game_id)
            update = Update(UpdateKind.CANCELLED, record, seats, spec)
        await self.publish(update)
        return update

    async def expire_lobby(self, game_id: int) -> Update | None:
        """Close the lobby ``game_id`` nobody started in time (its ``lobby`` timer fired):
        status ``cancelled``, then an ``expired`` update is published (the lobby message
        says so and loses its buttons). ``None`` when it is no longer a lobby."""
        async with self.lock(game_id):
            try:
                record = await self.record_or_stub(game_id)
            except GameError:
                return None
            spec = self.registry.get(record.kind)
            if record.status != "lobby" or spec is None:
                return None
            try:
                seats = await self.seats(game_id)
            except GameUnreadable:
                seats = []
            if not await self.store.update_game(game_id, when_status="lobby",
                                                status="cancelled"):
                return None  # another process started or closed it meanwhile
            update = Update(UpdateKind.EXPIRED, await self.record_or_stub(game_id), seats, spec)
        await self.publish(update)
        return update

    async def _lobby_update(self, game_id: int) -> Update:
        record = await self.get(game_id)
        update = Update(UpdateKind.LOBBY, record, await self.seats(game_id), self.spec_of(record))
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
            try:
                await self.store.start_game(game_id, state=state.model_dump_json(),
                                            version=state.version)
            except StaleVersion as exc:  # another process started or closed it first
                raise GameError("not_lobby", "This lobby is closed: the game has started or "
                                "ended.") from exc
            self.changed(game_id)
            record = await self.get(game_id)
            # the first AI moves, the timers, the lobby's expiry gone: one transaction
            update = await self._advance(UpdateKind.STARTED, record, seats, spec, {}, state,
                                         state, [], drop=("lobby",))
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
        action: Action | dict[str, Any] | Callable[[State], Action],
        expected_version: int | None = None,
        *,
        origin: Any = None,
        known: Known | None = None,
    ) -> Update:
        """Apply ``action`` for ``seat``; then let AI seats move until a human must decide;
        then publish the update (always; ``origin`` travels with it, see :class:`Update`).
        A callable ``action`` is called with the stored state under the game's lock and
        returns the action (a clicked choice decoded against the state it applies to; it
        may raise :class:`GameError`, e.g. ``stale``).

        ``known``: the game as the caller just read it (:meth:`peek`), used instead of
        reading it again unless this process changed the game since (a game another
        process moved meanwhile is read again and the click decoded again).

        The human's move, the AI's moves, the seat's missed turns, the timers and the stats
        are written in one transaction (:meth:`_advance`).

        Raises :class:`GameError`: ``stale`` when ``expected_version`` is not the stored
        version (an old button), ``not_active`` when the game is over, or the engine's
        :class:`IllegalAction` code and sentence. On any refusal nothing changes.
        """
        async with self.lock(game_id):
            try:
                update = await self._act(game_id, seat, action, expected_version, origin, known)
            except _StaleRead:  # the game read before changed elsewhere: read it now
                update = await self._act(game_id, seat, action, expected_version, origin, None)
        await self.publish(update)
        return update

    async def _act(self, game_id: int, seat: str,
                   action: Action | dict[str, Any] | Callable[[State], Action],
                   expected_version: int | None, origin: Any,
                   known: Known | None) -> Update:
        """:meth:`act` under the game's lock. Raises :class:`_StaleRead` when ``known``
        served and the commit found the stored game moved on."""
        record, seats, spec, state, timers = await self.read(game_id, known)
        used = known is not None and known.bundle is not None and record is known.bundle.record
        if record.status != "active":
            raise GameError("not_active", "This game is over.")
        if expected_version is not None and expected_version != record.version:
            raise GameError("stale", "This table has moved on.")
        engine = spec.engine
        try:
            if callable(action):
                action = action(state)
            parsed = engine.parse_action(action) if isinstance(action, dict) else action
            new_state, events = engine.apply(state, seat, parsed)
        except IllegalAction as exc:
            raise GameError(exc.code, exc.message) from exc
        reset = any(s.seat == seat and s.missed_turns for s in seats)
        try:
            return await self._advance(
                UpdateKind.ACTION, record, seats, spec, timers, state, new_state,
                [Step(seat, parsed, events, version=new_state.version)],
                seat_flags={seat: {"missed_turns": 0}} if reset else None, origin=origin)
        except GameError as exc:
            if exc.code == "stale" and used:
                raise _StaleRead from exc
            raise

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
        ``seat_flags``, the stats of a final move, and the timers the new state calls for
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
        stats = None
        if status and record.guild_id is not None:
            rows = self._result_rows(seats, result)  # type: ignore[arg-type]
            stats = (record.guild_id, spec.key, rows) if rows else None
        moves = [(s.version, s.seat, s.action.model_dump(mode="json"),
                  [e.model_dump(mode="json") for e in s.events]) for s in steps]
        if moves or seat_flags or put or gone:
            dump = state.model_dump_json() if moves else None
            try:
                updated_at, _ = await self.store.commit_moves(
                    record.id, expected_version=base.version, state=dump,
                    moves=moves,  # type: ignore[arg-type]
                    status=status, result=stats, seats=seat_flags, timers=put,
                    drop_timers=gone)
            except StaleVersion as exc:
                raise GameError("stale", "This table has moved on.") from exc
            self.changed(record.id)
            self.timers.armed([t[3] for t in put])
            if moves:
                after = after.model_copy(update={"state": dump, "version": state.version,
                                                 "updated_at": updated_at})
        due = {k: t.due_at for k, t in timers.items() if k not in gone}
        due.update({t[1]: float(t[3]) for t in put})
        return Update(kind, after, seats, spec, state, [*(done or []), *steps], result,
                      list(notes or []), origin=origin,
                      deadlines={k: v for k, v in due.items() if k in ("rules", "turn")})

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
        # move (a new version) starts the count again.
        idle = timers.get("idle")
        if idle is None or idle.payload.get("version") != state.version:
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
            turn_key = _turn_key(pending, humans)
            current = timers.get("turn")
            if current is None or current.payload.get("turn_key") != turn_key:
                put += [(gid, "turn", key, now + seconds, {"seats": humans, "turn_key": turn_key}),
                        (gid, "remind", key, now + seconds / 2,
                         {"seats": humans, "turn_key": turn_key, "deadline": now + seconds})]
        else:
            gone |= {"turn", "remind"} & timers.keys()
        return put, gone

    async def result_rows(self, game_id: int, result: Result) -> list[tuple[int, bool, int]]:
        """The stats rows of a finished game: ``(user_id, won, score)`` of every member
        seated (a seat the AI took over counts as played, never as won)."""
        rows = []
        for seat in await self.seats(game_id):
            if seat.user_id is None or seat.is_ai:
                continue
            won = seat.seat in result.winners and not seat.ai_takeover
            rows.append((seat.user_id, won, result.scores.get(seat.seat, 0)))
        return rows

    @staticmethod
    def _result_rows(seats: list[SeatRecord], result: Result) -> list[tuple[int, bool, int]]:
        """:meth:`result_rows` from seats in hand."""
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
        return policy(spec.engine.view(state, seat), legal, rand)

    async def ai_choice(self, spec: GameSpec, state: State, seats: list[SeatRecord],
                        seat: str) -> Action | None:
        """:meth:`ai_action` at the seat's level (:meth:`ai_level`), run in a worker
        thread so a slow decision (a Hard search) never blocks the event loop. The state
        is not changed meanwhile: the caller holds the game's lock."""
        return await asyncio.to_thread(self.ai_action, spec, state, seat,
                                       self.ai_level(seats, seat))

    async def _drive_ai(self, seats: list[SeatRecord], spec: GameSpec, state: State
                        ) -> tuple[list[Step], State]:
        """The AI seats' moves from ``state`` until a human must decide or the game ends,
        applied in memory (each decided off the loop, :meth:`ai_choice`); the steps and
        the state after them."""
        steps: list[Step] = []
        for _ in range(MAX_AI_STEPS):
            if spec.engine.result(state) is not None:
                break
            pending = spec.engine.pending(state)
            seat = next((s for s in pending.seats if self.is_ai(seats, s)), None)
            if seat is None:
                break
            action = await self.ai_choice(spec, state, seats, seat)
            if action is None:
                break
            state, events = spec.engine.apply(state, seat, action)
            steps.append(Step(seat, action, events, by_ai=True, version=state.version))
        return steps, state

    # -- timers ------------------------------------------------------------------------

    def turn_timer_seconds(self, record: GameRecord) -> int | None:
        """The game's turn timer in seconds (``None``: off), from its options."""
        return TURN_TIMERS.get(str(record.options.get("turn_timer", "off")))

    async def reconcile_timers(self) -> int:
        """Start-up catch-up (in the background, under the supervisor); returns the active
        games checked.

        For every active game: the AI seats that must move are played (a write that failed
        after a stored move left them waiting), and the timers its state calls for are armed
        (a process killed between a commit and its timers left none). Every active or
        finished game whose posted table shows an older version than the stored one (a
        crash or a refused post between storing a move and posting its table) gets a
        ``catchup`` update: the moves its thread never saw and the current table, published
        once (the posted version is stored with the table, so a second start posts
        nothing). Every open lobby gets its expiry timer if it has none. Only the games of
        servers this process serves (:attr:`serves`) are looked at, and the games of any
        server whose change this process failed to show (:meth:`start_catch_up` with a
        game id: a DM click reaches shard 0 whatever the game's server; one noted while
        the pass runs is caught up before it ends). A game is caught
        up under :meth:`Store.catching_up`, so two processes never post its table twice.

        A game whose saved data does not validate is quarantined (logged once) and skipped;
        a database error ends the pass (its supervisor runs it again after a backoff).
        """
        checked = await self._catch_up_games(everything=True)
        while self._behind:  # a game noted behind after this pass had listed its games
            checked += await self._catch_up_games(everything=False)
        for lobby in await self.store.games_with_status("lobby"):
            if self.serves(lobby.guild_id) and await self.store.timer(lobby.id, "lobby") is None:
                due = lobby.options.get("expires_at", lobby.created_at + LOBBY_EXPIRES_S)
                await self.timers.schedule(lobby.id, "lobby", "expire", float(due))
        self.note_unreadable()
        return checked

    async def _catch_up_games(self, *, everything: bool) -> int:
        """One catch-up pass (see :meth:`reconcile_timers`) over the games noted behind
        and, with ``everything``, every active or behind game this process serves; returns
        the active games checked."""
        checked = 0
        behind = set(self._behind)
        records = [r for r in [*await self.store.games_with_status("active"),
                               *await self.store.finished_games_behind()]
                   if (everything and self.serves(r.guild_id)) or r.id in behind]
        self.note_unreadable()
        for record in records:
            update: Update | None = None
            async with self.store.catching_up(record.id):
                async with self.lock(record.id):
                    try:
                        update = await self._reconcile_game(record.id)
                    except GameUnreadable:
                        continue
                    if record.status == "active":
                        checked += 1
                if update is not None:
                    await self.publish(update)
        self._behind -= behind
        return checked

    #: The name of the supervised catch-up job (:meth:`start_catch_up`).
    CATCH_UP_JOB = "herdbot-reconcile-timers"

    def start_catch_up(self, game_id: int | None = None) -> asyncio.Task[None]:
        """Run :meth:`reconcile_timers` once in the background under the supervisor (at
        start-up, and after a write failed midway through a request); a failure (a full
        disk) is logged once and retried with backoff until it succeeds. A run already
        under way is returned as is. ``game_id``: a game whose change this process failed
        to show, caught up by this process whichever server (shard) it is on."""
        if game_id is not None:
            self._behind.add(game_id)
        return self.supervisor.start(self.CATCH_UP_JOB, self.reconcile_timers, forever=False)

    async def resync_timers(self, game_id: int) -> None:
        """Re-arm the timers of game ``game_id`` from its state (after one of its timer
        rows was dropped as unreadable): an open lobby gets its expiry back, an active game
        its turn, reminder, rules and idle timers. Quarantined games are skipped."""
        async with self.lock(game_id):
            try:
                record = await self.get(game_id)
                if record.status == "lobby":
                    due = record.options.get("expires_at", record.created_at + LOBBY_EXPIRES_S)
                    await self.timers.schedule(game_id, "lobby", "expire", float(due))
                elif record.status == "active" and record.state is not None:
                    record, seats, spec, state, timers = await self.read(game_id)
                    # A turn timer and its reminder go together: both start again.
                    kept = {k: t for k, t in timers.items() if k not in ("turn", "remind")}
                    await self._advance(UpdateKind.ACTION, record, seats, spec, kept, state,
                                        state, [], drive=False, drop=("turn", "remind"))
            except GameError:
                return

    async def _reconcile_game(self, game_id: int) -> Update | None:
        """One game of :meth:`reconcile_timers` (under its lock): the ``catchup`` update
        to publish, or ``None`` when its posted table is current."""
        bundle = (await self.peek(game_id)).bundle
        if bundle is None:
            raise GameError("no_game", "That game no longer exists.")
        record, seats, timers = bundle
        if record.status not in ("active", "finished") or record.state is None:
            return None
        spec = self.registry.get(record.kind)
        if spec is None:
            return None
        state = self.parse_state(record, spec)
        deadlines = None
        if record.status == "active":
            moved = await self._advance(UpdateKind.CATCHUP, record, seats, spec, timers,
                                        state, state, [])
            record, state, deadlines = moved.record, moved.state or state, moved.deadlines
        if record.table_version is not None and record.table_version >= record.version:
            return None
        shown = record.table_version or 0
        missed: list[Step] = []
        for row in await self.store.actions(game_id):
            if row.version > shown:
                try:
                    action = spec.engine.parse_action(row.action)
                    events = [Event.model_validate(e) for e in row.events]
                except (ValueError, TypeError, IllegalAction):
                    continue  # a log row this engine cannot read: its events are not retold
                missed.append(Step(row.seat, action, events))
        log.info("game %d: its posted table shows move %s of %d; posting the current one",
                 game_id, record.table_version, record.version)
        return Update(UpdateKind.CATCHUP, record, seats, spec, state, missed,
                      spec.engine.result(state), deadlines=deadlines)

    async def deadline(self, game_id: int, kind: str = "rules") -> float | None:
        """Unix time at which the game's ``kind`` timer fires, or ``None``."""
        timer = await self.store.timer(game_id, kind)
        return timer.due_at if timer else None

    async def _on_timer(self, timer: TimerRecord) -> None:
        try:
            await self._fire_timer(timer)
        except GameUnreadable:
            # Quarantined (and logged once): the timer goes; reconciliation re-derives the
            # game's timers at the next start if its data is repaired.
            return
        except GameError as exc:
            if exc.code != "stale":
                raise
            # Another process (or a click) moved the game first: the decision this timer
            # timed out is gone, and whoever moved armed the timers of the new one.
            log.info("timer %s of game %d: the game moved on before it fired", timer.kind,
                     timer.game_id)

    async def _fire_timer(self, timer: TimerRecord) -> None:
        if timer.kind == "rules":
            await self._fire_rules_timer(timer)
        elif timer.kind == "turn":
            await self._fire_turn_timer(timer)
        elif timer.kind == "archive":
            # Archiving needs only the thread: it works for a quarantined game too.
            try:
                record = await self.record_or_stub(timer.game_id)
            except GameError:
                return
            spec = self.registry.get(record.kind)
            if spec is not None:
                await self.publish(Update(UpdateKind.ARCHIVE, record, [], spec))
        elif timer.kind == "lobby":
            await self.expire_lobby(timer.game_id)
        elif timer.kind == "idle":
            await self._fire_idle_timer(timer)
        elif timer.kind == "remind":
            record = await self.get(timer.game_id)
            spec = self.spec_of(record)
            state = self.parse_state(record, spec) if record.state else None
            if timer.kind == "remind":
                if record.status != "active" or state is None:
                    return
                pending = spec.engine.pending(state)
                seats = await self.seats(record.id)
                humans = [s for s in pending.seats if not self.is_ai(seats, s)]
                if timer.payload.get("turn_key") != _turn_key(pending, humans):
                    return
                due = timer.payload.get("deadline")
                update = Update(UpdateKind.REMINDER, record, seats, spec, state,
                                deadline=float(due) if due is not None else None)
                await self.publish(update)

    async def ends_idle_games(self, guild_id: int | None) -> bool:
        """Whether server ``guild_id`` ends games nobody moved in for 14 days (its
        ``/settings`` choice, else :data:`END_IDLE_GAMES_DEFAULT`)."""
        if guild_id is None:
            return END_IDLE_GAMES_DEFAULT
        chosen = (await self.store.guild_settings(guild_id)).end_idle_games
        return END_IDLE_GAMES_DEFAULT if chosen is None else chosen

    async def _fire_idle_timer(self, timer: TimerRecord) -> None:
        """The ``idle`` timer: at its ``notice`` stage the thread is told the game ends in
        24 hours (``idle_notice`` update) and the ``end`` stage is armed; at ``end`` the
        game ends (``ended`` update with a note, no scores recorded). Nothing happens when
        a move was made since (another version), and where the server turned the setting
        off the timer looks again a day later.

        The 24 hours count from the moment the notice was handed out: the ``end`` stage
        is armed before the notice goes out (a crash while telling the thread still ends
        the game) and armed again, ``IDLE_NOTICE_S`` from the clock's time then, once the
        notice is out, unless a move or an end replaced it meanwhile."""
        update: Update | None = None
        armed: TimerRecord | None = None
        async with self.lock(timer.game_id):
            record, seats, spec, state = await self.load(timer.game_id)
            version = timer.payload.get("version")
            if record.status != "active" or record.version != version:
                return
            if not await self.ends_idle_games(record.guild_id):
                await self.timers.schedule(record.id, "idle", f"off:{version}",
                                           self.clock.now() + 86400,
                                           {"stage": "notice", "version": version})
                return
            end_payload = {"stage": "end", "version": version}
            if timer.payload.get("stage") != "end":
                # The clock is read after every await above: a time read before them may
                # already lie a day in the past (a starved loop, a test's manual clock).
                armed = await self.timers.schedule(record.id, "idle", f"end:{version}",
                                                   self.clock.now() + IDLE_NOTICE_S,
                                                   end_payload)
                update = Update(UpdateKind.IDLE_NOTICE, record, seats, spec, state)
            else:
                now = self.clock.now()
                if not await self.store.update_game(record.id, when_status="active",
                                                    status="ended"):
                    return
                await self.timers.cancel(record.id)
                self.changed(record.id)
                await self.timers.schedule(record.id, "archive", "archive",
                                           now + self.archive_after_s)
                log.info("game %d ended: no move for %d days", record.id, IDLE_END_S // 86400)
                update = Update(UpdateKind.ENDED, await self.get(record.id), seats, spec, state,
                                notes=[IDLE_ENDED])
        if update is None:
            return
        await self.publish(update)
        if armed is None:
            return
        async with self.lock(timer.game_id):
            due = self.clock.now() + IDLE_NOTICE_S
            # Later than armed, and still the end armed above (no move re-armed the
            # notice, no end removed it)?
            if due > armed.due_at and await self.store.timer(timer.game_id, "idle") == armed:
                await self.timers.schedule(armed.game_id, "idle", armed.key, due, end_payload)

    async def _fire_rules_timer(self, timer: TimerRecord) -> None:
        async with self.lock(timer.game_id):
            record, seats, spec, state, timers = await self.read(timer.game_id)
            if record.status != "active" or spec.engine.pending(state).key != timer.key:
                return
            steps: list[Step] = []
            new = state
            for raw in timer.payload.get("timeouts", []):
                seat = raw["seat"]
                try:
                    action = spec.engine.parse_action(raw["action"])
                    new, events = spec.engine.apply(new, seat, action)
                except IllegalAction:
                    continue
                steps.append(Step(seat, action, events, version=new.version))
            update = await self._advance(UpdateKind.TIMEOUT, record, seats, spec, timers,
                                         state, new, steps)
        await self.publish(update)

    async def _fire_turn_timer(self, timer: TimerRecord) -> None:
        async with self.lock(timer.game_id):
            record, seats, spec, state, timers = await self.read(timer.game_id)
            pending = spec.engine.pending(state)
            if record.status != "active":
                return
            humans = [s for s in pending.seats if not self.is_ai(seats, s)]
            if timer.payload.get("turn_key") != _turn_key(pending, humans):
                return
            steps: list[Step] = []
            late: list[str] = list(timer.payload.get("seats", []))
            new = state
            for seat_id in late:
                # The AI plays this seat's decisions until it no longer has to decide.
                for _ in range(50):
                    if seat_id not in spec.engine.pending(new).seats:
                        break
                    action = await self.ai_choice(spec, new, seats, seat_id)
                    if action is None:
                        break
                    new, events = spec.engine.apply(new, seat_id, action)
                    steps.append(Step(seat_id, action, events, by_ai=True, version=new.version))
            # The moves and the missed turns in one transaction, the missed turns counted
            # from the stored counts (another process may have changed one since ``seats``
            # was read): whether the AI now plays a seat decides the moves that follow.
            moves = [(s.version, s.seat, s.action.model_dump(mode="json"),
                      [e.model_dump(mode="json") for e in s.events]) for s in steps]
            result = spec.engine.result(new) if moves else None
            stats = None
            if result is not None and record.guild_id is not None:
                rows = self._result_rows(seats, result)
                stats = (record.guild_id, spec.key, rows) if rows else None
            try:
                updated_at, missed = await self.store.commit_moves(
                    record.id, expected_version=state.version,
                    state=new.model_dump_json() if moves else None,
                    moves=moves,  # type: ignore[arg-type]
                    status="finished" if result is not None else None, result=stats,
                    missed_turns=(late, MAX_MISSED_TURNS))
            except StaleVersion as exc:
                raise GameError("stale", "This table has moved on.") from exc
            self.changed(record.id)
            if moves:
                record = record.model_copy(update={
                    "state": new.model_dump_json(), "version": new.version,
                    "updated_at": updated_at,
                    "status": "finished" if result is not None else record.status})
            notes: list[str] = []
            for seat_id in late:
                count = missed.get(seat_id, 0)
                if count >= MAX_MISSED_TURNS:
                    notes.append(
                        f"{seat_id} missed {count} turns in a row: the AI plays their "
                        "seat until they press I'm back."
                    )
                else:
                    notes.append(f"Time ran out for {seat_id}: the AI played their turn.")
            seats = [s.model_copy(update={
                "missed_turns": missed[s.seat],
                "ai_takeover": s.ai_takeover or missed[s.seat] >= MAX_MISSED_TURNS})
                if s.seat in missed else s for s in seats]
            update = await self._advance(UpdateKind.TIMEOUT, record, seats, spec, timers, new,
                                         new, [], notes=notes, done=steps)
        await self.publish(update)

    async def set_takeover(self, game_id: int, user_id: int, takeover: bool) -> Update:
        """Hand a member's seat to the AI (``True``, e.g. /game leave) or back ("I'm back")."""
        async with self.lock(game_id):
            record, seats, spec, state, timers = await self.read(game_id)
            seat = self.seat_of(seats, user_id)
            if seat is None:
                raise GameError("not_in_game", "You are not in this game.")
            if record.status != "active":
                raise GameError("not_active", "This game is over.")
            update = await self._advance(
                UpdateKind.ACTION, record, seats, spec, timers, state, state, [],
                seat_flags={seat.seat: {"ai_takeover": takeover, "missed_turns": 0}},
                drive=takeover)
        await self.publish(update)
        return update

    async def end(self, game_id: int, user_id: int, *, manage_guild: bool = False) -> Update | None:
        """End an active game early (host or Manage Server); no result is recorded.

        Works for a quarantined game too (its state is never loaded): the update then has
        no seats and ``state`` ``None``; ``None`` is returned (nothing published) when that
        game's kind is not one this bot knows.
        """
        async with self.lock(game_id):
            record = await self.record_or_stub(game_id)
            unreadable = game_id in self.quarantined
            if record.status != "active":
                raise GameError("not_active", "This game is not running.")
            if user_id != record.host_id and not manage_guild:
                raise GameError("not_host", "Only the host (or a server manager) can end it.")
            if not await self.store.update_game(game_id, when_status="active", status="ended"):
                raise GameError("not_active", "This game is not running.")
            await self.timers.cancel(game_id)
            self.changed(game_id)
            await self.timers.schedule(game_id, "archive", "archive",
                                       self.clock.now() + self.archive_after_s)
            if unreadable:
                record = await self.record_or_stub(game_id)
                log.info("quarantined game %d ended by member %d", game_id, user_id)
                known = self.registry.get(record.kind)
                if known is None:
                    return None
                update = Update(UpdateKind.ENDED, record, [], known)
            else:
                record = await self.get(game_id)
                spec = self.spec_of(record)
                state = spec.engine.load_state(record.state or "")
                update = Update(UpdateKind.ENDED, record, await self.seats(game_id), spec, state)
        await self.publish(update)
        return update

    async def return_to_lobby(self, game_id: int) -> Update:
        """Undo the start of a game whose table could not be posted (Discord refused): its
        timers are cancelled and it is a lobby again with the same seats and options, so
        the host can press Start once the cause is fixed. Nothing is published. Raises
        :class:`GameError` (``not_active``) when the game is not running."""
        async with self.lock(game_id):
            await self.timers.cancel(game_id)
            self.changed(game_id)
            if not await self.store.reset_to_lobby(game_id):
                raise GameError("not_active", "This game is not running.")
            record = await self.get(game_id)
            expires_at = self.clock.now() + LOBBY_EXPIRES_S
            await self.store.update_game(game_id, options={**record.options,
                                                           "expires_at": expires_at})
            await self.timers.schedule(game_id, "lobby", "expire", expires_at)
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
            if not await self.store.update_game(game_id, when_status="active", status="ended"):
                return None
            await self.timers.cancel(game_id)
            self.changed(game_id)
            record = await self.get(game_id)
            spec = self.spec_of(record)
            state = spec.engine.load_state(record.state) if record.state else None
            return Update(UpdateKind.ENDED, record, await self.store.seats(game_id), spec, state)

    async def system_seat_act(self, game_id: int, action: dict[str, Any]) -> Update:
        """Apply an action as :data:`SYSTEM_SEAT` (used by rules timeouts in tests)."""
        return await self.act(game_id, SYSTEM_SEAT, action)


def _turn_key(pending: Any, humans: list[str]) -> str:
    return f"{pending.kind}:{pending.key}:{','.join(sorted(humans))}"


#: Friendly names for AI seats.
AI_NAMES = ["Pancho", "Dolly", "Cusco", "Nube", "Luna", "Tito", "Perla", "Quinoa"]
