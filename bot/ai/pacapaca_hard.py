"""The Hard AI seat of Alpaca Pacapaca: determinized search (:mod:`bot.ai.search`).

What the view hides: which of the cards nobody has seen are in the game (the primary set
always is; the random extra cards are not shown), the deck order, the face-down pile
(except the viewer's own discards still in it) and another player's two drawn cards.
:func:`determinize` (:class:`Determinizer`) picks the hidden cards (every unseen primary
card, the rest drawn at random from the unseen extra cards so the counts of the view add
up) and deals them into the deck, the others' part of the pile and the drawn cards: each
of the others' pile cards is drawn weighted by what the view shows of the moment it was
put there (``view.discards``: who, the card they added with it, the table then;
:func:`keep_weights`: a Normal seat keeps the drawn card worth more to it, so its discard
was worth less than the card it kept), and a sample whose pile contradicts a draw another
seat chose over taking the pile is dealt again (:class:`DrawCheck`, up to
:data:`DRAW_TRIES` times); a pile card with no recorded moment is weighted by how likely
its seat was to throw that kind away now (:func:`discard_weights`); the rest at random.
Playouts use
:func:`rollout` (cheap rules on the sampled state; the Normal heuristic for the rare
negotiation steps, through the sampled state's view) and :func:`evaluate` (the Normal
heuristic's projected points, margin against the best opponent).

Every decision is searched: draw / take the pile, which drawn card to keep, and in a
negotiation accept, decline, give up and the proposal the Normal heuristic would make. On
its turn the seat also searches deals a Normal partner accepts (:func:`offers`, from the
public cards only) as whole plans (:class:`Plan`: open, propose, accept), when they beat
Normal's draw / pile estimate by :data:`PLAN_EDGE`, and in the final round any deal a
Normal partner accepts, which leaves the pile to the next seat (:data:`DODGE_PILE`); in
playouts the other seats draw or take the pile by the Normal rule (:func:`normal_turn`).
The search plays every candidate on the same samples (paired rounds; 60 playouts, 120 at 2
players, :data:`ITERATIONS_FACTOR_BY_PLAYERS`) for 8 decisions (16 at 3-4 players,
:data:`DEPTH_BY_PLAYERS`) and compares the Normal heuristic's projected points then; the
Normal heuristic's choice wins ties. (Playouts to the end of the game, and keeping Normal's
choice unless beaten by a margin, did worse in 100-game trials: see bench/README.md.)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import Any, cast

from bot.ai.pacapaca import (
    draw_value,
    fashion_points_of,
    heuristic_policy,
    kept_length_of,
    pile_value,
)
from bot.ai.search import Budget, SearchGame, ismcts, squash
from bot.games.base import Action, Pending, Result
from bot.games.pacapaca.cards import catalog, kind_table
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import (
    Accept,
    Alpaca,
    DiscardView,
    Draw2,
    Keep,
    Negotiation,
    PacapacaOptions,
    PacapacaState,
    PacapacaView,
    Pass,
    PileCard,
    Propose,
    StartNegotiation,
    TakePile,
)
from bot.games.pacapaca.scoring import length_points

ENGINE = PacapacaEngine()
#: Playouts per decision and decisions per playout (sized for p99 < 300 ms, bench/ai.py).
BUDGET = Budget(iterations=60, depth=8, paired=True)
#: Decisions per playout by player count where it is not ``BUDGET.depth``: about two
#: rounds of turns at 3 players (4 players, seeds 1-100: 34.7 wins against 30.0 with 8);
#: 22 at 4 players (seeds 1-500: 218.42/500 = 43.7%, against 192.83/500 with 16). 22 fits
#: the 300 ms budget since alpacas are valued by kind counts (:func:`_sig`): 4 players,
#: ``bench.ai --timing --games 20 --seed 7000``, p50 57-62 ms, p99 121-136, max 150-160,
#: against 16 before that change p50 81-86, p99 151-167, max 164-173 (the same run).
#: 5-6 players keep 8 (6 players, 4 games: p99 339 ms with 12 before that change).
DEPTH_BY_PLAYERS = {3: 16, 4: 22}


#: ``BUDGET.iterations`` is multiplied by this for the player count (default 1): 2-player
#: decisions cost least (p99 77 ms with 60 playouts), and 120 did 300.5/500 against
#: 297.5/500 on seeds 1-500.
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


def _pools() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(primary set, other neck cards, babies) card ids."""
    cat = catalog()
    primary = tuple(cat.primary_ids())
    rest = tuple(c for c in cat.neck_deck if c not in set(primary))
    return primary, rest, tuple(cat.baby_ids)


