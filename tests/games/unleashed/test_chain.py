"""The effect chain: links choose their targets first, the pile re-polls, every arrival
fires "enters your Field", impossible requirements block plays and offers, Herd Bonuses
hold. At least one exact test for each."""

from __future__ import annotations

import json

from bot.games.unleashed.cards import catalog
from bot.games.unleashed.effects.planning import new_link
from bot.games.unleashed.effects.statics import can_be_destroyed, kinds
from bot.games.unleashed.models import Activate, Frame, Pass, Play, Proceed, Respond
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
)

CAT = catalog()


def _labels(st):
    return [o.label for o in st.choice.options]


# -- 1. links: every target chosen before the link resolves ------------------------------------


def test_grazing_rights_cannot_bring_back_the_card_it_discards():
    st = build(hands={"s0": ["grazing_rights", "trail_llama", "lasso"]},
               discard=["sleepy_llama", "suri_alpaca"])
    st, _ = play(st, "s0", "grazing_rights")
    assert st.choice.prompt == "Choose a card to discard (Grazing Rights):"
    assert _labels(st) == ["Trail Llama", "Lasso"]
    st, _ = pick_key(st, "trail_llama")
    # The bring target is chosen before the discard happens: Trail Llama is not offered.
    assert st.choice.prompt == ("Choose a card from the discard pile to bring into your Field "
                                "(Grazing Rights):")
    assert _labels(st) == ["Sleepy Llama", "Suri Alpaca"]
    assert keys(st.hands["s0"]) == ["trail_llama", "lasso"]  # nothing resolved yet
    st, ev = pick_key(st, "suri_alpaca")
    assert keys(st.fields["s0"]) == ["suri_alpaca"]
    assert keys(st.hands["s0"]) == ["lasso"]
    assert keys(st.discard) == ["sleepy_llama", "trail_llama", "grazing_rights"]
    assert [e.type for e in ev] == ["discard", "bring"]


def test_grazing_rights_cannot_be_played_with_only_its_own_discard_to_bring_back():
    # The only Animal it could bring would be the one it discards: not playable.
    st = build(hands={"s0": ["grazing_rights", "trail_llama"]}, discard=["golden_bell"])
    assert E.plays_for(st, "s0", st.hands["s0"][0]) == []


def test_two_shepherd_rams_cannot_move_the_same_card_in_one_start_phase():
    st = build(3, active="s2", plays=1, fields={"s0": ["shepherd_ram", "shepherd_ram",
                                                       "golden_bell"],
                                               "s1": ["leaky_roof"], "s2": ["muzzle"]})
    st = pass_turn(st, "s2")
    ram1, ram2 = st.fields["s0"][:2]
    assert E.legal_actions(st, "s0") == [Activate(source=f"card:{ram1}"),
                                         Activate(source=f"card:{ram2}"), Proceed()]
    st, _ = act(st, "s0", Activate(source=f"card:{ram1}"))
    assert _labels(st) == ["Golden Bell (s0)", "Leaky Roof (s1)", "Muzzle (s2)"]
    st, _ = pick_key(st, "leaky_roof")
    assert st.choice.prompt == "Move Leaky Roof into whose Field (Shepherd Ram)?"
    st, _ = pick(st, "ss2")
    assert keys(st.fields["s1"]) == ["leaky_roof"]  # nothing moved yet
    st, _ = act(st, "s0", Activate(source=f"card:{ram2}"))
    assert _labels(st) == ["Golden Bell (s0)", "Muzzle (s2)"]  # Leaky Roof is taken
    st, _ = pick_key(st, "muzzle")
    # The last optional effect is added: nothing more to offer, so the link resolves.
    st, ev = pick(st, "ss1")
    assert keys(st.fields["s1"]) == ["muzzle"] and keys(st.fields["s2"]) == ["leaky_roof"]
    assert [e.text for e in ev if e.type == "move"] == [
        "s0 moves Leaky Roof from s1's Field to s2's.", "s0 moves Muzzle from s2's Field to s1's."]


