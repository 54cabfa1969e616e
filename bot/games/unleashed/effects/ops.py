"""The effect interpreter: one function per operation of the effect vocabulary.

Effects are trees of dicts (the dict form of :class:`~bot.games.unleashed.cards.Effect`).
The interpreter is a stack machine over :class:`~bot.games.unleashed.models.Frame`: the
engine pops a frame and calls :func:`step`; an operation that needs a decision stores a
:class:`~bot.games.unleashed.models.Choice` in the state, pushes its frame back and returns;
the answer is written into the frame (``data["pick"]``) and the frame runs again. A target
chosen before the link resolved (:mod:`.planning`) is read from ``state.plan``.

Atomic operations (``"you"`` is the frame's actor, the owner of the Field the card is in):

- ``draw n``: draw n cards (fewer if the deck runs dry).
- ``discard n [filter]``: you choose and discard n cards from your hand.
- ``sacrifice [filter]``: you choose a card in your Field and discard it.
- ``destroy [filter] whose``: you choose a card in another player's Field (``whose=any``:
  any Field) that can be destroyed and discard it.
- ``steal [filter]``: you choose a card in another player's Field; it moves to yours.
- ``return_card [filter]``: a card in any Field goes to that player's hand.
- ``pull``: you choose another player with cards; a random card of theirs comes to you.
- ``look_take``: you choose another player, look at their hand and take one card.
- ``bring src [filter]``: a card from your hand, the deck, the discard pile or the Nursery
  goes directly into your Field (not played: no Instant can answer it).
- ``search [filter]``: search the deck, show the card, add it to your hand, shuffle.
- ``take_discard [filter] [top]``: a card of your choice (or the top one) from the
  discard pile to your hand.
- ``move [filter]``: a card in any Field moves to another player's Field.
  A card stolen or moved in "enters" its new Field like a played or brought one.
- ``swap_hands``: swap hands with any other player.  ``skip_turn``: any other player
  skips their next turn.  ``extra_play``: you may play one more card this turn (a
  card play, never a draw).
- ``reshuffle``: the discard pile is shuffled into the deck.  ``shield kind``: until your
  next turn your Animals of that kind cannot be destroyed.

Combinators: ``seq`` (and), ``then`` (second part only if the first happened),
``if_you_do`` (an optional trigger's "you may X. If you do, Y": the player chose X by
using the trigger, so Y follows whatever X did), ``may`` (ask; ``if_you_do`` only when you
chose to), ``choice`` (choose one branch), ``for_each``
(each player / each other player, in turn order from you, acts; ``each_player_you_last``:
each player in turn order starting after you, you last: Nanny Alpaca) and ``any_number`` (you
choose any number of other players; each of them acts).

"and", "then", "if you do" follow the rulebook (Dealing with Card Effects that Have
Multiple Actions); an impossible part forced on you is ignored (``last_ok`` false; Actions
That Are Impossible), so the second part of an "if you do" with nothing to target is
ignored; "pull" is random, "choose"/"look" lets you pick.

Each operation returns its outcome: ``True`` when it happened, ``False`` when it was
impossible (ignored), ``None`` when it has none (waiting for an answer, or a combinator
that leaves the outcome of its parts); :func:`step` records it in ``state.last_ok``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.base import Event, rng, say
from bot.games.unleashed.effects.planning import ask_players, plan_key
from bot.games.unleashed.effects.statics import can_enter, card, name
from bot.games.unleashed.effects.targets import (
    WHERE,
    candidates,
    card_opts,
    choose,
    feasible,
    mark,
    may_feasible,
    seat_opts,
    source_note,
    target_ask,
    target_prompt,
    targeted,
    yes_no,
)
from bot.games.unleashed.effects.zones import (
    draw,
    enter_field,
    holder,
    leave_field,
    others,
    shuffle_deck,
    to_discard,
    to_hand,
)
from bot.games.unleashed.models import ChoiceOption, Frame, UnleashedState

#: An operation: carries out ``frame`` on the state, events into the list; returns its
#: outcome (see the module docstring).
Op = Callable[[UnleashedState, Frame, list[Event]], bool | None]


def _planned(st: UnleashedState, fr: Frame, suffix: str = "") -> tuple[bool, Any]:
    """``(True, value)`` when the target of ``fr`` was chosen before its link resolved."""
    if not fr.root:
        return False, None
    k = plan_key(fr) + suffix
    if k in st.plan:
        return True, st.plan[k]
    return False, None


def _push(st: UnleashedState, fr: Frame, eff: dict[str, Any], part: str,
          actor: str | None = None) -> None:
    st.work.append(Frame(eff=eff, actor=actor or fr.actor, source=fr.source, herd=fr.herd,
                         link=fr.link, root=fr.root, path=fr.path + part))


# -- combinators ----------------------------------------------------------------------------


def _op_seq(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    for i in range(len(fr.eff["steps"]) - 1, -1, -1):
        _push(st, fr, fr.eff["steps"][i], f"/s{i}")
    return True


def _op_then(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    _push(st, fr, {"op": "_then", "next": fr.eff["next"]}, "")
    _push(st, fr, fr.eff["first"], "/f")
    return None


def _op__then(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    if st.last_ok:
        _push(st, fr, fr.eff["next"], "/n")
    return None


def _op_if_you_do(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    _push(st, fr, fr.eff["next"], "/n")
    _push(st, fr, fr.eff["first"], "/f")
    return None


def _op_may(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    known, use = _planned(st, fr)
    if not known:
        use = None
        if may_feasible(st, fr.eff, fr.actor, fr.source, targeted(st, fr)):
            pick = choose(st, fr, fr.actor, f"Do you want to use this effect{source_note(fr)}?",
                          yes_no(), True, ask="optional")
            if pick is None:
                return None
            use = pick == "yes"
    if use is False:
        say(ev, "declined", f"{fr.actor} declines an optional effect.", seat=fr.actor)
    if not use:
        return False
    if fr.eff.get("if_you_do"):  # "if you do": you chose to, whatever the first part did
        _push(st, fr, fr.eff["if_you_do"], "/y")
    _push(st, fr, fr.eff["do"], "/d")
    return None


def _op_choice(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    known, branch = _planned(st, fr)
    if not known:
        opts = [ChoiceOption(value=f"o{i}", label=o["label"])
                for i, o in enumerate(fr.eff["options"])
                if feasible(st, o["eff"], fr.actor, fr.source, taken=targeted(st, fr))]
        if not opts:
            return False
        pick = choose(st, fr, fr.actor, f"Choose one{source_note(fr)}:", opts, True,
                      ask="choose_one")
        if pick is None:
            return None
        branch = int(pick[1:])
    if branch is None:
        return False
    _push(st, fr, fr.eff["options"][branch]["eff"], f"/o{branch}")
    return None


def _op_for_each(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    seats = others(st, fr.actor)
    who = fr.eff.get("who", "each_player")
    if who == "each_player":
        seats = [fr.actor, *seats]
    elif who == "each_player_you_last":
        seats = [*seats, fr.actor]
    for s in reversed(seats):
        _push(st, fr, fr.eff["eff"], f"/e{s}", actor=s)
    return True


def _op_any_number(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    known, chosen = _planned(st, fr)
    if not known:
        chosen = ask_players(st, fr)
        if chosen is None:
            return None
        say(ev, "chose_players", f"{fr.actor} chooses {', '.join(chosen) or 'nobody'}.",
            seat=fr.actor, chosen=list(chosen))
    for s in reversed(chosen):
        _push(st, fr, fr.eff["eff"], f"/e{s}", actor=s)
    return bool(chosen)


# -- picking the target ---------------------------------------------------------------------


def _ask_card(st: UnleashedState, fr: Frame, opts: list[int]) -> int | None:
    """The card the actor picks among ``opts`` (marked as this link's target), or ``None``
    while the pick is still asked."""
    pick = choose(st, fr, fr.actor, target_prompt(fr), card_opts(st, opts),
                  ask=target_ask(fr))
    if pick is None:
        return None
    cid = int(pick[1:])
    mark(st, fr, cid)
    return cid


def _pick_card(st: UnleashedState, fr: Frame) -> int | None:
    """Common first step of card-targeting ops: returns the card, ``-1`` when there is no
    legal target (the op is ignored: also a card chosen ahead that can no longer be
    taken), or ``None`` while waiting."""
    if "card" in fr.data:
        return int(fr.data["card"])
    known, cid = _planned(st, fr)
    if known:
        if cid is None or cid not in candidates(st, fr, skip=()):
            return -1
        fr.data["card"] = cid
        return int(cid)
    opts = candidates(st, fr)
    if not opts:
        return -1
    cid = _ask_card(st, fr, opts)
    if cid is not None:
        fr.data["card"] = cid
    return cid


def _pick_seat(st: UnleashedState, fr: Frame) -> str | None:
    """The player an op acts on: ``""`` when there is none (ignored), ``None`` while
    waiting."""
    if "seat" in fr.data:
        return str(fr.data["seat"])
    known, seat = _planned(st, fr)
    if known:
        if seat is None or seat not in candidates(st, fr, skip=()):
            return ""
        fr.data["seat"] = seat
        return str(seat)
    opts = candidates(st, fr)
    if not opts:
        return ""
    pick = choose(st, fr, fr.actor, target_prompt(fr), seat_opts(opts),
                  ask=target_ask(fr))
    if pick is None:
        return None
    fr.data["seat"] = pick[1:]
    return pick[1:]


def _on_card(body: Callable[[UnleashedState, Frame, int, list[Event]], bool | None]) -> Op:
    """The op that picks its card (:func:`_pick_card`), then runs ``body`` with it:
    waiting while the actor is asked, ignored (``False``) without a legal card."""
    def op(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
        cid = _pick_card(st, fr)
        if cid is None:
            return None
        if cid < 0:
            return False
        return body(st, fr, cid, ev)
    return op


def _on_seat(body: Callable[[UnleashedState, Frame, str, list[Event]], bool | None]) -> Op:
    """The op that picks its player (:func:`_pick_seat`), then runs ``body`` with them:
    waiting while the actor is asked, ignored (``False``) without a legal player."""
    def op(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
        seat = _pick_seat(st, fr)
        if seat is None:
            return None
        if not seat:
            return False
        return body(st, fr, seat, ev)
    return op


# -- atomic operations ----------------------------------------------------------------------


def _op_draw(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    return draw(st, fr.actor, int(fr.eff.get("n", 1)), ev) > 0


def _discard_one(st: UnleashedState, fr: Frame, cid: int, ev: list[Event]) -> None:
    st.hands[fr.actor].remove(cid)
    to_discard(st, cid)
    say(ev, "discard", f"{fr.actor} discards {name(cid)}.", seat=fr.actor, card=cid)


def _op_discard(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    known, cards = _planned(st, fr)
    if known:
        done = 0
        for cid in cards or []:
            if cid in st.hands[fr.actor]:  # a chosen card gone since is ignored
                _discard_one(st, fr, cid, ev)
                done += 1
        return done > 0
    left = fr.data.setdefault("left", int(fr.eff.get("n", 1)))
    done = fr.data.setdefault("done", 0)
    while left > 0:
        opts = candidates(st, fr)
        if not opts:
            break
        cid = _ask_card(st, fr, opts)
        if cid is None:
            return None
        _discard_one(st, fr, cid, ev)
        left -= 1
        done += 1
        fr.data["left"], fr.data["done"] = left, done
    return done > 0


@_on_card
def _op_sacrifice(st: UnleashedState, fr: Frame, cid: int, ev: list[Event]) -> bool | None:
    leave_field(st, cid, "sacrifice", ev)
    return True


@_on_card
def _op_destroy(st: UnleashedState, fr: Frame, cid: int, ev: list[Event]) -> bool | None:
    say(ev, "destroy", f"{fr.actor} destroys {name(cid)}.", seat=fr.actor, card=cid)
    leave_field(st, cid, "destroy", ev)
    return True


@_on_card
def _op_steal(st: UnleashedState, fr: Frame, cid: int, ev: list[Event]) -> bool | None:
    owner = holder(st, cid)
    st.fields[owner].remove(cid)
    say(ev, "steal", f"{fr.actor} steals {name(cid)} from {owner}.", seat=fr.actor, card=cid,
        victim=owner)
    enter_field(st, cid, fr.actor, ev)
    return True


@_on_card
def _op_return_card(st: UnleashedState, fr: Frame, cid: int, ev: list[Event]) -> bool | None:
    owner = holder(st, cid)
    st.fields[owner].remove(cid)
    to_hand(st, cid, owner)
    where = "the Nursery" if card(cid).type == "baby" else f"{owner}'s hand"
    say(ev, "return", f"{name(cid)} goes back to {where}.", card=cid, seat=owner)
    return True


@_on_card
def _op_move(st: UnleashedState, fr: Frame, cid: int, ev: list[Event]) -> bool | None:
    owner = holder(st, cid)
    dests = [s for s in others(st, owner) if can_enter(st, cid, s)]
    known, dest = _planned(st, fr, "@to")
    if not known:
        pick = choose(st, fr, fr.actor,
                      f"Move {name(cid)} into whose Field{source_note(fr)}?", seat_opts(dests),
                      ask="move_into", about=cid)
        if pick is None:
            return None
        dest = pick[1:]
    if dest not in dests:
        return False
    st.fields[owner].remove(cid)
    say(ev, "move", f"{fr.actor} moves {name(cid)} from {owner}'s Field to {dest}'s.",
        card=cid, source_seat=owner, dest=dest, seat=fr.actor)
    enter_field(st, cid, dest, ev)
    return True


@_on_seat
def _op_pull(st: UnleashedState, fr: Frame, victim: str, ev: list[Event]) -> bool | None:
    hand = st.hands[victim]
    cid = hand.pop(rng(st).randrange(len(hand)))
    st.hands[fr.actor].append(cid)
    say(ev, "pull", f"{fr.actor} pulls a card from {victim}'s hand.", seat=fr.actor, victim=victim)
    say(ev, "pull_private", f"{fr.actor} pulls {name(cid)} from {victim}'s hand.",
        to=[fr.actor, victim], card=cid, seat=fr.actor, victim=victim)
    return True


@_on_seat
def _op_look_take(st: UnleashedState, fr: Frame, victim: str, ev: list[Event]) -> bool | None:
    hand = [c for c in st.hands[victim] if c not in targeted(st, fr)]
    if not hand:
        return False
    pick = choose(st, fr, fr.actor, f"{victim}'s hand: choose a card to take{source_note(fr)}.",
                  card_opts(st, hand), ask="take_from", whose=victim)
    if pick is None:
        return None
    cid = int(pick[1:])
    mark(st, fr, cid)
    st.hands[victim].remove(cid)
    st.hands[fr.actor].append(cid)
    say(ev, "take", f"{fr.actor} looks at {victim}'s hand and takes a card.", seat=fr.actor,
        victim=victim)
    say(ev, "take_private", f"{fr.actor} takes {name(cid)} from {victim}'s hand.",
        to=[fr.actor, victim], card=cid, seat=fr.actor, victim=victim)
    return True


@_on_seat
def _op_swap_hands(st: UnleashedState, fr: Frame, other: str, ev: list[Event]) -> bool | None:
    st.hands[fr.actor], st.hands[other] = st.hands[other], st.hands[fr.actor]
    say(ev, "swap", f"{fr.actor} swaps hands with {other}.", seat=fr.actor, other=other)
    return True


@_on_seat
def _op_skip_turn(st: UnleashedState, fr: Frame, other: str, ev: list[Event]) -> bool | None:
    if other not in st.skip_next:
        st.skip_next.append(other)
    say(ev, "skip", f"{other} will skip their next turn.", seat=other)
    return True


def _op_bring(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    src = fr.eff["src"]
    cid = _pick_card(st, fr)
    if cid is None:
        return None
    if cid < 0:
        if src == "deck":
            shuffle_deck(st)
        return False
    pool = {"hand": st.hands[fr.actor], "deck": st.deck, "discard": st.discard,
            "nursery": st.nursery}[src]
    pool.remove(cid)
    if src == "deck":
        shuffle_deck(st)
    where = WHERE[src].replace("your", "their")
    say(ev, "bring", f"{fr.actor} brings {name(cid)} from {where} directly into their Field.",
        seat=fr.actor, card=cid, src=src)
    enter_field(st, cid, fr.actor, ev)
    return True


def _op_search(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    opts = candidates(st, fr)
    if not opts:
        shuffle_deck(st)
        say(ev, "search", f"{fr.actor} searches the deck and finds nothing.", seat=fr.actor)
        return False
    cid = _ask_card(st, fr, opts)
    if cid is None:
        return None
    st.deck.remove(cid)
    st.hands[fr.actor].append(cid)
    shuffle_deck(st)
    say(ev, "search", f"{fr.actor} searches the deck, shows {name(cid)} and adds it to their "
        "hand.", seat=fr.actor, card=cid)
    return True


def _op_take_discard(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    known, cid = _planned(st, fr)
    if known:
        if cid is None or cid not in st.discard:
            return False
    else:
        opts = candidates(st, fr)
        if not opts:
            return False
        cid = _ask_card(st, fr, opts)
        if cid is None:
            return None
    st.discard.remove(cid)
    st.hands[fr.actor].append(cid)
    say(ev, "take_discard", f"{fr.actor} takes {name(cid)} from the discard pile.",
        seat=fr.actor, card=cid)
    return True


def _op_extra_play(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    if st.active == fr.actor and st.phase == "action":
        st.card_plays += 1
        say(ev, "extra_play", f"{fr.actor} may play one more card this turn.", seat=fr.actor)
        return True
    return False


def _op_reshuffle(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    st.deck.extend(st.discard)
    st.discard.clear()
    shuffle_deck(st)
    say(ev, "reshuffle", "The discard pile is shuffled into the deck.")
    return True


def _op_shield(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    kind = fr.eff["kind"]
    got = st.shields.setdefault(fr.actor, [])
    if kind not in got:
        got.append(kind)
    say(ev, "shield", f"Until {fr.actor}'s next turn, their {kind.title()}s cannot be destroyed.",
        seat=fr.actor, kind=kind)
    return True


def _op__finish(st: UnleashedState, fr: Frame, ev: list[Event]) -> bool | None:
    """Internal: a resolved Magic card leaves the pile for the discard pile."""
    cid = fr.eff["card"]
    for i in range(len(st.stack) - 1, -1, -1):
        if st.stack[i].card == cid:
            st.stack.pop(i)
            break
    to_discard(st, cid)
    return None


OPS: dict[str, Op] = {
    "seq": _op_seq, "then": _op_then, "_then": _op__then, "if_you_do": _op_if_you_do,
    "may": _op_may,
    "choice": _op_choice, "for_each": _op_for_each, "any_number": _op_any_number,
    "draw": _op_draw, "discard": _op_discard, "sacrifice": _op_sacrifice,
    "destroy": _op_destroy, "steal": _op_steal, "return_card": _op_return_card,
    "move": _op_move, "pull": _op_pull, "look_take": _op_look_take,
    "swap_hands": _op_swap_hands, "skip_turn": _op_skip_turn, "bring": _op_bring,
    "search": _op_search, "take_discard": _op_take_discard, "extra_play": _op_extra_play,
    "reshuffle": _op_reshuffle, "shield": _op_shield, "_finish": _op__finish,
}


def step(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    """Carry out one frame (popped by the caller) and record its outcome in
    ``st.last_ok``; a frame that posts a choice goes back on the work stack to run again
    with the answer. Raises ``KeyError`` for an unknown op."""
    ok = OPS[fr.eff["op"]](st, fr, ev)
    if ok is not None:
        st.last_ok = ok
    if st.choice is not None:
        st.work.append(fr)
