"""Llamas Unleashed through real discord.py dispatch in the sandbox: Baby choice, the hand
panel, choices and reaction windows (counter, ambush, restart); and the helpers the other
Unleashed Discord tests use (test_unleashed_play.py has the turn's flow and whole games)."""

from __future__ import annotations

import pytest_asyncio

from bot.app import builtin_games
from bot.games.registry import Registry
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import Activate, ChooseBaby, Play, Respond, UnleashedState
from bot.sandbox.drivers import DriverContext
from bot.sandbox.drivers.unleashed import find, press
from cogs.unleashed import NEUTRAL_PASS, NEUTRAL_RESPOND
from tests.discord.conftest import make_bot
from tests.games.unleashed.unleashed_helpers import act, build, pass_turn
from tests.support import description, headline, pictures, rows

#: The game as the bot offers it: its rules wired to its AI and cog (bot.app).
SPEC = builtin_games()["llamas-unleashed"]

EXT = ("cogs.lobby", "cogs.game", "cogs.admin", "cogs.unleashed")
CAT = catalog()
BOLT = "\N{HIGH VOLTAGE SIGN}"
#: The answer to a choice drawn for a decision that is over (GameCog.answer_stale).
MOVED_ON = "This table has moved on. Here is the current one:"
SEATS = {"Ana": "s0", "Bo": "s1", "Cy": "s2"}


def new_bot(db, clock):
    return make_bot(db, clock, registry=Registry([SPEC]), extensions=EXT,
                    default_dm_notifications=True)


@pytest_asyncio.fixture
async def sb(world, clock, tmp_path):
    sandbox = await world.connect(new_bot(tmp_path / "u.sqlite3", clock))
    yield sandbox
    await world.disconnect()


async def start(world, names=("Ana", "Bo", "Cy")):
    """A started game (id 1) with ``names`` seated s0, s1, ... in order; its thread."""
    host = world.member(names[0])
    await host.slash("play", game="llamas-unleashed")
    lobby = host.last_reply
    for n in names[1:]:
        await world.member(n).click(lobby, "Join")
    await host.click(lobby, "Start")
    return lobby.thread


async def state_of(bot, gid=1) -> UnleashedState:
    rec = await bot.store.get_game(gid)
    return UnleashedState.model_validate_json(rec.state)


async def version(bot, gid=1) -> int:
    return (await bot.store.get_game(gid)).version


async def install(world, bot, state: UnleashedState, gid=1) -> None:
    """Test set-up only: store ``state`` as the game's next version, arm its rules timer
    and post its table, as the service would after an action."""
    rec = await bot.store.get_game(gid)
    state.version = rec.version + 1
    await bot.store.commit_action(gid, expected_version=rec.version,
                                  state=state.model_dump_json(), version=state.version,
                                  seat="test", action={"type": "setup"}, events=[])
    rec = await bot.store.get_game(gid)
    await bot.service.resync_timers(gid)
    cog = bot.game_cog("llamas-unleashed")
    await cog.post_table(await cog.load_table(gid))
    await world.settle()


def public_text(thread, n):
    """The text of the last ``n`` public messages of ``thread``."""
    return "\n".join(m.text for m in [m for m in thread.all_messages if not m.ephemeral][-n:])


def window_says(message) -> str:
    """What a reaction window's table says is on the pile: its turn text's lead
    (``⚡ **Ana plays Stampede**: anyone ...``), the last paragraph of its embed."""
    turn = description(message).split("\n\n")[-1]
    assert turn.startswith(f"{BOLT} **") and "**: anyone who holds a fitting Instant" in turn
    return turn[len(BOLT) + 3:turn.index("**: ")]


def table_of(member, thread):
    return [m for m in member.visible(thread) if not m.ephemeral and rows(m)][-1]


