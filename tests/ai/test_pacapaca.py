"""Alpaca Pacapaca seat policies: legal choices, sensible keeps and negotiation, strength."""

from __future__ import annotations

import random

import pytest

from bot.ai.pacapaca import evaluate, fashion_points, heuristic_policy, kept_length, random_policy
from bot.app import builtin_games
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import (
    Accept,
    Decline,
    Draw2,
    Keep,
    PacapacaOptions,
    Propose,
    StartNegotiation,
)
from bot.games.pacapaca.scoring import score_all
from bot.games.pacapaca.spec import SPEC as RULES_SPEC
from tests.games.pacapaca.pacapaca_helpers import c, state

#: The game as the bot offers it: its rules wired to its AI and cog (bot.app).
SPEC = builtin_games()["pacapaca"]

E = PacapacaEngine()


def run(seed, policies, n, babies=False):
    seats = [f"s{i}" for i in range(n)]
    s = E.new_game(seats, seed=seed, options=PacapacaOptions(babies=babies))
    r = random.Random(seed)
    steps = 0
    while s.phase != "finished":
        seat = E.pending(s).seats[0]
        legal = E.legal_actions(s, seat)
        action = policies[seats.index(seat)](E.view(s, seat), legal, r)
        assert E.is_legal(s, seat, action)
        s, _ = E.apply(s, seat, action)
        steps += 1
        assert steps < 3000
    return E.result(s)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_mixed_policies_play_legal_games_to_the_end(n):
    pols = [heuristic_policy if i % 2 == 0 else random_policy for i in range(n)]
    for seed in range(3):
        assert run(seed, pols, n, babies=True) is not None


def test_heuristic_beats_random_in_two_player_games():
    wins = 0
    games = 60
    for g in range(games):
        h = g % 2
        pols = [random_policy, random_policy]
        pols[h] = heuristic_policy
        res = run(1000 + g, pols, 2)
        wins += res.winners == [f"s{h}"]
    assert wins / games >= 0.7


def test_projected_points_without_hope_match_the_scorer():
    r = random.Random(5)
    for _ in range(200):
        mine = r.sample(range(60), r.randint(0, 14))
        neck = [x for x in mine if x < 56]
        babies = [x for x in mine if x >= 56]
        other = [x for x in range(56) if x not in mine][: r.randint(0, 10)]
        real = score_all({"me": (neck, babies), "o": (other, [])})["me"]
        assert kept_length(mine) == real.analysis.length
        approx = evaluate(mine, {"o": kept_length(other)}, hope=0.0, me="me")
        assert approx == pytest.approx(real.total + 0.15 * real.analysis.length)
    assert fashion_points([c("ribbon_left")], hope=1.0) > fashion_points([c("ribbon_left")])


def test_keeps_the_card_that_completes_a_bow():
    s = state({"a": [c("ribbon_left")], "b": []}, deck=[c("neck"), c("ribbon_right"), c("mud")])
    s, _ = E.apply(s, "a", Draw2())
    legal = E.legal_actions(s, "a")
    assert heuristic_policy(E.view(s, "a"), legal, random.Random(1)) == Keep(card=c("ribbon_right"))


def test_partner_accepts_a_good_deal_and_declines_a_bad_one():
    s = state(
        {
            "a": [c("ribbon_right", 0), c("neck", 0)],
            "b": [c("ribbon_left", 0), c("mud", 0)],
            "x": [],
        },
        deck=[c("neck", i) for i in range(1, 8)],
    )
    s, _ = E.apply(s, "a", StartNegotiation(partner="b"))
    good, _ = E.apply(s, "a", Propose(give=[c("ribbon_right", 0)], get=[c("mud", 0)]))
    act = heuristic_policy(E.view(good, "b"), E.legal_actions(good, "b"), random.Random(1))
    assert act == Accept(version=1)
    bad, _ = E.apply(s, "a", Propose(give=[c("neck", 0)], get=[c("ribbon_left", 0)]))
    act = heuristic_policy(E.view(bad, "b"), E.legal_actions(bad, "b"), random.Random(1))
    assert act == Decline()


def test_heuristic_does_not_negotiate_without_a_clear_mutual_gain():
    s = state({"a": [c("neck", 0)], "b": [c("neck", 1)]}, deck=[c("neck", i) for i in range(2, 8)])
    act = heuristic_policy(E.view(s, "a"), E.legal_actions(s, "a"), random.Random(1))
    assert act == Draw2()


def test_random_policy_returns_a_legal_action():
    s = E.new_game(["a", "b"], seed=1)
    seat = s.seats[s.active]
    legal = E.legal_actions(s, seat)
    assert random_policy(E.view(s, seat), legal, random.Random(2)) in legal


def test_spec():
    assert SPEC.key == "pacapaca" and SPEC.name == "Alpaca Pacapaca"
    assert (SPEC.min_players, SPEC.max_players) == (2, 6)
    assert SPEC.cog == "cogs.pacapaca" and SPEC.policy is heuristic_policy
    # The game package names neither its AI nor its cog (imports point down).
    assert RULES_SPEC.cog == "" and RULES_SPEC.policy is None
    assert RULES_SPEC.engine is SPEC.engine
    assert len(SPEC.rules_summary) < 1500 and len(SPEC.description) <= 100
    assert isinstance(SPEC.engine, PacapacaEngine) and SPEC.options_model is PacapacaOptions
