"""Deck data: seeds/llamas_alpacas.json (RULES.md: Llamas & Alpacas, deck)."""

import json
from collections import Counter

import pytest
from pydantic import ValidationError

from bot.games.llamas_alpacas.cards import SEED_PATH, DeckFile, cards_by_id, load_deck


def test_deck_has_82_cards_with_ids_1_to_82():
    deck = load_deck()
    assert len(deck.cards) == 82
    assert sorted(c.id for c in deck.cards) == list(range(1, 83))


@pytest.mark.parametrize("animal", ["llama", "alpaca"])
def test_per_animal_mix(animal):
    cards = [c for c in cards_by_id().values() if c.animal == animal]
    assert len(cards) == 41
    plain = Counter((c.colour, c.digit) for c in cards if not c.wild)
    assert len(plain) == 16 and set(plain.values()) == {2}  # 4 colours x 4 digits, 2 copies = 32
    stars = sorted(c.colour for c in cards if c.star and not c.white)
    assert stars == ["blue", "green", "red", "yellow"]
    whites = sorted(c.digit for c in cards if c.white and not c.star)
    assert whites == [1, 2, 3, 4]
    assert sum(1 for c in cards if c.star and c.white) == 1


def test_wild_cards_are_unique_and_18_in_all():
    wild = [c for c in cards_by_id().values() if c.wild]
    assert len(wild) == 18
    assert len({(c.animal, c.colour, c.digit) for c in wild}) == 18


def test_card_words():
    c = cards_by_id()[1]
    assert (c.animal, c.colour, c.digit) == ("llama", "red", 1)
    assert c.describe() == "a llama with a red cap and a 1"
    assert c.treat == "clover" and c.accessory == "cap"
    a = cards_by_id()[82]
    assert a.describe() == "an alpaca with a white bandana and a star"
    assert a.treat == "carrot" and a.accessory == "bandana"


def test_validation_rejects_a_broken_deck():
    data = json.loads(SEED_PATH.read_text())
    bad = dict(data, cards=data["cards"][:-1])
    with pytest.raises(ValidationError):
        DeckFile.model_validate(bad)
    dup = dict(data, cards=[*data["cards"][:-1], dict(data["cards"][0], id=82)])
    with pytest.raises(ValidationError):
        DeckFile.model_validate(dup)
    wrong = [dict(c) for c in data["cards"]]
    wrong[0]["colour"] = "blue"
    with pytest.raises(ValidationError):
        DeckFile.model_validate(dict(data, cards=wrong))
    unknown = [dict(c) for c in data["cards"]]
    unknown[0]["colour"] = "pink"
    with pytest.raises(ValidationError):
        DeckFile.model_validate(dict(data, cards=unknown))
