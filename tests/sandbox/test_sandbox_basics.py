"""Connecting, slash commands, visibility, components, modals, autocomplete."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.sandbox import SandboxError, SimChannel


async def test_connect_logs_in_runs_setup_hook_and_becomes_ready(world, sb, store, alice):
    bot = sb.bot
    assert store["setup_hook_ran"] == 1
    assert bot.is_ready() and bot.ready_count == 1
    await bot.wait_until_ready()
    assert bot.user.id == world.application_id
    assert bot.application_id == world.application_id
    guild = bot.get_guild(world.guild_id)
    assert guild is not None and guild.name == "Herd Hall"
    assert guild.me.id == world.application_id and guild.member_count == 3
    assert isinstance(bot.get_channel(world.main.id), discord.TextChannel)
    assert [(r.method, r.path) for r in sb.requests] == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
        ("PUT", f"/applications/{world.application_id}/commands"),
    ]
    synced = {c["name"] for (_, _), c in world.commands.items()}
    assert {"play", "game", "pick", "feedback", "card"} <= synced
    assert all(int(c["id"]) > 0 for c in world.commands.values())


async def test_slash_with_choice_and_int_option_posts_public_message(world, sb, alice, bob):
    it = await alice.slash("play", game="Tiny", seats=3)
    assert it.response_type == 4
    msg = alice.last_reply
    assert msg.content == "Lobby 1 for tiny with 3 seats"
    assert msg.labels == ["Join"]
    assert not msg.ephemeral
    assert bob.visible() == [msg]
    assert world.last_message() is msg
    cb = it.requests[0]
    assert cb.exit == "webhook"
    assert cb.path == f"/interactions/{it.id}/{it.token}/callback"
    assert cb.json["type"] == 4 and cb.flags == 0
    assert cb.member is alice
    comp = cb.json["data"]["components"][0]["components"][0]
    assert comp["custom_id"] == "sbx:join:1"


async def test_ephemeral_reply_has_flag_64_and_only_its_member_sees_it(world, sb, alice, bob):
    it = await alice.slash("game hand")
    cb = it.requests[0]
    assert cb.json["type"] == 4 and cb.json["data"]["flags"] == 64 and cb.ephemeral
    msg = alice.last_reply
    assert msg.content == "Hand of Alice" and msg.ephemeral
    assert alice.visible() == [msg]
    assert alice.ephemerals == [msg]
    assert bob.visible() == [] and bob.ephemerals == []
    assert world.last_message() is None  # public view of the channel


async def test_ephemerals_come_from_the_per_member_index_oldest_first(world, sb, alice, bob):
    await alice.slash("game hand")
    first = alice.last_reply
    await bob.slash("game hand")
    theirs = bob.last_reply
    await alice.slash("game hand")
    second = alice.last_reply
    await alice.slash("play", game="Tiny", seats=3)  # a public reply: not an ephemeral
    assert world.ephemeral_ids == {alice.id: [first.id, second.id], bob.id: [theirs.id]}
    assert alice.ephemerals == [first, second] and bob.ephemerals == [theirs]
    # A message dropped from the world (as the benches prune) or deleted is left out,
    # and the index forgets it.
    del world.messages[first.id]
    assert alice.ephemerals == [second]
    assert world.ephemeral_ids[alice.id] == [second.id]
    second.deleted = True
    assert alice.ephemerals == [] and world.ephemeral_ids[alice.id] == []
    assert bob.ephemerals == [theirs]


async def test_member_cannot_click_another_members_ephemeral(world, sb, alice, bob):
    await alice.slash("pick")
    await alice.select(alice.last_reply, ["llama"], custom_id="sbx:pick")
    eph = alice.last_reply
    assert eph.ephemeral
    with pytest.raises(SandboxError, match="cannot see"):
        await bob.click(eph, "anything")


async def test_subcommand_group_and_permissions(world, sb, alice):
    boss = world.add_member("Boss", manage_guild=True)
    await sb.settle()
    await alice.slash("game admin reset", confirm=True)
    assert alice.last_reply.content == "Only managers."
    await boss.slash("game admin reset", confirm=True)
    assert boss.last_reply.content == "Reset confirm=True"
    member = await sb.bot.get_guild(world.guild_id).fetch_member(boss.id)
    assert member.guild_permissions.manage_guild
    with pytest.raises(SandboxError, match="is a group"):
        await alice.slash("game admin")
    with pytest.raises(SandboxError, match="no option"):
        await alice.slash("play", game="tiny", colour="red")
    with pytest.raises(SandboxError, match="missing required"):
        await alice.slash("play")


async def test_string_and_user_selects_and_disabled_button(world, sb, alice, bob):
    await alice.slash("pick")
    msg = alice.last_reply
    assert msg.is_disabled("Off") and not msg.is_disabled("Boom")
    await alice.select(msg, ["Alpaca"], custom_id="sbx:pick")  # by label
    assert alice.last_reply.content == "You picked alpaca"
    await alice.select(msg, [bob], custom_id="Who")  # by placeholder
    assert alice.last_reply.content == "Chosen: Bob"
    assert not alice.last_reply.ephemeral
    with pytest.raises(SandboxError, match="disabled"):
        await alice.click(msg, "Off")
    with pytest.raises(SandboxError, match="no option"):
        await alice.select(msg, ["dog"], custom_id="sbx:pick")
    with pytest.raises(SandboxError, match="pass custom_id"):
        await alice.select(msg, ["llama"])


async def test_modal_open_and_submit(world, sb, alice):
    it = await alice.slash("feedback")
    assert it.response_type == 9
    assert it.modal["data"]["title"] == "Feedback"
    assert alice.last_reply is None
    await alice.submit_modal({"Your thoughts": "lovely llamas"})
    assert alice.last_reply.content == "Thanks: lovely llamas (fine)"
    assert alice.last_reply.ephemeral
    with pytest.raises(SandboxError, match="no open modal"):
        await alice.submit_modal({"Mood": "x"})


async def test_autocomplete_returns_the_bots_choices(world, sb, alice):
    choices = await alice.autocomplete("card", name="lla")
    assert choices == [{"name": "Llama", "value": "llama"},
                       {"name": "Llama King", "value": "llama king"}]
    it = alice.last_interaction
    assert it.kind == "autocomplete" and it.response_type == 8


async def test_user_option_is_resolved_to_a_member(world, sb, alice, bob):
    await alice.slash("poke", who=bob)
    assert alice.last_reply.content == "Poked Bob"


async def test_file_upload_is_parsed_from_multipart(world, sb, alice):
    it = await alice.slash("upload")
    msg = alice.last_reply
    assert msg.filenames == ["hello.txt"]
    assert msg.file("hello.txt") == b"hello bytes"
    assert msg.embeds[0]["title"] == "Picture"
    assert "Picture" in msg.text
    cb = it.requests[0]
    assert [f.filename for f in cb.files] == ["hello.txt"]
    assert cb.files[0].data == b"hello bytes"
    assert cb.json["type"] == 4
    att = msg.data["attachments"][0]
    assert att["filename"] == "hello.txt" and att["size"] == 11


async def test_double_click_applies_once(world, sb, alice, store):
    import asyncio

    await alice.slash("play", game="tiny")
    lobby = alice.last_reply
    await asyncio.gather(alice.click(lobby, "Join"), alice.click(lobby, "Join"))
    assert store["games"][1] == [alice.id]
    assert lobby.content == f"Game 1: <@{alice.id}>"
    assert [m.content for m in alice.ephemerals] == ["You are already in."]


async def test_components_v2_and_label_modal(world, sb, alice):
    await alice.slash("v2")
    card = alice.last_reply
    assert card.flags == 32768 | 64  # IS_COMPONENTS_V2 | EPHEMERAL
    assert card.text == "Your hand: 3 llamas\nLlama"
    assert card.labels == ["Play llama"]
    await alice.click(card, "Play llama")
    assert alice.modal["data"]["title"] == "Play"
    await alice.submit_modal({"Target": "Bob", "Animal": ["alpaca"]})
    assert alice.last_reply.content == "Bob gets ['alpaca']"


async def test_channel_option_is_resolved(world, sb, alice):
    games = world.add_channel("games")
    await alice.slash("where", channel=games)
    assert alice.last_reply.content == "In #games"
    assert alice.last_reply.channel is world.main


async def test_generic_fault_reaches_the_bot_as_discord_exception(world, sb, alice):
    world.faults.fail("POST", r"/threads$", 403, code=50013, message="Missing Permissions")
    with sb.allow_errors() as errors:
        await alice.slash("thread", name="T")
    (err,) = errors
    assert isinstance(err.exc.original, discord.Forbidden) and err.exc.original.code == 50013
    assert world.threads == []


async def test_a_command_synced_to_another_guild_runs_there_with_that_guilds_id(world, alice):
    """A command the bot synced to guild West only: run in West it carries West's
    command id and guild id (as Discord sends it); in the main guild and in a DM Discord
    does not offer it, and neither does the sandbox. (Before: only the main guild's
    commands were looked up, so it was "the bot has no /here command" in West too.)"""
    from discord import app_commands

    from tests.sandbox.sandbox_testbot import SampleBot

    west = world.add_guild("West")
    sb = await world.connect(SampleBot())
    try:
        @app_commands.command(name="here", description="Where this command ran")
        async def here(interaction: discord.Interaction) -> None:
            data: dict[str, Any] = dict(interaction.data or {})
            await interaction.response.send_message(
                f"{interaction.guild_id} {data.get('id')} {data.get('guild_id')}")

        sb.bot.tree.add_command(here, guild=discord.Object(west.guild_id))
        await sb.bot.tree.sync(guild=discord.Object(west.guild_id))
        synced = world.commands[(west.guild_id, "1:here")]
        it = await alice.slash("here", in_channel=west)
        assert it.response_type == 4
        assert alice.last_reply.content == f"{west.guild_id} {synced['id']} {west.guild_id}"
        with pytest.raises(SandboxError) as info:
            await alice.slash("here")
        assert str(info.value) == "the bot has no /here command"
        dm = SimChannel(world, world.clock.snowflake(), "dm", recipient_id=alice.id)
        world.dm_channels[alice.id] = world.channels[dm.id] = dm
        with pytest.raises(SandboxError) as info:
            await alice.slash("here", in_channel=dm)
        assert str(info.value) == "the bot has no /here command"
        # A global command runs in West as a global one: no guild id in its data.
        await alice.slash("poke", in_channel=west, who=alice)
        assert alice.last_reply.content == "Poked Alice"
    finally:
        await world.disconnect()
