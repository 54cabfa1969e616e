"""Play: a member's action (a click), handing a seat to the AI and back, and ending a
game early."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.base import SYSTEM_SEAT, Action, IllegalAction, State
from bot.i18n import N_
from bot.runtime.advance import Advance
from bot.runtime.core import LOBBY_EXPIRES_S, log
from bot.runtime.updates import GameError, Known, Step, Update, UpdateKind, _StaleRead


class PlayOps(Advance):
    """The play operations of :class:`bot.runtime.GameService`."""

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
        process moved meanwhile is read again and the click decoded again). A callable
        ``action`` whose commit finds the game moved on by another process is likewise
        decoded again against the game as it is then, once: another seat's move in a
        decision several seats make at once leaves this click standing.

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
                update = await self._act(game_id, seat, action, expected_version, origin, None,
                                         again=False)
        await self.publish(update)
        return update

    async def _act(self, game_id: int, seat: str,
                   action: Action | dict[str, Any] | Callable[[State], Action],
                   expected_version: int | None, origin: Any,
                   known: Known | None, *, again: bool = True) -> Update:
        """:meth:`act` under the game's lock. Raises :class:`_StaleRead` (with ``again``)
        when the commit found the stored game moved on and ``known`` served or ``action``
        is a callable (to be decoded again)."""
        record, seats, spec, state, timers = await self.read(game_id, known)
        used = known is not None and known.bundle is not None and record is known.bundle.record
        decoded = callable(action)
        if record.status != "active":
            raise GameError("not_active", N_("This game is over."))
        if expected_version is not None and expected_version != record.version:
            raise GameError("stale", N_("This table has moved on."))
        engine = spec.engine
        try:
            if callable(action):
                action = action(state)
            parsed = engine.parse_action(action) if isinstance(action, dict) else action
            # Listed among this very state's legal actions already (the click decoded
            # against them): applied without listing them again.
            listed = (known.derived.get(("legal", seat))
                      if known is not None and state is known.state else None)
            if isinstance(listed, list) and parsed in listed:
                new_state, events = engine.apply_legal(state, seat, parsed)
            else:
                new_state, events = engine.apply(state, seat, parsed)
        except IllegalAction as exc:
            raise GameError(exc.code, exc.message, catalogued=False) from exc
        reset = any(s.seat == seat and s.missed_turns for s in seats)
        try:
            return await self._advance(
                UpdateKind.ACTION, record, seats, spec, timers, state, new_state,
                [Step(seat, parsed, events, version=new_state.version)],
                seat_flags={seat: {"missed_turns": 0}} if reset else None, origin=origin)
        except GameError as exc:
            if exc.code == "stale" and again and (used or decoded):
                raise _StaleRead from exc
            raise

    async def set_takeover(self, game_id: int, user_id: int, takeover: bool) -> Update:
        """Hand a member's seat to the AI (``True``, e.g. /game leave) or back ("I'm back")."""
        async with self.lock(game_id):
            for again in (True, False):  # another process moved the game: read it again
                record, seats, spec, state, timers = await self.read(game_id)
                seat = self.seat_of(seats, user_id)
                if seat is None:
                    raise GameError("not_in_game", N_("You are not in this game."))
                if record.status != "active":
                    raise GameError("not_active", N_("This game is over."))
                try:
                    update = await self._advance(
                        UpdateKind.ACTION, record, seats, spec, timers, state, state, [],
                        seat_flags={seat.seat: {"ai_takeover": takeover, "missed_turns": 0}},
                        drive=takeover)
                except GameError as exc:
                    if exc.code == "stale" and again:
                        continue
                    raise
                break
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
                raise GameError("not_active", N_("This game is not running."))
            if user_id != record.host_id and not manage_guild:
                raise GameError("not_host", N_("Only the host (or a server manager) can end it."))
            if not await self.store.update_game(game_id, when_status="active", status="ended"):
                raise GameError("not_active", N_("This game is not running."))
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
                raise GameError("not_active", N_("This game is not running."))
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
