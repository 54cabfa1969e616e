"""Llamas Unleashed hand DMs: no DM for a change a member made and saw in their own
ephemeral answer; one DM, with the private notes, for a change somebody else made; a hidden
card never in another member's DM."""

from __future__ import annotations

import pytest_asyncio

from bot.games.unleashed.models import ChooseBaby
from bot.present.unleashed import UnleashedPresenter
from bot.store import ActionRecord
from tests.discord.test_unleashed import (
    CAT,
    cid_of,
    install,
    new_bot,
    open_panel,
    play_card,
    press_as,
    start,
    state_of,
)
from tests.games.unleashed.unleashed_helpers import build

seen_by = UnleashedPresenter().seen_by
HEAD = "**Llamas Unleashed #1** \N{EM DASH} https://discord.com/channels/"


async def seen_as_dealt(bot, st) -> None:
    """Test set-up: record every seat's installed hand as already DMed (as the deal does)."""
    for seat, hand in st.hands.items():
        await bot.store.set_seat(1, seat, dm_hand=f"{st.version}:{','.join(map(str, sorted(hand)))}")


@pytest_asyncio.fixture
async def sb(world, clock, tmp_path):
    sandbox = await world.connect(new_bot(tmp_path / "dms.sqlite3", clock))
    yield sandbox
    await world.disconnect()


def names(cards) -> str:
    return ", ".join(CAT[c].name for c in cards)


async def test_a_pull_dms_the_victim_only_and_the_puller_saw_it_already(world, sb):
    ana, bo, cy = (world.member(n) for n in ("Ana", "Bo", "Cy"))
    thread = await start(world)
    st = build(3, hands={"s0": ["pickpocket_goat", "hay_harvest"],
                         "s1": ["meadow_goat", "trail_llama"], "s2": []},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]},
               deck=["woolly_ram"], plays=1)
    await install(world, sb.bot, st)
    st = await state_of(sb.bot)
    await seen_as_dealt(sb.bot, st)
    bo_had = list(st.hands["s1"])
    await play_card(sb, ana, await open_panel(ana, thread),
                    cid_of(st, "pickpocket_goat", st.hands["s0"]), "s0")
    after = await state_of(sb.bot)
    assert after.active == "s1" and after.turn == st.turn + 1
    pulled = next(c for c in after.hands["s0"] if c not in st.hands["s0"])
    assert pulled in bo_had
    # Ana made the change and read it in her own answer: no DM.
    assert f"Ana pulls {CAT[pulled].name} from Bo's hand." in [
        line for m in ana.ephemerals for line in m.text.splitlines()]
    assert ana.dms == []
    # Bo lost a card to Ana's move and drew at the start of his turn: one DM, naming it.
    assert [d.text for d in bo.dms] == [
        f"{bo.dms[0].text.splitlines()[0]}\n"
        f"Ana pulls {CAT[pulled].name} from Bo's hand.\n"
        "You draw Woolly Ram.\n"
        f"Your hand (2): {names(after.hands['s1'])}."]
    assert bo.dms[0].text.startswith(HEAD)
    assert [CAT[c].key for c in after.hands["s1"]][-1] == "woolly_ram"
    # Cy's hand did not change: nothing, and so no card of anybody's.
    assert cy.dms == []
    stored = {s.seat: s.dm_hand for s in await sb.bot.store.seats(1)}
    assert stored == {seat: f"{after.version}:{','.join(map(str, sorted(after.hands[seat])))}"
                      if seat != "s2" else f"{st.version}:"
                      for seat in ("s0", "s1", "s2")}


async def test_cards_drawn_when_another_players_pass_resolves_the_card_come_by_dm(world, sb):
    ana, bo, cy = (world.member(n) for n in ("Ana", "Bo", "Cy"))
    thread = await start(world)
    st = build(3, hands={"s0": ["hay_harvest"], "s1": ["llama_spit"], "s2": ["meadow_goat"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]},
               deck=["trail_llama", "woolly_ram", "curlhorn_ram"], plays=1)
    await install(world, sb.bot, st)
    st = await state_of(sb.bot)
    await seen_as_dealt(sb.bot, st)
    await play_card(sb, ana, await open_panel(ana, thread),
                    cid_of(st, "hay_harvest", st.hands["s0"]))
    assert (await state_of(sb.bot)).reaction is not None  # a window: the card waits
    assert ana.dms == []
    window = thread.last_message
    await bo.click(window, "Pass")  # Bo's Pass closes the window: Hay Harvest resolves
    after = await state_of(sb.bot)
    assert after.active == "s1"
    assert [CAT[c].key for c in after.hands["s0"]] == ["trail_llama", "woolly_ram"]
    # Ana's two cards were drawn in Bo's step: she had not seen them, so one DM.
    assert [d.text.split("\n", 1)[1] for d in ana.dms] == [
        "You draw Trail Llama, Woolly Ram.\nYour hand (2): Trail Llama, Woolly Ram."]
    # Bo drew Curlhorn Ram at the start of his turn, told in answer to his own Pass.
    assert "You draw Curlhorn Ram." in [line for m in bo.ephemerals for line in m.text.splitlines()]
    assert bo.dms == [] and cy.dms == []


