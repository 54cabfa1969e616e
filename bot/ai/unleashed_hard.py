"""The Hard AI seat of Llamas Unleashed: determinized search (:mod:`bot.ai.search`).

Samples of what the view hides come from :mod:`bot.ai.unleashed_sample`. Searched
decisions: the Baby at set-up, start-of-turn triggers (Activate / Proceed), every play or
draw of the Action phase, Instant answers in a reaction window (Respond / Pass), the
end-of-turn discard down to the hand limit, and target choices (``Choose``) in the middle
of an effect chain, on samples rebuilt by :func:`~bot.ai.unleashed_sample.chain_sample`
(the Normal heuristic's answer when it cannot: a choice made while a link resolves, a
hand it has not seen).

Playouts run the Normal heuristic for every seat (:func:`rollout`, through
:func:`fast_view` of the sampled state) for :data:`BUDGET` ``.depth`` decisions;
:func:`evaluate` values where they stop: with 2 players Animals towards the win and hand
sizes against the opponent (:func:`margin_value`); from 3 players the chance of winning
from public counts (:func:`seat_features`, weights fitted on Normal self-play), which
knows that the player alone in the lead wins less often than its herd suggests (the
Normal seats attack the leader).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.ai.search import Budget, SearchGame, ismcts, squash
from bot.ai.unleashed import _leader, _play_score, heuristic_policy
from bot.ai.unleashed_sample import NoSample, chain_sample, determinize, end_discard
from bot.ai.unleashed_views import fast_view
from bot.games.base import Action
from bot.games.unleashed.effects.statics import animal_count, animals_to_win, card
from bot.games.unleashed.engine import UnleashedEngine
from bot.games.unleashed.models import Choose, Play, UnleashedState, UnleashedView

ENGINE = UnleashedEngine()
#: Playouts per decision and decisions per playout with 2 players (sized for p99 < 300
#: ms, bench/ai.py).
BUDGET = Budget(iterations=100, depth=10, paired=True)
#: With 4 players: longer playouts (a round of turns is longer), fewer of them; 3 players
#: and from 5 fewer still (:func:`budget_for`). Half the playouts over every candidate,
#: the other half over Normal's action and the best other one (``keep``), which is kept
#: only when its mean beats Normal's by ``margin``.
BUDGET_MANY = Budget(iterations=56, depth=18, paired=True, margin=0.025, keep=1)
#: Plays searched in the Action phase: the Normal heuristic's best few (and drawing).
PLAY_CANDIDATES = 4
#: Options searched at a target choice inside an effect chain (Normal's answer first).
CHOICE_CANDIDATES = 6
#: From 3 players: Normal's action first, then its best 4 plays.
PLAY_CANDIDATES_MANY = 4
CHOICE_CANDIDATES_MANY = 4


def rollout(state: UnleashedState, seat: str, legal: Sequence[Action],
            rng: random.Random) -> Action:
    """The Normal heuristic, on the sampled state's view for ``seat`` (:func:`fast_view`)."""
    return heuristic_policy(fast_view(state, seat), list(legal), rng)


def _worth(state: UnleashedState, seat: str) -> float:
    need = max(1, animals_to_win(state, seat))
    return animal_count(state, seat) / need * 6.0 + 0.15 * len(state.hands[seat])


def margin_value(state: UnleashedState, me: str) -> float:
    """The first evaluation: Animals towards the win (6 = a full herd) plus a little per
    card in hand, of ``me`` against the best opponent, squashed into (0, 1)."""
    mine = _worth(state, me)
    other = max(_worth(state, s) for s in state.seats if s != me)
    return squash(mine - other, 2.0)


#: Weights of :func:`seat_features` in :func:`evaluate` from 3 players, fitted by maximum
#: likelihood on Normal self-play (``python -m bench.unleashed_leaf``).
WEIGHTS_MANY = (-0.422, 1.001, 0.132, -0.064, 0.268, -0.301, 0.288, -0.064, -0.273, 0.284,
                0.192, -0.147, -0.057, -0.072)


def seat_features(state: UnleashedState) -> dict[str, list[float]]:
    """Per seat: Animals still missing (and whether that is 1, 2 or 3), hand size / 5, an
    empty hand, Upgrades, Downgrades, a skipped next turn, whether it is that seat's turn
    or the next one, whether it alone (or tied) misses the fewest Animals, and the plays
    left when it is that seat's Action phase. Public information only (counts)."""
    seats = state.seats
    n = len(seats)
    rems: dict[str, int] = {}
    out: dict[str, list[float]] = {}
    for s in seats:
        rems[s] = max(0, animals_to_win(state, s) - animal_count(state, s))
    act = seats.index(state.active) if state.active in seats else 0
    for i, s in enumerate(seats):
        rem = rems[s]
        best = min(rems[o] for o in seats if o != s)
        hand = len(state.hands[s])
        ups = downs = 0
        for c in state.fields[s]:
            t = card(c).type
            if t == "upgrade":
                ups += 1
            elif t == "downgrade":
                downs += 1
        off = (i - act) % n
        left = state.plays_left + state.card_plays if off == 0 and state.phase == "action" else 0
        out[s] = [rem, float(rem == 1), float(rem == 2), float(rem == 3), min(hand, 10) / 5,
                  float(hand == 0), ups, downs, float(s in state.skip_next), float(off == 0),
                  float(off == 1 and n > 2), float(rem < best), float(rem == best), left]
    return out


