"""The Hard AI seat of Llamas Unleashed: determinized search (:mod:`bot.ai.search`).

What the view hides: the other players' hands (their sizes are shown) and the deck order.
:func:`determinize` deals the cards nobody can see (the whole card set minus the viewer's
hand, every Field, the discard pile, the Nursery and the pile of played cards) at random
into the other hands and the deck, and rebuilds the rest of the state from the view: the
turn's phase and plays left, the open reaction window (who may still answer, who passed),
the start-of-turn link (the active player's triggers not offered any more count as used;
mandatory start effects choose their targets when they resolve), shields and skipped
turns. The seat's own legal actions (its buttons) tell whether it already acted and
whether its plays left are card plays only.

Searched decisions: the Baby at set-up, start-of-turn triggers (Activate / Proceed), every
play or draw of the Action phase, Instant answers in a reaction window (Respond / Pass),
the end-of-turn discard down to the hand limit, and target choices (``Choose``) in the
middle of an effect chain: the view shows only the prompt, the options and what the
choice is for, so :func:`chain_sample` restarts that card's link on the sample and
replays it to the same question (the Normal heuristic's answer when it cannot: a choice
made while a link resolves, a hand it has not seen).

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
from bot.games.base import Action
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.effects.planning import mandatory_start_frames, new_link, resolve_magic
from bot.games.unleashed.effects.statics import (
    animal_count,
    animals_to_win,
    card,
    hand_limit,
    herd_kinds,
    instant_stops_table,
    kinds,
    name,
)
from bot.games.unleashed.effects.zones import new_id
from bot.games.unleashed.engine import UnleashedEngine, _source_words
from bot.games.unleashed.models import (
    Activate,
    CardView,
    Choice,
    ChoiceView,
    Choose,
    DrawCard,
    FieldView,
    Frame,
    Link,
    Play,
    Proceed,
    Reaction,
    StackItem,
    StackView,
    TriggerView,
    UnleashedOptions,
    UnleashedState,
    UnleashedView,
)

ENGINE = UnleashedEngine()
#: Playouts per decision and decisions per playout with 2 players (sized for p99 < 300
#: ms, bench/ai.py: 100 playouts gave p99 196 ms).
BUDGET = Budget(iterations=100, depth=10, paired=True)
#: With 4 players: longer playouts (a round of turns is longer), fewer of them; 3 players
#: and from 5 fewer still (:func:`budget_for`). Half the playouts over every candidate,
#: the other half over Normal's action and the best other one (``keep``), which is kept
#: only when its mean beats Normal's by ``margin``. 56 playouts since the cached
#: ``fast_view`` (was 36), margin 0.025 since ``keep`` gives the deciding comparison about
#: 20 paired rounds (was 0.05). At 4 players, seeds 1-500: margin 0.025 won 216/500,
#: margin 0.05 200/500, and 64 playouts with margin 0.05 202/500 (bench/README.md,
#: "Unleashed: shorter garbage collections and cheaper playouts").
BUDGET_MANY = Budget(iterations=56, depth=18, paired=True, margin=0.025, keep=1)
#: Plays searched in the Action phase: the Normal heuristic's best few (and drawing).
PLAY_CANDIDATES = 4
#: Options searched at a target choice inside an effect chain (Normal's answer first).
CHOICE_CANDIDATES = 6
#: From 3 players: Normal's action first, then its best 4 plays (3 before ``keep``; with
#: ``keep``, 4 won 200/500 at 4 players on seeds 1-500 and 3 won 199/500: no measurable
#: difference; bench/README.md).
PLAY_CANDIDATES_MANY = 4
CHOICE_CANDIDATES_MANY = 4
#: Ids the sampled states give new links and windows (above any real game's counter).
_IDS_FROM = 1_000_000


def _all_ids() -> tuple[int, ...]:
    cat = catalog()
    return (*cat.nursery_ids, *cat.deck_ids)


def determinize(view: UnleashedView, legal: Sequence[Action], rng: random.Random,
                options: UnleashedOptions | None = None) -> UnleashedState:
    """A full state that shows ``view`` exactly (module docstring); ``legal`` are the
    viewer's own legal actions. Reads nothing but ``view`` and ``legal``."""
    me = view.viewer
    assert me is not None
    seats = list(view.seats)
    hand = [c.id for c in view.hand or []]
    fields: dict[str, list[int]] = {}
    seen = set(hand)
    for s in seats:
        f = view.fields[s]
        fields[s] = [c.id for c in (*f.animals, *f.upgrades, *f.downgrades)]
        seen.update(fields[s])
    discard = [c.id for c in view.discard]
    nursery = [c.id for c in view.nursery]
    stack = [StackItem(card=i.card.id, seat=i.seat, field=i.field) for i in view.stack]
    seen.update(discard)
    seen.update(nursery)
    seen.update(i.card for i in stack)
    unseen = [c for c in _all_ids() if c not in seen]
    rng.shuffle(unseen)
    hands: dict[str, list[int]] = {}
    for s in seats:
        if s == me:
            hands[s] = hand
        else:
            n = view.hand_sizes.get(s, 0)
            hands[s], unseen = unseen[:n], unseen[n:]
    deck = unseen[: view.deck_count]
    st = UnleashedState(
        seats=seats, seed=rng.getrandbits(62), options=options or UnleashedOptions(),
        phase=view.phase, active=view.active, turn=view.turn, deck=deck, discard=discard,
        nursery=nursery, hands=hands, fields=fields, stack=stack, counter=_IDS_FROM,
        shields={s: list(view.fields[s].shielded_kinds) for s in seats},
        skip_next=[s for s in seats if view.fields[s].skips_next_turn],
        babies_chosen=[s for s in seats if fields[s]] if view.phase == "setup" else list(seats),
    )
    if view.pending_kind == "reaction":
        st.reaction = Reaction(id=new_id(st), eligible=list(view.reaction_eligible),
                               passed=list(view.reaction_passed))
    active = view.active
    if view.phase == "action" and active is not None:
        mine = active == me
        can_draw = any(isinstance(a, DrawCard) for a in legal)
        left = view.plays_left
        if mine and left > 0 and not can_draw and view.deck_count and not st.reaction:
            st.card_plays = left  # plays that only a card play may use
        else:
            st.plays_left = left
        st.acted = any(isinstance(a, Proceed) for a in legal) if mine else True
    if view.phase == "start" and active is not None:
        _start_link(st, view, active)
    if end_discard(view):
        # The end of the turn: the active player discards down to the hand limit.
        assert view.choice is not None and active is not None
        excess = len(hand) - view.fields[active].hand_limit
        st.work = [Frame(eff={"op": "discard", "n": excess}, actor=active,
                         link=new_id(st), data={"left": excess, "done": 0})]
        st.choice = Choice(id=new_id(st), seat=active, prompt=view.choice.prompt,
                           options=list(view.choice.options))
    return st


