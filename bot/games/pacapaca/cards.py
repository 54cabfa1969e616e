"""Alpaca Pacapaca card data: loads and validates ``seeds/pacapaca.json``.

Every card has a stable integer id (neck deck 0-55, babies 56-59, heads 100-105, bodies
200-205) given by the ``first_id`` and ``count`` of its kind in the seed file. The counts
follow RULES.md, "Alpaca Pacapaca" (the 56-card neck deck, the primary set, the deck size
per player count, babies); tests check each of them.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from bot.paths import SEEDS_DIR

#: Where the seed file lives (``<repo>/seeds/pacapaca.json``).
SEED_PATH = SEEDS_DIR / "pacapaca.json"

Group = Literal["plain", "scarf", "ribbon", "pendant", "mud", "baby"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Design(_Strict):
    """A cosmetic head or body design: id, our own name, fill colour ``#rrggbb``."""

    id: int
    name: str
    colour: str = Field(pattern=r"^#[0-9a-f]{6}$")


class CardKind(_Strict):
    """One kind of neck-deck card or baby.

    Attributes:
        kind: stable key (``"scarf_top"``, ``"mud"``, ``"baby_male"`` ...).
        group: ``plain | scarf | ribbon | pendant | mud | baby``.
        name: display name (our own words); letter: a short mark paired with colour.
        count: copies; first_id: id of the first copy (ids ``first_id .. first_id+count-1``).
        blurb: one-line rules reminder in our own words.
    """

    kind: str
    group: Group
    name: str
    letter: str
    count: int = Field(gt=0)
    first_id: int = Field(ge=0)
    blurb: str

    @property
    def ids(self) -> list[int]:
        """The ids of every copy of this kind."""
        return list(range(self.first_id, self.first_id + self.count))


class Points(_Strict):
    """Point values (RULES.md: Alpaca Pacapaca, scoring order)."""

    longest: int
    second: int
    tied_longest: int
    tied_second: int
    ribbon: int
    scarf_per_card: int
    pendant: int
    all_pendants_bonus: int
    mud: int
    baby: int


class NegotiationRules(_Strict):
    """The negotiation clock in seconds and the proposal cap per negotiation.

    The cap is ours: it guarantees that a negotiation ends even without a clock
    (simulations); the real game is bounded by the 60 s deadline."""

    seconds: int = Field(gt=0)
    max_proposals: int = Field(gt=0)


class PlayerRange(_Strict):
    min: int
    max: int


class Catalog(_Strict):
    """The whole seed file, validated.

    Raises ``pydantic.ValidationError`` on overlapping ids, unknown kinds in the primary
    set, a primary set that is not one of each fashion kind, or random-card counts larger
    than the pool.
    """

    game: Literal["pacapaca"]
    players: PlayerRange
    heads: list[Design]
    bodies: list[Design]
    kinds: list[CardKind]
    primary_set: list[str]
    random_cards: dict[int, int]
    all_cards_from: int
    babies_forced_from: int
    points: Points
    negotiation: NegotiationRules
    _by_kind: dict[str, CardKind] = PrivateAttr(default_factory=dict)
    _by_id: dict[int, CardKind] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _check(self) -> Catalog:
        seen: set[int] = set()
        for design in [*self.heads, *self.bodies]:
            if design.id in seen:
                raise ValueError(f"duplicate id {design.id}")
            seen.add(design.id)
        keys = set()
        for kind in self.kinds:
            if kind.kind in keys:
                raise ValueError(f"duplicate kind {kind.kind}")
            keys.add(kind.kind)
            for cid in kind.ids:
                if cid in seen:
                    raise ValueError(f"duplicate id {cid}")
                seen.add(cid)
        fashion = {k.kind for k in self.kinds if k.group not in ("plain", "baby")}
        if sorted(self.primary_set) != sorted(fashion):
            raise ValueError("the primary set must hold one card of each fashion kind")
        pool = sum(k.count for k in self.kinds if k.group != "baby") - len(self.primary_set)
        for n, extra in self.random_cards.items():
            if not (self.players.min <= n <= self.players.max) or extra > pool:
                raise ValueError(f"bad random card count for {n} players")
        self._by_kind = {k.kind: k for k in self.kinds}
        self._by_id = {cid: k for k in self.kinds for cid in k.ids}
        return self

    # -- lookups -----------------------------------------------------------------------

    @property
    def neck_kinds(self) -> list[CardKind]:
        """Kinds of the 56-card neck deck (no babies)."""
        return [k for k in self.kinds if k.group != "baby"]

    @property
    def neck_deck(self) -> list[int]:
        """Every neck-deck card id, in id order."""
        return [cid for k in self.neck_kinds for cid in k.ids]

    @property
    def baby_ids(self) -> list[int]:
        """Every baby card id."""
        return [cid for k in self.kinds if k.group == "baby" for cid in k.ids]

    def kind(self, kind: str) -> CardKind:
        """The :class:`CardKind` named ``kind``. Raises ``KeyError``."""
        return self._by_kind[kind]

    def kind_of(self, card: int) -> str:
        """The kind key of card ``card``. Raises ``KeyError`` for a non-deck id."""
        return self._by_id[card].kind

    def card_kind(self, card: int) -> CardKind:
        """The :class:`CardKind` of card ``card``. Raises ``KeyError``."""
        return self._by_id[card]

    def name_of(self, card: int) -> str:
        """Display name of any card id, heads and bodies included. Raises ``KeyError``."""
        kind = self._by_id.get(card)
        if kind is not None:
            return kind.name
        for design in [*self.heads, *self.bodies]:
            if design.id == card:
                return design.name
        raise KeyError(card)

    def is_baby(self, card: int) -> bool:
        """True for a baby alpaca card."""
        return self._by_id[card].group == "baby"

    def primary_ids(self) -> list[int]:
        """The primary set: the first copy of each fashion kind (copies are identical)."""
        return [self.kind(k).first_id for k in self.primary_set]

    def babies_in(self, players: int, option: bool) -> bool:
        """Whether babies are in play: the option for 2-5 players, always from 6 players
        (RULES.md: Alpaca Pacapaca, babies)."""
        return option or players >= self.babies_forced_from

    def random_count(self, players: int) -> int | None:
        """How many random cards join the primary set; ``None`` = every card is used."""
        if players >= self.all_cards_from:
            return None
        return self.random_cards[players]


def load_catalog(path: Path | str = SEED_PATH) -> Catalog:
    """Read and validate a seed file. Raises ``OSError`` or ``pydantic.ValidationError``."""
    return Catalog.model_validate_json(Path(path).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The shipped catalog (loaded once)."""
    return load_catalog()


@lru_cache(maxsize=1)
def kind_table() -> dict[int, str]:
    """Card id -> kind key for every neck card and baby (a fast lookup for the engine)."""
    cat = catalog()
    return {cid: k.kind for k in cat.kinds for cid in k.ids}


@lru_cache(maxsize=1)
def group_table() -> dict[int, str]:
    """Card id -> group (``plain``, ``scarf``, ...) for every neck card and baby."""
    cat = catalog()
    return {cid: k.group for k in cat.kinds for cid in k.ids}
