"""The game service's core: its state (store, registry, clock, locks, subscribers), the
limits and timer choices every part uses, and the plumbing - publishing, reading a game
(its row, seats, state and timers, or what a read before the lock gave), quarantining a
game whose saved data does not validate."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from bot.games.base import State
from bot.games.registry import GameSpec, Registry
from bot.i18n import N_, translate
from bot.runtime.clock import Clock
from bot.runtime.supervisor import Supervisor
from bot.runtime.timers import TimerService
from bot.runtime.updates import (
    Derived,
    GameError,
    GameUnreadable,
    Known,
    Note,
    Subscriber,
    Update,
    UpdateKind,
)
from bot.store import (
    STORE_FAILURES,
    GameRecord,
    SeatRecord,
    Store,
    TimerRecord,
    UnreadableRow,
    describe_error,
)

#: The service's log, whichever of its modules writes.
log = logging.getLogger("bot.runtime.service")

#: Turn-timer choices in seconds (``off``: none). UX.md, "Timers".
TURN_TIMERS: dict[str, int | None] = {"off": None, "2m": 120, "10m": 600, "1h": 3600, "24h": 86400}
#: Missed turns in a row after which a seat becomes an AI seat.
MAX_MISSED_TURNS = 3
#: Safety cap on AI moves applied after one human action.
MAX_AI_STEPS = 2000
#: Seconds after it opens that a lobby nobody started closes.
LOBBY_EXPIRES_S = 3600
#: Seconds without a move after which a game ends (where the server allows it), and how
#: long before that its thread is told.
IDLE_END_S = 14 * 86400
IDLE_NOTICE_S = 86400
#: Seconds without a move after which a lesson (``/learn``) ends quietly: one week.
LESSON_IDLE_S = 7 * 86400
#: Whether a server that never chose ends games nobody moves in (``/settings``).
END_IDLE_GAMES_DEFAULT = True
#: How many games' last committed states a process keeps (:meth:`ServiceCore.parsed`).
LATEST_STATES = 1024


#: The note of an ``ended`` update for a game nobody moved in (shown in its thread).
IDLE_ENDED = Note(lambda lang: translate(
    lang, "Nobody has moved for 14 days, so this game has ended; no scores are recorded."))


def is_lesson(record: GameRecord) -> bool:
    """True for a guided lesson (``/learn``): its ``lesson`` option is set. A lesson is
    never rated nor counted in stats, and one nobody moves in ends quietly after
    :data:`LESSON_IDLE_S`."""
    return bool(record.options.get("lesson"))


class Latest(NamedTuple):
    """The last state this process committed for a game: its version, its stored JSON,
    the state object and what was worked out from it (:data:`Derived`)."""

    version: int
    dump: str
    state: State
    derived: Derived


class ServiceCore:
    """The state and plumbing of :class:`bot.runtime.GameService` (which sets it up)."""

    store: Store
    registry: Registry
    clock: Clock
    archive_after_s: float
    supervisor: Supervisor
    timers: TimerService
    quarantined: dict[int, str]
    seed_factory: Callable[[], int]
    serves: Callable[[int | None], bool]
    _locks: weakref.WeakValueDictionary[int, asyncio.Lock]
    _subscribers: list[Subscriber]
    _behind: set[int]
    _stamps: dict[int, int]
    _latest: OrderedDict[int, Latest]

    if TYPE_CHECKING:  # parts of the service defined by its other modules
        def start_catch_up(self, game_id: int | None = None) -> asyncio.Task[None]: ...

        async def expire_lobby(self, game_id: int) -> Update | None: ...

        async def _on_timer(self, timer: TimerRecord) -> None: ...

        async def resync_timers(self, game_id: int) -> None: ...

        async def _fire_take_back_timer(self, timer: TimerRecord) -> None: ...


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
            raise GameError("unknown_game", N_("This game is not available on this bot."))
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
            raise GameError("no_game", N_("That game no longer exists."))
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
            raise GameError("not_started", N_("This game has not started yet."))
        try:
            return spec.engine.load_state(record.state)
        except (ValueError, TypeError, KeyError) as exc:  # pydantic's ValidationError too
            raise self.quarantine(record.id, "state: " + describe_error(exc)) from exc

    def parsed(self, record: GameRecord, spec: GameSpec) -> tuple[State, Derived]:
        """:meth:`parse_state`, and what is worked out from the state: the state this
        process last committed for the game (and its derived values) when ``record``
        stores exactly it, else a new parse with nothing derived yet."""
        latest = self._latest.get(record.id)
        if (latest is not None and latest.version == record.version
                and latest.dump == record.state):
            self._latest.move_to_end(record.id)
            return latest.state, latest.derived
        return self.parse_state(record, spec), {}

    def remember(self, game_id: int, dump: str, state: State, derived: Derived) -> None:
        """Keep ``state`` (stored as ``dump``) as game ``game_id``'s last committed state
        (see :meth:`parsed`); the least recently used game's is dropped past
        :data:`LATEST_STATES`. Only the newest entry keeps its views (``("view", seat)``
        entries, the largest part): the entry remembered before loses them."""
        if self._latest:
            newest = self._latest[next(reversed(self._latest))].derived
            for key in [k for k in newest if k[0] == "view"]:
                del newest[key]
        self._latest[game_id] = Latest(state.version, dump, state, derived)
        self._latest.move_to_end(game_id)
        while len(self._latest) > LATEST_STATES:
            self._latest.popitem(last=False)

    def derived_of(self, game_id: int, state: State) -> Derived:
        """What is worked out from ``state`` so far when it is game ``game_id``'s last
        committed state object (see :meth:`parsed`), else a new empty record."""
        latest = self._latest.get(game_id)
        return latest.derived if latest is not None and latest.state is state else {}

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
        state, _ = self.parsed(record, spec)
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
            raise GameError("no_game", N_("That game no longer exists."))
        spec = self.spec_of(bundle.record)
        if known.state is None:
            known.state, known.derived = self.parsed(bundle.record, spec)
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
                raise GameError("no_game", N_("That game no longer exists.")) from None
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

    async def _lobby_update(self, game_id: int) -> Update:
        record = await self.get(game_id)
        update = Update(UpdateKind.LOBBY, record, await self.seats(game_id), self.spec_of(record))
        return update
