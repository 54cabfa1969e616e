"""Llamas Unleashed rules: every rulebook sentence and RULES.md ruling as an exact test."""

from __future__ import annotations

import pytest

from bot.games.base import IllegalAction, Timeout
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.effects.statics import (
    animal_count,
    animals_to_win,
    base_to_win,
    herd_kinds,
)
from bot.games.unleashed.models import (
    Activate,
    Choose,
    ChooseBaby,
    DrawCard,
    Frame,
    Pass,
    Play,
    Proceed,
    Respond,
    UnleashedOptions,
)
from tests.games.unleashed.unleashed_helpers import (
    E,
    act,
    build,
    find,
    keys,
    pass_turn,
    pick,
    pick_key,
    play,
    total,
)

CAT = catalog()


# -- set-up -------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 9])
def test_player_count_outside_2_to_8_is_refused(n):
    with pytest.raises(ValueError):
        E.new_game([f"s{i}" for i in range(n)], seed=1)


def test_setup_each_player_chooses_a_baby_then_5_cards_and_a_random_first_player():
    st = E.new_game(["s0", "s1", "s2"], seed=11)
    p = E.pending(st)
    assert (p.kind, p.seats, p.key, p.seconds) == ("setup", ["s0", "s1", "s2"], "setup", 60.0)
    assert p.timeouts == [Timeout(seat=s, action={"type": "baby", "card": None})
                          for s in ["s0", "s1", "s2"]]
    assert len(st.deck) == 116 and len(st.nursery) == 12
    assert len(E.legal_actions(st, "s0")) == 13  # 12 Babies + "pick for me"
    st, _ = act(st, "s1", ChooseBaby(card=4))
    assert st.fields["s1"] == [4] and E.pending(st).seats == ["s0", "s2"]
    assert E.legal_actions(st, "s1") == []
    st, _ = act(st, "s0", ChooseBaby(card=0))
    st, ev = act(st, "s2", ChooseBaby(card=None))  # the timeout: a random Baby
    assert len(st.fields["s2"]) == 1 and CAT[st.fields["s2"][0]].type == "baby"
    assert len(st.nursery) == 9
    assert all(len(st.hands[s]) == 5 or (s == st.active and len(st.hands[s]) == 6)
               for s in st.seats)
    assert len(st.deck) == 116 - 15 - 1 and st.turn == 1 and st.phase == "action"
    firsts = {E.replay(["a", "b", "c", "d"], seed=seed, options=UnleashedOptions(), actions=[
        (s, ChooseBaby(card=i)) for i, s in enumerate("abcd")]).active for seed in range(30)}
    assert firsts == {"a", "b", "c", "d"}  # the first player is random


def test_dealt_hands_are_private():
    st = E.new_game(["s0", "s1"], seed=2)
    st, _ = act(st, "s0", ChooseBaby(card=0))
    st, ev = act(st, "s1", ChooseBaby(card=3))
    private = [e for e in ev if e.type == "dealt_private"]
    assert [e.to for e in private] == [["s0"], ["s1"], ["s1"]]
    assert all(e.to is None for e in ev if e.type in ("dealt", "dealt_extra"))


def test_with_two_players_the_second_player_is_dealt_a_sixth_card():
    """RULES.md ruling (balance): with 2 players, the player who goes second is dealt a
    sixth card; with 3 or more nobody is."""
    st = E.new_game(["s0", "s1"], seed=2)
    st, _ = act(st, "s0", ChooseBaby(card=0))
    st, ev = act(st, "s1", ChooseBaby(card=3))
    assert st.active == "s0" and len(st.hands["s0"]) == 6 and len(st.hands["s1"]) == 6
    sixth = st.hands["s1"][-1]
    assert [e.text for e in ev if e.type in ("first", "dealt_extra")] == [
        "s0 goes first.", "s1 goes second and is dealt a sixth card."]
    assert [e.text for e in ev if e.type == "dealt_private"][-1] == (
        f"Your sixth card: {CAT[sixth].name}.")
    assert len(st.deck) == 116 - 11 - 1
    st = E.new_game(["s0", "s1", "s2"], seed=2)
    for i, s in enumerate(st.seats):
        st, ev = act(st, s, ChooseBaby(card=i))
    assert "dealt_extra" not in [e.type for e in ev]
    assert sorted(len(h) for h in st.hands.values()) == [5, 5, 6]


