"""Server and member commands: ``/settings``, ``/stats``, ``/leaderboard``, ``/notify``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.levels import Level
from bot.discord.bot import HerdBot
from bot.discord.installs import SERVER_INSTALL, SERVERS
from bot.discord.layout import DEFAULT_ACCENT, accent_of, card, panel
from bot.discord.leaderboard import NOBODY, LeaderboardButton, leaderboard_page, rating_section
from bot.discord.replies import answer_public, lang_of, quoted, send_ephemeral
from bot.discord.text import md_name, plain_name
from bot.i18n import (
    COMMAND_TEXT,
    N_,
    NATIVE_NAMES,
    SHIPPED,
    game_language,
    translate,
    translate_in,
    translate_n,
)
from bot.runtime import GameError

#: The most open lobbies a server may allow one member (as the config's upper bound).
MAX_LOBBIES = 25
#: Rows a leaderboard shows (the rest are counted).
LEADERBOARD = 15

TIMERS = [
    app_commands.Choice(name="No turn timer", value="off"),
    app_commands.Choice(name="2 minutes", value="2m"),
    app_commands.Choice(name="10 minutes", value="10m"),
    app_commands.Choice(name="1 hour", value="1h"),
    app_commands.Choice(name="24 hours", value="24h"),
]

#: ``/settings language``: each language named in itself, and going back to the server's
#: Discord locale.
AUTO_LANGUAGE = "auto"
LANGUAGES = [app_commands.Choice(name=NATIVE_NAMES[lang], value=lang) for lang in SHIPPED] + [
    app_commands.Choice(name="The server's Discord language", value=AUTO_LANGUAGE)]
#: A turn timer's value -> its words in the settings panel.
TIMER_WORDS = {c.value: c.name for c in TIMERS}


def member_lang(interaction: discord.Interaction) -> str:
    """The language of a member's panel outside a game: their client's, else the
    server's Discord language, else English."""
    guild = interaction.guild_locale
    return lang_of(interaction, str(guild) if guild is not None else None)


def unknown_game(game: str) -> GameError:
    """The refusal of a game name the bot does not know."""
    return GameError("unknown_game", lambda lang: translate(
        lang, "There is no game called “{name}”.", name=quoted(game)))


