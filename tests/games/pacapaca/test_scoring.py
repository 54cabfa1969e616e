"""Scoring with exact values (rulebook "Calculating the Score"; RULES.md scoring order)."""

from __future__ import annotations

import pytest

from bot.games.pacapaca.scoring import analyse, length_points, score_all
from tests.games.pacapaca.pacapaca_helpers import c


def lines(neck, babies=(), others=None):
    others = others or {}
    sc = score_all({"me": (neck, babies), **others})["me"]
    return [(x.label, x.points) for x in sc.lines], sc.total


# -- step 1: incomplete illustrations --------------------------------------------------


def test_ribbon_pair_complete_and_unmatched_half_removed():
    neck = [c("ribbon_left", 0), c("ribbon_right", 0), c("ribbon_left", 1)]
    a = analyse(neck)
    assert a.ribbons == [[c("ribbon_left", 0), c("ribbon_right", 0)]]
    assert a.removed == [c("ribbon_left", 1)]
    assert a.length == 2


def test_two_left_halves_make_no_ribbon():
    a = analyse([c("ribbon_left", 0), c("ribbon_left", 1)])
    assert a.ribbons == [] and len(a.removed) == 2 and a.length == 0


def test_scarf_top_and_bottom_without_middle_is_complete():
    a = analyse([c("scarf_top"), c("scarf_bottom")])
    assert a.scarves == [[c("scarf_top"), c("scarf_bottom")]]
    assert a.removed == []


def test_middles_join_complete_scarves_round_robin():
    neck = [c("scarf_top", 0), c("scarf_top", 1), c("scarf_bottom", 0), c("scarf_bottom", 1)]
    neck += [c("scarf_middle", i) for i in range(3)]
    a = analyse(neck)
    assert a.scarves == [
        [c("scarf_top", 0), c("scarf_middle", 0), c("scarf_middle", 2), c("scarf_bottom", 0)],
        [c("scarf_top", 1), c("scarf_middle", 1), c("scarf_bottom", 1)],
    ]
    assert a.removed == [] and a.length == 7


def test_middles_without_a_complete_scarf_are_removed():
    neck = [c("scarf_top"), c("scarf_middle", 0), c("scarf_middle", 1), c("neck")]
    a = analyse(neck)
    assert a.scarves == []
    assert sorted(a.removed) == sorted(neck[:3])
    assert a.kept == [c("neck")]


def test_extra_top_is_removed_but_middles_stay_with_the_complete_scarf():
    neck = [c("scarf_top", 0), c("scarf_top", 1), c("scarf_bottom"), c("scarf_middle")]
    a = analyse(neck)
    assert a.removed == [c("scarf_top", 1)]
    assert a.scarves == [[c("scarf_top", 0), c("scarf_middle"), c("scarf_bottom")]]


def test_order_on_the_neck_does_not_matter():
    neck = [c("scarf_bottom"), c("mud"), c("ribbon_right"), c("scarf_top"), c("ribbon_left")]
    a = analyse(neck)
    assert len(a.scarves) == 1 and len(a.ribbons) == 1 and a.removed == []


# -- step 2: neck length ---------------------------------------------------------------


def test_longest_4_second_2_rest_0():
    assert length_points({"a": 5, "b": 3, "c": 1}) == {"a": 4, "b": 2, "c": 0}


def test_tie_for_longest_3_each_and_no_second():
    assert length_points({"a": 5, "b": 5, "c": 3}) == {"a": 3, "b": 3, "c": 0}


def test_three_way_tie_for_longest():
    assert length_points({"a": 2, "b": 2, "c": 2}) == {"a": 3, "b": 3, "c": 3}


def test_tie_for_second_1_each():
    assert length_points({"a": 6, "b": 3, "c": 3, "d": 1}) == {"a": 4, "b": 1, "c": 1, "d": 0}


def test_two_players_longest_and_second():
    assert length_points({"a": 1, "b": 4}) == {"a": 2, "b": 4}


def test_removed_cards_do_not_count_for_length():
    sc = score_all(
        {
            "a": ([c("neck", 0), c("ribbon_left", 0), c("ribbon_left", 1)], []),
            "b": ([c("neck", 1), c("neck", 2)], []),
        }
    )
    assert sc["a"].analysis.length == 1
    assert sc["b"].lines[0].points == 4 and sc["a"].lines[0].points == 2


def test_mud_counts_for_length_and_costs_a_point_on_the_longest_neck():
    me = [c("mud", i) for i in range(4)]
    ls, total = lines(me, others={"o": ([c("neck")], [])})
    assert ls == [("Neck 4 long, longest", 4), ("Mud x4", -4)]
    assert total == 0


# -- step 3: fashion -------------------------------------------------------------------


def test_complete_ribbon_is_6():
    ls, total = lines([c("ribbon_left"), c("ribbon_right")], others={"o": ([], [])})
    assert ls == [("Neck 2 long, longest", 4), ("Bows x1", 6)]
    assert total == 10


