"""/leaderboard, the rating part of /stats show, /settings new_season and /stats forget
through the sandbox with the tiny game: exact texts, paging, and nobody pinged."""

from __future__ import annotations

from tests.support import body, fields, headline, parts, pictures, rows, title
from tests.support.ratings import finish_game as _finish
from tests.support.ratings import seed_ratings as _seed


def _pinged(message) -> list:
    return [*message.data.get("mentions", []), *message.data.get("mention_roles", [])]


async def test_a_game_nobody_played_gets_a_sentence(world, sb):
    ana = world.member("Ana")
    await ana.slash("leaderboard", game="tiny")
    reply = ana.last_reply
    assert not reply.ephemeral and title(reply) == "Tiny Race leaderboard"
    assert body(reply) == (
        "Nobody has a rated game of Tiny Race on this server yet. A finished game with at "
        "least two members is rated.")
    assert rows(reply) == []
    await ana.slash("stats show", member=world.member("Bo"))
    assert fields(ana.last_reply) == [{"name": "Rating",
                                       "value": "Bo has no rated games on this server yet."}]
    assert pictures(ana.last_reply) == []


async def test_finished_games_are_rated_and_shown(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    await _finish(world, sb)
    await _finish(world, sb, rated=False)
    await ana.slash("leaderboard", game="tiny")
    board = await sb.bot.store.leaderboard(world.guild_id, "tiny", 0)
    a, b = board[0]
    assert body(ana.last_reply) == (
        f"1. **Ana** \N{EM DASH} {a.ordinal:.1f} \N{MIDDLE DOT} 1 game, 1 win\n"
        f"2. Bo \N{EM DASH} {b.ordinal:.1f} \N{MIDDLE DOT} 1 game, 0 wins")
    assert fields(ana.last_reply) == [{"name": "Your place", "value":
                                       f"#1 of 2 \N{EM DASH} {a.ordinal:.1f} \N{MIDDLE DOT} 1 game, 1 win"}]
    assert rows(ana.last_reply) == [] and _pinged(ana.last_reply) == []
    await bo.slash("stats show", game="tiny", member=ana)
    shown = bo.last_reply
    field = fields(shown)[0]
    assert field["name"] == "Tiny Race rating"
    assert field["value"] == (f"{a.ordinal:.1f} \N{MIDDLE DOT} #1 \N{MIDDLE DOT} 1 game, 1 win\n"
                              "Best against Bo (1 ahead, 0 behind in 1 game)")
    assert pictures(shown) == [("ratings.png", "Ana's rating after each of their last rated "
                                               "games: Tiny Race.")]
    assert shown.filenames == ["ratings.png"]
    # the lobby of an unrated game says so
    await ana.slash("play", game="tiny", rated=False)
    assert "Rated: no" in fields(ana.last_reply)[1]["value"]


async def test_pages_markdown_names_and_the_members_own_place_off_the_page(world, sb):
    ana = world.member("Ana")
    await _seed(sb, world.guild_id, 24)
    await _finish(world, sb)  # Ana and Bo: about 0 and below: off the first page
    await ana.slash("leaderboard", game="tiny")
    first = ana.last_reply
    lines = body(first).splitlines()
    assert lines[0] == "1. \\*\\*Bold\\*\\* \N{EM DASH} 29.0 \N{MIDDLE DOT} 1 game, 0 wins"
    assert lines[1] == "2. @\u200beveryone \N{EM DASH} 28.0 \N{MIDDLE DOT} 2 games, 0 wins"
    assert lines[2] == "3. <@\u200b123> \N{EM DASH} 27.0 \N{MIDDLE DOT} 3 games, 1 win"
    assert len(lines) == 10
    place = await sb.bot.store.rank_of(world.guild_id, "tiny", 0, ana.id)
    assert fields(first)[0]["value"].startswith(f"#{place[0]} of 26 \N{EM DASH}")
    assert place[0] > 10
    assert parts(first)["footer"] == (
        "Page 1 of 3 \N{MIDDLE DOT} 26 rated members \N{MIDDLE DOT} rating = skill minus "
        "three times its uncertainty")
    assert _pinged(first) == []
    await ana.click(first, "Next")
    page2 = ana.last_reply
    assert page2.ephemeral and body(page2).splitlines()[0].startswith("11. ")
    assert parts(page2)["footer"].startswith("Page 2 of 3")
    await ana.click(page2, "Next")
    page3 = ana.last_reply
    assert parts(page3)["footer"].startswith("Page 3 of 3")
    assert [c["disabled"] for row in rows(page3) for c in row["components"]] == [False, True]
    assert parts(first)["footer"].startswith("Page 1 of 3")  # public one unchanged


async def test_a_new_season_starts_afresh_and_the_old_table_stays(world, sb):
    mo, ana = world.member("Mo"), world.member("Ana")
    await _finish(world, sb)
    await ana.slash("settings", new_season=True)
    assert "Manage Server" in ana.last_reply.content
    await mo.slash("settings", new_season=True)
    assert headline(mo.last_reply).endswith(
        "\nSeason 1 has started: everybody's rating starts afresh. Last season's table: "
        "/leaderboard season:0")
    await ana.slash("leaderboard", game="tiny")
    assert title(ana.last_reply) == "Tiny Race leaderboard \N{EM DASH} Season 1"
    assert body(ana.last_reply).startswith("Nobody has a rated game of "
                                           "Tiny Race on this server in Season 1")
    await ana.slash("leaderboard", game="tiny", season=0)
    old = ana.last_reply
    assert title(old) == "Tiny Race leaderboard \N{EM DASH} before seasons"
    assert body(old).startswith("1. **Ana**")
    await ana.slash("leaderboard", game="tiny", season=4)
    assert ana.last_reply.content == ("\N{NO ENTRY SIGN} Season 4 has not started; the "
                                      "current season is 1.")


async def test_forget_leaves_every_leaderboard(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    await _finish(world, sb)
    await bo.slash("stats forget")
    assert bo.last_reply.content == (
        "Your statistics are deleted (1 game kind). Your ratings are deleted too (1 game "
        "and season table): you are on no leaderboard here.")
    await ana.slash("leaderboard", game="tiny")
    assert body(ana.last_reply).splitlines() == [body(ana.last_reply).splitlines()[0]]
    assert "Bo" not in body(ana.last_reply)
