"""Alpaca Pacapaca through real discord.py dispatch in the sandbox: the turn buttons, the
secret Draw 2, the pile, negotiations (deal, re-proposal, timeout, restart), refusals and
stale selections, and the /rules picture. Whole games and the leak check are in
tests/discord/test_pacapaca_games.py."""

from __future__ import annotations

from bot.games.pacapaca.models import Keep
from bot.sandbox.demo import NAMES
from bot.sandbox.drivers.pacapaca import find, perform
from tests.support import description, headline, pictures, title
from tests.support.pacapaca_ui import (
    GID,
    active_member,
    by_label,
    ctx_for,
    draw_and_keep_first,
    load,
    member_of,
    names_of,
    open_negotiation,
    pacapaca_bot,
    propose,
    raw_click,
    snapshot,
    start,
    table_message,
    until_both_have_necks,
)
from tests.support.pacapaca_ui import clock as clock  # noqa: F401 (fixtures)
from tests.support.pacapaca_ui import sb as sb  # noqa: F401
from tests.support.pacapaca_ui import seed as seed  # noqa: F401
from tests.support.pacapaca_ui import world as world  # noqa: F401
from tests.support.reads import store_reads

# -- the turn --------------------------------------------------------------------------------


async def test_table_buttons_and_draw2_is_secret_to_the_drawer(world, sb, clock):
    thread = await start(world, NAMES[:2])
    record, seats, st = await load(sb.bot)
    am = await active_member(world, sb.bot)
    other = next(world.member(s.user_id) for s in seats.values() if s.user_id != am.id)
    table = thread.last_message
    assert table.labels == ["Draw 2", "Take discard pile (0)", "Negotiate", "My hand", "Watch"]
    assert table.is_disabled("Take discard pile (0)") and table.is_disabled("Negotiate")
    assert headline(table) == am.mention and table.filenames == ["table.png"]
    assert f"**{am.name}**'s turn: draw 2.\nDeck 20 \N{MIDDLE DOT} discard pile 0" in description(table)
    await am.click(table, "Draw 2")
    _, _, st = await load(sb.bot)
    drawn = list(st.drawn)
    reply = am.last_reply
    assert reply.ephemeral and reply.ephemeral_for == am.id
    assert reply.filenames == ["drawn.png"]
    # The close-up says the drawer's own two cards in words (the panel is theirs alone).
    assert pictures(reply) == [("drawn.png",
                                f"The two cards you drew: {'; '.join(names_of(drawn))}.")]
    assert reply.labels == [f"Keep {n}" for n in names_of(drawn)] or (
        names_of(drawn)[0] == names_of(drawn)[1]
        and reply.labels == [f"Keep {names_of(drawn)[0]}", f"Keep {names_of(drawn)[0]} (2)"])
    assert f"You drew **{'; '.join(names_of(drawn))}**" in headline(reply)
    assert reply not in other.visible(thread) and reply not in other.ephemerals
    public = thread.last_message
    assert f"{am.name} drew two cards and is choosing one." in description(public)
    assert public.labels == ["My hand", "Watch"]
    # My hand shows the same two cards with Keep buttons, only to the drawer.
    await am.click(public, "My hand")
    assert am.last_reply.filenames == ["drawn.png"] and len(am.last_reply.buttons()) == 2
    await other.click(public, "My hand")
    assert headline(other.last_reply) == ("You have no cards face down in the discard pile. "
                                        "Here is your alpaca, close up.")
    assert other.last_reply.filenames == ["my-alpaca.png"]
    [(closeup, alt)] = pictures(other.last_reply)
    assert closeup == "my-alpaca.png" and alt.startswith("Your alpaca, close up: ")
    assert "a neck of 0 cards (nothing)" in alt
    await am.click(reply, f"Keep {names_of(drawn)[0]}")
    _, _, st = await load(sb.bot)
    assert st.alpacas[st.seats[1 - st.active]].neck == [drawn[0]]
    assert [(p.card, p.by) for p in st.pile] == [(drawn[1], st.seats[1 - st.active])]
    assert headline(reply) == f"You kept the {names_of(drawn)[0]}." and reply.buttons() == []
    assert any(headline(m) == f"You put your {names_of(drawn)[1]} face down on the pile."
               for m in am.ephemerals)
    # the drawer's own discard is in their My hand, the other player's is empty
    await am.click(thread.last_message, "My hand")
    assert am.last_reply.filenames == ["my-discards.png"]
    assert pictures(am.last_reply) == [("my-discards.png", "Your cards face down in the "
                                        f"discard pile: {names_of(drawn)[1]}.")]
    assert f"**{names_of(drawn)[1]}**" in headline(am.last_reply)


