"""Llamas & Alpacas cards: the card data (RULES.md: Llamas & Alpacas, deck) and the
loader of the deck file (``seeds/llamas_alpacas.json``).

A :class:`Card` is one physical card: an animal (llama or alpaca), an accessory colour
(``"white"`` is wild: any colour) and a digit 1-4 (``None`` is a star: any digit).
Llamas wear caps and bring clovers; alpacas wear bandanas and bring carrots; only the
colour counts for scoring.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.paths import SEEDS_DIR

Animal = Literal["llama", "alpaca"]
Colour = Literal["red", "blue", "green", "yellow", "white"]

ANIMALS: tuple[Animal, ...] = ("llama", "alpaca")
#: The four real colours; ``"white"`` is the wild colour.
COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
WHITE = "white"
DIGITS: tuple[int, ...] = (1, 2, 3, 4)
DECK_SIZE = 82


class Card(BaseModel):
    """One card.

    Attributes:
        id: stable integer id (1-82), used in states, actions and events.
        animal: ``"llama"`` or ``"alpaca"``.
        colour: ``"red"``, ``"blue"``, ``"green"``, ``"yellow"`` or the wild ``"white"``.
        digit: 1-4, or ``None`` for the wild star.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: int = Field(ge=1)
    animal: Animal
    colour: Colour
    digit: Literal[1, 2, 3, 4] | None

    @property
    def star(self) -> bool:
        """True when the digit is a wild star."""
        return self.digit is None

    @property
    def white(self) -> bool:
        """True when the accessory is the wild white."""
        return self.colour == WHITE

    @property
    def wild(self) -> bool:
        """True for a star or a white accessory (not allowed as a starting card)."""
        return self.digit is None or self.colour == WHITE

    @property
    def accessory(self) -> str:
        """``"cap"`` for llamas, ``"bandana"`` for alpacas."""
        return "cap" if self.animal == "llama" else "bandana"

    @property
    def treat(self) -> str:
        """The matching treat: ``"clover"`` for llamas, ``"carrot"`` for alpacas."""
        return "clover" if self.animal == "llama" else "carrot"

    def describe(self) -> str:
        """The card in words, e.g. ``"a llama with a red cap and a 2"``."""
        article = "an" if self.animal == "alpaca" else "a"
        mark = "a star" if self.digit is None else f"a {self.digit}"
        return f"{article} {self.animal} with a {self.colour} {self.accessory} and {mark}"

    def short(self) -> str:
        """A compact label, e.g. ``"Llama red 2"`` or ``"Alpaca white ★"``."""
        mark = "★" if self.digit is None else str(self.digit)
        return f"{self.animal.capitalize()} {self.colour} {mark}"


class DeckFile(BaseModel):
    """The seed file ``seeds/llamas_alpacas.json``.

    Validation (raises ``pydantic.ValidationError``): ids unique and exactly 1..82; per
    animal 2 copies of each colour x digit card, one star card per colour, one white card
    per digit and one star-and-white card (RULES.md: Llamas & Alpacas, deck).
    """

    model_config = ConfigDict(extra="forbid")

    game: Literal["llamas-alpacas"]
    notes: str = ""
    cards: list[Card]

    @model_validator(mode="after")
    def _check_deck(self) -> DeckFile:
        ids = [c.id for c in self.cards]
        if sorted(ids) != list(range(1, DECK_SIZE + 1)):
            raise ValueError(f"card ids must be exactly 1..{DECK_SIZE}, each once")
        kinds = Counter((c.animal, c.colour, c.digit) for c in self.cards)
        expected: Counter[tuple[str, str, int | None]] = Counter()
        for animal in ANIMALS:
            for colour in COLOURS:
                for digit in DIGITS:
                    expected[(animal, colour, digit)] = 2
                expected[(animal, colour, None)] = 1
            for digit in DIGITS:
                expected[(animal, WHITE, digit)] = 1
            expected[(animal, WHITE, None)] = 1
        if kinds != expected:
            raise ValueError("the deck does not have the card mix of RULES.md")
        return self


#: Default location of the deck data: ``<repo>/seeds/llamas_alpacas.json``.
SEED_PATH = SEEDS_DIR / "llamas_alpacas.json"


def load_deck(path: Path | str | None = None) -> DeckFile:
    """Read and validate the deck file. Raises ``OSError`` if unreadable and
    ``pydantic.ValidationError`` if the data breaks the deck rules."""
    text = Path(path or SEED_PATH).read_text(encoding="utf-8")
    return DeckFile.model_validate_json(text)


@lru_cache(maxsize=1)
def cards_by_id() -> dict[int, Card]:
    """All 82 cards of the default seed file keyed by id (cached; cards are frozen)."""
    return {c.id: c for c in load_deck().cards}


def card(card_id: int) -> Card:
    """The card with ``card_id``. Raises ``KeyError`` for an unknown id."""
    return cards_by_id()[card_id]