# -- the four phases ----------------------------------------------------------------------------


def test_turn_has_four_phases_start_draw_action_end():
    st = build(active="s1", plays=1, fields={"s0": ["feed_trough"]}, hands={"s0": ["lasso"]},
               deck=["trail_llama", "stampede", "hay_harvest"])
    st = pass_turn(st)  # s1 draws trail_llama in its Action phase; s0's turn starts
    assert (st.active, st.phase, st.turn) == ("s0", "start", 2)
    assert E.pending(st).kind == "turn" and E.pending(st).seats == ["s0"]
    st, _ = act(st, "s0", Proceed())  # Draw phase: exactly one card
    assert st.phase == "action" and keys(st.hands["s0"]) == ["lasso", "stampede"]
    assert E.legal_actions(st, "s0") == [DrawCard()]  # Lasso has no target
    st, _ = act(st, "s0", DrawCard())  # the action may be "draw one more"
    assert keys(st.hands["s0"]) == ["lasso", "stampede", "hay_harvest"]
    assert st.active == "s1" and st.phase == "action"


def test_optional_start_effects_are_lost_after_moving_on():
    st = build(active="s1", plays=1, fields={"s0": ["feed_trough"]})
    st = pass_turn(st)
    src = f"card:{st.fields['s0'][0]}"
    assert Activate(source=src) in E.legal_actions(st, "s0")
    st, _ = act(st, "s0", Proceed())
    assert not any(isinstance(a, Activate) for a in E.legal_actions(st, "s0"))
    assert E.view(st, "s0").triggers == []


def test_each_optional_effect_once_per_turn():
    st = build(active="s1", plays=1, fields={"s0": ["feed_trough", "feed_trough"]})
    st = pass_turn(st)
    a, b = st.fields["s0"]
    st, _ = act(st, "s0", Activate(source=f"card:{a}"))
    assert E.legal_actions(st, "s0") == [Activate(source=f"card:{b}"), Proceed()]


def test_mandatory_start_effects_resolve_before_optional_ones():
    st = build(active="s1", plays=1, fields={"s0": ["feed_trough", "itchy_fleece"]},
               hands={"s0": ["lasso", "stampede"]})
    st = pass_turn(st)
    assert st.choice is not None and st.choice.seat == "s0"
    assert all(isinstance(a, Choose) for a in E.legal_actions(st, "s0"))
    st, _ = pick_key(st, "lasso")
    assert Activate(source=f"card:{st.fields['s0'][0]}") in E.legal_actions(st, "s0")


def test_forced_impossible_effect_is_ignored():
    st = build(active="s1", plays=1, fields={"s0": ["itchy_fleece"]})
    st = pass_turn(st)  # nothing to discard: ignored, straight to the Draw phase
    assert st.phase == "action" and st.choice is None and len(st.hands["s0"]) == 1


def test_end_of_turn_discards_down_to_the_hand_limit_of_7():
    st = build(plays=1, hands={"s0": ["lasso"] * 3 + ["stampede"] * 3 + ["rummage"]})
    st, _ = act(st, "s0", DrawCard())
    assert st.phase == "end" and st.choice.seat == "s0" and len(st.choice.options) == 8
    st, ev = pick_key(st, "rummage")
    assert len(st.hands["s0"]) == 7 and st.active == "s1"
    assert [e.text for e in ev if e.type == "discard"] == ["s0 discards Rockslide."]


def test_two_over_the_limit_discards_two():
    st = build(plays=1, hands={"s0": ["lasso"] * 3 + ["stampede"] * 3 + ["rummage"] * 2},
               fields={"s0": []})
    st, _ = act(st, "s0", DrawCard())
    st, _ = pick_key(st, "rummage")
    assert st.choice is not None and st.active == "s0"
    st, _ = pick_key(st, "rummage")
    assert len(st.hands["s0"]) == 7 and st.active == "s1"


def test_skipped_turn():
    st = build(3, plays=1, hands={"s0": ["snowed_in"]})
    st, _ = play(st, "s0", "snowed_in")
    st, _ = pick(st, "ss2")  # s1 goes next, then s2 is skipped
    assert st.active == "s1" and st.skip_next == ["s2"]
    st = pass_turn(st, "s1")
    assert st.active == "s0" and st.skip_next == []