def test_start_of_turn_order_and_targets_are_chosen_before_the_draws():
    st = build(active="s1", plays=1, fields={"s0": ["feed_trough", "rally_flag"]},
               hands={"s0": ["sleepy_llama", "trail_llama"]},
               deck=["lasso", "highland_llama", "stampede"])
    st = pass_turn(st)  # s1 draws Lasso
    trough, flag = st.fields["s0"]
    # The player picks the order: Rally Flag first, then Feed Trough.
    st, _ = act(st, "s0", Activate(source=f"card:{flag}"))
    assert _labels(st) == ["Sleepy Llama", "Trail Llama"]
    st, _ = pick_key(st, "trail_llama")
    assert E.legal_actions(st, "s0") == [Activate(source=f"card:{trough}"), Proceed()]
    assert keys(st.hands["s0"]) == ["sleepy_llama", "trail_llama"]  # nothing resolved yet
    # The last optional effect: the link resolves, in the order chosen.
    st, ev = act(st, "s0", Activate(source=f"card:{trough}"))
    assert [e.type for e in ev if e.to is None][:4] == ["activate", "bring", "draw", "draw"]
    assert keys(st.fields["s0"]) == ["feed_trough", "rally_flag", "trail_llama"]
    # Feed Trough drew Highland Llama, the Draw phase Stampede.
    assert keys(st.hands["s0"]) == ["sleepy_llama", "highland_llama", "stampede"]
    assert st.phase == "action"


def test_a_drawn_card_cannot_be_chosen_by_a_later_effect_of_the_same_start_link():
    # Feed Trough first, then Rally Flag: the Flag still chooses from the hand as it was.
    st = build(active="s1", plays=1, fields={"s0": ["feed_trough", "rally_flag"]},
               hands={"s0": ["sleepy_llama"]}, deck=["lasso", "highland_llama", "stampede"])
    st = pass_turn(st)
    trough, flag = st.fields["s0"]
    st, _ = act(st, "s0", Activate(source=f"card:{trough}"))
    assert keys(st.hands["s0"]) == ["sleepy_llama"] and st.phase == "start"
    # Rally Flag's one target (Sleepy Llama) is taken at once; then the link resolves:
    # Feed Trough draws Highland Llama, a Basic the Flag could not choose.
    st, _ = act(st, "s0", Activate(source=f"card:{flag}"))
    assert keys(st.fields["s0"]) == ["feed_trough", "rally_flag", "sleepy_llama"]
    assert keys(st.hands["s0"]) == ["highland_llama", "stampede"]


def test_no_card_is_chosen_twice_in_a_link_from_a_hand():
    # Itchy Fleece and Gruff Goat both discard at the start of the turn: one link, two
    # different cards, both chosen before either resolves.
    st = build(active="s1", plays=1, fields={"s0": ["itchy_fleece", "gruff_goat"]},
               hands={"s0": ["lasso", "stampede", "rummage"]},
               deck=["hay_harvest", "trail_llama", "sleepy_llama", "highland_llama"])
    st = pass_turn(st)
    assert st.choice.prompt == "Choose a card to discard (Itchy Fleece):"
    assert _labels(st) == ["Lasso", "Stampede", "Rockslide"]
    st, _ = pick_key(st, "stampede")
    assert st.choice.prompt == "Choose a card to discard (Gruff Goat):"
    assert _labels(st) == ["Lasso", "Rockslide"]
    assert len(st.hands["s0"]) == 3  # nothing discarded yet
    st, _ = pick_key(st, "lasso")
    assert st.phase == "action"
    assert keys(st.discard)[-2:] == ["stampede", "lasso"]
    assert keys(st.hands["s0"]) == ["rummage", "trail_llama", "sleepy_llama", "highland_llama"]


