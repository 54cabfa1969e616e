"""Engine rules with exact values (rulebook llamas-and-alpacas.txt; RULES.md: Llamas &
Alpacas). Hand-built states come from la_helpers."""

import pytest

from bot.games.base import IllegalAction
from bot.games.llamas_alpacas.cards import card
from bot.games.llamas_alpacas.models import Keep, LlamasAlpacasState, Move, Place, RowSlot, Take
from tests.games.llamas_alpacas.la_helpers import (
    ENGINE,
    all_cards,
    board,
    cid,
    total_treats,
    turn_state,
)


def apply(s, seat, action):
    return ENGINE.apply(s, seat, action)


def refused(s, seat, action, code):
    before = s.model_dump_json()
    with pytest.raises(IllegalAction) as exc:
        ENGINE.apply(s, seat, action)
    assert exc.value.code == code
    assert exc.value.message  # a sentence for the player
    assert s.model_dump_json() == before


# -- set-up -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_new_game_setup(n):
    seats = [f"s{i}" for i in range(n)]
    s = ENGINE.new_game(seats, seed=3)
    assert s.phase == "setup"
    assert len(s.row) == 6 and all(r.clovers == r.carrots == 0 for r in s.row)
    for p in s.players:
        assert (p.clovers, p.carrots, p.score) == (3, 3, 0)
        assert p.board == [None] * 9
        assert p.start_card is not None and not card(p.start_card).wild
    assert len(s.draw) == 82 - 6 - n
    assert sorted(all_cards(s)) == list(range(1, 83))
    assert ENGINE.pending(s).seats == seats and ENGINE.pending(s).kind == "setup"


@pytest.mark.parametrize("n", [1, 5])
def test_player_count_2_to_4(n):
    with pytest.raises(ValueError):
        ENGINE.new_game([f"s{i}" for i in range(n)], seed=1)


def test_wild_starting_cards_go_back_and_pile_is_reshuffled():
    reshuffled = 0
    for seed in range(60):
        s = ENGINE.new_game(["s0", "s1", "s2", "s3"], seed=seed)
        assert all(not card(p.start_card).wild for p in s.players)
        assert sorted(all_cards(s)) == list(range(1, 83))
        if s.rng_calls == 3:  # deck shuffle, reshuffle of the wild cards, first player
            reshuffled += 1
    assert reshuffled > 0


def test_first_player_is_random():
    firsts = {ENGINE.new_game(["s0", "s1", "s2"], seed=seed).first for seed in range(30)}
    assert firsts == {0, 1, 2}


def test_setup_any_order_then_first_player_starts():
    s = ENGINE.new_game(["s0", "s1", "s2"], seed=5)
    start1 = s.players[1].start_card
    assert ENGINE.legal_actions(s, "s1") == [Place(space=i) for i in range(9)]
    s, ev = apply(s, "s1", Place(space=4))
    assert s.players[1].board[4] == start1 and s.players[1].start_card is None
    assert ENGINE.pending(s).seats == ["s0", "s2"]
    assert ev[0].type == "placed_start" and "row 2, column 2" in ev[0].text
    refused(s, "s1", Place(space=0), "already_placed")
    refused(s, "s0", Take(position=1), "wrong_step")
    s, _ = apply(s, "s2", Place(space=0))
    s, ev = apply(s, "s0", Place(space=8))
    assert s.phase == "turn" and s.active == s.first
    assert ENGINE.pending(s).seats == [s.seats[s.first]] and ENGINE.pending(s).kind == "turn"
    assert ev[-1].type == "turn"


def test_outsider_and_finished_refused():
    s = turn_state()
    refused(s, "x9", Take(position=1), "not_in_game")
    assert ENGINE.legal_actions(s, "x9") == []


# -- taking -----------------------------------------------------------------------------


ROW = [("LR1", 0, 0), ("AB1", 0, 0), ("AG2", 0, 0), ("LY3", 0, 0), ("AR4", 0, 0), ("LB4", 0, 0)]