# -- winning --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n,need", [(2, 7), (3, 7), (4, 7), (5, 7), (6, 6), (7, 6), (8, 6)])
def test_animals_needed_by_player_count(n, need):
    st = build(n)
    assert base_to_win(st) == need and animals_to_win(st, "s0") == need


def test_six_animals_win_with_six_players():
    field = ["trail_llama", "sleepy_llama", "suri_alpaca", "meadow_goat", "woolly_ram"]
    st = build(6, hands={"s0": ["hilltop_ram"]}, fields={"s0": field})
    st, ev = play(st, "s0", "hilltop_ram")
    assert st.phase == "over" and st.result.winners == ["s0"]
    assert E.result(st).scores["s0"] == 6 and E.pending(st).seats == []
    st = build(5, hands={"s0": ["hilltop_ram"]}, fields={"s0": field})
    st, _ = play(st, "s0", "hilltop_ram")
    assert st.phase == "action" and st.result is None


def test_no_win_until_the_chain_has_resolved():
    field = ["trail_llama", "sleepy_llama", "suri_alpaca", "meadow_goat", "woolly_ram",
             "cria_button"]
    st = build(hands={"s0": ["packmaster_llama", "lasso"]}, fields={"s0": field})
    st, _ = play(st, "s0", "packmaster_llama")
    assert animal_count(st, "s0") == 7 and st.choice is not None
    assert st.result is None and st.phase == "action"
    st, _ = pick_key(st, "lasso")
    assert st.phase == "over" and st.result.winners == ["s0"]


def test_reaching_seven_mid_chain_then_dropping_is_no_win():
    field = ["trail_llama", "sleepy_llama", "suri_alpaca", "meadow_goat", "woolly_ram",
             "cria_button"]
    st = build(hands={"s0": ["battering_ram"]}, fields={"s0": field, "s1": ["golden_bell"]})
    st, _ = play(st, "s0", "battering_ram")
    st, _ = pick(st, "yes")
    st, _ = pick_key(st, "trail_llama")
    assert st.result is None and animal_count(st, "s0") == 6


def test_heavy_burden_raises_the_target():
    field = ["trail_llama", "sleepy_llama", "suri_alpaca", "meadow_goat", "woolly_ram",
             "cria_button", "heavy_burden"]
    st = build(hands={"s0": ["hilltop_ram"]}, fields={"s0": field})
    st, _ = play(st, "s0", "hilltop_ram")
    assert st.result is None and animal_count(st, "s0") == 7


# -- the deck runs out ------------------------------------------------------------------------


def _deck_out(f0, f1):
    st = build(plays=1, fields={"s0": f0, "s1": f1}, deck=["lasso"], deck_rest=False)
    st, _ = act(st, "s0", DrawCard())
    assert st.phase == "over" and st.deck == [] and total(st) == 128
    return st.result


def test_deck_out_most_animals_wins():
    r = _deck_out(["trail_llama", "sleepy_llama"], ["highland_llama"])
    assert r.winners == ["s0"] and r.scores == {"s0": 2, "s1": 1}
    assert r.reason == "The deck ran out."


def test_deck_out_tie_most_letters_in_animal_names():
    r = _deck_out(["highland_llama"], ["shy_alpaca", "golden_bell"])
    assert r.winners == ["s0"]
    assert [line.points for line in r.breakdown["s0"]] == [1, 13]  # Highland Llama
    assert [line.points for line in r.breakdown["s1"]] == [1, 9]  # Shy Alpaca


def test_deck_out_still_tied_everyone_loses():
    r = _deck_out(["trail_llama"], ["trail_llama"])
    assert r.winners == [] and r.scores == {"s0": 1, "s1": 1}


# -- Instants, the pile and reaction windows ------------------------------------------------


def test_reaction_window_pending_and_timeouts():
    st = build(3, hands={"s0": ["trail_llama"], "s1": ["llama_spit"], "s2": ["alpaca_huff"]})
    st.options = UnleashedOptions(reaction_seconds=5)
    st, _ = play(st, "s0", "trail_llama")
    p = E.pending(st)
    assert (p.kind, p.seats, p.seconds) == ("reaction", ["s1", "s2"], 5)
    assert p.timeouts == [Timeout(seat="s1", action={"type": "pass"}),
                          Timeout(seat="s2", action={"type": "pass"})]
    key = p.key
    st, _ = act(st, "s1", Pass())
    assert E.pending(st).key == key and E.pending(st).seats == ["s2"]
    assert E.legal_actions(st, "s1") == []
    st, _ = act(st, "s2", Pass())  # all passed: the window closes early
    assert st.reaction is None and keys(st.fields["s0"]) == ["trail_llama"]