def end_discard(view: UnleashedView) -> bool:
    """True when the viewer's choice is the end-of-turn discard down to its hand limit
    (the only choice whose effect chain the view tells completely)."""
    me = view.viewer
    return (view.phase == "end" and view.choice is not None and me is not None
            and view.active == me and not view.stack
            and len(view.hand or []) > view.fields[me].hand_limit
            and all(o.card is not None for o in view.choice.options))


class NoSample(Exception):
    """The view's mid-chain choice could not be rebuilt on a sample."""


def chain_sample(view: UnleashedView, legal: Sequence[Action],
                 rng: random.Random) -> UnleashedState | None:
    """A full state whose pending choice is the viewer's mid-chain choice exactly (same
    prompt, same options), or ``None`` when it cannot be rebuilt from the view.

    The view shows the choice and what it is for (``choice_source``: the card, or
    ``choice_herd``), not the effect chain around it. Every target of a link is chosen
    before the link resolves (rulebook, Order of Resolution), so nothing of the link has
    happened yet: the sample (:func:`determinize`) restarts the link of that card (a
    Magic card on the pile: its effect; a card in a Field: its "enters your Field"
    effect; an Ambush: its destroy; the start of the viewer's turn: the start-of-turn link,
    then the asking trigger activated) and answers the choices before this one as the
    Normal heuristic does, until the engine asks the viewer the same question. Reads
    nothing but ``view`` and ``legal``."""
    me = view.viewer
    want = view.choice
    if me is None or want is None:
        return None
    st = determinize(view, legal, rng)
    st.reaction = None
    st.choice = None
    if st.phase == "action" and st.active == me:
        # The viewer has played a card (its chain is asking): plays left are plain plays.
        st.plays_left, st.card_plays, st.acted = view.plays_left, 0, True
    hint = _restart(st, view)
    if hint is None:
        return None
    values = [o.value for o in want.options]
    ENGINE._run(st, [])  # the engine's own loop: plans the restarted link's targets
    for _ in range(12):
        c = st.choice
        if st.phase == "over":
            return None
        if c is not None:
            if (c.seat == me and c.prompt == want.prompt
                    and [o.value for o in c.options] == values):
                return st
            acts = ENGINE.legal_actions(st, c.seat)
            ENGINE.play(st, c.seat, heuristic_policy(fast_view(st, c.seat), acts, rng))
            continue
        if hint and st.phase == "start" and Activate(source=hint) in ENGINE.legal_actions(st, me):
            ENGINE.play(st, me, Activate(source=hint))
            hint = ""
            continue
        return None
    return None


