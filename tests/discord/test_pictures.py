"""Table pictures through the bot (HerdBot.draw): drawn in the render process by default,
kept by their inputs (a repost of an unchanged table draws nothing), a broken pool is one
log line and the table still posts (drawn in the render thread), and
HERDBOT_RENDER_PROCESSES=0 draws in the thread."""

from __future__ import annotations

import logging
import os
import signal

import pytest_asyncio

from bot.app import builtin_games
from bot.games.registry import Registry
from bot.sandbox import World
from bot.sandbox.demo import NAMES
from tests.discord.conftest import make_bot

SPEC = builtin_games()["llamas-alpacas"]
EXTENSIONS = ("cogs.lobby", "cogs.game", "cogs.admin", "cogs.llamas_alpacas")


def _clock():
    from bot.runtime import ManualClock

    return ManualClock()


@pytest_asyncio.fixture(params=[1, 0], ids=["process", "thread"])
async def la(request, tmp_path):
    """(world, bot) with HERDBOT_RENDER_PROCESSES = 1 or 0; a started 2-player game."""
    world = World()
    for name in NAMES[:2]:
        world.add_member(name)
    bot = make_bot(tmp_path / "la.sqlite3", _clock(), registry=Registry([SPEC]),
                   extensions=EXTENSIONS, render_processes=request.param)
    sandbox = await world.connect(bot)
    try:
        bot.service.seed_factory = lambda: 1
        maya, tomasz = world.member(NAMES[0]), world.member(NAMES[1])
        await maya.slash("play", game="llamas-alpacas")
        lobby = maya.last_reply
        await tomasz.click(lobby, "Join")
        await maya.click(lobby, "Start")
        yield world, bot, lobby.thread, sandbox
    finally:
        await world.disconnect()


async def expected_png(bot) -> bytes:
    """The table picture drawn here, in this thread, from the stored game."""
    cog = bot.game_cog("llamas-alpacas")
    table = await cog.load_table(1)
    return cog.picture(table).run()


async def test_a_table_is_drawn_once_and_reposted_from_the_kept_picture(la):
    world, bot, thread, _ = la
    assert (bot.render_pool is not None) == (bot.settings.render_processes == 1)
    first = thread.last_message
    assert first.filenames == ["table.png"]
    assert first.file("table.png") == await expected_png(bot)
    hits, misses = bot.pictures.hits, bot.pictures.misses
    maya = world.member(NAMES[0])
    await maya.slash("game status", in_channel=thread)
    assert maya.last_reply.content == "The table is posted in the game's thread."
    again = thread.last_message
    assert again.id != first.id and again.file("table.png") == first.file("table.png")
    assert (bot.pictures.hits, bot.pictures.misses) == (hits + 1, misses)


async def test_a_close_up_is_drawn_once_for_the_same_board_and_anew_for_another(la):
    """The board close-up of "My hand" goes through the kept pictures: the same board
    again is not drawn again; the other player's board is drawn."""
    world, bot, thread, _ = la
    maya, tomasz = world.member(NAMES[0]), world.member(NAMES[1])
    await maya.click(thread.last_message, "My hand")
    first = maya.last_reply
    assert first.ephemeral and first.filenames == ["my-board.png"]
    hits, misses = bot.pictures.hits, bot.pictures.misses
    await maya.click(thread.last_message, "My hand")
    assert maya.last_reply.file("my-board.png") == first.file("my-board.png")
    assert (bot.pictures.hits, bot.pictures.misses) == (hits + 1, misses)
    await tomasz.click(thread.last_message, "My hand")
    assert tomasz.last_reply.filenames == ["my-board.png"]
    assert tomasz.last_reply.file("my-board.png") != first.file("my-board.png")
    assert (bot.pictures.hits, bot.pictures.misses) == (hits + 1, misses + 1)


async def test_a_broken_render_pool_is_one_log_line_and_the_table_still_posts(la, caplog):
    world, bot, thread, sandbox = la
    pool = bot.render_pool
    if pool is None:
        return  # the thread variant has no pool to break
    for pid in pool.pids():
        os.kill(pid, signal.SIGKILL)
    bot.pictures = None  # nothing kept: each repost is drawn
    maya = world.member(NAMES[0])
    with caplog.at_level(logging.WARNING, logger="bot.discord.bot"), \
            sandbox.allow_errors() as captured:
        await maya.slash("game status", in_channel=thread)
        await maya.slash("game status", in_channel=thread)
    assert len(captured) == 1
    errors = [r.getMessage() for r in caplog.records if r.name == "bot.discord.bot"]
    assert len(errors) == 1
    assert errors[0].startswith("the render process pool broke (")
    assert errors[0].endswith("); pictures are drawn in the render thread from now on")
    assert bot.render_pool is None
    assert maya.last_reply.content == "The table is posted in the game's thread."
    assert thread.last_message.file("table.png") == await expected_png(bot)
