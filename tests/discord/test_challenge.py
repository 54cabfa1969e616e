"""Challenge from a profile: Apps -> "Challenge to <game>" on a member opens a lobby with
both seated and the challenger's last options; the challenged member accepts or declines,
or nobody answers and the lobby closes; a bot, oneself, and anyone else pressing Accept or
Decline are refused in a sentence with nothing changed."""

from __future__ import annotations

from tests.faults.test_abandoned import fire
from tests.support import footer, texts

MENU = "Challenge to Tiny Race"


async def games(sb) -> list:  # type: ignore[no-untyped-def,type-arg]
    return await sb.bot.store.games_with_status("lobby", "active", "finished", "cancelled")


async def test_a_challenge_accepted_starts_the_game_with_both_seated(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny", turn_timer="10 minutes per turn", rated=False)
    first = ana.last_reply
    await ana.click(first, "Cancel")
    it = await ana.user_command(MENU, bo)
    lobby = ana.last_reply
    assert it.response_type == 5 and not lobby.ephemeral
    assert lobby.labels == ["Accept", "Decline", "Cancel"]
    assert texts(lobby)[:2] == [
        "### Tiny Race: lobby #2",
        f"A test game: race the counter to 20.\n\nThis lobby closes <t:{int(sb.bot.clock.now()) + 3600}:R> "
        f"unless the host starts the game.\n\n**<@{ana.id}> challenges <@{bo.id}>**: Accept to "
        "start, or Decline."]
    assert footer(lobby) == "2-4 players. Waiting for the challenged member to accept or decline."
    # In a server with the bot, the lobby pings the challenged member and nobody else.
    assert [int(u["id"]) for u in lobby.data["mentions"]] == [bo.id]
    assert lobby.data["mention_everyone"] is False and lobby.data["mention_roles"] == []
    record = (await games(sb))[-1]
    assert record.options["turn_timer"] == "10m" and record.options["rated"] is False
    assert [s.user_id for s in await sb.bot.store.seats(record.id)] == [ana.id, bo.id]
    await bo.click(lobby, "Accept")
    assert (await sb.bot.store.get_game(record.id)).status == "active"
    assert lobby.thread is not None and "Add 1" in lobby.thread.last_message.labels


async def test_only_the_challenged_member_answers(world, sb):
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    await ana.user_command(MENU, bo)
    lobby = ana.last_reply
    edits = lobby.edits
    for member, label in ((ana, "Accept"), (cy, "Decline"), (cy, "Accept")):
        await member.click(lobby, label)
        assert member.last_reply.ephemeral and member.last_reply.text == (
            "\N{NO ENTRY SIGN} Only the challenged member can accept or decline this "
            "challenge.")
    assert lobby.edits == edits and (await games(sb))[-1].status == "lobby"


async def test_a_challenge_declined_closes_the_lobby(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.user_command(MENU, bo)
    lobby = ana.last_reply
    await bo.click(lobby, "Decline")
    assert lobby.labels == []
    assert texts(lobby)[:2] == ["**Bo declined the challenge.**", "### Tiny Race: lobby #1"]
    assert footer(lobby) == "This lobby was cancelled."
    assert (await games(sb))[-1].status == "cancelled"


async def test_a_challenge_nobody_answers_closes_after_an_hour(world, sb, clock):
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.user_command(MENU, bo)
    lobby = ana.last_reply
    clock.advance(3600)
    await fire(sb)
    assert lobby.labels == []
    assert footer(world.message(lobby.id)) == (
        "Nobody started this lobby within an hour, so it has closed.")
    assert (await games(sb))[-1].status == "cancelled"


async def test_a_bot_or_oneself_cannot_be_challenged(world, sb):
    ana = world.member("Ana")
    await ana.user_command(MENU, world.application_id)
    assert ana.last_reply.ephemeral and ana.last_reply.text == (
        "\N{NO ENTRY SIGN} Bots cannot be challenged: open a lobby with /play and press Add "
        "AI seat to play the AI.")
    await ana.user_command(MENU, ana)
    assert ana.last_reply.ephemeral and ana.last_reply.text == (
        "\N{NO ENTRY SIGN} You cannot challenge yourself: pick another member.")
    assert await games(sb) == []


async def test_a_challenge_in_a_group_dm_is_played_in_one_message(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    world.install_for(ana, bo)
    group = world.add_group_dm(ana, bo)
    await ana.user_command(MENU, bo, in_channel=group)
    lobby = ana.last_reply
    # No ping reaches a group DM through a user install: the lobby says whom it waits for.
    assert texts(lobby)[0] == ("\N{BLACK RIGHT-POINTING TRIANGLE} Waiting for **Bo** to accept "
                               "the challenge.")
    assert texts(lobby)[1] == "### Tiny Race: lobby #1"
    assert lobby.data["mentions"] == []
    await bo.click(lobby, "Accept")
    table = world.message(lobby.id)
    assert [m.id for m in bo.visible(group)] == [table.id]
    assert "Add 1" in table.labels and "Continue" in table.labels
    assert [r for r in world.requests if r.exit == "http" and str(group.id) in r.path] == []


async def test_a_challenge_inside_a_games_thread_is_refused(world, sb):
    ana, bo, cy, di = (world.member(n) for n in ("Ana", "Bo", "Cy", "Di"))
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    count = len(await games(sb))
    await cy.user_command(MENU, di, in_channel=lobby.thread)
    assert cy.last_reply.ephemeral and cy.last_reply.text == (
        "\N{NO ENTRY SIGN} Start games in a channel, not inside a thread.")
    assert len(await games(sb)) == count


async def test_a_challenged_members_typed_name_pings_nobody(world, sb):
    ana, bo = world.member("Ana"), world.add_member("@everyone <@1>")
    world.install_for(ana, bo)
    group = world.add_group_dm(ana, bo)
    await ana.user_command(MENU, bo, in_channel=group)
    lobby = ana.last_reply
    assert texts(lobby)[0] == ("\N{BLACK RIGHT-POINTING TRIANGLE} Waiting for **@\u200beveryone "
                               "<@\u200b1>** to accept the challenge.")
    assert lobby.data["mentions"] == [] and lobby.data["mention_everyone"] is False
