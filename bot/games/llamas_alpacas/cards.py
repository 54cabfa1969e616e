"""Loader for the Llamas & Alpacas deck (``seeds/llamas_alpacas.json``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from bot.games.llamas_alpacas.models import Card, DeckFile
from bot.paths import SEEDS_DIR

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
