"""Llamas Unleashed AI seats and registry entry."""

from __future__ import annotations

import random

from bot.ai.unleashed import heuristic_policy, random_policy
from bot.app import builtin_games
from bot.games.unleashed.models import Activate, Choose, Pass, Play, Proceed, Respond
from bot.games.unleashed.spec import SPEC as RULES_SPEC
from tests.games.unleashed.unleashed_helpers import E, build, find, pass_turn, play

#: The game as the bot offers it: its rules wired to its AI and cog (bot.app).
SPEC = builtin_games()["llamas-unleashed"]


def _game(seed: int, policies: dict, n: int = 2, cap: int = 3000):
    rnd = random.Random(seed)
    st = E.new_game([f"s{i}" for i in range(n)], seed=seed)
    for _ in range(cap):
        if st.phase == "over":
            break
        seat = rnd.choice(E.pending(st).seats)
        legal = E.legal_actions(st, seat)
        action = policies[seat](E.view(st, seat), legal, rnd)
        assert action in legal
        st, _ = E.apply(st, seat, action)
    return st


def test_heuristic_beats_random_in_two_player_games():
    games, wins = 40, 0
    for g in range(games):
        h, r = (f"s{g % 2}", f"s{1 - g % 2}")
        st = _game(g, {h: heuristic_policy, r: random_policy})
        assert st.phase == "over"
        wins += st.result.winners == [h]
    assert wins >= 0.7 * games


def test_heuristic_games_with_many_players_finish():
    for n in (3, 6, 8):
        st = _game(100 + n, {f"s{i}": heuristic_policy for i in range(n)}, n=n)
        assert st.phase == "over"


def test_heuristic_plays_a_winning_animal_into_its_own_field():
    field = ["trail_llama", "sleepy_llama", "suri_alpaca", "meadow_goat", "woolly_ram",
             "cria_button"]
    st = build(hands={"s0": ["hay_harvest", "hilltop_ram"]}, fields={"s0": field})
    a = heuristic_policy(E.view(st, "s0"), E.legal_actions(st, "s0"), random.Random(1))
    assert isinstance(a, Play) and a.field == "s0" and E.view(st, "s0").hand[1].id == a.card


def test_heuristic_counters_a_dangerous_card_and_lets_a_harmless_one_pass():
    st = build(hands={"s0": ["stampede", "trail_llama"], "s1": ["llama_spit"]},
               fields={"s1": ["sleepy_llama"]})
    st1, _ = play(st, "s0", "stampede")
    a = heuristic_policy(E.view(st1, "s1"), E.legal_actions(st1, "s1"), random.Random(1))
    assert isinstance(a, Respond)
    st2, _ = play(st, "s0", "trail_llama")
    a = heuristic_policy(E.view(st2, "s1"), E.legal_actions(st2, "s1"), random.Random(1))
    assert a == Pass()


def test_spec():
    assert (SPEC.key, SPEC.name, SPEC.min_players, SPEC.max_players) == (
        "llamas-unleashed", "Llamas Unleashed", 2, 8)
    assert SPEC.cog == "cogs.unleashed" and SPEC.policy is heuristic_policy
    # The game package names neither its AI nor its cog (imports point down).
    assert RULES_SPEC.cog == "" and RULES_SPEC.policy is None
    assert RULES_SPEC.engine is SPEC.engine
    assert len(SPEC.rules_summary) < 1500 and len(SPEC.description) <= 100
    assert "llamas-unleashed" in builtin_games()


def test_heuristic_answers_the_leader_s_card_and_lets_a_trailing_player_s_pass():
    leader = ["trail_llama", "sleepy_llama", "suri_alpaca", "meadow_goat"]
    st = build(3, active="s2", hands={"s2": ["hay_harvest"], "s1": ["llama_spit"]},
               fields={"s0": leader, "s2": ["cria_button"]})
    st1, _ = play(st, "s2", "hay_harvest")  # s2 trails (1 Animal): let it draw
    a = heuristic_policy(E.view(st1, "s1"), E.legal_actions(st1, "s1"), random.Random(1))
    assert a == Pass()
    st = build(3, hands={"s0": ["hay_harvest"], "s1": ["llama_spit"]},
               fields={"s0": leader, "s2": ["cria_button"]})
    st2, _ = play(st, "s0", "hay_harvest")  # the leader's card is answered
    a = heuristic_policy(E.view(st2, "s1"), E.legal_actions(st2, "s1"), random.Random(1))
    assert isinstance(a, Respond) and a.card == find(st2, "llama_spit", st2.hands["s1"])


def test_heuristic_destroys_the_leader_s_animal_before_a_trailing_player_s_magical_one():
    st = build(3, hands={"s0": ["stampede", "trail_llama"]},
               fields={"s1": ["sleepy_llama", "suri_alpaca", "meadow_goat", "woolly_ram"],
                       "s2": ["spitfire_llama"]})
    st, _ = play(st, "s0", "stampede")
    a = heuristic_policy(E.view(st, "s0"), E.legal_actions(st, "s0"), random.Random(1))
    picked = st.choice.options[a.option]
    assert picked.label == "Sleepy Llama (s1)"


def test_heuristic_with_two_players_answers_an_opponent_level_with_it_not_one_behind():
    st = build(hands={"s0": ["hay_harvest"], "s1": ["llama_spit"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"]})
    st1, _ = play(st, "s0", "hay_harvest")  # level (1 Animal each): answered
    a = heuristic_policy(E.view(st1, "s1"), E.legal_actions(st1, "s1"), random.Random(1))
    assert isinstance(a, Respond)
    st = build(hands={"s0": ["hay_harvest"], "s1": ["llama_spit"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn", "woolly_ram"]})
    st2, _ = play(st, "s0", "hay_harvest")  # one behind: let it draw
    a = heuristic_policy(E.view(st2, "s1"), E.legal_actions(st2, "s1"), random.Random(1))
    assert a == Pass()


def _normal(st, seat="s0"):
    return heuristic_policy(E.view(st, seat), E.legal_actions(st, seat), random.Random(0))


def test_normal_skips_an_if_you_do_whose_second_part_has_nothing_to_act_on():
    # Battering Ram: nothing to destroy and no Downgrade to shed: No; with one: Yes.
    st, _ = play(build(hands={"s0": ["battering_ram"]}, fields={"s0": ["trail_llama"]}),
                 "s0", "battering_ram")
    assert [o.value for o in st.choice.options] == ["yes", "no"]
    assert _normal(st) == Choose(option=1)
    st, _ = play(build(hands={"s0": ["battering_ram"]}, fields={"s0": ["leaky_roof"]}),
                 "s0", "battering_ram")
    assert _normal(st) == Choose(option=0)
    # The Ram Herd Bonus and Sheepdog with no Animal to destroy: not used.
    st = pass_turn(build(active="s1", plays=1,
                         fields={"s0": ["woolly_ram", "curlhorn_ram", "lamb_acorn"],
                                 "s1": ["golden_bell"]}, hands={"s0": ["lasso", "stampede"]}))
    assert _normal(st) == Proceed()
    st = pass_turn(build(active="s1", plays=1,
                         fields={"s0": ["woolly_ram", "curlhorn_ram", "lamb_acorn"],
                                 "s1": ["trail_llama"]}, hands={"s0": ["lasso", "stampede"]}))
    assert _normal(st) == Activate(source="herd:ram")
    st = pass_turn(build(active="s1", plays=1, fields={"s0": ["sheepdog"],
                                                       "s1": ["spitfire_llama"]},
                         hands={"s0": ["hay_harvest"]}))
    assert _normal(st) == Proceed()