async def open_panel(member, thread):
    await member.click(table_of(member, thread), "My hand")
    reply = member.last_reply
    assert reply.ephemeral and reply.filenames == ["my-hand.png"]  # the close-up
    [(closeup, alt)] = pictures(reply)  # in words too: the member's own Field and hand
    assert closeup == "my-hand.png" and alt.startswith("Your Field, close up: ")
    return reply


async def pick(member, message, prefix, value):
    """Choose option ``value`` (for a choice: the option's number, which is its index in
    the legal actions) in the select whose code starts with ``prefix``."""
    await member.select(message, [str(value)], custom_id=find(message, prefix)["custom_id"])


async def press_as(sb, member, message, action, gid=1):
    """The component of ``message`` that plays ``action`` for ``member`` (the driver's
    decoding: by action, not label)."""
    ctx = DriverContext(world=member.world, bot=sb.bot, member=member, game_id=gid,
                        seat=SEATS[member.name])
    await press(ctx, message, action)


async def play_card(sb, member, message, card, field=None, gid=1):
    """Play ``card`` (into ``field``'s Field when given) from ``member``'s hand panel."""
    table = await sb.bot.game_cog("llamas-unleashed").load_table(gid)
    plays = [a for a in table.legal(SEATS[member.name]) if isinstance(a, Play)
             and a.card == card and (field is None or a.field == field)]
    assert len(plays) == 1, plays
    await press_as(sb, member, message, plays[0], gid)


async def select_label(member, message, label):
    """Choose the option labelled ``label`` in the (only) select of ``message``."""
    sel = find(message, "s.")
    value = next(o["value"] for o in sel["options"] if o["label"] == label)
    await member.select(message, [value], custom_id=sel["custom_id"])


def cid_of(state, key, zone):
    return next(c for c in zone if CAT[c].key == key)


def keys(zone):
    return [CAT[c].key for c in zone]


# -- set-up -------------------------------------------------------------------------------


async def test_babies_picked_at_once_from_menus_opened_before_either_pick_both_stand(world, sb):
    """Set-up is one decision every seat makes at once: a menu opened before another
    player's pick still plays its Baby when that Baby is still in the Nursery (its option
    carries the action's fingerprint); the Baby the other player took answers "moved on"."""
    ana, bo = world.member("Ana"), world.member("Bo")
    thread = await start(world, ("Ana", "Bo"))
    table = thread.last_message
    await ana.click(table, "Choose your Baby")
    ana_menu = ana.last_reply
    await bo.click(table, "Choose your Baby")
    bo_menu = bo.last_reply
    await select_label(ana, ana_menu, "Cria Button")
    before = await version(sb.bot)
    await select_label(bo, bo_menu, "Cria Button")  # Ana's now
    assert headline(bo.last_reply) == MOVED_ON
    assert await version(sb.bot) == before
    await select_label(bo, bo_menu, "Cria Wisp")
    st = await state_of(sb.bot)
    assert keys(st.fields["s0"]) == ["cria_button"] and keys(st.fields["s1"]) == ["cria_wisp"]
    assert st.babies_chosen == ["s0", "s1"] and st.phase != "setup"