async def test_take_pile_adds_every_card(world, sb):
    thread = await start(world, NAMES[:2])
    await draw_and_keep_first(world, sb.bot, thread)
    _, _, st = await load(sb.bot)
    pile = [p.card for p in st.pile]
    taker = st.seats[st.active]
    before = list(st.alpacas[taker].neck)
    tm = await member_of(world, sb.bot, taker)
    table = table_message(tm, thread)
    assert not table.is_disabled("Take discard pile (1)")
    await tm.click(table, "Take discard pile (1)")
    _, _, st = await load(sb.bot)
    assert st.alpacas[taker].neck == before + pile and st.pile == []
    desc = description(thread.last_message)
    assert f"{tm.name} took the discard pile (1 card): {names_of(pile)[0]}." in desc
    assert thread.last_message.is_disabled("Take discard pile (0)")


# -- negotiation -------------------------------------------------------------------------------


async def test_negotiation_deal_both_accept_the_same_version(world, sb, clock):
    thread = await start(world, NAMES[:2])
    active, partner = await open_negotiation(world, sb.bot, thread)
    _, seats, st = await load(sb.bot)
    am, pm = await member_of(world, sb.bot, active), await member_of(world, sb.bot, partner)
    panel = thread.last_message
    deadline = await sb.bot.service.deadline(GID)
    assert deadline == clock.now() + 60
    assert title(panel) == f"Negotiation: {am.name} \N{LEFT RIGHT ARROW} {pm.name}"
    assert f"The talks end <t:{int(deadline)}:R>." in description(panel)
    assert panel.labels == ["Edit deal", "Accept", "Decline", "Give up", "My hand"]
    assert panel.is_disabled("Accept") and headline(panel) == am.mention
    give, get = st.alpacas[active].neck[:1], st.alpacas[partner].neck[:1]
    editor = await propose(am, thread, give, get)
    assert f"You give: {names_of(give)[0]}" in headline(editor)
    _, _, st = await load(sb.bot)
    assert st.negotiation.active_gives == give and st.negotiation.partner_gives == get
    assert panel.labels == ["Edit deal", "Accept deal v1", "Decline", "Give up", "My hand"]
    desc = description(panel)
    assert f"{am.name} gives: {names_of(give)[0]}" in desc and f"{pm.name} gives: {names_of(get)[0]}" in desc
    # The proposal is told on the panel, not in a message of its own.
    assert thread.last_message.id == panel.id
    assert desc.endswith(f"\N{BULLET} {am.name} proposed: {am.name} gives {names_of(give)[0]}; "
                         f"{pm.name} gives {names_of(get)[0]}.")
    await pm.click(panel, "Accept deal v1")
    assert "Accepted by: " + pm.name in description(panel)
    assert description(panel).endswith(f"\N{BULLET} {pm.name} accepted the deal.")
    assert thread.last_message.id == panel.id
    a_neck, p_neck = list(st.alpacas[active].neck), list(st.alpacas[partner].neck)
    await am.click(panel, "Accept deal v1")
    _, _, st = await load(sb.bot)
    assert st.phase == "turn" and st.seats[st.active] == partner
    assert sorted(st.alpacas[active].neck) == sorted([c for c in a_neck if c not in give] + get)
    assert sorted(st.alpacas[partner].neck) == sorted([c for c in p_neck if c not in get] + give)
    assert panel.buttons() == [] and title(panel).endswith("(closed)")
    # The closed panel (the turn's table message) keeps the turn's moves and its picture,
    # then tells the deal.
    moves, closing = description(panel).split("\n\n")
    assert moves.split("\n")[-3:] == [
        f"\N{BULLET} {am.name} opened a negotiation with {pm.name} (60 seconds).",
        f"\N{BULLET} {am.name} proposed: {am.name} gives {names_of(give)[0]}; "
        f"{pm.name} gives {names_of(get)[0]}.",
        f"\N{BULLET} {pm.name} accepted the deal."]
    assert closing == (
        f"\N{HANDSHAKE} Deal! {am.name} gave {names_of(give)[0]} and got {names_of(get)[0]} from {pm.name}.")
    assert [p[0] for p in pictures(panel)] == ["table.png"]
    assert panel.filenames == ["table.png"]
    assert await sb.bot.service.deadline(GID) is None