def test_stack_resolves_last_in_first_out_and_the_answered_may_answer_back():
    st = build(3, hands={"s0": ["stampede", "goat_headbutt"], "s1": ["llama_spit"],
                         "s2": ["ram_rebuff"]}, fields={"s1": ["trail_llama"]})
    st, _ = play(st, "s0", "stampede")
    w1 = E.pending(st).key
    st, ev = act(st, "s1", Respond(card=st.hands["s1"][0]))  # s1 answers the Stampede
    assert [CAT[i.card].key for i in st.stack] == ["stampede", "llama_spit"]
    assert st.reaction.eligible == ["s2", "s0"] and E.pending(st).key != w1
    st, _ = act(st, "s2", Pass())
    st, _ = act(st, "s0", Respond(card=find(st, "goat_headbutt", st.hands["s0"])))
    assert [CAT[i.card].key for i in st.stack] == ["stampede", "llama_spit", "goat_headbutt"]
    assert st.reaction.eligible == ["s2"]  # s1 has no Instant left
    st, ev = act(st, "s2", Pass())
    # Goat Headbutt cancels Llama Spit (not a Goat: discarded); the pile re-polls: a new
    # window on the Stampede now on top, for whoever may still answer it
    assert [CAT[i.card].key for i in st.stack] == ["stampede"]
    assert st.reaction.eligible == ["s2"] and st.fields["s1"] != []
    st, ev = act(st, "s2", Pass())
    assert st.stack == [] and st.fields["s1"] == []
    assert keys(st.discard) == ["goat_headbutt", "llama_spit", "trail_llama", "stampede"]


def test_counter_on_a_counter_of_its_kind_takes_it():
    st = build(hands={"s0": ["stampede", "llama_spit"], "s1": ["llama_spit"]},
               fields={"s1": ["trail_llama"]})
    st, _ = play(st, "s0", "stampede")
    st, _ = act(st, "s1", Respond(card=st.hands["s1"][0]))
    st, _ = act(st, "s0", Respond(card=st.hands["s0"][0]))
    assert keys(st.hands["s0"]) == ["llama_spit"] and st.fields["s1"] == []


def test_own_card_cannot_be_answered_by_its_player():
    st = build(hands={"s0": ["trail_llama", "llama_spit"]})
    st, _ = play(st, "s0", "trail_llama")
    assert st.reaction is None and keys(st.fields["s0"]) == ["trail_llama"]


def test_cards_brought_directly_cannot_be_answered():
    st = build(hands={"s0": ["nanny_alpaca", "trail_llama"], "s1": ["llama_spit"]})
    st, _ = play(st, "s0", "nanny_alpaca")
    st, _ = act(st, "s1", Pass())
    assert st.choice.seat == "s1"  # the player after s0 goes first
    st, _ = pick(st, "no")
    st, _ = pick(st, "yes")
    st, ev = pick_key(st, "cria_button")
    assert keys(st.fields["s0"]) == ["nanny_alpaca", "cria_button"]
    assert st.reaction is None and "respond" not in [e.type for e in ev]


def test_instants_are_not_played_in_the_action_phase():
    st = build(hands={"s0": ["llama_spit"]})
    assert E.legal_actions(st, "s0") == [DrawCard()]


# -- effect chain rulings -------------------------------------------------------------------


def test_no_card_is_targeted_twice_in_one_link():
    st = build(fields={"s0": ["golden_bell"], "s1": ["leaky_roof"]})
    st.work.append(Frame(eff={"op": "seq", "steps": [{"op": "move"}, {"op": "move"}]},
                         actor="s0", link=99))
    ev = []
    E._run(st, ev)
    assert {o.label for o in st.choice.options} == {"Golden Bell (s0)", "Leaky Roof (s1)"}
    st, _ = pick_key(st, "golden_bell")  # moves to s1 (the only other Field)
    # the second move may not pick Golden Bell again: Leaky Roof is the only target, so it
    # is taken without a question and moves to s0
    assert keys(st.fields["s1"]) == ["golden_bell"]
    assert keys(st.fields["s0"]) == ["leaky_roof"] and st.choice is None


