"""Every request of a rematch, checked against Discord's OpenAPI spec: a finished game of
two members and an AI seat, its end with the result card and the
Rematch button, the rematch lobby pinging the other player, a second press, a non-player's
press, the last join starting the game in its thread, and a press after it started."""

from __future__ import annotations

from bot.sandbox.conformance import Spec
from tests.discord.test_llamas_alpacas import click_injected
from tests.discord.test_rematch import finished_game

CHECKED = "requests_checked"


async def test_a_rematch_conforms(spec: Spec, record_property, world, sb):
    a, b, thread = await finished_game(world, sb)
    ed = world.member("Ed")
    await click_injected(sb, b, thread, "hb:l:1:x:rematch")
    rematch = world.channel().last_message
    await click_injected(sb, a, thread, "hb:l:1:x:rematch")
    await click_injected(sb, ed, thread, "hb:l:1:x:rematch")
    await a.click(rematch, "Join")
    assert (await sb.bot.store.get_game(2)).status == "active"
    await click_injected(sb, a, thread, "hb:l:1:x:rematch")
    report = spec.check(list(world.requests))
    record_property(CHECKED, report.checked)
    assert not report.violations, report.summary()
    assert report.checked == len(world.requests) >= 20