def _named(st: UnleashedState, name: str) -> list[int]:
    return [c for c in _all_ids() if card(c).name == name]


def _restart(st: UnleashedState, view: UnleashedView) -> str | None:
    """Open on ``st`` the link the view's choice belongs to (:func:`chain_sample`);
    returns the optional start-of-turn trigger to activate (``""``: none), ``None`` when
    the choice's source is not one this can rebuild."""
    me = view.viewer
    if view.phase == "start":
        if view.active != me or me is None:
            return None
        # The start of the turn again: mandatory effects first, every trigger unused.
        mandatory = mandatory_start_frames(st, me)
        st.used_triggers = []
        st.building = None
        new_link(st, mandatory, open_=True)
        if view.choice_herd is not None:
            herd = catalog().card_set.herd.bonuses[view.choice_herd]  # type: ignore[index]
            return f"herd:{view.choice_herd}" if herd.optional else ""
        ids = _named(st, view.choice_source or "")
        mine = [c for c in ids if c in st.fields[me]]
        if not mine:
            return None
        t = card(mine[0]).start
        cid = mine[0]
        return f"card:{cid}" if t is not None and t.optional else ""
    if view.phase not in ("action", "end") or view.choice_source is None:
        return None
    ids = _named(st, view.choice_source)
    top = st.stack[-1] if st.stack else None
    if top is not None and top.card in ids and card(top.card).type == "magic":
        resolve_magic(st, top)
        return ""
    owner = next(((s, c) for s in st.seats for c in ids if c in st.fields[s]), None)
    if owner is not None and card(owner[1]).on_enter is not None:
        seat, cid = owner
        eff = card(cid).on_enter
        assert eff is not None
        if top is not None and card(top.card).type == "magic":
            # It entered while a Magic card resolved (a steal, a bring): that card leaves
            # the pile once this link is done.
            top.resolving = True
            st.work.append(Frame(eff={"op": "_finish", "card": top.card}, actor=top.seat,
                                 source=top.card, link=new_id(st)))
        new_link(st, [Frame(eff=eff.model_dump(exclude_defaults=True), actor=seat,
                               source=cid, root=new_id(st))])
        return ""
    if st.discard and st.discard[-1] in ids and top is not None:
        ins = card(st.discard[-1]).instant
        if ins is not None and ins.op == "ambush":
            # An Ambush has just struck: destroy an Animal of the player it answered.
            st.repoll = True
            new_link(st, [Frame(eff={"op": "destroy", "whose": "seat", "seat": top.seat,
                                        "filter": {"types": ["baby", "basic", "magical"]}},
                                   actor=me or "", source=st.discard[-1])])
            return ""
    return None