_PRIMARY, _REST, _BABIES = _pools()


#: Floor of a card's weight as another seat's discard (its alpaca has changed since it
#: discarded, so no card is ruled out).
DISCARD_FLOOR = 0.02
#: Weigh the others' pile cards by how likely their seat was to discard them
#: (:func:`discard_weights`); ``False``: uniform (tuning only).
INFER_DISCARDS = True
#: The weights are raised to this power (tuning: above 1 trusts the Normal model more).
DISCARD_SHARPNESS = 1.0


def _unseen_kinds(view: PacapacaView) -> dict[str, int]:
    """Kind -> copies the view does not show (deck, others' discards, others' drawn)."""
    kt = _KIND_OF
    left = {k: n for k, n, _, baby in _KINDS if view.babies or not baby}
    seen = [*view.my_discards, *view.drawn]
    for a in view.alpacas:
        seen += [*a.neck, *a.babies]
    for c in seen:
        k = kt[c]
        if k in left:
            left[k] -= 1
    return {k: n for k, n in left.items() if n > 0}


def discard_weights(view: PacapacaView, seat: str) -> dict[str, float]:
    """Kind -> how likely ``seat`` (playing the Normal rule: it keeps the drawn card worth
    more to its alpaca) put a card of that kind on the pile when it drew one: the chance
    that the other card drawn with it, from the kinds the view does not show, is worth
    more to ``seat``'s alpaca as the view shows it now (a tie counts half), floored at
    :data:`DISCARD_FLOOR`. Reads only public parts of ``view`` and its unseen counts."""
    a = view.alpaca(seat)
    mine = tuple(sorted((*a.neck, *a.babies)))
    others = tuple(sorted(_length(tuple(sorted((*x.neck, *x.babies))))
                          for x in view.alpacas if x.seat != seat))
    hope = round(_hope_n(view.deck_size, len(view.seats)), 2)
    gains = dict(zip((k for k, *_ in _KINDS), _kind_gains(mine, others, hope), strict=True))
    left = _unseen_kinds(view)
    out: dict[str, float] = {}
    total = sum(left.values()) - 1
    for k in left:
        if total <= 0:
            out[k] = 1.0
            continue
        worse = 0.0
        for x, m in left.items():
            m -= x == k
            if m <= 0:
                continue
            if gains[x] > gains[k]:
                worse += m
            elif gains[x] == gains[k]:
                worse += 0.5 * m
        out[k] = max(DISCARD_FLOOR, (worse / total) ** DISCARD_SHARPNESS)
    return out


#: Weight of a card that a Normal seat would have kept instead of the card it did keep
#: (:func:`keep_weights`): not ruled out, since the seat may not play the Normal rule.
KEEP_FLOOR = 0.02
#: Weigh the others' pile cards by the card kept with each (:func:`keep_weights`);
#: ``False``: by :func:`discard_weights` only (tuning only).
INFER_KEEPS = True


def keep_weights(view: PacapacaView, entry: DiscardView) -> dict[int, float] | None:
    """Card id -> how likely ``entry``'s face-down card is that card, from the public
    moment of the discard: its player drew two cards, added ``entry.kept`` and put the
    other on the pile. A Normal seat keeps the card worth more to its alpaca as the table
    stood then (``bot.ai.pacapaca._keep``: projected points, the lower id on a tie), so a
    card worth less than the kept one weighs 1, one worth more :data:`KEEP_FLOOR`.
    ``None`` when the moment was not recorded. Reads only public parts of ``view``."""
    if entry.kept is None or not entry.before:
        return None
    seats = view.seats
    i = seats.index(entry.by)
    mine = tuple(entry.before[i])
    others = tuple(sorted(_length(tuple(sorted(a))) for j, a in enumerate(entry.before)
                          if j != i))
    hope = _hope_n(entry.deck_size, len(seats))
    kept = entry.kept
    v_kept = _value(tuple(sorted((*mine, kept))), others, hope)
    by_kind = {k: _value(tuple(sorted((*mine, first))), others, hope)
               for k, _, first, _ in _KINDS}
    kt = _KIND_OF
    out: dict[int, float] = {}
    for c in kt:
        v = by_kind[kt[c]]
        out[c] = 1.0 if v < v_kept or (v == v_kept and c > kept) else KEEP_FLOOR
    return out


