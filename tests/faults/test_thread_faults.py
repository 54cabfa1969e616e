"""The bot's answers when Discord refuses it around threads and permissions: a locked
thread, a deleted thread, a channel where the bot lacks permissions. Each runs the real
HerdBot (tiny game) through discord.py's own dispatch against the sandbox."""

from __future__ import annotations

from bot.discord.bot import OOPS_AFTER_CHANGE
from tests.faults.common import answer_text, make_bot, start_tiny
from tests.support import headline, rows, title

NO = "\N{NO ENTRY SIGN} "
LOCKED = ("Your move was made, but I could not post the table in the game's thread "
          "(it is locked). See /game status.")
GONE_NOTE = ("\N{BLACK SQUARE FOR STOP} Tiny Race #1 has ended: its thread was deleted. "
             "No scores are recorded.")


def refusal(missing: str, plural: bool = False) -> str:
    return (f"{NO}I cannot run a game in this channel: I am missing the permission"
            f"{'s' if plural else ''} {missing}. A server admin can grant "
            f"{'them' if plural else 'it'} to herdbot in this channel's settings "
            "(Edit Channel > Permissions).")


async def expire(sb, clock, seconds: float) -> None:
    clock.advance(seconds)
    await sb.bot.service.timers.fire_due()
    await sb.settle()


# --------------------------------------------------------------------------- locked thread


