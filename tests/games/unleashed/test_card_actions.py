"""Llamas Unleashed cards: each Magic, Upgrade, Downgrade and Instant design does exactly
what its text says (one test per design, named after it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.unleashed.cards import catalog
from bot.games.unleashed.effects.statics import (
    animals_to_win,
    hand_limit,
    herd_kinds,
    kinds,
    may_play_instants,
)
from bot.games.unleashed.models import Activate, DrawCard, Pass, Play, Proceed, Respond
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