def evaluate(state: UnleashedState, me: str) -> float:
    """How good ``state`` is for ``me``, in (0, 1): with 2 players :func:`margin_value`;
    from 3 players the chance ``me`` wins, a softmax over the seats of
    :data:`WEIGHTS_MANY` . :func:`seat_features`."""
    if len(state.seats) <= 2:
        return margin_value(state, me)
    scores = {s: sum(a * b for a, b in zip(WEIGHTS_MANY, f, strict=True))
              for s, f in seat_features(state).items()}
    top = max(scores.values())
    total = sum(math.exp(v - top) for v in scores.values())
    return math.exp(scores[me] - top) / total


GAME = SearchGame(rollout, evaluate)


def hard_policy(view: UnleashedView, legal: Sequence[Action], rng: random.Random) -> Action:
    """The Hard seat: :func:`bot.ai.search.ismcts` over samples of what ``view`` hides,
    :func:`budget_for` playouts; a target choice inside an effect chain through
    :func:`chain_sample` (module docstring). Deterministic for ``rng``'s state. Raises
    ``ValueError`` when ``legal`` is empty."""
    if not legal:
        raise ValueError("no legal action")
    me = view.viewer
    if me is None:
        raise ValueError("the Hard seat needs its own view")
    if len(legal) == 1:
        return legal[0]
    acts = list(legal)
    budget = budget_for(len(view.seats))
    if any(isinstance(a, Choose) for a in legal) and not end_discard(view):
        return _mid_chain(view, acts, rng, budget)

    def sample(r: random.Random) -> Any:
        return determinize(view, acts, r)

    if len(view.seats) <= 2:
        return ismcts(ENGINE, GAME, sample, me, acts, rng, budget, candidates(view, acts))
    # From 3 players each decision weighs less against the noise of a few playouts: the
    # Normal heuristic's action is the default, left only for a clearly better one.
    normal = heuristic_policy(view, acts, random.Random(rng.getrandbits(32)))
    arms = candidates(view, acts, PLAY_CANDIDATES_MANY)
    arms = [normal, *(a for a in arms if a != normal)]
    return ismcts(ENGINE, GAME, sample, me, acts, rng, budget, arms)


def budget_for(players: int) -> Budget:
    """The search size at a table of ``players``: :data:`BUDGET` with 2, :data:`BUDGET_MANY`
    with 4; with 3 its playouts times 3/4 (42: a 3-player playout of the same length
    gives each seat more turns), from 5 times ``4 / players`` (rounded down: 44, 37, 32,
    28 at 5-8)."""
    if players <= 2:
        return BUDGET
    if players == 4:
        return BUDGET_MANY
    if players == 3:
        return replace(BUDGET_MANY, iterations=BUDGET_MANY.iterations * 3 // 4)
    return replace(BUDGET_MANY, iterations=BUDGET_MANY.iterations * 4 // players)


def _mid_chain(view: UnleashedView, acts: list[Action], rng: random.Random,
               budget: Budget) -> Action:
    """A target choice inside an effect chain: searched over samples rebuilt by
    :func:`chain_sample` (the Normal heuristic's answer first among at most
    :data:`CHOICE_CANDIDATES` options); the Normal heuristic's answer when the chain
    cannot be rebuilt."""
    normal = heuristic_policy(view, acts, rng)
    probe = chain_sample(view, acts, random.Random(rng.getrandbits(32)))
    if probe is None:
        return normal
    me = view.viewer or ""

    def sample(r: random.Random) -> Any:
        for _ in range(4):
            st = chain_sample(view, acts, r)
            if st is not None:
                return st
        raise NoSample

    n = CHOICE_CANDIDATES if len(view.seats) <= 2 else CHOICE_CANDIDATES_MANY
    arms = [normal, *(a for a in acts if a != normal)][:n]
    try:
        return ismcts(ENGINE, GAME, sample, me, acts, rng, budget, arms)
    except NoSample:
        return normal


def candidates(view: UnleashedView, legal: list[Action],
               n: int = PLAY_CANDIDATES) -> list[Action]:
    """The root actions worth searching: of the plays, the ``n`` the Normal heuristic
    scores best (in that order); every other action."""
    plays = [a for a in legal if isinstance(a, Play)]
    if len(plays) <= n or view.viewer is None:
        return legal
    hand = {c.id: c for c in view.hand or []}
    me = view.viewer or ""
    lead = _leader(view, me)
    ranked = sorted(plays, key=lambda a: -_play_score(view, me, a, hand, lead))
    return [*ranked[:n], *(a for a in legal if not isinstance(a, Play))]

