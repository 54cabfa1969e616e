"""Lists a member may get stay within Discord's limits (2,000 characters of content): a
member in 100 games is answered with the newest few and a count, and a reply Discord
refuses still gives a short sentence, never an endless "thinking...". The real HerdBot
(tiny game) through discord.py's own dispatch against the sandbox, which refuses an
over-long content as Discord does (400 50035)."""

from __future__ import annotations

from tests.faults.common import answered, start_tiny
from tests.support import body, headline, title

NO = "\N{NO ENTRY SIGN} "


async def in_games(world, sb, host, other, n: int) -> list:
    """``n`` running tiny games of ``host`` and ``other``; their threads, oldest first."""
    return [(await start_tiny(world, host, [other])).thread for _ in range(n)]


async def test_a_member_in_100_games_gets_the_newest_ten_and_a_count(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    threads = await in_games(world, sb, ana, bo, 100)
    every = ", ".join(f"Tiny Race #{100 - i} in <#{threads[99 - i].id}>" for i in range(100))
    assert len(every) > 4000  # the whole list is far over Discord's 2,000
    newest = ", ".join(f"Tiny Race #{100 - i} in <#{threads[99 - i].id}>" for i in range(10))
    for command in ("game hand", "game status", "game log", "game leave", "game end"):
        it = await ana.slash(command)
        assert answered(it)
        reply = ana.last_reply
        assert reply.ephemeral and not reply.loading
        assert reply.content == (
            f"{NO}You are in 100 games ({newest}, \N{HORIZONTAL ELLIPSIS} and 90 more): use "
            "the command in the game's thread.")
        assert len(reply.content) < 2000
    # In a game's thread the command means that game.
    await ana.slash("game hand", in_channel=threads[0])
    assert headline(ana.last_reply).startswith("Your secret token is ")


async def test_a_reply_discord_refuses_is_told_in_a_short_sentence(world, sb):
    """Whatever answer Discord refuses (here /game hand's, 400 50035), the member gets a
    short sentence instead of an endless "thinking..."."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    world.faults.fail("POST", r"^/webhooks/\d+/[^/]+$", 400, code=50035,
                      message="Invalid Form Body")
    it = await ana.slash("game hand", in_channel=lobby.thread)
    assert answered(it)
    assert ana.last_reply.ephemeral and ana.last_reply.content == (
        f"{NO}I could not show my answer: Discord refused it (it did not fit Discord's "
        "message limits).")


async def test_a_leaderboard_of_100_members_shows_15_and_counts_the_rest(world, sb):
    ana = world.member("Ana")
    await sb.bot.store.record_result(world.guild_id, "tiny",
                                     [(1000 + i, i < 50, i) for i in range(100)])
    it = await ana.slash("stats show")
    assert answered(it)
    assert title(ana.last_reply) == "All games leaderboard"
    # Best first: the 50 winners (by user id), then the others.
    assert body(ana.last_reply) == "\n".join(
        [f"{i + 1}. <@{1000 + i}> Tiny Race \N{EM DASH} 1/1 won (100%), best {i}"
         for i in range(15)] + ["\N{HORIZONTAL ELLIPSIS} and 85 more"])