async def test_the_first_hand_is_dmed_to_everyone_even_the_last_to_choose_a_baby(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    sb.bot.service.seed_factory = lambda: 5
    thread = await start(world, ("Ana", "Bo"))
    for member, baby in ((ana, "kid_clover"), (bo, "cria_button")):
        await member.click(thread.last_message, "Choose your Baby")
        await press_as(sb, member, member.last_reply, ChooseBaby(card=CAT.ids_of(baby)[0]))
    st = await state_of(sb.bot)
    assert st.phase == "action" and st.active == "s0"
    # Bo's choice dealt the cards: his answer told him his hand, and the DM does too.
    assert any(line.startswith("Your hand: ") for m in bo.ephemerals for line in m.text.splitlines())
    # Ana goes first (game seed 5) and draws in Bo's step: she reads that draw in her DM;
    # Bo gets his dealt hand though his own answer told it too.
    for member, seat in ((ana, "s0"), (bo, "s1")):
        drew = (f"You draw {CAT[st.hands[seat][-1]].name}.\n"
                if seat == st.active == "s0" else "")
        assert [d.text.split("\n", 1)[1] for d in member.dms] == [
            f"{drew}Your hand ({len(st.hands[seat])}): {names(st.hands[seat])}."]


def row(version, seat, action, *events):
    return ActionRecord(game_id=1, version=version, seat=seat, action=action,
                        events=list(events), created_at=0.0)


def test_seen_by_counts_only_the_seats_own_moves_whose_words_reached_it():
    play = row(5, "s0", {"type": "play", "card": 11, "field": "s0"})
    drew = row(6, "s0", {"type": "draw"},
               {"type": "draw", "text": "s0 draws a card.", "to": None, "data": {"n": 1}},
               {"type": "draw_private", "text": "You draw Hay Harvest.", "to": ["s0"],
                "data": {"cards": [40]}})
    # Played 11, drew 40: both its own doing, told to it.
    assert seen_by("s0", [play, drew], {11, 12}, {12, 40}) is True
    # The draw was this update's step made by a timer (after version 5): not seen.
    assert seen_by("s0", [play, drew], {11, 12}, {12, 40}, unseen_after=5) is False
    # The same rows seen by another seat explain nothing of its hand.
    assert seen_by("s1", [play, drew], {20}, {20, 40}) is False
    pulled = row(7, "s1", {"type": "choose", "option": 0},
                 {"type": "pull_private", "text": "s1 pulls Hay Harvest from s0's hand.",
                  "to": ["s1", "s0"], "data": {"card": 40}})
    # A card taken by another seat's move: not its own.
    assert seen_by("s0", [play, drew, pulled], {11, 12}, {12}) is False
    # A swap names no card: the new hand is unexplained.
    swap = row(8, "s0", {"type": "choose", "option": 1},
               {"type": "swap", "text": "s0 swaps hands with s1.", "to": None,
                "data": {"seat": "s0", "other": "s1"}})
    assert seen_by("s0", [swap], {12}, {30, 31}) is False
    # Another seat swapped hands with it, even if the ids seem explained: not its own.
    theirs = row(9, "s1", {"type": "choose", "option": 0},
                 {"type": "swap", "text": "s1 swaps hands with s0.", "to": None,
                  "data": {"seat": "s1", "other": "s0"}})
    assert seen_by("s0", [play, drew, theirs], {11, 12}, {12, 40}) is False
    # A counter that discards the card moves no hand; one that takes it does.
    for taken, seen in ((False, True), (True, False)):
        countered = row(11, "s1", {"type": "pass"},
                        {"type": "countered", "text": "...", "to": None,
                         "data": {"card": 7, "seat": "s0", "taken": taken}})
        assert seen_by("s0", [play, drew, countered], {11, 12}, {12, 40}) is seen
    # Another seat's move that touches no hand changes nothing.
    turn = row(10, "s1", {"type": "pass"},
               {"type": "turn", "text": "It is s0's turn.", "to": None, "data": {"seat": "s0"}})
    assert seen_by("s0", [play, drew, turn], {11, 12}, {12, 40}) is True
    assert seen_by("s0", [], {12}, {12}) is True
    # The deal, even in its own Baby choice's step, is always DMed.
    baby = row(2, "s0", {"type": "baby", "card": 3},
               {"type": "dealt_private", "text": "Your hand: ...", "to": ["s0"],
                "data": {"cards": [12, 13]}})
    assert seen_by("s0", [baby], set(), {12, 13}) is False
