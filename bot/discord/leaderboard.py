"""The server's leaderboard of one game (``/leaderboard``), paged with Previous and Next,
and the rating part of ``/stats show``. Names are members' own text (:func:`md_name`);
nothing here pings anybody.

The page buttons are persistent (:class:`LeaderboardButton`, custom id
``lb:<game>:<season>:<page>``): a press answers the presser privately with that page and
their own place, so the public table never changes under other readers' eyes.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Sequence
from typing import Any

import discord
from babel.numbers import format_decimal

from bot.discord.host import Host
from bot.discord.layout import accent_of, action_rows, card
from bot.discord.replies import defer, edit_panel, lang_of, send_ephemeral
from bot.discord.text import md_name
from bot.i18n import ENGLISH, PSEUDO, number, supported, translate, translate_n
from bot.render.rating_chart import rating_chart
from bot.store import Matchup, RatingRecord

#: Members per page.
PAGE = 10
COLOUR = 0x6B8E23
NOBODY = discord.AllowedMentions.none()
#: The names shown at most this long (Discord's display names are at most 32).
NAME_LIMIT = 32


def games_and_wins(lang: str | None, games: int, wins: int) -> str:
    """``"4 games, 1 win"`` in ``lang``."""
    return translate(lang, "{games}, {wins}",
                     games=translate_n(lang, "{count} game", "{count} games", games),
                     wins=translate_n(lang, "{count} win", "{count} wins", wins))


def rating_number(lang: str | None, value: float) -> str:
    """A rating with one decimal, written the way ``lang`` writes numbers (``12.3``,
    ``12,3``)."""
    return str(format_decimal(value, format="#,##0.0",
                              locale=ENGLISH if lang in (None, PSEUDO) else supported(lang)))


def season_label(season: int, current: int, lang: str | None = None) -> str:
    """How a season is named in ``lang``: ``"Season 2"``; season 0 is ``"before
    seasons"`` once the server has started one, and nothing while it has none."""
    if season:
        return translate(lang, "Season {number}", number=season)
    return translate(lang, "before seasons") if current else ""


def record_line(rank: int, r: RatingRecord, *, bold: bool = False,
                lang: str | None = None) -> str:
    """One table line in ``lang``: place, name, rating (ordinal, one decimal), games and
    wins."""
    name = md_name(r.name, NAME_LIMIT) or translate(lang, "(no name)")
    if bold:
        name = f"**{name}**"
    return (f"{rank}. {name} \N{EM DASH} {rating_number(lang, r.ordinal)} \N{MIDDLE DOT} "
            + games_and_wins(lang, r.games, r.wins))


