"""Restart persistence, DMs, threads, deferrals, faults, error reporting, settling, speed."""

from __future__ import annotations

import asyncio
import time

import discord
import pytest

from bot.sandbox import SandboxError
from tests.sandbox.sandbox_testbot import SampleBot


async def test_dynamic_item_still_dispatches_after_restart(world, alice, bob, store):
    first = SampleBot(store)
    await world.connect(first)
    await alice.slash("play", game="tiny")
    lobby = alice.last_reply
    await alice.click(lobby, "Join")
    await world.disconnect()
    assert first.is_closed()
    assert "static_login" not in first.http.__dict__  # exits restored
    assert world.sandbox is None
    with pytest.raises(SandboxError, match="no bot is connected"):
        await bob.click(lobby, "Join")

    second = SampleBot(store)
    sb2 = await world.connect(second)
    assert store["setup_hook_ran"] == 2
    it = await bob.click(lobby, "Join")  # the message from before the restart
    assert it.response_type == 7
    assert lobby.content == f"Game 1: <@{alice.id}>, <@{bob.id}>"
    assert lobby.edits == 2
    assert [r.path for r in sb2.requests][-1] == f"/interactions/{it.id}/{it.token}/callback"
    await world.disconnect()


async def test_dm_send_and_dms_closed_50007(world, sb, alice, bob, store):
    await alice.slash("dm", text="psst, your hand")
    assert [m.content for m in alice.dms] == ["psst, your hand"]
    assert alice.last_reply.content == "Sent."
    assert world.requests_to("POST", r"^/users/@me/channels$")[0].json == {
        "recipient_id": alice.id}
    assert bob.dms == []

    await alice.click(alice.dms[0], "Got it")  # a component interaction in a DM
    assert alice.dms[0].content == "Acknowledged by alice in dm"
    assert alice.dms[0].components == []

    world.faults.close_dms(bob)
    await bob.slash("dm", text="hello?")
    assert store["dm_error"] == 50007
    assert bob.last_reply.content == "I cannot DM you." and bob.last_reply.ephemeral
    refused = world.requests_to("POST", r"^/channels/\d+/messages$")[-1]
    assert refused.status == 403 and refused.response["code"] == 50007
    assert refused.member is bob
    assert bob.dms == []


async def test_thread_from_message_add_member_and_archive(world, sb, alice, bob, store):
    await alice.slash("thread", name="Table 1")
    starter = world.last_message()
    assert starter.content == "Table Table 1"
    th = starter.thread
    assert th is not None and th.id == starter.id and th.name == "Table 1"
    assert th.members == {world.application_id, alice.id}
    assert [m.content for m in alice.visible(th)] == [f"Welcome <@{alice.id}>"]
    assert bob.visible(th)[0].content == f"Welcome <@{alice.id}>"  # public thread
    cached = sb.bot.get_channel(th.id)  # THREAD_CREATE reached the bot's cache
    assert isinstance(cached, discord.Thread) and cached.parent_id == world.main.id
    add = world.requests_to("PUT", r"/thread-members/")[0]
    assert add.path == f"/channels/{th.id}/thread-members/{alice.id}" and add.member is alice

    await bob.click(alice.visible(th)[0], "\N{THUMBS UP SIGN}")  # by emoji, in the thread
    assert th.last_message.content == "Acknowledged by bob in Thread"
    assert bob.last_reply is th.last_message

    it = await alice.slash("game hand", in_channel=th)  # a command run inside the thread
    assert it.original.channel is th and alice.visible(th)[-1] is it.original
    assert bob.visible(th)[-1].content == "Acknowledged by bob in Thread"

    await alice.slash("archive")
    assert th.archived and th.locked
    # THREAD_UPDATE was echoed: discord.py drops archived threads from its cache
    assert sb.bot.get_channel(th.id) is None
    fetched = await sb.bot.fetch_channel(th.id)
    assert fetched.archived and fetched.locked


async def test_defer_then_followups(world, sb, alice, bob):
    it = await alice.slash("slow")
    assert it.requests[0].json == {"type": 5, "data": {"flags": 64}}
    # the first followup fills the "thinking" message, the second is a new message
    assert it.original.content == "Done slowly." and it.original.ephemeral
    assert not it.original.loading
    assert [m.content for m in it.followups] == ["And a second note."]
    assert alice.last_reply.content == "And a second note."
    assert [m.content for m in alice.visible()] == ["Done slowly.", "And a second note."]
    assert bob.visible() == []
    follow = world.requests_to("POST", r"^/webhooks/")
    assert [r.status for r in follow] == [200, 200] and follow[1].ephemeral


async def test_late_ack_is_unknown_interaction_10062(world, sb, alice, store):
    world.faults.late_ack()
    it = await alice.slash("late")
    assert store["late_error"] == 10062
    assert it.failed and alice.last_reply is None
    assert it.requests[0].status == 404
    await alice.slash("late")  # the fault was for one interaction only
    assert alice.last_reply.content == "On time?"


async def test_expired_token_is_50027_on_followup(world, sb, alice, store):
    world.faults.expire_token()
    it = await alice.slash("slow")
    assert store["followup_error"] == (401, 50027)
    assert it.original.loading  # still "thinking": the followup never landed
    assert [r.status for r in it.requests] == [200, 401]


