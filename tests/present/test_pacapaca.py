"""The Pacapaca deal editor's draft and the negotiation panel's words, pure
(bot/present/pacapaca.py): the sides and the starting draft, a select's change, who may
use an editor, the deal played, and the panel's open and closed texts."""

from __future__ import annotations

import pytest

from bot.games.base import SYSTEM_SEAT, IllegalAction
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import (
    Accept,
    Draw2,
    GiveUp,
    NegotiationTimeout,
    Propose,
    StartNegotiation,
)
from bot.present import pacapaca as pp
from bot.present.pacapaca import PacapacaPresenter

E = PacapacaEngine()
NAMES = {"s0": "Maya", "s1": "Tomasz", "s2": "Ana"}
MUD, LEAF, RIGHT_LOOP = 44, 41, 26  # "Mud splat", "Leaf charm", "Bow, right loop"


@pytest.fixture(scope="module")
def talks():
    """Seed 3, three players, everyone drawing until turn 6: Ana (s2) has the Mud splat,
    Maya (s0) the Leaf charm and the Bow's right loop, Tomasz (s1) two cards; Ana opens
    a negotiation with Maya."""
    state = E.new_game(["s0", "s1", "s2"], seed=3)
    for _ in range(5 * 2):
        seat = state.seats[state.active]
        legal = E.legal_actions(state, seat)
        state = E.apply(state, seat, next(a for a in legal if isinstance(a, Draw2))
                        if state.phase == "turn" else legal[0])[0]
    assert (state.seats[state.active], state.turn_number) == ("s2", 6)
    assert {s: a.neck for s, a in state.alpacas.items()} == {
        "s0": [LEAF, RIGHT_LOOP], "s1": [3, 2], "s2": [MUD]}
    return E.apply(state, "s2", StartNegotiation(partner="s0"))[0]


def test_each_negotiator_sees_its_own_side_and_starts_from_the_deal_on_the_table(talks):
    v = E.view(talks, None)
    assert pp.deal_sides(v, "s2") == ("s0", [MUD], [LEAF, RIGHT_LOOP])
    assert pp.deal_sides(v, "s0") == ("s2", [LEAF, RIGHT_LOOP], [MUD])
    assert pp.table_draft(v, "s2") == ([], [])
    after = E.apply(talks, "s2", Propose(give=[MUD], get=[LEAF]))[0]
    v = E.view(after, None)
    assert pp.table_draft(v, "s2") == ([MUD], [LEAF])
    assert pp.table_draft(v, "s0") == ([LEAF], [MUD])


def test_a_select_change_replaces_only_the_cards_that_select_offers():
    draft = ([1, 30, 31], [7])
    # "Cards I give" past 25 cards: the second select (cards 30-33) now holds 33 only.
    assert pp.redraft(draft, "give", {30, 31, 32, 33}, [33]) == ([1, 33], [7])
    assert pp.redraft(draft, "get", {7, 8}, []) == ([1, 30, 31], [])
    # A select the message no longer holds: the whole list is what was chosen.
    assert pp.redraft(draft, "get", None, [8, 9]) == ([1, 30, 31], [8, 9])
    assert pp.card_ids(["12", "none", "3"]) == [12, 3]


def test_only_the_two_negotiators_of_this_turn_may_use_an_editor(talks):
    v = E.view(talks, None)
    assert pp.editor_refusal(v, "s0", 6) is None
    assert pp.editor_refusal(v, "s2", 6) is None
    assert pp.editor_refusal(v, "s1", 6) == (
        "not_negotiating", "Only the two negotiating players can act now.")
    assert pp.editor_refusal(v, "s0", 5) == ("neg_over", "This negotiation is over.")
    over = E.view(E.apply(talks, "s2", GiveUp())[0], None)
    assert pp.editor_refusal(over, "s2", 6) == ("neg_over", "This negotiation is over.")


def test_propose_plays_the_deal_space_deal_or_lets_the_engine_refuse_in_words(talks):
    chosen = pp.deal_choice(E, "s2", ([MUD], [LEAF]))(talks)
    assert chosen == Propose(give=[MUD], get=[LEAF])
    assert chosen in E.deal_space(talks, "s2")
    foreign = pp.deal_choice(E, "s2", ([MUD], [3]))(talks)  # card 3 is Tomasz's
    assert foreign == Propose(give=[MUD], get=[3])
    with pytest.raises(IllegalAction) as info:
        E.apply(talks, "s2", foreign)
    assert (info.value.code, info.value.message) == (
        "not_their_card", "You can only ask for cards s0's alpaca has.")


def test_the_deal_editor_and_panel_words(talks):
    assert pp.deal_text("Maya", ([MUD], [])) == (
        "**Your deal with Maya** (only you see this until you press Propose)\n"
        "\N{BULLET} You give: Mud splat\n"
        "\N{BULLET} You get: nothing\n"
        "Change either list, then press **Propose**.")
    after = E.apply(talks, "s2", Propose(give=[MUD], get=[LEAF, RIGHT_LOOP]))[0]
    lines = PacapacaPresenter.negotiation_lines(E.view(after, None), NAMES, 1700000000.5)
    assert lines[:6] == [
        "**Ana** is negotiating with **Maya**.",
        "\N{STOPWATCH} The talks end <t:1700000000:R>.",
        "\n**Deal v1** (proposed by Ana):",
        "\N{BULLET} Ana gives: Mud splat",
        "\N{BULLET} Maya gives: Leaf charm; Bow, right loop",
        "Accepted by: nobody yet",
    ]
    assert PacapacaPresenter.negotiation_lines(E.view(talks, None), NAMES)[:2] == [
        "**Ana** is negotiating with **Maya**.", "\nNo deal on the table yet."]


def test_the_closed_panel_says_the_swap_or_why_there_is_no_deal(talks):
    proposed = E.apply(talks, "s2", Propose(give=[MUD], get=[LEAF]))[0]
    traded, _ = E.apply(proposed, "s0", Accept(version=1))
    traded, events = E.apply(traded, "s2", Accept(version=1))
    [swap] = [e for e in events if e.type == "traded"]
    said = "Deal! Ana gave Mud splat and got Leaf charm from Maya."
    assert PacapacaPresenter.closed_lines(E.view(traded, None), swap, NAMES, said) == (
        "Negotiation: Ana \N{LEFT RIGHT ARROW} Maya (closed)", "\N{HANDSHAKE} " + said)
    gave_up, events = E.apply(talks, "s2", GiveUp())
    [failed] = [e for e in events if e.type == "negotiation_failed"]
    view = E.view(gave_up, None)
    assert PacapacaPresenter.closed_lines(view, failed, NAMES, "")[1] == (
        "\N{WHITE FLAG} Ana gave up: no deal. Ana must now draw or take the pile.")
    empty = view.model_copy(update={"deck_size": 0, "pile_size": 0})
    assert PacapacaPresenter.closed_lines(empty, failed, NAMES, "")[1] == (
        "\N{WHITE FLAG} Ana gave up: no deal. Ana can only pass.")
    timed_out, events = E.apply(talks, SYSTEM_SEAT, NegotiationTimeout())
    [failed] = [e for e in events if e.type == "negotiation_failed"]
    assert PacapacaPresenter.closed_lines(E.view(timed_out, None), failed, NAMES, "") == (
        "Negotiation: Ana \N{LEFT RIGHT ARROW} Maya (closed)",
        "\N{ALARM CLOCK} Time is up: no deal. Ana must now draw or take the pile.")
