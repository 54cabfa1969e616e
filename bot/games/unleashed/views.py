"""What a Llamas Unleashed player sees (``UnleashedEngine.view``)."""

from __future__ import annotations

from typing import Any

from bot.games.base import Pending
from bot.games.unleashed.effects.statics import (
    animal_count,
    animals_to_win,
    card,
    hand_limit,
    kinds,
    may_play_instants,
    name,
)
from bot.games.unleashed.models import (
    CardView,
    ChoiceView,
    FieldView,
    StackView,
    TriggerView,
    UnleashedState,
    UnleashedView,
)


def source_words(source: str) -> str:
    """A trigger source in words: ``"herd:ram"`` -> ``"the Ram Herd Bonus"``,
    ``"card:<id>"`` -> the card's name."""
    kind, _, ref = source.partition(":")
    if kind == "herd":
        return f"the {ref.title()} Herd Bonus"
    return name(int(ref))


#: (card id, its kinds as they count) -> its :class:`CardView`, made once: a view's
#: parts are never changed once made, so views share them.
_CARD_VIEWS: dict[tuple[int, tuple[str, ...]], CardView] = {}


def card_view(st: UnleashedState, cid: int, seat: str | None = None) -> CardView:
    """A card as seen, with its kinds as they count in ``seat``'s Field (one object per
    card id and kinds: do not change it)."""
    now = kinds(st, cid, seat)
    key = (cid, tuple(now))
    found = _CARD_VIEWS.get(key)
    if found is None:
        d = card(cid)
        found = _CARD_VIEWS[key] = CardView(id=cid, key=d.key, name=d.name, type=d.type,
                                            kinds=now, text=d.text)
    return found


def table_view(state: UnleashedState, viewer: str | None, pend: Pending,
               triggers: list[tuple[str, dict[str, Any], str]], window_seconds: float
               ) -> UnleashedView:
    """What ``viewer`` may see: own hand only, all Fields, hand sizes, public piles; with
    who must decide (``pend``), the optional start-of-turn effects still offered
    (``triggers``, as ``UnleashedEngine.optional_triggers``) and the reaction window's
    length in seconds."""
    st = state
    fields = {}
    for s in st.seats:
        cards = st.fields[s]
        fields[s] = FieldView(
            seat=s,
            animals=[card_view(st, c, s) for c in cards if card(c).is_animal],
            upgrades=[card_view(st, c, s) for c in cards if card(c).type == "upgrade"],
            downgrades=[card_view(st, c, s) for c in cards
                        if card(c).type == "downgrade"],
            animal_count=animal_count(st, s), animals_to_win=animals_to_win(st, s),
            hand_limit=hand_limit(st, s), may_play_instants=may_play_instants(st, s),
            shielded_kinds=list(st.shields.get(s, [])), skips_next_turn=s in st.skip_next)
    own = viewer is not None and viewer in st.seats
    choice = None
    if st.choice is not None and own and st.choice.seat == viewer:
        c = st.choice
        choice = ChoiceView(prompt=c.prompt, options=list(c.options), ask=c.ask,
                            about=c.about, whose=c.whose, source=c.source, herd=c.herd)
    offered = [TriggerView(source=src, text=text, words=source_words(src))
               for src, _, text in triggers]
    return UnleashedView(
        viewer=viewer, seats=list(st.seats), phase=st.phase, active=st.active, turn=st.turn,
        hand=[card_view(st, c) for c in st.hands[viewer]] if own else None,  # type: ignore[index]
        hand_sizes={s: len(st.hands[s]) for s in st.seats}, fields=fields,
        deck_count=len(st.deck), discard=[card_view(st, c) for c in st.discard],
        nursery=[card_view(st, c) for c in st.nursery],
        stack=[StackView(card=card_view(st, i.card), seat=i.seat, field=i.field)
               for i in st.stack],
        pending_kind=pend.kind, pending_seats=pend.seats, choice=choice,
        choice_source=(name(st.choice.source) if st.choice and st.choice.source is not None
                       else None),
        choice_herd=st.choice.herd if st.choice else None,
        reaction_eligible=list(st.reaction.eligible) if st.reaction else [],
        reaction_passed=list(st.reaction.passed) if st.reaction else [],
        reaction_seconds=window_seconds, triggers=offered,
        plays_left=st.plays_left + st.card_plays, result=st.result)
