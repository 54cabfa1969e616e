"""Player ratings: the Weng-Lin Plackett-Luce model of the ``openskill`` package, pure (no
I/O). A game's seats are ranked by the engine's :class:`~bot.games.base.Result` (winners
first, then by final score; equal places share a rank); members' seats are rated, AI seats
play at their level's fixed rating (:data:`AI_RATINGS`) and never change.

Shared places: openskill 6.2's Plackett-Luce rates a place shared by two below the place
after it (openskill.py issue 155), so a tie is rated as the mean of the library's updates
over the tied seats' orders, each seat taking each place of its group equally often
(:func:`library_with_ties`): tied seats of equal ratings move alike, and above the next
place.

Who is rated (RULES.md proposal "Ratings"): a game with a ``rated`` option left on and at
least 2 members seated; every member whose seat the AI has not taken over at the end. A
seat the AI took over is played at the Normal AI's fixed rating for the others' update and
leaves its member's rating unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.games.base import Result

#: The model every rating uses (openskill's defaults: mu 25, sigma 25/3, beta 25/6).
MODEL = PlackettLuce()
#: A member's rating before their first rated game.
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma

#: Each AI level's fixed rating ``(mu, sigma)`` per game kind, calibrated from 300 simulated
#: 3-seat games of Easy, Normal and Hard per game (``python -m bench.ratings_calibrate
#: --games 300``): each level rated as one player game after game, then Normal moved to
#: :data:`DEFAULT_MU` (a new member's rating) and the others by the same amount, with the
#: fitted sigma. In Llamas Unleashed Hard fits below Normal (146 wins to Normal's 148, and
#: more last places).
AI_RATINGS: dict[str, dict[str, tuple[float, float]]] = {
    "llamas-alpacas": {"easy": (-12.5, 4.2), "normal": (25.0, 2.5), "hard": (37.8, 2.6)},
    "pacapaca": {"easy": (16.4, 1.9), "normal": (25.0, 1.8), "hard": (25.9, 1.8)},
    "llamas-unleashed": {"easy": (13.4, 1.8), "normal": (25.0, 1.8), "hard": (21.6, 1.8)},
}


@dataclass(frozen=True)
class Rating:
    """A rating: ``mu`` (the skill estimate) and ``sigma`` (its uncertainty)."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative rating the leaderboard orders by: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Entry:
    """One seat of a finished game as rated: the seat id, its member (``None``: played by
    the AI), the AI level that plays it when not a member's, and its rank (0 first)."""

    seat: str
    user_id: int | None
    level: str | None
    rank: int


def ai_rating(kind: str, level: str | None) -> Rating:
    """The fixed rating of AI ``level`` in game ``kind`` (Normal for an unknown level; the
    default rating for a game with no calibration)."""
    levels = AI_RATINGS.get(kind)
    if levels is None:
        return Rating()
    mu, sigma = levels.get(level or "normal", levels["normal"])
    return Rating(mu, sigma)


def ranks(result: Result, seats: Sequence[str]) -> dict[str, int]:
    """Each of ``seats``' rank (0 first): the winners share rank 0, the others follow by
    final score, highest first, equal scores sharing a place (a shared place takes the
    ranks after it, as in 1, 1, 3)."""
    winners = [s for s in seats if s in result.winners]
    rest = sorted((s for s in seats if s not in result.winners),
                  key=lambda s: -result.scores.get(s, 0))
    out = dict.fromkeys(winners, 0)
    for i, seat in enumerate(rest):
        before = rest[i - 1] if i else None
        same = before is not None and result.scores.get(before, 0) == result.scores.get(seat, 0)
        out[seat] = out[before] if same and before is not None else len(winners) + i
    return out


def rate(kind: str, entries: Sequence[Entry], current: Mapping[int, Rating]
         ) -> dict[str, Rating]:
    """The rating of every seat of ``entries`` after the game (one-member teams): members
    from ``current`` (default :class:`Rating` when absent) updated by the model, AI seats at
    their fixed :func:`ai_rating`. Raises ``ValueError`` for fewer than 2 entries."""
    if len(entries) < 2:
        raise ValueError("a rated game has at least 2 seats")
    before = [current.get(e.user_id, Rating()) if e.user_id is not None
              else ai_rating(kind, e.level) for e in entries]
    after = library_with_ties(before, [e.rank for e in entries])
    return {e.seat: (a if e.user_id is not None else b)
            for e, a, b in zip(entries, after, before, strict=True)}


def library_with_ties(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The model's update of one-player teams ``before`` ranked by ``places`` (0 first,
    equal places shared). Without a shared place: the library's update. With shared
    places: the mean ``mu`` and ``sigma`` of the library's updates over ``n`` orders
    (``n``: the least common multiple of the groups' sizes), where order ``j`` ranks the
    ``k`` seats of a group by rotation ``j mod k`` of their seat order."""
    groups: dict[int, list[int]] = {}
    for i, place in enumerate(places):
        groups.setdefault(place, []).append(i)
    rounds = math.lcm(*(len(g) for g in groups.values()))
    sums = [[0.0, 0.0] for _ in before]
    for j in range(rounds):
        ranks = [0.0] * len(before)
        for place, seats in groups.items():
            k = len(seats)
            for pos, seat in enumerate(seats):
                ranks[seat] = place + (pos - j) % k
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        for i, team in enumerate(MODEL.rate(teams, ranks=ranks)):
            sums[i][0] += team[0].mu
            sums[i][1] += team[0].sigma
    return [Rating(mu / rounds, sigma / rounds) for mu, sigma in sums]
