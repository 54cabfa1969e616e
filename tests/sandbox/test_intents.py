"""bot.sandbox.intents: a bot gets only the gateway events its intents bring."""

from __future__ import annotations

import discord

from bot.sandbox.intents import receives

ME = 42


def test_each_event_comes_with_its_intent_only():
    guilds = discord.Intents.none()
    guilds.guilds = True
    members = discord.Intents.none()
    members.members = True
    guild_messages = discord.Intents.none()
    guild_messages.guild_messages = True
    dms = discord.Intents.none()
    dms.dm_messages = True
    none = discord.Intents.none()
    in_guild = {"guild_id": "1", "id": "9"}
    in_dm = {"id": "9", "channel_id": "3"}
    assert [receives(i, "GUILD_MEMBER_ADD", in_guild, ME)
            for i in (guilds, members, none)] == [False, True, False]
    assert [receives(i, "THREAD_CREATE", in_guild, ME)
            for i in (guilds, members, none)] == [True, False, False]
    assert [receives(i, "MESSAGE_DELETE", in_guild, ME)
            for i in (guilds, guild_messages, dms)] == [False, True, False]
    assert [receives(i, "MESSAGE_DELETE", in_dm, ME)
            for i in (guilds, guild_messages, dms)] == [False, False, True]
    assert [receives(i, "CHANNEL_PINS_UPDATE", d, ME)
            for i, d in ((guilds, in_guild), (dms, in_guild), (guilds, in_dm), (dms, in_dm))
            ] == [True, False, False, True]
    assert [receives(i, "INTERACTION_CREATE", in_guild, ME)
            for i in (guilds, none)] == [True, True]
    assert [receives(bits, "GUILD_MEMBER_ADD", in_guild, ME)
            for bits in (guilds.value, members.value)] == [False, True]  # (IDENTIFY's bits)


def test_thread_members_update_comes_with_guilds_alone_only_when_the_bot_itself_changed():
    guilds = discord.Intents.none()
    guilds.guilds = True
    members = discord.Intents.none()
    members.members = True
    added_me = {"guild_id": "1", "added_members": [{"user_id": str(ME)}]}
    added_other = {"guild_id": "1", "added_members": [{"user_id": "7"}]}
    removed_me = {"guild_id": "1", "removed_member_ids": [str(ME)]}
    removed_other = {"guild_id": "1", "removed_member_ids": ["7"]}
    assert [receives(guilds, "THREAD_MEMBERS_UPDATE", d, ME)
            for d in (added_me, added_other, removed_me, removed_other)] == [
        True, False, True, False]
    assert [receives(members, "THREAD_MEMBERS_UPDATE", d, ME)
            for d in (added_me, added_other, removed_me, removed_other)] == [
        True, True, True, True]
    assert receives(discord.Intents.none(), "THREAD_MEMBERS_UPDATE", added_me, ME) is False


async def test_a_bot_without_the_members_intent_is_not_told_of_a_new_member(world, sb):
    assert not sb.bot.intents.members and sb.bot.intents.guilds
    joined: list[int] = []

    async def on_member_join(member: discord.Member) -> None:
        joined.append(member.id)

    sb.bot.add_listener(on_member_join)
    try:
        world.add_member("Dora")
        world.add_member("Tess", manage_guild=True)  # (a role made for her: GUILDS brings it)
        await sb.settle()
    finally:
        sb.bot.remove_listener(on_member_join)
    assert joined == []
    guild = sb.bot.get_guild(world.guild_id)
    assert [r.name for r in guild.roles][-1] == "Tess role"