async def test_baby_choice_by_select_and_random_on_timeout(world, sb, clock):
    ana, bo = world.member("Ana"), world.member("Bo")
    thread = await start(world, ("Ana", "Bo"))
    table = thread.last_message
    assert table.labels == ["Choose your Baby", "My hand", "Watch"]
    deadline = int(clock.now()) + 60
    assert f"a random one is picked <t:{deadline}:R>" in description(table)
    await ana.click(table, "Choose your Baby")
    menu = ana.last_reply
    assert menu.ephemeral and headline(menu) == "Choose your Baby:"
    babies = [o["label"] for o in find(menu, "s.")["options"]]
    assert len(babies) == 12 and babies[0] == "Cria Button"
    await press_as(sb, ana, menu, ChooseBaby(card=CAT.ids_of("kid_clover")[0]))
    st = await state_of(sb.bot)
    assert keys(st.fields["s0"]) == ["kid_clover"] and st.babies_chosen == ["s0"]
    # Set-up is one decision: the table is edited in place with the line, and it (and its
    # button) stays for the others.
    assert thread.last_message.id == table.id
    assert ("\N{BULLET} Ana chooses Kid Clover for their Field."
            in description(table))
    assert table_of(bo, thread).id == table.id and not table.is_disabled("Choose your Baby")
    # A second choice from the old menu is out of date (the Nursery changed), nothing
    # changes; the Baby opener now refuses Ana in the engine's words.
    before = await version(sb.bot)
    await select_label(ana, menu, "Cria Wisp")
    assert headline(ana.last_reply) == MOVED_ON
    await ana.click(table, "Choose your Baby")
    assert headline(ana.last_reply) == "\N{NO ENTRY SIGN} It is not your decision right now."
    assert await version(sb.bot) == before
    # Bo does not choose: the rules timer picks a random Baby, deals and starts.
    clock.advance(61)
    await sb.bot.service.timers.fire_due()
    await world.settle()
    st = await state_of(sb.bot)
    assert len(st.fields["s1"]) == 1 and CAT[st.fields["s1"][0]].type == "baby"
    assert st.phase == "action" and len(st.hands[st.active]) == 6
    # Each player's hand arrives by DM (the game named, the thread linked), once.
    for m, seat in ((ana, "s0"), (bo, "s1")):
        assert len(m.dms) == 1
        dm = headline(m.dms[0])
        assert dm.startswith("**Llamas Unleashed #1** \N{EM DASH} https://discord.com/channels/")
        names = ", ".join(CAT[c].name for c in st.hands[seat])
        assert dm.endswith(f"Your hand ({len(st.hands[seat])}): {names}.")
        assert dm.count("Your hand") == 1  # the deal's own list is not repeated


async def test_deck_out_tie_on_animals_shows_the_letters_that_broke_it(world, sb):
    ana = world.member("Ana")
    thread = await start(world)
    st = build(3, hands={"s0": ["meadow_goat"]}, deck=["hay_harvest"], deck_rest=False,
               fields={"s0": ["cria_button", "trail_llama"], "s1": ["lamb_acorn", "woolly_ram"],
                       "s2": ["kid_clover"]}, plays=1)
    await install(world, sb.bot, st)
    await ana.click(await open_panel(ana, thread), "Draw a card")
    final = [m for m in thread.all_messages if not m.ephemeral][-1]
    # The last table shows the end: the last moves, then the scores.
    # Cria Button + Trail Llama: 10 + 10 letters; Lamb Acorn + Woolly Ram: 9 + 9.
    assert description(final) == (
        "\N{BULLET} Ana draws a card.\n"
        "\N{BULLET} Ana wins. The deck ran out.\n\n"
        "The deck ran out. **Ana** wins!\n"
        "\N{TROPHY} **Ana**: 2 Animals (20 letters in their names)\n"
        "**Bo**: 2 Animals (18 letters in their names)\n"
        "**Cy**: 1 Animal")
    await world.disconnect()


async def test_closed_dms_get_one_notice_without_secrets(world, sb, clock):
    ana, bo = world.member("Ana"), world.member("Bo")
    world.faults.close_dms(bo)
    thread = await start(world, ("Ana", "Bo"))
    clock.advance(61)
    await sb.bot.service.timers.fire_due()
    await world.settle()
    notice = f"{bo.mention}, I cannot send you direct messages, so I will not try again. " \
             "Use the **My hand** button on the table to see your cards."
    public = [headline(m) for m in thread.all_messages if not m.ephemeral]
    assert public.count(notice) == 1 and len(ana.dms) == 1 and bo.dms == []
    # The next change of turn does not try (or tell) again.
    st = await state_of(sb.bot)
    who = world.member("Ana" if st.active == "s0" else "Bo")
    panel = await open_panel(who, thread)
    await who.click(panel, "Draw a card")
    while (await state_of(sb.bot)).choice is not None:  # discard down to the limit if needed
        await pick(who, who.last_reply, "s.", 0)
    assert (await state_of(sb.bot)).turn == st.turn + 1
    public = [headline(m) for m in thread.all_messages if not m.ephemeral]
    assert public.count(notice) == 1 and bo.dms == []


