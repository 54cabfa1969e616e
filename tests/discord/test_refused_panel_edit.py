"""A side panel's edit Discord refuses (Alpaca Pacapaca's negotiation panel): the panel is
posted anew, recorded as the table message, and the member who clicked is told once. The
real HerdBot through discord.py's own dispatch against the sandbox."""

from __future__ import annotations

import pytest

from bot.sandbox.demo import NAMES
from tests.discord.test_pacapaca import (  # noqa: F401 - fixtures
    clock,
    load,
    member_of,
    open_negotiation,
    propose,
    sb,
    seed,
    start,
    table_message,
    world,
)

PANEL_EDIT = r"^/channels/\d+/messages/\d+$"


@pytest.mark.parametrize(("status", "code", "why"), [
    (400, 30046, "Discord allows no more edits of it for now"),
    (403, 50013, "I am missing a permission there"),
    (404, 10008, "the message was deleted"),
])
async def test_a_refused_panel_edit_posts_the_panel_anew(world, sb, status, code, why):
    thread = await start(world, NAMES[:2])
    active, partner = await open_negotiation(world, sb.bot, thread)
    am = await member_of(world, sb.bot, active)
    _, _, st = await load(sb.bot)
    give, get = st.alpacas[active].neck[:1], st.alpacas[partner].neck[:1]
    panel = thread.last_message
    world.faults.fail("PATCH", PANEL_EDIT, status, code=code, message="refused")
    await propose(am, thread, give, get)
    it = am.interactions[-1]  # the Propose click
    record, _, st = await load(sb.bot)
    assert (st.negotiation.active_gives, st.negotiation.partner_gives) == (give, get)
    newest = thread.last_message
    assert newest.id != panel.id and newest.id == record.table_message_id
    assert newest.embeds[0]["footer"]["text"] == f"Move {st.version}"
    assert f"\N{BULLET} {am.name} proposed: " in newest.embeds[0]["description"]
    assert newest.labels == ["Edit deal", "Accept deal v1", "Decline", "Give up", "My hand"]
    assert newest.content == ""  # no second ping
    assert panel.buttons() == []  # the old panel's buttons retired
    assert [m.content for m in it.followups if m.ephemeral and not m.components] == [
        f"Your move was made. I could not edit the negotiation panel in the game's thread "
        f"({why}), so I posted it anew."]