def test_mandatory_targets_are_chosen_before_optional_ones_in_a_link():
    st = build(hands={"s0": ["lasso", "stampede"]}, fields={"s1": ["trail_llama", "sleepy_llama"]})
    optional = Frame(eff={"op": "may", "do": {"op": "destroy", "filter": {"types": ["basic"]}}},
                     actor="s0")
    mandatory = Frame(eff={"op": "discard", "n": 1}, actor="s0")
    new_link(st, [optional, mandatory])
    ev: list = []
    E._run(st, ev)
    assert st.choice.prompt == "Choose a card to discard:"  # the mandatory one first
    st, _ = pick_key(st, "lasso")
    assert st.choice.prompt == "Do you want to use this effect?"
    st, _ = pick(st, "yes")
    st, ev = pick_key(st, "sleepy_llama")
    # They resolve in the link's order: the optional destroy, then the discard.
    assert [e.type for e in ev] == ["destroy", "destroyed", "discard"]
    assert keys(st.fields["s1"]) == ["trail_llama"] and keys(st.hands["s0"]) == ["stampede"]


def test_effects_triggered_while_a_link_resolves_form_the_next_link():
    # Lasso steals Spitfire Llama: its "enters your Field" is the next link, after Lasso's.
    st = build(hands={"s0": ["lasso"]}, fields={"s1": ["spitfire_llama", "trail_llama"]})
    st, _ = play(st, "s0", "lasso")
    st, ev = pick_key(st, "spitfire_llama")
    assert st.stack == [] and keys(st.discard) == ["lasso"]  # Lasso's link is over
    assert st.choice.prompt == "Do you want to use this effect (Spitfire Llama)?"
    st, _ = pick(st, "yes")
    assert keys(st.fields["s1"]) == [] and keys(st.discard) == ["lasso", "trail_llama"]


# -- 2. the pile re-polls --------------------------------------------------------------------


def test_a_new_window_opens_after_a_counter_is_countered():
    st = build(3, hands={"s0": ["stampede", "goat_headbutt"], "s1": ["llama_spit",
                                                                      "alpaca_huff"]},
               fields={"s1": ["trail_llama"]})
    st, _ = play(st, "s0", "stampede")
    first = st.reaction.id
    st, _ = act(st, "s1", Respond(card=find(st, "llama_spit", st.hands["s1"])))
    st, _ = act(st, "s0", Respond(card=find(st, "goat_headbutt", st.hands["s0"])))
    st, ev = act(st, "s1", Pass())  # Goat Headbutt cancels Llama Spit
    assert [e.type for e in ev] == ["countered"]
    # A new window on the Stampede, now on top: s1 may answer it again.
    assert keys([i.card for i in st.stack]) == ["stampede"]
    assert st.reaction.eligible == ["s1"] and st.reaction.id > first
    st, ev = act(st, "s1", Respond(card=find(st, "alpaca_huff", st.hands["s1"])))
    assert st.stack == [] and st.reaction is None
    assert keys(st.fields["s1"]) == ["trail_llama"]
    assert keys(st.discard) == ["goat_headbutt", "llama_spit", "alpaca_huff", "stampede"]


def test_the_pile_repolls_for_as_long_as_someone_answers():
    st = build(hands={"s0": ["trail_llama", "goat_headbutt"], "s1": ["llama_spit",
                                                                     "ram_rebuff"]})
    st, _ = play(st, "s0", "trail_llama")
    st, _ = act(st, "s1", Respond(card=find(st, "ram_rebuff", st.hands["s1"])))
    st, _ = act(st, "s0", Respond(card=find(st, "goat_headbutt", st.hands["s0"])))
    assert st.reaction.eligible == ["s1"]  # a window on the Headbutt (Llama Spit fits)
    st, _ = act(st, "s1", Pass())  # Headbutt cancels Ram Rebuff: new window on the Llama
    assert keys([i.card for i in st.stack]) == ["trail_llama"] and st.reaction is not None
    st, _ = act(st, "s1", Pass())  # nobody answers: it resolves
    assert keys(st.fields["s0"]) == ["trail_llama"] and st.reaction is None