def test_take_first_card_is_free_and_row_shifts_and_refills():
    s = turn_state(row=ROW)
    top = s.draw[-1]
    row_before = [r.card for r in s.row]
    s2, ev = apply(s, "s0", Take(position=1))
    assert s2.held == row_before[0]
    assert [r.card for r in s2.row] == row_before[1:] + [top]
    assert (s2.players[0].clovers, s2.players[0].carrots) == (3, 3)
    assert s2.phase == "choose_space" and s2.version == s.version + 1
    assert ev[0].type == "took" and ev[0].text.startswith("s0 takes card 1,")


def test_rulebook_fourth_card_payment_example():
    """Paulina wants the fourth card: clover on the llama, carrot on the first alpaca,
    no carrot left so 2 clovers on the second alpaca."""
    s = turn_state(row=ROW, treats={"s0": (3, 1)})
    fourth = s.row[3].card
    s2, ev = apply(s, "s0", Take(position=4))
    assert s2.held == fourth
    assert [(r.clovers, r.carrots) for r in s2.row[:3]] == [(1, 0), (0, 1), (2, 0)]
    assert (s2.players[0].clovers, s2.players[0].carrots) == (0, 0)
    assert ev[0].data["paid"] == [[1, 0], [0, 1], [2, 0]]
    assert "paying 3 clovers and 1 carrot" in ev[0].text


def test_take_cost_shown_in_view():
    s = turn_state(row=ROW, treats={"s0": (3, 1)})
    costs = [
        None if r.cost is None else (r.cost.clovers, r.cost.carrots)
        for r in ENGINE.view(s, "s0").row
    ]
    # pos 5 would need llama, alpaca, alpaca, llama: 1 clover, 1 carrot, 2 clovers, then no clover
    assert costs == [(0, 0), (1, 0), (1, 1), (3, 1), None, None]


def test_unaffordable_take_is_refused():
    s = turn_state(row=ROW, treats={"s0": (3, 1)})
    assert Take(position=5) not in ENGINE.legal_actions(s, "s0")
    assert Take(position=4) in ENGINE.legal_actions(s, "s0")
    refused(s, "s0", Take(position=5), "cannot_pay")


def test_taker_picks_up_treats_on_the_card():
    row = [("LR1", 0, 0), ("AB1", 2, 1), *ROW[2:]]
    s = turn_state(row=row)
    s2, ev = apply(s, "s0", Take(position=2))
    # paid a clover for the llama, picked up 2 clovers and 1 carrot
    assert (s2.players[0].clovers, s2.players[0].carrots) == (4, 4)
    assert (s2.row[0].clovers, s2.row[0].carrots) == (1, 0)
    assert "picking up 2 clovers and 1 carrot" in ev[0].text


def test_treat_limit_choice_and_excess_to_next_card():
    row = [("LR1", 0, 0), ("AB1", 0, 0), ("AG2", 3, 2), *ROW[3:]]
    s = turn_state(row=row, treats={"s0": (4, 4)})
    next_card = s.row[3].card
    s2, _ = apply(s, "s0", Take(position=3))
    # paid 1 clover + 1 carrot, holds 3+3 then picks up 3+2 -> 6 clovers 5 carrots = 11
    assert s2.phase == "keep_treats"
    assert s2.keep.model_dump() == {"clovers": 6, "carrots": 5, "target": 2}
    assert ENGINE.pending(s2).kind == "keep_treats"
    legal = ENGINE.legal_actions(s2, "s0")
    assert legal == [Keep(clovers=c, carrots=10 - c) for c in range(5, 7)]
    refused(s2, "s0", Keep(clovers=4, carrots=6), "bad_keep")
    refused(s2, "s0", Place(space=0), "wrong_step")
    s3, ev = apply(s2, "s0", Keep(clovers=6, carrots=4))
    assert (s3.players[0].clovers, s3.players[0].carrots) == (6, 4)
    assert s3.row[2].card == next_card and (s3.row[2].clovers, s3.row[2].carrots) == (0, 1)
    assert s3.phase == "choose_space"
    assert ev[0].text == "s0 keeps 6 clovers and 4 carrots and puts 1 carrot on card 3 of the row."