async def test_429_is_retried_by_discord_py(world, sb, alice, caplog):
    world.faults.rate_limit("POST", r"^/channels/\d+/messages$", retry_after=0.001)
    world.faults.rate_limit("POST", r"/callback$", retry_after=0.001)
    await alice.slash("thread", name="T")
    sends = world.requests_to("POST", r"^/channels/\d+/messages$")
    assert [r.status for r in sends] == [429, 200]
    assert sends[0].response["retry_after"] == 0.001
    callbacks = world.requests_to("POST", r"/callback$")
    assert [r.status for r in callbacks] == [429, 200]
    th = world.threads[0]
    assert [m.content for m in th.all_messages] == [f"Welcome <@{alice.id}>"]
    assert "rate limited" in caplog.text


async def test_exception_in_command_is_reported(world, sb, alice):
    with pytest.raises(SandboxError, match="command exploded"):
        await alice.slash("boom")
    assert sb.errors == []  # raised errors are consumed


async def test_exception_in_view_callback_is_reported(world, sb, alice):
    await alice.slash("pick")
    with sb.allow_errors() as errors:
        await alice.click(alice.last_reply, "Boom")
    assert len(errors) == 1
    assert errors[0].source == "discord.ui.view"
    assert isinstance(errors[0].exc, RuntimeError)
    assert str(errors[0].exc) == "view callback exploded"


async def test_unknown_route_is_reported(world, sb):
    with pytest.raises(SandboxError, match="unhandled route GET /voice/regions"):
        with pytest.raises(discord.NotFound):
            await sb.bot.http.request(discord.http.Route("GET", "/voice/regions"))
        await sb.settle()


async def test_settle_waits_for_background_tasks_and_threads(world, sb, alice):
    await alice.slash("later")
    assert world.last_message().content == "Later (0.0)."


async def test_long_sleep_is_parked_until_advanced(world, sb, alice):
    started = time.monotonic()
    await alice.slash("later", delay=3600.0)
    assert time.monotonic() - started < 2
    assert world.last_message() is None  # parked on a one-hour timer
    before = world.clock.time()
    await sb.advance(3600)
    assert world.clock.time() - before >= 3600
    assert world.last_message().content == "Later (3600.0)."


async def test_disconnect_cancels_leftover_tasks(world, alice, store):
    bot = SampleBot(store)
    await world.connect(bot)
    await alice.slash("later", delay=3600.0)
    (task,) = bot.background
    await world.disconnect()
    assert task.cancelled()


async def test_round_trip_cpu_cost(world, sb, alice, bob):
    await alice.slash("play", game="tiny")
    lobby = alice.last_reply
    n = 150
    t0 = time.process_time()
    for _ in range(n):
        await bob.slash("game hand")
    per = (time.process_time() - t0) / n
    assert per < 0.005, f"{per * 1000:.2f} ms CPU per interaction"
    await alice.click(lobby, "Join")
    await asyncio.sleep(0)


async def test_member_message_reaches_on_message(world, sb, alice, store):
    msg = await alice.send("hello herd")
    mention = f"<@{world.application_id}> hello bot"
    await alice.send(mention)
    # default intents lack message_content: only the mention's content reaches the bot
    assert store["heard"] == ["", mention]
    assert alice.visible()[0] is msg and msg.author_id == alice.id


async def test_unretrieved_task_exception_is_reported(world, sb, alice):
    with pytest.raises(SandboxError, match="nobody awaited me"):
        await alice.slash("fireforget")


async def test_strict_ack_flags_an_unanswered_interaction(world, sb, alice):
    it = await alice.slash("silent")
    assert not it.responded and alice.last_reply is None
    sb.strict_ack = True
    with pytest.raises(SandboxError, match="never acknowledged"):
        await alice.slash("silent")


async def test_attachment_option_and_cdn_read(world, sb, alice):
    await alice.slash("echo", file=("notes.txt", b"llama notes"))
    assert alice.last_reply.content == "notes.txt: llama notes"
    await alice.slash("upload")
    msg = alice.last_reply
    fetched = await sb.bot.get_channel(world.main.id).fetch_message(msg.id)
    assert await fetched.attachments[0].read() == b"hello bytes"


async def test_command_waiting_on_view_wait_is_parked_until_clicked(world, sb, alice):
    started = time.monotonic()
    it = await alice.slash("ask")
    assert time.monotonic() - started < 0.2  # View.wait() is recognised as input wait
    assert it.original.content == "Ready?" and it.followups == []
    await alice.click(it.original, "Yes")
    assert [m.content for m in it.followups] == ["Answer: yes"]


async def test_unknown_forever_wait_is_parked_after_idle_grace(world, sb, alice):
    sb.idle_grace = 0.05
    await alice.slash("hang")
    assert alice.last_reply.content == "Hanging."


async def test_a_wait_on_an_input_event_is_parked_at_once(world, sb, alice, store):
    sb.idle_grace = 30.0
    go = store["event"] = sb.input_event(asyncio.Event())
    started = time.monotonic()
    await alice.slash("hang")
    assert time.monotonic() - started < 2.0  # not idle_grace: the test holds the event
    assert alice.last_reply.content == "Hanging." and "hung" not in store
    go.set()
    await sb.settle()
    assert store["hung"] is True


async def test_advance_fires_a_view_timeout(world, sb, alice):
    await alice.slash("pick")
    msg = alice.last_reply
    await sb.advance(100)
    assert msg.content == "Pick one"
    await sb.advance(81)
    assert msg.content == "Timed out" and msg.components == []


async def test_interaction_token_expires_after_15_world_minutes(world, sb, alice):
    it = await alice.slash("ask")  # waits on a View with a 600 s timeout
    with sb.allow_errors() as errors:
        await sb.advance(901)  # the view times out; the followup is 15 min too late
    (err,) = errors
    assert isinstance(err.exc.original, discord.HTTPException)
    assert (err.exc.original.status, err.exc.original.code) == (401, 50027)
    assert it.followups == []
