"""The sandbox refuses what Discord refuses around permissions, deleted things and threads.

Requests go out through discord.py's own HTTP code, so each refusal arrives as the exception
discord.py raises on Discord (``discord.Forbidden``, ``discord.NotFound``,
``discord.HTTPException``) with Discord's status and JSON error code.
"""

from __future__ import annotations

import io
from typing import Literal

import discord
import pytest

from bot.sandbox import World
from bot.sandbox.payloads import BOT_PERMISSIONS, PERMISSIONS


def text_channel(sb, world: World) -> discord.TextChannel:
    return sb.bot.get_channel(world.main.id)


async def new_thread(sb, world: World, name: str = "game",
                     minutes: Literal[60, 1440, 4320, 10080] = 1440):
    """A public thread the bot starts from one of its messages; (SimChannel, discord.Thread)."""
    starter = await text_channel(sb, world).send("starter")
    thread = await starter.create_thread(name=name, auto_archive_duration=minutes)
    await sb.settle()
    return world.channels[thread.id], thread


async def refused(coro) -> discord.HTTPException:
    with pytest.raises(discord.HTTPException) as info:
        await coro
    return info.value


# --------------------------------------------------------------------------- permissions


async def test_deny_bot_is_a_member_overwrite_discord_py_sees(world, sb):
    world.deny_bot(world.main, "create_public_threads", "attach_files")
    await sb.settle()
    channel = text_channel(sb, world)
    perms = channel.permissions_for(channel.guild.me)
    assert (perms.create_public_threads, perms.attach_files, perms.send_messages) == (
        False, False, True)
    assert world.main.payload()["permission_overwrites"] == [{
        "id": str(world.application_id), "type": 1, "allow": "0",
        "deny": str(PERMISSIONS["create_public_threads"] | PERMISSIONS["attach_files"])}]
    world.allow_bot(world.main, "attach_files")
    await sb.settle()
    assert channel.permissions_for(channel.guild.me).attach_files is True


async def test_interaction_app_permissions_are_the_channels_effective_ones(world, sb, alice):
    seen: list[int] = []

    async def grab(interaction: discord.Interaction) -> None:
        seen.append(interaction.app_permissions.value)

    sb.bot.add_listener(grab, "on_interaction")
    await alice.slash("pick")
    world.deny_bot(world.main, "send_messages")
    await alice.slash("pick")
    everyone = int(world.roles[world.guild_id]["permissions"])
    full = everyone | BOT_PERMISSIONS
    implied = (PERMISSIONS["send_messages"] | PERMISSIONS["embed_links"]
               | PERMISSIONS["attach_files"])
    assert seen == [full, full & ~implied]  # no Send Messages: no embeds, no files either


async def test_a_thread_without_create_public_threads_is_refused_50013(world, sb):
    world.deny_bot(world.main, "create_public_threads")
    starter = await text_channel(sb, world).send("starter")
    exc = await refused(starter.create_thread(name="game"))
    assert isinstance(exc, discord.Forbidden)
    assert (exc.status, exc.code, exc.text) == (403, 50013, "Missing Permissions")
    assert world.threads == []


async def test_posting_in_a_channel_without_send_messages_is_refused_50013(world, sb):
    world.deny_bot(world.main, "send_messages")
    exc = await refused(text_channel(sb, world).send("hello"))
    assert (exc.status, exc.code) == (403, 50013)
    assert world.main.all_messages == []


async def test_a_thread_needs_send_messages_in_threads_not_send_messages(world, sb):
    sim, thread = await new_thread(sb, world)
    world.deny_bot(world.main, "send_messages")
    await thread.send("threads only need their own permission")
    world.allow_bot(world.main, "send_messages")
    world.deny_bot(sim, "send_messages_in_threads")  # a thread's overwrite is its parent's
    exc = await refused(thread.send("hello"))
    assert (exc.status, exc.code) == (403, 50013)
    assert [m.content for m in sim.all_messages] == ["threads only need their own permission"]
    await text_channel(sb, world).send("the channel itself still works")


async def test_files_without_attach_files_are_refused_and_embeds_without_embed_links_dropped(
        world, sb):
    world.deny_bot(world.main, "attach_files", "embed_links")
    channel = text_channel(sb, world)
    exc = await refused(channel.send("pic", file=discord.File(io.BytesIO(b"x"), "a.png")))
    assert (exc.status, exc.code) == (403, 50013)
    msg = await channel.send("text", embed=discord.Embed(title="Table"))
    stored = world.messages[msg.id]
    assert (stored.content, stored.embeds) == ("text", [])
    assert msg.embeds == []  # what Discord answered