# -- reaction windows ---------------------------------------------------------------------


async def test_counter_instant_takes_the_card_and_the_window_names_nobody(world, sb, clock):
    ana, bo, cy = (world.member(n) for n in ("Ana", "Bo", "Cy"))
    thread = await start(world)
    st = build(3, hands={"s0": ["trail_llama", "hay_harvest"], "s1": ["llama_spit"],
                         "s2": ["meadow_goat"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]},
               plays=1)
    await install(world, sb.bot, st)
    llama = cid_of(st, "trail_llama", st.hands["s0"])
    panel = await open_panel(ana, thread)
    assert headline(panel) == "Your Action phase: play a card or draw one."
    options = find(panel, "s.")["options"]
    # One option per play: a card that may go into several Fields names the Field.
    assert [o["label"] for o in options] == [
        "Trail Llama: your Field", "Trail Llama: Bo's Field", "Trail Llama: Cy's Field",
        "Hay Harvest"]
    assert options[3]["description"] == "Magic: Draw 2 cards."
    await play_card(sb, ana, panel, llama, "s0")
    table = thread.last_message
    deadline = int(clock.now()) + 20
    # The window is the turn's table edited in place (its one ping, Ana's, made when the
    # turn began); its text leads with what is on the pile, once, and when it closes.
    assert headline(table) == ana.mention
    assert description(table).split("\n\n")[-1] == (
        f"{BOLT} **Ana plays Trail Llama**: anyone who holds a fitting Instant may answer "
        f"with **Respond**; the window closes <t:{deadline}:R>.")
    assert table.text.count("Ana plays Trail Llama") == 2  # the move, then the window
    assert table.labels == ["Respond", "Pass", "My hand", "Watch"]
    # The window does not say (or ping) who may answer.
    assert "Bo" not in table.text and "Cy" not in table.text
    assert [int(u["id"]) for u in table.data["mentions"]] == [ana.id]
    # Cy holds no Instant: neutral answers, nothing changes.
    before = await version(sb.bot)
    await cy.click(table, "Respond")
    assert cy.last_reply.ephemeral and headline(cy.last_reply) == NEUTRAL_RESPOND
    await cy.click(table, "Pass")
    assert headline(cy.last_reply) == NEUTRAL_PASS
    assert await version(sb.bot) == before
    # Bo answers with Llama Spit: the Llama goes to Bo's hand.
    await bo.click(table, "Respond")
    menu = bo.last_reply
    assert headline(menu) == "Answer **Ana plays Trail Llama** with:"
    await press_as(sb, bo, menu, Respond(card=cid_of(st, "llama_spit", st.hands["s1"])))
    after = await state_of(sb.bot)
    assert llama in after.hands["s1"] and llama not in after.fields["s0"]
    assert keys(after.discard)[-1] == "llama_spit"
    text = public_text(thread, 3)
    assert "Bo answers Trail Llama with Llama Spit." in text
    assert "Bo's Llama Spit cancels Trail Llama and Bo takes it into their hand." in text
    assert after.active == "s1"


async def trail_llama_ready(world, sb):
    """Ana, Bo, Cy, the thread and the state installed: Ana holds Trail Llama with two
    plays left, Bo Llama Spit and Cy Alpaca Huff (both Instants)."""
    ana, bo, cy = (world.member(n) for n in ("Ana", "Bo", "Cy"))
    thread = await start(world)
    st = build(3, hands={"s0": ["trail_llama"], "s1": ["llama_spit"], "s2": ["alpaca_huff"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]},
               plays=2)
    await install(world, sb.bot, st)
    return ana, bo, cy, thread, st


