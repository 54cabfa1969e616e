"""Llamas Unleashed card set: the data loads in the stated mix, and every card design's
effect does exactly what its text says (one test per design, named after it)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.games.unleashed.cards import SEED_PATH, CardSet, Catalog, catalog
from bot.games.unleashed.effects.statics import (
    animal_count,
    animals_to_win,
    hand_limit,
    herd_kinds,
    kinds,
    may_play_instants,
)
from bot.games.unleashed.models import Activate, ChooseBaby, DrawCard, Pass, Play, Proceed, Respond
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


# -- the data ---------------------------------------------------------------------------------


def test_nursery_has_12_babies_3_per_kind():
    babies = [CAT[c] for c in CAT.nursery_ids]
    assert len(babies) == 12
    assert all(d.type == "baby" for d in babies)
    assert Counter(d.kind for d in babies) == {"llama": 3, "alpaca": 3, "goat": 3, "ram": 3}


def test_deck_has_116_cards_in_the_stated_mix():
    deck = [CAT[c] for c in CAT.deck_ids]
    assert len(deck) == 116
    assert Counter(d.type for d in deck) == {
        "basic": 24, "magical": 31, "magic": 25, "upgrade": 15, "downgrade": 8, "instant": 13}
    assert Counter(d.kind for d in deck if d.type == "basic") == {
        "llama": 6, "alpaca": 6, "goat": 6, "ram": 6}
    assert len(CAT.cards) == 128


def test_instants_are_four_counters_of_three_and_one_ambush():
    inst = [d for d in CAT.designs.values() if d.type == "instant"]
    counters = [d for d in inst if d.instant.op == "counter"]
    ambush = [d for d in inst if d.instant.op == "ambush"]
    assert sorted((d.kind, d.copies) for d in counters) == [
        ("alpaca", 3), ("goat", 3), ("llama", 3), ("ram", 3)]
    assert [(d.copies, d.instant.respond) for d in ambush] == [(1, "animal")]


def test_every_non_basic_card_has_an_implemented_effect():
    for d in CAT.designs.values():
        if d.type in ("magical", "upgrade", "downgrade"):
            assert d.on_enter or d.start or d.static, d.key
        if d.type == "magic":
            assert d.play is not None, d.key


def test_names_are_unique_and_our_own():
    names = [d.name for d in CAT.designs.values()]
    assert len(names) == len(set(names))
    for d in CAT.designs.values():
        assert not re.search(r"unicorn|neigh|stable", d.name + d.text, re.I), d.key
        assert d.text.endswith("."), d.key


def _atoms(eff):
    if eff is None:
        return
    yield eff
    for child in [*eff.steps, eff.first, eff.next, eff.do, eff.if_you_do, eff.eff,
                  *(o.eff for o in eff.options)]:
        yield from _atoms(child)


def test_enter_texts_say_every_arrival_counts():
    texts = [d.text for d in CAT.designs.values() if d.on_enter is not None]
    assert len(texts) == 11
    assert all(t.startswith("Each time this card enters your Field (played, brought, stolen "
                            "or moved in), ") for t in texts)


def test_card_texts_use_the_rulebook_targeting_words():
    for d in CAT.designs.values():
        for eff in (d.play, d.on_enter, d.start.eff if d.start else None):
            for a in _atoms(eff):
                if a.op in ("destroy", "steal") and a.whose == "other":
                    assert "any other player's Field" in d.text, d.key
                if a.op in ("destroy", "return_card") and a.whose == "any":
                    assert "any player's Field" in d.text, d.key
                if a.op in ("pull", "look_take", "swap_hands", "skip_turn"):
                    assert "any other player" in d.text.lower(), d.key
                if a.op == "for_each":
                    who = "each other player" if a.who == "each_other" else "each player"
                    assert who in d.text.lower(), d.key
                if a.op == "any_number":
                    assert "Any number of players" in d.text, d.key
                if a.op == "may":  # "each player may": each acts in turn
                    assert re.search(r"(you|each player) may", d.text.lower()), d.key


def test_herd_bonuses_are_data_for_every_kind():
    herd = CAT.card_set.herd
    assert herd.size == 3
    assert set(herd.bonuses) == {"llama", "alpaca", "goat", "ram"}
    assert [k for k, b in herd.bonuses.items() if not b.optional] == ["alpaca"]


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


# -- Magic -------------------------------------------------------------------------------------


def test_stampede():
    st = build(hands={"s0": ["stampede"]}, fields={"s1": ["trail_llama", "golden_bell"]})
    st, _ = play(st, "s0", "stampede")  # Animals only: one target
    assert keys(st.fields["s1"]) == ["golden_bell"]
    assert keys(st.discard) == ["trail_llama", "stampede"]
    st = build(hands={"s0": ["stampede"]}, fields={"s0": ["trail_llama"]})
    assert Play(card=st.hands["s0"][0]) not in E.legal_actions(st, "s0")  # no target: unplayable


def test_lasso():
    st = build(hands={"s0": ["lasso"]}, fields={"s1": ["trail_llama"]})
    st, _ = play(st, "s0", "lasso")
    assert keys(st.fields["s0"]) == ["trail_llama"] and st.fields["s1"] == []


def test_lasso_cannot_take_a_llama_into_a_closed_gate_field():
    st = build(hands={"s0": ["lasso"]}, fields={"s0": ["closed_gate"], "s1": ["trail_llama"]})
    assert not any(isinstance(a, Play) for a in E.legal_actions(st, "s0"))


def test_hay_harvest():
    st = build(hands={"s0": ["hay_harvest"]}, deck=["lasso", "stampede"])
    st, ev = play(st, "s0", "hay_harvest")
    assert keys(st.hands["s0"]) == ["lasso", "stampede"]
    public = [e for e in ev if e.type == "draw"]
    assert public[0].text == "s0 draws 2 cards." and public[0].to is None


def test_fork_in_the_trail():
    st = build(hands={"s0": ["fork_in_the_trail"]}, fields={"s1": ["golden_bell"]},
               deck=["lasso", "stampede"])
    st, _ = play(st, "s0", "fork_in_the_trail")
    assert [o.label for o in st.choice.options] == ["Draw 2 cards",
                                                    "Destroy an Animal or an Upgrade card"]
    a, _ = pick(st, "o1")
    assert a.fields["s1"] == [] and a.hands["s0"] == []
    b, _ = pick(st, "o0")
    assert keys(b.hands["s0"]) == ["lasso", "stampede"] and b.fields["s1"] != []
    st = build(3, hands={"s0": ["fork_in_the_trail"]}, fields={
        "s0": ["golden_bell"], "s1": ["trail_llama", "muzzle"], "s2": ["sleepy_llama"]})
    st, _ = play(st, "s0", "fork_in_the_trail")
    st, _ = pick(st, "o1")  # other players' Animals: not Muzzle, not s0's own Upgrade
    assert [o.label for o in st.choice.options] == ["Trail Llama (s1)", "Sleepy Llama (s2)"]
    st, _ = pick_key(st, "trail_llama")
    assert keys(st.fields["s1"]) == ["muzzle"] and keys(st.fields["s0"]) == ["golden_bell"]


def test_night_raid_steals_a_basic_animal():
    st = build(3, hands={"s0": ["night_raid"]},
               fields={"s1": ["spitfire_llama", "cria_button", "woolly_ram"],
                       "s2": ["trail_llama"]})
    st, _ = play(st, "s0", "night_raid")
    assert [o.label for o in st.choice.options] == ["Woolly Ram (s1)", "Trail Llama (s2)"]
    st, ev = pick_key(st, "trail_llama")
    assert keys(st.fields["s0"]) == ["trail_llama"] and st.fields["s2"] == []
    assert keys(st.discard) == ["night_raid"]
    st = build(hands={"s0": ["night_raid", "lasso"]}, fields={"s1": ["spitfire_llama"]})
    assert [a for a in E.legal_actions(st, "s0") if isinstance(a, Play)
            and a.card == find(st, "night_raid", st.hands["s0"])] == []  # no Basic to steal


def test_rockslide_destroys_an_animal_or_an_upgrade():
    st = build(hands={"s0": ["rummage"]}, fields={"s0": ["trail_llama"],
                                                  "s1": ["sleepy_llama", "golden_bell", "muzzle"]})
    assert CAT.designs["rummage"].name == "Rockslide"
    st, _ = play(st, "s0", "rummage")
    assert [o.label for o in st.choice.options] == ["Sleepy Llama (s1)", "Golden Bell (s1)"]
    st, _ = pick_key(st, "golden_bell")
    assert keys(st.fields["s1"]) == ["sleepy_llama", "muzzle"]
    assert keys(st.discard) == ["golden_bell", "rummage"]


def test_second_helping():
    # "You may play one more card": a card play, never a draw (RULES.md).
    st = build(hands={"s0": ["second_helping"]}, deck=["trail_llama"], plays=1)
    st, _ = play(st, "s0", "second_helping")
    assert st.phase == "action" and (st.plays_left, st.card_plays) == (0, 1)
    assert keys(st.hands["s0"]) == ["trail_llama"] and E.view(st, "s0").plays_left == 1
    llama = st.hands["s0"][0]
    assert E.legal_actions(st, "s0") == [Play(card=llama, field="s0"),
                                         Play(card=llama, field="s1"), Proceed()]
    st, _ = act(st, "s0", Proceed())
    assert st.active == "s1"
    # With no card it could play, the extra play is lost and the turn ends at once.
    st = build(hands={"s0": ["second_helping"]}, deck=["lasso"], plays=1)
    st, _ = play(st, "s0", "second_helping")
    assert st.active == "s1" and keys(st.hands["s0"]) == ["lasso"]


def test_grazing_rights():
    st = build(hands={"s0": ["grazing_rights", "lasso"]}, discard=["trail_llama", "golden_bell"])
    st, _ = play(st, "s0", "grazing_rights")
    assert keys(st.fields["s0"]) == ["trail_llama"]
    assert keys(st.discard) == ["golden_bell", "lasso", "grazing_rights"]
    st = build(hands={"s0": ["grazing_rights"]}, discard=["trail_llama"])
    assert not any(isinstance(a, Play) for a in E.legal_actions(st, "s0"))  # nothing to discard


def test_winter_storm_each_player_sacrifices_an_animal():
    st = build(3, hands={"s0": ["winter_storm"]},
               fields={"s0": ["trail_llama", "golden_bell"], "s1": ["cria_button", "meadow_goat"],
                       "s2": ["muzzle"]})
    st, _ = play(st, "s0", "winter_storm")
    assert st.choice.seat == "s1"  # s0 has one Animal only: no choice; s2 has none
    st, ev = pick_key(st, "cria_button")
    assert [e.text for e in ev if e.type == "sacrificed"] == ["s1 sacrifices Cria Button."]
    assert keys(st.fields["s0"]) == ["golden_bell"] and keys(st.fields["s1"]) == ["meadow_goat"]
    assert keys(st.fields["s2"]) == ["muzzle"] and "cria_button" in keys(st.nursery)
    assert keys(st.discard) == ["trail_llama", "winter_storm"]


def test_flash_flood_destroys_a_basic_animal():
    st = build(hands={"s0": ["flash_flood"]}, fields={
        "s0": ["sleepy_llama"], "s1": ["trail_llama", "spitfire_llama", "cria_button", "woolly_ram"]})
    st, _ = play(st, "s0", "flash_flood")
    assert [o.label for o in st.choice.options] == ["Trail Llama (s1)", "Woolly Ram (s1)"]
    st, _ = pick_key(st, "trail_llama")
    assert keys(st.fields["s1"]) == ["spitfire_llama", "cria_button", "woolly_ram"]
    assert keys(st.fields["s0"]) == ["sleepy_llama"]
    assert keys(st.discard) == ["trail_llama", "flash_flood"]


def test_snowed_in():
    st = build(hands={"s0": ["snowed_in"]}, plays=1)
    st, ev = play(st, "s0", "snowed_in")
    assert st.active == "s0" and st.turn == 2 and st.skip_next == []
    assert "skipped" in [e.type for e in ev]


def test_toll_gate():
    st = build(3, hands={"s0": ["toll_gate", "lasso"], "s1": ["stampede"], "s2": ["hay_harvest"]})
    st, _ = play(st, "s0", "toll_gate")
    assert [o.value for o in st.choice.options] == ["ss1", "ss2", "done"]
    st, _ = pick(st, "ss1")
    st, _ = pick(st, "done")
    assert st.hands["s1"] == [] and keys(st.hands["s2"]) == ["hay_harvest"]
    assert keys(st.hands["s0"]) == ["lasso"] and keys(st.discard) == ["stampede", "toll_gate"]




def test_greener_pastures():
    st = build(hands={"s0": ["greener_pastures"]}, discard=["lasso", "stampede"])
    before = len(st.deck)
    st, _ = play(st, "s0", "greener_pastures")
    assert keys(st.discard) == ["greener_pastures"] and len(st.deck) == before + 2 - 2
    assert len(st.hands["s0"]) == 2


# -- Upgrades ----------------------------------------------------------------------------------


def test_golden_bell():
    st = build(plays=1, fields={"s0": ["golden_bell"]}, hands={"s0": ["lasso"] * 3 + ["stampede"] * 3
                                                             + ["hay_harvest"] * 2 + ["rummage"]})
    assert hand_limit(st, "s0") == 9
    st, _ = act(st, "s0", DrawCard())  # 10 cards: one over the limit
    assert st.choice.seat == "s0"
    st, _ = pick_key(st, "rummage")
    assert len(st.hands["s0"]) == 9 and st.active == "s1"


def test_sturdy_fence():
    st = build(hands={"s0": ["stampede"]},
               fields={"s1": ["sturdy_fence", "trail_llama", "spitfire_llama"]})
    st, _ = play(st, "s0", "stampede")
    assert keys(st.fields["s1"]) == ["sturdy_fence", "trail_llama"]


def test_feed_trough():
    st = build(active="s1", plays=1, fields={"s0": ["feed_trough"]},
               deck=["trail_llama", "lasso", "stampede"])
    st = pass_turn(st)
    st, _ = act(st, "s0", Activate(source=f"card:{st.fields['s0'][0]}"))
    assert keys(st.hands["s0"]) == ["lasso", "stampede"]


def test_sheepdog_discards_to_destroy_a_basic_animal():
    st = build(active="s1", plays=1, fields={"s0": ["sheepdog"],
                                            "s1": ["trail_llama", "spitfire_llama", "woolly_ram"]},
               deck=["lasso", "stampede"])
    st = pass_turn(st)  # an empty hand: nothing to discard, so Sheepdog is not offered
    assert [a for a in E.legal_actions(st, "s0") if isinstance(a, Activate)] == []
    assert keys(st.fields["s1"]) == ["trail_llama", "spitfire_llama", "woolly_ram"]
    st = build(active="s1", plays=1, fields={"s0": ["sheepdog"],
                                            "s1": ["trail_llama", "spitfire_llama", "woolly_ram"]},
               hands={"s0": ["hay_harvest", "lasso"]}, deck=["stampede", "snowed_in"])
    st = pass_turn(st)
    st, _ = act(st, "s0", Activate(source=f"card:{st.fields['s0'][0]}"))
    assert st.choice.prompt.startswith("Choose a card to discard")
    st, _ = pick_key(st, "hay_harvest")
    assert [o.label for o in st.choice.options] == ["Trail Llama (s1)", "Woolly Ram (s1)"]
    st, _ = pick_key(st, "trail_llama")
    assert keys(st.fields["s1"]) == ["spitfire_llama", "woolly_ram"]
    assert keys(st.discard) == ["hay_harvest", "trail_llama"]


def test_double_stall():
    st = build(active="s1", plays=1, fields={"s0": ["double_stall"]}, hands={"s0": ["trail_llama",
                                                                             "sleepy_llama"]})
    st = pass_turn(st)
    assert st.phase == "action" and (st.plays_left, st.card_plays) == (1, 1)
    assert E.view(st, "s0").plays_left == 2
    st, _ = play(st, "s0", "trail_llama")  # the extra (card) play is spent first
    assert (st.plays_left, st.card_plays) == (1, 0) and DrawCard() in E.legal_actions(st, "s0")
    st, _ = play(st, "s0", "sleepy_llama")
    assert keys(st.fields["s0"]) == ["double_stall", "trail_llama", "sleepy_llama"]
    assert st.active == "s1"


def test_double_stall_extra_play_is_a_card_play_not_a_draw():
    st = build(active="s1", plays=1, fields={"s0": ["double_stall"]}, hands={"s0": ["trail_llama"]},
               deck=["rummage", "lasso", "stampede"])
    st = pass_turn(st)  # s1 draws Rockslide; s0 skips the Draw phase (Double Stall)
    assert keys(st.hands["s0"]) == ["trail_llama"]
    st, _ = act(st, "s0", DrawCard())  # the one action that may be a draw
    assert keys(st.hands["s0"]) == ["trail_llama", "lasso"]
    assert (st.plays_left, st.card_plays) == (0, 1)
    llama = st.hands["s0"][0]
    assert E.legal_actions(st, "s0") == [Play(card=llama, field="s0"),
                                         Play(card=llama, field="s1"), Proceed()]


def test_rally_flag():
    st = build(active="s1", plays=1, fields={"s0": ["rally_flag"]},
               hands={"s0": ["trail_llama", "lasso"]})
    st = pass_turn(st)
    st, _ = act(st, "s0", Activate(source=f"card:{st.fields['s0'][0]}"))
    assert keys(st.fields["s0"]) == ["rally_flag", "trail_llama"]


def test_lucky_horseshoe():
    st = build(hands={"s0": ["lucky_horseshoe"]}, deck=["lasso"])
    st, _ = play(st, "s0", "lucky_horseshoe")
    assert keys(st.fields["s0"]) == ["lucky_horseshoe"] and keys(st.hands["s0"]) == ["lasso"]


def test_upgrade_played_into_another_field_helps_that_player():
    st = build(hands={"s0": ["golden_bell"]})
    st, _ = play(st, "s0", "golden_bell", field="s1")
    assert hand_limit(st, "s1") == 9 and hand_limit(st, "s0") == 7


# -- Downgrades --------------------------------------------------------------------------------


def test_leaky_roof():
    st = build(hands={"s0": ["leaky_roof"]})
    st, _ = play(st, "s0", "leaky_roof", field="s1")
    assert hand_limit(st, "s1") == 5 and hand_limit(st, "s0") == 7


def test_muzzle():
    st = build(hands={"s0": ["hay_harvest"], "s1": ["llama_spit"]}, fields={"s1": ["muzzle"]})
    st, _ = play(st, "s0", "hay_harvest")
    assert st.reaction is None and not may_play_instants(st, "s1")


def test_closed_gate():
    st = build(hands={"s0": ["trail_llama", "meadow_goat"]}, fields={"s1": ["closed_gate"]})
    plays = {(a.card, a.field) for a in E.legal_actions(st, "s0") if isinstance(a, Play)}
    llama, goat = st.hands["s0"]
    assert plays == {(llama, "s0"), (goat, "s0"), (goat, "s1")}


def test_mud_pit():
    st = build(active="s1", plays=1, fields={"s0": ["mud_pit"]}, hands={"s0": ["lasso"]})
    st = pass_turn(st)
    assert st.phase == "action" and keys(st.hands["s0"]) == ["lasso"]


def test_heavy_burden():
    st = build(fields={"s0": ["heavy_burden"]})
    assert animals_to_win(st, "s0") == 8 and animals_to_win(st, "s1") == 7


def test_itchy_fleece():
    st = build(active="s1", plays=1, fields={"s0": ["itchy_fleece"]},
               hands={"s0": ["lasso", "stampede"]})
    st = pass_turn(st)
    assert st.choice.seat == "s0" and st.phase == "start"
    st, _ = pick_key(st, "stampede")
    assert keys(st.discard) == ["stampede"] and keys(st.hands["s0"])[0] == "lasso"


def test_goat_costume():
    st = build(fields={"s1": ["goat_costume", "trail_llama"]}, hands={"s0": ["sleepy_llama"]})
    assert kinds(st, st.fields["s1"][1], "s1") == ["goat"]
    st2 = build(fields={"s1": ["goat_costume", "closed_gate"]}, hands={"s0": ["sleepy_llama"]})
    assert Play(card=st2.hands["s0"][0], field="s1") in E.legal_actions(st2, "s0")
    st3 = build(fields={"s0": ["goat_costume", "trail_llama", "sleepy_llama", "suri_alpaca"]})
    assert herd_kinds(st3, "s0") == ["goat"]


# -- Instants ----------------------------------------------------------------------------------

COUNTERS = [("llama_spit", "trail_llama", "suri_alpaca"),
            ("alpaca_huff", "suri_alpaca", "meadow_goat"),
            ("goat_headbutt", "meadow_goat", "woolly_ram"),
            ("ram_rebuff", "woolly_ram", "trail_llama")]


@pytest.mark.parametrize("counter,same,other", COUNTERS)
def test_counter_instants(counter, same, other):
    st = build(hands={"s0": [same, other], "s1": [counter]})
    st1, _ = play(st, "s0", same)
    assert st1.reaction.eligible == ["s1"]
    assert E.legal_actions(st1, "s1") == [Respond(card=st1.hands["s1"][0]), Pass()]
    st1, ev = act(st1, "s1", Respond(card=st1.hands["s1"][0]))
    assert st1.fields["s0"] == [] and keys(st1.hands["s1"]) == [same]
    assert keys(st1.discard) == [counter]
    st2, _ = play(st, "s0", other)
    st2, _ = act(st2, "s1", Respond(card=st2.hands["s1"][0]))
    assert st2.fields["s0"] == [] and st2.hands["s1"] == []
    assert keys(st2.discard) == [counter, other]


def test_coyote_ambush():
    st = build(hands={"s0": ["trail_llama"], "s1": ["coyote_ambush"]},
               fields={"s0": ["cria_button"]})
    st1, _ = play(st, "s0", "trail_llama")
    assert st1.reaction.eligible == ["s1"]
    st1, _ = act(st1, "s1", Respond(card=st1.hands["s1"][0]))
    assert keys(st1.fields["s0"]) == ["trail_llama"] and keys(st1.discard) == ["coyote_ambush"]
    assert CAT.ids_of("cria_button")[0] in st1.nursery
    # not an Animal: the ambush cannot answer
    st2 = build(hands={"s0": ["hay_harvest"], "s1": ["coyote_ambush"]},
                fields={"s0": ["cria_button"]})
    st2, _ = play(st2, "s0", "hay_harvest")
    assert st2.reaction is None


def test_pass_closes_the_window_and_the_card_resolves():
    st = build(hands={"s0": ["trail_llama"], "s1": ["llama_spit"]})
    st, _ = play(st, "s0", "trail_llama")
    st, _ = act(st, "s1", Pass())
    assert st.reaction is None and keys(st.fields["s0"]) == ["trail_llama"]


def test_every_card_id_keeps_its_design_across_the_rebalance():
    """A game stored before the rebalance (card set of commit c25beb3) holds the same designs
    after it: only the ids of removed designs changed, to the designs that replaced them."""
    before = json.loads((FIXTURES / "llamas-unleashed-card-ids-c25beb3.json").read_text())
    now = [design.key for design in catalog().cards]
    changed = {i: (old, now[i]) for i, old in enumerate(before) if now[i] != old}
    assert len(now) == len(before) == 128
    assert changed == {
        76: ("swap_meet", "night_raid"), 89: ("barn_raising", "night_raid"),
        85: ("fence_repair", "flash_flood"), 86: ("fence_repair", "flash_flood"),
        100: ("shearing_kit", "sheepdog"), 101: ("shearing_kit", "sheepdog"),
    }


def test_pinned_ids_that_clash_are_refused():
    data = json.loads(SEED_PATH.read_text(encoding="utf-8"))
    for design in data["deck"]:
        if design["key"] == "sheepdog":
            design["ids"] = [76, 77]  # 76 is Night Raid's
    with pytest.raises(ValueError, match="sheepdog: pinned id 76 clashes or is out of range"):
        Catalog(CardSet.model_validate(data))


def test_pinned_ids_must_name_one_id_per_copy():
    data = json.loads(SEED_PATH.read_text(encoding="utf-8"))
    for design in data["deck"]:
        if design["key"] == "sheepdog":
            design["ids"] = [100]
    with pytest.raises(ValueError, match="sheepdog: ids must name one id per copy"):
        CardSet.model_validate(data)
