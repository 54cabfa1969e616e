"""A table edit Discord refuses (400 30046 edits of an old message, 403 50013, 404 10008):
the change stays made, the table is posted anew so the thread shows the stored state, and
the member who clicked is told once, truthfully, what happened. The real HerdBot playing
Llamas & Alpacas (a step inside a turn edits the table in place) through discord.py's own
dispatch against the sandbox."""

from __future__ import annotations

import pytest
import pytest_asyncio

from bot.sandbox.demo import NAMES
from tests.discord.test_llamas_alpacas import _after_setup, la_world
from tests.support import description, footer, headline, title

#: The edit of a table message: the click's own response (an update of the clicked
#: message), or through an interaction's token or the bot's.
TABLE_EDIT = r"/messages/(@original|\d+)$|^/interactions/\d+/[^/]+/callback$"

REFUSALS = {
    "old message": (400, 30046, "Maximum number of edits to messages older than 1 hour "
                    "reached. Try again later", "Discord allows no more edits of it for now"),
    "missing permission": (403, 50013, "Missing Permissions",
                           "I am missing a permission there"),
    "deleted message": (404, 10008, "Unknown Message", "the message was deleted"),
}


@pytest_asyncio.fixture
async def la(tmp_path):
    """(world, bot): members Maya and Tomasz."""
    async with la_world(tmp_path / "la.sqlite3", NAMES[:2]) as pair:
        yield pair


def tables(thread):
    """The thread's table messages (public, with the game's title), oldest first."""
    return [m for m in thread.all_messages
            if not m.ephemeral and title(m) == "Llamas & Alpacas #1"]


@pytest.mark.parametrize("refusal", list(REFUSALS))
async def test_a_refused_edit_posts_the_table_anew_and_says_so(la, refusal):
    world, bot = la
    status, code, message, why = REFUSALS[refusal]
    state, active, other, thread = await _after_setup(world, bot)
    table = thread.last_message
    before = len(tables(thread))
    world.faults.fail(None, TABLE_EDIT, status, code=code, message=message)
    it = await active.click(table, "Take 1 (free)")
    _, _, _, after = await bot.service.load(1)
    assert (after.version, after.phase) == (state.version + 1, "choose_space")
    refused = [r for r in world.requests_to(None, TABLE_EDIT) if r.status != 200]
    assert [(r.status, r.response["code"]) for r in refused] == [(status, code)]
    # The thread's newest table is a new message showing the stored state.
    shown = tables(thread)
    assert len(shown) == before + 1
    newest = shown[-1]
    assert newest.id != table.id
    assert footer(newest) == f"Move {after.version}"
    assert f"**{active.name}** is placing **" in description(newest)
    assert newest.labels[:9] == thread.last_message.labels[:9]
    record = await bot.store.get_game(1)
    assert (record.table_message_id, record.table_version) == (newest.id, after.version)
    # Told once, truthfully: the edit was refused, the table posted anew.
    told = [headline(m) for m in it.followups if m.ephemeral]
    assert told == [f"Your move was made. I could not edit the table in the game's thread "
                    f"({why}), so I posted it anew."]
    # The new table plays on.
    await active.click(newest, newest.labels[0])
    assert (await bot.service.load(1))[3].version == after.version + 1


async def test_an_edit_and_a_new_post_both_refused_are_told_in_one_sentence(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    table = thread.last_message
    count = len(thread.all_messages)
    world.faults.fail(None, TABLE_EDIT, 404, code=10008, message="Unknown Message")
    # The new table goes out as the click's followup; its bot-token retry is not made.
    world.faults.fail("POST", r"^/webhooks/\d+/[^/]+$", 403, code=50013,
                      message="Missing Permissions")
    it = await active.click(table, "Take 1 (free)")
    _, _, _, after = await bot.service.load(1)
    assert (after.version, after.phase) == (state.version + 1, "choose_space")
    assert [headline(m) for m in it.followups if m.ephemeral] == [
        "Your move was made, but I could not edit the table in the game's thread (the "
        "message was deleted) or post it anew (I am missing a permission there). See "
        "/game status."]
    assert [m for m in thread.all_messages[count:] if not m.ephemeral] == []
    # /game status posts the stored table.
    await active.slash("game status")
    assert headline(active.last_reply) == "The table is posted in the game's thread."
    newest = tables(thread)[-1]
    assert footer(newest) == f"Move {after.version}"


async def test_an_edit_in_a_locked_thread_says_edit_not_post(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    table = thread.last_message
    world.moderate_thread(thread, locked=True)
    it = await active.click(table, "Take 1 (free)")
    assert (await bot.service.load(1))[3].version == state.version + 1
    # The click's own edit is refused (403 50083); a new post would be refused alike.
    # (the click's own edit is its response: an update of the clicked message)
    refused = [r for r in world.requests if r.status != 200 and r.method in ("PATCH", "POST")]
    assert [(r.method, r.path, r.status, r.response["code"]) for r in refused] == [
        ("POST", f"/interactions/{it.id}/{it.token}/callback", 403, 50083)]
    assert [headline(m) for m in it.followups if m.ephemeral] == [
        "Your move was made, but I could not edit the table in the game's thread (it is "
        "locked). See /game status."]