async def test_window_closes_early_when_everyone_who_could_answer_passed(world, sb, clock):
    ana, bo, cy, thread, st = await trail_llama_ready(world, sb)
    turn = thread.last_message
    public = len([m for m in thread.all_messages if not m.ephemeral])
    await play_card(sb, ana, await open_panel(ana, thread),
                    cid_of(st, "trail_llama", st.hands["s0"]), "s0")
    window = thread.last_message
    # The window is the turn's table edited in place: no new message.
    assert window.id == turn.id
    assert len([m for m in thread.all_messages if not m.ephemeral]) == public
    assert "Pass" in window.labels
    await bo.click(window, "Pass")
    assert headline(bo.last_reply) == NEUTRAL_PASS
    assert thread.last_message.id == window.id  # nothing public yet
    await cy.click(window, "Pass")
    after = await state_of(sb.bot)
    assert after.reaction is None and keys(after.fields["s0"]) == ["cria_button", "trail_llama"]
    assert await sb.bot.service.deadline(1) is None  # closed before its timer: disarmed
    # The result edits the same table in place (the turn goes on): still no new message.
    assert thread.last_message.id == turn.id
    assert len([m for m in thread.all_messages if not m.ephemeral]) == public
    assert "Trail Llama enters Ana's Field." in description(thread.last_message)
    assert "Pass" not in window.labels  # the window's buttons are gone


async def test_late_answers_about_hands_go_by_dm_never_to_the_thread(world, sb):
    ana, bo, cy = (world.member(n) for n in ("Ana", "Bo", "Cy"))
    thread = await start(world)
    st = build(3, hands={"s0": ["trail_llama"], "s1": ["llama_spit"], "s2": ["meadow_goat"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]})
    await install(world, sb.bot, st)
    await play_card(sb, ana, await open_panel(ana, thread),
                    cid_of(st, "trail_llama", st.hands["s0"]), "s0")
    window = thread.last_message
    public_before = len([m for m in thread.all_messages if not m.ephemeral])
    world.faults.late_ack()
    await cy.click(window, "Respond")  # Cy holds no Instant: that must not become public
    world.faults.late_ack()
    await bo.click(window, "Respond")  # Bo's Instants: private
    assert len([m for m in thread.all_messages if not m.ephemeral]) == public_before
    assert headline(cy.dms[-1]).endswith(NEUTRAL_RESPOND)
    assert "Answer **Ana plays Trail Llama** with:" in headline(bo.dms[-1])


async def test_a_herd_bonus_choice_is_named_on_the_table(world, sb):
    thread = await start(world)
    st = build(3, active="s2", plays=1,
               fields={"s0": ["woolly_ram", "curlhorn_ram", "lamb_acorn"], "s1": ["trail_llama"]},
               hands={"s0": ["lasso", "stampede"]})
    st = pass_turn(st, "s2")
    st, _ = act(st, "s0", Activate(source="herd:ram"))
    await install(world, sb.bot, st)
    assert ("Waiting for **Ana** to choose for the Ram Herd Bonus: open **My hand**."
            in description(thread.last_message))


