"""Catch-up at start-up. A move stored while its table could not be posted (Discord refused
the post, or the process died between storing and posting) is shown at the next start: the
moves the thread missed, the current table and the ping it missed, once; a second start
posts nothing.
"""

from __future__ import annotations

import logging
import sqlite3

from tests.faults.common import make_bot, start_tiny
from tests.support import description, footer, headline, rows, title

BULLET = "\N{BULLET}"


def table_version(db, game_id: int) -> tuple[int, int | None]:
    """``(version, table_version)`` of a game, read with sqlite3 directly."""
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT version, table_version FROM games WHERE id=?",
                           (game_id,)).fetchone()
    return int(row[0]), row[1]


async def test_a_move_whose_table_was_not_posted_is_posted_once_with_its_ping_at_restart(
        world, clock, tmp_path, caplog):
    """Before: after a crash (or a refused post) between storing a move and posting its
    table, the thread kept showing the old table and nobody was pinged, for good."""
    caplog.set_level(logging.INFO, logger="bot.runtime.service")
    db = tmp_path / "bot.sqlite3"
    ana, bo = world.member("Ana"), world.member("Bo")
    await world.connect(make_bot(db, clock))
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    old_table = thread.last_message
    assert table_version(db, 1) == (0, 0)

    # Discord refuses the next post in the thread (the new table, the click's followup):
    # the move is stored, its table is not.
    world.faults.fail("POST", r"^/webhooks/\d+/[^/]+$", 403, code=50013,
                      message="Missing Permissions")
    await ana.click(old_table, "Add 2")
    assert headline(ana.last_reply) == ("Your move was made, but I could not post the table in "
                                      "the game's thread (I am missing a permission there). "
                                      "See /game status.")
    assert thread.last_message.id == old_table.id
    assert table_version(db, 1) == (1, 0)
    await world.disconnect()

    count = len(thread.all_messages)
    dms = len(ana.dms)
    sb = await world.connect(make_bot(db, clock))
    await world.settle()
    new = thread.all_messages[count:]
    assert [headline(m) for m in new] == [bo.mention]
    table = new[0]
    assert description(table) == (f"{BULLET} Ana adds 2: 2.\n\n**Bo**'s turn: add "
                                              "1 or 2.")
    assert footer(table) == "Move 1"
    assert table.labels == ["Add 1", "Add 2", "Wait", "My hand", "Watch"]
    assert rows(world.message(old_table.id)) == []  # the old table's buttons retired
    assert table_version(db, 1) == (1, 1)
    assert ("game 1: its posted table shows move 0 of 1; posting the current one"
            in [r.getMessage() for r in caplog.records])
    # Ana's private line of that move, never delivered, reaches her by DM.
    secret = (await sb.bot.service.load(1))[3].secrets["s0"]
    assert [headline(m) for m in ana.dms[dms:]] == [
        f"**Tiny Race #1** \N{EM DASH} https://discord.com/channels/{world.guild_id}/"
        f"{thread.id}\nYour token is {secret}."]
    await world.disconnect()

    # A second start posts nothing.
    await world.connect(make_bot(db, clock))
    await world.settle()
    assert len(thread.all_messages) == count + 1
    await bo.click(table, "Add 1")  # and the game plays on from the caught-up table
    assert footer(thread.last_message) == "Move 2"
    assert table_version(db, 1) == (2, 2)
    await world.disconnect()


async def test_a_finished_game_whose_end_was_not_posted_is_posted_at_restart_scored_once(
        world, clock, tmp_path):
    """The winning move is stored and its result recorded, but Discord refuses its table:
    the next start posts the final table and scores, and the stats count the game once."""
    db = tmp_path / "bot.sqlite3"
    ana, bo = world.member("Ana"), world.member("Bo")
    sb = await world.connect(make_bot(db, clock))
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    for who in (ana, bo) * 4 + (ana,):  # 2 a move: 18 after nine moves
        await who.click(thread.last_message, "Add 2")
    assert footer(thread.last_message) == "Move 9"
    table = thread.last_message
    # The final move edits the table in place through the click: refused, and so is the
    # table posted anew as the click's followup.
    world.faults.fail("PATCH", r"^/webhooks/\d+/[^/]+/messages/@original$", 403, code=50013,
                      message="Missing Permissions")
    world.faults.fail("POST", r"^/webhooks/\d+/[^/]+$", 403, code=50013,
                      message="Missing Permissions")
    it = await bo.click(table, "Add 2")  # 20: Bo wins
    assert [headline(m) for m in it.followups if m.ephemeral][0] == (
        "Your move was made, but I could not edit the table in the game's thread or post it "
        "anew (I am missing a permission there). See /game status.")
    stats = [(r.user_id, r.played, r.won) for r in await sb.bot.store.stats(world.guild_id)]
    assert stats == [(bo.id, 1, 1), (ana.id, 1, 0)]
    assert table_version(db, 1) == (10, 9)
    await world.disconnect()

    count = len(thread.all_messages)
    sb = await world.connect(make_bot(db, clock))
    await world.settle()
    new = thread.all_messages[count:]
    # The table is edited in place into the end (the last move, the scores, the final
    # picture): no new message.
    assert new == []
    final = world.message(table.id)
    assert title(final) == "Tiny Race #1: final scores"
    assert footer(final) == "Move 10"
    assert description(final).startswith(f"{BULLET} Bo adds 2: 20.\n\n"
                                         "Bo reached 20. **Bo** wins!")
    assert rows(final) == []
    assert [(r.user_id, r.played, r.won)
            for r in await sb.bot.store.stats(world.guild_id)] == stats  # counted once
    assert table_version(db, 1) == (10, 10)
    await world.disconnect()
    await world.connect(make_bot(db, clock))
    await world.settle()
    assert len(thread.all_messages) == count  # nothing shown twice
    await world.disconnect()
