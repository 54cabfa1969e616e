"""Llamas Unleashed card data: loads and validates ``seeds/unleashed.json``.

Cards are data. Each design carries its rules text (our own words) and the machine form of
that text: a small effect tree (see :mod:`bot.games.unleashed.effects.ops`) for one-shot effects
(``play``, ``on_enter``, ``start``), ``static`` entries for continuous effects (queries) and
``instant`` for Instants. Physical cards get integer ids: the 12 Nursery Babies are ids
0-11 in file order, the 116 deck cards follow in file order with their copies expanded.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.paths import SEEDS_DIR

#: Where the seed file lives (``<repo>/seeds/unleashed.json``).
SEED_PATH = SEEDS_DIR / "unleashed.json"

Kind = Literal["llama", "alpaca", "goat", "ram"]
CardType = Literal["baby", "basic", "magical", "magic", "upgrade", "downgrade", "instant"]
KINDS: tuple[str, ...] = ("llama", "alpaca", "goat", "ram")
ANIMAL_TYPES: tuple[str, ...] = ("baby", "basic", "magical")
FIELD_TYPES: tuple[str, ...] = ("baby", "basic", "magical", "upgrade", "downgrade")
#: A card type's name on a card's type line (English: the catalogue's cards part
#: translates it, context ``card name``).
TYPE_NAMES: dict[str, str] = {
    "baby": "Baby Animal", "basic": "Basic Animal", "magical": "Magical Animal",
    "upgrade": "Upgrade", "downgrade": "Downgrade", "magic": "Magic", "instant": "Instant"}
#: A kind's name on a card's type line (as :data:`TYPE_NAMES`).
KIND_NAMES: dict[str, str] = {"llama": "Llama", "alpaca": "Alpaca", "goat": "Goat", "ram": "Ram"}

OpName = Literal[
    # atomic operations
    "draw", "discard", "sacrifice", "destroy", "steal", "return_card", "pull", "look_take",
    "bring", "search", "take_discard", "move", "swap_hands", "skip_turn", "extra_play",
    "reshuffle", "shield",
    # combinators
    "seq", "then", "if_you_do", "may", "choice", "for_each", "any_number",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Filter(_Strict):
    """Which cards an operation may pick: ``types`` (empty = any Field card), ``kind``."""

    types: list[CardType] = Field(default_factory=list)
    kind: Kind | None = None


class ChoiceOption(_Strict):
    """One branch of a ``choice`` effect: a label the player reads and its effect."""

    label: str
    eff: Effect


class Effect(_Strict):
    """One node of an effect tree (the vocabulary is documented in ``effects/ops.py``).

    Fields used per op: ``n`` (draw, discard), ``filter`` (discard, sacrifice, destroy,
    steal, return_card, bring, search, take_discard, move), ``whose`` ("other" or "any")
    for field targets, ``src`` for bring (hand, deck, discard, nursery), ``kind`` for
    shield, ``steps`` for seq, ``first``/``next`` for then and if_you_do,
    ``do``/``if_you_do`` for may, ``options`` for choice, ``who`` + ``eff`` for for_each (``each_player`` starts with
    you, ``each_player_you_last`` with the player after you, ``each_other`` leaves you out), ``eff`` for any_number,
    ``top`` for take_discard (only the top card of the pile).
    """

    op: OpName
    n: int = 1
    filter: Filter | None = None
    whose: Literal["other", "any"] = "other"
    src: Literal["hand", "deck", "discard", "nursery"] | None = None
    kind: Kind | None = None
    steps: list[Effect] = Field(default_factory=list)
    first: Effect | None = None
    next: Effect | None = None
    do: Effect | None = None
    if_you_do: Effect | None = None
    options: list[ChoiceOption] = Field(default_factory=list)
    who: Literal["each_player", "each_other", "each_player_you_last"] = "each_player"
    eff: Effect | None = None
    top: bool = False

    @model_validator(mode="after")
    def _shape(self) -> Effect:
        need = {
            "seq": self.steps, "then": self.first and self.next,
            "if_you_do": self.first and self.next, "may": self.do,
            "choice": self.options, "for_each": self.eff, "any_number": self.eff,
            "bring": self.src, "shield": self.kind,
        }
        if self.op in need and not need[self.op]:
            raise ValueError(f"effect {self.op!r} is missing its parts")
        return self


class Static(_Strict):
    """A continuous effect of a card in a Field, read by the engine's queries.

    ``q`` is one of: ``hand_limit`` (v added to the Field owner's hand limit), ``win``
    (v added to the Animals the owner needs), ``no_instants`` (scope ``you``: the owner
    cannot play Instants; ``others``: every other player cannot), ``ban_kind`` (Animals of
    ``kind`` cannot enter this Field), ``kind_override`` (Animals here are only ``kind``),
    ``protect`` (cards of ``types`` here cannot be destroyed), ``indestructible`` (this card
    cannot be destroyed), ``return_instead`` (destroyed/sacrificed: to the owner's hand),
    ``bodyguard`` (discarded instead of another Animal here being destroyed),
    ``skip_draw`` (owner skips the Draw phase), ``extra_plays`` (v more plays per Action
    phase), ``animal_value`` (this card counts as v Animals).
    """

    q: Literal[
        "hand_limit", "win", "no_instants", "ban_kind", "kind_override", "protect",
        "indestructible", "return_instead", "bodyguard", "skip_draw", "extra_plays",
        "animal_value",
    ]
    v: int = 0
    scope: Literal["you", "others"] = "you"
    kind: Kind | None = None
    types: list[CardType] = Field(default_factory=list)


class StartTrigger(_Strict):
    """"If this card is in your Field at the start of your turn ...": ``optional`` ones ask."""

    optional: bool
    eff: Effect


class InstantDef(_Strict):
    """An Instant: ``respond`` "any" (any card another player plays) or "animal";
    ``op`` "counter" (cancel; take it if of this card's kind) or "ambush"."""

    respond: Literal["any", "animal"]
    op: Literal["counter", "ambush"]


class CardDesign(_Strict):
    """One card design. ``copies`` physical cards share it."""

    key: str
    name: str
    type: CardType
    kind: Kind | None = None
    copies: int = 1
    #: The physical ids of this design's copies, for a design that took the place of
    #: removed cards: pinning them keeps every other card's id, so a game stored before the
    #: card set changed still holds the same designs. ``None``: the next free ids in file
    #: order.
    ids: list[int] | None = None
    text: str
    play: Effect | None = None
    on_enter: Effect | None = None
    start: StartTrigger | None = None
    static: list[Static] = Field(default_factory=list)
    instant: InstantDef | None = None

    @property
    def is_animal(self) -> bool:
        """True for Babies, Basic and Magical Animals."""
        return self.type in ANIMAL_TYPES

    @model_validator(mode="after")
    def _fits_type(self) -> CardDesign:
        if self.is_animal and self.kind is None:
            raise ValueError(f"{self.key}: an Animal needs a kind")
        if (self.type == "magic") != (self.play is not None):
            raise ValueError(f"{self.key}: exactly Magic cards have a play effect")
        if (self.type == "instant") != (self.instant is not None):
            raise ValueError(f"{self.key}: exactly Instants have an instant definition")
        if self.ids is not None and len(self.ids) != self.copies:
            raise ValueError(f"{self.key}: ids must name one id per copy")
        if self.type in ("magical", "upgrade", "downgrade") and not (
            self.on_enter or self.start or self.static
        ):
            raise ValueError(f"{self.key}: a {self.type} card needs an implemented effect")
        return self


class HerdBonus(_Strict):
    """One kind's Herd Bonus (RULES.md: Llamas Unleashed, Herd Bonus)."""

    text: str
    optional: bool
    eff: Effect


class Herd(_Strict):
    """Herd Bonuses: ``size`` or more Animals of one kind at the start of your turn."""

    size: int
    bonuses: dict[Kind, HerdBonus]


class CardSet(_Strict):
    """The file: Herd Bonuses, Nursery Babies and deck designs."""

    herd: Herd
    nursery: list[CardDesign]
    deck: list[CardDesign]


class Catalog:
    """The card set with physical ids.

    Attributes:
        designs: design key -> :class:`CardDesign`.
        cards: card id -> its design (index = id); ids 0..len(nursery)-1 are the Babies.
        nursery_ids / deck_ids: the physical ids of each starting zone.

    Deck designs with pinned ``ids`` take those ids; the others fill the free ids in file
    order. Raises ``ValueError`` for a duplicate key or pinned ids that clash or fall
    outside the deck.
    """

    def __init__(self, card_set: CardSet) -> None:
        self.card_set = card_set
        self.designs: dict[str, CardDesign] = {}
        self.cards: list[CardDesign] = []
        for design in [*card_set.nursery, *card_set.deck]:
            if design.key in self.designs:
                raise ValueError(f"duplicate card key {design.key!r}")
            self.designs[design.key] = design
        for design in card_set.nursery:
            self.cards.extend([design] * design.copies)
        self.nursery_ids = list(range(len(self.cards)))
        first = len(self.cards)
        total = first + sum(d.copies for d in card_set.deck)
        slots: list[CardDesign | None] = [None] * (total - first)
        for design in card_set.deck:
            for card_id in design.ids or []:
                if not first <= card_id < total or slots[card_id - first] is not None:
                    raise ValueError(f"{design.key}: pinned id {card_id} clashes or is out of range")
                slots[card_id - first] = design
        free = (i for i, d in enumerate(slots) if d is None)
        for design in card_set.deck:
            if design.ids is None:
                for _ in range(design.copies):
                    slots[next(free)] = design
        self.cards.extend(d for d in slots if d is not None)
        self.deck_ids = list(range(first, total))

    def __getitem__(self, card_id: int) -> CardDesign:
        return self.cards[card_id]

    def by_name(self, name: str) -> CardDesign:
        """The design called ``name`` (case-insensitive). Raises ``KeyError``."""
        for design in self.designs.values():
            if design.name.lower() == name.lower():
                return design
        raise KeyError(name)

    def ids_of(self, key: str) -> list[int]:
        """Physical ids of design ``key``."""
        return [i for i, d in enumerate(self.cards) if d.key == key]


def load_card_set(path: Path | str = SEED_PATH) -> CardSet:
    """Read and validate the seed file. Raises ``pydantic.ValidationError`` on bad data."""
    return CardSet.model_validate_json(Path(path).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The shared catalog of ``seeds/unleashed.json`` (loaded once)."""
    return Catalog(load_card_set())
