"""HerdBot's lookups: the game cog of a kind, found once and checked still loaded."""

from __future__ import annotations


async def test_the_game_cog_of_a_kind_is_the_loaded_one(sb):
    bot = sb.bot
    cog = bot.game_cog("tiny")
    assert cog is not None and cog.kind == "tiny"
    assert bot.game_cog("tiny") is cog and bot.game_cog("chess") is None
    await bot.remove_cog(cog.qualified_name)
    assert bot.game_cog("tiny") is None
    await bot.add_cog(cog)
    assert bot.game_cog("tiny") is cog


async def test_only_herdbot_run_freezes_what_start_up_made(sb):
    assert sb.bot.freeze_gc_when_ready is False
