"""Raw clicks: custom ids of other players' ephemeral panels pressed on the public table,
and select values that are not among the options (a modified client can send both)."""

from __future__ import annotations

from bot.games.llamas_alpacas.models import Move
from bot.present.base import decision_key
from tests.adversarial.conftest import make_bot, open_negotiation, start
from tests.faults.common import click_injected, click_raw
from tests.support import headline, rows, title

NO = "\N{NO ENTRY SIGN} "


async def la_after_setup(world):
    """Ana and Bo in Llamas & Alpacas, both starting cards placed; Ana's turn."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start(world, "llamas-alpacas", ["Ana", "Bo"])
    thread = lobby.thread
    await ana.click(thread.last_message, "5 \N{MIDDLE DOT} free")
    await bo.click(thread.last_message, "5 \N{MIDDLE DOT} free")
    return ana, bo, thread


async def test_a_forged_move_click_cannot_wipe_the_public_table(world, sb):
    ana, bo, thread = await la_after_setup(world)
    table = thread.last_message
    version = (await sb.bot.store.get_game(1)).version
    labels = list(table.labels)
    # The code of Ana's move-panel button "move the card on 5 to 1", pressed by Bo.
    _, _, spec, state = await sb.bot.service.load(1)
    legal = spec.engine.legal_actions(state, "s0")
    key = decision_key(spec.engine.pending(state), legal)
    index = legal.index(Move(src=4, dst=0))
    del version
    await click_raw(sb, bo, table, f"hb:g:1:x:a.{key}.{index}")
    assert bo.last_reply.ephemeral
    assert headline(bo.last_reply) == NO + "It is Ana's turn."
    assert world.message(table.id).labels == labels
    del ana


async def test_other_players_panel_ids_are_refused_and_change_nothing(world, sb):
    """Keep/partner/deal/Baby/choice ids of someone else's ephemeral, pressed on the
    public table by the wrong player, are refused in words, state unchanged."""
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start(world, "pacapaca", ["Ana", "Bo"])
    thread = lobby.thread
    await ana.click(thread.last_message, "Draw 2")
    keep = ana.last_reply
    assert keep.ephemeral and len(keep.labels) == 2
    ids = [b["custom_id"] for b in keep.buttons()]
    before = await sb.bot.store.get_game(1)
    for cid in ids:
        await click_raw(sb, bo, thread.last_message, cid)
        assert bo.last_reply.ephemeral
        assert headline(bo.last_reply).startswith(NO), headline(bo.last_reply)
        assert "Keep" not in headline(bo.last_reply)
    await click_raw(sb, bo, thread.last_message, f"hs:g:1:{before.version}:partner",
                    values=["s0"])
    assert headline(bo.last_reply).startswith(NO)
    after = await sb.bot.store.get_game(1)
    assert (after.version, after.state) == (before.version, before.state)
    # The drawer's own Keep still works afterwards.
    await ana.click(keep, keep.labels[0])
    assert (await sb.bot.store.get_game(1)).version == before.version + 1


async def test_unicode_digit_values_are_refused_in_words(world, sb):
    ana, bo, thread = await la_after_setup(world)
    _, _, spec, state = await sb.bot.service.load(1)
    key = decision_key(spec.engine.pending(state), spec.engine.legal_actions(state, "s0"))
    await click_injected(sb, ana, thread, f"hs:g:1:x:s.{key}", values=["\u00b2"])
    assert headline(ana.last_reply) == NO + "Choose one of the options shown."
    del bo


async def test_unleashed_values_outside_the_options_are_refused(world, sb):
    """A Baby select with values that were never offered, a select of a decision that never
    was, and Respond/Pass of a window that is not open are refused in words."""
    bo = world.member("Bo")
    lobby = await start(world, "llamas-unleashed", ["Ana", "Bo"])
    thread = lobby.thread
    await bo.click(thread.last_message, "Choose your Baby")
    babies = bo.last_reply.selects()[0]["custom_id"]
    assert babies.startswith("hs:g:1:x:s.")
    before = await sb.bot.store.get_game(1)
    bad = NO + "This button is not one herdbot understands."
    closed = NO + "This reaction window has closed."
    shown = NO + "Choose one of the options shown."
    cases = [
        (babies, ["9999"], shown), (babies, ["-1"], shown), (babies, ["\u00b2"], shown),
        ("hs:g:1:x:s.0123456789", ["1"], "This table has moved on. Here is the current one:"),
        ("hb:g:1:x:resp.0", None, closed), ("hb:g:1:x:pass.0", None, closed),
        ("hs:g:1:x:play.1", ["1"], bad),
    ]
    for cid, values, answer in cases:
        await click_injected(sb, bo, thread, cid, values=values)
        assert bo.last_reply.ephemeral
        assert headline(bo.last_reply) == answer, (cid, headline(bo.last_reply))
    after = await sb.bot.store.get_game(1)
    assert (after.version, after.state) == (before.version, before.state)


async def test_im_back_is_only_for_the_member_whose_seat_the_ai_plays(world, sb):
    """Bo leaves (the AI plays his seat); the table then offers I'm back to everyone."""
    ana, bo, thread = await la_after_setup(world)
    cy = world.member("Cy")
    await bo.slash("game leave", in_channel=thread)
    table = [m for m in thread.all_messages if not m.ephemeral and rows(m)][-1]
    assert "I'm back" in table.labels
    await ana.click(table, "I'm back")
    assert headline(ana.last_reply) == NO + "Your seat is already yours."
    await cy.click(table, "I'm back")
    assert headline(cy.last_reply) == NO + "You are not in this game."
    await bo.click(table, "I'm back")
    assert headline(bo.last_reply) == "Welcome back: your seat is yours again."
    seats = {s.user_id: s for s in await sb.bot.store.seats(1)}
    assert seats[bo.id].ai_takeover is False
    table = [m for m in thread.all_messages if not m.ephemeral and rows(m)][-1]
    assert "I'm back" not in table.labels and "My hand" in table.labels


async def test_a_forged_deal_selection_cannot_replace_the_public_negotiation_panel(world, sb):
    lobby = await start(world, "pacapaca", ["Cy", "Di"])
    del lobby
    di = world.member("Di")
    panel, st = await open_negotiation(world, sb)
    labels = list(panel.labels)
    assert labels == ["Edit deal", "Accept", "Decline", "Give up", "My hand"]
    card = st.alpacas["s1"].neck[0]
    await click_raw(sb, di, panel, f"hs:g:1:x:give.{st.turn_number}", values=[str(card)])
    assert world.message(panel.id).labels == labels
    assert title(world.message(panel.id)).startswith("Negotiation: Cy")


async def test_an_ephemeral_keep_panel_still_works_after_a_restart(world, clock, tmp_path):
    """Ana draws 2, the bot restarts, Ana presses Keep on the panel she got before."""
    db = tmp_path / "restart.sqlite3"
    await world.connect(make_bot(db, clock))
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start(world, "pacapaca", ["Ana", "Bo"])
    await ana.click(lobby.thread.last_message, "Draw 2")
    keep = ana.last_reply
    version = (await world.sandbox.bot.store.get_game(1)).version
    await world.disconnect()
    sb = await world.connect(make_bot(db, clock))
    await ana.click(keep, keep.labels[0])
    assert headline(ana.last_reply).startswith("You kept the ")
    assert (await sb.bot.store.get_game(1)).version == version + 1
    table = [m for m in lobby.thread.all_messages if not m.ephemeral and rows(m)][-1]
    assert headline(table) == f"<@{bo.id}>"
    await world.disconnect()
