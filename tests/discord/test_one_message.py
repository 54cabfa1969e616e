"""A game in one message where herdbot has no thread (a group DM through members' user
installs, the bot's own DM): the lobby becomes the table, every change edits it through
the players' interactions (never the bot's token), the token's 15 minutes and the
followup cap hold, timers still end an abandoned game, and a member of the group DM who
is not in the game is refused in a sentence."""

from __future__ import annotations

import pytest

from bot.sandbox import World
from tests.faults.test_abandoned import DAY, fire
from tests.support import footer, texts

V2 = 1 << 15
MOVED_ON = "This table has moved on: it shows the current position now."


@pytest.fixture
def group(world: World):
    """A group DM of Ana, Bo and Cy, who installed herdbot to their accounts."""
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    world.install_for(ana, bo, cy)
    return world.add_group_dm(ana, bo, cy, name="Herd")


async def start_in(world: World, channel, host, others, timer: str | None = None):  # type: ignore[no-untyped-def]
    """``host`` opens a tiny lobby in ``channel``, ``others`` join, the host starts;
    returns the lobby message (the table now)."""
    options = {"turn_timer": timer} if timer else {}
    await host.slash("play", game="tiny", in_channel=channel, **options)
    lobby = host.last_reply
    for m in others:
        await m.click(lobby, "Join")
    await host.click(lobby, "Start")
    return world.message(lobby.id)


def bot_token_requests(world: World, channel) -> list:  # type: ignore[no-untyped-def,type-arg]
    return [r for r in world.requests if r.exit == "http" and f"/channels/{channel.id}" in r.path]


async def test_the_lobby_becomes_the_table_and_each_click_edits_it(world, sb, group):
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    table = await start_in(world, group, ana, [bo])
    assert [m.id for m in cy.visible(group)] == [table.id]  # one message, the table
    assert table.flags & V2 and table.embeds == []
    assert table.labels == ["Add 1", "Add 2", "Wait", "My hand", "Continue"]
    assert texts(table)[0] == "\N{BLACK RIGHT-POINTING TRIANGLE} Waiting for **Ana**."
    assert table.data["mentions"] == []
    it = await ana.click(table, "Add 1")
    assert it.response_type == 6 and [m.id for m in bo.visible(group)] == [table.id]
    assert texts(table)[0] == "\N{BLACK RIGHT-POINTING TRIANGLE} Waiting for **Bo**."
    assert footer(table) == "Move 1"
    await bo.click(table, "My hand")
    assert bo.last_reply.ephemeral
    # Cy is in the group DM but not in the game: a sentence, nothing changed.
    edits = table.edits
    await cy.click(table, "Add 2")
    assert cy.last_reply.ephemeral and cy.last_reply.text.endswith("You are not in this game.")
    assert table.edits == edits and footer(table) == "Move 1"
    assert bot_token_requests(world, group) == []
    assert ana.dms == [] and bo.dms == []


async def test_a_turn_after_the_token_expired_shows_at_the_next_click(world, sb, clock, group):
    ana, bo = world.member("Ana"), world.member("Bo")
    table = await start_in(world, group, ana, [bo], timer="2m")
    await ana.click(table, "Add 1")
    assert footer(table) == "Move 1"
    await world.advance(16 * 60)  # every token of the game is older than 15 minutes
    clock.advance(120)
    await fire(sb)  # Bo's turn timer: the AI plays for him; no token can show it
    record = await sb.bot.store.get_game(1)
    assert record.version == 2
    assert footer(table) == "Move 1"
    # No request is made with a token past its 15 minutes: the table waits for a click.
    assert [r for r in world.requests if r.status == 401] == []
    # Ana's turn now; her click on Bo's old buttons brings the table up to date.
    await ana.click(table, "Add 2")
    assert footer(table) == "Move 2"
    assert texts(table)[0] == "\N{BLACK RIGHT-POINTING TRIANGLE} Waiting for **Ana**."
    assert ana.last_reply.ephemeral and ana.last_reply.text == MOVED_ON
    await ana.click(table, "Add 2")
    assert footer(table) == "Move 3"
    assert bot_token_requests(world, group) == []


async def test_continue_refreshes_a_table_nobody_touched(world, sb, clock, group):
    ana, bo = world.member("Ana"), world.member("Bo")
    table = await start_in(world, group, ana, [bo], timer="2m")
    await world.advance(20 * 60)
    clock.advance(120)
    await fire(sb)  # Ana's turn timed out unseen
    assert footer(table) == "Move 0"
    it = await bo.click(table, "Continue")
    assert it.response_type == 6 and it.followups == []  # acknowledged first, then edited
    assert footer(table) == "Move 1"
    assert texts(table)[0] == "\N{BLACK RIGHT-POINTING TRIANGLE} Waiting for **Bo**."


async def test_no_interaction_of_a_whole_game_exceeds_the_followup_cap(world, sb, group):
    ana, bo = world.member("Ana"), world.member("Bo")
    table = await start_in(world, group, ana, [bo])
    for _ in range(12):
        record = await sb.bot.store.get_game(1)
        if record.status != "active":
            break
        mover = ana if record.version % 2 == 0 else bo
        await mover.click(table, "Add 2")
    assert (await sb.bot.store.get_game(1)).status == "finished"
    assert "final scores" in table.text and table.labels[-1:] != ["Continue"]
    mine = [it for it in world.interactions.values() if it.channel is group]
    assert max(it.followup_posts for it in mine) <= 5
    assert all(r.status < 400 for r in world.requests if r.interaction in mine)
    assert bot_token_requests(world, group) == []


async def test_timers_end_a_game_abandoned_in_the_bots_dm(world, sb, clock):
    ana = world.member("Ana")
    dm = world.channel((await sb.bot.create_dm(ana)).id)  # type: ignore[arg-type]
    await ana.slash("play", game="tiny", in_channel=dm, turn_timer="2m")
    lobby = ana.last_reply
    await ana.click(lobby, "Add AI seat")
    await ana.click(lobby, "Start")
    table = world.message(lobby.id)
    assert "Add 1" in table.labels
    await world.advance(30 * 60)  # Ana walked away: no token is left
    for _ in range(60):
        clock.advance(DAY)
        await fire(sb)
        if (await sb.bot.store.get_game(1)).status != "active":
            break
    assert (await sb.bot.store.get_game(1)).status in ("finished", "ended")
    # The table shows the end at the next click on it.
    await ana.click(table, "Continue")
    assert "Continue" not in table.labels


async def test_a_server_without_the_bot_plays_in_one_message(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    world.install_for(ana, bo)
    elsewhere = world.add_uninstalled_guild("Elsewhere")
    table = await start_in(world, elsewhere, ana, [bo])
    assert [m.id for m in bo.visible(elsewhere)] == [table.id]
    assert texts(table)[0] == "\N{BLACK RIGHT-POINTING TRIANGLE} Waiting for **Ana**."
    await ana.click(table, "Add 1")
    assert footer(table) == "Move 1"
    assert bot_token_requests(world, elsewhere) == [] and world.threads == []


async def test_a_game_command_where_there_is_no_game_says_so(world, sb, group):
    ana = world.member("Ana")
    await ana.slash("game hand", in_channel=group)
    assert ana.last_reply.ephemeral and ana.last_reply.text == (
        "\N{NO ENTRY SIGN} You have no running game here. Start one with /play.")