def page_card(game: str, season: int, current: int, rows: list[RatingRecord], total: int,
              page: int, viewer: int, mine: tuple[int, RatingRecord] | None,
              buttons: Sequence[discord.ui.Item[Any]] = (), accent: int = COLOUR,
              lang: str | None = None) -> discord.ui.LayoutView:
    """Page ``page`` (0 first) of ``game``'s table in ``season`` as one Components V2
    message (``rows``: that page, ``total``: members on the table): its title as a
    ``### `` heading, one line per member, the place of member ``viewer`` under **Your
    place** (``mine``: their place and rating, ``None`` when they have no rated game
    there), the page ``buttons`` and a footer (page, members, what the rating is), in
    ``lang``."""
    label = season_label(season, current, lang)
    title = "### " + (translate(lang, "{game} leaderboard — {season}", game=game, season=label)
                      if label else translate(lang, "{game} leaderboard", game=game))
    if total == 0:
        nobody = (translate(lang, "Nobody has a rated game of {game} on this server in "
                            "{season} yet.", game=game, season=label) if season else
                  translate(lang, "Nobody has a rated game of {game} on this server from before "
                            "seasons yet.", game=game) if label else
                  translate(lang, "Nobody has a rated game of {game} on this server yet.",
                            game=game))
        return card(accent=accent, before=[title, nobody + " " + translate(
            lang, "A finished game with at least two members is rated.")], lang=lang)
    start = page * PAGE
    lines = "\n".join(record_line(start + i + 1, r, bold=r.user_id == viewer, lang=lang)
                      for i, r in enumerate(rows))
    if mine is None:
        you = (translate(lang, "You have no rated game of {game} here in {season}.", game=game,
                         season=label) if season else
               translate(lang, "You have no rated game of {game} here from before seasons.",
                         game=game) if label else
               translate(lang, "You have no rated game of {game} here.", game=game))
    else:
        place, r = mine
        you = (translate(lang, "#{place} of {total}", place=number(lang, place),
                         total=number(lang, total))
               + f" \N{EM DASH} {rating_number(lang, r.ordinal)} \N{MIDDLE DOT} "
               + games_and_wins(lang, r.games, r.wins))
    pages = (total + PAGE - 1) // PAGE
    members = translate_n(lang, "{count} rated member", "{count} rated members", total)
    return card(accent=accent, before=[title, lines, translate(lang, "**Your place**") + "\n" + you],
                rows=action_rows(buttons),
                footer=translate(lang, "Page {page} of {pages} · {members} · rating = skill "
                                 "minus three times its uncertainty", page=page + 1,
                                 pages=pages, members=members), lang=lang)


def page_buttons(kind: str, season: int, page: int, total: int,
                 lang: str | None = None) -> list[discord.ui.Item[Any]]:
    """Previous and Next (in ``lang``) for page ``page`` (none when everything fits on one
    page)."""
    pages = (total + PAGE - 1) // PAGE
    if pages <= 1:
        return []
    return [LeaderboardButton(kind, season, page - 1, label=translate(lang, "Previous"),
                              disabled=page <= 0),
            LeaderboardButton(kind, season, page + 1, label=translate(lang, "Next"),
                              disabled=page + 1 >= pages)]


async def leaderboard_page(bot: Host, guild_id: int, kind: str, season: int, page: int,
                           viewer: int, lang: str | None = None) -> discord.ui.LayoutView:
    """A page of the server's table with its buttons, as one Components V2 message in the
    game's accent colour, in ``lang`` (:func:`page_card`; a page past the end shows the
    last one)."""
    store = bot.store
    current, _ = await store.season(guild_id)
    rows, total = await store.leaderboard(guild_id, kind, season, offset=page * PAGE,
                                          limit=PAGE)
    last = max((total - 1) // PAGE, 0)
    if page > last or page < 0:
        page = min(max(page, 0), last)
        rows, total = await store.leaderboard(guild_id, kind, season, offset=page * PAGE,
                                              limit=PAGE)
    mine = await store.rank_of(guild_id, kind, season, viewer)
    spec = bot.registry.get(kind)
    return page_card(spec.name if spec else kind, season, current, rows, total, page, viewer,
                     mine, page_buttons(kind, season, page, total, lang), accent_of(spec), lang)


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"lb:(?P<kind>[a-z0-9-]{1,40}):(?P<season>\d{1,6}):"
                                 r"(?P<page>-?\d{1,6})"):
    """Previous or Next of a leaderboard: the presser gets that page privately."""

    def __init__(self, kind: str, season: int, page: int, *, label: str = "Next",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            custom_id=f"lb:{kind}:{season}:{page}", label=label, disabled=disabled,
            style=discord.ButtonStyle.secondary))
        self.kind, self.season, self.page = kind, season, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LeaderboardButton:
        return cls(match["kind"], int(match["season"]), int(match["page"]),
                   label=getattr(item, "label", None) or "Next")

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        bot: Host = interaction.client  # type: ignore[assignment]
        private = interaction.message is not None and interaction.message.flags.ephemeral
        await defer(interaction, ephemeral=True, thinking=not private)
        view = await leaderboard_page(bot, interaction.guild_id or 0, self.kind,
                                      self.season, self.page, interaction.user.id,
                                      lang_of(interaction, str(interaction.guild_locale or "")))
        if private:  # (a page shown before pages were V2 messages had an embed)
            await edit_panel(interaction, content=None, embed=None, view=view,
                             allowed_mentions=NOBODY)
        else:
            await send_ephemeral(interaction, view=view, allowed_mentions=NOBODY)


