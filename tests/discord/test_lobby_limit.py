"""At most N open lobbies per member per server: the refusal, what frees a place, who is
unaffected, the server setting and the config default."""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.runtime import GameError
from tests.discord.conftest import make_bot
from tests.support import footer, headline, title

NO = "\N{NO ENTRY SIGN} "
FULL_3 = NO + "You already have 3 open lobbies in this server; start or cancel one first."


async def open_lobbies(member, n: int) -> list:
    """``n`` lobbies opened by ``member`` with /play; returns their messages."""
    out = []
    for _ in range(n):
        await member.slash("play", game="tiny")
        assert not member.last_reply.ephemeral, member.last_reply.content
        out.append(member.last_reply)
    return out


async def lobby_count(sb, host_id: int) -> int:
    return sum(g.host_id == host_id for g in await sb.bot.store.games_with_status("lobby"))


async def test_a_fourth_open_lobby_is_refused_and_a_cancel_frees_a_place(world, sb):
    ana = world.member("Ana")
    lobbies = await open_lobbies(ana, 3)
    await ana.slash("play", game="tiny")
    assert ana.last_reply.ephemeral
    assert ana.last_reply.content == FULL_3
    assert await lobby_count(sb, ana.id) == 3
    assert len([m for m in world.channel().all_messages if "lobby #" in title(m)]) == 3
    await ana.click(lobbies[1], "Cancel")
    assert footer(lobbies[1]) == "This lobby was cancelled."
    await ana.slash("play", game="tiny")
    assert not ana.last_reply.ephemeral
    assert title(ana.last_reply) == "Tiny Race: lobby #4"
    await ana.slash("play", game="tiny")
    assert ana.last_reply.content == FULL_3


async def test_a_started_game_is_no_longer_an_open_lobby(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    lobbies = await open_lobbies(ana, 3)
    await bo.click(lobbies[0], "Join")
    await ana.click(lobbies[0], "Start")
    assert lobbies[0].thread is not None
    await ana.slash("play", game="tiny")
    assert not ana.last_reply.ephemeral
    assert await lobby_count(sb, ana.id) == 3


async def test_another_member_and_another_server_are_unaffected(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    await open_lobbies(ana, 3)
    await open_lobbies(bo, 3)  # Bo has his own three
    await bo.slash("play", game="tiny")
    assert bo.last_reply.content == FULL_3
    # The same member in another server (the limit counts per server).
    other = world.guild_id + 1
    update = await sb.bot.service.create_lobby("tiny", guild_id=other, channel_id=1,
                                               host_id=ana.id, host_name="Ana", max_open=3)
    assert update.record.guild_id == other
    for _ in range(2):
        await sb.bot.service.create_lobby("tiny", guild_id=other, channel_id=1,
                                          host_id=ana.id, host_name="Ana", max_open=3)
    with pytest.raises(GameError) as info:
        await sb.bot.service.create_lobby("tiny", guild_id=other, channel_id=1,
                                          host_id=ana.id, host_name="Ana", max_open=3)
    assert info.value.code == "too_many_lobbies"
    assert await lobby_count(sb, ana.id) == 6


async def test_the_server_setting_changes_the_limit(world, sb):
    ana, bo, mo = world.member("Ana"), world.member("Bo"), world.member("Mo")
    await mo.slash("settings")
    assert headline(mo.last_reply).endswith(
        "\nOpen lobbies per member: 3\nEnd games after 14 days without a move: on")
    await bo.slash("settings", lobbies_per_member=1)
    assert bo.last_reply.content == (NO + "Only members with Manage Server can change "
                                     "settings.")
    await mo.slash("settings", lobbies_per_member=1)
    assert headline(mo.last_reply).endswith(
        "\nOpen lobbies per member: 1\nEnd games after 14 days without a move: on")
    assert (await sb.bot.store.guild_settings(world.guild_id)).max_open_lobbies == 1
    await open_lobbies(ana, 1)
    await ana.slash("play", game="tiny")
    assert ana.last_reply.content == (
        NO + "You already have 1 open lobby in this server; start or cancel one first.")
    await mo.slash("settings", lobbies_per_member=5)
    await open_lobbies(ana, 4)
    await ana.slash("play", game="tiny")
    assert ana.last_reply.content == (
        NO + "You already have 5 open lobbies in this server; start or cancel one first.")


async def test_the_config_default_applies_until_the_server_sets_one(world, clock, tmp_path):
    sb = await world.connect(make_bot(tmp_path / "bot.sqlite3", clock, max_open_lobbies=2))
    ana, mo = world.member("Ana"), world.member("Mo")
    assert sb.bot.settings.max_open_lobbies == 2
    await open_lobbies(ana, 2)
    await ana.slash("play", game="tiny")
    assert ana.last_reply.content == (
        NO + "You already have 2 open lobbies in this server; start or cancel one first.")
    await mo.slash("settings", lobbies_per_member=3)
    await open_lobbies(ana, 1)
    await world.disconnect()


def test_the_default_is_3_and_the_environment_sets_it(monkeypatch):
    assert Settings(_env_file=None).max_open_lobbies == 3
    monkeypatch.setenv("HERDBOT_MAX_OPEN_LOBBIES", "7")
    assert Settings(_env_file=None).max_open_lobbies == 7
    monkeypatch.setenv("HERDBOT_MAX_OPEN_LOBBIES", "0")
    with pytest.raises(ValueError):
        Settings(_env_file=None)
