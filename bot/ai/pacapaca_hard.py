"""The Hard AI seat of Alpaca Pacapaca: determinized search (:mod:`bot.ai.search`).

Samples of what the view hides come from :mod:`bot.ai.pacapaca_sample`; alpacas are valued
by :mod:`bot.ai.pacapaca_values`. Playouts use :func:`rollout` (cheap rules on the sampled
state; the Normal heuristic for the rare negotiation steps, through the sampled state's
view) and :func:`evaluate` (the Normal heuristic's projected points, margin against the
best opponent).

Every decision is searched: draw / take the pile, which drawn card to keep, and in a
negotiation accept, decline, give up and the proposal the Normal heuristic would make. On
its turn the seat also searches deals a Normal partner accepts (:func:`offers`, from the
public cards only) as whole plans (:class:`Plan`: open, propose, accept), when they beat
Normal's draw / pile estimate by :data:`PLAN_EDGE`, and in the final round any deal a
Normal partner accepts, which leaves the pile to the next seat (:data:`DODGE_PILE`); in
playouts the other seats draw or take the pile by the Normal rule (:func:`normal_turn`).
The search plays every candidate on the same samples (paired rounds; 60 playouts, 120 at 2
players, :data:`ITERATIONS_FACTOR_BY_PLAYERS`) for 8 decisions (16 at 3 players, 22 at 4,
:data:`DEPTH_BY_PLAYERS`) and compares the Normal heuristic's projected points then; the
Normal heuristic's choice wins ties.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, cast

from bot.ai.pacapaca import draw_value, heuristic_policy, pile_value
from bot.ai.pacapaca_sample import Determinizer
from bot.ai.pacapaca_values import (
    KIND_OF,
    KINDS,
    alpaca_cards,
    alpaca_value,
    deal_gains,
    kept_length,
    kind_gains,
    seat_value,
    state_hope,
)
from bot.ai.search import Budget, SearchGame, ismcts, squash
from bot.games.base import Action, Pending, Result
from bot.games.pacapaca.cards import kind_table
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import (
    Accept,
    Draw2,
    Keep,
    PacapacaState,
    PacapacaView,
    Pass,
    Propose,
    StartNegotiation,
    TakePile,
)

ENGINE = PacapacaEngine()
#: Playouts per decision and decisions per playout (sized for p99 < 300 ms, bench/ai.py).
BUDGET = Budget(iterations=60, depth=8, paired=True)
#: Decisions per playout by player count where it is not ``BUDGET.depth``: about two
#: rounds of turns at 3 players, 22 at 4 (within the 300 ms budget because alpacas are
#: valued by kind counts, :mod:`bot.ai.pacapaca_values`); 5-6 players keep 8.
DEPTH_BY_PLAYERS = {3: 16, 4: 22}
#: ``BUDGET.iterations`` is multiplied by this for the player count (default 1): 2-player
#: decisions cost least.
ITERATIONS_FACTOR_BY_PLAYERS = {2: 2}


def _budget(view: PacapacaView) -> Budget:
    """:data:`BUDGET`, its depth from :data:`DEPTH_BY_PLAYERS` and its playouts times
    :data:`ITERATIONS_FACTOR_BY_PLAYERS` for the player count."""
    n = len(view.seats)
    depth = DEPTH_BY_PLAYERS.get(n, BUDGET.depth)
    iterations = BUDGET.iterations * ITERATIONS_FACTOR_BY_PLAYERS.get(n, 1)
    if (depth, iterations) == (BUDGET.depth, BUDGET.iterations):
        return BUDGET
    return replace(BUDGET, depth=depth, iterations=iterations)


#: A margin of this many projected points is worth tanh(1) of a win.
MARGIN_SCALE = 5.0
#: In playouts a seat takes the pile when what it knows of it is worth more than
#: :data:`DRAW_GAIN`: its own discards at their value, each card another seat put there
#: at :data:`UNKNOWN_GAIN` (a seat does not see those, even in a sample).
DRAW_GAIN = 2.0
UNKNOWN_GAIN = 1.0


def rollout(state: PacapacaState, seat: str, legal: Sequence[Action],
            rng: random.Random) -> Action:
    """A cheap player for playouts on a sampled state: keeps the drawn card worth more;
    takes the pile when what the seat knows of it (its own discards; the others' cards
    at an average value) beats drawing (:data:`DRAW_GAIN`), else draws; never opens a
    negotiation; inside one it plays as the Normal heuristic."""
    phase = state.phase
    if phase == "negotiation":
        return heuristic_policy(ENGINE.view(state, seat), legal, rng)
    if phase == "drawn":
        keeps = [a for a in legal if isinstance(a, Keep)]
        return max(keeps, key=lambda a: (seat_value(state, seat, (a.card,)), rng.random()))
    can_draw = any(isinstance(a, Draw2) for a in legal)
    if state.pile:
        own = [pc.card for pc in state.pile if pc.by == seat]
        gain = UNKNOWN_GAIN * (len(state.pile) - len(own))
        if own:
            gain += seat_value(state, seat, own) - seat_value(state, seat)
        if gain > DRAW_GAIN or not can_draw:
            return next(a for a in legal if isinstance(a, TakePile))
    if can_draw:
        return next(a for a in legal if isinstance(a, Draw2))
    return next((a for a in legal if isinstance(a, Pass)), legal[0])


def evaluate(state: PacapacaState, me: str) -> float:
    """The Normal heuristic's projected points of ``me`` against the best opponent,
    squashed into (0, 1). A player caught holding two drawn cards is counted with the
    better one added (a playout may stop between the draw and the keep)."""
    mine = 0.0
    other = -1e9
    holder = state.seats[state.active] if state.phase == "drawn" and state.drawn else None
    for seat in state.seats:
        if seat == holder:
            v = max(seat_value(state, seat, (c,)) for c in state.drawn)
        else:
            v = seat_value(state, seat)
        if seat == me:
            mine = v
        elif v > other:
            other = v
    return squash(mine - other, MARGIN_SCALE)


GAME = SearchGame(rollout, evaluate)

#: Playouts model the other seats' turns (draw or take the pile) by the Normal rule
#: itself, through their view of the sample (:data:`MODEL_OTHERS`).
MODEL_OTHERS = True


#: The searching seat's own later turns in a playout also follow the Normal draw-or-pile
#: rule (:func:`normal_turn`) instead of :func:`rollout`'s cheaper one.
MODEL_SELF = False
#: Weight of the final score margin in a finished playout's value (:meth:`_ModelGame.final`).
FINAL_MARGIN = 0.0


class _ModelGame:
    """Playouts for the seat ``me``: its own turns by :func:`rollout`, the other seats'
    turn choices by the Normal heuristic (what a Normal seat does; a Hard seat's pile
    poisoning pays only if the model takes the pile when Normal would)."""

    evaluate = staticmethod(evaluate)

    def __init__(self, me: str) -> None:
        self.me = me

    def rollout(self, state: PacapacaState, seat: str, legal: Sequence[Action],
                rng: random.Random) -> Action:
        if (seat != self.me or MODEL_SELF) and state.phase == "turn" and len(legal) > 1:
            return normal_turn(state, seat, legal)
        return rollout(state, seat, legal, rng)

    def final(self, state: PacapacaState, me: str) -> float:
        """A finished playout: the win share (1 alone, 1/k shared, 0 lost), weighted
        ``1 - FINAL_MARGIN`` plus :data:`FINAL_MARGIN` times the squashed final score
        margin against the best opponent (a decided game still prefers a better margin)."""
        res = ENGINE.result(state)
        assert res is not None
        share = 1.0 / len(res.winners) if me in res.winners else 0.0
        if not FINAL_MARGIN:
            return share
        best = max(v for s, v in res.scores.items() if s != me)
        return ((1 - FINAL_MARGIN) * share
                + FINAL_MARGIN * squash(res.scores[me] - best, MARGIN_SCALE))


def normal_turn(state: PacapacaState, seat: str, legal: Sequence[Action]) -> Action:
    """The Normal heuristic's draw-or-pile choice (``bot.ai.pacapaca._turn``:
    ``draw_value`` against ``pile_value``, drawing on a tie) computed on a sampled state
    for ``seat`` from what that seat knows (its alpaca, the public ones, its own discards
    in the pile); it never opens a negotiation (Normal seldom does). For playouts."""
    mine = alpaca_cards(state.alpacas[seat])
    others = tuple(sorted(kept_length(alpaca_cards(a))
                          for s, a in state.alpacas.items() if s != seat))
    hope = round(state_hope(state), 2)
    gains = kind_gains(mine, others, hope)
    seen = [c for a in state.alpacas.values() for c in (*a.neck, *a.babies)]
    own = [pc.card for pc in state.pile if pc.by == seat]
    seen_kinds = Counter(KIND_OF[c] for c in (*seen, *own))
    w = [(k[1] - seen_kinds[k[0]]) if (state.babies or not k[3]) else 0 for k in KINDS]
    total = sum(x for x in w if x > 0)
    options: list[tuple[float, Action]] = []
    for a in legal:
        if isinstance(a, Draw2):
            ev = 0.0
            if total == 1:
                ev = next(g for g, x in zip(gains, w, strict=True) if x > 0)
            elif total:
                for i, wi in enumerate(w):
                    if wi <= 0:
                        continue
                    for j, wj in enumerate(w):
                        pb = wj - (1 if i == j else 0)
                        if pb > 0:
                            ev += wi * pb * max(gains[i], gains[j])
                ev /= total * (total - 1)
            options.append((ev, a))
        elif isinstance(a, TakePile):
            gain = (alpaca_value(tuple(sorted((*mine, *own))), others, hope)
                    - alpaca_value(mine, others, hope))
            unknown = len(state.pile) - len(own)
            if unknown and total:
                avg = sum(x * g for x, g in zip(w, gains, strict=True) if x > 0) / total
                gain += unknown * avg * 0.9
            options.append((gain, a))
        elif isinstance(a, Pass):
            options.append((0.0, a))
    if not options:
        return legal[0]
    return max(options, key=lambda o: o[0])[1]


def _game(me: str) -> Any:
    return _ModelGame(me) if MODEL_OTHERS else GAME


def _candidates(view: PacapacaView, legal: Sequence[Action], rng: random.Random) -> list[Action]:
    """The Normal heuristic's choice first (it wins ties), then every other action but
    ``Propose`` and ``StartNegotiation`` (the Hard seat opens a negotiation only for a
    planned deal, :class:`Plan`, or when Normal would)."""
    pick = heuristic_policy(view, legal, random.Random(rng.random()))
    return [pick, *(a for a in legal if not isinstance(a, (Propose, StartNegotiation))
                    and a != pick)]


#: Deals searched per decision (the best by :func:`offers`' rank, all partners together).
MAX_PLANS = 4
#: ... and at most this many with one partner.
PLANS_PER_PARTNER = 2
#: A deal is searched only when its rank beats drawing / taking the pile by this much (a
#: deal ends the turn: it costs the draw).
PLAN_EDGE = 1.0
#: When another seat opens a negotiation with this one, also search counter-proposals
#: its Normal rule accepts (:func:`offers` with the roles swapped) against its deal.
COUNTER_OFFERS = True
#: Counter-proposals searched at most (the best by :func:`offers`' rank).
COUNTER_PLANS = 2
#: In the final round, search deals that leave the pile to the next seat (:func:`_plans`).
DODGE_PILE = True
#: Paired rounds at least, whatever the number of candidates (``BUDGET.iterations`` is the
#: total otherwise).
MIN_ROUNDS = 10


@dataclass(frozen=True)
class Plan:
    """A deal the Hard seat means to get, searched as one root action: (open a
    negotiation with ``partner`` when ``open``,) propose ``give`` for ``get`` and accept
    it; the partner then answers in the playout (the Normal rule)."""

    partner: str
    give: tuple[int, ...]
    get: tuple[int, ...]
    open: bool = True


def normal_accepts(view: PacapacaView, active: str, partner: str,
                   active_gives: Sequence[int], partner_gives: Sequence[int]) -> bool:
    """True when a Normal partner accepts this deal (``bot.ai.pacapaca._negotiate``: its
    gain is positive and beats the active player's gain shared among the other players
    by more than 0.5). Uses only public parts of ``view`` (alpacas, deck size, seats), so
    it is exact from any seat's view."""
    ga, gp = deal_gains(view, active, partner, active_gives, partner_gives)
    return gp > 0 and gp - ga / max(1, len(view.seats) - 1) > 0.5


