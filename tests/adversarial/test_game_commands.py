"""/game commands used the way confused or mischievous players use them: in the wrong
thread, in the channel while in two games, twice, by spectators, after the game ended."""

from __future__ import annotations

import random

from tests.adversarial.conftest import open_negotiation, start
from tests.faults.common import answer_text, click_raw, press_all
from tests.support import headline, rows

NO = "\N{NO ENTRY SIGN} "


async def end_game(member, thread):
    """``/game end`` in ``thread`` and confirm."""
    await member.slash("game end", in_channel=thread)
    await member.click(member.last_reply, "Yes, end the game")


async def seat_rows(sb, game_id):
    return {s.user_id: s for s in await sb.bot.store.seats(game_id)}


async def test_leave_in_a_finished_games_thread_does_not_leave_another_game(world, sb):
    ana, cy = world.member("Ana"), world.member("Cy")
    old = await start(world, "pacapaca", ["Ana", "Bo"])
    await start(world, "llamas-unleashed", ["Cy", "Ana"])
    await end_game(ana, old.thread)
    await ana.slash("game leave", in_channel=old.thread)
    assert ana.last_reply.ephemeral
    assert (await seat_rows(sb, 2))[ana.id].ai_takeover is False
    assert headline(ana.last_reply) == NO + "Alpaca Pacapaca #1 is over."
    del cy


async def test_leave_in_the_games_own_thread_picks_that_game(world, sb):
    """The thread wins over 'newest game': Ana is in games 1 and 2, leaves 1 from its thread."""
    ana = world.member("Ana")
    first = await start(world, "pacapaca", ["Ana", "Bo"])
    await start(world, "pacapaca", ["Cy", "Ana"])
    await ana.slash("game leave", in_channel=first.thread)
    assert headline(ana.last_reply) == "You left the game; the AI plays your seat."
    assert (await seat_rows(sb, 1))[ana.id].ai_takeover is True
    assert (await seat_rows(sb, 2))[ana.id].ai_takeover is False
    assert headline(first.thread.last_message).startswith("Ana left the game")


async def test_game_commands_in_the_channel_name_the_game_when_in_two(world, sb):
    ana = world.member("Ana")
    await start(world, "pacapaca", ["Ana", "Bo"])
    await start(world, "llamas-unleashed", ["Cy", "Ana"])
    await ana.slash("game hand")
    assert "Llamas Unleashed #2" in ana.last_reply.text
    # Ana hosts game 1, yet /game end in the channel resolves to Cy's game 2 and refuses.
    await ana.slash("game end")
    assert "Alpaca Pacapaca #1" in ana.last_reply.text


async def test_a_game_played_in_the_channel_does_not_capture_other_players_commands(world, sb):
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    world.faults.fail("POST", r"/threads", 403, code=50013, message="Missing Permissions")
    await ana.slash("play", game="pacapaca")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    record = await sb.bot.store.get_game(1)
    assert record.thread_id == record.channel_id  # played in the channel
    await start(world, "pacapaca", ["Cy", "Di"])
    await cy.slash("game hand")
    assert headline(cy.last_reply) != NO + "You are not in this game."


async def test_leaving_twice_is_answered_without_a_second_announcement(world, sb):
    ana = world.member("Ana")
    lobby = await start(world, "pacapaca", ["Ana", "Bo", "Cy"])
    await ana.slash("game leave", in_channel=lobby.thread)
    count = len(lobby.thread.all_messages)
    await ana.slash("game leave", in_channel=lobby.thread)
    public = [m for m in lobby.thread.all_messages[count:] if not m.ephemeral]
    assert public == []


async def test_last_human_leaving_ends_the_game_without_scores(world, sb):
    ana = world.member("Ana")
    lobby = await start(world, "llamas-alpacas", ["Ana"], ai=1)
    await ana.slash("game leave", in_channel=lobby.thread)
    assert headline(ana.last_reply) == "You were the last player, so the game has ended."
    record = await sb.bot.store.get_game(1)
    assert record.status == "ended"
    assert headline(lobby.thread.last_message) == (
        "\N{BLACK SQUARE FOR STOP} This game was ended early; no scores are recorded.")
    assert all(not rows(m) for m in lobby.thread.all_messages if not m.ephemeral)
    assert await sb.bot.store.stats(record.guild_id) == []


async def test_lobby_buttons_of_a_started_game_and_end_by_others_are_refused(world, sb):
    """Raw clicks on the (retired) lobby buttons and on the end-confirmation id."""
    ana, bo, cy, mo = (world.member(n) for n in ("Ana", "Bo", "Cy", "Mo"))
    lobby = await start(world, "llamas-alpacas", ["Ana", "Bo"])
    assert rows(lobby) == []
    closed = NO + "This lobby is closed: the game has started or ended."
    for member, code in ((cy, "join"), (bo, "leave"), (ana, "start"), (ana, "ai"),
                         (ana, "cancel")):
        await click_raw(sb, member, lobby, f"hb:l:1:x:{code}")
        assert member.last_reply.ephemeral and headline(member.last_reply) == closed, code
    await click_raw(sb, ana, lobby, "hb:l:1:x:opt.nothing")
    assert headline(ana.last_reply) == NO + "That option does not exist."
    version = (await sb.bot.store.get_game(1)).version
    table = lobby.thread.last_message
    for member in (bo, cy):
        await click_raw(sb, member, table, "hb:g:1:x:endyes")
        assert headline(member.last_reply) == (
            NO + "Only the host (or a server manager) can end it.")
    record = await sb.bot.store.get_game(1)
    assert (record.status, record.version) == ("active", version)
    await click_raw(sb, mo, table, "hb:g:1:x:endyes")  # Manage Server may
    assert (await sb.bot.store.get_game(1)).status == "ended"
    await click_raw(sb, ana, table, "hb:g:1:x:endyes")
    assert headline(ana.last_reply) == NO + "This game is not running."


