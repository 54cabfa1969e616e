"""Lobbies played in one message (a group DM through members' user installs): a rematch
opens its lobby through the pressing player's interaction (a followup in the same place,
never the bot's token, which Discord refuses there with 50001), and a lobby nobody started
within the hour shows as closed through the last live token, else at the next click,
with a sentence; never a request with a token past its 15 minutes."""

from __future__ import annotations

import pytest

from bot.sandbox import World
from tests.discord.test_one_message import bot_token_requests
from tests.faults.test_abandoned import fire
from tests.support import footer, texts

AGAIN = "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}"
CLOSED = "Nobody started this lobby within an hour, so it has closed."


@pytest.fixture
def group(world: World):
    """A group DM of Ana, Bo and Cy, who installed herdbot to their accounts."""
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    world.install_for(ana, bo, cy)
    return world.add_group_dm(ana, bo, cy, name="Herd")


async def finished_in(world: World, sb, group):  # type: ignore[no-untyped-def]
    """Tiny Race #1 of Ana (host) and Bo in ``group``, target 3, won by Bo; its one
    message (the end now)."""
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny", in_channel=group)
    lobby = ana.last_reply
    assert lobby is not None
    await bo.click(lobby, "Join")
    record = await sb.bot.store.get_game(1)
    await sb.bot.store.update_game(1, options={**record.options, "target": 3})
    await ana.click(lobby, "Start")
    table = world.message(lobby.id)
    await ana.click(table, "Add 1")
    await bo.click(table, "Add 2")
    assert (await sb.bot.store.get_game(1)).status == "finished"
    # (The tiny game has no result card; a game with a presenter shows this button on
    # its end, as bot.discord.result_post.with_rematch adds it.)
    table.data["components"].append({"type": 1, "components": [
        {"type": 2, "style": 3, "label": "Rematch", "custom_id": "hb:l:1:x:rematch"}]})
    return table


async def test_a_rematch_in_a_group_dm_opens_its_lobby_through_the_press(world, sb, group):
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    table = await finished_in(world, sb, group)
    it = await bo.click(table, "Rematch")
    public = [m for m in cy.visible(group)]
    assert [m.id for m in public[:1]] == [table.id] and len(public) == 2
    lobby = public[1]
    assert lobby.interaction is it and it.followups[0] is lobby
    assert texts(lobby)[0] == (f"{AGAIN} **Bo** asks for a rematch of Tiny Race #1. <@{ana.id}>: "
                               "press Join; the game starts once you are all in, or when the "
                               "host starts it.")
    assert texts(lobby)[1] == "### Tiny Race: lobby #2"
    assert [int(u["id"]) for u in lobby.data["mentions"]] == [ana.id]
    assert bo.last_reply.ephemeral and bo.last_reply.text == (
        f"The rematch lobby is open: https://discord.com/channels/@me/{group.id}/{lobby.id}")
    # A second press points to it.
    await ana.click(table, "Rematch")
    assert ana.last_reply.text == ("The rematch lobby is already open: join it there. "
                                   f"https://discord.com/channels/@me/{group.id}/{lobby.id}")
    # Ana's join is the last: the rematch is played in that message.
    await ana.click(lobby, "Join")
    record = await sb.bot.store.get_game(2)
    assert record.status == "active" and record.table_message_id == lobby.id
    assert "Add 1" in world.message(lobby.id).labels
    assert "Continue" in world.message(lobby.id).labels
    assert bot_token_requests(world, group) == []
    assert [r for r in world.requests if r.status >= 400] == []


async def test_an_expired_lobby_shows_closed_through_the_last_live_token(world, sb, clock,
                                                                          group):
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny", in_channel=group)
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    clock.advance(3600)
    await fire(sb)
    assert (await sb.bot.store.get_game(1)).status == "cancelled"
    assert lobby.labels == []
    assert footer(world.message(lobby.id)) == CLOSED
    assert bot_token_requests(world, group) == []
    assert [r for r in world.requests if r.status >= 400] == []


async def test_an_expired_lobby_no_token_can_edit_shows_closed_at_the_next_click(
        world, sb, clock, group):
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    await ana.slash("play", game="tiny", in_channel=group)
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    await world.advance(16 * 60)  # every token of the lobby is older than 15 minutes
    clock.advance(3600)
    await fire(sb)
    assert (await sb.bot.store.get_game(1)).status == "cancelled"
    edits = lobby.edits
    assert lobby.labels[:1] == ["Join"] and world.message(lobby.id).edits == edits
    assert [r for r in world.requests if r.status == 401] == []
    # Cy's click shows it closed, and tells him why.
    await cy.click(lobby, "Join")
    assert lobby.labels == [] and footer(world.message(lobby.id)) == CLOSED
    assert cy.last_reply.ephemeral and cy.last_reply.text == f"\N{NO ENTRY SIGN} {CLOSED}"
    assert [s.user_id for s in await sb.bot.store.seats(1)] == [ana.id, bo.id]
    assert bot_token_requests(world, group) == []
    assert [r for r in world.requests if r.status == 401] == []
