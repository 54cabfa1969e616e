"""The effect vocabulary, its interpreter and the continuous-effect queries.

Effects are trees of dicts (the dict form of :class:`~bot.games.unleashed.cards.Effect`).
The interpreter is a stack machine over :class:`~bot.games.unleashed.models.Frame`: the
engine pops a frame and calls :func:`step`; an operation that needs a decision stores a
:class:`~bot.games.unleashed.models.Choice` in the state, pushes its frame back and returns;
the answer is written into the frame (``data["pick"]``) and the frame runs again.

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
- ``swap_hands``: swap hands with any other player.  ``skip_turn``: any other player
  skips their next turn.  ``extra_play``: you may play one more card this turn.
- ``reshuffle``: the discard pile is shuffled into the deck.  ``shield kind``: until your
  next turn your Animals of that kind cannot be destroyed.

Combinators: ``seq`` (and), ``then`` (second part only if the first happened), ``may``
(ask; ``if_you_do`` only when you chose to), ``choice`` (choose one branch), ``for_each``
(each player / each other player, in turn order from you, acts) and ``any_number`` (you
choose any number of other players; each of them acts).

Rulebook rulings carried out here (RULES.md: Llamas Unleashed, effect chain): an operation
without any legal target is ignored (``last_ok`` false); each link (one card's effect)
never targets the same card twice; a Baby leaving a Field for anywhere but another Field
goes back to the Nursery; "pull" is random, "choose"/"look" lets you pick.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from bot.games.base import Event, rng, say
from bot.games.unleashed.cards import CardDesign, Static, catalog
from bot.games.unleashed.models import Choice, ChoiceOption, Frame, UnleashedState

# -- small helpers --------------------------------------------------------------------------


_CARDS: list[CardDesign] = []


def card(cid: int) -> CardDesign:
    """The design of physical card ``cid``."""
    if not _CARDS:
        _CARDS.extend(catalog().cards)
    return _CARDS[cid]


def name(cid: int) -> str:
    """The printed name of card ``cid``."""
    return card(cid).name


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


def new_id(st: UnleashedState) -> int:
    """A fresh number for links, choices and windows."""
    st.counter += 1
    return st.counter


# -- continuous effects (queries) -----------------------------------------------------------


def statics(st: UnleashedState, seat: str) -> Iterator[tuple[int, Static]]:
    """Every ``(card id, static)`` of the cards in ``seat``'s Field."""
    for cid in st.fields[seat]:
        for s in card(cid).static:
            yield cid, s


def kinds(st: UnleashedState, cid: int, seat: str | None) -> list[str]:
    """The kinds card ``cid`` has in ``seat``'s Field (``kind_override`` applies to Animals
    there); a card not in a Field has its printed kind."""
    d = card(cid)
    if d.kind is None:
        return []
    if seat is not None and d.is_animal:
        for _, s in statics(st, seat):
            if s.q == "kind_override" and s.kind:
                return [s.kind]
    return [d.kind]


def can_enter(st: UnleashedState, cid: int, seat: str) -> bool:
    """Whether ``cid`` may enter ``seat``'s Field (``ban_kind`` Downgrades)."""
    d = card(cid)
    if not d.is_animal:
        return d.type in ("upgrade", "downgrade")
    banned = {s.kind for _, s in statics(st, seat) if s.q == "ban_kind"}
    return not banned or not (set(kinds(st, cid, seat)) & banned)


def can_be_destroyed(st: UnleashedState, cid: int, seat: str) -> bool:
    """Whether ``cid`` in ``seat``'s Field can be destroyed (``indestructible``, ``protect``,
    the Alpaca Herd shield)."""
    d = card(cid)
    if any(s.q == "indestructible" for s in d.static):
        return False
    for _, s in statics(st, seat):
        if s.q == "protect" and d.type in s.types:
            return False
    shielded = st.shields.get(seat, [])
    return not (d.is_animal and set(kinds(st, cid, seat)) & set(shielded))


def hand_limit(st: UnleashedState, seat: str) -> int:
    """Hand limit: 7 plus ``hand_limit`` statics in the seat's Field, never below 0."""
    return max(0, 7 + sum(s.v for _, s in statics(st, seat) if s.q == "hand_limit"))


def base_to_win(st: UnleashedState) -> int:
    """7 Animals with 2-5 players, 6 with 6-8 (rulebook, The Game Ends)."""
    return 7 if len(st.seats) <= 5 else 6