#: Samples tried per determinization for one whose pile agrees with every draw the
#: other seats chose over taking the pile (:class:`DrawCheck`); the last is kept if none.
DRAW_TRIES = 6
#: Check the others' draws against the pile (:class:`DrawCheck`); ``False``: tuning only.
INFER_DRAWS = True


class DrawCheck:
    """What one other seat's draw says about its own cards in the pile: at the public
    moment of a pile card it put there (``entries[j]``), it drew instead of taking the
    pile, which then held ``entries[:j]``. A Normal seat (``bot.ai.pacapaca._turn``)
    draws when ``draw_value`` is at least ``pile_value``, and the latter counts its own
    face-down cards at their worth to it, so a sample that makes its own discards then
    worth more than drawing is unlikely. Built from public parts of a view only."""

    def __init__(self, view: PacapacaView, entries: Sequence[DiscardView], j: int,
                 slots: Sequence[int]) -> None:
        e = entries[j]
        i = view.seats.index(e.by)
        self.slots = tuple(slots)  # indexes into the others' pile cards: the seat's own
        self.unknown = j - len(self.slots)
        self.mine = tuple(sorted(e.before[i]))
        self.others = tuple(sorted(_length(tuple(sorted(a))) for k, a in enumerate(e.before)
                                   if k != i))
        self.hope = _hope_n(e.deck_size + 2, len(view.seats))
        self.gains = _kind_gains(self.mine, self.others, self.hope)
        seen = Counter(_KIND_OF[c] for a in e.before for c in a)
        self.base = [n - seen[k] if view.babies or not baby else 0
                     for k, n, _, baby in _KINDS]
        self.cache: dict[tuple[int, ...], bool] = {}

    def holds(self, theirs: Sequence[int]) -> bool:
        """True when drawing was worth at least taking the pile to the seat, its own
        pile cards being ``theirs[slots]`` (cached by their ids)."""
        own = tuple(sorted(theirs[k] for k in self.slots))
        hit = self.cache.get(own)
        if hit is None:
            hit = self.cache[own] = self._holds(own)
        return hit

    def _holds(self, own: tuple[int, ...]) -> bool:
        w = list(self.base)
        index = _KIND_INDEX
        for c in own:
            w[index[_KIND_OF[c]]] -= 1
        g = self.gains
        kinds = [k for k, x in enumerate(w) if x > 0]
        total = sum(w[k] for k in kinds)
        draw = 0.0
        if total == 1:
            draw = g[kinds[0]]
        elif total:
            for a in kinds:
                for b in kinds:
                    pb = w[b] - (a == b)
                    if pb > 0:
                        draw += w[a] * pb * max(g[a], g[b])
            draw /= total * (total - 1)
        pile = 0.0
        if own:
            pile = (_value(tuple(sorted((*self.mine, *own))), self.others, self.hope)
                    - _value(self.mine, self.others, self.hope))
        if self.unknown and total:
            pile += self.unknown * sum(w[k] * g[k] for k in kinds) / total * 0.9
        return draw >= pile - 1e-9