def test_treat_limit_on_last_card_goes_onto_refill():
    row = [*ROW[:5], ("LB4", 2, 2)]
    s = turn_state(row=row, treats={"s0": (5, 5)})
    refill = s.draw[-1]
    s2, _ = apply(s, "s0", Take(position=6))
    # Skipping L, A, A, L, A costs 2 clovers and 3 carrots; picking up 2 + 2 leaves
    # 5 clovers and 4 carrots = 9: under the limit, no choice.
    assert s2.phase == "choose_space"
    s = turn_state(row=[*ROW[:5], ("LB4", 4, 3)], treats={"s0": (5, 5)})
    s2, _ = apply(s, "s0", Take(position=6))
    # Picking up 4 + 3 instead: 7 clovers + 5 carrots = 12; the excess goes on the refill.
    assert s2.keep.model_dump() == {"clovers": 7, "carrots": 5, "target": 5}
    s3, _ = apply(s2, "s0", Keep(clovers=7, carrots=3))
    assert s3.row[5].card == refill and (s3.row[5].clovers, s3.row[5].carrots) == (0, 2)


def test_treat_limit_with_one_way_to_keep_is_automatic():
    row = [("AB1", 0, 3)] + ROW[1:]
    s = turn_state(row=row, treats={"s0": (0, 9)})
    s2, ev = apply(s, "s0", Take(position=1))
    assert s2.phase == "choose_space"
    assert (s2.players[0].clovers, s2.players[0].carrots) == (0, 10)
    assert (s2.row[0].clovers, s2.row[0].carrots) == (0, 2)
    assert [e.type for e in ev[:2]] == ["took", "kept"]


def test_empty_draw_pile_reshuffles_discard():
    s = turn_state(row=ROW)
    s.discard = s.draw[:10]
    s.draw = []
    s2, ev = apply(s, "s0", Take(position=1))
    assert len(s2.row) == 6 and len(s2.draw) == 9 and s2.discard == []
    assert any(e.type == "reshuffle" for e in ev)
    assert sorted(s2.draw + [s2.row[-1].card]) == sorted(s.discard)


def test_the_discard_pile_becomes_the_draw_pile_the_moment_the_draw_pile_empties():
    # RULES.md: cards scored after the draw pile ran out stay in the new discard pile.
    b = board("LR1", "LB1", ".", ".", ".", ".", ".", ".", ".")
    s = turn_state(row=[("LG1", 0, 0)] + ROW[1:], boards={"s0": b})
    old_discard = s.draw[:4]
    last = s.draw[4]
    s.discard, s.draw = old_discard, [last]
    s2, ev = apply(s, "s0", Take(position=1))  # draws the last card: the pile is empty
    assert s2.row[-1].card == last
    assert sorted(s2.draw) == sorted(old_discard) and len(s2.draw) == 4 and s2.discard == []
    assert [e.text for e in ev if e.type == "reshuffle"] == [
        "The discard pile is shuffled into a new draw pile of 4 cards."]
    s3, _ = apply(s2, "s0", Place(space=2))  # scores row 1: three llamas, 1-1-1
    assert s3.players[0].score == 4
    assert sorted(s3.draw) == sorted(old_discard)  # the scored cards are not shuffled in
    assert sorted(s3.discard) == sorted([b[0], b[1], s.row[0].card])


def test_both_piles_empty_row_stays_short():
    s = turn_state(row=ROW)
    s.draw, s.discard = [], []
    s2, _ = apply(s, "s0", Take(position=2))
    assert len(s2.row) == 5
    assert ENGINE.legal_actions(s2, "s0") == [Place(space=i) for i in range(9)]
    s3, _ = apply(s2, "s0", Place(space=0))
    assert [a for a in ENGINE.legal_actions(s3, "s1") if isinstance(a, Take)] == [
        Take(position=k) for k in range(1, 6)
    ]


