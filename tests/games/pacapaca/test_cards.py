"""Card data counts (RULES.md: Alpaca Pacapaca, the neck deck, primary set, babies)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from pydantic import ValidationError

from bot.games.pacapaca.cards import SEED_PATH, Catalog, catalog


def test_neck_deck_has_56_cards_in_the_ruled_counts():
    cat = catalog()
    counts = {k.kind: k.count for k in cat.neck_kinds}
    assert counts == {
        "neck": 8,
        "scarf_top": 4,
        "scarf_middle": 4,
        "scarf_bottom": 4,
        "ribbon_left": 4,
        "ribbon_right": 4,
        "pendant_bell": 4,
        "pendant_heart": 4,
        "pendant_star": 4,
        "pendant_leaf": 4,
        "mud": 12,
    }
    assert len(cat.neck_deck) == 56
    assert cat.neck_deck == list(range(56))


def test_babies_two_male_two_female_with_stable_ids():
    cat = catalog()
    assert cat.baby_ids == [56, 57, 58, 59]
    assert [cat.kind_of(i) for i in cat.baby_ids] == [
        "baby_male",
        "baby_male",
        "baby_female",
        "baby_female",
    ]


def test_six_heads_and_six_bodies_with_distinct_names():
    cat = catalog()
    assert [d.id for d in cat.heads] == list(range(100, 106))
    assert [d.id for d in cat.bodies] == list(range(200, 206))
    assert len({d.name for d in [*cat.heads, *cat.bodies]}) == 12


def test_primary_set_is_one_of_each_of_the_ten_fashion_kinds():
    cat = catalog()
    ids = cat.primary_ids()
    assert len(ids) == 10
    kinds = Counter(cat.kind_of(i) for i in ids)
    assert all(v == 1 for v in kinds.values())
    assert "neck" not in kinds and len(kinds) == 10


@pytest.mark.parametrize(("players", "extra"), [(2, 10), (3, 20), (4, 30), (5, 40), (6, None)])
def test_random_cards_per_player_count(players, extra):
    assert catalog().random_count(players) == extra


def test_points_table():
    p = catalog().points
    assert (p.longest, p.second, p.tied_longest, p.tied_second) == (4, 2, 3, 1)
    assert (p.ribbon, p.scarf_per_card, p.pendant, p.all_pendants_bonus, p.mud, p.baby) == (
        6,
        2,
        1,
        5,
        -1,
        3,
    )
    assert catalog().negotiation.seconds == 60


def test_babies_forced_with_six_players_only():
    cat = catalog()
    assert cat.babies_in(6, False) is True
    assert cat.babies_in(5, False) is False
    assert cat.babies_in(2, True) is True


def test_names_and_kinds_lookups():
    cat = catalog()
    assert cat.kind_of(8) == "scarf_top" and cat.kind_of(55) == "mud"
    assert cat.name_of(100) == cat.heads[0].name
    with pytest.raises(KeyError):
        cat.kind_of(60)


def _raw():
    return json.loads(SEED_PATH.read_text())


def test_overlapping_ids_are_refused():
    raw = _raw()
    raw["kinds"][1]["first_id"] = 7
    with pytest.raises(ValidationError):
        Catalog.model_validate(raw)


def test_bad_primary_set_is_refused():
    raw = _raw()
    raw["primary_set"] = raw["primary_set"][:-1] + ["neck"]
    with pytest.raises(ValidationError):
        Catalog.model_validate(raw)


def test_random_count_larger_than_pool_is_refused():
    raw = _raw()
    raw["random_cards"]["5"] = 47
    with pytest.raises(ValidationError):
        Catalog.model_validate(raw)
