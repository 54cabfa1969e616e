"""The sandbox models user installs: an interaction's context and authorising installs, a
bot user that is no member of private channels or of guilds that did not install it, the
followup cap of a user-install-only interaction and the token's 15 minutes."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.sandbox import SandboxError, World
from bot.sandbox.installs import FOLLOWUP_CAP
from tests.sandbox.sandbox_testbot import SampleBot

ANYWHERE = dict(guilds=True, dms=True, private_channels=True)


def anywhere_commands(seen: dict[str, Any]) -> list[app_commands.Command[Any, ..., Any]]:
    """Commands declared for both installs and every context."""

    @app_commands.command(name="spot", description="Say where this ran")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(**ANYWHERE)
    async def spot(interaction: discord.Interaction) -> None:
        seen["owners"] = dict(interaction._integration_owners)
        seen["guild_id"] = interaction.guild_id
        seen["app_permissions"] = interaction.app_permissions.value
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Press", custom_id="inst:press"))
        await interaction.response.send_message("Here.", view=view)

    @app_commands.command(name="burst", description="Send followups")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(**ANYWHERE)
    async def burst(interaction: discord.Interaction, count: int) -> None:
        await interaction.response.send_message("Starting.")
        sent = 0
        try:
            for i in range(count):
                await interaction.followup.send(f"Followup {i + 1}.")
                sent += 1
        except discord.HTTPException as exc:
            seen["refused"] = (exc.status, exc.code)
        seen["sent"] = sent

    @app_commands.command(name="post", description="Post with the bot's token")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(**ANYWHERE)
    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Posting.")
        channel = interaction.channel
        assert channel is not None
        try:
            with discord.http.handle_message_parameters(content="As the bot.") as params:
                await interaction.client.http.send_message(channel.id, params=params)
        except discord.HTTPException as exc:
            seen["send"] = (exc.status, exc.code)
        message = await interaction.original_response()
        try:
            await interaction.client.http.start_thread_with_message(
                channel.id, message.id, name="A thread", auto_archive_duration=1440)
        except discord.HTTPException as exc:
            seen["thread"] = (exc.status, exc.code)

    @app_commands.command(name="serveronly", description="Guild install only")
    @app_commands.allowed_installs(guilds=True, users=False)
    async def serveronly(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Server.")

    @app_commands.command(name="guildonly", description="Guilds only")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.guild_only()
    async def guildonly(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Guild.")

    return [spot, burst, post, serveronly, guildonly]


@pytest.fixture
async def setup():
    world = World()
    ana, ben, cy = (world.add_member(n) for n in ("Ana", "Ben", "Cy"))
    seen: dict[str, Any] = {}
    bot = SampleBot()

    @bot.listen("on_interaction")
    async def pressed(interaction: discord.Interaction) -> None:
        if dict(interaction.data or {}).get("custom_id") == "inst:press":
            seen["pressed"] = (interaction.user.id, dict(interaction._integration_owners),
                               interaction.context.private_channel)
            await interaction.response.send_message("Pressed.", ephemeral=True)

    sb = await world.connect(bot)
    for cmd in anywhere_commands(seen):
        bot.tree.add_command(cmd)
    await bot.tree.sync()
    try:
        yield world, sb, ana, ben, cy, seen
    finally:
        await world.disconnect()


async def test_the_synced_commands_declare_their_installs_and_contexts(setup):
    world, sb, *_ = setup
    spot = world.commands[(None, "1:spot")]
    assert spot["integration_types"] == [0, 1] and spot["contexts"] == [0, 1, 2]
    assert world.commands[(None, "1:serveronly")]["integration_types"] == [0]


async def test_a_group_dm_command_carries_context_2_and_the_user_install(setup):
    world, sb, ana, ben, cy, seen = setup
    world.install_for(ana)
    group = world.add_group_dm(ana, ben, name="Friends")
    it = await ana.slash("spot", in_channel=group)
    assert it.context == 2 and it.owners == {"1": str(ana.id)}
    assert seen["owners"] == {1: ana.id} and seen["guild_id"] is None
    # attach files, embed links, mention everyone, use external emojis
    assert seen["app_permissions"] == (1 << 15) | (1 << 14) | (1 << 17) | (1 << 18)
    reply = ana.last_reply
    assert reply.text == "Here." and reply.channel is group
    assert ben.visible(group) == [reply] and cy.visible(group) == []
    assert reply.data["interaction_metadata"]["authorizing_integration_owners"] == {
        "1": str(ana.id)}
    # Ben (no install) presses Ana's button: the click is authorised by Ana's install.
    await ben.click(reply, "Press")
    assert seen["pressed"] == (ben.id, {1: ana.id}, True)
    with pytest.raises(SandboxError, match="Cy is not in private channel"):
        await cy.click(reply, "Press")


async def test_a_command_is_offered_only_where_an_install_reaches(setup):
    world, sb, ana, ben, cy, seen = setup
    world.install_for(ana)
    group = world.add_group_dm(ana, ben)
    with pytest.raises(SandboxError, match="/spot is not offered to Ben here"):
        await ben.slash("spot", in_channel=group)
    with pytest.raises(SandboxError, match="/serveronly is not offered to Ana here"):
        await ana.slash("serveronly", in_channel=group)
    with pytest.raises(SandboxError, match="/guildonly is not offered in context 2"):
        await ana.slash("guildonly", in_channel=group)
    # In the guild that installed the app: the guild install, and Ana's own too.
    it = await ana.slash("spot")
    assert it.context == 0 and it.owners == {"0": str(world.guild_id), "1": str(ana.id)}
    it = await ben.slash("spot")
    assert it.owners == {"0": str(world.guild_id)}


async def test_the_bot_user_is_no_member_of_a_private_channel(setup):
    world, sb, ana, ben, cy, seen = setup
    world.install_for(ana)
    group = world.add_group_dm(ana, ben)
    await ana.slash("post", in_channel=group)
    assert seen["send"] == (403, 50001) and seen["thread"] == (403, 50001)
    assert [m.text for m in ana.visible(group)] == ["Posting."]
    # A DM between two members alike.
    pair = world.add_group_dm(ana, cy, group=False)
    assert pair.payload()["type"] == 1
    seen.clear()
    await ana.slash("post", in_channel=pair)
    assert seen["send"] == (403, 50001) and seen["thread"] == (403, 50001)


async def test_no_thread_in_the_bots_own_dm(setup):
    world, sb, ana, ben, cy, seen = setup
    dm = await sb.bot.create_dm(discord.Object(ana.id))
    channel = world.channel(dm.id)
    it = await ana.slash("post", in_channel=channel)
    assert it.context == 1 and it.owners == {"0": "0"}
    assert "send" not in seen  # the bot may write in its own DM
    assert seen["thread"] == (400, 50024)


async def test_a_guild_that_did_not_install_the_app(setup):
    world, sb, ana, ben, cy, seen = setup
    elsewhere = world.add_uninstalled_guild("Elsewhere")
    assert sb.bot.get_guild(elsewhere.guild_id) is None
    with pytest.raises(SandboxError, match="/spot is not offered to Ana here"):
        await ana.slash("spot", in_channel=elsewhere)
    world.install_for(ana)
    it = await ana.slash("post", in_channel=elsewhere)
    assert it.context == 0 and it.owners == {"1": str(ana.id)}
    assert seen["send"] == (403, 50001) and seen["thread"] == (403, 50001)


async def test_followups_stop_at_five_where_only_a_user_install_authorised(setup):
    world, sb, ana, ben, cy, seen = setup
    world.install_for(ana)
    group = world.add_group_dm(ana, ben)
    it = await ana.slash("burst", in_channel=group, count=FOLLOWUP_CAP + 2)
    assert seen["sent"] == FOLLOWUP_CAP == 5
    assert seen["refused"] == (400, 40094)
    assert [r.status for r in it.requests if r.method == "POST" and "/webhooks/" in r.path
            ] == [200] * 5 + [400]
    assert len(it.followups) == 5
    # Where the guild install authorised the interaction there is no such cap.
    seen.clear()
    it = await ana.slash("burst", count=FOLLOWUP_CAP + 2)
    assert seen == {"sent": 7} and len(it.followups) == 7


async def test_the_token_lives_15_minutes_of_world_clock(setup):
    world, sb, ana, ben, cy, seen = setup
    world.install_for(ana)
    group = world.add_group_dm(ana, ben)
    it = await ana.slash("spot", in_channel=group)
    await world.advance(14 * 60)
    await sb.bot.http.request(discord.http.Route(
        "PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        webhook_id=world.application_id, webhook_token=it.token), json={"content": "Later."})
    assert it.original.text == "Later."
    await world.advance(60 + 1)
    with pytest.raises(discord.HTTPException) as info:
        await sb.bot.http.request(discord.http.Route(
            "PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            webhook_id=world.application_id, webhook_token=it.token),
            json={"content": "Too late."})
    assert (info.value.status, info.value.code) == (401, 50027)
    assert it.original.text == "Later."
