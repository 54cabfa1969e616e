"""Llamas Unleashed against Discord's spec in the pseudo-locale: a whole seeded game at
every player count (2-8) through the strict sandbox, every sentence about 40% longer
(select options, buttons, panels, the thread's lines), with no request refused and
every request conforming."""

from __future__ import annotations

import pytest

from bot.app import builtin_games
from bot.i18n import pseudo
from bot.sandbox.capture import capture_game
from bot.sandbox.conformance import Spec
from tests.conformance.test_games import check_whole_game

SPEC = builtin_games()["llamas-unleashed"]
PLAYERS = range(SPEC.min_players, SPEC.max_players + 1)


@pytest.mark.parametrize("players", PLAYERS, ids=[f"llamas-unleashed-{n}" for n in PLAYERS])
async def test_a_whole_unleashed_game_in_the_pseudo_locale_conforms_with_no_refusal(
        spec: Spec, record_property, players: int):
    requests = await capture_game("llamas-unleashed", players, 1, language="en_XA")
    check_whole_game(spec, record_property, "llamas-unleashed", players, requests, lang="en_XA")
    refused = [(r.method, r.path, r.status) for r in requests if r.status >= 400]
    assert refused == []
    bodies = " ".join(str(r.json) for r in requests)
    # The table, its choices and the thread's lines were in the pseudo-locale.
    for sentence in ("Choose your Baby", "Respond"):
        assert pseudo(sentence) in bodies, sentence
    assert pseudo("{name} chooses {card} for their Field.").split("{name}")[1].split(
        "{card}")[0] in bodies
    assert pseudo("It is {name}'s turn.").split("{name}")[0] in bodies
