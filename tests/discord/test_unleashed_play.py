"""Llamas Unleashed through the real bot in the sandbox: the turn's flow (start-of-turn
effects, the hand limit, bad input, /card), a whole game watched for leaks, a link's
targets asked in one flow, windows after a counter, hidden windows and hand DMs across a
restart."""

from __future__ import annotations

import re

import pytest

from bot.games.unleashed.models import Respond
from bot.sandbox import World
from bot.sandbox.demo import NAMES, play_game
from bot.sandbox.drivers.unleashed import find
from cogs.unleashed import NEUTRAL_PASS
from tests.discord.test_unleashed import (
    CAT,
    MOVED_ON,
    cid_of,
    install,
    keys,
    new_bot,
    open_panel,
    pick,
    play_card,
    press_as,
    public_text,
    select_label,
    start,
    state_of,
    version,
    window_says,
)
from tests.games.unleashed.unleashed_helpers import build
from tests.support import description, headline, parts, pictures, rows, title


@pytest.fixture
def bot_factory():
    """The bot with Llamas Unleashed: the suite's ``sb`` fixture connects it."""
    return new_bot


# -- turn flow ----------------------------------------------------------------------------


async def test_start_of_turn_optional_effect(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    thread = await start(world)
    st = build(3, hands={"s0": ["meadow_goat"]},
               fields={"s0": ["cria_button", "feed_trough"], "s1": ["lamb_acorn"],
                       "s2": ["kid_clover"]}, phase="start")
    trough = cid_of(st, "feed_trough", st.fields["s0"])
    st.start_cards = [trough]
    await install(world, sb.bot, st)
    bo_panel = await open_panel(bo, thread)
    assert headline(bo_panel) == "It is Ana's turn." and bo_panel.labels == ["Refresh"]
    panel = await open_panel(ana, thread)
    assert headline(panel).startswith("Start of your turn")
    assert panel.labels == ["Use Feed Trough", "Go to the Draw phase", "Refresh"]
    await ana.click(panel, "Use Feed Trough")
    after = await state_of(sb.bot)
    assert len(after.hands["s0"]) == 3 and after.phase == "action"
    text = description(thread.last_message)
    assert "Ana uses Feed Trough." in text and text.count("Ana draws a card.") == 2
    private = [headline(m) for m in ana.ephemerals if headline(m).startswith("You draw")]
    assert private == [f"You draw {CAT[after.hands['s0'][1]].name}.\n"
                       f"You draw {CAT[after.hands['s0'][2]].name}."]
    # The follow-up panel is the Action phase panel.
    assert headline(ana.last_reply) == "Your Action phase: play a card or draw one."


async def test_discard_down_to_the_hand_limit_one_select_at_a_time(world, sb):
    ana = world.member("Ana")
    thread = await start(world)
    hand = ["trail_llama", "highland_llama", "sleepy_llama", "suri_alpaca", "shy_alpaca",
            "meadow_goat", "cliff_goat", "woolly_ram"]
    st = build(3, hands={"s0": hand}, fields={"s0": ["cria_button"], "s1": ["lamb_acorn"],
                                              "s2": ["kid_clover"]}, plays=1)
    await install(world, sb.bot, st)
    panel = await open_panel(ana, thread)
    await ana.click(panel, "Draw a card")
    first = ana.last_reply
    assert headline(first) == "**Choose a card to discard:**"
    assert len(find(first, "s.")["options"]) == 9
    await pick(ana, first, "s.", 0)
    second = ana.last_reply
    assert headline(second) == "**Choose a card to discard:**"
    assert len(find(second, "s.")["options"]) == 8
    await pick(ana, second, "s.", 0)
    after = await state_of(sb.bot)
    assert len(after.hands["s0"]) == 7 and after.active == "s1"
    assert keys(after.discard)[-2:] == ["trail_llama", "highland_llama"]
    text = public_text(thread, 2)
    assert "Ana discards Trail Llama." in text and "Ana discards Highland Llama." in text


async def test_bad_input_is_refused_in_words_and_changes_nothing(world, sb):
    ana, bo, ed = world.member("Ana"), world.member("Bo"), world.member("Ed")
    thread = await start(world)
    st = build(3, hands={"s0": ["trail_llama", "meadow_goat", "llama_spit"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]},
               plays=2)
    await install(world, sb.bot, st)
    goat = cid_of(st, "meadow_goat", st.hands["s0"])
    panel = await open_panel(ana, thread)
    # The select offers what can be played now (an Instant only answers a window); the
    # hand above it lists every card.
    labels = [o["label"] for o in find(panel, "s.")["options"]]
    assert labels == [f"{n}: {f} Field" for n in ("Trail Llama", "Meadow Goat")
                      for f in ("your", "Bo's", "Cy's")]
    assert "**Llama Spit** (Instant" in description(panel)
    await play_card(sb, ana, panel, goat, "s0")
    assert goat in (await state_of(sb.bot)).fields["s0"]
    # The old panel still offers the Goat: out of date (the hand changed), nothing changes.
    v = await version(sb.bot)
    await select_label(ana, panel, "Meadow Goat: your Field")
    assert headline(ana.last_reply) == MOVED_ON
    assert await version(sb.bot) == v
    # Bo sends a selection from Ana's current panel: the engine refuses it for Bo.
    panel = await open_panel(ana, thread)
    data = {"custom_id": find(panel, "s.")["custom_id"], "component_type": 3,
            "values": [find(panel, "s.")["options"][0]["value"]]}
    await sb.run_component(bo, panel, data)
    assert headline(bo.last_reply) == "\N{NO ENTRY SIGN} It is not your decision right now."
    await sb.run_component(ed, panel, data)
    assert headline(ed.last_reply).endswith("You are not in this game.")
    assert await version(sb.bot) == v
    # After the turn moved on, Ana's old Draw button is out of date.
    await ana.click(await open_panel(ana, thread), "End your Action phase")
    v = await version(sb.bot)
    assert (await state_of(sb.bot)).active == "s1"
    await ana.click(panel, "Draw a card")
    assert headline(ana.last_reply) == MOVED_ON
    assert await version(sb.bot) == v


async def test_card_command_with_autocomplete(world, sb):
    ana = world.member("Ana")
    choices = await ana.autocomplete("card", name="spit")
    assert [c["name"] for c in choices] == ["Spitfire Llama", "Llama Spit"]
    choices = await ana.autocomplete("card", name="go")
    assert [c["name"] for c in choices][:2] == ["Goat Costume", "Goat Headbutt"]
    await ana.slash("card", name="Llama Spit")
    reply = ana.last_reply
    assert reply.ephemeral and reply.filenames == ["card.png"]
    assert title(reply) == "Llama Spit"
    assert parts(reply)["footer"] == "Instant \u00b7 Llama \u00b7 3 copies"
    assert reply.file("card.png")[:8] == b"\x89PNG\r\n\x1a\n"
    await ana.slash("card", name="Dragon")
    assert headline(ana.last_reply).endswith("There is no Llamas Unleashed card called “Dragon”.")


# -- a whole game, and the leak check ------------------------------------------------------

_NAME_RE = re.compile("|".join(sorted((re.escape(d.name) for d in CAT.designs.values()),
                                      key=len, reverse=True)))


def card_names(text: str) -> set[str]:
    return set(_NAME_RE.findall(text or ""))


def message_strings(msg) -> list[str]:
    out = [msg.text, *msg.filenames, *msg.labels]
    for s in msg.selects():
        out.append(s.get("placeholder") or "")
        for o in s.get("options", []):
            out += [o.get("label", ""), o.get("description") or ""]
    return out


class LeakWatch:
    """Names a member may see at each moment: cards that were ever public (Fields, piles,
    Nursery, played cards, public events) plus, for a seat, cards that were in its hand,
    in its own choices or in events addressed to it."""

    def __init__(self, world, bot, gid, members):
        self.world, self.bot, self.gid, self.members = world, bot, gid, members
        self.public: set[str] = set()
        self.private: dict[str, set[str]] = {s: set() for s in members}
        self.seen: set[tuple[int, int]] = set()
        self.public_msgs = 0

    async def snap(self):
        st = await state_of(self.bot, self.gid)
        public = [c for f in st.fields.values() for c in f] + st.discard + st.nursery
        public += [i.card for i in st.stack]
        self.public |= {CAT[c].name for c in public}
        for seat, hand in st.hands.items():
            self.private[seat] |= {CAT[c].name for c in hand}
        if st.choice is not None:
            self.private[st.choice.seat] |= {CAT[o.card].name for o in st.choice.options
                                             if o.card is not None}
        for row in await self.bot.store.actions(self.gid):
            for e in row.events:
                names = card_names(e["text"])
                if e.get("to") is None:
                    self.public |= names
                else:
                    for seat in e["to"]:
                        self.private[seat] |= names

    async def check(self, thread):
        await self.snap()
        for msg in thread.all_messages:
            if msg.ephemeral or (0, msg.id) in self.seen:
                continue
            self.seen.add((0, msg.id))
            self.public_msgs += 1
            for s in message_strings(msg):
                leaked = card_names(s) - self.public
                assert not leaked, f"public message {msg!r} names hidden {leaked}"
            for comp in [*msg.buttons(), *msg.selects()]:
                assert re.fullmatch(r"h[bs]:g:\d+:x:(o\.[0-9a-f]{10}\.baby|hand|back|watch|(resp|pass)\.\d+)",
                                    comp["custom_id"]), comp["custom_id"]
        for seat, m in self.members.items():
            for msg in [*m.dms, *m.ephemerals]:
                if (m.id, msg.id) in self.seen:
                    continue
                self.seen.add((m.id, msg.id))
                for s in message_strings(msg):
                    leaked = card_names(s) - self.public - self.private[seat]
                    assert not leaked, f"{m.name} saw hidden {leaked} in {msg!r}"


async def test_full_three_player_game_through_the_panels_never_leaks(clock, tmp_path):
    world = World()
    for name in NAMES[:3]:
        world.add_member(name)
    sb = await world.connect(new_bot(tmp_path / "full.sqlite3", clock))
    watch: dict[str, LeakWatch] = {}
    kinds: list[str] = []

    async def after_each(ctx):
        if "w" not in watch:
            seats = await sb.bot.store.seats(ctx.game_id)
            watch["w"] = LeakWatch(world, sb.bot, ctx.game_id,
                                   {s.seat: world.member(s.user_id) for s in seats})
        rows = await sb.bot.store.actions(ctx.game_id)
        kinds.append(rows[-1].action["type"])
        await watch["w"].check(ctx.thread)

    gid = await play_game(world, sb.bot, game="llamas-unleashed", players=3, seed=11, game_seed=11,
                          extra_clicks=after_each)
    record = await sb.bot.store.get_game(gid)
    thread = world.channel(record.thread_id)
    await watch["w"].check(thread)
    assert record.status == "finished"
    st = await state_of(sb.bot, gid)
    assert st.phase == "over" and st.result is not None
    assert {"baby", "play", "choose", "respond"} <= set(kinds)
    public = [m for m in thread.all_messages if not m.ephemeral]  # a Pass's reply may follow
    final = public[-1]
    assert title(final) == "Llamas Unleashed #1: final scores"
    # The end replaced the last table: the final picture and the result card in it, every
    # button gone but Rematch.
    assert final.filenames == ["final.png", "result.png"]
    assert [b["custom_id"] for b in final.buttons()] == ["hb:l:1:x:rematch", "hb:r:1:x:open"]
    assert public[-2].filenames == ["table.png"]
    assert rows(public[-2]) == []
    # Hands by DM: at most one per member per change of turn; the only other DMs ask a
    # member to choose inside another player's turn (the edited table pings nobody).
    turns = st.turn
    for m in watch["w"].members.values():
        hands = [d for d in m.dms if "Your hand (" in headline(d)]
        assert 1 <= len(hands) <= turns
        assert all(headline(d).endswith("\nIt is your move: see the table.")
                   for d in m.dms if d not in hands)
    assert watch["w"].public_msgs > 20
    await world.disconnect()


async def test_deck_out_ending_is_announced_with_the_final_picture(world, sb):
    ana = world.member("Ana")
    thread = await start(world)
    st = build(3, hands={"s0": ["meadow_goat"]}, deck=["hay_harvest"], deck_rest=False,
               fields={"s0": ["cria_button", "trail_llama"], "s1": ["lamb_acorn"],
                       "s2": ["kid_clover"]}, plays=1)
    await install(world, sb.bot, st)
    await ana.click(await open_panel(ana, thread), "Draw a card")
    record = await sb.bot.store.get_game(1)
    assert record.status == "finished"
    public = [m for m in thread.all_messages if not m.ephemeral]
    # The last table is replaced by the end: the final picture, the last moves (the deck
    # running out), then the scores; then the result card and the Rematch button.
    final = public[-1]
    assert final.filenames == ["final.png", "result.png"]
    assert final.labels == ["Rematch", "Replay"]
    assert pictures(final)[0][0] == "final.png"
    assert final.file("final.png")[:8] == b"\x89PNG\r\n\x1a\n"
    assert description(final) == (
        "\N{BULLET} Ana draws a card.\n"
        "\N{BULLET} Ana wins. The deck ran out.\n\n"
        "The deck ran out. **Ana** wins!\n"
        "\N{TROPHY} **Ana**: 2 Animals\n"  # letters only break a tie for the most Animals
        "**Bo**: 1 Animal\n"
        "**Cy**: 1 Animal")


# -- a link's targets in one flow; the pile re-polls ------------------------------------


async def test_a_links_targets_are_asked_in_one_flow_naming_what_each_is_for(world, sb):
    ana = world.member("Ana")
    thread = await start(world)
    st = build(3, hands={"s0": ["grazing_rights", "trail_llama", "lasso"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]},
               discard=["sleepy_llama", "suri_alpaca"], plays=2)
    await install(world, sb.bot, st)
    await play_card(sb, ana, await open_panel(ana, thread),
                    cid_of(st, "grazing_rights", st.hands["s0"]))
    first = ana.last_reply
    assert first.ephemeral and headline(first) == "**Choose a card to discard (Grazing Rights):**"
    assert [o["label"] for o in find(first, "s.")["options"]] == ["Trail Llama", "Lasso"]
    assert ("Waiting for **Ana** to choose for Grazing Rights: open **My hand**."
            in description(thread.last_message))
    await pick(ana, first, "s.", 0)  # Trail Llama
    second = ana.last_reply
    assert headline(second) == ("**Choose a card from the discard pile to bring into your Field "
                              "(Grazing Rights):**")
    # The card being discarded is not offered: the targets are chosen before anything resolves.
    assert [o["label"] for o in find(second, "s.")["options"]] == ["Sleepy Llama", "Suri Alpaca"]
    mid = await state_of(sb.bot)
    assert keys(mid.hands["s0"]) == ["trail_llama", "lasso"] and mid.discard == st.discard
    await pick(ana, second, "s.", 1)  # Suri Alpaca
    after = await state_of(sb.bot)
    assert keys(after.fields["s0"]) == ["cria_button", "suri_alpaca"]
    assert keys(after.discard) == ["sleepy_llama", "trail_llama", "grazing_rights"]
    text = public_text(thread, 2)
    assert "Ana discards Trail Llama." in text
    assert "Ana brings Suri Alpaca from the discard pile directly into their Field." in text


async def test_a_new_window_is_posted_after_a_counter_is_countered(world, sb, clock):
    ana, bo = world.member("Ana"), world.member("Bo")
    thread = await start(world)
    st = build(3, hands={"s0": ["stampede", "goat_headbutt"], "s1": ["llama_spit", "alpaca_huff"],
                         "s2": ["meadow_goat"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn", "trail_llama"],
                       "s2": ["kid_clover"]}, plays=2)
    await install(world, sb.bot, st)
    await play_card(sb, ana, await open_panel(ana, thread), cid_of(st, "stampede", st.hands["s0"]))
    await bo.click(thread.last_message, "Respond")
    await press_as(sb, bo, bo.last_reply, Respond(card=cid_of(st, "llama_spit", st.hands["s1"])))
    await ana.click(thread.last_message, "Respond")
    await press_as(sb, ana, ana.last_reply, Respond(card=cid_of(st, "goat_headbutt", st.hands["s0"])))
    window = thread.last_message
    deadline = int(clock.now()) + 20
    assert window_says(window) == "Ana answers Llama Spit with Goat Headbutt"
    assert f"the window closes <t:{deadline}:R>." in description(window)
    count = len([m for m in thread.all_messages if not m.ephemeral])
    await bo.click(window, "Pass")  # Goat Headbutt cancels Llama Spit
    again = thread.last_message
    # The new window is the turn's table edited in place: no new message.
    assert again.id == window.id
    assert len([m for m in thread.all_messages if not m.ephemeral]) == count
    assert window_says(again) == "Ana plays Stampede"
    assert f"the window closes <t:{deadline}:R>." in description(again)
    assert again.labels == ["Respond", "Pass", "My hand", "Watch"]
    assert "Ana's Goat Headbutt cancels Llama Spit." in description(again)
    await bo.click(again, "Respond")
    assert headline(bo.last_reply) == "Answer **Ana plays Stampede** with:"
    await press_as(sb, bo, bo.last_reply, Respond(card=cid_of(st, "alpaca_huff", st.hands["s1"])))
    after = await state_of(sb.bot)
    assert after.stack == [] and after.reaction is None
    assert keys(after.fields["s1"]) == ["lamb_acorn", "trail_llama"]
    assert "Bo's Alpaca Huff cancels Stampede." in public_text(thread, 2)


async def test_hidden_windows_look_the_same_whether_or_not_anybody_holds_an_instant(tmp_path):
    """No tell from reaction windows, through the panel: the lobby hides Instant holders by
    default, and two games differing only in whether Bo holds an Instant show the same
    public messages (text, buttons, files; the turn's table as the window opens, after
    Bo's Pass and at the end) through a window Bo passes and Cy lets run out after 5 s."""
    from bot.runtime.clock import ManualClock

    runs = []
    for bo_card in ("llama_spit", "meadow_goat"):
        clock = ManualClock()
        world = World()
        for n in ("Ana", "Bo", "Cy"):
            world.add_member(n)
        sb = await world.connect(new_bot(tmp_path / f"{bo_card}.sqlite3", clock))
        try:
            runs.append(await _hidden_window_run(world, sb, clock, bo_card))
        finally:  # a failed assertion must not leave the bot's database thread running
            await world.disconnect()
    assert runs[0] == runs[1]
    # The window, the same after Bo's Pass, then the turn's table once it ran out (the
    # same message throughout: no new public message).
    assert len(runs[0]) == 3 and runs[0][0] == runs[0][1]
    assert runs[0][-1][0].startswith(
        "<@Ana>\n\u2022 Ana plays Trail Llama into their own Field.\n"
        "\u2022 Trail Llama enters Ana's Field.\n**Ana**'s turn: ")


async def _hidden_window_run(world, sb, clock, bo_card):
    """One world of the test above: the public messages from the play to the window's end."""
    from bot.games.unleashed.models import UnleashedOptions

    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="llamas-unleashed")
    lobby = ana.last_reply
    assert "Hide who holds Instants: on" in lobby.labels
    assert "Hide who holds Instants: on" in lobby.text
    for n in ("Bo", "Cy"):
        await world.member(n).click(lobby, "Join")
    await ana.click(lobby, "Start")
    thread = lobby.thread
    assert (await state_of(sb.bot)).options.open_windows is True
    st = build(3, hands={"s0": ["trail_llama", "hay_harvest"], "s1": [bo_card],
                         "s2": ["cliff_goat"]}, plays=2)
    st.options = UnleashedOptions(open_windows=True, reaction_seconds=20.0)
    await install(world, sb.bot, st)
    turn = thread.last_message
    start_at = len(thread.all_messages)
    await play_card(sb, ana, await open_panel(ana, thread),
                    cid_of(st, "trail_llama", st.hands["s0"]), "s0")
    window = thread.last_message
    # The window is the turn's table edited in place: what it shows is read now, and again
    # after Bo's Pass (edits leave no message of their own).
    assert window.id == turn.id
    seen = [public_look(world, window)]
    deadline = int(clock.now()) + 5
    # The table's text leads with the play; it carries the window's one deadline.
    assert window_says(window) == "Ana plays Trail Llama"
    assert window.text.count(f"<t:{deadline}:R>") == 1
    await bo.click(window, "Pass")
    assert headline(bo.last_reply) == NEUTRAL_PASS
    seen.append(public_look(world, window))
    clock.advance(5)
    await sb.bot.service.timers.fire_due()
    await world.settle()
    after = await state_of(sb.bot)
    assert after.reaction is None and keys(after.fields["s0"]) == ["trail_llama"]
    return seen + [public_look(world, m) for m in [turn, *thread.all_messages[start_at:]]
                   if not m.ephemeral]


def public_look(world, message):
    """What ``message`` shows now (text, buttons, files), member ids as names (they differ
    between two worlds)."""
    text = message.text
    for n in ("Ana", "Bo", "Cy"):
        text = text.replace(f"<@{world.member(n).id}>", f"<@{n}>")
    return text, message.labels, message.filenames


async def test_hand_dms_come_from_stored_state_and_survive_a_restart(world, clock, tmp_path):
    """The hand last DMed to each seat is kept in the store (seats.dm_hand), so after a
    restart a member whose hand did not change gets no second DM."""
    db = tmp_path / "dms.sqlite3"
    sb = await world.connect(new_bot(db, clock))
    ana, bo, cy = (world.member(n) for n in ("Ana", "Bo", "Cy"))
    thread = await start(world)
    clock.advance(61)  # nobody picks a Baby: the rules timer picks, deals and starts
    await sb.bot.service.timers.fire_due()
    await world.settle()
    st = await state_of(sb.bot)
    assert [len(m.dms) for m in (ana, bo, cy)] == [1, 1, 1]
    seats = {s.seat: s.dm_hand for s in await sb.bot.store.seats(1)}
    assert seats == {seat: f"{st.version}:{','.join(map(str, sorted(st.hands[seat])))}"
                     for seat in ("s0", "s1", "s2")}
    first = st.active
    await world.disconnect()
    sb = await world.connect(new_bot(db, clock))
    mover = world.member({"s0": "Ana", "s1": "Bo", "s2": "Cy"}[first])
    await mover.click(await open_panel(mover, thread), "Draw a card")
    after = await state_of(sb.bot)
    assert after.active != st.active
    changed = {seat for seat in ("s0", "s1", "s2")
               if sorted(after.hands[seat]) != sorted(st.hands[seat])}
    assert changed == {first, after.active}  # the drawer and the next player
    # The next player's start-of-turn draw comes by DM; the mover drew by their own click
    # and read the card in its answer, so no second DM for them.
    assert [len(m.dms) for m in (ana, bo, cy)] == [
        2 if seat == after.active else 1 for seat in ("s0", "s1", "s2")]
    assert f"You draw {CAT[after.hands[first][-1]].name}." in mover.ephemerals[-1].text
    await world.disconnect()


async def test_a_choice_asked_of_another_player_inside_the_turn_is_told_by_dm_once(world, sb):
    ana, bo, cy = (world.member(n) for n in ("Ana", "Bo", "Cy"))
    thread = await start(world)
    st = build(3, hands={"s0": ["grand_llama"], "s1": ["trail_llama", "alpaca_huff"],
                         "s2": ["llama_spit", "woolly_ram"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_nibbles"]},
               plays=2)
    await install(world, sb.bot, st)
    turn = thread.last_message
    dms = {m.name: len(m.dms) for m in (ana, bo, cy)}
    await play_card(sb, ana, await open_panel(ana, thread),
                    cid_of(st, "grand_llama", st.hands["s0"]), "s0")
    await bo.click(thread.last_message, "Pass")
    await cy.click(thread.last_message, "Pass")
    # Grand Llama enters: each other player discards a card, Bo first. The turn's table
    # is edited (no ping), so Bo, who did not make the click, is told by one DM.
    assert thread.last_message.id == turn.id
    assert "Waiting for **Bo** to choose" in description(thread.last_message)
    assert [len(m.dms) - dms[m.name] for m in (ana, bo, cy)] == [0, 1, 0]
    assert headline(bo.dms[-1]).endswith("\nIt is your move: see the table.")
    await pick(bo, await open_panel(bo, thread), "s.", 0)
    # Cy's discard next: Cy is told once; Bo, who just chose, is not told again.
    assert "Waiting for **Cy** to choose" in description(thread.last_message)
    assert [len(m.dms) - dms[m.name] for m in (ana, bo, cy)] == [0, 1, 1]
    assert headline(cy.dms[-1]).endswith("\nIt is your move: see the table.")
