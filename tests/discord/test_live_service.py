"""The live service through the sandbox with the tiny game: turn timers and AFK hand-over,
restart with a passed deadline, leave and end, /game log redaction, stats, settings, DMs,
tokens."""

from __future__ import annotations

from tests.discord.conftest import make_bot
from tests.support import body, description, fields, headline, rows, table_lines, title
from tests.support import rows as action_rows
from tests.support.reads import store_reads


async def start_tiny(world, *, timer: str | None = None, ai: bool = False):
    ana, bo = world.member("Ana"), world.member("Bo")
    if timer:
        await ana.slash("play", game="tiny", turn_timer=timer)
    else:
        await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    if ai:
        await ana.click(lobby, "Add AI seat")
    else:
        await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    return lobby, lobby.thread


async def expire(sb, clock, seconds: float) -> None:
    clock.advance(seconds)
    await sb.bot.service.timers.fire_due()
    await sb.settle()


async def test_turn_timer_reminds_at_half_time_then_the_ai_plays(world, sb, clock):
    lobby, thread = await start_tiny(world, timer="2m")
    ana = world.member("Ana")
    table = thread.last_message
    assert (f"\N{ALARM CLOCK} Turn timer: the AI plays for you <t:{int(clock.now() + 120)}:R>."
            in description(table))
    await expire(sb, clock, 60)
    reminder = thread.last_message
    assert headline(reminder).startswith(f"\N{ALARM CLOCK} <@{ana.id}>, half your time is gone")
    assert f"<t:{int(clock.now() + 60)}:R>" in headline(reminder)
    await expire(sb, clock, 60)
    assert "\N{BULLET} Time ran out for Ana: the AI played their turn." in table_lines(thread)
    state = sb.bot.registry["tiny"].engine.load_state((await sb.bot.store.get_game(1)).state)
    assert (state.counter, state.turn) == (2, 1)  # the tiny AI adds 2


async def test_three_expiries_hand_the_seat_over_and_im_back_takes_it_back(world, sb, clock):
    lobby, thread = await start_tiny(world, timer="2m")
    ana, bo = world.member("Ana"), world.member("Bo")
    for _ in range(3):
        await expire(sb, clock, 120)  # Ana's turn runs out
        if _ < 2:
            await bo.click(thread.last_message, "Add 1")
    assert ("\N{BULLET} Ana missed 3 turns in a row: the AI plays their seat until they press "
            "I'm back." in table_lines(thread))
    seat = (await sb.bot.store.seats(1))[0]
    assert seat.ai_takeover is True
    await bo.click(thread.last_message, "Add 1")
    # Ana's seat is played by the AI at once: it is Bo's turn again.
    state = sb.bot.registry["tiny"].engine.load_state((await sb.bot.store.get_game(1)).state)
    assert state.turn == 1
    await ana.click(thread.last_message, "I'm back")
    assert headline(ana.last_reply) == "Welcome back: your seat is yours again."
    seat = (await sb.bot.store.seats(1))[0]
    assert (seat.ai_takeover, seat.missed_turns) == (False, 0)


async def test_restart_with_a_deadline_passed_during_the_downtime(world, clock, tmp_path):
    db = tmp_path / "down.sqlite3"
    sb = await world.connect(make_bot(db, clock))
    lobby, thread = await start_tiny(world, timer="2m")
    await world.disconnect()
    clock.advance(3600)  # the bot is down for an hour
    sb = await world.connect(make_bot(db, clock))
    await sb.bot.service.timers.fire_due()
    await sb.settle()
    assert "\N{BULLET} Time ran out for Ana: the AI played their turn." in table_lines(thread)
    await world.disconnect()