def _start_link(st: UnleashedState, view: UnleashedView, active: str) -> None:
    """The open start-of-turn link: mandatory effects (targets chosen as they resolve),
    optional triggers the view no longer offers counted as used."""
    st.herd = herd_kinds(st, active)
    st.start_cards = [c for c in st.fields[active] if card(c).start is not None]
    offered = {t.source for t in view.triggers}
    bonuses = catalog().card_set.herd.bonuses
    link = Link(id=new_id(st), open=True)
    link.roots = mandatory_start_frames(st, active)
    for frame in link.roots:
        frame.link = link.id
    optional = [f"herd:{k}" for k in st.herd if bonuses[k].optional]  # type: ignore[index]
    optional += [f"card:{cid}" for cid in st.fields[active]
                 if (t := card(cid).start) is not None and t.optional]
    # Optional triggers the view no longer offers were used already this turn.
    st.used_triggers = [src for src in optional if src not in offered]
    st.building = link


_CARD_VIEWS: dict[tuple[int, tuple[str, ...]], CardView] = {}
_PLAIN_VIEWS: dict[int, CardView] = {}


class Recent:
    """A cache that keeps the recently used entries at dict speed: two dicts, the young
    and the old one. An entry read from the old dict moves to the young one; when the young
    dict holds ``size`` entries it becomes the old one and the old one is dropped. So it
    holds at most ``2 * size`` entries (at least ``size`` once it has rotated), every
    entry used since the last rotation among them. Safe to share between threads: a race
    can lose an entry, never give a wrong one."""

    __slots__ = ("old", "size", "young")

    def __init__(self, size: int) -> None:
        self.size = size
        self.young: dict[Any, Any] = {}
        self.old: dict[Any, Any] = {}

    def get(self, key: Any) -> Any:
        """The value under ``key``, or ``None`` when none is kept."""
        value = self.young.get(key)
        if value is None:
            value = self.old.pop(key, None)
            if value is not None:
                self.put(key, value)
        return value

    def put(self, key: Any, value: Any) -> None:
        """Keep ``value`` (not ``None``) under ``key``; may drop the old dict first."""
        if len(self.young) >= self.size:
            self.old = self.young
            self.young = {}
        self.young[key] = value

    def __len__(self) -> int:
        return len(self.young) + len(self.old)


#: Field views by everything they are made of (:func:`_field_view`), the recently used
#: ones. A game of 4 meets about 2,600 Field views, and most hits are views an earlier
#: decision of the same game built (``bench/README.md``, "Unleashed: shorter garbage
#: collections and cheaper playouts").
_FIELD_VIEWS_SIZE = 8_192
_FIELD_VIEWS = Recent(_FIELD_VIEWS_SIZE)


def _card_key(st: UnleashedState, cid: int, seat: str) -> tuple[int, tuple[str, ...]]:
    """The :data:`_CARD_VIEWS` key ``(cid, kinds)`` of card ``cid`` in ``seat``'s Field,
    its ``ENGINE.card_view`` cached there (a card's view depends only on its id and
    kinds)."""
    key = (cid, tuple(kinds(st, cid, seat)))
    if key not in _CARD_VIEWS:
        _CARD_VIEWS[key] = ENGINE.card_view(st, cid, seat)
    return key


#: Lists of card views (and of shielded kinds) by what they hold, shared by the cached
#: Field views: a Field view then adds two objects the garbage collector tracks (itself
#: and its ``__dict__``) instead of seven, which keeps full collections short.
_LISTS = Recent(_FIELD_VIEWS_SIZE)
#: The fields set of every cached Field view (all fields given).
_FIELD_SET = set(FieldView.model_fields)


def _shared_list(keys: list[tuple[int, tuple[str, ...]]]) -> list[CardView]:
    """The shared list of the card views under ``keys`` (:data:`_CARD_VIEWS` keys)."""
    key = tuple(keys)
    got: list[CardView] | None = _LISTS.get(key)
    if got is None:
        got = [_CARD_VIEWS[k] for k in keys]
        _LISTS.put(key, got)
    return got


def _shared_kinds(kinds: tuple[str, ...]) -> list[str]:
    """The shared list of shielded kinds ``kinds``."""
    key = ("shield", *kinds)
    got: list[str] | None = _LISTS.get(key)
    if got is None:
        got = list(kinds)
        _LISTS.put(key, got)
    return got


def _plain_view(st: UnleashedState, cid: int) -> CardView:
    """``ENGINE.card_view(st, cid)`` of a card outside any Field (printed kinds), cached."""
    cv = _PLAIN_VIEWS.get(cid)
    if cv is None:
        cv = _PLAIN_VIEWS[cid] = ENGINE.card_view(st, cid)
    return cv


