"""Line scoring and payment helpers (rulebook "Scoring", "Sequence of Play";
RULES.md: Llamas & Alpacas, scoring and taking card k)."""

import pytest

from bot.games.llamas_alpacas.cards import card
from bot.games.llamas_alpacas.scoring import (
    card_key,
    check_line,
    digit_run,
    payment,
    score_placement,
)
from tests.games.llamas_alpacas.la_helpers import board, cid


def line(*codes):
    return tuple(card_key(card(cid(c))) for c in codes)


def cards_of(ids):
    return [None if i is None else card(i) for i in ids]


# -- the three conditions and their points ---------------------------------------------


def test_same_animal_only_is_2():
    chk = check_line(line("AR1", "AB3", "AG1"))
    assert (chk.animal, chk.colour, chk.digits, chk.points) == ("alpaca", None, None, 2)


def test_same_colour_of_mixed_accessories_is_2():
    chk = check_line(line("LR1", "AR3", "LR1"))  # caps and bandanas, all red
    assert (chk.animal, chk.colour, chk.digits, chk.points) == (None, "red", None, 2)


def test_same_digit_is_2():
    chk = check_line(line("LR2", "AB2", "LG2"))
    assert (chk.digits, chk.points) == ((2, 2, 2), 2)


@pytest.mark.parametrize(
    "codes,digits",
    [
        (("LR1", "AB2", "LG3"), (1, 2, 3)),
        (("LR4", "AB3", "LG2"), (4, 3, 2)),
        (("LR2", "AB3", "LG4"), (2, 3, 4)),
    ],
)
def test_runs_in_line_order_both_ways(codes, digits):
    chk = check_line(line(*codes))
    assert chk.digits == digits and chk.points == 2


@pytest.mark.parametrize(
    "codes", [("LR1", "AB3", "LG2"), ("LR1", "AB2", "LG4"), ("LR3", "AB2", "LG3")]
)
def test_not_a_run(codes):
    chk = check_line(line(*codes))
    assert chk.digits is None and chk.points == 0


def test_two_conditions_is_4():
    chk = check_line(line("AR1", "AR3", "AR4"))  # alpacas with red bandanas
    assert chk.conditions == 2 and chk.points == 4


def test_three_conditions_is_6():
    chk = check_line(line("AR2", "AR2", "AR2"))  # alpacas, red bandanas, digit 2
    assert chk.conditions == 3 and chk.points == 6
    assert chk.words() == "three alpacas and all red and 2-2-2"


def test_white_matches_any_colour():
    assert check_line(line("LW1", "AR3", "LR4")).colour == "red"
    assert check_line(line("LW1", "AW3", "LW4")).colour == "white"
    assert check_line(line("LW1", "AR3", "LB4")).colour is None



def test_a_white_card_that_counts_as_a_colour_is_said_in_words():
    # Found by a new-user read-through: "all yellow" read wrong with a white card in it.
    assert check_line(line("LR1", "AW3", "LR2")).words() == "all red (white counts as red)"
    assert check_line(line("LR1", "AR3", "LR2")).words() == "all red"
    assert check_line(line("LW1", "AW3", "LW4")).words() == "all white"

def test_star_is_any_digit():
    assert digit_run((1, None, 3)) == (1, 2, 3)
    assert digit_run((None, None, 4)) == (4, 4, 4)
    assert digit_run((4, None, 2)) == (4, 3, 2)
    assert digit_run((1, None, 4)) is None
    assert digit_run((1, 3, None)) is None  # 1,3,x: never equal nor a run


def test_words_for_the_ux_example():
    chk = check_line(line("LR1", "LB2", "LG3"))
    assert chk.words() == "three llamas and 1-2-3" and chk.points == 4


# -- placements -------------------------------------------------------------------------


def test_rulebook_example_star_completes_llama_row_for_4():
    """Adam: a llama with a green cap and a star makes a row of llamas whose other digits
    are 1: animal + digit (star as 1) = 4 points."""
    b = cards_of(board("LR1", "LB1", "LG*", ".", ".", ".", ".", ".", "."))
    res = score_placement(b, 2)
    assert res.points == 4
    assert [x.name for x in res.lines] == ["Row 1"]
    assert res.lines[0].check.digits == (1, 1, 1)
    assert res.removed == (0, 1, 2)
    assert res.lines[0].text() == "Row 1: three llamas and 1-1-1 - 4 points"


def test_rulebook_example_white_bandana_cannot_score():
    """Tom: an alpaca with a white bandana completes a row that meets no condition."""
    b = cards_of(board("LR1", "LB3", "AW2", ".", ".", ".", ".", ".", "."))
    res = score_placement(b, 2)
    assert res.points == 0 and res.lines == () and res.removed == ()
    assert res.full_lines == ("Row 1",)