class Determinizer:
    """Samples full states consistent with ``view`` (module docstring); the weights of
    the others' discards (:func:`discard_weights`) are worked out once per view. Reads
    nothing but ``view``."""

    def __init__(self, view: PacapacaView) -> None:
        self.view = view
        me = view.viewer
        seen: set[int] = set(view.my_discards) | set(view.drawn)
        for a in view.alpacas:
            seen.update(a.neck)
            seen.update(a.babies)
        self.others_drawn = view.drawn_count if not view.drawn else 0
        self.hidden_n = (view.deck_size + view.pile_size - len(view.my_discards)
                         + self.others_drawn)
        self.primary = [c for c in _PRIMARY if c not in seen]
        self.extra = [c for c in (_REST + _BABIES if view.babies else _REST) if c not in seen]
        self.others = [s for s in view.seats if s != me] or list(view.seats)
        self.slots = view.pile_size - len(view.my_discards)
        entries = view.discards if len(view.discards) == view.pile_size else None
        if entries is not None:
            theirs = [e for e in entries if e.by != me]
            self.by = [e.by for e in theirs]
            self.order = [e.by != me for e in entries]
            self.moments = [PileCard(card=0, by=e.by, kept=e.kept, deck=e.deck_size,
                                     alpacas=tuple(tuple(a) for a in e.before))
                            for e in entries]
        else:  # no public moments: the others' cards spread over the other seats
            theirs = []
            self.by = [self.others[i % len(self.others)] for i in range(self.slots)]
            self.order = []
            self.moments = []
        self.checks: list[DrawCheck] = []
        if entries is not None and INFER_DRAWS:
            slot_of: dict[int, int] = {}
            for j, e in enumerate(entries):
                if e.by != me:
                    slot_of[j] = len(slot_of)
            for j, e in enumerate(entries):
                if e.by != me and j and e.before:
                    own = [slot_of[i] for i in range(j) if entries[i].by == e.by]
                    self.checks.append(DrawCheck(view, entries, j, own))
        self.weights: dict[str, dict[str, float]] = {}
        self.card_weights: list[dict[int, float] | None] = [None] * len(self.by)
        if self.slots:
            if INFER_KEEPS:
                self.card_weights = [keep_weights(view, e) for e in theirs] or self.card_weights
            if INFER_DISCARDS:
                for seat, w in zip(self.by, self.card_weights, strict=True):
                    if w is None and seat not in self.weights:
                        self.weights[seat] = discard_weights(view, seat)

    def __call__(self, rng: random.Random) -> PacapacaState:
        """One sample (the state of ``rng`` decides it)."""
        for _ in range(DRAW_TRIES if self.checks else 1):
            hidden, theirs = self._deal(rng)
            if all(check.holds(theirs) for check in self.checks):
                break
        return self._state(rng, hidden, theirs)

    def _deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """The hidden cards but the others' pile cards, and those (in pile order)."""
        hidden = list(self.primary)
        need = max(0, self.hidden_n - len(hidden))
        hidden += rng.sample(self.extra, min(need, len(self.extra)))
        rng.shuffle(hidden)
        theirs: list[int] = []
        kt = _KIND_OF
        for seat, cw in zip(self.by, self.card_weights, strict=True):
            if cw is not None:
                weights = [cw[c] for c in hidden]
            elif seat in self.weights:
                w = self.weights[seat]
                weights = [w.get(kt[c], DISCARD_FLOOR) for c in hidden]
            else:
                theirs.append(hidden.pop())
                continue
            pick = rng.choices(range(len(hidden)), weights=weights)[0]
            theirs.append(hidden.pop(pick))
        return hidden, theirs

    def _state(self, rng: random.Random, hidden: list[int], theirs: list[int]
               ) -> PacapacaState:
        view = self.view
        me = view.viewer
        deck = hidden[: view.deck_size]
        rest = hidden[view.deck_size:]
        drawn = list(view.drawn) if view.drawn else rest[: self.others_drawn]
        if self.moments:
            mine_it, theirs_it = iter(view.my_discards), iter(theirs)
            pile = [replace(m, card=next(theirs_it) if other else next(mine_it))
                    for m, other in zip(self.moments, self.order, strict=True)]
        else:
            pile = [PileCard(card=c, by=me or self.others[0]) for c in view.my_discards]
            pile += [PileCard(card=c, by=b) for c, b in zip(theirs, self.by, strict=False)]
            rng.shuffle(pile)
        neg = None
        if view.negotiation is not None:
            n = view.negotiation
            neg = Negotiation(
                partner=n.partner, active_gives=list(n.active_gives),
                partner_gives=list(n.partner_gives), deal_version=n.deal_version,
                accepted=list(n.accepted), proposals=n.proposals, proposed_by=n.proposed_by)
        seats = list(view.seats)
        return PacapacaState(
            seats=seats, seed=rng.getrandbits(62), version=0,
            options=PacapacaOptions(babies=view.babies), babies=view.babies,
            alpacas={a.seat: Alpaca(head=a.head, body=a.body, neck=list(a.neck),
                                    babies=list(a.babies)) for a in view.alpacas},
            deck=deck, pile=pile,
            active=seats.index(view.active) if view.active is not None else 0,
            turn_number=view.turn_number, phase=view.phase, drawn=drawn, negotiation=neg,
            negotiated=view.negotiated, final_turns_left=view.final_turns_left,
            pool_size=view.pool_size)


