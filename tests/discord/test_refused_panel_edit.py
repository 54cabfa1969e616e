"""Alpaca Pacapaca's edits Discord refuses (400 30046, 403 50013, 404 10008): the
negotiation panel's step and the end shown in the last table. Each is posted anew instead
(a panel recorded as the table message), and the member who clicked is told once. The
real HerdBot through discord.py's own dispatch against the sandbox."""

from __future__ import annotations

import random
import types
from typing import Any

import pytest
import pytest_asyncio

import bot.runtime.service as service_mod
from bot.runtime import ManualClock
from bot.sandbox import World
from bot.sandbox.demo import NAMES
from bot.sandbox.drivers.pacapaca import perform
from tests.support import description, footer, headline, rows, title
from tests.support.pacapaca_ui import (
    SPEC,
    ctx_for,
    load,
    member_of,
    open_negotiation,
    pacapaca_bot,
    propose,
    start,
)


@pytest_asyncio.fixture
async def pp(tmp_path, monkeypatch):
    """(world, sandbox): the Pacapaca bot, every game seeded 5 (as tests/discord/test_pacapaca.py)."""
    monkeypatch.setattr(service_mod, "secrets", types.SimpleNamespace(randbits=lambda n: 5))
    world = World()
    for name in NAMES[:2]:
        world.add_member(name)
    sb = await world.connect(pacapaca_bot(tmp_path / "bot.sqlite3", ManualClock()))
    yield world, sb
    await world.disconnect()


PANEL_EDIT = r"^/channels/\d+/messages/\d+$"
#: The edit of a table message: the click's own response (an update of the clicked
#: message), or through an interaction's token or the bot's.
TABLE_EDIT = r"/messages/(@original|\d+)$|^/interactions/\d+/[^/]+/callback$"
REFUSALS = [
    (400, 30046, "Discord allows no more edits of it for now"),
    (403, 50013, "I am missing a permission there"),
    (404, 10008, "the message was deleted"),
]


@pytest.mark.parametrize(("status", "code", "why"), REFUSALS)
async def test_a_refused_panel_edit_posts_the_panel_anew(pp, status, code, why):
    world, sb = pp
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
    assert footer(newest) == f"Move {st.version}"
    assert f"\N{BULLET} {am.name} proposed: " in description(newest)
    assert newest.labels == ["Edit deal", "Accept deal v1", "Decline", "Give up", "My hand"]
    assert headline(newest) == ""  # no second ping
    assert panel.buttons() == []  # the old panel's buttons retired
    assert [headline(m) for m in it.followups if m.ephemeral and not rows(m)] == [
        f"Your move was made. I could not edit the negotiation panel in the game's thread "
        f"({why}), so I posted it anew."]


async def to_the_last_move(world: Any, bot: Any) -> tuple[str, Any]:
    """Play game 1 through the service with the AI policy (seeded 1) up to its last move:
    (the seat to make it, that move), not made."""
    engine, policy, rand = SPEC.engine, SPEC.policy, random.Random(1)
    assert policy is not None
    for _ in range(1000):
        _, _, state = await load(bot)
        seat = engine.pending(state).seats[0]
        action = policy(engine.view(state, seat), engine.legal_actions(state, seat), rand)
        if engine.result(engine.apply(state, seat, action)[0]) is not None:
            return seat, action
        await bot.service.act(1, seat, action, expected_version=state.version)
        await world.settle()
    raise AssertionError("no last move")


@pytest.mark.parametrize(("status", "code", "why"), REFUSALS)
async def test_a_refused_edit_of_the_end_posts_it_anew(pp, status, code, why):
    """The end replaces the last table in place (the scoring, the final picture); refused,
    it is posted as a new message and the last table's buttons retired."""
    world, sb = pp
    thread = await start(world, NAMES[:2])
    seat, action = await to_the_last_move(world, sb.bot)
    last = thread.last_message
    member = await member_of(world, sb.bot, seat)
    world.faults.fail(None, TABLE_EDIT, status, code=code, message="refused")
    await perform(await ctx_for(world, sb.bot, thread, seat), action)
    it = member.interactions[-1]
    record, _, state = await load(sb.bot)
    assert record.status == "finished"
    public = [m for m in thread.all_messages if not m.ephemeral]
    final = public[-1]
    assert final.id != last.id
    assert title(final) == "Alpaca Pacapaca #1: final scores"
    assert final.filenames == ["final.png", "result.png"]
    assert sum(title(m).endswith("final scores") for m in public) == 1
    # every button retired, but the end's Rematch and Replay
    assert [b["custom_id"] for b in final.buttons()] == ["hb:l:1:x:rematch", "hb:r:1:x:open"]
    assert not any(rows(m) for m in thread.all_messages if m != final)
    assert [headline(m) for m in it.followups if m.ephemeral] == [
        f"Your move was made. I could not edit the table in the game's thread ({why}), so "
        "I posted it anew."]


async def test_an_end_whose_new_post_is_refused_too_is_not_told_as_posted(pp):
    """The end's edit refused, its new post (the click's followup) refused too: nothing
    is posted and the member is told both, not that it was posted anew."""
    world, sb = pp
    thread = await start(world, NAMES[:2])
    seat, action = await to_the_last_move(world, sb.bot)
    member = await member_of(world, sb.bot, seat)
    count = len(thread.all_messages)
    world.faults.fail(None, TABLE_EDIT, 404, code=10008, message="Unknown Message")
    world.faults.fail("POST", r"^/webhooks/\d+/[^/]+$", 403, code=50013,
                      message="Missing Permissions")
    await perform(await ctx_for(world, sb.bot, thread, seat), action)
    it = member.interactions[-1]
    assert (await load(sb.bot))[0].status == "finished"
    assert [m for m in thread.all_messages[count:] if not m.ephemeral] == []
    assert [headline(m) for m in it.followups if m.ephemeral] == [
        "Your move was made, but I could not edit the table in the game's thread (the "
        "message was deleted) or post it anew (I am missing a permission there). See "
        "/game status."]
