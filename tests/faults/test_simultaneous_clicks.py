"""50 identical presses of one table button at the same moment.

Exactly one is applied (version + 1, one new action row); every other press is answered
ephemerally with the reason: "This table has moved on" for a stale press, "It is not your
turn." when the engine refuses, "You are not in this game." for a member without a seat.

The 50 interactions are delivered in the same loop iteration (``press_all``) rather than
by ``asyncio.gather`` of 50 ``member.click`` calls: each click settles the sandbox, and 50
concurrent settles slow the sandbox so much that no press is acknowledged within
Discord's 3 seconds of world clock (all 50 then fail as "This interaction failed").
"""

from __future__ import annotations

from tests.faults.common import MOVED_ON, answer_text, answered, answers, press_all, start_tiny
from tests.support import footer, headline

NOT_YOUR_TURN = "\N{NO ENTRY SIGN} It is not your turn."
NOT_IN_GAME = "\N{NO ENTRY SIGN} You are not in this game."


async def _press_many(sb, table, presses):
    """Press the button ``Add 1`` of ``table`` once per member in ``presses``, all in the
    same loop iteration, with the identical custom id and message payload; settle; return
    the interactions in press order."""
    comp = table.component("Add 1")
    data = {"custom_id": comp["custom_id"], "component_type": 2}
    its = press_all(sb, [(m, table, data) for m in presses])
    await sb.settle()
    return its


async def test_fifty_presses_of_the_same_button_apply_exactly_once(world, sb):
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    table = thread.last_message
    before = await sb.bot.store.get_game(1)
    assert (before.version, len(await sb.bot.store.actions(1))) == (0, 0)
    # Ana (whose turn it is) 25 times, interleaved with Bo (seated, not his turn) 15 times
    # and Cy (no seat) 10 times.
    order = [ana] * 25 + [bo] * 15 + [cy] * 10
    presses = [order[i] for i in sorted(range(50), key=lambda i: (i * 37) % 50)]
    its = await _press_many(sb, table, presses)
    assert len(its) == 50

    after = await sb.bot.store.get_game(1)
    rows = await sb.bot.store.actions(1)
    assert after.version == before.version + 1
    assert [(r.version, r.seat, r.action) for r in rows] == [(1, "s0", {"type": "add", "n": 1})]
    state = sb.bot.registry["tiny"].engine.load_state(after.state)
    assert (state.counter, state.turn) == (1, 1)

    # Every press got an answer.
    assert all(answered(it) for it in its)
    by = {m.id: [it for it in its if it.member is m] for m in (ana, bo, cy)}
    # Ana: one press applied (her private token arrives as an ephemeral followup), the 24
    # others are stale.
    applied = [it for it in by[ana.id] if f"Your token is {state.secrets['s0']}." in answer_text(it)]
    assert len(applied) == 1
    stale = [it for it in by[ana.id] if it not in applied]
    assert len(stale) == 24
    for it in stale:
        msgs = answers(it)
        assert [headline(m) for m in msgs] == [MOVED_ON] and all(m.ephemeral for m in msgs)
        assert footer(msgs[0]) == "Move 1"  # the current table
    # Bo: each press is either refused by the engine (before Ana's move committed) or
    # stale (after); none applied.
    bo_texts = [[headline(m) for m in answers(it)] for it in by[bo.id]]
    assert len(bo_texts) == 15
    assert all(t in ([NOT_YOUR_TURN], [MOVED_ON]) for t in bo_texts), bo_texts
    assert all(m.ephemeral for it in by[bo.id] for m in answers(it))
    # Cy has no seat.
    assert [[headline(m) for m in answers(it)] for it in by[cy.id]] == [[NOT_IN_GAME]] * 10
    assert all(m.ephemeral for it in by[cy.id] for m in answers(it))
    # Exactly one new table message was posted, and its buttons carry version 1.
    tables = [m for m in thread.all_messages if m.filenames == ["table.png"] and not m.ephemeral]
    assert len(tables) == 2
    assert thread.last_message.component("Add 1")["custom_id"] == "hb:g:1:1:add.1"


async def test_fifty_presses_by_the_player_to_move_after_a_wait_apply_once(world, sb):
    """The same race on the second move (Bo's turn), every press by Bo: one applied, 49
    stale, and the counter moved by exactly 1."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    thread = lobby.thread
    await ana.click(thread.last_message, "Add 2")
    its = await _press_many(sb, thread.last_message, [bo] * 50)
    after = await sb.bot.store.get_game(1)
    rows = await sb.bot.store.actions(1)
    assert after.version == 2 and [r.seat for r in rows] == ["s0", "s1"]
    state = sb.bot.registry["tiny"].engine.load_state(after.state)
    assert (state.counter, state.turn) == (3, 0)
    texts = [[headline(m) for m in answers(it)] for it in its]
    assert sum(t == [MOVED_ON] for t in texts) == 49
    assert sum(any("Your token is" in c for c in t) for t in texts) == 1