def matchup_text(m: Matchup, level_label: str | None = None, lang: str | None = None) -> str:
    """``"Bo (3 ahead, 1 behind in 4 games)"`` in ``lang``; an AI level as ``"the Hard
    AI"`` (``level_label``: the level's English label)."""
    if m.user_id is None:
        level = translate(lang, level_label) if level_label else ""
        who = translate(lang, "the {level} AI", level=level)
    else:
        who = md_name(m.name, NAME_LIMIT) or translate(lang, "(no name)")
    return translate_n(lang, "{who} ({ahead} ahead, {behind} behind in {count} game)",
                       "{who} ({ahead} ahead, {behind} behind in {count} games)", m.games,
                       who=who, ahead=m.ahead, behind=m.behind)


def best_and_worst(matchups: list[Matchup]) -> tuple[Matchup, Matchup] | None:
    """The opponent the member finished ahead of most often (share of games, then more
    games, then first listed) and the one most often ahead of them; ``None`` without any."""
    if not matchups:
        return None

    def share(m: Matchup) -> float:
        return (m.ahead - m.behind) / m.games if m.games else 0.0

    best = max(matchups, key=lambda m: (share(m), m.games))
    worst = min(matchups, key=lambda m: (share(m), -m.games))
    return best, worst


async def rating_section(bot: Host, guild_id: int, user_id: int, name: str,
                         levels: dict[str, str], lang: str | None = None
                         ) -> tuple[list[tuple[str, str]], discord.File | None]:
    """The rating part of ``/stats show`` for a member: one ``(field name, value)`` per
    game rated in the server's current season (rating, place, games and wins, best and
    worst matchups) and the picture of their last 50 ratings per game (``None`` without
    any rated game; then one field says so), in ``lang``. ``levels``: AI level value ->
    label."""
    store = bot.store
    season, _ = await store.season(guild_id)
    ratings = await store.member_ratings(guild_id, user_id, season)
    who = md_name(name, NAME_LIMIT) or translate(lang, "This member")
    if not ratings:
        none = (translate(lang, "{name} has no rated games on this server in {season} yet.",
                          name=who, season=season_label(season, season, lang)) if season else
                translate(lang, "{name} has no rated games on this server yet.", name=who))
        return [(translate(lang, "Rating"), none)], None
    fields = []
    series = []
    for r in ratings:
        game = bot.registry[r.kind].name if r.kind in bot.registry else r.kind
        place = await store.rank_of(guild_id, r.kind, season, user_id)
        lines = [rating_number(lang, r.ordinal)
                 + (f" \N{MIDDLE DOT} #{number(lang, place[0])}" if place else "")
                 + " \N{MIDDLE DOT} " + games_and_wins(lang, r.games, r.wins)]
        pair = best_and_worst(await store.matchups(guild_id, user_id, r.kind))
        if pair is not None:
            best, worst = pair
            lines.append(translate(lang, "Best against {who}", who=matchup_text(
                best, levels.get(best.ai_level or ""), lang)))
            if worst != best:
                lines.append(translate(lang, "Worst against {who}", who=matchup_text(
                    worst, levels.get(worst.ai_level or ""), lang)))
        fields.append((translate(lang, "{game} rating", game=game), "\n".join(lines)))
        series.append((game, await store.rating_history(guild_id, user_id, r.kind, season)))
    pic = await asyncio.to_thread(rating_chart, series, lang or ENGLISH)
    return fields, discord.File(io.BytesIO(pic.png), filename="ratings.png")