def test_then_needs_the_first_part_and_if_you_do_needs_the_choice():
    # "then": Gruff Goat's draw happens only when its discard did (nothing to discard:
    # the forced effect is ignored, no draw)
    st = build(active="s1", plays=1, fields={"s0": ["gruff_goat"]},
               deck=["rummage", "lasso", "stampede"])
    st = pass_turn(st)
    assert keys(st.hands["s0"]) == ["lasso"]  # only the Draw phase's card
    # "if you do": declining Battering Ram's sacrifice skips the destroy
    st = build(hands={"s0": ["battering_ram"]}, fields={"s1": ["golden_bell"]})
    st, _ = play(st, "s0", "battering_ram")
    st, _ = pick(st, "no")
    assert keys(st.fields["s1"]) == ["golden_bell"]


def test_pull_is_random_choose_is_a_pick():
    drawn = set()
    for seed in range(12):
        st = build(hands={"s0": ["pickpocket_goat"], "s1": ["lasso", "stampede", "rummage"]},
                   seed=seed)
        st, _ = play(st, "s0", "pickpocket_goat")
        drawn.add(keys(st.hands["s0"])[0])
    assert drawn == {"lasso", "stampede", "rummage"}


def test_a_triggered_link_waits_until_the_link_that_caused_it_has_resolved():
    # Grazing Rights brings Packmaster Llama in; Packmaster's "draw 2, then discard" is a new
    # link that starts only after Grazing Rights has finished (and left the pile).
    st = build(hands={"s0": ["grazing_rights", "lasso"]}, discard=["packmaster_llama"],
               deck=["stampede", "rummage"])
    st, _ = play(st, "s0", "grazing_rights")
    assert st.stack == [] and keys(st.discard) == ["lasso", "grazing_rights"]
    assert keys(st.fields["s0"]) == ["packmaster_llama"]
    assert keys(st.hands["s0"]) == ["stampede", "rummage"] and st.choice is not None
    st, _ = pick_key(st, "rummage")
    assert keys(st.hands["s0"]) == ["stampede"]


def test_a_baby_never_goes_to_a_hand():
    st = build(hands={"s0": ["herald_alpaca"]}, fields={"s1": ["cria_button"]})
    st, _ = play(st, "s0", "herald_alpaca")
    st, _ = pick(st, "yes")  # return Cria Button to s1's hand: it goes to the Nursery
    assert st.fields["s1"] == [] and st.hands["s1"] == []
    assert CAT.ids_of("cria_button")[0] in st.nursery


def test_a_stolen_baby_changes_fields():
    st = build(hands={"s0": ["lasso"]}, fields={"s1": ["lamb_acorn"]})
    st, _ = play(st, "s0", "lasso")
    assert keys(st.fields["s0"]) == ["lamb_acorn"] and st.fields["s1"] == []


# -- Herd Bonuses -----------------------------------------------------------------------------


def test_llama_herd_may_draw():
    st = build(active="s1", plays=1, fields={"s0": ["trail_llama", "sleepy_llama", "cria_button"]})
    st = pass_turn(st)
    assert E.legal_actions(st, "s0") == [Activate(source="herd:llama"), Proceed()]
    assert E.action_label(st, Activate(source="herd:llama")) == "Use the Llama Herd Bonus"
    st, ev = act(st, "s0", Activate(source="herd:llama"))
    assert len(st.hands["s0"]) == 2
    # Said in words, never as the internal key (found by a demo read-through).
    assert ev[0].text == "s0 uses the Llama Herd Bonus."


def test_alpaca_herd_shields_alpacas_until_next_turn():
    st = build(active="s1", plays=1, fields={"s0": ["suri_alpaca", "shy_alpaca", "cria_puff",
                                                    "trail_llama"]},
               hands={"s1": ["stampede"]})
    st = pass_turn(st)
    assert st.shields["s0"] == ["alpaca"] and st.phase == "action"  # mandatory, no question
    st, _ = act(st, "s0", DrawCard())
    assert st.active == "s1"
    st, _ = play(st, "s1", "stampede")  # only the Llama can be destroyed
    assert keys(st.fields["s0"]) == ["suri_alpaca", "shy_alpaca", "cria_puff"]


