"""Side panels (bot/discord/side_panel.py) through Pacapaca's negotiation panel in the
sandbox: the panel is the turn's table message edited in place (the turn's one ping);
giving up shows the table again in it; a cog whose members must not be pinged
(``pings_members``) posts the panel with no ping."""

from __future__ import annotations

import pytest_asyncio

from bot.discord.side_panel import SidePanelCog
from tests.support import description, headline, pictures, title
from tests.support.pacapaca_ui import (
    GID,
    NAMES,
    load,
    member_of,
    open_negotiation,
    pacapaca_bot,
    start,
    until_both_have_necks,
)
from tests.support.pacapaca_ui import clock as clock  # noqa: F401 (fixtures)
from tests.support.pacapaca_ui import seed as seed  # noqa: F401
from tests.support.pacapaca_ui import world as world  # noqa: F401


def event_lines(message) -> list[str]:
    """The bulleted move lines of ``message``'s embed, unbulleted."""
    return [t[2:] for t in description(message).split("\n")
            if t.startswith("\N{BULLET} ")]


def pinged(message) -> list[int]:
    return [int(u["id"]) for u in message.data["mentions"]]


@pytest_asyncio.fixture
async def sb(world, clock, tmp_path, seed):  # noqa: F811
    sandbox = await world.connect(pacapaca_bot(tmp_path / "bot.sqlite3", clock))
    try:
        yield sandbox
    finally:
        await world.disconnect()


async def test_the_panel_is_the_table_message_and_pings_the_partner_once(world, sb):
    cog = sb.bot.game_cog("pacapaca")
    assert isinstance(cog, SidePanelCog) and cog.panel_name == "negotiation panel"
    thread = await start(world, NAMES[:2])
    await until_both_have_necks(world, sb.bot, thread)
    turn = (await sb.bot.store.get_game(GID)).table_message_id
    told = event_lines(world.message(turn))
    public = len([m for m in thread.all_messages if not m.ephemeral])
    active, partner = await open_negotiation(world, sb.bot, thread)
    am, pm = await member_of(world, sb.bot, active), await member_of(world, sb.bot, partner)
    panel = thread.last_message
    record = await sb.bot.store.get_game(GID)
    # The panel is the turn's table message edited in place: no new message, the table
    # picture in it, the turn's lines kept before the opening, the turn's one ping.
    assert record.table_message_id == panel.id == turn
    assert len([m for m in thread.all_messages if not m.ephemeral]) == public
    assert panel.filenames == ["table.png"]
    assert [p[0] for p in pictures(panel)] == ["table.png"]
    assert title(panel) == f"Negotiation: {am.name} \N{LEFT RIGHT ARROW} {pm.name}"
    assert event_lines(panel) == [
        *told,
        f"{am.name} opened a negotiation with {pm.name} (60 seconds)."]
    assert panel.labels == ["Edit deal", "Accept", "Decline", "Give up", "My hand"]
    assert (headline(panel), pinged(panel)) == (am.mention, [am.id])
    await am.click(panel, "Give up")
    # Giving up: the same message shows the table again (the turn goes on), telling it.
    after = world.message(panel.id)
    assert (await sb.bot.store.get_game(GID)).table_message_id == panel.id
    assert len([m for m in thread.all_messages if not m.ephemeral]) == public
    assert title(after) == "Alpaca Pacapaca #1"
    assert event_lines(after)[-2:] == [
        f"{am.name} opened a negotiation with {pm.name} (60 seconds).",
        f"{am.name} gave up the negotiation; they must now draw or take the pile."]
    assert after.labels[:2] == ["Draw 2", "Take discard pile (2)"]
    assert (headline(after), pinged(after)) == (am.mention, [am.id])  # no second ping

async def test_a_cog_that_pings_nobody_posts_its_panel_without_a_ping(world, sb, monkeypatch):
    cog = sb.bot.game_cog("pacapaca")
    monkeypatch.setattr(cog, "pings_members", lambda table: False)
    thread = await start(world, NAMES[:2])
    await open_negotiation(world, sb.bot, thread)
    panel = thread.last_message
    assert (headline(panel), pinged(panel)) == ("", [])
    assert panel.labels == ["Edit deal", "Accept", "Decline", "Give up", "My hand"]
    _, _, st = await load(sb.bot)
    assert st.phase == "negotiation"


async def test_a_panel_update_published_late_posts_no_panel_over_the_newer_table(world, sb):
    # Two updates of one game can be published out of order (a timer and a click): the
    # negotiation's update arriving after the move that closed it must not post a live
    # panel nor take the table message's place (the base's rule for tables).
    cog = sb.bot.game_cog("pacapaca")
    thread = await start(world, NAMES[:2])
    active, _ = await open_negotiation(world, sb.bot, thread)
    am = await member_of(world, sb.bot, active)
    late = await cog.load_table(GID)
    assert late.state.phase == "negotiation"
    await am.click(thread.last_message, "Give up")
    record = await sb.bot.store.get_game(GID)
    table_id, count = record.table_message_id, len(thread.all_messages)
    assert world.message(table_id).labels[:2] == ["Draw 2", "Take discard pile (2)"]
    await cog.post_table(late, [])
    assert (await sb.bot.store.get_game(GID)).table_message_id == table_id
    assert len(thread.all_messages) == count
