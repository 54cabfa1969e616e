"""Samples of what an Alpaca Pacapaca view hides, for the Hard seat's search.

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
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from bot.ai.pacapaca_values import (
    KIND_INDEX,
    KIND_OF,
    KINDS,
    alpaca_value,
    hope_n,
    kept_length,
    kind_gains,
)
from bot.games.pacapaca.cards import catalog
from bot.games.pacapaca.models import (
    Alpaca,
    DiscardView,
    Negotiation,
    PacapacaOptions,
    PacapacaState,
    PacapacaView,
    PileCard,
)


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
    kt = KIND_OF
    left = {k: n for k, n, _, baby in KINDS if view.babies or not baby}
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
    others = tuple(sorted(kept_length(tuple(sorted((*x.neck, *x.babies))))
                          for x in view.alpacas if x.seat != seat))
    hope = round(hope_n(view.deck_size, len(view.seats)), 2)
    gains = dict(zip((k for k, *_ in KINDS), kind_gains(mine, others, hope), strict=True))
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
    others = tuple(sorted(kept_length(tuple(sorted(a))) for j, a in enumerate(entry.before)
                          if j != i))
    hope = hope_n(entry.deck_size, len(seats))
    kept = entry.kept
    v_kept = alpaca_value(tuple(sorted((*mine, kept))), others, hope)
    by_kind = {k: alpaca_value(tuple(sorted((*mine, first))), others, hope)
               for k, _, first, _ in KINDS}
    kt = KIND_OF
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
        self.others = tuple(sorted(kept_length(tuple(sorted(a))) for k, a in enumerate(e.before)
                                   if k != i))
        self.hope = hope_n(e.deck_size + 2, len(view.seats))
        self.gains = kind_gains(self.mine, self.others, self.hope)
        seen = Counter(KIND_OF[c] for a in e.before for c in a)
        self.base = [n - seen[k] if view.babies or not baby else 0
                     for k, n, _, baby in KINDS]
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
        index = KIND_INDEX
        for c in own:
            w[index[KIND_OF[c]]] -= 1
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
            pile = (alpaca_value(tuple(sorted((*self.mine, *own))), self.others, self.hope)
                    - alpaca_value(self.mine, self.others, self.hope))
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
        kt = KIND_OF
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