# -- 3. "enters your Field" on every arrival --------------------------------------------------


def test_a_stolen_card_fires_its_enter_effect_for_the_thief():
    st = build(hands={"s0": ["lasso"], "s1": ["stampede", "rummage"]},
               fields={"s1": ["pickpocket_goat"]}, seed=3)
    st, ev = play(st, "s0", "lasso")
    assert keys(st.fields["s0"]) == ["pickpocket_goat"]
    assert [e.type for e in ev if e.to is None][-2:] == ["steal", "pull"]
    assert len(st.hands["s0"]) == 1 and len(st.hands["s1"]) == 1


def test_a_moved_card_fires_its_enter_effect_for_its_new_owner():
    st = build(active="s1", plays=1, fields={"s0": ["shepherd_ram"], "s1": ["lucky_horseshoe"]},
               deck=["lasso", "stampede", "rummage"])
    st = pass_turn(st)  # s1 draws Lasso
    # The one target is taken at once and the link resolves: Lucky Horseshoe moves into
    # s0's Field, where it enters: s0 draws (then the Draw phase's card).
    st, ev = act(st, "s0", Activate(source=f"card:{st.fields['s0'][0]}"))
    assert keys(st.fields["s0"]) == ["shepherd_ram", "lucky_horseshoe"]
    assert keys(st.hands["s0"]) == ["stampede", "rummage"]
    assert [e.text for e in ev if e.type in ("move", "draw")] == [
        "s0 moves Lucky Horseshoe from s1's Field to s0's.", "s0 draws a card.",
        "s0 draws a card."]


# -- 4. impossible requirements ------------------------------------------------------------------


def test_coyote_ambush_is_not_playable_when_nothing_can_be_destroyed():
    st = build(hands={"s0": ["trail_llama"], "s1": ["coyote_ambush"]},
               fields={"s0": ["fluffcloud_alpaca"]})
    st, _ = play(st, "s0", "trail_llama")
    assert st.reaction is None and E.legal_actions(st, "s1") == []
    assert keys(st.fields["s0"]) == ["fluffcloud_alpaca", "trail_llama"]
    st = build(hands={"s0": ["sleepy_llama"], "s1": ["coyote_ambush"]},
               fields={"s0": ["fluffcloud_alpaca", "trail_llama"]})
    st, _ = play(st, "s0", "sleepy_llama")
    assert E.legal_actions(st, "s1") == [Respond(card=st.hands["s1"][0]), Pass()]


def test_ram_herd_bonus_is_offered_when_no_animal_can_then_be_destroyed():
    # "If you do": the discard is offered whenever it is possible; the destroy, impossible
    # (Fluffcloud Alpaca cannot be destroyed), is then ignored.
    st = build(active="s1", plays=1, fields={"s0": ["woolly_ram", "curlhorn_ram", "lamb_acorn"],
                                            "s1": ["fluffcloud_alpaca", "golden_bell"]},
               hands={"s0": ["lasso"]})
    st = pass_turn(st)
    assert E.legal_actions(st, "s0") == [Activate(source="herd:ram"), Proceed()]
    st, _ = act(st, "s0", Activate(source="herd:ram"))
    assert keys(st.discard) == ["lasso"]
    assert keys(st.fields["s1"]) == ["fluffcloud_alpaca", "golden_bell"]
    st = build(active="s1", plays=1, fields={"s0": ["woolly_ram", "curlhorn_ram", "lamb_acorn"],
                                            "s1": ["fluffcloud_alpaca", "trail_llama"]},
               hands={"s0": ["lasso"]})
    st = pass_turn(st)
    assert E.legal_actions(st, "s0") == [Activate(source="herd:ram"), Proceed()]