async def test_without_view_channel_every_post_is_missing_access_50001(world, sb):
    world.deny_bot(world.main, "view_channel")
    exc = await refused(text_channel(sb, world).send("hello"))
    assert (exc.status, exc.code, exc.text) == (403, 50001, "Missing Access")


async def test_interaction_answers_are_not_subject_to_channel_permissions(world, sb, alice):
    world.deny_bot(world.main, "send_messages", "attach_files", "embed_links")
    it = await alice.slash("upload")
    assert [(r.exit, r.status) for r in it.requests] == [("webhook", 200)]
    assert it.original.filenames == ["hello.txt"] and not it.original.ephemeral


# --------------------------------------------------------------------------- deleted things


async def test_a_deleted_message_is_unknown_10008(world, sb):
    msg = await text_channel(sb, world).send("bye")
    await msg.delete()
    for call in (msg.edit(content="again"), msg.delete(),
                 text_channel(sb, world).fetch_message(msg.id)):
        exc = await refused(call)
        assert isinstance(exc, discord.NotFound)
        assert (exc.status, exc.code, exc.text) == (404, 10008, "Unknown Message")


async def test_a_thread_a_moderator_deleted_is_unknown_10003_everywhere(world, sb, alice):
    sim, thread = await new_thread(sb, world)
    table = await thread.send("table")
    deleted: list[int] = []

    async def on_raw_thread_delete(payload: discord.RawThreadDeleteEvent) -> None:
        deleted.append(payload.thread_id)

    sb.bot.add_listener(on_raw_thread_delete)
    await world.delete_thread(sim)
    assert deleted == [sim.id]
    assert sb.bot.get_channel(sim.id) is None and sim.deleted and world.threads == []
    assert world.messages[table.id].deleted
    http = sb.bot.http
    for call in (thread.send("hello"), table.edit(content="x"), http.get_channel(sim.id),
                 http.get_thread_members(sim.id), http.add_user_to_thread(sim.id, alice.id),
                 http.delete_channel(sim.id)):
        exc = await refused(call)
        assert isinstance(exc, discord.NotFound)
        assert (exc.status, exc.code, exc.text) == (404, 10003, "Unknown Channel")


# --------------------------------------------------------------------------- locked/archived


async def test_posting_in_a_locked_thread_is_refused_50083(world, sb):
    sim, thread = await new_thread(sb, world)
    world.moderate_thread(sim, locked=True)
    exc = await refused(thread.send("hello"))
    assert (exc.status, exc.code, exc.text) == (400, 50083, "Thread is archived")
    world.moderate_thread(sim, archived=True)
    exc = await refused(thread.send("hello"))
    assert exc.code == 50083 and sim.archived  # a locked thread stays archived
    assert sim.all_messages == []


async def test_a_thread_auto_archives_after_its_duration_of_inactivity(world, sb):
    sim, thread = await new_thread(sb, world, minutes=60)
    await sb.advance(30 * 60)
    await thread.send("activity")  # the hour starts again
    await sb.advance(59 * 60)
    assert sim.archived is False
    await sb.advance(60)
    assert sim.archived is True
    assert sb.bot.get_channel(sim.id) is None  # THREAD_UPDATE: discord.py uncached it
    updates = [r for r in world.requests if r.path == f"/channels/{sim.id}"]
    assert updates == []  # archived by Discord, not by a request of the bot


async def test_a_long_advance_archives_and_leaves_nothing_due(world, sb):
    sim, _ = await new_thread(sb, world, minutes=60)
    await sb.advance(5 * 3600)
    assert sim.archived is True
    assert world.archive_idle_threads() == []


async def test_a_post_by_the_bot_unarchives_an_unlocked_thread(world, sb):
    sim, thread = await new_thread(sb, world, minutes=60)
    await sb.advance(3600)
    assert sim.archived is True
    partial = sb.bot.get_partial_messageable(sim.id)
    await partial.send("back")
    await sb.settle()
    assert sim.archived is False
    assert sb.bot.get_channel(sim.id).archived is False  # THREAD_UPDATE re-cached it
    await sb.advance(59 * 60)
    assert sim.archived is False  # the post counted as activity


async def test_members_cannot_be_added_and_messages_not_edited_in_an_archived_thread(
        world, sb, alice):
    sim, thread = await new_thread(sb, world)
    table = await thread.send("table")
    world.moderate_thread(sim, archived=True)
    for call in (sb.bot.http.add_user_to_thread(sim.id, alice.id), table.edit(content="x")):
        exc = await refused(call)
        assert (exc.status, exc.code) == (400, 50083)
    assert alice.id not in sim.members