async def test_leave_hands_the_seat_to_the_ai_and_end_needs_confirmation(world, sb):
    lobby, thread = await start_tiny(world)
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    await bo.slash("game leave", in_channel=thread)
    assert headline(bo.last_reply) == "You left the game; the AI plays your seat."
    assert "Bo left the game; the AI plays their seat now." in [headline(m) for m in thread.all_messages]
    await cy.slash("game end", in_channel=thread)
    assert cy.last_reply.ephemeral
    await ana.slash("game end", in_channel=thread)
    confirm = ana.last_reply
    assert confirm.ephemeral and confirm.labels == ["Yes, end the game"]
    await ana.click(confirm, "Yes, end the game")
    assert (await sb.bot.store.get_game(1)).status == "ended"
    assert headline(thread.last_message).startswith("\N{BLACK SQUARE FOR STOP} This game was ended early")
    assert all(not rows(m) for m in thread.all_messages if not m.ephemeral)


async def test_game_log_redacts_other_players_private_events(world, sb):
    lobby, thread = await start_tiny(world)
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.click(thread.last_message, "Add 1")
    await bo.click(thread.last_message, "Add 2")
    state = sb.bot.registry["tiny"].engine.load_state((await sb.bot.store.get_game(1)).state)
    await ana.slash("game log", in_channel=thread)
    log = ana.last_reply
    assert log.ephemeral
    assert f"Your token is {state.secrets['s0']}." in headline(log)
    assert str(state.secrets["s1"]) not in headline(log)
    assert "1. Ana adds 1: 1." in headline(log) and "2. Bo adds 2: 3." in headline(log)


