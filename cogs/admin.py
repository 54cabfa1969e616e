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
from bot.discord.replies import answer_public, quoted, send_ephemeral
from bot.discord.text import md_name, plain_name
from bot.i18n import NATIVE_NAMES, SHIPPED, game_language
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
            raise GameError("no_permission", "Only members with Manage Server can change settings.")
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
        season_line = ""
        if new_season:
            number = await store.start_season(interaction.guild_id or 0)
            season_line = (f"\nSeason {number} has started: everybody's rating starts afresh. "
                           f"Last season's table: /leaderboard season:{number - 1}")
        if delete_preset is not None:
            if not await store.delete_preset(interaction.guild_id or 0, delete_preset):
                raise GameError("no_preset", "This server has no preset called "
                                f"“{quoted(delete_preset)}”.")
            season_line += f"\nPreset “{md_name(delete_preset)}” deleted."
        if presets or delete_preset is not None:
            season_line += "\n" + await self._presets_text(interaction.guild_id or 0)
        cfg = self.bot.settings
        timer = current.turn_timer or cfg.default_turn_timer
        dms = cfg.default_dm_notifications if current.dm_notifications is None else current.dm_notifications
        channel = f"<#{current.game_channel_id}>" if current.game_channel_id else "any channel"
        lobbies = current.max_open_lobbies or cfg.max_open_lobbies
        idle = await self.bot.service.ends_idle_games(interaction.guild_id or 0)
        guild_locale = interaction.guild_locale
        lang = game_language(current.language,
                             str(guild_locale) if guild_locale is not None else None)
        lang_source = "chosen" if current.language else "the server's Discord language"
        await send_ephemeral(interaction, view=panel(
            accent=DEFAULT_ACCENT,
            words=f"**herdbot settings**\nDefault turn timer: {timer}\nDM hands and turn "
                  f"notices: {'on' if dms else 'off'}\nGames may start in: {channel}\n"
                  "Where I may not open a game's thread: "
                  f"{'a game in one message' if current.one_message else 'no game'}\n"
                  f"Language of new games: {NATIVE_NAMES[lang]} ({lang_source})\n"
                  f"Open lobbies per member: {lobbies}\n"
                  f"End games after 14 days without a move: {'on' if idle else 'off'}"
                  + season_line),
            allowed_mentions=discord.AllowedMentions.none())

    async def _presets_text(self, guild_id: int) -> str:
        """The server's presets, one line each: name (markdown and pings inert), game and
        options."""
        found = await self.bot.store.presets(guild_id)
        if not found:
            return "House-rule presets: none yet (save one from a lobby's Options)."
        lines = ["House-rule presets:"]
        for p in found:
            spec = self.bot.registry.get(p.kind)
            rules = ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in sorted(p.options.items()))
            lines.append(f"\N{BULLET} “{md_name(p.name)}” ({spec.name if spec else p.kind}): "
                         f"{md_name(rules, 120)}")
        if len(lines) > 9:  # the reply stays inside Discord's 2,000 characters
            lines = [*lines[:9], f"\N{HORIZONTAL ELLIPSIS} and {len(lines) - 9} more"]
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
            raise GameError("unknown_game", f"There is no game called “{quoted(game)}”.")
        rows = await self.bot.store.stats(interaction.guild_id or 0, kind=game,
                                          user_id=member.id if member else None)
        title = (self.bot.registry[game].name if game else "All games") + " leaderboard"
        if not rows:
            board = "No finished games yet."
        else:
            lines = []
            for i, r in enumerate(rows[:LEADERBOARD], 1):
                rate = 100 * r.won / r.played if r.played else 0
                name = self.bot.registry.get(r.kind)
                lines.append(
                    f"{i}. <@{r.user_id}> {name.name if name and not game else ''} \N{EM DASH} "
                    f"{r.won}/{r.played} won ({rate:.0f}%), best {r.best_score}"
                )
            if len(rows) > LEADERBOARD:
                lines.append(f"\N{HORIZONTAL ELLIPSIS} and {len(rows) - LEADERBOARD} more")
            board = "\n".join(lines)
        who = member or interaction.user
        fields, chart = await rating_section(
            self.bot, interaction.guild_id or 0, who.id, who.display_name,
            {lv.value: lv.label for lv in Level})
        extra: dict[str, Any] = {}
        alt = ""
        if chart is not None:
            extra["attachments"] = [chart]
            alt = (f"{plain_name(who.display_name)}'s rating after each of their last rated "
                   f"games: {', '.join(name.removesuffix(' rating') for name, _ in fields)}.")
        view = card(accent=accent_of(self.bot.registry.get(game) if game else None),
                    before=[f"### {title}", board,
                            *(f"**{name}**\n{value}" for name, value in fields)],
                    picture=None if chart is None else "ratings.png", alt=alt)
        await answer_public(interaction, view=view,
                            allowed_mentions=discord.AllowedMentions.none(), **extra)

    @stats_group.command(name="forget", description="Delete your own statistics on this server.")
    async def stats_forget(self, interaction: discord.Interaction) -> None:
        n = await self.bot.store.forget_stats(interaction.user.id, interaction.guild_id)
        rated = await self.bot.store.forget_ratings(interaction.user.id, interaction.guild_id or 0)
        more = (f" Your ratings are deleted too ({rated} game and season tables): you are on "
                "no leaderboard here." if rated else "")
        await send_ephemeral(interaction, f"Your statistics are deleted ({n} game kinds).{more}")

    @app_commands.command(name="leaderboard", description="The server's best players of a game.",
                          extras={"public": True})
    @app_commands.describe(game="Which game",
                           season="Which season (default: the current one; 0: before seasons)")
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          season: app_commands.Range[int, 0, 100_000] | None = None) -> None:
        if game not in self.bot.registry:
            raise GameError("unknown_game", f"There is no game called “{quoted(game)}”.")
        guild = interaction.guild_id or 0
        current, _ = await self.bot.store.season(guild)
        if season is not None and season > current:
            now = f"the current season is {current}" if current else "this server has no seasons"
            raise GameError("no_season", f"Season {season} has not started; {now}.")
        view = await leaderboard_page(self.bot, guild, game,
                                      current if season is None else season, 0,
                                      interaction.user.id)
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
        await send_ephemeral(interaction, "I will DM you your hands and a notice when it is your "
                             "turn." if on else "I will not DM you; use the My hand button in games.")


async def setup(bot: HerdBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Admin(bot))