# -- placing and moving -------------------------------------------------------------------


def test_place_on_empty_space_only():
    b = board("LR1", ".", ".", ".", ".", ".", ".", ".", ".")
    s = turn_state(row=ROW, boards={"s0": b})
    s2, _ = apply(s, "s0", Take(position=1))
    assert Place(space=0) not in ENGINE.legal_actions(s2, "s0")
    refused(s2, "s0", Place(space=0), "occupied")
    refused(s2, "s0", Take(position=1), "wrong_step")
    s3, ev = apply(s2, "s0", Place(space=4))
    assert s3.players[0].board[4] == s2.held and s3.held is None
    assert s3.phase == "turn" and s3.active == 1
    assert [e.type for e in ev] == ["placed", "turn"]
    assert ev[-1].text == "It is s1's turn."


def test_full_board_replaces_card_of_players_choice():
    b = board("LR1", "LB1", "LG4", "LY1", "LR3", "AB4", "LG2", "AY4", "LB3")
    s = turn_state(row=[("AG3", 0, 0)] + ROW[1:], boards={"s0": b})
    s2, _ = apply(s, "s0", Take(position=1))
    assert ENGINE.legal_actions(s2, "s0") == [Place(space=i) for i in range(9)]
    old = s2.players[0].board[4]
    s3, ev = apply(s2, "s0", Place(space=4))
    assert s3.players[0].board[4] == s2.held
    assert s3.discard == [old]
    assert ev[0].type == "replaced"


def test_move_to_empty_space_scores_only_lines_through_destination():
    # Row 1 would score (three llamas) if the card moved into space 2.
    b = board("LR1", "LB3", ".", ".", ".", ".", ".", ".", "LG4")
    s = turn_state(row=ROW, boards={"s0": b})
    legal_moves = [a for a in ENGINE.legal_actions(s, "s0") if isinstance(a, Move)]
    assert len(legal_moves) == 3 * 6
    refused(s, "s0", Move(src=3, dst=4), "empty_space")
    refused(s, "s0", Move(src=0, dst=1), "occupied")
    s2, ev = apply(s, "s0", Move(src=8, dst=2))
    assert s2.players[0].score == 2 and s2.players[0].board == [None] * 9
    assert sorted(s2.discard) == sorted(c for c in b if c)
    assert ev[0].type == "moved"
    assert ev[1].text == "s0 scores 2 points. Row 1: three llamas - 2 points. The 3 cards of the scored line go to the discard pile."


def test_not_your_turn():
    s = turn_state(row=ROW)
    refused(s, "s1", Take(position=1), "not_your_turn")
    assert ENGINE.legal_actions(s, "s1") == []


# -- scoring through the engine -------------------------------------------------------------


def test_rulebook_star_example_scores_4_and_discards():
    b = board("LR1", "LB1", ".", ".", ".", ".", ".", ".", ".")
    s = turn_state(row=[("LG*", 0, 0)] + ROW[1:], boards={"s0": b})
    s2, _ = apply(s, "s0", Take(position=1))
    s3, ev = apply(s2, "s0", Place(space=2))
    assert s3.players[0].score == 4
    assert s3.players[0].lines == [0, 1, 0]
    assert s3.players[0].board == [None] * 9
    assert sorted(s3.discard) == sorted([b[0], b[1], cid("LG*")])
    scored = next(e for e in ev if e.type == "scored")
    assert scored.text == "s0 scores 4 points. Row 1: three llamas and 1-1-1 - 4 points. The 3 cards of the scored line go to the discard pile."


