"""``/game`` (hand, status, leave, end, takeback, log, replay) and ``/rules``: routed to the
game's cog."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import takeback
from bot.discord.bot import HerdBot
from bot.discord.components import button
from bot.discord.errors import thread_is_gone
from bot.discord.game_cog import GameCog
from bot.discord.installs import BOTH_INSTALLS, EVERYWHERE, is_one_message
from bot.discord.layout import accent_of, card, panel
from bot.discord.replies import defer, lang_of, quoted, send_ephemeral
from bot.discord.table import Table
from bot.discord.text import listed, md_name
from bot.games.base import Event
from bot.i18n import N_, translate, translate_n
from bot.runtime import GameError, GameUnreadable
from bot.runtime.updates import game_title
from bot.store import GameRecord


def _manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


class GameCommands(commands.Cog):
    """Commands that act on the game of the current thread (or the member's latest game)."""

    game = app_commands.Group(name="game", description="Your current game",
                              allowed_installs=BOTH_INSTALLS, allowed_contexts=EVERYWHERE)

    def __init__(self, bot: HerdBot) -> None:
        self.bot = bot
        choices = [app_commands.Choice(name=s.name, value=s.key) for s in bot.registry]
        self.rules._params["game"].choices = choices  # type: ignore[attr-defined]

    async def find_game(self, interaction: discord.Interaction, *, active: bool = True) -> GameRecord:
        """The game a /game command means.

        Inside a game's thread it is always that game (a finished one is refused when
        ``active``). A game played in the channel itself counts only for its own seats.
        Elsewhere it is the member's running game in this server; with several, the member
        is asked to use the command in the right thread. Raises :class:`GameError`.

        A quarantined game (its saved data does not validate) is found too, as a stand-in
        record, so that ``/game end`` works; its other commands answer with
        :class:`GameUnreadable`'s sentence.
        """
        store = self.bot.store
        if interaction.channel_id is not None:
            record = await self._game_in(interaction.channel_id)
            in_thread = record is not None and record.thread_id != record.channel_id
            seated = False
            if record is not None and not in_thread:
                try:
                    seated = any(s.user_id == interaction.user.id
                                 for s in await self.bot.service.seats(record.id))
                except GameUnreadable:
                    seated = False
            if record is not None and (in_thread or seated):
                if active and record.status != "active":
                    over = record
                    raise GameError("game_over", lambda lang: translate(
                        lang, "{title} is over.", title=self._title(over, lang)))
                return record
        mine = [g for g in await store.active_games_of(interaction.user.id, interaction.guild_id)
                if g.status == "active"]
        if len(mine) == 1:
            return mine[0]
        if mine:
            def which(lang: str) -> str:
                where = listed([translate(lang, "{title} in {channel}",
                                          title=self._title(g, lang),
                                          channel=f"<#{g.thread_id or g.channel_id}>")
                                for g in mine], lang=lang)
                return translate_n(lang, "You are in {count} game ({games}): use the command "
                                   "in the game's thread.", "You are in {count} games "
                                   "({games}): use the command in the game's thread.",
                                   len(mine), games=where)
            raise GameError("which_game", which)
        raise GameError("no_game_here", N_("You have no running game here. Start one with /play."))

    async def _game_in(self, channel_id: int) -> GameRecord | None:
        """The latest game played in ``channel_id`` (a stand-in for an unreadable row)."""
        game_id = await self.bot.store.game_id_by_thread(channel_id)
        if game_id is None:
            return None
        return await self.bot.service.record_or_stub(game_id)

    def _title(self, record: GameRecord, lang: str | None = None) -> str:
        spec = self.bot.registry.get(record.kind)
        return game_title(lang, spec.name if spec else record.kind, record.id)

    def cog_for(self, record: GameRecord) -> GameCog:
        cog = self.bot.game_cog(record.kind)
        if not isinstance(cog, GameCog):
            raise GameError("unknown_game", N_("This game is not available on this bot."))
        return cog

    @game.command(name="hand", description="See your private cards (only you can see them).")
    async def hand(self, interaction: discord.Interaction) -> None:
        record = await self.find_game(interaction)
        cog = self.cog_for(record)
        table = await cog.load_table(record.id)
        table.client_locale = str(interaction.locale)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise GameError("not_in_game", N_("You are not in this game."))
        await send_ephemeral(interaction, secret=True, **await cog.own_panel(table, seat))

    @game.command(name="status", description="Post the current table again.")
    async def status(self, interaction: discord.Interaction) -> None:
        record = await self.find_game(interaction)
        cog = self.cog_for(record)
        await defer(interaction, ephemeral=True)
        table = await cog.load_table(record.id)
        try:
            await cog.post_table(table, fresh=True)
        except discord.HTTPException as exc:
            what = await cog.posting_failed(record, exc)
            lang = lang_of(interaction, table.lang)
            if thread_is_gone(exc):
                await send_ephemeral(interaction, translate(
                    lang, "{title}: {what}.", title=self._title(record, lang), what=what(lang)))
                return
            # The table is public: show it to the member who asked (without its buttons).
            said = what(lang)
            await send_ephemeral(interaction, view=cog.table_card(
                table, buttons=False, head=translate(
                    lang, "{what}. Here it is:", what=f"{said[:1].upper()}{said[1:]}")),
                file=await cog.render_file(table))
            return
        await send_ephemeral(interaction, translate(lang_of(interaction, table.lang),
                                                    "The table is posted in the game's thread."))

    @game.command(name="leave", description="Leave your game; an AI takes your seat.")
    async def leave(self, interaction: discord.Interaction) -> None:
        record = await self.find_game(interaction)
        cog = self.cog_for(record)
        table = await cog.load_table(record.id)
        seat = table.seat_of(interaction.user.id)
        lang = lang_of(interaction, table.lang)
        if seat is None:
            raise GameError("not_in_game", N_("You are not in this game."))
        if seat.ai_takeover:
            raise GameError("already_left", N_("The AI already plays your seat; press I'm back on "
                            "the table to return."))
        await defer(interaction, ephemeral=True)
        humans = [s for s in table.seats if table.is_human(s.seat) and s.seat != seat.seat]
        if not humans:
            await self.bot.service.end(record.id, record.host_id, manage_guild=True)
            await send_ephemeral(interaction, translate(
                lang, "You were the last player, so the game has ended."))
            return
        await self.bot.service.set_takeover(record.id, interaction.user.id, True)
        # (a one-message table shows the AI seat at its next edit: no message of its own)
        channel = None if is_one_message(record) else cog.channel_of(record)
        if channel is not None:
            try:
                await channel.send(translate(
                    record.options.get("language"), "{name} left the game; the AI plays their "
                    "seat now.", name=md_name(seat.name)))
            except discord.HTTPException as exc:  # the seat is the AI's all the same
                what = await cog.posting_failed(record, exc)
                if thread_is_gone(exc):
                    await send_ephemeral(interaction, translate(
                        lang, "You left {title}: {what}.", title=self._title(record, lang),
                        what=what(lang)))
                    return
        await send_ephemeral(interaction, translate(
            lang, "You left the game; the AI plays your seat."))

    @game.command(name="end", description="End the game early (host or server managers).")
    async def end(self, interaction: discord.Interaction) -> None:
        record = await self.find_game(interaction)
        if interaction.user.id != record.host_id and not _manage(interaction):
            raise GameError("not_host", N_("Only the host (or a server manager) can end the game."))
        spec = self.bot.registry.get(record.kind)
        lang = lang_of(interaction, record.options.get("language"))
        await send_ephemeral(interaction, view=panel(
            accent=accent_of(spec),
            words=translate(lang, "End {title} for everyone? No scores are recorded.",
                            title=self._title(record, lang)),
            items=[button("g", record.id, "endyes", translate(lang, "Yes, end the game"),
                          style=discord.ButtonStyle.danger)]))

    @game.command(name="takeback",
                  description="Ask to take back your last move (the other players must allow it).")
    async def takeback(self, interaction: discord.Interaction) -> None:
        record = await self.find_game(interaction)
        await defer(interaction, ephemeral=True)
        await takeback.ask(self.bot, interaction, record.id)

    @game.command(name="log", description="The moves so far, with others' hidden cards left out.")
    async def log(self, interaction: discord.Interaction) -> None:
        record = await self.find_game(interaction, active=False)
        cog = self.cog_for(record)
        table = await cog.load_table(record.id)
        seat = table.seat_of(interaction.user.id)
        viewer = seat.seat if seat else None
        lines: list[str] = []
        plain: list[str] = []  # the attached .txt shows no markdown: names as typed
        table.client_locale = str(interaction.locale)
        lang = table.member_lang
        for row in await self.bot.store.actions(record.id):
            for raw in row.events:
                event = Event.model_validate(raw)
                if event.visible_to(viewer):
                    head = (translate(lang, "{move}. (private)", move=row.version) + " "
                            if event.to else f"{row.version}. ")
                    lines.append(head + cog.event_line(table, event, table.names, lang))
                    plain.append(head + cog.event_line(table, event, table.plain_names, lang))
        if not lines:
            lines = [translate(lang, "No moves yet.")]
        text = "\n".join(lines)
        title = self._title(record, lang)
        if len(text) <= 1900:
            await send_ephemeral(interaction, translate(lang, "**{title}: log**", title=title)
                                 + f"\n{text}", secret=True)
        else:
            await send_ephemeral(
                interaction, translate(lang, "**{title}: log** (last moves below, full log "
                                       "attached)", title=title) + "\n"
                + "\n".join(lines[-15:])[-1500:],
                file=discord.File(io.BytesIO("\n".join(plain).encode()),
                                  filename=f"game-{record.id}-log.txt"),
                secret=True,
            )

    @game.command(name="replay", description="Step through a finished game of this server "
                  "(only you see it).")
    @app_commands.describe(number="The game's number (in its tables' last line); default: "
                           "the game of this thread")
    async def replay(self, interaction: discord.Interaction,
                     number: app_commands.Range[int, 1, 10**15] | None = None) -> None:
        if number is None:
            here = (await self.bot.store.game_id_by_thread(interaction.channel_id)
                    if interaction.channel_id is not None else None)
            if here is None:
                raise GameError("which_game", N_("Which game? Use /game replay in the game's "
                                "thread, or give its number (the last line of its tables "
                                "shows it)."))
            number = here
        await defer(interaction, ephemeral=True, thinking=True)
        await self.bot.replays.open(interaction, number)

    @app_commands.command(name="rules", description="How to play one of the games.")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(game="Which game")
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        spec = self.bot.registry.get(game)
        if spec is None:
            raise GameError("unknown_game", lambda lang: translate(
                lang, "There is no game called “{name}”.", name=quoted(game)))
        lang = lang_of(interaction)
        kwargs: dict[str, Any] = {}
        cog = self.bot.game_cog(spec.key)
        if isinstance(cog, GameCog):
            data = await cog.example_image(lang)
            if data:
                kwargs["file"] = discord.File(io.BytesIO(data), filename="example.png")
        summary = spec.rules_summary
        if isinstance(cog, GameCog) and cog.presenter is not None:
            summary = cog.presenter.rules(summary, lang=lang)
        kwargs["view"] = card(
            accent=accent_of(spec), lang=lang,
            before=["### " + translate(lang, "How to play {game}", game=spec.name), summary],
            picture="example.png" if "file" in kwargs else None,
            alt=translate(lang, "An example table of {game} part way through a game.",
                          game=spec.name),
            footer=translate(lang, "{least}-{most} players. Start with /play.",
                             least=spec.min_players, most=spec.max_players))
        await send_ephemeral(interaction, **kwargs)


async def setup(bot: HerdBot) -> None:
    """Extension entry point."""
    await bot.add_cog(GameCommands(bot))


__all__ = ["GameCommands", "Table", "setup"]