async def test_a_move_in_a_locked_thread_is_stored_and_told_truthfully(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    table = thread.last_message
    world.moderate_thread(thread, locked=True)
    posts = len(world.requests_to("POST", rf"^/channels/{thread.id}/messages$"))
    it = await ana.click(table, "Add 1")
    assert (await sb.bot.store.get_game(1)).version == 1
    assert answer_text(it) == LOCKED
    assert it.last_touched.ephemeral
    # The new table goes out as the click's followup, which Discord refuses in a locked
    # thread with 403 50083 (Discord's discord-api-docs issues 5517, 6884); nothing is
    # retried with the bot's token, and the member's answer is ephemeral, so it gets
    # through.
    refused = [r for r in world.requests_to("POST", r"^/webhooks/\d+/[^/]+$") if r.status != 200]
    assert [(r.status, r.response["code"]) for r in refused] == [(403, 50083)]
    assert len(world.requests_to("POST", rf"^/channels/{thread.id}/messages$")) == posts
    # /game status shows the table to the member who asked, since the thread refuses it.
    await ana.slash("game status")
    reply = ana.last_reply
    assert reply.ephemeral and headline(reply) == (
        "I could not post the table in the game's thread (it is locked). Here it is:")
    assert title(reply) == "Tiny Race #1" and reply.filenames == ["table.png"]
    assert rows(reply) == []
    # Unlocked again, the game goes on where it was.
    world.moderate_thread(thread, locked=False)
    await ana.slash("game status")
    assert headline(ana.last_reply) == "The table is posted in the game's thread."
    await bo.click(thread.last_message, "Add 2")
    assert (await sb.bot.store.get_game(1)).version == 2


async def test_an_unexpected_error_after_a_stored_move_does_not_say_nothing_changed(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    cog = sb.bot.game_cog("tiny")

    def broken(table):
        raise RuntimeError("the renderer broke")

    cog.render = broken
    with sb.allow_errors() as errors:
        it = await ana.click(lobby.thread.last_message, "Add 1")
    assert (await sb.bot.store.get_game(1)).version == 1
    assert answer_text(it) == NO + OOPS_AFTER_CHANGE
    assert any("the renderer broke" in str(e) for e in errors)


# --------------------------------------------------------------------------- permissions


async def test_play_names_the_missing_permissions_and_opens_nothing(world, sb):
    ana = world.member("Ana")
    world.deny_bot(world.main, "send_messages_in_threads", "attach_files")
    await ana.slash("play", game="tiny")
    assert ana.last_reply.ephemeral
    assert headline(ana.last_reply) == refusal("Send Messages in Threads and Attach Files",
                                             plural=True)
    assert await sb.bot.store.get_game(1) is None


async def test_play_without_send_messages_names_it_alone(world, sb):
    """Discord takes Embed Links and Attach Files away along with Send Messages; granting
    Send Messages is what the admin must do."""
    ana = world.member("Ana")
    world.deny_bot(world.main, "send_messages")
    await ana.slash("play", game="tiny")
    assert headline(ana.last_reply) == refusal("Send Messages")


async def test_play_without_view_channel_names_it(world, sb):
    ana = world.member("Ana")
    world.deny_bot(world.main, "view_channel")
    await ana.slash("play", game="tiny")
    assert headline(ana.last_reply) == refusal("View Channel")


async def test_start_without_create_public_threads_is_refused_and_stays_a_lobby(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    world.deny_bot(world.main, "create_public_threads")
    it = await ana.click(lobby, "Start")
    assert answer_text(it) == refusal("Create Public Threads")
    assert it.last_touched.ephemeral
    record = await sb.bot.store.get_game(1)
    assert (record.status, record.state, record.thread_id) == ("lobby", None, None)
    assert world.threads == [] and lobby.has_component("Start")
    world.allow_bot(world.main, "create_public_threads")
    await ana.click(lobby, "Start")
    assert (await sb.bot.store.get_game(1)).status == "active"
    assert title(lobby.thread.last_message) == "Tiny Race #1"


async def test_start_whose_first_table_is_refused_returns_to_the_lobby(world, sb, clock):
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    world.faults.fail("POST", r"^/channels/\d+/messages$", 403, code=50013,
                      message="Missing Permissions")
    it = await ana.click(lobby, "Start")
    thread = lobby.thread
    assert answer_text(it) == (
        f"{NO}The game could not start: I could not post its table in <#{thread.id}> (I am "
        "missing a permission there). It is back in the lobby: once that is fixed, press "
        "Start again.")
    record = await sb.bot.store.get_game(1)
    assert (record.status, record.version, record.state) == ("lobby", 0, None)
    assert await sb.bot.store.actions(1) == []
    # Back in the lobby, it closes an hour from now unless started.
    assert [(t.kind, t.due_at) for t in await sb.bot.store.timers()] == [
        ("lobby", clock.now() + 3600)]
    assert lobby.has_component("Start") and not lobby.is_disabled("Start")
    # Fixed (the fault was one-off): Start again plays in the thread the first try opened.
    await ana.click(lobby, "Start")
    assert world.threads == [thread]
    assert (await sb.bot.store.get_game(1)).status == "active"
    assert title(thread.last_message) == "Tiny Race #1"
    assert "Playing in" in lobby.text and rows(lobby) == []


# --------------------------------------------------------------------------- deleted thread


async def test_a_thread_a_moderator_deletes_ends_the_game_with_a_note_and_no_timers(
        world, sb, clock):
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo], timer="2m")
    thread = lobby.thread
    assert await sb.bot.store.timers() != []
    await world.delete_thread(thread)
    record = await sb.bot.store.get_game(1)
    assert record.status == "ended"
    assert headline(world.main.last_message) == GONE_NOTE
    assert await sb.bot.store.timers() == []
    before = len(world.requests)
    await expire(sb, clock, 3600)
    assert world.requests[before:] == []  # nothing fires into the deleted thread
    await ana.slash("game status")
    assert headline(ana.last_reply) == NO + "You have no running game here. Start one with /play."
    assert await sb.bot.store.stats(record.guild_id) == []


async def test_a_timer_posting_into_a_vanished_thread_ends_the_game_once(world, sb, clock):
    """No THREAD_DELETE reached the bot (it was offline): the 404 10003 on its next post
    ends the game; the timers stop; nothing is logged as an error."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo], timer="2m")
    thread = lobby.thread
    world.faults.fail("POST", rf"^/channels/{thread.id}/messages$", 404, code=10003,
                      message="Unknown Channel", times=100)
    await expire(sb, clock, 60)  # the half-time reminder is the first post refused
    record = await sb.bot.store.get_game(1)
    assert (record.status, record.version) == ("ended", 0)
    assert headline(world.main.last_message) == GONE_NOTE
    assert await sb.bot.store.timers() == []
    sent = world.requests_to("POST", rf"^/channels/{thread.id}/messages$")
    await expire(sb, clock, 3600)
    assert world.requests_to("POST", rf"^/channels/{thread.id}/messages$") == sent


async def test_a_move_into_a_vanished_thread_is_told_and_ends_the_game(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    world.faults.fail("POST", rf"^/channels/{thread.id}/messages$", 404, code=10003,
                      message="Unknown Channel", times=100)
    # The click's followup (the new table) is the first post into the vanished thread.
    world.faults.fail("POST", r"^/webhooks/\d+/[^/]+$", 404, code=10003,
                      message="Unknown Channel")
    it = await ana.click(thread.last_message, "Add 1")
    assert answer_text(it) == ("Your move was made, but the game's thread was deleted, so "
                               "the game has ended (no scores recorded).")
    assert (await sb.bot.store.get_game(1)).status == "ended"
    assert headline(world.main.last_message) == GONE_NOTE


async def test_game_status_after_the_thread_vanished_offline_answers_clearly(
        world, sb, clock, tmp_path):
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    await world.disconnect()
    world.remove_channel(thread)  # deleted while the bot was offline: no THREAD_DELETE
    await world.connect(make_bot(tmp_path / "bot.sqlite3", clock))
    await ana.slash("game status")
    assert ana.last_reply.ephemeral and headline(ana.last_reply) == (
        "Tiny Race #1: the game's thread was deleted, so the game has ended (no scores recorded).")
    assert headline(world.main.last_message) == GONE_NOTE
    await bo.slash("game status")
    assert headline(bo.last_reply) == NO + "You have no running game here. Start one with /play."


async def test_a_join_that_broke_after_the_seat_was_taken_says_it_was_saved(world, sb):
    """A lobby click changes seats, not the game's version: an error after the seat was
    stored still says what was done was saved (never "nothing was changed")."""
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    cog = sb.bot.get_cog("Lobby")

    async def broken(interaction, update):
        raise RuntimeError("the lobby message broke")

    cog._edit_lobby = broken
    with sb.allow_errors() as errors:
        it = await bo.click(lobby, "Join")
    assert [s.name for s in await sb.bot.store.seats(1)] == ["Ana", "Bo"]
    assert answer_text(it) == NO + OOPS_AFTER_CHANGE
    assert any("the lobby message broke" in str(e) for e in errors)