def test_rulebook_white_bandana_example_cannot_score():
    b = board("LR1", "LB3", ".", ".", ".", ".", ".", ".", ".")
    s = turn_state(row=[("AW2", 0, 0)] + ROW[1:], boards={"s0": b})
    s2, _ = apply(s, "s0", Take(position=1))
    s3, ev = apply(s2, "s0", Place(space=2))
    assert s3.players[0].score == 0
    assert s3.players[0].board[:3] == [b[0], b[1], cid("AW2")]
    assert s3.discard == []
    assert (
        ev[1].type == "no_score" and ev[1].text == "Row 1 of s0's board is full but scores nothing."
    )


def test_row_and_column_at_once_both_score():
    b = board("LR1", "LB2", ".", ".", ".", "AG3", ".", ".", "AY3")
    s = turn_state(row=[("LG3", 0, 0)] + ROW[1:], boards={"s0": b})
    s2, _ = apply(s, "s0", Take(position=1))
    s3, ev = apply(s2, "s0", Place(space=2))
    assert s3.players[0].score == 6
    assert len(s3.discard) == 5
    scored = next(e for e in ev if e.type == "scored")
    assert scored.text == (
        "s0 scores 6 points. Row 1: three llamas and 1-2-3 - 4 points; Column 3: 3-3-3 - 2 points. "
        "The 5 cards of the scored lines go to the discard pile."
    )


def test_shared_wild_value_in_event():
    b = board(".", ".", "AR2", ".", ".", "AB3", "LR1", "LB1", ".")
    s = turn_state(row=[("LG*", 0, 0)] + ROW[1:], boards={"s0": b})
    s2, _ = apply(s, "s0", Take(position=1))
    s3, ev = apply(s2, "s0", Place(space=8))
    assert s3.players[0].score == 4
    scored = next(e for e in ev if e.type == "scored")
    assert "(the star counts as 4 in both lines). The 5 cards" in scored.text


# -- end of the game ----------------------------------------------------------------------------


def _score_once(s, seat):
    """Current player takes card 1 and places it on an empty far space without scoring."""
    s, _ = apply(s, seat, Take(position=1))
    empty = [i for i, c in enumerate(s.players[s.active].board) if c is None]
    return apply(s, seat, Place(space=empty[-1]))


def test_18_points_finishes_the_round():
    # 3 players, first = s1; s2 reaches 18 -> s0 (right of s1) plays, then the game ends.
    b = board("LR1", "LB1", ".", ".", ".", ".", ".", ".", ".")
    s = turn_state(
        ("s0", "s1", "s2"),
        row=[("LG*", 0, 0)] + ROW[1:],
        boards={"s2": b},
        scores={"s2": 14},
        first=1,
        active=2,
    )
    s, _ = apply(s, "s2", Take(position=1))
    s, ev = apply(s, "s2", Place(space=2))
    assert s.players[2].score == 18 and s.end_triggered
    assert any(e.type == "end_triggered" for e in ev)
    assert s.phase == "turn" and s.seats[s.active] == "s0"
    assert ENGINE.result(s) is None
    s, ev = _score_once(s, "s0")
    assert s.phase == "finished"
    assert ENGINE.pending(s).seats == []
    assert ENGINE.legal_actions(s, "s1") == []
    refused(s, "s1", Take(position=1), "game_over")
    res = ENGINE.result(s)
    assert res.winners == ["s2"] and res.scores == {"s0": 0, "s1": 0, "s2": 18}
    assert ev[-1].type == "game_over" and ev[-1].text == "s2 wins with 18 points."


def test_trigger_by_last_seat_of_round_ends_at_once():
    b = board("LR1", "LB1", ".", ".", ".", ".", ".", ".", ".")
    s = turn_state(
        row=[("LG*", 0, 0)] + ROW[1:], boards={"s1": b}, scores={"s1": 16}, first=0, active=1
    )
    s, _ = apply(s, "s1", Take(position=1))
    s, _ = apply(s, "s1", Place(space=2))
    assert s.phase == "finished" and ENGINE.result(s).winners == ["s1"]