async def test_posting_the_negotiation_panel_reads_the_store_once(world, sb, clock):
    """The side panel's post reads the game and the talks' deadline in one round trip
    (Store.game_and_deadlines; it was two: the game, then the rules timer)."""
    thread = await start(world, NAMES[:2])
    active, partner = await open_negotiation(world, sb.bot, thread)
    cog = sb.bot.game_cog("pacapaca")
    table = await cog.load_table(GID)
    with store_reads(sb.bot.store) as reads:
        await cog.post_table(table)
    assert reads == ["_one"]
    deadline = int(await sb.bot.service.deadline(GID))
    assert deadline == int(clock.now() + 60)
    assert f"The talks end <t:{deadline}:R>." in description(thread.last_message)


async def test_reproposal_resets_acceptance_and_old_accept_is_refused(world, sb):
    thread = await start(world, NAMES[:2])
    active, partner = await open_negotiation(world, sb.bot, thread)
    am, pm = await member_of(world, sb.bot, active), await member_of(world, sb.bot, partner)
    _, _, st = await load(sb.bot)
    await propose(am, thread, st.alpacas[active].neck[:1], [])
    panel = table_message(am, thread)
    old_accept = by_label(panel, "Accept deal v1")
    old_panel = snapshot(world, panel)
    await pm.click(panel, "Accept deal v1")
    await propose(pm, thread, [], st.alpacas[active].neck[:1] + st.alpacas[partner].neck[:0])
    _, _, st2 = await load(sb.bot)
    assert st2.negotiation.deal_version == 2 and st2.negotiation.accepted == []
    assert "Accepted by: nobody yet" in description(panel)
    version = st2.version
    reply = await raw_click(world, am, old_panel, old_accept)
    assert reply.ephemeral and reply.ephemeral_for == am.id
    # The answers are bound to the decision they were drawn for: the deal changed since.
    assert headline(reply) == "This table has moved on. Here is the current one:"
    _, _, st3 = await load(sb.bot)
    assert st3.version == version


async def test_negotiation_timeout_then_draw_and_take_work(world, sb, clock):
    thread = await start(world, NAMES[:2])
    active, partner = await open_negotiation(world, sb.bot, thread)
    am = await member_of(world, sb.bot, active)
    panel = table_message(am, thread)
    count = len(thread.all_messages)
    clock.advance(61)
    await sb.bot.service.timers.fire_due()
    await world.settle()
    _, _, st = await load(sb.bot)
    assert st.phase == "turn" and st.negotiated and st.seats[st.active] == active
    # The turn goes on: the panel (the turn's table message) shows the table again in
    # place, telling the timeout last; no new message.
    table = thread.last_message
    assert table.id == panel.id and len(thread.all_messages) == count
    assert "Edit deal" not in table.labels and title(table) == "Alpaca Pacapaca #1"
    assert table.is_disabled("Negotiate") and not table.is_disabled("Draw 2")
    moves, turn = description(table).split("\n\n")
    assert moves.split("\n")[-1] == ("\N{BULLET} Time ran out, so the negotiation failed; "
                                     "they must now draw or take the pile.")
    assert turn.startswith(f"**{am.name}**'s turn: draw 2 or take the discard pile")
    assert "no second one this turn" in turn
    if st.pile:
        await am.click(table, f"Take discard pile ({len(st.pile)})")
    else:
        await am.click(table, "Draw 2")
        _, _, st = await load(sb.bot)
        await am.click(am.last_reply, f"Keep {names_of(st.drawn[:1])[0]}")
    _, _, st = await load(sb.bot)
    assert st.seats[st.active] == partner and not st.negotiated


