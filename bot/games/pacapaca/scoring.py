"""Alpaca Pacapaca scoring, as pure functions over card-id lists.

Source: rulebook "Calculating the Score" and "Optional: Baby Alpacas"; the order and the
details follow RULES.md, "Alpaca Pacapaca", scoring order:

1. remove incomplete illustrations (a ribbon is one left + one right half; a scarf is one
   top + one bottom, middles join complete scarves, middles without one are removed);
2. neck length = cards left, mud included: longest 4, second 2; tie for longest: 3 each
   and no second; tie for second: 1 each;
3. ribbon 6; scarf 2 per card; pendant 1 each, one +5 for all four kinds; mud -1 each;
   male baby 3 with a complete scarf, female baby 3 with a complete ribbon.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.games.base import ScoreLine
from bot.games.pacapaca.cards import Catalog, catalog, kind_table

PENDANTS = ("pendant_bell", "pendant_heart", "pendant_star", "pendant_leaf")


@dataclass(slots=True, kw_only=True)
class NeckAnalysis:
    """How one alpaca's cards form illustrations (a plain dataclass: the end of every
    random playout builds some, and nothing stores them).

    Attributes:
        scarves: each complete scarf as ``[top, middle..., bottom]`` card ids.
        ribbons: each complete ribbon as ``[left, right]``.
        removed: neck cards of incomplete illustrations (removed before scoring).
        kept: neck cards that stay (neck length = ``len(kept)``).
        pendants: pendant ids kept; mud: mud ids; plain: plain neck ids.
        loose: incomplete parts grouped by kind (``scarf_top``, ``ribbon_left`` ...).
        male_babies / female_babies: baby ids by sex.
    """

    scarves: list[list[int]] = field(default_factory=list)
    ribbons: list[list[int]] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)
    pendants: list[int] = field(default_factory=list)
    mud: list[int] = field(default_factory=list)
    plain: list[int] = field(default_factory=list)
    loose: dict[str, list[int]] = field(default_factory=dict)
    male_babies: list[int] = field(default_factory=list)
    female_babies: list[int] = field(default_factory=list)

    @property
    def length(self) -> int:
        """Neck length after removal (mud included, babies never)."""
        return len(self.kept)

    @property
    def pendant_kinds(self) -> int:
        """How many different pendant kinds are worn."""
        kt = kind_table()
        return len({kt[c] for c in self.pendants})


def analyse(neck: Sequence[int], babies: Sequence[int] = ()) -> NeckAnalysis:
    """Group an alpaca's neck cards into complete and incomplete illustrations.

    ``neck`` and ``babies`` are card ids (order irrelevant: completeness never depends on
    adjacency, RULES.md). Middles are dealt round-robin onto the complete scarves. Raises
    ``KeyError`` for an unknown id.
    """
    kt = kind_table()
    by: dict[str, list[int]] = {}
    pendants: list[int] = []
    mud: list[int] = []
    plain: list[int] = []
    for c in neck:  # one pass; every list keeps the neck's order
        k = kt[c]
        if k == "neck":
            plain.append(c)
        elif k == "mud":
            mud.append(c)
        elif k in PENDANTS:
            pendants.append(c)
        else:
            by.setdefault(k, []).append(c)
    tops, bottoms = sorted(by.get("scarf_top", ())), sorted(by.get("scarf_bottom", ()))
    middles = sorted(by.get("scarf_middle", ()))
    n_scarves = min(len(tops), len(bottoms))
    scarves: list[list[int]] = [[tops[i]] for i in range(n_scarves)]
    if n_scarves:
        for i, m in enumerate(middles):
            scarves[i % n_scarves].append(m)
        loose_mid: list[int] = []
    else:
        loose_mid = middles
    for i in range(n_scarves):
        scarves[i].append(bottoms[i])
    lefts, rights = sorted(by.get("ribbon_left", ())), sorted(by.get("ribbon_right", ()))
    n_ribbons = min(len(lefts), len(rights))
    loose = {
        "scarf_top": tops[n_scarves:],
        "scarf_middle": loose_mid,
        "scarf_bottom": bottoms[n_scarves:],
        "ribbon_left": lefts[n_ribbons:],
        "ribbon_right": rights[n_ribbons:],
    }
    loose = {k: v for k, v in loose.items() if v}
    if loose:
        removed_ids = {c for v in loose.values() for c in v}
        removed = [c for c in neck if c in removed_ids]
        kept = [c for c in neck if c not in removed_ids]
    else:
        removed, kept = [], list(neck)
    male: list[int] = []
    female: list[int] = []
    for c in babies:
        k = kt[c]
        if k == "baby_male":
            male.append(c)
        elif k == "baby_female":
            female.append(c)
    return NeckAnalysis(
        scarves=scarves,
        ribbons=[[lefts[i], rights[i]] for i in range(n_ribbons)],
        loose=loose,
        removed=removed,
        kept=kept,
        pendants=pendants,
        mud=mud,
        plain=plain,
        male_babies=male,
        female_babies=female,
    )


def length_points(lengths: Mapping[str, int], cat: Catalog | None = None) -> dict[str, int]:
    """Neck-length points per seat (RULES.md: Alpaca Pacapaca, scoring step 2).

    ``lengths``: seat -> neck length after removal. Longest: 4; second: 2; a tie for
    longest gives each tied seat 3 and nobody gets second; a tie for second gives each 1.
    Every other seat gets 0.
    """
    pts = (cat or catalog()).points
    out = {s: 0 for s in lengths}
    if not lengths:
        return out
    best = max(lengths.values())
    top = [s for s, n in lengths.items() if n == best]
    if len(top) > 1:
        for s in top:
            out[s] = pts.tied_longest
        return out
    out[top[0]] = pts.longest
    rest = {s: n for s, n in lengths.items() if s != top[0]}
    if not rest:
        return out
    second = max(rest.values())
    seconds = [s for s, n in rest.items() if n == second]
    for s in seconds:
        out[s] = pts.second if len(seconds) == 1 else pts.tied_second
    return out


def _length_label(points: int, cat: Catalog) -> str:
    p = cat.points
    return {
        p.longest: "longest",
        p.tied_longest: f"tied longest, {p.tied_longest} each, no second place",
        p.second: "second longest",
        p.tied_second: f"tied second, {p.tied_second} each",
    }.get(points, "")


def fashion_lines(a: NeckAnalysis, cat: Catalog | None = None) -> list[ScoreLine]:
    """The score lines of step 3 for one alpaca (only the lines that apply)."""
    cat = cat or catalog()
    p = cat.points
    lines: list[ScoreLine] = []
    if a.ribbons:
        n = len(a.ribbons)
        lines.append(ScoreLine(label=f"Bows x{n}", points=p.ribbon * n))
    if a.scarves:
        cards = sum(len(s) for s in a.scarves)
        lines.append(
            ScoreLine(
                label=f"Scarves x{len(a.scarves)} ({cards} cards)", points=p.scarf_per_card * cards
            )
        )
    if a.pendants:
        lines.append(
            ScoreLine(label=f"Charms x{len(a.pendants)}", points=p.pendant * len(a.pendants))
        )
        if a.pendant_kinds == len(PENDANTS):
            lines.append(ScoreLine(label="All four charms bonus", points=p.all_pendants_bonus))
    if a.mud:
        lines.append(ScoreLine(label=f"Mud x{len(a.mud)}", points=p.mud * len(a.mud)))
    if a.male_babies:
        ok = bool(a.scarves)
        lines.append(
            ScoreLine(
                label=f"Baby boy x{len(a.male_babies)}" + ("" if ok else " (no scarf)"),
                points=p.baby * len(a.male_babies) if ok else 0,
            )
        )
    if a.female_babies:
        ok = bool(a.ribbons)
        lines.append(
            ScoreLine(
                label=f"Baby girl x{len(a.female_babies)}" + ("" if ok else " (no bow)"),
                points=p.baby * len(a.female_babies) if ok else 0,
            )
        )
    return lines


@dataclass(slots=True, kw_only=True)
class SeatScore:
    """One seat's final scoring: the analysis, its score lines and the total."""

    seat: str
    analysis: NeckAnalysis
    lines: list[ScoreLine]
    total: int


def score_all(
    alpacas: Mapping[str, tuple[Sequence[int], Sequence[int]]], cat: Catalog | None = None
) -> dict[str, SeatScore]:
    """Score every alpaca. ``alpacas``: seat -> ``(neck ids, baby ids)``, in seat order.

    Returns seat -> :class:`SeatScore` whose lines are: neck length first (always present,
    possibly 0 points), then the fashion lines of :func:`fashion_lines`.
    """
    cat = cat or catalog()
    analyses = {s: analyse(n, b) for s, (n, b) in alpacas.items()}
    lp = length_points({s: a.length for s, a in analyses.items()}, cat)
    out: dict[str, SeatScore] = {}
    for s, a in analyses.items():
        tag = _length_label(lp[s], cat) if lp[s] else ""
        label = f"Neck {a.length} long" + (f", {tag}" if tag else "")
        lines = [ScoreLine(label=label, points=lp[s]), *fashion_lines(a, cat)]
        out[s] = SeatScore(seat=s, analysis=a, lines=lines, total=sum(x.points for x in lines))
    return out
