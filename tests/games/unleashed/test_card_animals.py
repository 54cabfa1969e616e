"""Llamas Unleashed cards: each Baby, Basic and Magical Animal design does exactly what its
text says (one test per design, named after it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.unleashed.cards import catalog
from bot.games.unleashed.effects.statics import (
    animal_count,
    hand_limit,
    may_play_instants,
)
from bot.games.unleashed.models import Activate, ChooseBaby, Play, Proceed
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

FIXTURES = Path(__file__).parent.parent / "fixtures"

CAT = catalog()
#: The Baby design keys in Nursery order.
CAT_BABIES = [CAT[c].key for c in CAT.nursery_ids]


def designs(type_: str) -> list[str]:
    return [k for k, d in CAT.designs.items() if d.type == type_]



# -- Babies and Basic Animals -----------------------------------------------------------------


@pytest.mark.parametrize("key", [CAT[c].key for c in CAT.nursery_ids])
def test_baby_chosen_into_field_and_returns_to_nursery(key):
    st = E.new_game(["s0", "s1"], seed=3)
    cid = CAT.ids_of(key)[0]
    st, ev = act(st, "s0", ChooseBaby(card=cid))
    assert st.fields["s0"] == [cid] and cid not in st.nursery and len(st.nursery) == 11
    # destroyed: back to the Nursery, never the discard pile
    st2 = build(hands={"s0": ["stampede"]}, fields={"s1": [key]})
    st2, _ = play(st2, "s0", "stampede")
    assert st2.fields["s1"] == [] and keys(st2.discard) == ["stampede"]
    assert CAT.ids_of(key)[0] in st2.nursery


@pytest.mark.parametrize("key", designs("basic"))
def test_basic_animal_enters_the_field_with_no_effect(key):
    st = build(hands={"s0": [key]})
    st, ev = play(st, "s0", key)
    assert keys(st.fields["s0"]) == [key]
    assert st.hands["s0"] == [] and st.choice is None and st.work == [] and st.stack == []
    assert animal_count(st, "s0") == 1
    assert [e.type for e in ev] == ["play", "enter"]


def test_basic_animal_may_be_played_into_another_players_field():
    st = build(hands={"s0": ["trail_llama"]})
    assert {a.field for a in E.legal_actions(st, "s0") if isinstance(a, Play)} == {"s0", "s1"}
    st, _ = play(st, "s0", "trail_llama", field="s1")
    assert keys(st.fields["s1"]) == ["trail_llama"] and st.fields["s0"] == []


# -- Magical Animals ----------------------------------------------------------------------------


def test_spitfire_llama():
    st = build(hands={"s0": ["spitfire_llama"]}, fields={"s1": ["trail_llama"]})
    st, _ = play(st, "s0", "spitfire_llama")
    assert st.choice.seat == "s0" and [o.value for o in st.choice.options] == ["yes", "no"]
    yes, _ = pick(st, "yes")
    assert yes.fields["s1"] == [] and keys(yes.discard) == ["trail_llama"]
    no, _ = pick(st, "no")
    assert keys(no.fields["s1"]) == ["trail_llama"] and no.discard == []


def test_packmaster_llama():
    st = build(hands={"s0": ["packmaster_llama", "stampede"]}, deck=["hay_harvest", "lasso"])
    st, _ = play(st, "s0", "packmaster_llama")
    assert keys(st.hands["s0"]) == ["stampede", "hay_harvest", "lasso"]
    assert st.choice.prompt.startswith("Choose a card to discard")
    st, _ = pick_key(st, "lasso")
    assert keys(st.hands["s0"]) == ["stampede", "hay_harvest"] and keys(st.discard) == ["lasso"]


def test_watchful_llama():
    st = build(hands={"s0": ["stampede"]}, fields={"s1": ["watchful_llama", "trail_llama"]})
    st, _ = play(st, "s0", "stampede")
    st, ev = pick_key(st, "trail_llama")
    assert keys(st.fields["s1"]) == ["trail_llama"]
    assert keys(st.discard) == ["watchful_llama", "stampede"]
    assert "bodyguard" in [e.type for e in ev]


def test_grand_llama_makes_each_other_player_discard():
    st = build(3, hands={"s0": ["grand_llama"], "s1": ["stampede", "hay_harvest"],
                         "s2": ["lasso"]})
    st, _ = play(st, "s0", "grand_llama")
    assert st.choice.seat == "s1" and keys(st.discard) == []
    st, ev = pick_key(st, "hay_harvest")
    assert [e.text for e in ev if e.type == "discard"] == ["s1 discards Hay Harvest.",
                                                           "s2 discards Lasso."]
    assert keys(st.fields["s0"]) == ["grand_llama"] and keys(st.hands["s1"]) == ["stampede"]
    assert st.hands["s2"] == [] and animal_count(st, "s0") == 1


def test_trader_llama():
    st = build(active="s1", plays=1, fields={"s0": ["trader_llama"]},
               hands={"s0": ["stampede"], "s1": ["lasso", "hay_harvest"]}, deck=["winter_storm"])
    st = pass_turn(st)
    assert st.active == "s0" and st.phase == "start"
    src = f"card:{st.fields['s0'][0]}"
    assert E.legal_actions(st, "s0") == [Activate(source=src), Proceed()]
    st, _ = act(st, "s0", Activate(source=src))
    assert keys(st.hands["s1"]) == ["stampede"]
    assert keys(st.hands["s0"])[:3] == ["lasso", "hay_harvest", "winter_storm"]
    assert len(st.hands["s0"]) == 4 and st.phase == "action"  # + the Draw phase card


def test_fluffcloud_alpaca():
    st = build(hands={"s0": ["stampede"]}, fields={"s1": ["fluffcloud_alpaca"]})
    assert not any(isinstance(a, Play) for a in E.legal_actions(st, "s0"))
    st = build(hands={"s0": ["stampede"]}, fields={"s1": ["fluffcloud_alpaca", "trail_llama"]})
    st, _ = play(st, "s0", "stampede")  # the only legal target is taken without asking
    assert keys(st.fields["s1"]) == ["fluffcloud_alpaca"]


def test_homing_alpaca():
    st = build(hands={"s0": ["stampede"]}, fields={"s1": ["homing_alpaca"]})
    st, _ = play(st, "s0", "stampede")
    assert st.fields["s1"] == [] and keys(st.hands["s1"]) == ["homing_alpaca"]
    assert keys(st.discard) == ["stampede"]


def test_homing_alpaca_when_sacrificed():
    st = build(hands={"s0": ["battering_ram"]}, fields={"s0": ["homing_alpaca"],
                                                       "s1": ["trail_llama"]})
    st, _ = play(st, "s0", "battering_ram")
    st, _ = pick(st, "yes")
    st, _ = pick_key(st, "homing_alpaca")
    assert keys(st.hands["s0"]) == ["homing_alpaca"] and st.fields["s1"] == []


def test_herald_alpaca_returns_a_card_of_another_field_to_its_owner():
    st = build(hands={"s0": ["herald_alpaca"]}, fields={"s1": ["trail_llama", "golden_bell"]})
    st, _ = play(st, "s0", "herald_alpaca")
    st, _ = pick(st, "yes")
    assert [o.label for o in st.choice.options] == ["Trail Llama (s1)", "Golden Bell (s1)"]
    st, ev = pick_key(st, "golden_bell")
    assert keys(st.fields["s1"]) == ["trail_llama"] and keys(st.hands["s1"]) == ["golden_bell"]
    assert "Golden Bell goes back to s1's hand." in [e.text for e in ev]


def test_a_returned_baby_goes_back_to_the_nursery():
    st = build(hands={"s0": ["herald_alpaca"]}, fields={"s1": ["cria_button"]})
    st, _ = play(st, "s0", "herald_alpaca")
    st, ev = pick(st, "yes")  # the only card: no choice to make
    assert st.fields["s1"] == [] and st.hands["s1"] == [] and keys(st.nursery)[-1] == "cria_button"
    assert [e.text for e in ev if e.type == "return"] == ["Cria Button goes back to the Nursery."]


def test_nanny_alpaca_lets_each_player_bring_a_baby_you_last():
    st = build(3, hands={"s0": ["nanny_alpaca"]})
    st, _ = play(st, "s0", "nanny_alpaca")
    assert st.choice.seat == "s1"
    st, ev = pick(st, "no")
    assert "s1 declines an optional effect." in [e.text for e in ev]
    assert st.choice.seat == "s2"
    st, _ = pick(st, "yes")
    assert st.choice.seat == "s2" and len(st.choice.options) == 12
    st, _ = pick_key(st, "kid_clover")
    assert st.choice.seat == "s0"
    st, _ = pick(st, "yes")
    assert st.choice.seat == "s0" and len(st.choice.options) == 11
    st, _ = pick_key(st, "cria_button")
    assert keys(st.fields["s0"]) == ["nanny_alpaca", "cria_button"]
    assert st.fields["s1"] == [] and keys(st.fields["s2"]) == ["kid_clover"]
    assert len(st.nursery) == 10 and st.choice is None


def test_nanny_alpaca_gives_the_last_baby_to_the_player_after_you():
    st = build(3, hands={"s0": ["nanny_alpaca"]}, fields={
        "s0": CAT_BABIES[:4], "s1": CAT_BABIES[4:8], "s2": CAT_BABIES[8:11]})
    assert keys(st.nursery) == ["lamb_bramble"]
    st, _ = play(st, "s0", "nanny_alpaca")
    assert st.choice.seat == "s1"
    st, _ = pick(st, "yes")  # the only Baby left: no need to choose
    assert keys(st.fields["s1"])[-1] == "lamb_bramble" and st.nursery == []
    # the Nursery is empty: neither s2 nor s0 (last) is offered a Baby
    assert st.choice is None and len(st.fields["s0"]) == 5 and len(st.fields["s2"]) == 3


def test_pickpocket_goat():
    st = build(hands={"s0": ["pickpocket_goat"], "s1": ["lasso"]})
    st, ev = play(st, "s0", "pickpocket_goat")
    assert keys(st.hands["s0"]) == ["lasso"] and st.hands["s1"] == []
    private = [e for e in ev if e.type == "pull_private"]
    assert private[0].to == ["s0", "s1"] and "Lasso" in private[0].text
    assert not any("Lasso" in e.text for e in ev if e.to is None)


def test_scavenger_goat():
    st = build(active="s1", plays=1, fields={"s0": ["scavenger_goat"]},
               discard=["stampede", "lasso"])
    st = pass_turn(st)
    st, _ = act(st, "s0", Activate(source=f"card:{st.fields['s0'][0]}"))
    st, _ = pick_key(st, "stampede")
    assert keys(st.discard) == ["lasso"] and keys(st.hands["s0"])[0] == "stampede"


def test_nosy_goat():
    st = build(hands={"s0": ["nosy_goat"], "s1": ["lasso", "stampede"]})
    st, _ = play(st, "s0", "nosy_goat")
    assert [o.label for o in E.view(st, "s0").choice.options] == ["Lasso", "Stampede"]
    assert E.view(st, "s1").choice is None and E.view(st, None).choice is None
    st, _ = pick_key(st, "stampede")
    assert keys(st.hands["s0"]) == ["stampede"] and keys(st.hands["s1"]) == ["lasso"]


def test_climbing_goat():
    st = build(hands={"s0": ["climbing_goat"]})
    deck_before = len(st.deck)
    st, _ = play(st, "s0", "climbing_goat")
    st, _ = pick(st, "yes")
    assert len(st.choice.options) == 15  # every Upgrade is in the deck
    st, ev = pick_key(st, "golden_bell")
    assert keys(st.hands["s0"]) == ["golden_bell"] and len(st.deck) == deck_before - 1
    shown = [e for e in ev if e.type == "search"]
    assert shown[0].to is None and "Golden Bell" in shown[0].text


def test_gruff_goat():
    st = build(active="s1", plays=1, fields={"s0": ["gruff_goat"]}, hands={"s0": ["lasso"]},
               deck=["trail_llama", "stampede", "hay_harvest", "snowed_in"])
    st = pass_turn(st)  # s1 draws trail_llama
    assert keys(st.discard) == ["lasso"]
    assert keys(st.hands["s0"]) == ["stampede", "hay_harvest", "snowed_in"]
    # with an empty hand the discard is impossible, so "then draw 2" does not happen
    st = build(active="s1", plays=1, fields={"s0": ["gruff_goat"]},
               deck=["trail_llama", "stampede", "hay_harvest", "snowed_in"])
    st = pass_turn(st)
    assert keys(st.hands["s0"]) == ["stampede"]


def test_battering_ram():
    st = build(hands={"s0": ["battering_ram"]}, fields={"s0": ["cria_button"],
                                                       "s1": ["golden_bell"]})
    st, _ = play(st, "s0", "battering_ram")
    st, _ = pick(st, "yes")
    assert {o.label for o in st.choice.options} == {"Cria Button (s0)", "Battering Ram (s0)"}
    st, _ = pick_key(st, "cria_button")
    assert keys(st.fields["s0"]) == ["battering_ram"] and st.fields["s1"] == []
    assert keys(st.discard) == ["golden_bell"] and CAT.ids_of("cria_button")[0] in st.nursery


def test_rustler_ram_sacrifices_to_steal_a_basic_animal():
    st = build(hands={"s0": ["rustler_ram"]}, fields={"s0": ["leaky_roof"],
                                                      "s1": ["trail_llama", "spitfire_llama"]})
    st, _ = play(st, "s0", "rustler_ram")
    st, _ = pick(st, "yes")
    st, ev = pick_key(st, "leaky_roof")  # the sacrifice; one Basic Animal to steal
    assert [e.text for e in ev] == ["s0 sacrifices Leaky Roof.", "s0 steals Trail Llama from s1."]
    assert keys(st.fields["s0"]) == ["rustler_ram", "trail_llama"]
    assert keys(st.fields["s1"]) == ["spitfire_llama"] and keys(st.discard) == ["leaky_roof"]
    st = build(hands={"s0": ["rustler_ram"]}, fields={"s1": ["spitfire_llama"]})
    st, _ = play(st, "s0", "rustler_ram")  # no Basic Animal to steal: the sacrifice is
    assert st.choice.prompt == "Do you want to use this effect (Rustler Ram)?"  # still offered
    st, _ = pick(st, "no")
    assert keys(st.fields["s0"]) == ["rustler_ram"] and st.choice is None


def test_sentinel_ram_stops_every_player_s_instants_its_owner_s_too():
    st = build(hands={"s0": ["hay_harvest"], "s1": ["llama_spit"]}, fields={"s0": ["sentinel_ram"]})
    st, _ = play(st, "s0", "hay_harvest")
    assert st.reaction is None and len(st.hands["s0"]) == 2
    assert not may_play_instants(st, "s1") and not may_play_instants(st, "s0")
    st = build(active="s1", hands={"s1": ["hay_harvest"], "s0": ["llama_spit"]},
               fields={"s0": ["sentinel_ram"]})
    st, _ = play(st, "s1", "hay_harvest")  # the owner cannot answer either
    assert st.reaction is None and len(st.hands["s1"]) == 2
    st = build(hands={"s0": ["hay_harvest"], "s1": ["llama_spit"]})
    st, _ = play(st, "s0", "hay_harvest")
    assert st.reaction is not None and st.reaction.eligible == ["s1"]


def test_shepherd_ram():
    st = build(active="s1", plays=1, fields={"s0": ["shepherd_ram", "leaky_roof"],
                                            "s1": ["golden_bell"]})
    st = pass_turn(st)
    st, _ = act(st, "s0", Activate(source=f"card:{find(st, 'shepherd_ram', st.fields['s0'])}"))
    assert {o.label for o in st.choice.options} == {"Leaky Roof (s0)", "Golden Bell (s1)"}
    st, _ = pick_key(st, "leaky_roof")
    assert keys(st.fields["s1"]) == ["golden_bell", "leaky_roof"]
    assert hand_limit(st, "s1") == 7 and hand_limit(st, "s0") == 7
