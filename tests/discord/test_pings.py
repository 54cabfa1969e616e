"""Who each pinging message pings: exactly the members it is meant for, read from the
sandbox's ``mentions`` (which follow the request's allowed_mentions)."""

from __future__ import annotations

from tests.discord.test_live_service import expire, start_tiny
from tests.support import headline, rows


def pinged(message) -> list[int]:
    return [int(u["id"]) for u in message.data["mentions"]]


async def test_the_turn_ping_and_the_reminder_ping_exactly_the_player(world, sb, clock):
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby, thread = await start_tiny(world, timer="2m")
    assert pinged(thread.last_message) == [ana.id]
    await expire(sb, clock, 60)
    assert thread.last_message.content.startswith(f"\N{ALARM CLOCK} <@{ana.id}>, half")
    assert pinged(thread.last_message) == [ana.id]
    await ana.click([m for m in thread.all_messages if rows(m)][-1], "Add 1")
    assert pinged(thread.last_message) == [bo.id]
    assert pinged(lobby) == []  # the lobby lists members as mentions but pings nobody


async def test_the_fallback_reply_and_the_closed_dm_notice_ping_only_their_member(world, sb):
    lobby, thread = await start_tiny(world)
    bo = world.member("Bo")
    world.faults.expire_token()
    await bo.click(thread.last_message, "Add 1")  # not Bo's turn: refused after the ack
    assert headline(thread.last_message) == f"<@{bo.id}> \N{NO ENTRY SIGN} It is not your turn."
    assert pinged(thread.last_message) == [bo.id]
    world.faults.close_dms(bo)
    record = await sb.bot.store.get_game(1)
    assert await sb.bot.notifier.dm(record, bo.id, "secret") is False
    await sb.settle()
    notice = [m for m in thread.all_messages if "cannot send you direct messages" in m.content]
    assert [pinged(m) for m in notice] == [[bo.id]]