class Admin(commands.Cog):
    """Per-server settings, statistics and DM preferences."""

    stats_group = app_commands.Group(name="stats", description="Game statistics on this server",
                                     allowed_installs=SERVER_INSTALL, allowed_contexts=SERVERS)

    def __init__(self, bot: HerdBot) -> None:
        self.bot = bot
        choices = [app_commands.Choice(name=s.name, value=s.key) for s in bot.registry]
        self.stats_show._params["game"].choices = choices  # type: ignore[attr-defined]
        self.leaderboard._params["game"].choices = choices  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LeaderboardButton)

    @app_commands.command(name="settings", description="Server defaults for herdbot games.")
    @app_commands.describe(
        turn_timer="Default turn timer for new games",
        dm_notifications="DM players their hands and turn notices",
        game_channel="The only channel where games may be started (leave empty for any)",
        clear_channel="Allow games in every channel again",
        lobbies_per_member="How many open lobbies one member may host at once (1-25)",
        end_idle_games="End a game nobody moves in for 14 days (its thread is told a day before)",
        new_season="Start a new rating season: everybody starts afresh (old tables stay readable)",
        language="The language of new games' tables and threads (default: the server's)",
        presets="List the server's house-rule presets (saved from a lobby's Options)",
        delete_preset="Delete one of the server's house-rule presets",
        one_message="Play in one message where I may not open a game's thread",
    )
    @app_commands.choices(turn_timer=TIMERS, language=LANGUAGES)
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def settings(
        self,
        interaction: discord.Interaction,
        turn_timer: app_commands.Choice[str] | None = None,
        dm_notifications: bool | None = None,
        game_channel: discord.TextChannel | None = None,
        clear_channel: bool = False,
        lobbies_per_member: app_commands.Range[int, 1, MAX_LOBBIES] | None = None,
        end_idle_games: bool | None = None,
        new_season: bool = False,
        language: app_commands.Choice[str] | None = None,
        presets: bool = False,
        delete_preset: str | None = None,
        one_message: bool | None = None,
    ) -> None:
        perms = getattr(interaction.user, "guild_permissions", None)
        if not (perms and perms.manage_guild):
            raise GameError("no_permission", N_("Only members with Manage Server can change settings."))
        store = self.bot.store
        current = await store.guild_settings(interaction.guild_id or 0)
        if turn_timer is not None:
            current.turn_timer = turn_timer.value
        if dm_notifications is not None:
            current.dm_notifications = dm_notifications
        if game_channel is not None:
            current.game_channel_id = game_channel.id
        if clear_channel:
            current.game_channel_id = None
        if lobbies_per_member is not None:
            current.max_open_lobbies = lobbies_per_member
        if end_idle_games is not None:
            current.end_idle_games = end_idle_games
        if language is not None:
            current.language = None if language.value == AUTO_LANGUAGE else language.value
        if one_message is not None:
            current.one_message = one_message
        await store.save_guild_settings(current)
        said = member_lang(interaction)
        season_line = ""
        if new_season:
            number = await store.start_season(interaction.guild_id or 0)
            season_line = "\n" + translate(
                said, "Season {number} has started: everybody's rating starts afresh. Last "
                "season's table: /leaderboard season:{previous}", number=number,
                previous=number - 1)
        if delete_preset is not None:
            if not await store.delete_preset(interaction.guild_id or 0, delete_preset):
                raise GameError("no_preset", lambda lang: translate(
                    lang, "This server has no preset called “{name}”.",
                    name=quoted(delete_preset)))
            season_line += "\n" + translate(said, "Preset “{name}” deleted.",
                                            name=md_name(delete_preset))
        if presets or delete_preset is not None:
            season_line += "\n" + await self._presets_text(interaction.guild_id or 0, said)
        cfg = self.bot.settings
        timer = current.turn_timer or cfg.default_turn_timer
        dms = cfg.default_dm_notifications if current.dm_notifications is None else current.dm_notifications
        lobbies = current.max_open_lobbies or cfg.max_open_lobbies
        idle = await self.bot.service.ends_idle_games(interaction.guild_id or 0)
        guild_locale = interaction.guild_locale
        lang = game_language(current.language,
                             str(guild_locale) if guild_locale is not None else None)
        words = [
            translate(said, "**herdbot settings**"),
            translate(said, "Default turn timer: {timer}",
                      timer=translate_in(said, COMMAND_TEXT, TIMER_WORDS[timer]) if timer in TIMER_WORDS
                      else timer),
            translate(said, "DM hands and turn notices: on") if dms else
            translate(said, "DM hands and turn notices: off"),
            translate(said, "Games may start in: {channel}",
                      channel=f"<#{current.game_channel_id}>") if current.game_channel_id else
            translate(said, "Games may start in: any channel"),
            translate(said, "Where I may not open a game's thread: a game in one message")
            if current.one_message else
            translate(said, "Where I may not open a game's thread: no game"),
            translate(said, "Language of new games: {language} (chosen)",
                      language=NATIVE_NAMES[lang]) if current.language else
            translate(said, "Language of new games: {language} (the server's Discord "
                      "language)", language=NATIVE_NAMES[lang]),
            translate(said, "Open lobbies per member: {count}", count=lobbies),
            translate(said, "End games after 14 days without a move: on") if idle else
            translate(said, "End games after 14 days without a move: off"),
        ]
        await send_ephemeral(interaction, view=panel(
            accent=DEFAULT_ACCENT, words="\n".join(words) + season_line, lang=said),
            allowed_mentions=discord.AllowedMentions.none())

    async def _presets_text(self, guild_id: int, lang: str | None = None) -> str:
        """The server's presets in ``lang``, one line each: name (markdown and pings
        inert), game and options."""
        found = await self.bot.store.presets(guild_id)
        if not found:
            return translate(lang, "House-rule presets: none yet (save one from a lobby's "
                             "Options).")
        lines = [translate(lang, "House-rule presets:")]
        for p in found:
            spec = self.bot.registry.get(p.kind)
            rules = ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in sorted(p.options.items()))
            lines.append(f"\N{BULLET} “{md_name(p.name)}” ({spec.name if spec else p.kind}): "
                         f"{md_name(rules, 120)}")
        if len(lines) > 9:  # the reply stays inside Discord's 2,000 characters
            lines = [*lines[:9], translate_n(lang, "… and {count} more", "… and {count} more",
                                             len(lines) - 9)]
        return "\n".join(lines)

    @settings.autocomplete("delete_preset")
    async def _preset_names(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        found = await self.bot.store.presets(interaction.guild_id or 0)
        return [app_commands.Choice(name=plain_name(p.name, 100), value=p.name)
                for p in found if typed in p.name.lower()][:25]

    @stats_group.command(name="show", description="Games played and won on this server.",
                         extras={"public": True})
    @app_commands.describe(game="Which game", member="Whose stats (default: the leaderboard)")
    async def stats_show(
        self, interaction: discord.Interaction, game: str | None = None,
        member: discord.Member | None = None,
    ) -> None:
        if game is not None and game not in self.bot.registry:
            raise unknown_game(game)
        lang = member_lang(interaction)
        rows = await self.bot.store.stats(interaction.guild_id or 0, kind=game,
                                          user_id=member.id if member else None)
        title = (translate(lang, "{game} leaderboard", game=self.bot.registry[game].name)
                 if game else translate(lang, "All games leaderboard"))
        if not rows:
            board = translate(lang, "No finished games yet.")
        else:
            lines = []
            for i, r in enumerate(rows[:LEADERBOARD], 1):
                rate = 100 * r.won / r.played if r.played else 0
                name = self.bot.registry.get(r.kind)
                lines.append(f"{i}. <@{r.user_id}> {name.name if name and not game else ''} "
                             "\N{EM DASH} " + translate(
                                 lang, "{won}/{played} won ({rate}%), best {best}",
                                 won=r.won, played=r.played, rate=f"{rate:.0f}",
                                 best=r.best_score))
            if len(rows) > LEADERBOARD:
                lines.append(translate_n(lang, "… and {count} more", "… and {count} more",
                                         len(rows) - LEADERBOARD))
            board = "\n".join(lines)
        who = member or interaction.user
        fields, chart = await rating_section(
            self.bot, interaction.guild_id or 0, who.id, who.display_name,
            {lv.value: lv.label for lv in Level}, lang)
        extra: dict[str, Any] = {}
        alt = ""
        if chart is not None:
            extra["attachments"] = [chart]
            games = [spec.name for spec in self.bot.registry
                     if any(name == translate(lang, "{game} rating", game=spec.name)
                            for name, _ in fields)]
            alt = translate(lang, "{name}'s rating after each of their last rated games: "
                            "{games}.", name=plain_name(who.display_name),
                            games=", ".join(games))
        view = card(accent=accent_of(self.bot.registry.get(game) if game else None),
                    before=[f"### {title}", board,
                            *(f"**{name}**\n{value}" for name, value in fields)],
                    picture=None if chart is None else "ratings.png", alt=alt, lang=lang)
        await answer_public(interaction, view=view,
                            allowed_mentions=discord.AllowedMentions.none(), **extra)

    @stats_group.command(name="forget", description="Delete your own statistics on this server.")
    async def stats_forget(self, interaction: discord.Interaction) -> None:
        n = await self.bot.store.forget_stats(interaction.user.id, interaction.guild_id)
        rated = await self.bot.store.forget_ratings(interaction.user.id, interaction.guild_id or 0)
        lang = member_lang(interaction)
        said = translate_n(lang, "Your statistics are deleted ({count} game kind).",
                           "Your statistics are deleted ({count} game kinds).", n)
        if rated:
            said += " " + translate_n(
                lang, "Your ratings are deleted too ({count} game and season table): you are "
                "on no leaderboard here.", "Your ratings are deleted too ({count} game and "
                "season tables): you are on no leaderboard here.", rated)
        await send_ephemeral(interaction, said)

    @app_commands.command(name="leaderboard", description="The server's best players of a game.",
                          extras={"public": True})
    @app_commands.describe(game="Which game",
                           season="Which season (default: the current one; 0: before seasons)")
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          season: app_commands.Range[int, 0, 100_000] | None = None) -> None:
        if game not in self.bot.registry:
            raise unknown_game(game)
        guild = interaction.guild_id or 0
        current, _ = await self.bot.store.season(guild)
        if season is not None and season > current:
            asked = season
            raise GameError("no_season", lambda lang: translate(
                lang, "Season {number} has not started; the current season is {current}.",
                number=asked, current=current) if current else translate(
                lang, "Season {number} has not started; this server has no seasons.",
                number=asked))
        view = await leaderboard_page(self.bot, guild, game,
                                      current if season is None else season, 0,
                                      interaction.user.id, member_lang(interaction))
        await answer_public(interaction, view=view, allowed_mentions=NOBODY)

    @app_commands.command(name="notify", description="Turn herdbot's direct messages on or off.")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(direct_messages="on: DM my hands and turn notices; off: never DM me")
    @app_commands.choices(direct_messages=[app_commands.Choice(name="on", value="on"),
                                           app_commands.Choice(name="off", value="off")])
    async def notify(self, interaction: discord.Interaction,
                     direct_messages: app_commands.Choice[str]) -> None:
        on = direct_messages.value == "on"
        await self.bot.store.set_member_prefs(interaction.user.id, dm_opt_out=not on,
                                              turn_notices=on, dm_closed=False,
                                              dm_closed_told=False)
        lang = lang_of(interaction)
        await send_ephemeral(interaction, translate(
            lang, "I will DM you your hands and a notice when it is your turn.") if on else
            translate(lang, "I will not DM you; use the My hand button in games."))


async def setup(bot: HerdBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Admin(bot))
