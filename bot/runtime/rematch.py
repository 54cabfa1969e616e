"""Rematch: a finished game's players open a lobby with the same seats and options, which
starts by itself once every member of the last game has joined."""

from __future__ import annotations

from dataclasses import dataclass

from bot.runtime.core import LOBBY_EXPIRES_S
from bot.runtime.lobby import LobbyOps
from bot.runtime.updates import GameError, Update, UpdateKind
from bot.store import GameRecord, SeatRecord, StaleVersion

#: Lobby option keys a rematch does not copy (each lobby sets its own; a challenge's
#: rematch is an ordinary lobby).
_FRESH_OPTIONS = ("expires_at", "challenge")


@dataclass
class Rematch:
    """What a Rematch press did.

    Attributes:
        update: the rematch lobby (``LOBBY``), as opened now or earlier.
        opened: whether this press opened it (``False``: it was open already).
        invited: the members of the last game to ping once (all but the host; only when
            ``opened``, else empty).
        note: for a press that opened nothing, the sentence for the member.
    """

    update: Update
    opened: bool
    invited: list[int]
    note: str = ""


def members_of(seats: list[SeatRecord]) -> list[int]:
    """The members who sat in a game, in seat order (a seat the AI took over counts)."""
    return [s.user_id for s in seats if s.user_id is not None and not s.is_ai]


class RematchOps(LobbyOps):
    """Rematch lobbies of :class:`bot.runtime.GameService`."""

    async def rematch(self, game_id: int, user_id: int, name: str) -> Rematch:
        """Open the rematch lobby of the finished game ``game_id`` for its member
        ``user_id`` (``name``: their display name), who hosts it: the same game, channel,
        options (rated or not, timer, variants) and AI seats with their levels; the other
        members are invited. Idempotent: a press when one is open answers with it (across
        processes too: the store links one lobby per game), and a rematch lobby that
        closed unstarted is replaced. Raises :class:`GameError` ``not_finished`` (the game
        is still on), ``not_player`` (``user_id`` did not play) and ``rematch_started``
        (the rematch is under way or over)."""
        async with self.lock(game_id):
            record = await self.get(game_id)
            if record.status not in ("finished", "ended"):
                raise GameError("not_finished", "A rematch can be asked for once this game is over.")
            seats = await self.seats(game_id)
            members = members_of(seats)
            if user_id not in members:
                raise GameError("not_player", "Only the players of this game can ask for a rematch.")
            for _ in range(2):  # a press elsewhere may link a lobby between read and write
                existing = await self._rematch_lobby(record)
                if existing is not None:
                    return Rematch(existing, False, [], "The rematch lobby is already open: join "
                                   "it there.")
                try:
                    lobby = await self._open_rematch(record, seats, user_id, name)
                except StaleVersion:
                    record = await self.get(game_id)
                    continue
                return Rematch(lobby, True, [m for m in members if m != user_id])
            raise GameError("busy", "Someone else is opening the rematch: try again.")

    async def _rematch_lobby(self, record: GameRecord) -> Update | None:
        """The rematch lobby linked from ``record`` when it is still open; ``None`` when
        there is none or it closed unstarted. Raises ``rematch_started`` once it started."""
        if record.rematch_id is None:
            return None
        lobby = await self.get(record.rematch_id)
        if lobby.status == "cancelled":
            return None
        if lobby.status != "lobby":
            raise GameError("rematch_started", "The rematch has already started: look for its "
                            "thread in the channel.")
        return Update(UpdateKind.LOBBY, lobby, await self.seats(lobby.id), self.spec_of(lobby))

    async def _open_rematch(self, record: GameRecord, seats: list[SeatRecord], user_id: int,
                            name: str) -> Update:
        expires_at = self.clock.now() + LOBBY_EXPIRES_S
        options = {k: v for k, v in record.options.items() if k not in _FRESH_OPTIONS}
        lobby = await self.store.create_rematch(
            record.id, replaces=record.rematch_id, host_id=user_id, host_name=name,
            channel_id=record.channel_id, options={**options, "expires_at": expires_at},
            seed=self.seed_factory(),
            ai_seats=[(s.name, s.ai_level) for s in seats if s.is_ai])
        await self.timers.schedule(lobby.id, "lobby", "expire", expires_at)
        return Update(UpdateKind.LOBBY, lobby, await self.seats(lobby.id), self.spec_of(lobby))

    async def awaited(self, lobby: GameRecord, seats: list[SeatRecord]) -> list[int]:
        """The members of the game ``lobby`` replays who have not joined it yet, in the last
        game's seat order; empty for a lobby that is not a rematch."""
        if lobby.rematch_of is None:
            return []
        joined = {s.user_id for s in seats}
        return [m for m in members_of(await self.seats(lobby.rematch_of)) if m not in joined]

    async def kept_seats(self, lobby: GameRecord, seats: list[SeatRecord], user_id: int) -> int:
        """The seats kept for the last game's members who have not joined the rematch lobby
        yet; 0 for one of them (they take any free seat) and for a lobby that is not a
        rematch."""
        awaited = await self.awaited(lobby, seats)
        return 0 if user_id in awaited else len(awaited)

    async def join(self, game_id: int, user_id: int, name: str) -> Update:
        """Seat ``user_id`` in the lobby (see :meth:`LobbyOps.join`; a rematch keeps the
        seats of the last game's members, :meth:`kept_seats`). The join that seats the last
        of them starts the game, as the host's Start would (a ``STARTED`` update, not yet
        published)."""
        update = await super().join(game_id, user_id, name)
        if update.record.rematch_of is None or await self.awaited(update.record, update.seats):
            return update
        try:
            return await self.start(game_id, update.record.host_id, publish=False)
        except GameError as exc:
            if exc.code in ("too_few", "bad_options"):
                return update  # the host adjusts and starts by hand
            if exc.code == "not_lobby":  # a join at the same moment started it
                return await self._lobby_update(game_id)
            raise
