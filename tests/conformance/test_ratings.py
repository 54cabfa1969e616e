"""Every request of the rating commands, checked against Discord's OpenAPI spec: a rated
game of two members with markdown names, ``/play rated:``, ``/leaderboard`` and its
Previous/Next pages (public, then private), ``/stats show`` with its chart,
``/settings new_season``, ``/leaderboard season:``, an unknown season, ``/stats forget``."""

from __future__ import annotations

from bot.sandbox.capture import MARKDOWN_NAMES
from bot.sandbox.conformance import Spec
from tests.support.ratings import finish_game, seed_ratings

CHECKED = "requests_checked"


async def test_the_rating_commands_conform(spec: Spec, record_property, world, sb):
    a, b = world.add_member(MARKDOWN_NAMES[0]), world.add_member(MARKDOWN_NAMES[1])
    mo = world.member("Mo")
    await seed_ratings(sb, world.guild_id, 24)
    await finish_game(world, sb, winner=a.name, loser=b.name)
    await a.slash("play", game="tiny", rated=False)
    await a.slash("leaderboard", game="tiny")
    first = a.last_reply
    await b.click(first, "Next")
    await b.click(b.last_reply, "Next")
    await b.click(b.last_reply, "Previous")
    await a.slash("stats show", game="tiny", member=b)
    await a.slash("stats show")
    await mo.slash("settings", new_season=True)
    await a.slash("leaderboard", game="tiny", season=0)
    await a.slash("leaderboard", game="tiny", season=9)
    await b.slash("stats forget")
    await a.slash("leaderboard", game="tiny")
    report = spec.check(list(world.requests))
    record_property(CHECKED, report.checked)
    assert not report.violations, report.summary()
    assert report.checked == len(world.requests) >= 30