def animals_to_win(st: UnleashedState, seat: str) -> int:
    """Animals ``seat`` needs: the base plus ``win`` statics in their Field."""
    return base_to_win(st) + sum(s.v for _, s in statics(st, seat) if s.q == "win")


def animal_count(st: UnleashedState, seat: str) -> int:
    """Animals in ``seat``'s Field; a card with ``animal_value`` counts that many."""
    total = 0
    for cid in st.fields[seat]:
        d = card(cid)
        if d.is_animal:
            vals = [s.v for s in d.static if s.q == "animal_value"]
            total += vals[0] if vals else 1
    return total


def may_play_instants(st: UnleashedState, seat: str) -> bool:
    """False when a ``no_instants`` static in the seat's own Field (scope you) or in any
    other Field (scope others) forbids it."""
    for owner in st.seats:
        for _, s in statics(st, owner):
            if s.q == "no_instants" and (s.scope == "you") == (owner == seat):
                return False
    return True


def extra_plays(st: UnleashedState, seat: str) -> int:
    """Extra plays per Action phase from ``extra_plays`` statics."""
    return sum(s.v for _, s in statics(st, seat) if s.q == "extra_plays")


def skips_draw(st: UnleashedState, seat: str) -> bool:
    """True when a ``skip_draw`` static makes the seat skip the Draw phase."""
    return any(s.q == "skip_draw" for _, s in statics(st, seat))


def herd_kinds(st: UnleashedState, seat: str) -> list[str]:
    """Kinds with at least the Herd size of Animals in the seat's Field (counted by kind as
    the cards count now; each Animal card counts once here)."""
    size = catalog().card_set.herd.size
    counts: dict[str, int] = {}
    for cid in st.fields[seat]:
        if card(cid).is_animal:
            for k in kinds(st, cid, seat):
                counts[k] = counts.get(k, 0) + 1
    return [k for k in ("llama", "alpaca", "goat", "ram") if counts.get(k, 0) >= size]


# -- zones --------------------------------------------------------------------------------


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


def enter_field(st: UnleashedState, cid: int, seat: str, ev: list[Event],
                link: int | None = None) -> None:
    """``cid`` enters ``seat``'s Field from outside any Field. Its ``on_enter`` effect is a
    new link of the chain with the Field's owner acting; when the card was brought in by
    link ``link``, the new link waits until that link has fully resolved (rulebook, Order
    of Resolution: resolve the first piece before moving on to the next)."""
    st.fields[seat].append(cid)
    d = card(cid)
    if d.on_enter is None:
        return
    frame = Frame(eff=d.on_enter.model_dump(exclude_defaults=True), actor=seat, source=cid,
                  link=new_id(st))
    at = len(st.work)
    if link is not None:
        for i, f in enumerate(st.work):
            if f.link == link:
                at = i
                break
    st.work.insert(at, frame)


def leave_field(st: UnleashedState, cid: int, how: str, ev: list[Event]) -> int:
    """Destroy or sacrifice ``cid`` (``how``): the bodyguard rule first (destroy only),
    then ``return_instead`` sends it to its owner's hand, else the discard pile.
    Returns the card that actually left."""
    owner = field_owner(st, cid)
    assert owner is not None
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


# -- candidates (shared by feasibility and the operations) ---------------------------------


def _targeted(st: UnleashedState, fr: Frame) -> list[int]:
    return st.links.get(str(fr.link), [])


def _mark(st: UnleashedState, fr: Frame, cid: int) -> None:
    st.links.setdefault(str(fr.link), []).append(cid)


def field_cards(st: UnleashedState, seats: list[str], flt: dict[str, Any] | None,
                skip: list[int]) -> list[int]:
    """Cards in the Fields of ``seats`` matching ``flt``, minus ``skip``."""
    out = []
    for s in seats:
        out += [c for c in st.fields[s] if c not in skip and matches(c, flt, st, s)]
    return out


def _target_seats(st: UnleashedState, fr: Frame) -> list[str]:
    whose = fr.eff.get("whose", "other")
    if whose == "seat":
        return [fr.eff["seat"]]
    if whose == "any":
        return [fr.actor, *others(st, fr.actor)]
    return others(st, fr.actor)


