"""Take-backs with the table's consent: a player asks to take back their last move, every
other member answers Allow or Refuse within :data:`TAKE_BACK_S` seconds (AI seats allow),
and the take-back is applied as a logged action (:mod:`bot.games.takeback`).

A request is the game's ``takeback`` timer (one per game, so one request at a time): its
payload is the :class:`TakeBackRequest`. When it fires nobody (or not everybody) answered
in time: a refusal, nothing changes. A request is about one version: any move makes it
void. Which moves may be taken back is each engine's rule
(:meth:`~bot.games.base.Engine.take_back_point`); the runtime adds that the move is the
asker's and the game's last.
"""

from __future__ import annotations

import asyncio
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.games.base import State
from bot.games.registry import GameSpec
from bot.games.takeback import (
    TakeBack,
    is_take_back,
    parse_logged,
    replay_log,
    take_back_event,
    taken_back,
)
from bot.i18n import N_, translate
from bot.runtime.advance import Advance
from bot.runtime.lobby import LobbyOps
from bot.runtime.updates import GameError, Step, Update, UpdateKind
from bot.store import ActionRecord, GameRecord, SeatRecord, StaleVersion, TimerRecord

#: Seconds the other players have to answer a take-back request.
TAKE_BACK_S = 60.0
#: The kind of the timer that holds a game's open request.
TIMER = "takeback"
#: The lobby option that turns take-backs on or off.
OPTION = "take_backs"


def take_backs_on(options: dict[str, Any]) -> bool:
    """Whether a game allows take-backs: its lobby's ``take_backs`` option, by default on
    for an unrated game and off for a rated one (UX.md proposal "Take-backs")."""
    chosen = options.get(OPTION)
    if isinstance(chosen, bool):
        return chosen
    return options.get("rated") is False


@dataclass
class TakeBackRequest:
    """An open request: member ``user_id`` (seat ``seat``) asks to take back the move that
    made ``version``; ``asked``: the members who must allow it, ``allowed``: those who did;
    ``due_at``: when silence becomes a refusal (Unix seconds); ``message_id``: the message
    that shows it (``None`` until posted); ``closed``: ``"refused"`` once refused (kept
    until ``due_at``, so the same move is not asked about again meanwhile)."""

    seat: str
    user_id: int
    version: int
    asked: list[int]
    allowed: list[int] = field(default_factory=list)
    due_at: float = 0.0
    message_id: int | None = None
    closed: str | None = None
    #: the move's first public event (seat ids as events name them; ``""``: none)
    said: str = ""

    @classmethod
    def of(cls, timer: TimerRecord | None) -> TakeBackRequest | None:
        """The request a ``takeback`` timer holds (``None``: no timer or a payload that is
        not one)."""
        if timer is None:
            return None
        try:
            return cls(**timer.payload)
        except TypeError:
            return None

    def row(self, game_id: int) -> tuple[int, str, str, float, dict[str, Any]]:
        """The timer row that stores it."""
        return (game_id, TIMER, f"v{self.version}", self.due_at, asdict(self))


@dataclass
class TakeBackOutcome:
    """What became of a request: ``status`` is ``"asked"`` (waiting for answers),
    ``"waiting"`` (an Allow noted, others still to answer), ``"done"`` (taken back:
    ``update``, published), ``"refused"`` (by member ``by``) or ``"expired"``."""

    status: str
    request: TakeBackRequest
    record: GameRecord
    seats: list[SeatRecord]
    spec: GameSpec
    update: Update | None = None
    by: int | None = None


