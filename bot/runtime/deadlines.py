"""Deadlines: the stored timers firing (rules deadlines, turn timers and reminders, idle
games, lobby expiry, archiving), re-arming a game's timers, and the catch-up that shows
what a thread missed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.games.base import Event, IllegalAction
from bot.games.takeback import parse_logged
from bot.i18n import N_, translate, translate_n
from bot.runtime.advance import Advance, rating_of, turn_key
from bot.runtime.core import (
    END_IDLE_GAMES_DEFAULT,
    IDLE_END_S,
    IDLE_ENDED,
    IDLE_NOTICE_S,
    LOBBY_EXPIRES_S,
    MAX_MISSED_TURNS,
    is_lesson,
    log,
)
from bot.runtime.updates import GameError, GameUnreadable, Note, Step, Update, UpdateKind
from bot.store import StaleVersion, TimerRecord


class DeadlineOps(Advance):
    """The timers and catch-up of :class:`bot.runtime.GameService`."""

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
                        try:
                            update = await self._reconcile_game(record.id)
                        except GameError as exc:
                            if exc.code != "stale":
                                raise
                            # another process moved it meanwhile: once more, read again
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

    #: The name of the supervised store watch (:meth:`start_store_watch`) and its period, s.
    STORE_WATCH_JOB = "herdbot-store-watch"
    STORE_WATCH_EVERY_S = 2.0

    def start_store_watch(self) -> asyncio.Task[None]:
        """Look at the database every :attr:`STORE_WATCH_EVERY_S` seconds in the
        background (:meth:`Store.watch`): a SQLite file deleted or replaced under an idle
        bot is logged within seconds, not at the next move."""
        async def watch() -> None:
            while True:
                self.store.watch()
                # Real seconds, whatever the game clock: the file is looked at in real time.
                await asyncio.sleep(self.STORE_WATCH_EVERY_S)
        return self.supervisor.start(self.STORE_WATCH_JOB, watch)

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
            raise GameError("no_game", N_("That game no longer exists."))
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
                    action = parse_logged(spec.engine, row.action)
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
        elif timer.kind == "takeback":
            await self._fire_take_back_timer(timer)
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
                if timer.payload.get("turn_key") != turn_key(pending, humans):
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
            if is_lesson(record):
                # A lesson nobody moved in for a week ends quietly: nothing is posted and
                # its DM stays as it was (a late click hears the game has ended).
                if await self.store.update_game(record.id, when_status="active",
                                                status="ended"):
                    await self.timers.cancel(record.id)
                    self.changed(record.id)
                    log.info("lesson %d ended: no move for a week", record.id)
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
            if timer.payload.get("turn_key") != turn_key(pending, humans):
                return
            steps: list[Step] = []
            late: list[str] = list(timer.payload.get("seats", []))
            new = state
            for seat_id in late:
                # The AI plays this seat's decisions until it no longer has to decide.
                more, new = await self.ai_steps(seats, spec, new, only(seat_id))
                steps += more
            # The moves and the missed turns in one transaction, the missed turns counted
            # from the stored counts (another process may have changed one since ``seats``
            # was read): whether the AI now plays a seat decides the moves that follow.
            moves = self.move_rows(steps)
            result = spec.engine.result(new) if moves else None
            try:
                updated_at, missed = await self.store.commit_moves(
                    record.id, expected_version=state.version,
                    state=new.model_dump_json() if moves else None, moves=moves,
                    status="finished" if result is not None else None,
                    result=self.stats_of(record, seats, spec, result),
                    missed_turns=(late, MAX_MISSED_TURNS),
                    rate=rating_of(record, seats, spec, result))
            except StaleVersion as exc:
                raise GameError("stale", N_("This table has moved on.")) from exc
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
                    notes.append(taken_over(seat_id, count))
                else:
                    notes.append(timed_out(seat_id))
            seats = [s.model_copy(update={
                "missed_turns": missed[s.seat],
                "ai_takeover": s.ai_takeover or missed[s.seat] >= MAX_MISSED_TURNS})
                if s.seat in missed else s for s in seats]
            try:
                update = await self._advance(UpdateKind.TIMEOUT, record, seats, spec, timers,
                                             new, new, [], notes=notes, done=steps)
            except GameError as exc:
                if exc.code != "stale":
                    raise
                # Another process moved on after the timeout was stored (and armed the
                # timers of its move): what was stored is shown all the same.
                update = Update(UpdateKind.TIMEOUT, record, seats, spec, new, steps,
                                spec.engine.result(new), notes)
        await self.publish(update)


def taken_over(seat: str, count: int) -> Note:
    """The note of ``seat`` missing ``count`` turns in a row (the AI keeps the seat)."""
    return Note(lambda lang: translate_n(
        lang, "{seat} missed {count} turn in a row: the AI plays their seat until they "
        "press I'm back.", "{seat} missed {count} turns in a row: the AI plays their seat "
        "until they press I'm back.", count, seat=seat))


def timed_out(seat: str) -> Note:
    """The note of ``seat``'s turn timer running out (the AI played the turn)."""
    return Note(lambda lang: translate(
        lang, "Time ran out for {seat}: the AI played their turn.", seat=seat))


def only(seat: str) -> Callable[[Any], str | None]:
    """The pick of :meth:`Advance.ai_steps` that names ``seat`` while it must decide."""
    return lambda pending: seat if seat in pending.seats else None
