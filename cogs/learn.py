"""``/learn game:``: a guided game against Easy AI seats, played in the member's DMs.

Why DMs rather than a private thread: a bot may always open a DM channel with a member of
a server it shares (``POST /users/@me/channels``) and post components there, with no
permission of the server's channel; a private thread needs the Create Private Threads
permission (not in herdbot's invite), a channel that allows threads, and is still seen by
the server's moderators (Manage Threads). A member whose DMs from the server are closed
(Discord's 50007) is told how to open them.

The lesson is an ordinary game (seeded, unrated, no turn timer; see
:mod:`bot.runtime.lessons`) of no server (it is not one of the server's games: ``/game``
there does not find it, and DM clicks and its timers are shard 0's) whose thread is the DM
channel; its explanations are the
game's lesson (:mod:`bot.present.lessons`) shown on its table
(:class:`bot.discord.lesson_notes.LessonNotes`). ``/learn`` while in a lesson shows that
lesson again where it stands.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.bot import HerdBot
from bot.discord.game_cog import GameCog
from bot.discord.layout import card
from bot.discord.replies import lang_of, send_ephemeral, send_error
from bot.i18n import ENGLISH, N_, translate
from bot.present.lessons import lesson_of, resumed, resumed_line, started_line
from bot.runtime import GameError
from bot.store import GameRecord

log = logging.getLogger(__name__)

#: Discord's code for a DM the member's privacy settings refuse.
CANNOT_DM = 50007
#: What a member whose DMs are closed is told.
DMS_CLOSED = N_("I cannot send you direct messages, and lessons are played there. Allow "
                "direct messages from this server's members (the server's Privacy Settings), "
                "then run /learn again.")


def dm_link(channel_id: int, message_id: int | None) -> str:
    """A link to a message of the member's DM with the bot (the channel without one)."""
    tail = f"/{message_id}" if message_id else ""
    return f"https://discord.com/channels/@me/{channel_id}{tail}"


class Learn(commands.Cog):
    """``/learn``."""

    def __init__(self, bot: HerdBot) -> None:
        self.bot = bot
        choices = [app_commands.Choice(name=s.name, value=s.key)
                   for s in bot.registry if lesson_of(s.key) is not None]
        self.learn.parameters  # noqa: B018 - make sure the command is built
        self.learn._params["game"].choices = choices  # type: ignore[attr-defined]

    @app_commands.command(name="learn",
                          description="Learn a game by playing it against the AI, in your DMs.")
    @app_commands.describe(game="Which game to learn",
                           restart="End the lesson you are in and start this one afresh")
    # (played in the bot's DM, by the bot user: a server install, not in private channels)
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def learn(self, interaction: discord.Interaction, game: str,
                    restart: bool = False) -> None:
        """Start the lesson of ``game`` in the member's DMs, or show the lesson they are in
        again (``restart``: end it first)."""
        spec = self.bot.registry.get(game)
        lesson = lesson_of(game)
        if spec is None or lesson is None:
            raise GameError("unknown_game",
                            N_("There is no lesson for that game. Pick one from the list."))
        user = interaction.user
        service = self.bot.service
        current = await service.lesson_of_member(user.id)
        if current is not None and restart:
            await service.end_without_thread(current.id)
            self.cog(current).forget(current.id)
            current = None
        if current is not None:
            await self._resume(interaction, current)
            return
        try:
            dm = await user.create_dm()
        except discord.HTTPException as exc:
            log.info("could not open a DM with %s: %s", user.id, exc)
            await send_error(interaction, translate(lang_of(interaction), DMS_CLOSED))
            return
        update = await service.start_lesson(
            game, user_id=user.id, name=user.display_name, guild_id=None,
            channel_id=dm.id, seed=lesson.seed, ai_seats=lesson.ai_seats,
            options=lesson.options)
        cog = self.cog(update.record)
        try:
            await cog.on_update(update)
        except discord.HTTPException as exc:
            # Nowhere to play: the lesson ends at once (nothing recorded).
            await service.end_without_thread(update.record.id)
            cog.forget(update.record.id)
            if exc.code == CANNOT_DM:
                await send_error(interaction, translate(lang_of(interaction), DMS_CLOSED))
                return
            raise
        record = await service.get(update.record.id)
        await self._answer(interaction, cog, started_line(
            spec.name, dm_link(dm.id, record.table_message_id), lang_of(interaction)))

    @staticmethod
    async def _answer(interaction: discord.Interaction, cog: GameCog, text: str) -> None:
        """Answer ``/learn`` with ``text`` (ephemeral, Components V2 in the game's colour)."""
        await send_ephemeral(interaction, view=card(accent=cog.accent, before=[text]))

    def cog(self, record: GameRecord) -> GameCog:
        """The game cog of ``record``'s game. Raises :class:`GameError` when not loaded."""
        cog = self.bot.game_cog(record.kind)
        if not isinstance(cog, GameCog):
            raise GameError("unknown_game", N_("This game is not available on this bot."))
        return cog

    async def _resume(self, interaction: discord.Interaction, record: GameRecord) -> None:
        """Show lesson ``record`` again in the member's DMs (a new table message, the old
        one's buttons retired) and say where."""
        cog = self.cog(record)
        table = await cog.load_table(record.id)
        table.lesson = resumed(table.lang or ENGLISH)
        name = table.spec.name
        try:
            await cog.post_table(table, fresh=True)
        except discord.HTTPException as exc:
            if exc.code == CANNOT_DM:
                await send_error(interaction, translate(lang_of(interaction), DMS_CLOSED))
                return
            raise
        channel = record.thread_id or record.channel_id or 0
        shown = await self.bot.service.get(record.id)
        await self._answer(interaction, cog, resumed_line(
            name, dm_link(channel, shown.table_message_id), lang_of(interaction)))


async def setup(bot: HerdBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Learn(bot))