def candidates(st: UnleashedState, fr: Frame, exclude: int | None = None) -> list[Any]:
    """The legal first picks of the atomic operation in ``fr`` (card ids or seats).
    ``exclude``: a card in the actor's hand to ignore (the Magic card being played)."""
    e = fr.eff
    op = e["op"]
    flt = e.get("filter")
    skip = _targeted(st, fr)
    hand = [c for c in st.hands[fr.actor] if c != exclude]
    if op == "discard":
        return [c for c in hand if matches(c, flt, st, None)]
    if op == "sacrifice":
        return field_cards(st, [fr.actor], flt, skip)
    if op == "destroy":
        return [c for c in field_cards(st, _target_seats(st, fr), flt, skip)
                if can_be_destroyed(st, c, field_owner(st, c) or "")]
    if op == "steal":
        return [c for c in field_cards(st, others(st, fr.actor), flt, skip)
                if can_enter(st, c, fr.actor)]
    if op == "return_card":
        return field_cards(st, _target_seats(st, fr), flt, skip)
    if op == "move":
        return [c for c in field_cards(st, st.seats, flt, skip)
                if any(can_enter(st, c, s) for s in others(st, field_owner(st, c) or fr.actor))]
    if op in ("pull", "look_take"):
        return [s for s in others(st, fr.actor) if st.hands[s]]
    if op in ("swap_hands", "skip_turn"):
        return others(st, fr.actor)
    if op == "bring":
        src = e["src"]
        pool = {"hand": hand, "deck": st.deck, "discard": st.discard, "nursery": st.nursery}[src]
        return [c for c in pool if matches(c, flt, st, None) and can_enter(st, c, fr.actor)]
    if op == "take_discard":
        if e.get("top"):
            return st.discard[-1:]
        return [c for c in st.discard if matches(c, flt, st, None)]
    if op == "search":
        return [c for c in st.deck if matches(c, flt, st, None)]
    return []


def feasible(st: UnleashedState, eff: dict[str, Any], actor: str, source: int | None = None,
             exclude: int | None = None) -> bool:
    """Whether ``eff`` can be carried out for ``actor`` now: every "and" part, the first
    part of a "then", at least one branch of a choice; optional and for-each effects always
    can. Used for "a card whose requirement you cannot meet cannot be played" and to skip
    optional effects that could do nothing."""
    op = eff["op"]
    if op == "seq":
        return all(feasible(st, s, actor, source, exclude) for s in eff["steps"])
    if op == "then":
        return feasible(st, eff["first"], actor, source, exclude)
    if op == "choice":
        return any(feasible(st, o["eff"], actor, source, exclude) for o in eff["options"])
    if op in ("may", "for_each", "any_number", "draw", "extra_play", "reshuffle", "shield",
              "search"):
        return True
    return bool(candidates(st, Frame(eff=eff, actor=actor, source=source), exclude))


# -- the interpreter -----------------------------------------------------------------------


def _choose(st: UnleashedState, fr: Frame, seat: str, prompt: str,
            options: list[ChoiceOption], ask_single: bool = False) -> str | None:
    """Return the picked option value, or ``None`` after posting a choice (the frame is
    pushed back to resume). A single option is taken without asking unless
    ``ask_single``."""
    if "pick" in fr.data:
        return str(fr.data.pop("pick"))
    if len(options) == 1 and not ask_single:
        return options[0].value
    st.choice = Choice(id=new_id(st), seat=seat, prompt=prompt, options=options,
                       source=fr.source, herd=fr.herd)
    st.work.append(fr)
    return None


def card_opts(st: UnleashedState, cids: list[int]) -> list[ChoiceOption]:
    """Options naming cards (with the Field owner when the card is in a Field)."""
    out = []
    for c in cids:
        owner = field_owner(st, c)
        label = name(c) + (f" ({owner})" if owner else "")
        out.append(ChoiceOption(value=f"c{c}", label=label, card=c))
    return out


def seat_opts(seats: list[str]) -> list[ChoiceOption]:
    """Options naming players."""
    return [ChoiceOption(value=f"s{s}", label=s, seat=s) for s in seats]


def _push(st: UnleashedState, fr: Frame, eff: dict[str, Any], actor: str | None = None) -> None:
    st.work.append(Frame(eff=eff, actor=actor or fr.actor, source=fr.source, herd=fr.herd,
                         link=fr.link))


def _ok(st: UnleashedState, ok: bool) -> None:
    st.last_ok = ok


