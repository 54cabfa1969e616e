"""The lobby end to end through real discord.py dispatch (sandbox)."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.discord.components import view_of
from bot.runtime import GameError
from cogs.lobby_card import lobby_items
from tests.discord.conftest import make_bot
from tests.support import body, fields, footer, headline, rows, texts, title


def lobby_of(member):
    return member.last_reply


async def test_play_posts_a_lobby_with_buttons_and_disabled_start(world, sb):
    ana = world.member("Ana")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    assert not lobby.ephemeral
    assert lobby.labels == ["Join", "Leave", "Add AI seat", "Remove AI seat", "Start", "Cancel",
                            "Double steps: off", "Take-backs: off", "Options"]
    assert lobby.is_disabled("Start") and not lobby.is_disabled("Join")
    assert title(lobby) == "Tiny Race: lobby #1"
    assert fields(lobby)[0]["name"] == "Seats (1/4)"
    assert f"<@{ana.id}>" in fields(lobby)[0]["value"]
    assert "Waiting for 1 more player." in footer(lobby)


async def test_join_leave_full_table_and_start_opens_a_thread(world, sb):
    ana, bo, cy, di, ed = (world.member(n) for n in ("Ana", "Bo", "Cy", "Di", "Ed"))
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    assert not lobby.is_disabled("Start")  # edited in place: same message
    await cy.click(lobby, "Join")
    await cy.click(lobby, "Leave")
    assert "Seats (2/4)" == fields(lobby)[0]["name"]
    await cy.click(lobby, "Join")
    await di.click(lobby, "Join")
    assert lobby.is_disabled("Join") and lobby.is_disabled("Add AI seat")
    # Join is disabled when the table is full; the service refuses a join that raced in.
    with pytest.raises(GameError) as refused:
        await sb.bot.service.join(1, ed.id, "Ed")
    assert (refused.value.code, refused.value.message) == ("full", "This table is full (4 players).")
    await bo.click(lobby, "Start")
    assert bo.last_reply.ephemeral and "Only the host can start" in headline(bo.last_reply)
    await ana.click(lobby, "Start")
    thread = lobby.thread
    assert thread is not None and thread.name == "Tiny Race #1"
    assert set(thread.members) >= {ana.id, bo.id, cy.id, di.id}
    assert ed.id not in thread.members
    assert rows(lobby) == [] and "Playing in" in body(lobby)
    table = thread.last_message
    assert table.filenames == ["table.png"]
    assert table.labels == ["Add 1", "Add 2", "Wait", "My hand", "Watch"]
    assert headline(table) == f"<@{ana.id}>"


async def test_cancel_by_host_or_manager_only(world, sb):
    ana, bo, mo = world.member("Ana"), world.member("Bo"), world.member("Mo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Cancel")
    assert "Only the host" in headline(bo.last_reply) and bo.last_reply.ephemeral
    await mo.click(lobby, "Cancel")
    assert rows(lobby) == []
    assert "cancelled" in footer(lobby)


async def test_double_click_on_join_applies_once(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await asyncio.gather(bo.click(lobby, "Join"), bo.click(lobby, "Join"))
    seats = await sb.bot.store.seats(1)
    assert [s.user_id for s in seats] == [ana.id, bo.id]
    assert "already in this lobby" in headline(bo.last_reply)


async def test_lobby_buttons_work_after_a_restart(world, clock, tmp_path):
    db = tmp_path / "restart.sqlite3"
    sb = await world.connect(make_bot(db, clock))
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await world.disconnect()
    sb = await world.connect(make_bot(db, clock))
    await bo.click(lobby, "Join")
    assert "Seats (2/2)" in fields(lobby)[0]["name"] or "Seats (2/4)" in fields(lobby)[0]["name"]
    await ana.click(lobby, "Start")
    assert lobby.thread is not None
    assert lobby.thread.last_message.labels[:2] == ["Add 1", "Add 2"]
    del sb
    await world.disconnect()


async def test_bad_input_gets_clear_ephemeral_answers(world, sb):
    ana, ed = world.member("Ana"), world.member("Ed")
    await ana.slash("play", game="chess")
    assert ana.last_reply.ephemeral and "no game called “chess”" in headline(ana.last_reply)
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await ana.click(lobby, "Add AI seat")
    await ana.click(lobby, "Start")
    table = lobby.thread.last_message
    await ed.click(table, "Add 1")
    assert ed.last_reply.ephemeral and headline(ed.last_reply).endswith("You are not in this game.")
    state_before = (await sb.bot.store.get_game(1)).version
    assert (await sb.bot.store.get_game(1)).version == state_before


async def test_unknown_choices_and_broken_buttons_are_answered_in_words(world, sb):
    ana = world.member("Ana")
    await ana.slash("rules", game="chess")
    assert ana.last_reply.ephemeral and "no game called “chess”" in headline(ana.last_reply)
    await ana.slash("stats show", game="chess")
    assert ana.last_reply.ephemeral and "no game called “chess”" in headline(ana.last_reply)
    await ana.slash("game hand")
    assert headline(ana.last_reply).endswith("You have no running game here. Start one with /play.")
    await ana.slash("rules", game="tiny")
    assert title(ana.last_reply) == "How to play Tiny Race"


async def test_an_unexpected_error_gives_a_short_ephemeral_and_logs_the_traceback(world, sb):
    from bot.discord.components import button, view_of

    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    thread = lobby.thread
    channel = sb.bot.get_channel(thread.id) or sb.bot.get_partial_messageable(thread.id)
    await channel.send("debug", view=view_of(button("g", 1, "boom", "Boom")))
    await sb.settle()
    with sb.allow_errors() as errors:
        await ana.click(thread.last_message, "Boom")
    assert ana.last_reply.ephemeral
    assert headline(ana.last_reply) == ("\N{NO ENTRY SIGN} Something went wrong on our side; "
                                      "nothing was changed. Please try again.")
    assert any("a bug in a cog" in str(e) for e in errors)


async def test_a_lobby_posted_with_an_embed_becomes_a_v2_message_when_edited(world, sb):
    """A lobby posted before lobbies were Components V2 messages (an embed and rows of
    buttons) is edited into one by the next press: its content and embed reset, which
    Discord (the strict sandbox) requires of an edit that sets the flag."""
    ana, bo = world.member("Ana"), world.member("Bo")
    bot = sb.bot
    update = await bot.service.create_lobby("tiny", guild_id=world.guild_id,
                                            channel_id=world.channel().id, host_id=ana.id,
                                            host_name="Ana")
    channel = bot.get_channel(world.channel().id)
    sent = await channel.send(embed=discord.Embed(title="Tiny Race: lobby #1"),
                              view=view_of(*lobby_items(update.record, update.seats, update.spec)))
    await bot.store.update_game(1, lobby_message_id=sent.id)
    old = world.message(sent.id)
    assert old.embeds and not texts(old)
    await bo.click(old, "Join")
    lobby = world.message(sent.id)
    assert lobby.embeds == [] and lobby.content == ""
    assert title(lobby) == "Tiny Race: lobby #1" and fields(lobby)[0]["name"] == "Seats (2/4)"
    assert not lobby.is_disabled("Start")