async def test_ambush_instant_and_a_choice_made_by_another_player(world, sb):
    ana, bo, cy = (world.member(n) for n in ("Ana", "Bo", "Cy"))
    thread = await start(world)
    st = build(3, hands={"s0": ["woolly_ram"], "s2": ["coyote_ambush"]},
               fields={"s0": ["cria_button", "trail_llama"], "s1": ["lamb_acorn"],
                       "s2": ["kid_clover"]}, plays=2)
    await install(world, sb.bot, st)
    panel = await open_panel(ana, thread)
    await play_card(sb, ana, panel, cid_of(st, "woolly_ram", st.hands["s0"]), "s0")
    table = thread.last_message
    await cy.click(table, "Respond")
    await press_as(sb, cy, cy.last_reply, Respond(card=cid_of(st, "coyote_ambush", st.hands["s2"])))
    # Cy chooses which of Ana's Animals the Coyote takes, from My hand: the turn's table
    # edited in place says so (no new message, so no second ping).
    assert thread.last_message.id == table.id
    table = thread.last_message
    assert headline(table) == ana.mention
    assert "Waiting for **Cy** to choose" in description(table)
    mid = await state_of(sb.bot)
    # Ana sending Cy's choice is refused; nothing changes.
    cy_panel = await open_panel(cy, thread)
    assert headline(cy_panel).startswith("**Choose")
    labels = [o["label"] for o in find(cy_panel, "s.")["options"]]
    assert labels == ["Cria Button (Ana)", "Trail Llama (Ana)"]
    data = {"custom_id": find(cy_panel, "s.")["custom_id"], "component_type": 3,
            "values": ["1"]}
    await sb.run_component(ana, cy_panel, data)
    assert headline(ana.last_reply) == "\N{NO ENTRY SIGN} It is not your decision right now."
    assert await version(sb.bot) == mid.version
    await pick(cy, cy_panel, "s.", 1)
    after = await state_of(sb.bot)
    assert keys(after.fields["s0"]) == ["cria_button", "woolly_ram"]
    assert "trail_llama" in keys(after.discard)
    text = public_text(thread, 2)
    assert "Cy's Coyote Ambush strikes Ana's Field." in text
    assert "Cy destroys Trail Llama." in text and "Woolly Ram enters Ana's Field." in text


async def test_restart_during_an_open_window_then_respond_pass_and_timer(world, clock, tmp_path):
    db = tmp_path / "restart.sqlite3"
    sb = await world.connect(new_bot(db, clock))
    ana, bo, cy = (world.member(n) for n in ("Ana", "Bo", "Cy"))
    thread = await start(world)
    st = build(3, hands={"s0": ["stampede", "goat_headbutt"], "s1": ["ram_rebuff"],
                         "s2": ["alpaca_huff"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn", "woolly_ram"],
                       "s2": ["kid_clover"]}, plays=1)
    await install(world, sb.bot, st)
    panel = await open_panel(ana, thread)
    await play_card(sb, ana, panel, cid_of(st, "stampede", st.hands["s0"]))
    window = thread.last_message
    assert window_says(window) == "Ana plays Stampede"
    await world.disconnect()
    sb = await world.connect(new_bot(db, clock))
    # Cy passes after the restart: acknowledged only to Cy, nothing public.
    count = len([m for m in thread.all_messages if not m.ephemeral])
    await cy.click(window, "Pass")
    assert cy.last_reply.ephemeral and headline(cy.last_reply) == NEUTRAL_PASS
    assert (await state_of(sb.bot)).reaction.passed == ["s2"]
    assert len([m for m in thread.all_messages if not m.ephemeral]) == count
    # Bo answers with Ram Rebuff; Ana may answer back (a new window).
    await bo.click(window, "Respond")
    await press_as(sb, bo, bo.last_reply, Respond(card=cid_of(st, "ram_rebuff", st.hands["s1"])))
    second = thread.last_message
    assert second.id == window.id  # the new window edits the turn's table in place
    assert window_says(second) == "Bo answers Stampede with Ram Rebuff"
    assert "the window closes <t:" in description(second)
    # Ana opens Respond but waits: the window's stored timer passes for her.
    await ana.click(second, "Respond")
    stale_menu = ana.last_reply
    clock.advance(21)
    await sb.bot.service.timers.fire_due()
    await world.settle()
    after = await state_of(sb.bot)
    assert after.reaction is None and after.active == "s1"
    assert keys(after.discard)[-2:] == ["ram_rebuff", "stampede"]
    assert "Bo's Ram Rebuff cancels Stampede." in description(thread.last_message)
    # A response after the window closed is refused in words.
    before = after.version
    await select_label(ana, stale_menu, "Goat Headbutt")
    assert headline(ana.last_reply) == MOVED_ON
    assert await version(sb.bot) == before
    await world.disconnect()