#: Cards a searched deal moves at most (both ways together); from 5 players
#: :data:`MAX_DEAL_CARDS_MANY` (listing the deals with 4-5 partners' long necks is costly).
MAX_DEAL_CARDS = 3
MAX_DEAL_CARDS_MANY = 2


def _one_per_kind(cards: Sequence[int]) -> list[int]:
    kt = kind_table()
    seen: dict[str, int] = {}
    for c in sorted(cards):
        seen.setdefault(kt[c], c)
    return list(seen.values())


def offers(view: PacapacaView, me: str, partner: str, min_gain: float = 0.0
           ) -> list[tuple[float, tuple[int, ...], tuple[int, ...]]]:
    """Deals ``me`` (the active player) could propose to ``partner`` that a Normal
    partner accepts (:func:`normal_accepts`) and that gain ``me`` more than ``min_gain``
    projected points (default 0: something; ``-inf``: any deal it accepts), as
    (rank, give, get), best first. The rank is ``me``'s projected gain minus the
    partner's shared among the other players (Normal's measure). Shapes: one card of a
    kind (cards of one kind score alike) moved 1:0, 0:1, 1:1, 2:0, 0:2, 2:1 and 1:2 (from
    5 players at most 2 cards, :data:`MAX_DEAL_CARDS_MANY`).
    Reads only public parts of ``view``."""
    a = view.alpaca(me)
    b = view.alpaca(partner)
    mine = _one_per_kind([*a.neck, *a.babies])
    theirs = _one_per_kind([*b.neck, *b.babies])
    gives: list[tuple[int, ...]] = [(), *((g,) for g in mine), *combinations(mine, 2)]
    gets: list[tuple[int, ...]] = [(), *((t,) for t in theirs), *combinations(theirs, 2)]
    share = max(1, len(view.seats) - 1)
    most = MAX_DEAL_CARDS if len(view.seats) <= 4 else MAX_DEAL_CARDS_MANY
    out = []
    for give in gives:
        for get in gets:
            if not give and not get or len(give) + len(get) > most:
                continue
            ga, gp = deal_gains(view, me, partner, give, get)
            if ga <= min_gain or gp <= 0 or gp - ga / share <= 0.5:
                continue
            out.append((ga - gp / share, give, get))
    out.sort(key=lambda o: (-o[0], o[1], o[2]))
    return out


