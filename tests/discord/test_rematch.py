"""The Rematch button end to end (sandbox): the lobby in the game's channel pinging the
other players once, a second press, a non-player, the last join opening the thread, and
a press after a restart."""

from __future__ import annotations

from tests.discord.conftest import make_bot
from tests.discord.test_llamas_alpacas import click_injected
from tests.support import body, headline, rows, title

AGAIN = "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}"
NO = "\N{NO ENTRY SIGN} "


def pinged(message) -> list[int]:
    return [int(u["id"]) for u in message.data["mentions"]]


async def finished_game(world, sb) -> tuple:
    """Tiny Race #1 of Ana (host) and Bo with an AI seat, target 3, won by Bo."""
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Add AI seat")
    record = await sb.bot.store.get_game(1)
    await sb.bot.store.update_game(1, options={**record.options, "target": 3})
    await ana.click(lobby, "Start")
    thread = lobby.thread
    await ana.click(thread.last_message, "Add 1")
    await bo.click(thread.last_message, "Add 2")
    assert (await sb.bot.store.get_game(1)).status == "finished"
    return ana, bo, thread


async def test_rematch_pings_once_points_a_second_press_to_it_and_starts_when_all_joined(
        world, sb):
    ana, bo, thread = await finished_game(world, sb)
    ed = world.member("Ed")
    await click_injected(sb, bo, thread, "hb:l:1:x:rematch")
    lobby = world.channel().last_message
    link = f"https://discord.com/channels/{world.guild_id}/{world.channel().id}/{lobby.id}"
    assert (bo.last_reply.ephemeral, bo.last_reply.content) == (
        True, f"The rematch lobby is open: {link}")
    assert headline(lobby) == (f"{AGAIN} **Bo** asks for a rematch of Tiny Race #1. <@{ana.id}>: "
                             "press Join; the game starts once you are all in, or when the host "
                             "starts it.")
    assert pinged(lobby) == [ana.id]
    assert title(lobby) == "Tiny Race: lobby #2"
    # pressed twice (by either player): the same lobby, no new message, nobody pinged
    for member in (bo, ana):
        await click_injected(sb, member, thread, "hb:l:1:x:rematch")
        assert member.last_reply.content == ("The rematch lobby is already open: join it "
                                             f"there. {link}")
    assert world.channel().last_message.id == lobby.id
    # pressed by a non-player
    await click_injected(sb, ed, thread, "hb:l:1:x:rematch")
    assert ed.last_reply.content == NO + "Only the players of this game can ask for a rematch."
    # Ana's join is the last: the game starts in a thread of its own
    await ana.click(lobby, "Join")
    assert lobby.thread is not None and lobby.thread.name == "Tiny Race #2"
    assert rows(lobby) == [] and "Playing in" in body(lobby)
    assert headline(lobby).startswith(f"{AGAIN} **Bo** asks for a rematch")  # kept as posted
    game = await sb.bot.store.get_game(2)
    assert (game.status, game.rematch_of, game.host_id) == ("active", 1, bo.id)
    assert [s.name for s in await sb.bot.store.seats(2)] == ["Bo", "AI Pancho", "Ana"]
    # pressed after the rematch started
    await click_injected(sb, ana, thread, "hb:l:1:x:rematch")
    assert ana.last_reply.content == (NO + "The rematch has already started: look for its "
                                      "thread in the channel.")


async def test_a_rematch_press_after_a_restart(world, clock, tmp_path):
    db = tmp_path / "rematch.sqlite3"
    sb = await world.connect(make_bot(db, clock))
    ana, bo, thread = await finished_game(world, sb)
    await click_injected(sb, ana, thread, "hb:l:1:x:rematch")
    lobby = world.channel().last_message
    await world.disconnect()
    sb = await world.connect(make_bot(db, clock))
    await click_injected(sb, bo, thread, "hb:l:1:x:rematch")
    assert bo.last_reply.content.startswith("The rematch lobby is already open: join it there. ")
    await bo.click(lobby, "Join")
    assert lobby.thread is not None and lobby.thread.name == "Tiny Race #2"
    await world.disconnect()