def determinize(view: PacapacaView, rng: random.Random) -> PacapacaState:
    """A full state that shows ``view`` exactly (module docstring; :class:`Determinizer`).
    Reads nothing but ``view``."""
    return Determinizer(view)(rng)


#: The caches below are small on purpose: they serve mostly within one decision, and
#: bigger ones cost memory and garbage-collection time (4 players, 20 games: peak RSS
#: 146 MB and p99 165-183 ms with 65536 entries each, 66 MB and 121-159 ms with these).
@lru_cache(maxsize=16384)
def _sig(cards: tuple[int, ...]) -> tuple[int, ...]:
    """How many cards of each kind of :data:`_KINDS` are among ``cards`` (cached). What
    an alpaca is worth depends on nothing else, so the caches below are keyed by it:
    alpacas holding other copies of the same kinds share their entries."""
    counts = [0] * len(_KINDS)
    pos = _KIND_POS
    for c in cards:
        counts[pos[c]] += 1
    return tuple(counts)


def _kind_counts(sig: tuple[int, ...]) -> dict[str, int]:
    """Kind -> copies (every kind a key) for the kind counts ``sig``."""
    return dict(zip(_KIND_NAMES, sig, strict=True))


def _length(cards: tuple[int, ...]) -> int:
    """:func:`bot.ai.pacapaca.kept_length` of ``cards`` (cached by kinds)."""
    return _length_sig(_sig(cards))


@lru_cache(maxsize=16384)
def _length_sig(sig: tuple[int, ...]) -> int:
    return kept_length_of(_kind_counts(sig))


def _value(cards: tuple[int, ...], others: tuple[int, ...], hope: float) -> float:
    """The Normal heuristic's projected points of an alpaca with ``cards`` against the
    other alpacas' kept lengths ``others`` (sorted; cached by kinds)."""
    return _value_sig(_sig(cards), others, hope)


def _value_sig(sig: tuple[int, ...], others: tuple[int, ...], hope: float) -> float:
    """:func:`bot.ai.pacapaca.evaluate` of an alpaca with the kinds ``sig`` (the same
    sum in the same order, so the same float), from cached parts."""
    length = _length_sig(sig)
    return _fashion_sig(sig, hope) + _length_points(length, others) + 0.15 * length


@lru_cache(maxsize=16384)
def _fashion_sig(sig: tuple[int, ...], hope: float) -> float:
    return fashion_points_of(_kind_counts(sig), hope)


@lru_cache(maxsize=16384)
def _length_points(length: int, others: tuple[int, ...]) -> int:
    """Neck-length points of a neck of kept ``length`` against the ``others``."""
    return length_points({"@me": length, **{f"o{i}": n for i, n in enumerate(others)}})["@me"]


def deal_gains(view: PacapacaView, active: str, partner: str,
               active_gives: Sequence[int], partner_gives: Sequence[int]
               ) -> tuple[float, float]:
    """:func:`bot.ai.pacapaca.deal_gains` (the same floats) from the caches keyed by
    kinds: (active's gain, partner's gain) in projected value if the deal ran."""
    hope = _hope_n(view.deck_size, len(view.seats))
    cards = {a.seat: (*a.neck, *a.babies) for a in view.alpacas}
    lengths = {s: _length(c) for s, c in cards.items()}
    gives = set(active_gives)
    takes = set(partner_gives)
    a1 = (*(c for c in cards[active] if c not in gives), *partner_gives)
    p1 = (*(c for c in cards[partner] if c not in takes), *active_gives)
    after = {**lengths, active: _length(a1), partner: _length(p1)}

    def value(seat: str, mine: tuple[int, ...], lens: dict[str, int]) -> float:
        others = tuple(sorted(n for s, n in lens.items() if s != seat))
        return _value(mine, others, hope)

    ga = value(active, a1, after) - value(active, cards[active], lengths)
    gp = value(partner, p1, after) - value(partner, cards[partner], lengths)
    return ga, gp


def _hope_n(deck: int, seats: int) -> float:
    return max(0.0, min(1.0, deck / (2 * max(1, seats)) / 4))


