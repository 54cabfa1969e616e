"""Lessons (``/learn``): a member's guided game against Easy AI seats, started without a
lobby, never rated nor counted in stats (:func:`bot.runtime.core.is_lesson`), and the
explanations it has told so far."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.ai.levels import Level
from bot.i18n import N_
from bot.runtime.core import is_lesson
from bot.runtime.lobby import LobbyOps
from bot.runtime.updates import GameError, Update
from bot.store import GameRecord

#: The option holding the keys of the explanations a lesson has told.
SAID = "lesson_said"


class LessonOps(LobbyOps):
    """The lessons of :class:`bot.runtime.GameService`."""

    async def lesson_of_member(self, user_id: int) -> GameRecord | None:
        """The lesson ``user_id`` is playing now (an active game with the ``lesson``
        option; the newest), or ``None``."""
        for record in await self.store.active_games_of(user_id):
            if record.status == "active" and is_lesson(record):
                return record
        return None

    async def start_lesson(
        self, kind: str, *, user_id: int, name: str, guild_id: int | None, channel_id: int,
        seed: int, ai_seats: int, options: dict[str, Any] | None = None,
    ) -> Update:
        """Start a lesson of game ``kind`` for ``user_id`` in channel ``channel_id`` (their
        DM with the bot): the member and ``ai_seats`` Easy AI seats, game seed ``seed``,
        no turn timer, unrated. Returns the ``started`` update (not published: the caller
        shows the first table). Raises :class:`GameError` as :meth:`create_lobby` and
        :meth:`start` do."""
        update = await self.create_lobby(
            kind, guild_id=guild_id, channel_id=channel_id, host_id=user_id, host_name=name,
            options={**(options or {}), "lesson": True, "rated": False, "turn_timer": "off"},
            seed=seed)
        game_id = update.record.id
        for _ in range(ai_seats):
            await self.add_ai(game_id, user_id, Level.EASY.value)
        await self.store.update_game(game_id, thread_id=channel_id)
        return await self.start(game_id, user_id, publish=False)

    async def lesson_said(self, game_id: int, keys: Iterable[str]) -> None:
        """Note that lesson ``game_id`` told the explanations ``keys`` (kept in its options
        under :data:`SAID`, so a restart does not tell them again). Raises
        :class:`GameError` (``no_game``) for a game that does not exist."""
        record = await self.get(game_id)
        said = sorted({*record.options.get(SAID, []), *keys})
        if said != record.options.get(SAID):
            if not await self.store.update_game(game_id,
                                                options={**record.options, SAID: said}):
                raise GameError("no_game", N_("That game no longer exists."))
