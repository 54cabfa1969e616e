"""The result card's words and numbers: places, rating changes, headline and length."""

from __future__ import annotations

import pytest

from bot.games.base import Result
from bot.present.base import Presenter
from bot.present.result_card import CardRow, card_inputs, change_text, places
from bot.render.result_card import result_card


def test_winners_come_first_then_scores_and_equals_share_a_place():
    result = Result(scores={"s0": 5, "s1": 9, "s2": 9, "s3": 7, "s4": 9}, winners=["s2"])
    assert places(result, ["s0", "s1", "s2", "s3", "s4"]) == [
        ("s2", 1), ("s1", 2), ("s4", 2), ("s3", 4), ("s0", 5)]


@pytest.mark.parametrize("after,before,shown", [
    (3.26, 1.0, ("+2.3", 1)), (-1.0, 0.25, ("\N{MINUS SIGN}1.2", -1)),
    (2.04, 2.0, ("\N{PLUS-MINUS SIGN}0.0", 0))])
def test_a_rating_change_shows_its_sign_and_trend(after, before, shown):
    assert change_text(after, before) == shown


def test_card_inputs_of_a_rated_game_with_an_ai_seat_and_a_shared_win():
    result = Result(scores={"s0": 12, "s1": 12, "s2": 3}, winners=["s0", "s1"])
    names = {"s0": "Ana", "s1": "Bo *bold*", "s2": "AI Pancho"}
    inputs = card_inputs(Presenter(), game="Tiny Race", game_id=7, view=None, result=result,
                         names=names, seats=["s0", "s1", "s2"],
                         changes={"s0": (4.5, None), "s1": (1.0, 2.25)}, minutes=1)
    assert inputs == {
        "title": "Tiny Race \N{MIDDLE DOT} game #7",
        "headline": "Ana and Bo *bold* win",
        "rows": [CardRow(1, "Ana", 12, "+4.5", 1, True),
                 CardRow(1, "Bo *bold*", 12, "\N{MINUS SIGN}1.2", -1, True),
                 CardRow(3, "AI Pancho", 3, "", 0, False)],
        "length": "1 min",
        "highlight": "",
        "rated": True,
        "lang": "en",
    }
    pic = result_card(**inputs)
    assert (pic.size, pic.phone_text_px) == ((800, 448), 14.375)


def test_an_unrated_card_has_no_rating_column_and_nobody_may_win():
    result = Result(scores={"s0": 0, "s1": 0}, winners=[])
    inputs = card_inputs(Presenter(), game="Tiny Race", game_id=8, view=None, result=result,
                         names={"s0": "Ana", "s1": "Bo"}, seats=["s0", "s1"], changes={},
                         minutes=12)
    assert (inputs["headline"], inputs["rated"], inputs["length"]) == ("Nobody wins", False, "12 min")
    assert [(r.place, r.change) for r in inputs["rows"]] == [(1, ""), (1, "")]
    with pytest.raises(ValueError, match="a result card has 1 to 8 rows, not 0"):
        result_card(**{**inputs, "rows": []})


@pytest.mark.parametrize("lang,shown", [
    ("de", ("+2,3", "\N{MINUS SIGN}1,2", "\N{PLUS-MINUS SIGN}0,0")),
    ("pl", ("+2,3", "\N{MINUS SIGN}1,2", "\N{PLUS-MINUS SIGN}0,0")),
    ("en_XA", ("+2.3", "\N{MINUS SIGN}1.2", "\N{PLUS-MINUS SIGN}0.0"))])
def test_a_rating_change_is_written_the_languages_way(lang, shown):
    assert tuple(change_text(a, b, lang)[0] for a, b in ((3.26, 1.0), (-1.0, 0.25), (2.04, 2.0))
                 ) == shown


@pytest.mark.parametrize("lang,expected", [
    ("de", ("Tiny Race \N{MIDDLE DOT} Spiel Nr. 7", "Ana und Bo gewinnen",
            "3 Züge \N{MIDDLE DOT} 1 Min.", "+4,5")),
    ("fr", ("Tiny Race \N{MIDDLE DOT} partie n° 7", "Ana et Bo gagnent",
            "3 tours \N{MIDDLE DOT} 1 min", "+4,5")),
    ("pl", ("Tiny Race \N{MIDDLE DOT} gra nr 7", "Wygrywają Ana i Bo",
            "3 tury \N{MIDDLE DOT} 1 min", "+4,5")),
])
def test_card_inputs_in_the_games_language(lang, expected):
    class Counted(Presenter):
        def turns(self, view):
            return 3

    result = Result(scores={"s0": 12, "s1": 12}, winners=["s0", "s1"])
    inputs = card_inputs(Counted(), game="Tiny Race", game_id=7, view=None, result=result,
                         names={"s0": "Ana", "s1": "Bo"}, seats=["s0", "s1"],
                         changes={"s0": (4.5, None)}, minutes=1, lang=lang)
    assert (inputs["title"], inputs["headline"], inputs["length"],
            inputs["rows"][0].change) == expected
    assert inputs["lang"] == lang
    pic = result_card(**inputs)
    assert (pic.size, pic.phone_text_px) == ((800, 388), 14.375)  # two rows


def test_one_winner_and_nobody_in_polish():
    result = Result(scores={"s0": 1, "s1": 0}, winners=["s0"])
    one = card_inputs(Presenter(), game="G", game_id=1, view=None, result=result,
                      names={"s0": "Ana", "s1": "Bo"}, seats=["s0", "s1"], changes={},
                      minutes=5, lang="pl")
    assert (one["headline"], one["length"]) == ("Wygrywa Ana", "5 min")
    nobody = card_inputs(Presenter(), game="G", game_id=1, view=None,
                         result=Result(scores={"s0": 0}, winners=[]), names={"s0": "Ana"},
                         seats=["s0"], changes={}, minutes=5, lang="pl")
    assert nobody["headline"] == "Nikt nie wygrywa"
