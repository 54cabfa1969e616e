"""Helpers to build hand-made Llamas & Alpacas states for tests."""

from __future__ import annotations

from bot.games.llamas_alpacas.cards import cards_by_id
from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.games.llamas_alpacas.models import LlamasAlpacasState, RowSlot

ENGINE = LlamasAlpacasEngine()
COLOUR_CODE = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "W": "white"}


def cid(code: str, nth: int = 0) -> int:
    """Card id from a code: animal L/A, colour R/B/G/Y/W, digit 1-4 or * (star).

    ``"LR1"`` = llama red 1, ``"AW*"`` = alpaca white star. ``nth`` picks the copy."""
    animal = {"L": "llama", "A": "alpaca"}[code[0]]
    colour = COLOUR_CODE[code[1]]
    digit = None if code[2] == "*" else int(code[2])
    ids = [
        c.id
        for c in cards_by_id().values()
        if (c.animal, c.colour, c.digit) == (animal, colour, digit)
    ]
    return sorted(ids)[nth]


def board(*codes: str | None) -> list[int | None]:
    """A 9-space board from codes (``None`` or ``"."`` = empty); copies picked distinct."""
    used: dict[str, int] = {}
    out: list[int | None] = []
    for code in codes:
        if code is None or code == ".":
            out.append(None)
            continue
        n = used.get(code, 0)
        used[code] = n + 1
        out.append(cid(code, n))
    assert len(out) == 9
    return out


def turn_state(
    seats: tuple[str, ...] = ("s0", "s1"),
    *,
    row: list[tuple[str, int, int]] | None = None,
    boards: dict[str, list[int | None]] | None = None,
    treats: dict[str, tuple[int, int]] | None = None,
    scores: dict[str, int] | None = None,
    first: int = 0,
    active: int = 0,
    seed: int = 7,
) -> LlamasAlpacasState:
    """A state in the ``"turn"`` phase with the given row (code, clovers, carrots),
    boards and treats; remaining cards are in the draw pile (order by id)."""
    s = ENGINE.new_game(list(seats), seed=seed)
    used: set[int] = set()
    for p in s.players:
        p.start_card = None
        p.board = list((boards or {}).get(p.seat, [None] * 9))
        used.update(c for c in p.board if c is not None)
        cl, ca = (treats or {}).get(p.seat, (3, 3))
        p.clovers, p.carrots = cl, ca
        p.score = (scores or {}).get(p.seat, 0)
    if row is not None:
        slots = []
        per_code: dict[str, int] = {}
        for code, cl, ca in row:
            n = per_code.get(code, 0)
            # Skip copies already used on boards.
            while cid(code, n) in used:
                n += 1
            per_code[code] = n + 1
            card_id = cid(code, n)
            used.add(card_id)
            slots.append(RowSlot(card=card_id, clovers=cl, carrots=ca))
        s.row = slots
    else:
        used.update(r.card for r in s.row)
    s.draw = sorted(set(cards_by_id()) - used)
    s.discard = []
    s.phase = "turn"
    s.first = first
    s.active = active
    return s


def all_cards(s: LlamasAlpacasState) -> list[int]:
    """Every card id in the state's places (may contain duplicates if broken)."""
    out = list(s.draw) + list(s.discard) + [r.card for r in s.row]
    for p in s.players:
        out += [c for c in p.board if c is not None]
        if p.start_card is not None:
            out.append(p.start_card)
    if s.held is not None:
        out.append(s.held)
    return out


def total_treats(s: LlamasAlpacasState) -> int:
    """Treats on players plus treats on row cards."""
    return sum(p.clovers + p.carrots for p in s.players) + sum(r.clovers + r.carrots for r in s.row)