async def test_spectators_get_words_not_hands_and_status_does_not_reping(world, sb):
    ana, cy = world.member("Ana"), world.member("Cy")
    lobby = await start(world, "llamas-unleashed", ["Ana", "Bo"])
    thread = lobby.thread
    table = thread.last_message
    assert headline(table) == f"<@{ana.id}> <@{world.member('Bo').id}>"
    await cy.click(table, "My hand")
    assert cy.last_reply.ephemeral and headline(cy.last_reply) == NO + "You are not in this game."
    await cy.slash("game hand", in_channel=thread)
    assert headline(cy.last_reply) == NO + "You are not in this game."
    await cy.click(table, "Choose your Baby")
    assert headline(cy.last_reply) == NO + "You are not in this game."
    for _ in range(2):
        await cy.slash("game status", in_channel=thread)
        assert headline(cy.last_reply) == "The table is posted in the game's thread."
        assert headline(thread.last_message) == ""  # reposted without pinging again
        assert thread.last_message.labels == ["Choose your Baby", "My hand", "Watch"]
    await cy.slash("game leave", in_channel=thread)
    assert headline(cy.last_reply) == NO + "You are not in this game."
    await cy.slash("game end", in_channel=thread)
    assert headline(cy.last_reply) == NO + "Only the host (or a server manager) can end the game."


async def test_end_during_a_negotiation_closes_the_panel_and_its_timer(world, sb, clock):
    cy, di = world.member("Cy"), world.member("Di")
    lobby = await start(world, "pacapaca", ["Cy", "Di"])
    thread = lobby.thread
    svc = sb.bot.service
    panel, st = await open_negotiation(world, sb)
    assert panel.labels == ["Edit deal", "Accept", "Decline", "Give up", "My hand"]
    await end_game(cy, thread)
    assert world.message(panel.id).labels == []
    count = len(thread.all_messages)
    clock.advance(700)  # past the negotiation/reaction deadline and the archive delay
    await svc.timers.fire_due()
    await world.settle()
    assert thread.archived is True  # the timers did run
    assert thread.all_messages[count:] == []
    await click_raw(sb, di, panel, "hb:g:1:x:giveup." + str(st.turn_number))
    assert headline(di.last_reply) == NO + "This game is over."


async def test_double_start_and_a_join_racing_it_open_one_thread(world, sb):
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    await ana.slash("play", game="llamas-unleashed")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    start_id = {"custom_id": lobby.component("Start")["custom_id"], "component_type": 2}
    join_id = {"custom_id": lobby.component("Join")["custom_id"], "component_type": 2}
    its = press_all(sb, [(ana, lobby, start_id), (cy, lobby, join_id), (ana, lobby, start_id)])
    await sb.settle()
    closed = NO + "This lobby is closed: the game has started or ended."
    assert [answer_text(it) == closed for it in its] == [False, True, True]
    assert len(world.threads) == 1
    assert [s.name for s in await sb.bot.store.seats(1)] == ["Ana", "Bo"]


async def test_end_during_a_reaction_window_closes_it_for_good(world, sb, clock):
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start(world, "llamas-unleashed", ["Ana", "Bo"])
    thread = lobby.thread
    svc = sb.bot.service
    rand = random.Random(2)
    for _ in range(300):  # seeded policy moves until a reaction window is open
        _, _, spec, st = await svc.load(1)
        pending = spec.engine.pending(st)
        if pending.kind == "reaction":
            break
        seat = pending.seats[0]
        legal = spec.engine.legal_actions(st, seat)
        action = spec.policy(spec.engine.view(st, seat), legal, rand)
        await svc.act(1, seat, action, expected_version=st.version)
        await world.settle()
    else:
        raise AssertionError("no reaction window reached")
    window = public_table(thread)
    assert window.labels[:2] == ["Respond", "Pass"]
    pass_id = window.component("Pass")["custom_id"]
    await end_game(ana, thread)
    assert world.message(window.id).labels == []
    count = len(thread.all_messages)
    clock.advance(700)  # past the negotiation/reaction deadline and the archive delay
    await svc.timers.fire_due()
    await world.settle()
    assert thread.archived is True  # the timers did run
    assert thread.all_messages[count:] == []
    await click_raw(sb, bo, window, pass_id)
    assert headline(bo.last_reply) == NO + "This game is over."
    assert (await sb.bot.store.get_game(1)).status == "ended"


def public_table(thread):
    return [m for m in thread.all_messages if not m.ephemeral and rows(m)][-1]
