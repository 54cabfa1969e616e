"""Alpaca Pacapaca in the pseudo-locale against Discord's spec: a whole seeded game at
every player count through the strict sandbox (every sentence about 40% longer: the
table, the negotiation panel, the deal editor, the Keep panel, the thread's lines and
the scoring), with no request refused and every request conforming."""

from __future__ import annotations

import re

import pytest

from bot.app import builtin_games
from bot.i18n import pseudo
from bot.sandbox.capture import capture_game
from bot.sandbox.conformance import Spec
from tests.conformance.test_games import check_whole_game

PLAYERS = range(builtin_games()["pacapaca"].min_players,
                builtin_games()["pacapaca"].max_players + 1)


def test_every_player_count_is_played():
    assert list(PLAYERS) == [2, 3, 4, 5, 6]


def head(sentence: str) -> str:
    """The longest run of the pseudo-locale's words of ``sentence`` between its
    placeholders."""
    return max(re.split(r"\{[^{}]*\}", pseudo(sentence)), key=len)


@pytest.mark.parametrize("players", PLAYERS, ids=[f"pacapaca-{n}" for n in PLAYERS])
async def test_a_whole_pacapaca_game_in_the_pseudo_locale_conforms_with_no_refusal(
        spec: Spec, record_property, players: int):
    requests = await capture_game("pacapaca", players, 1, language="en_XA")
    check_whole_game(spec, record_property, "pacapaca", players, requests, lang="en_XA")
    refused = [(r.method, r.path, r.status) for r in requests if r.status >= 400]
    assert refused == []
    bodies = " ".join(str(r.json) for r in requests)
    # The table's choices, its turn line, the thread's lines and the scoring were in the
    # pseudo-locale.
    for sentence in ("Draw 2", "Negotiate", "draw 2"):
        assert pseudo(sentence) in bodies, sentence
    assert len(head("It is {name}'s turn.")) > 5
    for sentence in ("{name} drew two cards and is choosing one.", "It is {name}'s turn.",
                     "Deck {deck} \N{MIDDLE DOT} discard pile {pile}",
                     "**Step 3 of 3: bows, scarves, charms, mud and babies.**"):
        assert head(sentence) in bodies, sentence
    # The negotiations of the seeded games (from 3 players): the thread's line and the panel.
    if players >= 3:
        for sentence in ("{name} opened a negotiation with {partner} ({count} seconds).",
                         "Proposals left: {count}.", "Edit deal", "Accept deal v{version}"):
            assert head(sentence) in bodies, sentence
    # Nothing of the English table is left.
    for english in ("Take discard pile (", "is choosing which of two drawn cards",
                    "Step 2 of 3: neck lengths"):
        assert english not in bodies, english
