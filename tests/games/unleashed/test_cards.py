"""Llamas Unleashed card set: the data loads in the stated mix, every design has an effect and
our own words, and stored card ids keep their designs (each design's effect is tested in
test_card_animals.py and test_card_actions.py)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.games.unleashed.cards import SEED_PATH, CardSet, Catalog, catalog

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