def _op_seq(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    for s in reversed(fr.eff["steps"]):
        _push(st, fr, s)
    _ok(st, True)


def _op_then(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    _push(st, fr, {"op": "_then", "next": fr.eff["next"]})
    _push(st, fr, fr.eff["first"])


def _op__then(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    if st.last_ok:
        _push(st, fr, fr.eff["next"])


def _op_may(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    do = fr.eff["do"]
    if not feasible(st, do, fr.actor, fr.source):
        return _ok(st, False)
    opts = [ChoiceOption(value="yes", label="Yes"), ChoiceOption(value="no", label="No")]
    src = f" ({name(fr.source)})" if fr.source is not None else ""
    pick = _choose(st, fr, fr.actor, f"Do you want to use this effect{src}?", opts, True)
    if pick is None:
        return
    if pick == "no":
        say(ev, "declined", f"{fr.actor} declines an optional effect.", seat=fr.actor)
        return _ok(st, False)
    if fr.eff.get("if_you_do"):
        _push(st, fr, fr.eff["if_you_do"])
    _push(st, fr, do)


def _op_choice(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    opts = [ChoiceOption(value=f"o{i}", label=o["label"])
            for i, o in enumerate(fr.eff["options"])
            if feasible(st, o["eff"], fr.actor, fr.source)]
    if not opts:
        return _ok(st, False)
    pick = _choose(st, fr, fr.actor, "Choose one:", opts, True)
    if pick is None:
        return
    _push(st, fr, fr.eff["options"][int(pick[1:])]["eff"])


def _op_for_each(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    seats = others(st, fr.actor)
    if fr.eff.get("who", "each_player") == "each_player":
        seats = [fr.actor, *seats]
    for s in reversed(seats):
        _push(st, fr, fr.eff["eff"], actor=s)
    _ok(st, True)


def _op_any_number(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    chosen: list[str] = fr.data.setdefault("chosen", [])
    while True:
        rest = [s for s in others(st, fr.actor) if s not in chosen]
        if not rest:
            break
        opts = [*seat_opts(rest), ChoiceOption(value="done", label="Done choosing")]
        pick = _choose(st, fr, fr.actor, "Choose a player (or Done):", opts, True)
        if pick is None:
            return
        if pick == "done":
            break
        chosen.append(pick[1:])
    say(ev, "chose_players", f"{fr.actor} chooses {', '.join(chosen) or 'nobody'}.",
        seat=fr.actor, chosen=list(chosen))
    for s in reversed(chosen):
        _push(st, fr, fr.eff["eff"], actor=s)
    _ok(st, bool(chosen))


def _op_draw(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    _ok(st, draw(st, fr.actor, int(fr.eff.get("n", 1)), ev) > 0)


def _op_discard(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    left = fr.data.setdefault("left", int(fr.eff.get("n", 1)))
    done = fr.data.setdefault("done", 0)
    while left > 0:
        opts = candidates(st, fr)
        if not opts:
            break
        pick = _choose(st, fr, fr.actor, "Choose a card to discard:", card_opts(st, opts))
        if pick is None:
            return
        cid = int(pick[1:])
        st.hands[fr.actor].remove(cid)
        to_discard(st, cid)
        say(ev, "discard", f"{fr.actor} discards {name(cid)}.", seat=fr.actor, card=cid)
        left -= 1
        done += 1
        fr.data["left"], fr.data["done"] = left, done
    _ok(st, done > 0)


def _pick_card(st: UnleashedState, fr: Frame, prompt: str) -> int | None:
    """Common first step of card-targeting ops: returns the card, ``-1`` when there is no
    legal target (the op is ignored), or ``None`` while waiting."""
    if "card" in fr.data:
        return int(fr.data["card"])
    opts = candidates(st, fr)
    if not opts:
        return -1
    pick = _choose(st, fr, fr.actor, prompt, card_opts(st, opts))
    if pick is None:
        return None
    cid = int(pick[1:])
    fr.data["card"] = cid
    _mark(st, fr, cid)
    return cid


def _op_sacrifice(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    cid = _pick_card(st, fr, "Choose a card in your Field to sacrifice:")
    if cid is None:
        return
    if cid < 0:
        return _ok(st, False)
    leave_field(st, cid, "sacrifice", ev)
    _ok(st, True)


def _op_destroy(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    cid = _pick_card(st, fr, "Choose a card to destroy:")
    if cid is None:
        return
    if cid < 0:
        return _ok(st, False)
    say(ev, "destroy", f"{fr.actor} destroys {name(cid)}.", seat=fr.actor, card=cid)
    leave_field(st, cid, "destroy", ev)
    _ok(st, True)


def _op_steal(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    cid = _pick_card(st, fr, "Choose a card to steal:")
    if cid is None:
        return
    if cid < 0:
        return _ok(st, False)
    owner = field_owner(st, cid)
    assert owner is not None
    st.fields[owner].remove(cid)
    st.fields[fr.actor].append(cid)
    say(ev, "steal", f"{fr.actor} steals {name(cid)} from {owner}.", seat=fr.actor, card=cid,
        victim=owner)
    _ok(st, True)


def _op_return_card(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    cid = _pick_card(st, fr, "Choose a card to return to its player's hand:")
    if cid is None:
        return
    if cid < 0:
        return _ok(st, False)
    owner = field_owner(st, cid)
    assert owner is not None
    st.fields[owner].remove(cid)
    to_hand(st, cid, owner)
    say(ev, "return", f"{name(cid)} goes back from {owner}'s Field.", card=cid, seat=owner)
    _ok(st, True)


def _op_move(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    cid = _pick_card(st, fr, "Choose a card to move:")
    if cid is None:
        return
    if cid < 0:
        return _ok(st, False)
    owner = field_owner(st, cid)
    assert owner is not None
    dests = [s for s in others(st, owner) if can_enter(st, cid, s)]
    pick = _choose(st, fr, fr.actor, f"Move {name(cid)} into whose Field?", seat_opts(dests))
    if pick is None:
        return
    dest = pick[1:]
    st.fields[owner].remove(cid)
    st.fields[dest].append(cid)
    say(ev, "move", f"{fr.actor} moves {name(cid)} from {owner}'s Field to {dest}'s.",
        card=cid, source_seat=owner, dest=dest)
    _ok(st, True)


def _pick_seat(st: UnleashedState, fr: Frame, prompt: str) -> str | None:
    if "seat" in fr.data:
        return str(fr.data["seat"])
    opts = candidates(st, fr)
    if not opts:
        return ""
    pick = _choose(st, fr, fr.actor, prompt, seat_opts(opts))
    if pick is None:
        return None
    fr.data["seat"] = pick[1:]
    return pick[1:]


def _op_pull(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    victim = _pick_seat(st, fr, "Pull a random card from whose hand?")
    if victim is None:
        return
    if not victim:
        return _ok(st, False)
    hand = st.hands[victim]
    cid = hand.pop(rng(st).randrange(len(hand)))
    st.hands[fr.actor].append(cid)
    say(ev, "pull", f"{fr.actor} pulls a card from {victim}'s hand.", seat=fr.actor, victim=victim)
    say(ev, "pull_private", f"{fr.actor} pulls {name(cid)} from {victim}'s hand.",
        to=[fr.actor, victim], card=cid)
    _ok(st, True)


def _op_look_take(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    victim = _pick_seat(st, fr, "Look at whose hand?")
    if victim is None:
        return
    if not victim:
        return _ok(st, False)
    hand = st.hands[victim]
    pick = _choose(st, fr, fr.actor, f"{victim}'s hand: choose a card to take.",
                   card_opts(st, list(hand)))
    if pick is None:
        return
    cid = int(pick[1:])
    hand.remove(cid)
    st.hands[fr.actor].append(cid)
    say(ev, "take", f"{fr.actor} looks at {victim}'s hand and takes a card.", seat=fr.actor,
        victim=victim)
    say(ev, "take_private", f"{fr.actor} takes {name(cid)} from {victim}'s hand.",
        to=[fr.actor, victim], card=cid)
    _ok(st, True)


def _op_swap_hands(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    other = _pick_seat(st, fr, "Swap hands with whom?")
    if other is None:
        return
    if not other:
        return _ok(st, False)
    st.hands[fr.actor], st.hands[other] = st.hands[other], st.hands[fr.actor]
    say(ev, "swap", f"{fr.actor} swaps hands with {other}.", seat=fr.actor, other=other)
    _ok(st, True)


def _op_skip_turn(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    other = _pick_seat(st, fr, "Who skips their next turn?")
    if other is None:
        return
    if not other:
        return _ok(st, False)
    if other not in st.skip_next:
        st.skip_next.append(other)
    say(ev, "skip", f"{other} will skip their next turn.", seat=other)
    _ok(st, True)


def _op_bring(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    src = fr.eff["src"]
    opts = candidates(st, fr)
    if not opts:
        if src == "deck":
            shuffle_deck(st)
        return _ok(st, False)
    where = {"hand": "your hand", "deck": "the deck", "discard": "the discard pile",
             "nursery": "the Nursery"}[src]
    pick = _choose(st, fr, fr.actor, f"Choose a card from {where} to bring into your Field:",
                   card_opts(st, opts))
    if pick is None:
        return
    cid = int(pick[1:])
    pool = {"hand": st.hands[fr.actor], "deck": st.deck, "discard": st.discard,
            "nursery": st.nursery}[src]
    pool.remove(cid)
    if src == "deck":
        shuffle_deck(st)
    say(ev, "bring", f"{fr.actor} brings {name(cid)} from {where.replace('your', 'their')} "
        "directly into their Field.", seat=fr.actor, card=cid, src=src)
    enter_field(st, cid, fr.actor, ev, link=fr.link)
    _ok(st, True)


def _op_search(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    opts = candidates(st, fr)
    if not opts:
        shuffle_deck(st)
        say(ev, "search", f"{fr.actor} searches the deck and finds nothing.", seat=fr.actor)
        return _ok(st, False)
    pick = _choose(st, fr, fr.actor, "Choose a card from the deck:", card_opts(st, opts))
    if pick is None:
        return
    cid = int(pick[1:])
    st.deck.remove(cid)
    st.hands[fr.actor].append(cid)
    shuffle_deck(st)
    say(ev, "search", f"{fr.actor} searches the deck, shows {name(cid)} and adds it to their "
        "hand.", seat=fr.actor, card=cid)
    _ok(st, True)


def _op_take_discard(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    opts = candidates(st, fr)
    if not opts:
        return _ok(st, False)
    pick = _choose(st, fr, fr.actor, "Choose a card from the discard pile:", card_opts(st, opts))
    if pick is None:
        return
    cid = int(pick[1:])
    st.discard.remove(cid)
    st.hands[fr.actor].append(cid)
    say(ev, "take_discard", f"{fr.actor} takes {name(cid)} from the discard pile.",
        seat=fr.actor, card=cid)
    _ok(st, True)


def _op_extra_play(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    if st.active == fr.actor and st.phase == "action":
        st.plays_left += 1
        say(ev, "extra_play", f"{fr.actor} may play one more card this turn.", seat=fr.actor)
        return _ok(st, True)
    _ok(st, False)


def _op_reshuffle(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    st.deck.extend(st.discard)
    st.discard.clear()
    shuffle_deck(st)
    say(ev, "reshuffle", "The discard pile is shuffled into the deck.")
    _ok(st, True)


def _op_shield(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    kind = fr.eff["kind"]
    got = st.shields.setdefault(fr.actor, [])
    if kind not in got:
        got.append(kind)
    say(ev, "shield", f"Until {fr.actor}'s next turn, their {kind.title()}s cannot be destroyed.",
        seat=fr.actor, kind=kind)
    _ok(st, True)


def _op__finish(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    """Internal: a resolved Magic card leaves the pile for the discard pile."""
    cid = fr.eff["card"]
    for i in range(len(st.stack) - 1, -1, -1):
        if st.stack[i].card == cid:
            st.stack.pop(i)
            break
    to_discard(st, cid)


OPS: dict[str, Callable[[UnleashedState, Frame, list[Event]], None]] = {
    "seq": _op_seq, "then": _op_then, "_then": _op__then, "may": _op_may,
    "choice": _op_choice, "for_each": _op_for_each, "any_number": _op_any_number,
    "draw": _op_draw, "discard": _op_discard, "sacrifice": _op_sacrifice,
    "destroy": _op_destroy, "steal": _op_steal, "return_card": _op_return_card,
    "move": _op_move, "pull": _op_pull, "look_take": _op_look_take,
    "swap_hands": _op_swap_hands, "skip_turn": _op_skip_turn, "bring": _op_bring,
    "search": _op_search, "take_discard": _op_take_discard, "extra_play": _op_extra_play,
    "reshuffle": _op_reshuffle, "shield": _op_shield, "_finish": _op__finish,
}


def step(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    """Carry out one frame (popped by the caller). Raises ``KeyError`` for an unknown op."""
    OPS[fr.eff["op"]](st, fr, ev)
