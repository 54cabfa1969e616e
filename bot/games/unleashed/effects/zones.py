"""Where cards are: seats in turn order, Field owners, and moving cards between the deck,
hands, Fields, the discard pile and the Nursery (a Baby leaving a Field for anywhere but
another Field goes back to the Nursery)."""

from __future__ import annotations

from typing import Any

from bot.games.base import Event, rng, say
from bot.games.unleashed.effects.statics import card, kinds, name
from bot.games.unleashed.models import Frame, UnleashedState


def cards_word(n: int) -> str:
    """``"a card"`` / ``"3 cards"``."""
    return "a card" if n == 1 else f"{n} cards"


def others(st: UnleashedState, seat: str) -> list[str]:
    """Every other seat in turn order starting after ``seat``."""
    i = st.seats.index(seat)
    return st.seats[i + 1 :] + st.seats[:i]


def field_owner(st: UnleashedState, cid: int) -> str | None:
    """The seat whose Field holds ``cid``, or ``None``."""
    for seat, cards in st.fields.items():
        if cid in cards:
            return seat
    return None


def holder(st: UnleashedState, cid: int) -> str:
    """The seat whose Field holds ``cid`` (it must be in a Field)."""
    owner = field_owner(st, cid)
    assert owner is not None
    return owner


def new_id(st: UnleashedState) -> int:
    """A fresh number for links, choices and windows."""
    st.counter += 1
    return st.counter


def matches(cid: int, flt: dict[str, Any] | None, st: UnleashedState, seat: str | None) -> bool:
    """Whether card ``cid`` fits filter ``flt`` (``types`` and ``kind``)."""
    if not flt:
        return True
    d = card(cid)
    types = flt.get("types") or []
    if types and d.type not in types:
        return False
    kind = flt.get("kind")
    return not kind or kind in kinds(st, cid, seat)


def to_discard(st: UnleashedState, cid: int) -> None:
    """Put ``cid`` on the discard pile (a Baby goes back to the Nursery)."""
    if card(cid).type == "baby":
        st.nursery.append(cid)
    else:
        st.discard.append(cid)


def to_hand(st: UnleashedState, cid: int, seat: str) -> None:
    """Put ``cid`` into ``seat``'s hand (a Baby goes back to the Nursery)."""
    if card(cid).type == "baby":
        st.nursery.append(cid)
    else:
        st.hands[seat].append(cid)


def enter_field(st: UnleashedState, cid: int, seat: str, ev: list[Event]) -> None:
    """``cid`` arrives in ``seat``'s Field (played, brought, stolen or moved in: the caller
    has taken it from where it was). Its ``on_enter`` effect is queued with the Field's
    owner acting: effects triggered while a link resolves form the next link (rulebook,
    Order of Resolution; RULES.md: "enters your Field" fires on every arrival)."""
    st.fields[seat].append(cid)
    d = card(cid)
    if d.on_enter is None:
        return
    st.queued.append(Frame(eff=d.on_enter.model_dump(exclude_defaults=True), actor=seat,
                           source=cid, root=new_id(st)))


def leave_field(st: UnleashedState, cid: int, how: str, ev: list[Event]) -> int:
    """Destroy or sacrifice ``cid`` (``how``): the bodyguard rule first (destroy only),
    then ``return_instead`` sends it to its owner's hand, else the discard pile.
    Returns the card that actually left."""
    owner = holder(st, cid)
    if how == "destroy" and card(cid).is_animal:
        for other in st.fields[owner]:
            if other != cid and any(s.q == "bodyguard" for s in card(other).static):
                say(ev, "bodyguard", f"{name(other)} goes to the discard pile instead of {name(cid)}.",
                    card=other, saved=cid)
                cid = other
                break
    st.fields[owner].remove(cid)
    if any(s.q == "return_instead" for s in card(cid).static):
        to_hand(st, cid, owner)
        say(ev, "returned", f"{name(cid)} returns to {owner}'s hand instead.", card=cid, seat=owner)
    else:
        to_discard(st, cid)
        text = (f"{name(cid)} is destroyed and leaves {owner}'s Field." if how == "destroy"
                else f"{owner} sacrifices {name(cid)}.")
        say(ev, how + "ed" if how == "destroy" else "sacrificed", text, card=cid, seat=owner)
    return cid


def draw(st: UnleashedState, seat: str, n: int, ev: list[Event]) -> int:
    """Draw up to ``n`` cards for ``seat``; returns how many were drawn."""
    got: list[int] = []
    for _ in range(n):
        if not st.deck:
            break
        got.append(st.deck.pop())
    st.hands[seat].extend(got)
    if got:
        say(ev, "draw", f"{seat} draws {cards_word(len(got))}.", seat=seat, n=len(got))
        say(ev, "draw_private", "You draw " + ", ".join(name(c) for c in got) + ".", to=[seat],
            cards=got)
    return len(got)


def shuffle_deck(st: UnleashedState) -> None:
    """Shuffle the deck with the game's RNG."""
    rng(st).shuffle(st.deck)