class TakeBackOps(Advance):
    """The take-back operations of :class:`bot.runtime.GameService`."""

    async def ask_take_back(self, game_id: int, user_id: int) -> TakeBackOutcome:
        """Member ``user_id`` asks to take back their last move. With no other member
        seated it is taken back at once (``done``, published); else the request is stored
        (``asked``) for the caller to show. Raises :class:`GameError`: ``not_active``,
        ``not_in_game``, ``ai_plays`` (the AI plays the seat), ``take_backs_off``,
        ``take_back_pending`` (one at a time),
        ``no_take_back`` (not the asker's last move, or someone moved since) or
        ``not_take_back_point`` (the rules do not let that move be taken back)."""
        async with self.lock(game_id):
            record, seats, spec, state, timers = await self.read(game_id)
            if record.status != "active":
                raise GameError("not_active", N_("This game is over."))
            seat = self.seat_of(seats, user_id)
            if seat is None:
                raise GameError("not_in_game", N_("You are not in this game."))
            if seat.ai_takeover:
                raise GameError("ai_plays", N_("The AI is playing your seat: press I'm back "
                                "first."))
            if not take_backs_on(record.options):
                raise GameError("take_backs_off", N_("Take-backs are off in this game (a lobby "
                                "option)."))
            open_ = TakeBackRequest.of(timers.get(TIMER))
            if open_ is not None and open_.version == record.version:
                if open_.closed:
                    when = f"<t:{int(open_.due_at)}:R>"
                    raise GameError("take_back_refused", lambda lang: translate(
                        lang, "The table refused to take back this move; you may ask "
                        "again {when}.", when=when))
                raise GameError("take_back_pending", N_("A take-back request is already waiting "
                                "for answers in this game: one at a time."))
            rows = await self.store.actions(game_id)
            last = rows[-1] if rows else None
            if (last is None or last.version != record.version or last.seat != seat.seat
                    or is_take_back(last.action)):
                raise GameError("no_take_back", N_("You can take back only your own last move, "
                                "before anyone else moves."))
            before = await asyncio.to_thread(self._state_before, spec, record, state, rows)
            if not spec.engine.take_back_point(before, seat.seat,
                                               parse_logged(spec.engine, last.action), state):
                raise GameError("not_take_back_point", N_("That move cannot be taken back: only a "
                                "move that shows nothing hidden (no card drawn or seen, no "
                                "random draw) can be."))
            asked = [s.user_id for s in seats if s.user_id is not None and not s.is_ai
                     and not s.ai_takeover and s.seat != seat.seat]
            said = next((str(e.get("text", "")) for e in last.events if e.get("to") is None),
                        "")
            request = TakeBackRequest(seat.seat, user_id, record.version, asked,
                                      due_at=self.clock.now() + TAKE_BACK_S, said=said)
            if asked:
                await self._store_request(record, request)
                return TakeBackOutcome("asked", request, record, seats, spec)
            update = await self._take_back(record, seats, spec, timers, state, before, request)
        await self.publish(update)
        return TakeBackOutcome("done", request, update.record, update.seats, spec, update)

    async def answer_take_back(self, game_id: int, user_id: int, version: int,
                               allow: bool) -> TakeBackOutcome:
        """Member ``user_id`` allows (or refuses) the request about ``version``. The last
        Allow takes the move back (``done``, published); a Refuse ends the request with
        nothing changed. Raises :class:`GameError`: ``take_back_over`` (no such open
        request, or the game moved on), ``own_request``, ``not_asked``,
        ``already_answered``."""
        async with self.lock(game_id):
            record, seats, spec, state, timers = await self.read(game_id)
            request = TakeBackRequest.of(timers.get(TIMER))
            if request is None or request.version != version or request.closed:
                raise GameError("take_back_over", N_("That take-back request is over."))
            if record.status != "active" or record.version != version:
                await self.timers.cancel(game_id, TIMER)
                raise GameError("take_back_over", N_("That take-back request is over: the game "
                                "moved on."))
            if user_id == request.user_id:
                raise GameError("own_request", N_("You asked for this take-back: the other "
                                "players answer it."))
            if user_id not in request.asked:
                raise GameError("not_asked", N_("Only the players asked can answer this "
                                "take-back."))
            if user_id in request.allowed:
                raise GameError("already_answered", N_("You already allowed it; waiting for the "
                                "others."))
            if not allow:
                request.closed = "refused"
                await self._commit_request(record, request)
                return TakeBackOutcome("refused", request, record, seats, spec, by=user_id)
            request.allowed.append(user_id)
            if set(request.allowed) < set(request.asked):
                await self._commit_request(record, request)
                return TakeBackOutcome("waiting", request, record, seats, spec)
            rows = await self.store.actions(game_id)
            before = await asyncio.to_thread(self._state_before, spec, record, state, rows)
            update = await self._take_back(record, seats, spec, timers, state, before, request)
        await self.publish(update)
        return TakeBackOutcome("done", request, update.record, update.seats, spec, update)

    async def note_take_back_message(self, game_id: int, version: int, message_id: int) -> None:
        """Remember the message that shows the request about ``version`` (edited when it
        expires); nothing when that request is over."""
        async with self.lock(game_id):
            request = TakeBackRequest.of(await self.store.timer(game_id, TIMER))
            if request is None or request.version != version:
                return
            request.message_id = message_id
            await self.store.upsert_timer(*request.row(game_id))

    async def _fire_take_back_timer(self, timer: TimerRecord) -> None:
        """The request's minute ran out: a refusal, nothing changes; a
        :data:`UpdateKind.TAKE_BACK` update tells the thread (its ``take_back``: the
        request; its note ``"expired"``, or ``"moved_on"`` when a move made it void)."""
        request = TakeBackRequest.of(timer)
        if request is None or request.closed:
            return
        record = await self.get(timer.game_id)
        spec = self.spec_of(record)
        state = self.parse_state(record, spec) if record.state else None
        seats = await self.seats(record.id)
        why = "expired" if record.version == request.version else "moved_on"
        await self.publish(Update(UpdateKind.TAKE_BACK, record, seats, spec, state,
                                  notes=[why], take_back=request))

    # -- helpers -------------------------------------------------------------------------

    def _state_before(self, spec: GameSpec, record: GameRecord, state: State,
                      rows: list[ActionRecord]) -> State:
        """The state before the game's last move, replayed from its seed, options and
        log (CPU work: the callers run it off the event loop). Raises :class:`GameError` (``no_take_back``) when the replay does not give
        the stored state exactly (a game stored by an older herdbot)."""
        options = LobbyOps.engine_options(spec, record.options, len(state.seats))
        first = spec.engine.new_game(list(state.seats), seed=record.seed, options=options)
        try:
            history = replay_log(spec.engine, first, [(r.seat, r.action) for r in rows])
        except Exception as exc:  # a row the rules refuse now, a broken take-back
            raise _no_replay() from exc
        now = history.get(record.version)
        if now is None or now.model_dump_json() != state.model_dump_json() \
                or record.version - 1 not in history:
            raise _no_replay()
        return history[record.version - 1]

    async def _store_request(self, record: GameRecord, request: TakeBackRequest) -> None:
        """Store a new request in one statement, only while the game is at the request's
        version and no request about that version is stored (another process's ask at the
        same moment: one wins). Raises :class:`GameError` (``take_back_pending``)."""
        row = request.row(record.id)
        if not await self.store.claim_timer(*row, version=record.version):
            raise GameError("take_back_pending", N_("A take-back request is already waiting "
                            "for answers in this game: one at a time."))
        self.changed(record.id)
        self.timers.armed([request.due_at])

    async def _commit_request(self, record: GameRecord, request: TakeBackRequest) -> None:
        """Write the request's timer while the game's version is still ``record``'s.
        Raises :class:`GameError` (``take_back_over``) otherwise."""
        try:
            await self.store.commit_moves(record.id, expected_version=record.version,
                                          timers=[request.row(record.id)])
        except StaleVersion as exc:
            raise GameError("take_back_over", N_("That take-back request is over: the game "
                            "moved on.")) from exc
        self.changed(record.id)

    async def _take_back(self, record: GameRecord, seats: list[SeatRecord], spec: GameSpec,
                         timers: dict[str, TimerRecord], state: State, before: State,
                         request: TakeBackRequest) -> Update:
        """Apply the take-back: the state before the move at the next version, logged as
        :class:`TakeBack` by the asker, in one commit with the timers; the request goes."""
        version = state.version + 1
        step = Step(request.seat, TakeBack(version=request.version),
                    [take_back_event(request.seat, request.version)], version=version)
        return await self._advance(UpdateKind.ACTION, record, seats, spec, timers, state,
                                   taken_back(before, version), [step], drop=(TIMER,))


def _no_replay() -> GameError:
    return GameError("no_take_back", N_("This game's moves cannot be taken back: its log does "
                     "not replay exactly."))


__all__ = ["OPTION", "TAKE_BACK_S", "TIMER", "TakeBackOps", "TakeBackOutcome", "TakeBackRequest",
           "take_backs_on"]