def test_two_ribbons_12_and_unmatched_half_nothing():
    neck = [c("ribbon_left", 0), c("ribbon_right", 0), c("ribbon_left", 1), c("ribbon_right", 1)]
    neck.append(c("ribbon_right", 2))
    ls, total = lines(neck, others={"o": ([c("neck", i) for i in range(8)], [])})
    assert ls == [("Neck 4 long, second longest", 2), ("Bows x2", 12)]
    assert total == 14


def test_scarf_two_points_per_card_example_4pt_scarf():
    # rulebook example 3b: a top and a bottom make a 4-point scarf
    ls, _ = lines([c("scarf_top"), c("scarf_bottom")], others={"o": ([], [])})
    assert ("Scarves x1 (2 cards)", 4) in ls


def test_scarf_with_two_middles_is_8():
    neck = [c("scarf_top"), c("scarf_middle", 0), c("scarf_middle", 1), c("scarf_bottom")]
    ls, _ = lines(neck, others={"o": ([], [])})
    assert ("Scarves x1 (4 cards)", 8) in ls


def test_pendants_one_each_without_bonus():
    neck = [c("pendant_bell", 0), c("pendant_bell", 1), c("pendant_star")]
    ls, total = lines(neck, others={"o": ([c("neck", i) for i in range(5)], [])})
    assert ls == [("Neck 3 long, second longest", 2), ("Charms x3", 3)]
    assert total == 5


def test_all_four_pendants_plus_duplicates_gives_one_bonus():
    neck = [c(k) for k in ("pendant_bell", "pendant_heart", "pendant_star", "pendant_leaf")]
    neck += [c("pendant_bell", 1), c("pendant_heart", 1), c("pendant_leaf", 2)]
    ls, total = lines(neck, others={"o": ([c("neck", i) for i in range(8)], [])})
    assert ls == [
        ("Neck 7 long, second longest", 2),
        ("Charms x7", 7),
        ("All four charms bonus", 5),
    ]
    assert total == 14


def test_each_mud_is_minus_one():
    ls, total = lines(
        [c("mud", 0), c("mud", 1), c("neck")],
        others={"o": ([c("neck", i) for i in range(1, 5)], [])},
    )
    assert ls == [("Neck 3 long, second longest", 2), ("Mud x2", -2)]
    assert total == 0


# -- babies ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("neck", "babies", "expected"),
    [
        (["scarf_top", "scarf_bottom"], ["baby_male"], ("Baby boy x1", 3)),
        (["scarf_top"], ["baby_male"], ("Baby boy x1 (no scarf)", 0)),
        (["ribbon_left", "ribbon_right"], ["baby_female"], ("Baby girl x1", 3)),
        (
            ["ribbon_left", "scarf_top", "scarf_bottom"],
            ["baby_female"],
            ("Baby girl x1 (no bow)", 0),
        ),
    ],
)
def test_babies_need_their_fashion(neck, babies, expected):
    ls, _ = lines([c(k) for k in neck], [c(k) for k in babies], others={"o": ([], [])})
    assert expected in ls


def test_two_babies_of_each_with_both_fashions():
    neck = [c("scarf_top"), c("scarf_bottom"), c("ribbon_left"), c("ribbon_right")]
    babies = [c("baby_male", 0), c("baby_male", 1), c("baby_female", 0), c("baby_female", 1)]
    ls, total = lines(neck, babies, others={"o": ([], [])})
    assert ls == [
        ("Neck 4 long, longest", 4),
        ("Bows x1", 6),
        ("Scarves x1 (2 cards)", 4),
        ("Baby boy x2", 6),
        ("Baby girl x2", 6),
    ]
    assert total == 26


def test_babies_never_count_as_neck():
    sc = score_all(
        {"a": ([c("neck")], [c("baby_male"), c("baby_female")]), "b": ([c("neck", 1)], [])}
    )
    assert sc["a"].analysis.length == 1
    assert sc["a"].lines[0] == sc["b"].lines[0]
    assert sc["a"].lines[0].points == 3


def test_rulebook_example_1_partial_scarf_and_ribbon_removed():
    neck = [c("scarf_top"), c("ribbon_left"), c("neck"), c("pendant_star")]
    ls, total = lines(neck, others={"o": ([c("neck", 1)], [])})
    assert ls == [("Neck 2 long, longest", 4), ("Charms x1", 1)]
    assert total == 5


def test_tie_labels_say_what_each_tied_player_gets():
    # RULES.md, Alpaca Pacapaca, scoring step 2: a tie for longest gives 3 each and no second;
    # a tie for second gives 1 each. (A read-through found "tied longest" alone unclear.)
    plain = [c("neck", i) for i in range(6)]
    sc = score_all({"a": (plain[:3], []), "b": (plain[3:6], []), "c": ([], [])})
    assert [(x.label, x.points) for x in sc["a"].lines] == [
        ("Neck 3 long, tied longest, 3 each, no second place", 3)]
    assert sc["c"].lines[0].label == "Neck 0 long" and sc["c"].lines[0].points == 0
    sc = score_all({"a": (plain[:3], []), "b": (plain[3:4], []), "c": (plain[4:5], [])})
    assert [(x.label, x.points) for x in sc["b"].lines] == [("Neck 1 long, tied second, 1 each", 1)]