def _plans(view: PacapacaView, me: str, partners: Sequence[str], open_: bool) -> list[Plan]:
    """The deals worth searching: ranked above what drawing or taking the pile is worth
    to ``me`` (Normal's estimates) by more than :data:`PLAN_EDGE` (a deal ends the turn:
    it costs the draw). In the final round with cards on the pile (a seat must take it
    unless it makes a deal, and then the next seat must: RULES.md, Alpaca Pacapaca, End)
    the best-ranked deals a Normal partner accepts are searched whatever they gain, as
    ways to leave the pile to the next seat (:data:`DODGE_PILE`)."""
    dodge = DODGE_PILE and view.final_round and view.deck_size == 0 and view.pile_size > 0
    floor = max(draw_value(view, me), pile_value(view, me) if view.pile_size else -99.0)
    floor += PLAN_EDGE
    ranked = []
    for p in partners:
        ranked += [(r, p, g, t) for r, g, t in
                   offers(view, me, p, -1e9 if dodge else 0.0)[:PLANS_PER_PARTNER]
                   if dodge or r > floor]
    ranked.sort(key=lambda o: (-o[0], o[1], o[2], o[3]))
    return [Plan(p, g, t, open_) for _, p, g, t in ranked[:MAX_PLANS]]


class _PlanEngine:
    """The engine for playouts, also playing a :class:`Plan` as its steps."""

    def pending(self, state: PacapacaState) -> Pending:
        return ENGINE.pending(state)

    def legal_actions(self, state: PacapacaState, seat: str) -> list[Action]:
        return ENGINE.legal_actions(state, seat)

    def result(self, state: PacapacaState) -> Result | None:
        return ENGINE.result(state)

    def fork(self, state: PacapacaState) -> PacapacaState:
        return ENGINE.fork(state)

    def play(self, state: PacapacaState, seat: str, action: Any) -> None:
        if not isinstance(action, Plan):
            ENGINE.play(state, seat, action)
            return
        if action.open:
            ENGINE.play(state, seat, StartNegotiation(partner=action.partner))
        ENGINE.play(state, seat, Propose(give=list(action.give), get=list(action.get)))
        assert state.negotiation is not None
        ENGINE.play(state, seat, Accept(version=state.negotiation.deal_version))

    def play_legal(self, state: PacapacaState, seat: str, action: Action) -> None:
        """A rollout step, one of ``legal_actions`` (never a :class:`Plan`)."""
        ENGINE.play_legal(state, seat, action)