def test_battering_ram_asks_for_a_sacrifice_even_when_nothing_can_then_be_destroyed():
    st = build(hands={"s0": ["battering_ram"]}, fields={"s0": ["trail_llama"],
                                                       "s1": ["fluffcloud_alpaca"]})
    st, ev = play(st, "s0", "battering_ram")
    assert st.choice.prompt == "Do you want to use this effect (Battering Ram)?"
    st, _ = pick(st, "yes")
    assert _labels(st) == ["Trail Llama (s0)", "Battering Ram (s0)"]
    st, ev = pick_key(st, "trail_llama")
    assert [e.text for e in ev] == ["s0 sacrifices Trail Llama."]
    assert keys(st.fields["s0"]) == ["battering_ram"]
    assert keys(st.fields["s1"]) == ["fluffcloud_alpaca"]
    st = build(hands={"s0": ["battering_ram"]}, fields={"s1": ["golden_bell"]})
    st, _ = play(st, "s0", "battering_ram")
    assert st.choice.prompt == "Do you want to use this effect (Battering Ram)?"


# -- 5. Herd Bonuses hold ----------------------------------------------------------------------


def test_goat_costume_does_not_end_the_alpaca_herd_shield():
    st = build(active="s1", plays=1,
               fields={"s0": ["suri_alpaca", "shy_alpaca", "cria_puff"]},
               hands={"s1": ["goat_costume", "stampede"]})
    st = pass_turn(st)
    assert st.shields["s0"] == ["alpaca"]
    st = pass_turn(st, "s0")
    st.plays_left = 2
    costume = find(st, "goat_costume", st.hands["s1"])
    st, _ = act(st, "s1", Play(card=costume, field="s0"))
    assert [kinds(st, c, "s0") for c in st.fields["s0"][:3]] == [["goat"]] * 3
    assert [can_be_destroyed(st, c, "s0") for c in st.fields["s0"][:3]] == [False] * 3
    stampede = find(st, "stampede", st.hands["s1"])
    assert E.plays_for(st, "s1", stampede) == []  # no Animal it may destroy


# -- states stored before links chose their targets first -------------------------------------


def _old_shape(st) -> str:
    """``st`` in the older stored shape, without link, plan, queue or card plays."""
    data = json.loads(st.model_dump_json())
    for k in ("card_plays", "building", "plan", "queued", "repoll"):
        del data[k]
    for fr in data["work"]:
        del fr["root"], fr["path"]
    return json.dumps(data)


def test_a_state_stored_at_the_start_of_a_turn_before_links_loads_and_plays_on():
    st = build(phase="start", fields={"s0": ["feed_trough"]}, hands={"s0": ["lasso"]},
               deck=["stampede", "rummage"])
    st.start_cards = list(st.fields["s0"])
    old = E.load_state(_old_shape(st))
    assert old.building is None and old.plan == {} and old.card_plays == 0
    trough = f"card:{old.fields['s0'][0]}"
    assert E.legal_actions(old, "s0") == [Activate(source=trough), Proceed()]
    new, _ = act(old, "s0", Activate(source=trough))
    assert new.phase == "action" and keys(new.hands["s0"]) == ["lasso", "stampede", "rummage"]


def test_a_state_stored_mid_resolution_before_links_loads_and_plays_on():
    st = build(hands={"s0": ["stampede"]}, fields={"s1": ["trail_llama", "sleepy_llama"]})
    st.stack = []
    st.work = [Frame(eff={"op": "destroy", "filter": {"types": ["basic"]}}, actor="s0", link=7)]
    E._run(st, [])
    assert st.choice is not None and st.work[0].root == 0
    old = E.load_state(_old_shape(st))
    new, _ = pick_key(old, "sleepy_llama")
    assert keys(new.fields["s1"]) == ["trail_llama"] and new.choice is None
