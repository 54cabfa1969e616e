"""Information-set search for the Hard AI seats.

A Hard seat knows only its own ``view()``. At each decision :func:`ismcts` repeats, for a
fixed number of iterations (an iteration budget, so a decision is deterministic for a
seed):

1. **determinize**: build a complete engine state from the view alone, sampling what the
   view hides (other hands, the deck order, face-down piles) uniformly among the cards the
   view leaves unaccounted for (the game's module does this; it never sees the real
   state);
2. **select** an own action at the root by UCB1 over the actions legal in the view (an
   information-set tree of depth one: every determinization shares the root's statistics,
   so the choice is averaged over the hidden information instead of fitted to one guess);
3. **play it out** with the engine's in-place path (:meth:`Engine.play`): the game's cheap
   rollout policy plays every seat for ``depth`` decisions, or to the end;
4. **evaluate** the reached state for the searching seat (1.0 a sole win, 0.0 a loss;
   a heuristic in between when the game goes on) and back the value up.

The action with the most visits is chosen (ties: the higher mean value, then the earlier
legal action). Pure: no I/O, no asyncio; the runtime calls it off the event loop.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.games.base import Action, Engine


class HardGame(Protocol):
    """What a game gives the search (both see only sampled states, never the real one)."""

    def rollout(self, state: Any, seat: str, legal: Sequence[Action], rng: random.Random) -> Action:
        """A cheap policy playing ``seat`` in a sampled state during playouts; returns one
        of ``legal`` (played with ``Engine.play_legal``, which may not check it)."""

    def evaluate(self, state: Any, me: str) -> float:
        """How good ``state`` is for ``me``, in [0, 1]. (A game may also give
        ``final(state, me)``, the value of a finished state in [0, 1]; without it a
        finished playout is worth :func:`terminal_value`.)"""



@dataclass(frozen=True)
class SearchGame:
    """A :class:`HardGame` made of a game module's two functions."""

    rollout: Callable[[Any, str, Sequence[Action], random.Random], Action]
    evaluate: Callable[[Any, str], float]

@dataclass(frozen=True)
class Budget:
    """Search size: ``iterations`` determinized playouts per decision, each played for
    at most ``depth`` decisions after the root action; ``c`` is UCB1's exploration
    constant (values are in [0, 1]). ``paired``: instead of UCB1, rounds in which every
    root action is played out on the same sample with the same playout seed (common
    random numbers: the actions are compared on equal luck, which suits few actions and
    noisy games); ``iterations`` is then the total over all actions. ``margin`` (paired
    only): the first candidate is the default (the heuristic's choice), kept unless
    another beats its mean value by more than ``margin``. ``keep`` (paired only, 0 = off):
    with more than ``keep + 1`` candidates, half the playouts go to rounds over all of
    them, the other half to rounds over the first candidate and the ``keep`` others with
    the best totals so far; the choice is made on all rounds of those."""

    iterations: int
    depth: int
    c: float = 0.7
    paired: bool = False
    margin: float = 0.0
    keep: int = 0


