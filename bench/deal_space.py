"""``python -m bench.deal_space [--games N]``: how large Alpaca Pacapaca's deal space gets.

Plays ``N`` seeded games per policy (heuristic and random seats; 2-6 players in turn,
babies on every other seed) and, at every turn, sizes the deal space of a negotiation the
active player could open with each other seat: ``2 ** (cards of both alpacas) - 1``
deals (:class:`bot.games.pacapaca.models.DealSpace`). It also counts the :class:`Propose`
entries ``legal_actions`` lists in every negotiation the games reached. Prints the worst
case and the share of openings whose space is listed whole (``DEAL_LIST_LIMIT``).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from bot.ai.pacapaca import heuristic_policy, random_policy
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.legal import DEAL_LIST_LIMIT
from bot.games.pacapaca.models import PacapacaOptions, Propose


def measure(games: int) -> dict[str, object]:
    """Play ``games`` seeded games per policy; returns the worst opening (cards, deals,
    where), the most ``Propose`` entries one ``legal_actions`` listed, and the share of
    openings with at most ``DEAL_LIST_LIMIT`` deals."""
    engine = PacapacaEngine()
    cards_seen: Counter[int] = Counter()
    worst: tuple[int, str] = (0, "")
    listed_max = 0
    for name, policy in (("heuristic", heuristic_policy), ("random", random_policy)):
        for seed in range(games):
            n = 2 + seed % 5
            state = engine.new_game([f"p{i}" for i in range(n)], seed=seed,
                                    options=PacapacaOptions(babies=seed % 2 == 1))
            rand = random.Random(seed)
            while state.phase != "finished":
                seat = next(x for x in engine.pending(state).seats
                            if engine.legal_actions(state, x))
                legal = engine.legal_actions(state, seat)
                if state.phase == "turn":
                    mine = state.alpacas[seat]
                    for other in state.seats:
                        if other != seat:
                            theirs = state.alpacas[other]
                            k = len(mine.neck) + len(mine.babies)
                            k += len(theirs.neck) + len(theirs.babies)
                            cards_seen[k] += 1
                            if k > worst[0]:
                                worst = (k, f"{name} seats, seed {seed}, {n} players, "
                                            f"turn {state.turn_number}")
                listed_max = max(listed_max, sum(isinstance(a, Propose) for a in legal))
                engine.play(state, seat, policy(engine.view(state, seat), legal, rand))
    openings = sum(cards_seen.values())
    small = sum(v for k, v in cards_seen.items() if 2**k - 1 <= DEAL_LIST_LIMIT)
    return {
        "games": 2 * games,
        "worst_cards": worst[0],
        "worst_deals": 2 ** worst[0] - 1,
        "worst_at": worst[1],
        "most_listed": listed_max,
        "listed_whole_share": round(small / openings, 3),
        "openings": openings,
    }


def main() -> None:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200, help="games per policy (default 200)")
    args = ap.parse_args()
    for key, value in measure(args.games).items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
