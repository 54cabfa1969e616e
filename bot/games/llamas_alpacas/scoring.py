"""Pure rule helpers for Llamas & Alpacas: lines, line scoring and treat payment.

Board spaces are numbered 0-8, row by row (0 1 2 / 3 4 5 / 6 7 8). A line is a row or a
column, read left to right or top to bottom (RULES.md: Llamas & Alpacas, board; scoring).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from bot.games.llamas_alpacas.cards import COLOURS, DIGITS, WHITE, Card

#: The six lines: (name, spaces in line order).
LINES: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("Row 1", (0, 1, 2)),
    ("Row 2", (3, 4, 5)),
    ("Row 3", (6, 7, 8)),
    ("Column 1", (0, 3, 6)),
    ("Column 2", (1, 4, 7)),
    ("Column 3", (2, 5, 8)),
)

#: Points for 1, 2, 3 conditions met (rulebook "Scoring").
POINTS = {1: 2, 2: 4, 3: 6}

# A card as scoring sees it: (animal, colour or None for white, digit or None for star).
Key = tuple[str, str | None, int | None]


def card_key(card: Card) -> Key:
    """The scoring key of ``card``: white becomes ``None``, a star is ``None``."""
    return (card.animal, None if card.colour == WHITE else card.colour, card.digit)


def lines_through(space: int) -> list[tuple[str, tuple[int, int, int]]]:
    """The row and the column through ``space`` (0-8), row first."""
    return [LINES[space // 3], LINES[3 + space % 3]]


#: Per space 0-8, the row and the column through it (as :func:`lines_through`).
_THROUGH = tuple(tuple(lines_through(sp)) for sp in range(9))


def space_name(space: int) -> str:
    """``space`` (0-8) in words: ``"row 2, column 3"``."""
    return f"row {space // 3 + 1}, column {space % 3 + 1}"


@cache
def digit_run(digits: tuple[int | None, int | None, int | None]) -> tuple[int, int, int] | None:
    """Digits in line order (``None`` = star, any of 1-4) -> a resolved triple that is all
    equal or a run of consecutive digits ascending or descending in line order, or
    ``None`` when no star values make one (rulebook "Scoring": 1,2,3 or 4,3,2 but not
    1,3,2 or 1,2,4). Equal digits are preferred, then ascending, then descending."""
    choices = [DIGITS if d is None else (d,) for d in digits]
    found: list[tuple[int, tuple[int, int, int]]] = []
    for a, b, c in itertools.product(*choices):
        if a == b == c:
            found.append((0, (a, b, c)))
        elif b == a + 1 and c == b + 1:
            found.append((1, (a, b, c)))
        elif b == a - 1 and c == b - 1:
            found.append((2, (a, b, c)))
    return min(found)[1] if found else None


@dataclass(frozen=True)
class LineCheck:
    """The conditions one full line meets.

    Attributes:
        animal: the shared animal, or ``None``.
        colour: the shared colour (``"white"`` when all three are white), or ``None``.
        digits: the resolved digits (equal or a run), or ``None``.
        white_as: True when a white card counts as ``colour`` (said in :meth:`words`).
    """

    animal: str | None
    colour: str | None
    digits: tuple[int, int, int] | None
    white_as: bool = False

    @property
    def conditions(self) -> int:
        """How many of the three conditions are met (0-3)."""
        return (self.animal is not None) + (self.colour is not None) + (self.digits is not None)

    @property
    def points(self) -> int:
        """2, 4 or 6 points for 1, 2 or 3 conditions; 0 when none."""
        return POINTS.get(self.conditions, 0)

    def words(self) -> str:
        """The met conditions in words, e.g. ``"three llamas and 1-2-3"``."""
        parts = []
        if self.animal:
            parts.append(f"three {self.animal}s")
        if self.colour:
            parts.append(f"all {self.colour}" + (
                f" (white counts as {self.colour})" if self.white_as else ""))
        if self.digits:
            parts.append("-".join(str(d) for d in self.digits))
        return " and ".join(parts) if parts else "nothing matches"


def check_line(keys: tuple[Key, Key, Key]) -> LineCheck:
    """Check the three conditions for one full line of card keys in line order.

    Same animal; same colour where white matches any colour; digits equal or a run (a star
    is any digit). Source: rulebook "Scoring", RULES.md: Llamas & Alpacas, scoring.
    """
    (a1, c1, d1), (a2, c2, d2), (a3, c3, d3) = keys
    animal = a1 if a1 == a2 == a3 else None
    colours = {c1, c2, c3}
    colours.discard(None)
    colour: str | None
    if not colours:
        colour = WHITE
    elif len(colours) == 1:
        colour = next(iter(colours))
    else:
        colour = None
    white_as = colour is not None and colour != WHITE and None in (c1, c2, c3)
    return _line_check(animal, colour, digit_run((d1, d2, d3)), white_as)


@cache
def _line_check(
    animal: str | None, colour: str | None, digits: tuple[int, int, int] | None, white_as: bool
) -> LineCheck:
    """One shared (frozen) :class:`LineCheck` per outcome; there are a few hundred."""
    return LineCheck(animal, colour, digits, white_as)


@dataclass(frozen=True)
class ScoredLine:
    """A line that scored: its name, spaces, what it met and the points."""

    name: str
    spaces: tuple[int, int, int]
    check: LineCheck

    @property
    def points(self) -> int:
        """Points of this line (2, 4 or 6)."""
        return self.check.points

    def text(self) -> str:
        """E.g. ``"Row 2: three llamas and 1-2-3 - 4 points"``."""
        return f"{self.name}: {self.check.words()} - {self.points} points"


@dataclass(frozen=True)
class Placement:
    """What happens after a card lands on ``space``.

    Attributes:
        lines: the scoring lines (empty when nothing scores).
        full_lines: names of the full lines through the space that were checked.
        wild_choice: for a wild card completing a row and a column that both score with
            a shared value: ``(digit or None, colour or None)`` chosen for it.
        removed: spaces whose cards go to the discard pile (a shared card once).
    """

    lines: tuple[ScoredLine, ...] = ()
    full_lines: tuple[str, ...] = ()
    wild_choice: tuple[int | None, str | None] | None = None
    removed: tuple[int, ...] = field(default=())

    @property
    def points(self) -> int:
        """Total points scored."""
        return sum(line.points for line in self.lines)


def score_placement(board: list[Card | None], space: int) -> Placement:
    """Score the full lines through ``space`` after a card was placed or moved there.

    ``board`` is 9 cards or ``None`` (empty) and already holds the card on ``space``.
    When the card is wild, one value is chosen for its star and/or white and used for
    both lines; herdbot picks the value giving the most points (RULES.md: Llamas &
    Alpacas, scoring); among equal totals, the one scoring more lines (clearing more
    cards), then the lowest digit / first colour (red, blue, green, yellow).
    Raises ``ValueError`` if ``space`` is empty.
    """
    return score_keys([None if c is None else card_key(c) for c in board], space)


#: The result of a placement that completes no line.
NOTHING = Placement()


def score_keys(keys: Sequence[Key | None], space: int) -> Placement:
    """:func:`score_placement` over scoring keys (see :func:`card_key`) instead of cards:
    ``keys`` is 9 keys or ``None`` (empty), row by row. Same rules, same ``ValueError``."""
    base = keys[space]
    if base is None:
        raise ValueError("no card on that space")
    full = [
        (name, sp) for name, sp in _THROUGH[space]
        if keys[sp[0]] is not None and keys[sp[1]] is not None and keys[sp[2]] is not None
    ]
    if not full:
        return NOTHING
    digit_opts: tuple[int | None, ...] = DIGITS if base[2] is None else (base[2],)
    colour_opts: tuple[str | None, ...] = COLOURS if base[1] is None else (base[1],)
    wild = base[1] is None or base[2] is None
    if not wild or len(full) == 1:
        # Independent lines: the free evaluation already is the best for each line.
        digit_opts, colour_opts = (base[2],), (base[1],)
    # (total, lines scored, [(name, spaces, check)], wild choice) of the best value so far
    best: tuple[int, int, list[tuple[str, tuple[int, int, int], LineCheck]], tuple[int | None, str | None]] | None = None
    for d in digit_opts:
        for col in colour_opts:
            key = (base[0], col, d)
            scored = []
            total = 0
            for name, sp in full:
                a, b, c = sp
                chk = check_line((
                    key if a == space else keys[a],
                    key if b == space else keys[b],
                    key if c == space else keys[c],
                ))  # type: ignore[arg-type]
                points = POINTS.get(chk.conditions, 0)
                if points:
                    scored.append((name, sp, chk))
                    total += points
            if best is None or (total, len(scored)) > (best[0], best[1]):
                choice = (d if base[2] is None else None, col if base[1] is None else None)
                best = (total, len(scored), scored, choice)
    assert best is not None
    _, _, found, choice = best
    if not found:
        return _no_score(tuple(full))
    scored_lines = [ScoredLine(name, sp, chk) for name, sp, chk in found]
    removed = sorted({s for line in scored_lines for s in line.spaces})
    shared = wild and len(scored_lines) == 2
    return Placement(
        lines=tuple(scored_lines),
        full_lines=tuple(name for name, _ in full),
        wild_choice=choice if shared else None,
        removed=tuple(removed),
    )


@cache
def _no_score(full: tuple[tuple[str, tuple[int, int, int]], ...]) -> Placement:
    """The shared result of full lines that score nothing (a few dozen kinds)."""
    return Placement(full_lines=tuple(name for name, _ in full))


def payment(
    animals: Sequence[str], clovers: int, carrots: int, position: int
) -> list[tuple[int, int]] | None:
    """Treats paid to take the card at ``position`` (1-based) of a row of ``animals``.

    For each skipped card 1..position-1 in order: a llama gets 1 clover if the player has
    one, else 2 carrots; an alpaca gets 1 carrot, else 2 clovers (rulebook "Sequence of
    Play", RULES.md: Llamas & Alpacas, taking card k). Returns ``[(clovers, carrots)]`` per
    skipped card, or ``None`` when the player cannot pay for every skipped card.
    Raises ``ValueError`` for a position outside the row.
    """
    if not 1 <= position <= len(animals):
        raise ValueError("no card at that position")
    paid: list[tuple[int, int]] = []
    for animal in animals[: position - 1]:
        if animal == "llama":
            if clovers >= 1:
                clovers -= 1
                paid.append((1, 0))
            elif carrots >= 2:
                carrots -= 2
                paid.append((0, 2))
            else:
                return None
        else:
            if carrots >= 1:
                carrots -= 1
                paid.append((0, 1))
            elif clovers >= 2:
                clovers -= 2
                paid.append((2, 0))
            else:
                return None
    return paid


def affordable(animals: Iterable[str], clovers: int, carrots: int) -> int:
    """How many row positions are affordable: position k (1-based) can be taken iff
    ``k <= affordable(...)``. Same rule as :func:`payment`, computed in one pass over
    ``animals`` (the row in order; any iterable)."""
    count = 0
    for animal in animals:
        count += 1
        # Can the player pay for this card (so that the next position is reachable)?
        if animal == "llama":
            if clovers >= 1:
                clovers -= 1
            elif carrots >= 2:
                carrots -= 2
            else:
                return count
        else:
            if carrots >= 1:
                carrots -= 1
            elif clovers >= 2:
                clovers -= 2
            else:
                return count
    return count
