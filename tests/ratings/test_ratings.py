"""bot.ratings: ranks from a Result, ratings exact against openskill, AI fixed ratings."""

from __future__ import annotations

import pytest

from bot.games.base import Result
from bot.ratings import AI_RATINGS, DEFAULT_MU, DEFAULT_SIGMA, Entry, Rating, ai_rating, ranks, rate
from tests.support.ratings import library


def test_ranks_put_winners_first_then_scores_with_shared_places():
    result = Result(scores={"a": 5, "b": 9, "c": 5, "d": 7, "e": 9}, winners=["b", "e"])
    assert ranks(result, ["a", "b", "c", "d", "e"]) == {"b": 0, "e": 0, "d": 2, "a": 3, "c": 3}
    # a tie-break winner ranks ahead of an equal score (Llamas & Alpacas: most treats)
    result = Result(scores={"a": 18, "b": 18}, winners=["b"])
    assert ranks(result, ["a", "b"]) == {"b": 0, "a": 1}
    # everyone loses (Unleashed's full tie): all share the last place after no winner
    assert ranks(Result(scores={"a": 3, "b": 3}, winners=[]), ["a", "b"]) == {"a": 0, "b": 0}


@pytest.mark.parametrize("players", [2, 4, 8])
def test_ratings_are_exactly_the_librarys_with_a_tie(players):
    # members at different ratings; seats 1 and 2 (or 0 and 1 of two) share a place
    current = {100 + i: Rating(20.0 + 2 * i, 8.0 - 0.5 * i) for i in range(players)}
    places = [0, 0] + list(range(2, players)) if players == 2 else [0, 1, 1, *range(3, players)]
    entries = [Entry(f"s{i}", 100 + i, None, places[i]) for i in range(players)]
    after = rate("pacapaca", entries, current)
    # the tied pair takes its two places in turn
    first = [0, 1] if players == 2 else [0, 1, 2, *range(3, players)]
    second = [1, 0] if players == 2 else [0, 2, 1, *range(3, players)]
    want = library([(current[100 + i].mu, current[100 + i].sigma) for i in range(players)],
                    first, second)
    assert [(after[f"s{i}"].mu, after[f"s{i}"].sigma) for i in range(players)] == want


def test_a_shared_first_place_rates_above_the_third_and_between_first_and_second():
    entries = [Entry(f"s{i}", 100 + i, None, p) for i, p in enumerate([0, 0, 2, 3])]
    tied = rate("pacapaca", entries, {})
    alone = rate("pacapaca", [Entry(f"s{i}", 100 + i, None, i) for i in range(4)], {})
    assert tied["s0"] == tied["s1"]
    assert alone["s1"].mu < tied["s0"].mu < alone["s0"].mu
    assert tied["s0"].mu > tied["s2"].mu > tied["s3"].mu


def test_an_unrated_member_starts_at_the_default_and_ordinal_is_mu_minus_3_sigma():
    entries = [Entry("s0", 1, None, 0), Entry("s1", 2, None, 1)]
    after = rate("pacapaca", entries, {})
    want = library([(DEFAULT_MU, DEFAULT_SIGMA)] * 2, [0, 1])
    assert [(after[s].mu, after[s].sigma) for s in ("s0", "s1")] == want
    assert after["s0"].ordinal == want[0][0] - 3 * want[0][1]


def test_ai_seats_play_at_their_fixed_rating_and_never_change():
    entries = [Entry("s0", 1, None, 1), Entry("s1", None, "hard", 0),
               Entry("s2", None, "easy", 2)]
    after = rate("llamas-alpacas", entries, {1: Rating(30.0, 4.0)})
    hard, easy = AI_RATINGS["llamas-alpacas"]["hard"], AI_RATINGS["llamas-alpacas"]["easy"]
    assert (after["s1"].mu, after["s1"].sigma) == hard
    assert (after["s2"].mu, after["s2"].sigma) == easy
    assert (after["s0"].mu, after["s0"].sigma) == library([(30.0, 4.0), hard, easy],
                                                           [1, 0, 2])[0]
    assert ai_rating("llamas-alpacas", "unknown") == Rating(*AI_RATINGS["llamas-alpacas"]["normal"])
    assert ai_rating("tiny", "hard") == Rating()
    # every shipped game has all three levels, Normal at a new member's rating, Easy below
    assert sorted(AI_RATINGS) == ["llamas-alpacas", "llamas-unleashed", "pacapaca"]
    for kind, levels in AI_RATINGS.items():
        assert sorted(levels) == ["easy", "hard", "normal"], kind
        assert levels["easy"][0] < levels["normal"][0] == DEFAULT_MU, kind


def test_a_game_needs_two_seats():
    with pytest.raises(ValueError):
        rate("pacapaca", [Entry("s0", 1, None, 0)], {})