def test_alpaca_shield_ends_at_the_next_turn():
    st = build(active="s1", plays=1, fields={"s0": ["suri_alpaca", "shy_alpaca"]})
    st.shields["s0"] = ["alpaca"]
    st = pass_turn(st)
    assert st.shields["s0"] == []


def test_goat_herd_takes_the_top_discard():
    st = build(active="s1", plays=1, fields={"s0": ["meadow_goat", "cliff_goat", "kid_clover"]},
               discard=["stampede", "lasso"])
    st = pass_turn(st)
    st, _ = act(st, "s0", Activate(source="herd:goat"))
    assert keys(st.hands["s0"])[0] == "lasso" and keys(st.discard) == ["stampede"]


def test_ram_herd_discard_to_destroy():
    st = build(active="s1", plays=1, fields={"s0": ["woolly_ram", "curlhorn_ram", "lamb_acorn"],
                                            "s1": ["trail_llama"]},
               hands={"s0": ["lasso"]})
    st = pass_turn(st)
    st, _ = act(st, "s0", Activate(source="herd:ram"))
    assert keys(st.discard)[:2] == ["lasso", "trail_llama"] and st.fields["s1"] == []


def test_a_herd_bonus_choice_says_publicly_which_bonus_asks():
    st = build(active="s1", plays=1, fields={"s0": ["woolly_ram", "curlhorn_ram", "lamb_acorn"],
                                            "s1": ["trail_llama"]},
               hands={"s0": ["lasso", "stampede"]})
    st = pass_turn(st)
    st, _ = act(st, "s0", Activate(source="herd:ram"))
    assert st.choice is not None and st.choice.seat == "s0"
    assert (st.choice.herd, st.choice.source) == ("ram", None)  # which card to discard
    st, _ = act(st, "s0", Choose(option=0))
    assert st.choice is None and st.fields["s1"] == []  # the one target is taken at once


def test_ram_herd_not_offered_without_a_card_to_discard():
    st = build(active="s1", plays=1, fields={"s0": ["woolly_ram", "curlhorn_ram", "lamb_acorn"],
                                            "s1": ["trail_llama"]})
    st = pass_turn(st)
    assert st.phase == "action"


def test_herd_needs_three():
    st = build(fields={"s0": ["trail_llama", "sleepy_llama", "suri_alpaca"]})
    assert herd_kinds(st, "s0") == []


# -- refusals ----------------------------------------------------------------------------------


def _refused(st, seat, action, code):
    before = st.model_dump_json()
    with pytest.raises(IllegalAction) as exc:
        E.apply(st, seat, action)
    assert exc.value.code == code and exc.value.message
    assert st.model_dump_json() == before


def test_bad_input_is_refused_and_changes_nothing():
    st = build(hands={"s0": ["trail_llama"], "s1": ["lasso"]}, fields={"s1": ["muzzle"]})
    _refused(st, "s0", Play(card=st.hands["s1"][0]), "illegal")  # a card you do not hold
    _refused(st, "s1", DrawCard(), "not_your_turn")
    _refused(st, "s0", Choose(option=0), "illegal")  # no choice pending
    _refused(st, "s0", Play(card=st.hands["s0"][0], field="nobody"), "illegal")
    st2, _ = play(st, "s0", "trail_llama")
    _refused(st2, "s1", Respond(card=st2.hands["s1"][0]), "not_your_turn")
    st3 = build(hands={"s0": ["stampede"], "s1": ["llama_spit"]},
                fields={"s1": ["trail_llama", "sleepy_llama"], "s0": []})
    st3, _ = play(st3, "s0", "stampede")
    st3, _ = act(st3, "s1", Pass())
    assert st3.choice is not None
    _refused(st3, "s0", Choose(option=5), "illegal")  # not a legal target
    _refused(st3, "s1", Choose(option=0), "not_your_turn")


def test_muzzled_player_gets_no_window_and_cannot_respond():
    st = build(hands={"s0": ["trail_llama"], "s1": ["llama_spit"]}, fields={"s1": ["muzzle"]})
    st, _ = play(st, "s0", "trail_llama")
    assert st.reaction is None
    assert E.legal_actions(st, "s1") == []


def test_game_over_refuses_everything():
    st = build(plays=1, deck=["lasso"], deck_rest=False)
    st, _ = act(st, "s0", DrawCard())
    _refused(st, "s1", DrawCard(), "game_over")