async def test_restart_during_negotiation_keeps_the_timer(world, clock, tmp_path, seed):
    db = tmp_path / "restart.sqlite3"
    sb = await world.connect(pacapaca_bot(db, clock))
    thread = await start(world, NAMES[:2])
    active, partner = await open_negotiation(world, sb.bot, thread)
    deadline = await sb.bot.service.deadline(GID)
    am = await member_of(world, sb.bot, active)
    panel = table_message(am, thread)
    clock.advance(30)
    await world.disconnect()
    sb = await world.connect(pacapaca_bot(db, clock))
    try:
        assert await sb.bot.service.deadline(GID) == deadline
        _, _, st = await load(sb.bot)
        # the panel still works after the restart
        await propose(am, thread, st.alpacas[active].neck[:1], [])
        _, _, st = await load(sb.bot)
        assert st.negotiation.deal_version == 1
        clock.advance(20)
        await sb.bot.service.timers.fire_due()
        await world.settle()
        _, _, st = await load(sb.bot)
        assert st.phase == "negotiation"
        clock.advance(11)
        await sb.bot.service.timers.fire_due()
        await world.settle()
        _, _, st = await load(sb.bot)
        assert st.phase == "turn" and st.negotiated
        # The timer ended the talks: the panel shows the table again in place (the turn
        # goes on), telling it.
        assert thread.last_message.id == panel.id
        assert title(panel) == "Alpaca Pacapaca #1" and "Edit deal" not in panel.labels
        assert description(panel).split("\n\n")[0].split("\n")[-1] == (
            "\N{BULLET} Time ran out, so the negotiation failed; they must now draw or take "
            "the pile.")
        assert thread.last_message.is_disabled("Negotiate")
    finally:
        await world.disconnect()


# -- refusals ------------------------------------------------------------------------------


async def test_refusals_in_words_change_nothing(world, sb):
    thread = await start(world, NAMES[:2])
    record, seats, st = await load(sb.bot)
    am = await active_member(world, sb.bot)
    om = next(world.member(s.user_id) for s in seats.values() if s.user_id != am.id)
    zed = world.member("Zed")
    table = thread.last_message
    v0 = st.version
    await om.click(table, "Draw 2")
    assert headline(om.last_reply) == f"\N{NO ENTRY SIGN} It is {am.name}'s turn."
    await zed.click(table, "Draw 2")
    assert headline(zed.last_reply) == "\N{NO ENTRY SIGN} You are not in this game."
    take = by_label(table, "Take discard pile (0)")  # disabled: it plays no action
    reply = await raw_click(world, am, table, take)
    assert headline(reply) == "\N{NO ENTRY SIGN} This button is not one herdbot understands."
    assert (await load(sb.bot))[2].version == v0
    # a stale button (the table moved on)
    old_draw, old_table = by_label(table, "Draw 2"), snapshot(world, table)
    await draw_and_keep_first(world, sb.bot, thread)
    v1 = (await load(sb.bot))[2].version
    reply = await raw_click(world, am, old_table, old_draw)
    assert headline(reply) == "This table has moved on. Here is the current one:"
    assert reply.filenames == ["table.png"]
    assert (await load(sb.bot))[2].version == v1
    # negotiation refusals
    active, partner = await open_negotiation(world, sb.bot, thread)
    am, pm = await member_of(world, sb.bot, active), await member_of(world, sb.bot, partner)
    _, _, st = await load(sb.bot)
    await propose(am, thread, st.alpacas[active].neck[:1], [])
    panel = table_message(am, thread)
    v2 = (await load(sb.bot))[2].version
    await am.click(panel, "Decline")
    assert headline(am.last_reply) == "\N{NO ENTRY SIGN} Only the invited player declines; you can give up."
    await zed.click(panel, "Accept deal v1")
    assert headline(zed.last_reply) == "\N{NO ENTRY SIGN} You are not in this game."
    await pm.click(panel, "Give up")
    assert headline(pm.last_reply) == "\N{NO ENTRY SIGN} Only the player whose turn it is can give up."
    await pm.click(panel, "Accept deal v1")
    await pm.click(panel, "Accept deal v1")
    assert headline(pm.last_reply) == "\N{NO ENTRY SIGN} You already accepted this deal."
    assert (await load(sb.bot))[2].version == v2 + 1
    # an empty proposal is refused in words
    await propose(pm, thread, [], [])
    assert headline(pm.last_reply) == "\N{NO ENTRY SIGN} A deal must move at least one card."
    await pm.click(panel, "Decline")
    _, _, st = await load(sb.bot)
    assert st.negotiation.active_gives == [] and st.negotiation.deal_version == 2
    open_panel = snapshot(world, panel)
    await am.click(panel, "Give up")
    _, _, st = await load(sb.bot)
    assert st.phase == "turn" and st.negotiated
    # The panel shows the table again in place (the turn goes on), giving up told last.
    assert thread.last_message.id == panel.id and title(panel) == "Alpaca Pacapaca #1"
    moves, turn = description(panel).split("\n\n")
    assert moves.split("\n")[-1] == (
        f"\N{BULLET} {am.name} gave up the negotiation; they must now draw or take the pile.")
    assert turn.startswith(f"**{am.name}**'s turn: draw 2 or take the discard pile")
    # a panel of a finished negotiation refuses
    await am.click(thread.last_message, "Draw 2")
    reply = await raw_click(world, am, open_panel, by_label(open_panel, "Give up"))
    assert headline(reply) == "This table has moved on. Here is the current one:"


