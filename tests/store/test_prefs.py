"""The languages the store keeps (bot/store/prefs.py): a server's chosen language and a
member's last seen client locale, on each backend."""

from __future__ import annotations

from bot.store import GuildSettings


async def test_a_servers_language_is_kept_and_cleared(store):
    assert (await store.guild_settings(9)).language is None
    await store.save_guild_settings(GuildSettings(guild_id=9, turn_timer="2m", language="pl"))
    got = await store.guild_settings(9)
    assert (got.language, got.turn_timer) == ("pl", "2m")
    await store.save_guild_settings(GuildSettings(guild_id=9, turn_timer="2m"))
    assert (await store.guild_settings(9)).language is None


async def test_a_members_locale_is_kept_beside_their_preferences(store):
    assert await store.member_locale(8) is None
    await store.set_member_prefs(8, turn_notices=True)
    await store.set_member_locale(8, "pt-BR")
    await store.set_dm_channel(8, 777)
    assert await store.member_locale(8) == "pt-BR"
    await store.set_member_locale(8, "de")
    assert await store.member_locale(8) == "de"
    assert (await store.member_prefs(8))["turn_notices"] is True
    assert await store.dm_channel(8) == 777
