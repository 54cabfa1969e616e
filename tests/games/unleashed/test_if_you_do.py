""""If you do" with an impossible second part, and Grazing Rights when only its own
discard could come back: the two rulings, one exact test per card of each shape.

Rulebook, Dealing with Card Effects that Have Multiple Actions ("If a card says 'If you
do,' you should only perform the second action if you choose to perform the first
action") and Actions That Are Impossible ("a card on your Field ... might make you do
something impossible. If that happens, just ignore it"): the optional first part is
offered whenever it is possible; an impossible second part is then ignored. Every card
with that shape: Battering Ram, Rustler Ram, Sheepdog and the Ram Herd Bonus.

Grazing Rights (RULES.md ruling): Order of Resolution, "you have to choose the targets for
these effects before the chain resolves" and "you can't choose the same target twice in
the same link", and Actions That Are Impossible, "If you have a card that's asking you to
do something impossible, you can't play it": the card it discards is this link's target
and not yet in the pile when the bring's target is chosen, so with no other Animal in the
pile the card cannot be played.
"""

from __future__ import annotations

import pytest

from bot.games.base import IllegalAction
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import Activate, Play
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


def test_battering_ram_sacrifices_a_downgrade_when_no_other_field_has_a_card():
    st = build(hands={"s0": ["battering_ram"]}, fields={"s0": ["leaky_roof"]})
    st, _ = play(st, "s0", "battering_ram")
    assert st.choice.prompt == "Do you want to use this effect (Battering Ram)?"
    assert _labels(st) == ["Yes", "No"]
    st, _ = pick(st, "yes")
    assert st.choice.prompt == "Choose a card in your Field to sacrifice (Battering Ram):"
    assert _labels(st) == ["Leaky Roof (s0)", "Battering Ram (s0)"]
    st, ev = pick_key(st, "leaky_roof")
    assert [e.text for e in ev] == ["s0 sacrifices Leaky Roof."]  # the destroy is ignored
    assert st.choice is None
    assert keys(st.fields["s0"]) == ["battering_ram"] and st.fields["s1"] == []
    assert keys(st.discard) == ["leaky_roof"]


def test_rustler_ram_sacrifices_when_no_basic_animal_can_be_stolen():
    st = build(hands={"s0": ["rustler_ram"]}, fields={"s0": ["muzzle"],
                                                      "s1": ["spitfire_llama"]})
    st, _ = play(st, "s0", "rustler_ram")
    assert st.choice.prompt == "Do you want to use this effect (Rustler Ram)?"
    st, _ = pick(st, "yes")
    assert _labels(st) == ["Muzzle (s0)", "Rustler Ram (s0)"]
    st, ev = pick_key(st, "muzzle")
    assert [e.text for e in ev] == ["s0 sacrifices Muzzle."]  # nothing to steal: ignored
    assert keys(st.fields["s0"]) == ["rustler_ram"]
    assert keys(st.fields["s1"]) == ["spitfire_llama"] and keys(st.discard) == ["muzzle"]


def test_battering_ram_alone_may_sacrifice_itself_or_decline():
    # Its own Field holds Battering Ram itself once it has entered: the sacrifice is
    # possible, so the effect is offered even with no other card anywhere.
    st = build(hands={"s0": ["battering_ram"]})
    st, _ = play(st, "s0", "battering_ram")
    assert st.choice.prompt == "Do you want to use this effect (Battering Ram)?"
    st, _ = pick(st, "no")
    assert st.choice is None and keys(st.fields["s0"]) == ["battering_ram"]


def test_sheepdog_discards_when_no_basic_animal_can_be_destroyed():
    st = build(active="s1", plays=1, fields={"s0": ["sheepdog"], "s1": ["spitfire_llama"]},
               hands={"s0": ["hay_harvest"]}, deck=["stampede", "snowed_in"])
    st = pass_turn(st)
    src = f"card:{find(st, 'sheepdog', st.fields['s0'])}"
    assert Activate(source=src) in E.legal_actions(st, "s0")
    st, ev = act(st, "s0", Activate(source=src))
    assert "s0 discards Hay Harvest." in [e.text for e in ev]
    assert [e.type for e in ev if e.type in ("discard", "destroy")] == ["discard"]
    assert keys(st.fields["s1"]) == ["spitfire_llama"] and keys(st.discard) == ["hay_harvest"]


def test_ram_herd_discards_when_no_animal_can_be_destroyed():
    st = build(active="s1", plays=1, fields={"s0": ["woolly_ram", "curlhorn_ram", "lamb_acorn"],
                                            "s1": ["golden_bell"]},
               hands={"s0": ["lasso"]})
    st = pass_turn(st)
    assert Activate(source="herd:ram") in E.legal_actions(st, "s0")
    st, ev = act(st, "s0", Activate(source="herd:ram"))
    assert [e.type for e in ev if e.type in ("discard", "destroy")] == ["discard"]
    assert keys(st.discard) == ["lasso"] and keys(st.fields["s1"]) == ["golden_bell"]


def test_ram_herd_still_not_offered_without_a_card_to_discard():
    st = build(active="s1", plays=1, fields={"s0": ["woolly_ram", "curlhorn_ram", "lamb_acorn"],
                                            "s1": ["golden_bell"]})
    st = pass_turn(st)
    assert [a for a in E.legal_actions(st, "s0") if isinstance(a, Activate)] == []


# -- Grazing Rights (RULES.md ruling: not playable when only its own discard could come back)


def test_grazing_rights_text_says_the_animal_was_already_in_the_pile():
    d = CAT[CAT.ids_of("grazing_rights")[0]]
    assert d.text == ("Discard a card, then bring an Animal card that was already in the "
                      "discard pile directly into your Field.")


def test_grazing_rights_refused_when_only_its_own_discard_could_come_back():
    st = build(hands={"s0": ["grazing_rights", "trail_llama"]}, discard=["golden_bell"])
    cid = find(st, "grazing_rights", st.hands["s0"])
    assert E.plays_for(st, "s0", cid) == []
    assert Play(card=cid) not in E.legal_actions(st, "s0")
    with pytest.raises(IllegalAction) as exc:
        E.apply(st, "s0", Play(card=cid))
    assert (exc.value.code, exc.value.message) == ("illegal", "You cannot do that right now.")
    # One Animal already in the pile: playable, and that Animal is the only one offered.
    st = build(hands={"s0": ["grazing_rights", "trail_llama"]},
               discard=["golden_bell", "suri_alpaca"])
    st, ev = play(st, "s0", "grazing_rights")  # one card to discard, one to bring: no question
    assert [e.text for e in ev if e.type in ("discard", "bring")] == [
        "s0 discards Trail Llama.",
        "s0 brings Suri Alpaca from the discard pile directly into their Field."]
    assert keys(st.fields["s0"]) == ["suri_alpaca"]
    assert keys(st.discard) == ["golden_bell", "trail_llama", "grazing_rights"]