async def test_rules_shows_an_example_picture(world, sb):
    zed = world.member("Zed")
    await zed.slash("rules", game="pacapaca")
    reply = zed.last_reply
    assert reply.ephemeral and reply.filenames == ["example.png"]
    assert title(reply) == "How to play Alpaca Pacapaca"
    assert pictures(reply) == [("example.png",
                                "An example table of Alpaca Pacapaca part way through a game.")]


async def test_draw2_with_an_expired_token_goes_by_dm_never_public(world, sb):
    thread = await start(world, NAMES[:2])
    am = await active_member(world, sb.bot)
    public_before = len([m for m in thread.all_messages if not m.ephemeral])
    world.faults.expire_token(1)
    await am.click(thread.last_message, "Draw 2")
    _, _, st = await load(sb.bot)
    drawn = names_of(st.drawn)
    public = [m for m in thread.all_messages if not m.ephemeral][public_before:]
    assert all(n not in m.text for m in public for n in drawn)
    dm = am.dms[-1]
    assert f"You drew **{'; '.join(drawn)}**" in headline(dm) and dm.filenames == ["drawn.png"]
    assert dm.buttons() == []  # no Keep buttons in a DM: My hand shows them
    assert pictures(dm) == [("drawn.png", f"The two cards you drew: {'; '.join(drawn)}.")]
    await am.click(thread.last_message, "My hand")
    assert am.last_reply.ephemeral and len(am.last_reply.buttons()) == 2


async def test_selections_that_are_no_longer_valid_are_refused(world, sb):
    thread = await start(world, NAMES[:2])
    st = await until_both_have_necks(world, sb.bot, thread)
    am = await member_of(world, sb.bot, st.seats[st.active])
    await am.click(table_message(am, thread), "Negotiate")
    picker = am.last_reply
    await am.click(table_message(am, thread), "Draw 2")  # the turn moves on instead
    version = (await load(sb.bot))[2].version
    await am.select(picker, [picker.selects()[0]["options"][0]["label"]])
    assert headline(am.last_reply) == "This table has moved on. Here is the current one:"
    assert (await load(sb.bot))[2].version == version
    # a deal editor outliving its negotiation
    _, _, st = await load(sb.bot)
    await perform(await ctx_for(world, sb.bot, thread, st.seats[st.active]), Keep(card=st.drawn[0]))
    active, partner = await open_negotiation(world, sb.bot, thread)
    am = await member_of(world, sb.bot, active)
    await am.click(table_message(am, thread), "Edit deal")
    editor = am.last_reply
    _, _, st = await load(sb.bot)
    await am.select(editor, [str(st.alpacas[active].neck[0])],
                    custom_id=find(editor, "give.", prefix=True)["custom_id"])
    assert f"You give: {names_of(st.alpacas[active].neck[:1])[0]}" in headline(editor)
    await am.click(table_message(am, thread), "Give up")
    version = (await load(sb.bot))[2].version
    await am.click(editor, "Propose")
    assert headline(am.last_reply) == "\N{NO ENTRY SIGN} This negotiation is over."
    assert (await load(sb.bot))[2].version == version
