"""The presenters' policies the Discord layer applies alike for every game (pure): hand
DMs (UX.md "Private information": which games DM hands, what the DM says, when a member's
own answer already told it; action-log rows are the store's records, built by hand),
quiet steps that show nothing in the thread, and the final scores' head line."""

from __future__ import annotations

from bot.games.base import Event, Pending, Result
from bot.games.unleashed.models import Choose, DrawCard, Pass
from bot.present.base import Presenter
from bot.present.llamas_alpacas import LlamasAlpacasPresenter
from bot.present.pacapaca import PacapacaPresenter
from bot.present.unleashed import UnleashedPresenter
from bot.store import ActionRecord

UL = UnleashedPresenter()
NAMES = {"s0": "Ana", "s1": "Bo"}


def row(version, seat, action, *events):
    return ActionRecord(game_id=1, version=version, seat=seat, action=action,
                        events=list(events), created_at=0.0)


def test_only_unleashed_dms_hands_and_only_after_a_turn_event():
    turn = Event(type="turn", text="It is s0's turn.")
    drew = Event(type="draw", text="s0 draws a card.")
    assert [UL.hand_dm_due([drew]), UL.hand_dm_due([drew, turn])] == [False, True]
    for other in (Presenter(), LlamasAlpacasPresenter(), PacapacaPresenter()):
        assert (other.hand_dm_after, other.hand_dm_due([turn]), other.hand_cards(None)) == (
            None, False, [])



def test_a_change_the_seat_made_and_saw_needs_no_dm():
    play = row(5, "s0", {"type": "play", "card": 11, "field": "s0"})
    drew = row(6, "s0", {"type": "draw"},
               {"type": "draw_private", "text": "You draw Hay Harvest.", "to": ["s0"],
                "data": {"cards": [40]}})
    hand = [(12, "Llama Spit"), (40, "Hay Harvest")]
    assert UL.hand_dm("s0", hand, [play, drew], {11, 12}, NAMES) is None
    # The draw was a timer's step after version 5: its words never reached Ana.
    assert UL.hand_dm("s0", hand, [play, drew], {11, 12}, NAMES, unseen_after=5) == (
        "Your hand (2): Llama Spit, Hay Harvest.")


def test_another_seats_private_words_lead_the_dm_with_names_and_the_deal_is_left_out():
    dealt = row(1, "s1", {"type": "baby", "card": 3},
                {"type": "dealt_private", "text": "Your hand: ...", "to": ["s0"],
                 "data": {"cards": [12]}})
    pulled = row(7, "s1", {"type": "choose", "option": 0},
                 {"type": "pull_private", "text": "s1 pulls Hay Harvest from s0's hand.",
                  "to": ["s1", "s0"], "data": {"card": 40}})
    assert UL.hand_dm("s0", [(12, "Llama Spit")], [dealt, pulled], {12, 40}, NAMES) == (
        "Bo pulls Hay Harvest from Ana's hand.\nYour hand (1): Llama Spit.")
    assert UL.hand_dm("s0", [], [pulled], {40}, NAMES) == (
        "Bo pulls Hay Harvest from Ana's hand.\nYour hand (0): no cards.")


def test_only_unleashed_keeps_quiet_about_passes_in_an_open_window_and_private_choices():
    window = Pending(["s1", "s2"], "reaction", "reaction:4")
    choice = Pending(["s0"], "choice", "choice:9")
    turn = Pending(["s1"], "turn", "turn-3")
    assert UL.quiet(window, [("s1", Pass())]) is True
    assert UL.quiet(window, [("s1", Pass()), ("s0", DrawCard())]) is False
    assert UL.quiet(turn, [("s2", Pass())]) is False  # the window closed: say so
    assert UL.quiet(choice, [("s0", Choose(option=1))]) is True
    assert UL.quiet(choice, [("s1", Choose(option=1))]) is False  # s0 decides now
    for other in (Presenter(), LlamasAlpacasPresenter(), PacapacaPresenter()):
        assert other.quiet(window, [("s1", Pass())]) is False


def test_the_final_head_names_the_reason_and_in_unleashed_the_winners():
    won = Result(scores={"s0": 7, "s1": 5}, winners=["s0"], reason="s0 has 7 Animals.")
    tie = Result(scores={"s0": 5, "s1": 5}, winners=[], reason="The deck ran out.")
    assert Presenter().final_head(won, NAMES) == "**Ana has 7 Animals.**"
    assert UL.final_head(won, NAMES) == "Ana has 7 Animals. **Ana** wins!"
    assert UL.final_head(tie, NAMES) == (
        "The deck ran out. Still tied on Animals and letters: everyone loses.")