PLAN_ENGINE = _PlanEngine()


def _search(view: PacapacaView, legal: Sequence[Action], rng: random.Random,
            arms: Sequence[Any]) -> Any:
    budget = _budget(view)
    if len(arms) * MIN_ROUNDS > budget.iterations:
        budget = replace(budget, iterations=len(arms) * MIN_ROUNDS)
    me = view.viewer
    assert me is not None
    return ismcts(cast(Any, PLAN_ENGINE), _game(me), Determinizer(view), me, legal,
                  rng, budget, arms)


def hard_policy(view: PacapacaView, legal: Sequence[Action], rng: random.Random) -> Action:
    """The Hard seat: :func:`bot.ai.search.ismcts` over samples of what ``view`` hides,
    :data:`BUDGET` playouts. On its turn it also searches the deals a Normal partner
    would accept (:func:`offers`, at most :data:`MAX_PLANS`) as whole plans (open,
    propose, accept), against drawing and taking the pile; having opened, it proposes
    one of those deals (the search picks among them) and accepts its own proposal. Deterministic
    for ``rng``'s state; reads only ``view``. Raises ``ValueError`` when ``legal`` is
    empty."""
    if not legal:
        raise ValueError("no legal action")
    me = view.viewer
    if me is None:
        raise ValueError("the Hard seat needs its own view")
    if len(legal) == 1:
        return legal[0]
    base = _candidates(view, legal, rng)
    neg = view.negotiation
    if view.phase == "turn" and view.active == me:
        partners = [a.partner for a in legal if isinstance(a, StartNegotiation)]
        plans = _plans(view, me, partners, True) if partners else []
        if plans:
            arms = [*base, *plans]
            pick = _search(view, legal, rng, arms)
            return StartNegotiation(partner=pick.partner) if isinstance(pick, Plan) else pick
    elif view.phase == "negotiation" and neg is not None and neg.active == me:
        has_deal = bool(neg.active_gives or neg.partner_gives)
        if has_deal and neg.proposed_by == me and me not in neg.accepted:
            return Accept(version=neg.deal_version)
        if not has_deal and neg.proposals == 0 and neg.proposals_left > 0:
            # it opened for a planned deal: propose one (the search picks among them)
            plans = _plans(view, me, [neg.partner], False)[:PLANS_PER_PARTNER]
            if plans:
                pick = plans[0] if len(plans) == 1 else _search(view, legal, rng, plans)
                return Propose(give=list(pick.give), get=list(pick.get))
    elif view.phase == "negotiation" and neg is not None and neg.partner == me:
        has_deal = bool(neg.active_gives or neg.partner_gives)
        if has_deal and neg.proposed_by == me and me not in neg.accepted:
            return Accept(version=neg.deal_version)
        if COUNTER_OFFERS and neg.proposals_left > 0:
            table = (tuple(sorted(neg.partner_gives)), tuple(sorted(neg.active_gives)))
            counters = [Plan(neg.active, g, t, False)
                        for _, g, t in offers(view, me, neg.active)[:COUNTER_PLANS]
                        if (g, t) != table]
            if counters:
                pick = _search(view, legal, rng, [*base, *counters])
                if isinstance(pick, Plan):
                    return Propose(give=list(pick.give), get=list(pick.get))
                return cast(Action, pick)
    return ismcts(ENGINE, _game(me), Determinizer(view), me, legal, rng, _budget(view),
                  base)