def test_trigger_by_first_player_lets_others_play():
    b = board("LR1", "LB1", ".", ".", ".", ".", ".", ".", ".")
    s = turn_state(
        row=[("LG*", 0, 0)] + ROW[1:],
        boards={"s0": b},
        scores={"s0": 16, "s1": 17},
        first=0,
        active=0,
    )
    s, _ = apply(s, "s0", Take(position=1))
    s, _ = apply(s, "s0", Place(space=2))
    assert s.phase == "turn" and s.active == 1
    s, _ = _score_once(s, "s1")
    assert s.phase == "finished"
    assert ENGINE.result(s).scores == {"s0": 20, "s1": 17}


def _finished(scores, treats):
    s = turn_state(("s0", "s1", "s2"), scores=scores, treats=treats)
    s.phase = "finished"
    s.end_triggered = True
    return s


def test_tie_on_points_most_treats_wins():
    res = ENGINE.result(
        _finished({"s0": 18, "s1": 18, "s2": 10}, {"s0": (3, 3), "s1": (4, 3), "s2": (9, 1)})
    )
    assert res.winners == ["s1"]
    assert res.reason == "s1 wins with 18 points (tie on points, most treats: 7)."


def test_full_tie_is_shared_victory():
    res = ENGINE.result(
        _finished({"s0": 18, "s1": 18, "s2": 10}, {"s0": (3, 3), "s1": (2, 4), "s2": (9, 1)})
    )
    assert res.winners == ["s0", "s1"]
    assert res.reason == "Shared victory for s0, s1 with 18 points and 6 treats each."


def test_breakdown_adds_up():
    s = _finished({"s0": 12, "s1": 0, "s2": 0}, None)
    s.players[0].lines = [1, 1, 1]
    res = ENGINE.result(s)
    assert [(x.label, x.points) for x in res.breakdown["s0"]] == [
        ("1 line with 1 condition", 2),
        ("1 line with 2 conditions", 4),
        ("1 line with 3 conditions", 6),
        ("Treats held (tie-break): 6", 0),
    ]


# -- views, serialisation, contract -------------------------------------------------------------


def test_view_is_public_and_hides_draw_order():
    s = turn_state(row=ROW)
    v0, v1, spectator = ENGINE.view(s, "s0"), ENGINE.view(s, "s1"), ENGINE.view(s, None)
    assert v0.model_dump(exclude={"viewer"}) == spectator.model_dump(exclude={"viewer"})
    assert v1.viewer == "s1" and spectator.viewer is None
    assert v0.draw_count == len(s.draw) and "draw" not in v0.model_dump()
    assert v0.active == "s0" and v0.pending == ["s0"]
    # Two states differing only in draw order give the same view.
    t = s.model_copy(deep=True)
    t.draw = list(reversed(t.draw))
    assert ENGINE.view(t, "s0") == v0


def test_state_json_round_trip_and_parse_action():
    s = turn_state(row=ROW)
    assert LlamasAlpacasState.model_validate_json(s.model_dump_json()) == s
    assert ENGINE.parse_action({"type": "take", "position": 2}) == Take(position=2)
    assert ENGINE.parse_action('{"type": "move", "src": 1, "dst": 2}') == Move(src=1, dst=2)
    with pytest.raises(IllegalAction):
        ENGINE.parse_action({"type": "take", "position": 9})


def test_apply_does_not_mutate_input_and_bumps_version():
    s = turn_state(row=ROW)
    before = s.model_dump_json()
    s2, _ = apply(s, "s0", Take(position=3))
    assert s.model_dump_json() == before
    assert s2.version == s.version + 1


def test_treats_conserved_by_payment():
    s = turn_state(row=ROW, treats={"s0": (3, 1)})
    s2, _ = apply(s, "s0", Take(position=4))
    assert total_treats(s2) == total_treats(s)


def test_row_slot_model():
    assert RowSlot(card=1).model_dump() == {"card": 1, "clovers": 0, "carrots": 0}