async def test_stats_after_two_finished_games(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    for game in range(2):
        lobby, thread = await start_tiny(world)
        # Ana adds 2 and Bo adds 1 until Ana reaches 20 first: Ana wins.
        while (await sb.bot.store.get_game(game + 1)).status == "active":
            state = sb.bot.registry["tiny"].engine.load_state(
                (await sb.bot.store.get_game(game + 1)).state)
            who, label = (ana, "Add 2") if state.turn == 0 else (bo, "Add 1")
            await who.click(thread.last_message, label)
    finals = [m for m in thread.all_messages if "final scores" in title(m)]
    assert len(finals) == 1
    rows = await sb.bot.store.stats(world.guild_id, kind="tiny")
    assert [(r.user_id, r.played, r.won, r.best_score) for r in rows] == [
        (ana.id, 2, 2, 1), (bo.id, 2, 0, 0)]
    await bo.slash("stats show", game="tiny")
    board = bo.last_reply
    assert title(board) == "Tiny Race leaderboard"
    assert body(board).splitlines()[0].startswith(f"1. <@{ana.id}>")
    assert "2/2 won (100%)" in body(board)
    await bo.slash("stats forget")
    assert [r.user_id for r in await sb.bot.store.stats(world.guild_id)] == [ana.id]


async def test_settings_change_the_default_turn_timer(world, sb):
    mo, bo = world.member("Mo"), world.member("Bo")
    await bo.slash("settings", turn_timer="10m")
    assert "Manage Server" in headline(bo.last_reply)
    await mo.slash("settings", turn_timer="10m")
    assert "Default turn timer: 10 minutes" in headline(mo.last_reply)
    ana = world.member("Ana")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    assert "Turn timer: 10 minutes per turn" in fields(lobby)[1]["value"]


async def test_closed_dms_are_tried_once_and_told_once(world, sb):
    lobby, thread = await start_tiny(world)
    bo = world.member("Bo")
    world.faults.close_dms(bo)
    record = await sb.bot.store.get_game(1)
    assert await sb.bot.notifier.dm(record, bo.id, "secret") is False
    assert await sb.bot.notifier.dm(record, bo.id, "secret again") is False
    await sb.settle()
    notices = [m for m in thread.all_messages if "cannot send you direct messages" in headline(m)]
    assert len(notices) == 1 and "secret" not in headline(notices[0])
    dm_posts = [r for r in sb.requests if r.method == "POST" and "/channels/" in r.path
                and r.path.endswith("/messages") and r.json and "secret" in str(r.json)]
    assert len(dm_posts) == 1


async def test_expired_token_falls_back_to_a_thread_message(world, sb):
    lobby, thread = await start_tiny(world)
    bo = world.member("Bo")
    before = (await sb.bot.store.get_game(1)).version
    world.faults.expire_token()
    await bo.click(thread.last_message, "Add 1")  # not Bo's turn: refused after the ack
    after = (await sb.bot.store.get_game(1)).version
    assert before == after
    posted = thread.last_message
    assert headline(posted) == f"<@{bo.id}> \N{NO ENTRY SIGN} It is not your turn."


async def test_turn_notices_by_dm_only_for_members_who_opted_in(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    await bo.slash("notify", direct_messages="on")
    assert headline(bo.last_reply) == "I will DM you your hands and a notice when it is your turn."
    lobby, thread = await start_tiny(world)
    await ana.click(thread.last_message, "Add 1")
    assert [headline(m) for m in bo.dms] == [
        f"**Tiny Race #1** \N{EM DASH} https://discord.com/channels/{world.guild_id}/{thread.id}"
        "\nIt is your turn."]
    assert ana.dms == []
    await ana.slash("notify", direct_messages="off")
    await bo.click(thread.last_message, "Add 1")
    assert ana.dms == []


async def test_a_dm_channel_is_opened_once_and_remembered_with_no_user_lookup(world, sb):
    """DMs go to the DM channel opened once and kept in the store; no GET /users/{id} before
    a DM, one POST /users/@me/channels per member."""
    ana, bo = world.member("Ana"), world.member("Bo")
    await bo.slash("notify", direct_messages="on")
    lobby, thread = await start_tiny(world)
    start = len(world.requests)
    await ana.click(thread.last_message, "Add 1")
    await bo.click(thread.last_message, "Add 1")
    await ana.click(thread.last_message, "Add 1")
    assert len(bo.dms) == 2
    played = world.requests[start:]
    assert [r.path for r in played if r.method == "GET" and r.path.startswith("/users/")] == []
    assert [r.json for r in played if r.path == "/users/@me/channels"] == [
        {"recipient_id": bo.id}]
    assert await sb.bot.store.dm_channel(bo.id) == bo.dm_channel.id
    assert await sb.bot.store.dm_channel(ana.id) is None
    assert (await sb.bot.store.member_prefs(bo.id))["turn_notices"] is True


async def test_a_finished_game_thread_is_archived_after_a_while(world, sb, clock):
    lobby, thread = await start_tiny(world, ai=True)
    ana = world.member("Ana")
    while (await sb.bot.store.get_game(1)).status == "active":
        await ana.click(thread.last_message, "Add 2")
    assert thread.archived is False
    timer = await sb.bot.store.timer(1, "archive")
    assert timer.due_at == clock.now() + 600
    await expire(sb, clock, 599)
    assert thread.archived is False
    await expire(sb, clock, 1)
    assert thread.archived is True


async def test_a_seat_the_ai_took_over_earns_its_member_no_win(world, sb, clock):
    lobby, thread = await start_tiny(world)
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("game leave", in_channel=thread)
    # Bo plays 1 at a time; the AI in Ana's seat adds 2 each turn and reaches 20 first.
    while (await sb.bot.store.get_game(1)).status == "active":
        table = [m for m in thread.all_messages if action_rows(m)][-1]
        await bo.click(table, "Add 1")
    rows = {r.user_id: (r.played, r.won) for r in await sb.bot.store.stats(world.guild_id)}
    result = sb.bot.registry["tiny"].engine.result(
        sb.bot.registry["tiny"].engine.load_state((await sb.bot.store.get_game(1)).state))
    assert result.winners == ["s0"]
    assert rows == {ana.id: (1, 0), bo.id: (1, 0)}


async def test_posting_a_table_reads_the_store_once(world, sb):
    """GameCog._post_table reads the stored game and its timers' deadlines in one round
    trip (Store.game_and_deadlines; it was three: the game, the rules and the turn timer)."""
    lobby, thread = await start_tiny(world, timer="2m")
    cog = sb.bot.game_cog("tiny")
    table = await cog.load_table(1)
    store = sb.bot.store
    with store_reads(store) as reads:
        await cog.post_table(table)  # the same decision: the table edited in place
    assert reads == ["_one"]
    due = int((await store.timer(1, "turn")).due_at)
    assert description(thread.last_message).endswith(
        f"\N{ALARM CLOCK} Turn timer: the AI plays for you <t:{due}:R>.")
