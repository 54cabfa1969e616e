"""A server's choice (``/settings one_message``) to play in one message in a channel
where herdbot may not run a game's thread: /play there opens a lobby that becomes the
table, edited through the players' clicks, instead of naming the missing permission;
without the choice the permission is named as before."""

from __future__ import annotations

from bot.sandbox import World
from tests.faults.test_abandoned import fire
from tests.support import footer, headline, texts

NO = "\N{NO ENTRY SIGN} "
MISSING = (f"{NO}I cannot run a game in this channel: I am missing the permission Create "
           "Public Threads. A server admin can grant it to herdbot in this channel's settings "
           "(Edit Channel > Permissions).")


def bot_token_requests(world: World) -> list:  # type: ignore[type-arg]
    return [r for r in world.requests if r.exit == "http" and r.path.startswith("/channels/")]


async def test_a_server_may_play_in_one_message_where_threads_are_not_allowed(world, sb):
    ana, bo, mo = world.member("Ana"), world.member("Bo"), world.member("Mo")
    world.deny_bot(world.main, "create_public_threads")
    await ana.slash("play", game="tiny")
    assert ana.last_reply.ephemeral and headline(ana.last_reply) == MISSING
    await mo.slash("settings", one_message=True)
    assert "\nWhere I may not open a game's thread: a game in one message\n" in headline(
        mo.last_reply)
    assert (await sb.bot.store.guild_settings(world.guild_id)).one_message is True
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    assert not lobby.ephemeral and texts(lobby)[0] == "### Tiny Race: lobby #1"
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    table = world.message(lobby.id)
    assert (await sb.bot.store.get_game(1)).status == "active"
    assert table.labels == ["Add 1", "Add 2", "Wait", "My hand", "Continue"]
    assert texts(table)[0] == "\N{BLACK RIGHT-POINTING TRIANGLE} Waiting for **Ana**."
    assert table.data["mentions"] == [] and world.threads == []
    await ana.click(table, "Add 1")
    assert footer(table) == "Move 1"
    assert texts(table)[0] == "\N{BLACK RIGHT-POINTING TRIANGLE} Waiting for **Bo**."
    assert [m.id for m in bo.visible() if not m.ephemeral] == [table.id]
    assert bot_token_requests(world) == []
    assert [r for r in world.requests if r.status >= 400] == []
    # Turned off again: the missing permission is named.
    await mo.slash("settings", one_message=False)
    assert "\nWhere I may not open a game's thread: no game\n" in headline(mo.last_reply)
    await bo.slash("play", game="tiny")
    assert bo.last_reply.ephemeral and headline(bo.last_reply) == MISSING


async def test_a_channel_with_thread_permissions_keeps_threads(world, sb):
    ana, bo, mo = world.member("Ana"), world.member("Bo"), world.member("Mo")
    await mo.slash("settings", one_message=True)
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    assert lobby.thread is not None and "Add 1" in lobby.thread.last_message.labels


async def test_such_a_lobby_nobody_starts_closes_through_the_last_click(world, sb, clock):
    ana, bo, mo = world.member("Ana"), world.member("Bo"), world.member("Mo")
    world.deny_bot(world.main, "create_public_threads", "send_messages")
    await mo.slash("settings", one_message=True)
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    clock.advance(3600)
    await fire(sb)
    assert (await sb.bot.store.get_game(1)).status == "cancelled"
    assert lobby.labels == []
    assert footer(world.message(lobby.id)) == (
        "Nobody started this lobby within an hour, so it has closed.")
    assert bot_token_requests(world) == []
    assert [r for r in world.requests if r.status >= 400] == []