def _field_view(st: UnleashedState, s: str, may_instants: bool) -> FieldView:
    """Seat ``s``'s ``FieldView`` as ``ENGINE.view`` builds it, cached by the Field's cards,
    shields, skipped turn, table size and whether ``s`` may play Instants (everything it
    is made of). Views share it: nothing may change it."""
    cards = st.fields[s]
    shields = st.shields.get(s, [])
    skip = s in st.skip_next
    key = (s, tuple(cards), tuple(shields), skip, len(st.seats), may_instants)
    fv: FieldView | None = _FIELD_VIEWS.get(key)
    if fv is not None:
        return fv
    animals: list[tuple[int, tuple[str, ...]]] = []
    ups: list[tuple[int, tuple[str, ...]]] = []
    downs: list[tuple[int, tuple[str, ...]]] = []
    for c in cards:
        d = card(c)
        if d.is_animal:
            animals.append(_card_key(st, c, s))
        elif d.type == "upgrade":
            ups.append(_card_key(st, c, s))
        elif d.type == "downgrade":
            downs.append(_card_key(st, c, s))
    fv = FieldView.model_construct(
        _fields_set=_FIELD_SET,
        seat=s, animals=_shared_list(animals), upgrades=_shared_list(ups),
        downgrades=_shared_list(downs),
        animal_count=animal_count(st, s), animals_to_win=animals_to_win(st, s),
        hand_limit=hand_limit(st, s), may_play_instants=may_instants,
        shielded_kinds=_shared_kinds(tuple(shields)), skips_next_turn=skip)
    _FIELD_VIEWS.put(key, fv)
    return fv


def fast_view(state: UnleashedState, seat: str) -> UnleashedView:
    """``ENGINE.view(state, seat)`` built without validation, card and Field views from
    caches: the same view (a test compares them), a few times cheaper; for playouts, where
    the Normal heuristic reads a view at every step. Shares Field and card views with
    other views built here: read it, never change it."""
    st = state
    stops = instant_stops_table()
    own_stop: dict[str, bool] = {}
    other_stop: dict[str, bool] = {}
    for s in st.seats:
        mine = others = False
        for c in st.fields[s]:
            f = stops[c]
            mine = mine or f[0]
            others = others or f[1]
        own_stop[s], other_stop[s] = mine, others
    fields = {}
    for s in st.seats:
        may = not own_stop[s] and not any(other_stop[o] for o in st.seats if o != s)
        fields[s] = _field_view(st, s, may)
    pv = _plain_view
    pend = ENGINE.pending(st)
    choice = None
    if st.choice is not None and st.choice.seat == seat:
        choice = ChoiceView.model_construct(prompt=st.choice.prompt,
                                            options=list(st.choice.options))
    triggers = ([TriggerView(source=src, text=text, words=_source_words(src))
                 for src, _, text in ENGINE.optional_triggers(st)]
                if st.phase == "start" else [])
    return UnleashedView.model_construct(
        viewer=seat, seats=list(st.seats), phase=st.phase, active=st.active, turn=st.turn,
        hand=[pv(st, c) for c in st.hands[seat]],
        hand_sizes={s: len(st.hands[s]) for s in st.seats}, fields=fields,
        deck_count=len(st.deck), discard=[pv(st, c) for c in st.discard],
        nursery=[pv(st, c) for c in st.nursery],
        stack=[StackView.model_construct(card=pv(st, i.card), seat=i.seat, field=i.field)
               for i in st.stack],
        pending_kind=pend.kind, pending_seats=pend.seats, choice=choice,
        choice_source=(name(st.choice.source)
                       if st.choice and st.choice.source is not None else None),
        choice_herd=st.choice.herd if st.choice else None,
        reaction_eligible=list(st.reaction.eligible) if st.reaction else [],
        reaction_passed=list(st.reaction.passed) if st.reaction else [],
        reaction_seconds=ENGINE.window_seconds(st), triggers=triggers,
        plays_left=st.plays_left + st.card_plays, result=st.result)


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
#: likelihood on Normal self-play (``bench/README.md``, "Unleashed leaf value").
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