def ismcts(
    engine: Engine[Any, Any],
    game: HardGame,
    sample: Callable[[random.Random], Any],
    me: str,
    legal: Sequence[Action],
    rng: random.Random,
    budget: Budget,
    candidates: Sequence[Action] | None = None,
) -> Action:
    """Choose one of ``legal`` for seat ``me`` by determinized search (module docstring).

    ``sample(rng)`` returns a new full engine state consistent with what ``me`` sees (the
    game's determinizer, bound to the view); the search plays on it in place.

    ``candidates`` (default ``legal``) restricts the root to a subset worth searching.
    Deterministic for the state of ``rng``. Raises ``ValueError`` when ``legal`` is
    empty."""
    if not legal:
        raise ValueError("no legal action")
    arms = list(candidates) if candidates else list(legal)
    if len(arms) == 1:
        return arms[0]
    n_arms = len(arms)
    visits = [0] * n_arms
    totals = [0.0] * n_arms
    if budget.paired:
        live = list(range(n_arms))
        rounds = max(1, budget.iterations // n_arms)
        if 0 < budget.keep < n_arms - 1:
            rounds = max(1, budget.iterations // (2 * n_arms))
        for _ in range(rounds):
            _paired_round(engine, game, sample, me, arms, live, rng, budget, totals, visits)
        if 0 < budget.keep < n_arms - 1:
            rest = sorted(range(1, n_arms), key=lambda i: (-totals[i], i))[: budget.keep]
            live = [0, *sorted(rest)]
            spent = rounds * n_arms
            for _ in range(max(1, (budget.iterations - spent) // len(live))):
                _paired_round(engine, game, sample, me, arms, live, rng, budget, totals,
                              visits)
        best = max(live, key=lambda i: (totals[i], -i))
        if (totals[best] - totals[0]) / visits[0] <= budget.margin:
            return arms[0]
        return arms[best]
    for it in range(max(budget.iterations, n_arms)):
        if it < n_arms:
            arm = it
        else:
            log_n = math.log(it)
            c = budget.c
            arm = max(
                range(n_arms),
                key=lambda i: totals[i] / visits[i] + c * math.sqrt(log_n / visits[i]),
            )
        visits[arm] += 1
        totals[arm] += _playout(engine, game, sample(rng), me, arms[arm], rng, budget.depth)
    best = max(range(n_arms), key=lambda i: (visits[i], totals[i] / visits[i], -i))
    return arms[best]


def _paired_round(engine: Engine[Any, Any], game: HardGame,
                  sample: Callable[[random.Random], Any], me: str, arms: list[Action],
                  live: list[int], rng: random.Random, budget: Budget, totals: list[float],
                  visits: list[int]) -> None:
    """One paired round: every arm in ``live`` played out on one sample with one playout
    seed; adds to ``totals`` and ``visits`` in place."""
    base = sample(rng)
    seed = rng.getrandbits(32)
    for arm in live:
        state = engine.fork(base)
        totals[arm] += _playout(engine, game, state, me, arms[arm], random.Random(seed),
                                budget.depth)
        visits[arm] += 1


def _playout(engine: Engine[Any, Any], game: HardGame, state: Any, me: str, action: Action,
             rng: random.Random, depth: int) -> float:
    """Play ``action`` for ``me`` on ``state`` (in place), then the rollout policy for
    whoever decides, for at most ``depth`` decisions; the value of the end for ``me``."""
    play = engine.play
    play_legal = engine.play_legal
    pending = engine.pending
    legal_actions = engine.legal_actions
    result = engine.result
    rollout = game.rollout
    play(state, me, action)
    steps = 0
    while steps < depth and result(state) is None:
        seat = None
        acts: list[Action] = []
        for s in pending(state).seats:
            acts = legal_actions(state, s)
            if acts:
                seat = s
                break
        if seat is None:
            break
        play_legal(state, seat, rollout(state, seat, acts, rng))  # one of ``acts``
        steps += 1
    final = getattr(game, "final", None)  # optional: the game values a finished state
    if final is not None and result(state) is not None:
        return float(final(state, me))
    return terminal_value(engine, state, me, game.evaluate)


def terminal_value(
    engine: Engine[Any, Any], state: Any, me: str, evaluate: Callable[[Any, str], float]
) -> float:
    """1.0 when ``me`` won alone, ``1/k`` for a victory shared by k, 0.0 for a loss; the
    game's ``evaluate`` while the game goes on."""
    res = engine.result(state)
    if res is None:
        return evaluate(state, me)
    if me in res.winners:
        return 1.0 / len(res.winners)
    return 0.0


def squash(margin: float, scale: float) -> float:
    """A score margin (points ahead of the best opponent) as a value in (0, 1):
    ``0.5 + 0.5 * tanh(margin / scale)``."""
    return 0.5 + 0.5 * math.tanh(margin / scale)
