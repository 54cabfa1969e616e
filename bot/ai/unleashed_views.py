"""Views of sampled Llamas Unleashed states for the Hard seat's playouts: :func:`fast_view`
builds what ``UnleashedEngine.view`` builds, without validation and from cached card and
Field views (a playout asks for a view at every decision)."""

from __future__ import annotations

from typing import Any

from bot.games.unleashed.effects.statics import (
    animal_count,
    animals_to_win,
    card,
    hand_limit,
    instant_stops_table,
    name,
)
from bot.games.unleashed.engine import UnleashedEngine
from bot.games.unleashed.models import (
    CardView,
    ChoiceView,
    FieldView,
    StackView,
    TriggerView,
    UnleashedState,
    UnleashedView,
)
from bot.games.unleashed.views import card_view, source_words

ENGINE = UnleashedEngine()


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
#: decision of the same game built.
_FIELD_VIEWS_SIZE = 8_192
_FIELD_VIEWS = Recent(_FIELD_VIEWS_SIZE)


#: Lists of card views (and of shielded kinds) by what they hold, shared by the cached
#: Field views: a Field view then adds two objects the garbage collector tracks (itself
#: and its ``__dict__``) instead of seven, which keeps full collections short.
_LISTS = Recent(_FIELD_VIEWS_SIZE)
#: The fields set of every cached Field view (all fields given).
_FIELD_SET = set(FieldView.model_fields)


def _shared_list(views: list[CardView]) -> list[CardView]:
    """The shared list of the card views ``views`` (one frozen object per card and kinds,
    :func:`~bot.games.unleashed.views.card_view`)."""
    key = tuple((v.id, v.kinds) for v in views)
    got: list[CardView] | None = _LISTS.get(key)
    if got is None:
        got = views
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
    animals: list[CardView] = []
    ups: list[CardView] = []
    downs: list[CardView] = []
    for c in cards:
        d = card(c)
        if d.is_animal:
            animals.append(card_view(st, c, s))
        elif d.type == "upgrade":
            ups.append(card_view(st, c, s))
        elif d.type == "downgrade":
            downs.append(card_view(st, c, s))
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
    pv = card_view
    pend = ENGINE.pending(st)
    choice = None
    if st.choice is not None and st.choice.seat == seat:
        ch = st.choice
        choice = ChoiceView.model_construct(prompt=ch.prompt, options=list(ch.options),
                                            ask=ch.ask, about=ch.about, whose=ch.whose,
                                            source=ch.source, herd=ch.herd)
    triggers = ([TriggerView(source=src, text=text, words=source_words(src))
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