def test_row_and_column_both_score_and_shared_card_discarded_once():
    b = cards_of(board("LR1", "LB2", "LG3", ".", ".", "AG3", ".", ".", "AY3"))
    res = score_placement(b, 2)
    # Row 1: three llamas and 1-2-3 (4); Column 3: 3-3-3 (2)
    assert [(x.name, x.points) for x in res.lines] == [("Row 1", 4), ("Column 3", 2)]
    assert res.points == 6
    assert res.removed == (0, 1, 2, 5, 8)


def test_shared_star_gets_one_digit_for_both_lines():
    """The star would be 1 for the row and 4 for the column; one value serves both lines."""
    b = cards_of(board(".", ".", "AB3", ".", ".", "AR2", "LR1", "LB1", "LG*"))
    # Row 3: three llamas, digits 1-1-star: animal + digits if star = 1 (4 points).
    # Column 3 top to bottom: 3, 2, star -> a run 3-2-1 if star = 1 (2 points).
    res = score_placement(b, 8)
    assert res.points == 4 + 2 and res.wild_choice == (1, None)


def test_shared_star_conflicting_values_picks_most_points():
    b = cards_of(board(".", ".", "AR2", ".", ".", "AB3", "LR1", "LB1", "LG*"))
    # Row 3 wants star = 1 (animal + digit = 4, else animal = 2);
    # Column 3 (2, 3, star) wants star = 4 (digit = 2, else nothing).
    # Independently 4 + 2 = 6; with one shared value: 4 + 0 or 2 + 2 = 4.
    res = score_placement(b, 8)
    assert res.points == 4
    # Equal totals: herdbot prefers scoring both lines (star as 4).
    assert res.wild_choice == (4, None)
    assert [(x.name, x.points) for x in res.lines] == [("Row 3", 2), ("Column 3", 2)]
    assert res.removed == (2, 5, 6, 7, 8)
    assert cid("LG*") in [c.id for c in b if c]


def test_shared_white_gets_one_colour_for_both_lines():
    # Row 1: red, red, white -> colour if white = red; Column 3: blue, blue below -> if blue.
    b = cards_of(board("LR1", "AR3", "AW2", ".", ".", "LB4", ".", ".", "AB1"))
    res = score_placement(b, 2)
    # Row 1 is all red if white = red; Column 3 (2, 4, 1; A, L, A) is all blue if white =
    # blue. One value cannot serve both lines: 2 points, one line; red comes first.
    assert res.points == 2
    assert [x.name for x in res.lines] == ["Row 1"]
    assert res.wild_choice is None  # only one line scored
    assert res.removed == (0, 1, 2)


def test_non_full_line_is_not_checked():
    b = cards_of(board("LR1", "LR1", ".", "LB1", ".", ".", ".", ".", "."))
    assert score_placement(b, 0).points == 0


def test_score_placement_on_empty_space_raises():
    with pytest.raises(ValueError):
        score_placement([None] * 9, 4)


# -- payment -----------------------------------------------------------------------------


def test_first_card_is_free():
    assert payment(["llama", "alpaca"], 0, 0, 1) == []


def test_rulebook_payment_example():
    """Paulina takes the fourth card: clover on the llama, carrot on the first alpaca, and
    having no carrot left, 2 clovers on the second alpaca."""
    assert payment(["llama", "alpaca", "alpaca", "llama"], 3, 1, 4) == [(1, 0), (0, 1), (2, 0)]


def test_two_carrots_for_a_llama_without_clover():
    assert payment(["llama"] * 2, 0, 2, 2) == [(0, 2)]


def test_cannot_pay_every_skipped_card():
    # carrot on alpaca 1, two clovers on alpaca 2, nothing left for the llama
    assert payment(["alpaca", "alpaca", "llama", "llama"], 2, 1, 4) is None
    assert payment(["alpaca", "alpaca", "alpaca"], 1, 1, 3) is None
    assert payment(["llama", "alpaca"], 0, 1, 3 - 1) is None  # llama needs 1 clover or 2 carrots


def test_payment_position_outside_row_raises():
    with pytest.raises(ValueError):
        payment(["llama"], 3, 3, 2)


def test_affordable_matches_payment():
    import itertools

    from bot.games.llamas_alpacas.scoring import affordable

    for animals in itertools.product(["llama", "alpaca"], repeat=6):
        for cl in range(0, 8):
            for ca in range(0, 8):
                n = affordable(list(animals), cl, ca)
                ok = [payment(list(animals), cl, ca, k) is not None for k in range(1, 7)]
                assert ok == [k <= n for k in range(1, 7)]
