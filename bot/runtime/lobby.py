"""Lobbies: open one, join, leave, AI seats, options, cancel, expire, and start the
game."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.ai.levels import DEFAULT_LEVEL, Level
from bot.games.base import IllegalAction
from bot.games.registry import GameSpec
from bot.i18n import N_, translate, translate_n
from bot.present.lobby import across_options, option_labels, options_reason
from bot.runtime.advance import Advance
from bot.runtime.core import LOBBY_EXPIRES_S
from bot.runtime.updates import (
    UNREADABLE_LOBBY,
    GameError,
    GameUnreadable,
    Update,
    UpdateKind,
)
from bot.store import GameRecord, LobbyLimit, SeatRecord, StaleVersion

#: Friendly names for AI seats.
AI_NAMES = ["Pancho", "Dolly", "Cusco", "Nube", "Luna", "Tito", "Perla", "Quinoa"]



def full(most: int) -> GameError:
    """The refusal of a seat at a full table of ``most`` players."""
    return GameError("full", lambda lang: translate_n(
        lang, "This table is full ({count} player).", "This table is full ({count} players).",
        most))


def no_level(game: str, level: str) -> GameError:
    """The refusal of an AI seat at ``level``, which ``game`` does not offer."""
    known = level in {lv.value for lv in Level}
    if not known:
        return GameError("no_level", lambda lang: translate(
            lang, "{game} has no AI players of that level yet.", game=game))
    return GameError("no_level", lambda lang: translate(
        lang, "{game} has no {level} AI players yet.", game=game,
        level=translate(lang, Level(level).label)))

class LobbyOps(Advance):
    """The lobby operations of :class:`bot.runtime.GameService`."""

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
            raise GameError("unknown_game", lambda lang: translate(
                lang, "There is no game called “{name}”.", name=kind))
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
            count = exc.open
            raise GameError("too_many_lobbies", lambda lang: translate_n(
                lang, "You already have {count} open lobby in this server; start or cancel "
                "one first.", "You already have {count} open lobbies in this server; start or "
                "cancel one first.", count)) from None
        await self.timers.schedule(record.id, "lobby", "expire", expires_at)
        update = Update(UpdateKind.LOBBY, record, await self.seats(record.id), spec)
        return update

    async def _lobby(self, game_id: int) -> tuple[GameRecord, GameSpec, list[SeatRecord]]:
        try:
            record = await self.get(game_id)
            if record.status != "lobby":
                raise GameError("not_lobby",
                                N_("This lobby is closed: the game has started or ended."))
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
                raise GameError("already_joined", N_("You are already in this lobby."))
            if len(seats) >= spec.max_players:
                raise full(spec.max_players)
            kept = await self.kept_seats(record, seats, user_id)
            if kept and len(seats) + kept >= spec.max_players:
                raise GameError("full", N_("The other seats are kept for the last game's players."))
            if await self.store.add_seat(
                game_id, user_id=user_id, name=name, is_ai=False, max_seats=spec.max_players
            ) is None:  # another process seated someone, or started or closed the lobby
                await self._seat_refused(game_id, spec, user_id)
            return await self._lobby_update(game_id)

    async def kept_seats(self, lobby: GameRecord, seats: list[SeatRecord], user_id: int) -> int:
        """How many of the lobby's free seats are kept for others than ``user_id`` (0 here;
        a rematch keeps them for the last game's players)."""
        return 0

    async def _seat_refused(self, game_id: int, spec: GameSpec, user_id: int | None) -> None:
        """Raise why the store did not add a seat (its row-locked check saw a change made
        meanwhile, e.g. by another process): lobby closed, already seated, or full."""
        record, _, seats = await self._lobby(game_id)  # raises not_lobby
        if user_id is not None and self.seat_of(seats, user_id):
            raise GameError("already_joined", N_("You are already in this lobby."))
        raise full(spec.max_players)

    async def leave_lobby(self, game_id: int, user_id: int) -> Update:
        """Remove ``user_id`` from the lobby. The host cannot leave (they cancel instead)."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            seat = self.seat_of(seats, user_id)
            if seat is None:
                raise GameError("not_in_lobby", N_("You are not in this lobby."))
            if user_id == record.host_id:
                raise GameError("host_leave", N_("You are the host: use Cancel to close the lobby."))
            await self.store.remove_seat(game_id, seat.seat)
            return await self._lobby_update(game_id)

    async def add_ai(self, game_id: int, user_id: int, level: str = DEFAULT_LEVEL) -> Update:
        """Add an AI seat playing at ``level`` (a :class:`~bot.ai.levels.Level` value; host
        only). Refused (``no_level``) for a level the game does not offer."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            if user_id != record.host_id:
                raise GameError("not_host", N_("Only the host can add AI seats."))
            if len(seats) >= spec.max_players:
                raise full(spec.max_players)
            if spec.policy is None:
                raise GameError("no_ai", N_("This game has no AI players yet."))
            if level not in spec.offered_levels():
                raise no_level(spec.name, level)
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
                raise GameError("not_host", N_("Only the host can remove AI seats."))
            ai = [s for s in seats if s.is_ai]
            if not ai:
                raise GameError("no_ai_seat", N_("There is no AI seat to remove."))
            await self.store.remove_seat(game_id, ai[-1].seat)
            return await self._lobby_update(game_id)

    async def set_options(self, game_id: int, user_id: int, options: dict[str, Any]) -> Update:
        """Change lobby options (host only)."""
        async with self.lock(game_id):
            record, spec, seats = await self._lobby(game_id)
            if user_id != record.host_id:
                raise GameError("not_host", N_("Only the host can change the options."))
            if not await self.store.update_game(game_id, when_status="lobby",
                                                options={**record.options, **options}):
                raise GameError("not_lobby",  # another process started or closed it
                                N_("This lobby is closed: the game has started or ended."))
            return await self._lobby_update(game_id)

    async def cancel(self, game_id: int, user_id: int, *, manage_guild: bool = False) -> Update:
        """Close a lobby (host, or a member with Manage Server). A quarantined lobby (its
        row or seats do not validate) can be closed too: its update then has no seats.
        Raises ``not_lobby`` when it is not a lobby, ``not_host`` for anyone else."""
        async with self.lock(game_id):
            record = await self.record_or_stub(game_id)
            if record.status != "lobby":
                raise GameError("not_lobby",
                                N_("This lobby is closed: the game has started or ended."))
            if user_id != record.host_id and not manage_guild:
                raise GameError("not_host", N_("Only the host (or a server manager) can cancel."))
            try:
                seats = await self.seats(game_id)
            except GameUnreadable:
                seats = []
            spec = self.spec_of(record)
            if not await self.store.update_game(game_id, when_status="lobby",
                                                status="cancelled"):
                raise GameError("not_lobby",  # another process started or closed it
                                N_("This lobby is closed: the game has started or ended."))
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
                raise GameError("not_host", N_("Only the host can start the game."))
            if len(seats) < spec.min_players:
                least = spec.min_players
                raise GameError("too_few", lambda lang: translate_n(
                    lang, "{game} needs at least {count} player.",
                    "{game} needs at least {count} players.", least, game=spec.name))
            seats = await self.store.renumber_seats(game_id)
            try:
                options = self.engine_options(spec, record.options, len(seats))
                state = spec.engine.new_game([s.seat for s in seats], seed=record.seed, options=options)
            except ValidationError as exc:  # (a ValueError: before the engine's own)
                first, labels = dict(exc.errors()[0]), option_labels(spec.options_model)
                raise GameError("bad_options", lambda lang: options_reason(
                    first, labels, lang) if across_options(first) else translate(
                    lang, "These options do not work: {reason}",
                    reason=options_reason(first, labels, lang))) from exc
            except (ValueError, IllegalAction) as exc:
                reason = str(exc)
                raise GameError("bad_options", lambda lang: translate(
                    lang, "These options do not work: {reason}", reason=reason)) from exc
            try:
                await self.store.start_game(game_id, state=state.model_dump_json(),
                                            version=state.version)
            except StaleVersion as exc:  # another process started or closed it first
                raise GameError("not_lobby", N_("This lobby is closed: the game has started or "
                                "ended.")) from exc
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