def _hope(state: PacapacaState) -> float:
    return _hope_n(len(state.deck), len(state.seats))


def _cards(a: Alpaca) -> tuple[int, ...]:
    return tuple(sorted((*a.neck, *a.babies)))


def _seat_value(state: PacapacaState, seat: str, add: Sequence[int] = ()) -> float:
    others = tuple(sorted(_length(_cards(a)) for s, a in state.alpacas.items() if s != seat))
    mine = _cards(state.alpacas[seat])
    if add:
        mine = tuple(sorted((*mine, *add)))
    return _value(mine, others, round(_hope(state), 2))


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
        return max(keeps, key=lambda a: (_seat_value(state, seat, (a.card,)), rng.random()))
    can_draw = any(isinstance(a, Draw2) for a in legal)
    if state.pile:
        own = [pc.card for pc in state.pile if pc.by == seat]
        gain = UNKNOWN_GAIN * (len(state.pile) - len(own))
        if own:
            gain += _seat_value(state, seat, own) - _seat_value(state, seat)
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
            v = max(_seat_value(state, seat, (c,)) for c in state.drawn)
        else:
            v = _seat_value(state, seat)
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


def _kinds() -> tuple[tuple[str, int, int, bool], ...]:
    """(kind, copies, first card id, is a baby) of every kind."""
    return tuple((k.kind, k.count, k.first_id, k.group == "baby") for k in catalog().kinds)


_KINDS = _kinds()
_KIND_OF = kind_table()
_KIND_INDEX = {k: i for i, (k, *_) in enumerate(_KINDS)}
#: Card id -> its kind's index in :data:`_KINDS`.
_KIND_POS = {c: _KIND_INDEX[k] for c, k in _KIND_OF.items()}
_KIND_NAMES = tuple(k for k, *_ in _KINDS)


def _kind_gains(mine: tuple[int, ...], others: tuple[int, ...], hope: float
                ) -> tuple[float, ...]:
    """Per kind of :data:`_KINDS`: what one more card of it adds to ``mine``'s value."""
    return _kind_gains_sig(_sig(mine), others, hope)


@lru_cache(maxsize=4096)
def _kind_gains_sig(sig: tuple[int, ...], others: tuple[int, ...], hope: float
                    ) -> tuple[float, ...]:
    base = _value_sig(sig, others, hope)
    return tuple(_value_sig((*sig[:i], sig[i] + 1, *sig[i + 1:]), others, hope) - base
                 for i in range(len(sig)))


def normal_turn(state: PacapacaState, seat: str, legal: Sequence[Action]) -> Action:
    """The Normal heuristic's draw-or-pile choice (``bot.ai.pacapaca._turn``:
    ``draw_value`` against ``pile_value``, drawing on a tie) computed on a sampled state
    for ``seat`` from what that seat knows (its alpaca, the public ones, its own discards
    in the pile); it never opens a negotiation (Normal seldom does). For playouts."""
    mine = _cards(state.alpacas[seat])
    others = tuple(sorted(_length(_cards(a)) for s, a in state.alpacas.items() if s != seat))
    hope = round(_hope(state), 2)
    gains = _kind_gains(mine, others, hope)
    seen = [c for a in state.alpacas.values() for c in (*a.neck, *a.babies)]
    own = [pc.card for pc in state.pile if pc.by == seat]
    seen_kinds = Counter(_KIND_OF[c] for c in (*seen, *own))
    w = [(k[1] - seen_kinds[k[0]]) if (state.babies or not k[3]) else 0 for k in _KINDS]
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
            gain = _value(tuple(sorted((*mine, *own))), others, hope) - _value(mine, others, hope)
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
#: A deal is searched only when its rank beats drawing / taking the pile by this much
#: (without it the search traded 2.4 turns a game away at 4 players and won 1.5/30).
PLAN_EDGE = 1.0
#: When another seat opens a negotiation with this one, also search counter-proposals
#: its Normal rule accepts (:func:`offers` with the roles swapped) against its deal
#: (4 players, seeds 1-200: 75.5 wins against 66.5 without).
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
#: :data:`MAX_DEAL_CARDS_MANY`: listing the deals with 5 partners' long necks took most of a
#: 6-player turn (4 games: p99 275-305 ms with 3, whatever the playouts).
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
