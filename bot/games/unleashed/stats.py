"""Balance figures of Llamas Unleashed games (pure: no policies, no I/O).

A :class:`GameLog` watches one game action by action (:meth:`GameLog.observe` with the
Fields before the action and the state after it); :func:`summarize` turns many logs of the
same player count into a :class:`StatsTable`: median turns, rounds, cards leaving Fields,
first-seat win rate, each card design's lift (the win rate of a seat that played it over
the fair share ``1 / players``), how often the leader after three rounds wins, deck-outs.
``herdbot simulate llamas-unleashed --stats`` prints it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Action
from bot.games.unleashed.effects.statics import animal_count, card
from bot.games.unleashed.models import Play, Respond, UnleashedState

#: Rounds after which the leader is noted (the issue's "leader after three rounds").
LEADER_ROUNDS = 3
#: The reason text of a deck-out ending (``UnleashedEngine._check_end``).
DECK_OUT = "The deck ran out."


@dataclass
class GameLog:
    """What one game showed. ``first``: the seat of turn 1; ``turns``: turns begun;
    ``leaving``: cards that left a Field (destroyed, sacrificed, returned, stolen or moved
    out); ``played``: seat -> design keys it played (Action-phase plays and Instants);
    ``leaders``: the seats with the most Animals when turn ``3 * players + 1`` began
    (empty if the game ended sooner); ``winners``; ``deck_out``."""

    players: int
    first: str | None = None
    turns: int = 0
    leaving: int = 0
    played: dict[str, set[str]] = field(default_factory=dict)
    leaders: list[str] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    deck_out: bool = False
    finished: bool = False

    def observe(self, before: dict[str, list[int]], seat: str, action: Action,
                after: UnleashedState) -> None:
        """Note one applied action: ``before`` is a copy of ``state.fields`` taken before
        it, ``after`` the state after it."""
        if isinstance(action, (Play, Respond)):
            self.played.setdefault(seat, set()).add(card(action.card).key)
        for s, cards in before.items():
            now = after.fields[s]
            self.leaving += sum(1 for c in cards if c not in now)
        if self.first is None and after.turn >= 1:
            self.first = after.active
        if (not self.leaders and after.turn > LEADER_ROUNDS * self.players
                and after.phase != "over"):
            counts = {s: animal_count(after, s) for s in after.seats}
            best = max(counts.values())
            self.leaders = [s for s, n in counts.items() if n == best]
        self.turns = after.turn
        if after.result is not None:
            self.finished = True
            self.winners = list(after.result.winners)
            self.deck_out = after.result.reason == DECK_OUT


@dataclass
class StatsTable:
    """Figures over ``games`` games of ``players`` players (rates are 0-1).

    ``lift``: design key -> (seats that played it, their win rate / fair share);
    ``leader_wins``: share of games with a single leader after three rounds that this
    leader won (``leader_games`` such games)."""

    players: int
    games: int
    finished: int
    turns_median: float
    rounds_mean: float
    leaving_mean: float
    first_seat_wins: float
    leader_wins: float
    leader_games: int
    deck_outs: float
    no_winner: float
    lift: dict[str, tuple[int, float]]

    @property
    def fair(self) -> float:
        """The fair share of wins: ``1 / players``."""
        return 1 / self.players

    def top(self, n: int = 5, min_seats: int = 20) -> list[tuple[str, int, float]]:
        """The ``n`` designs with the highest lift among those played by at least
        ``min_seats`` seats: ``(key, seats, lift)``."""
        rows = [(k, m, lf) for k, (m, lf) in self.lift.items() if m >= min_seats]
        return sorted(rows, key=lambda r: -r[2])[:n]

    def as_dict(self) -> dict[str, Any]:
        """JSON shape (rates in percent, one decimal)."""
        return {
            "players": self.players, "games": self.games, "finished": self.finished,
            "turns_median": self.turns_median, "rounds_mean": round(self.rounds_mean, 1),
            "leaving_mean": round(self.leaving_mean, 2),
            "first_seat_wins_pct": round(100 * self.first_seat_wins, 1),
            "fair_pct": round(100 * self.fair, 1),
            "leader_wins_pct": round(100 * self.leader_wins, 1),
            "deck_outs_pct": round(100 * self.deck_outs, 1),
            "no_winner_pct": round(100 * self.no_winner, 1),
            "lift": {k: [m, round(lf, 2)] for k, (m, lf) in sorted(self.lift.items())},
        }


def summarize(logs: list[GameLog]) -> StatsTable:
    """Aggregate finished logs of one player count. Raises ``ValueError`` for no logs or
    mixed player counts."""
    if not logs or len({g.players for g in logs}) != 1:
        raise ValueError("summarize needs logs of one player count")
    n = logs[0].players
    done = [g for g in logs if g.finished]
    k = max(1, len(done))
    seats: dict[str, int] = {}
    wins: dict[str, int] = {}
    for g in done:
        for seat, keys in g.played.items():
            for key in keys:
                seats[key] = seats.get(key, 0) + 1
                wins[key] = wins.get(key, 0) + (seat in g.winners)
    led = [g for g in done if len(g.leaders) == 1]
    return StatsTable(
        players=n, games=len(logs), finished=len(done),
        turns_median=statistics.median([g.turns for g in done]) if done else 0.0,
        rounds_mean=sum(g.turns for g in done) / k / n,
        leaving_mean=sum(g.leaving for g in done) / k,
        first_seat_wins=sum(g.first in g.winners for g in done) / k,
        leader_wins=sum(g.leaders[0] in g.winners for g in led) / max(1, len(led)),
        leader_games=len(led),
        deck_outs=sum(g.deck_out for g in done) / k,
        no_winner=sum(not g.winners for g in done) / k,
        lift={key: (m, wins[key] / m * n) for key, m in seats.items()},
    )


def format_table(tables: list[StatsTable], top: int = 5, min_seats: int = 20) -> str:
    """A plain-text table (one column per player count) and each count's strongest
    designs by lift (designs played by at least ``min_seats`` seats)."""
    rows = [
        ("players", lambda t: str(t.players)),
        ("games (finished)", lambda t: f"{t.games} ({t.finished})"),
        ("turns, median", lambda t: f"{t.turns_median:g}"),
        ("rounds, mean", lambda t: f"{t.rounds_mean:.1f}"),
        ("cards leaving Fields/game", lambda t: f"{t.leaving_mean:.2f}"),
        ("first seat wins % (fair)", lambda t: f"{100 * t.first_seat_wins:.1f} "
                                               f"({100 * t.fair:.1f})"),
        ("leader after 3 rounds wins %", lambda t: f"{100 * t.leader_wins:.1f}"),
        ("deck-outs %", lambda t: f"{100 * t.deck_outs:.1f}"),
        ("max lift (design)", lambda t: (f"{t.top(1, min_seats)[0][2]:.2f} "
                                         f"{t.top(1, min_seats)[0][0]}"
                                         if t.top(1, min_seats) else "-")),
    ]
    width = max(len(r[0]) for r in rows)
    cols = [[f(t) for t in tables] for _, f in rows]
    cw = max(len(c) for col in cols for c in col)
    lines = [f"{label:<{width}}  " + "  ".join(f"{c:>{cw}}" for c in col)
             for (label, _), col in zip(rows, cols, strict=True)]
    for t in tables:
        best = ", ".join(f"{k} {lf:.2f}" for k, _, lf in t.top(top, min_seats))
        lines.append(f"top {top} lift at {t.players}p: {best}")
    return "\n".join(lines)
