"""AI policies and the registry spec for Llamas & Alpacas."""

import random

import pytest

from bot.ai.llamas_alpacas import heuristic_policy, random_policy
from bot.app import builtin_games
from bot.app.games import BUILTIN_PACKAGES
from bot.games.llamas_alpacas.models import Move, Place, Take
from bot.games.llamas_alpacas.spec import SPEC as RULES_SPEC
from bot.games.registry import Registry
from tests.games.llamas_alpacas.la_helpers import ENGINE, board, turn_state

#: The game as the bot offers it: its rules wired to its AI and cog (bot.app).
SPEC = builtin_games()["llamas-alpacas"]

ROW = [("LR1", 0, 0), ("AB1", 0, 0), ("AG2", 0, 0), ("LY3", 0, 0), ("AR4", 0, 0), ("LB4", 0, 0)]


def _play(seed, policies):
    seats = list(policies)
    s = ENGINE.new_game(seats, seed=seed)
    r = random.Random(seed * 7 + 1)
    while s.phase != "finished":
        seat = ENGINE.pending(s).seats[0]
        legal = ENGINE.legal_actions(s, seat)
        action = policies[seat](ENGINE.view(s, seat), legal, r)
        assert action in legal
        s, _ = ENGINE.apply(s, seat, action)
    return ENGINE.result(s)


def test_heuristic_beats_random_in_2_player_games():
    games, wins = 60, 0
    for g in range(games):
        h, o = (f"s{g % 2}", f"s{1 - g % 2}")
        res = _play(g, {"s0": None, "s1": None} | {h: heuristic_policy, o: random_policy})
        wins += res.winners == [h]
    assert wins / games >= 0.7


def test_heuristic_takes_the_scoring_card():
    b = board("LR1", "LB1", ".", ".", ".", ".", ".", ".", ".")
    # Position 3 (a llama with a 1) completes three llamas 1-1-1 for 4 points.
    s = turn_state(row=[("AB4", 0, 0), ("AY2", 0, 0), ("LG1", 0, 0), *ROW[3:]], boards={"s0": b})
    action = heuristic_policy(ENGINE.view(s, "s0"), ENGINE.legal_actions(s, "s0"), random.Random(1))
    assert action == Take(position=3)
    s2, _ = ENGINE.apply(s, "s0", action)
    place = heuristic_policy(
        ENGINE.view(s2, "s0"), ENGINE.legal_actions(s2, "s0"), random.Random(1)
    )
    assert place == Place(space=2)


def test_heuristic_moves_to_score():
    b = board("LR1", "LB3", ".", ".", ".", ".", ".", ".", "LG4")
    s = turn_state(row=[("AB4", 0, 0)] * 1 + ROW[1:], boards={"s0": b}, treats={"s0": (0, 0)})
    action = heuristic_policy(ENGINE.view(s, "s0"), ENGINE.legal_actions(s, "s0"), random.Random(2))
    assert action == Move(src=8, dst=2)


def test_policies_refuse_empty_legal():
    s = turn_state(row=ROW)
    with pytest.raises(ValueError):
        random_policy(ENGINE.view(s, "s0"), [], random.Random(0))
    with pytest.raises(ValueError):
        heuristic_policy(ENGINE.view(s, "s0"), [], random.Random(0))


def test_random_policy_returns_a_legal_action():
    s = turn_state(row=ROW)
    legal = ENGINE.legal_actions(s, "s0")
    r = random.Random(3)
    picks = {random_policy(ENGINE.view(s, "s0"), legal, r).type for _ in range(40)}
    assert picks == {"take"}  # empty board: no move possible
    assert len(legal) == 6


def test_spec():
    assert SPEC.key == "llamas-alpacas" and SPEC.name == "Llamas & Alpacas"
    assert (SPEC.min_players, SPEC.max_players) == (2, 4)
    assert SPEC.cog == "cogs.llamas_alpacas" and SPEC.policy is heuristic_policy
    # The game package names neither its AI nor its cog (imports point down).
    assert RULES_SPEC.cog == "" and RULES_SPEC.policy is None
    assert RULES_SPEC.engine is SPEC.engine
    assert len(SPEC.description) <= 100
    assert 200 < len(SPEC.rules_summary) < 1500
    assert SPEC.engine.key == SPEC.key
    assert "llamas_alpacas" in BUILTIN_PACKAGES  # builtin_games() imports this SPEC
    assert Registry([SPEC])["llamas-alpacas"] is SPEC
