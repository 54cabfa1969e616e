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
  A card stolen or moved in "enters" its new Field like a played or brought one.
- ``swap_hands``: swap hands with any other player.  ``skip_turn``: any other player
  skips their next turn.  ``extra_play``: you may play one more card this turn (a
  card play, never a draw).
- ``reshuffle``: the discard pile is shuffled into the deck.  ``shield kind``: until your
  next turn your Animals of that kind cannot be destroyed.

Combinators: ``seq`` (and), ``then`` (second part only if the first happened), ``may``
(ask; ``if_you_do`` only when you chose to), ``choice`` (choose one branch), ``for_each``
(each player / each other player, in turn order from you, acts; ``each_player_you_last``:
each player in turn order starting after you, you last: Nanny Alpaca) and ``any_number`` (you
choose any number of other players; each of them acts).

Links (rulebook, Order of Resolution; RULES.md: Llamas Unleashed, effect chain): effects
that trigger at the same time form one link (:class:`~bot.games.unleashed.models.Link`).
Before a link resolves, :func:`plan_step` asks for all its targets, mandatory parts first,
then the optional ones ("you may": asked yes/no, then their targets), and records them in
``state.plan``; no card, in any zone, is chosen twice in a link. Then the link's effects
resolve in order with the chosen targets (a target no longer legal by then is ignored);
effects triggered meanwhile (a card entering a Field) are queued and form the next link.
Chosen when the part resolves instead: what cannot be seen before (a searched deck, the
hand looked at, a pull is random), the parts each player of a "for each" does, and a
discard or a bring from the hand after an earlier part of the same effect added cards to
that hand (Packmaster Llama's "draw 2, then discard"). "and", "then", "if you do" follow
the rulebook; an impossible part forced on you is ignored (``last_ok`` false); a Baby
leaving a Field for anywhere but another Field goes back to the Nursery; "pull" is
random, "choose"/"look" lets you pick.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from bot.games.base import Event, rng, say
from bot.games.unleashed.cards import CardDesign, Static, catalog
from bot.games.unleashed.models import (
    Choice,
    ChoiceOption,
    Frame,
    Link,
    StackItem,
    UnleashedState,
)

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


#: Per-card tables by name (:func:`per_card`).
_TABLES: dict[str, tuple[Any, ...]] = {}


def per_card(name: str, of: Callable[[CardDesign], Any]) -> tuple[Any, ...]:
    """``of(design)`` for every physical card id, indexed by id: worked out on the first
    call under ``name`` (one ``name`` per ``of``) and kept, for what the rules read at
    every step. Bound whole, so a thread (AI seats decide in threads) never sees a table
    half built."""
    table = _TABLES.get(name)
    if table is None:
        table = _TABLES[name] = tuple(of(card(cid)) for cid in range(len(catalog().cards)))
    return table


def field_statics(st: UnleashedState, seat: str, q: str) -> list[Static]:
    """The statics of kind ``q`` of the cards in ``seat``'s Field, in Field order, then
    each card's own order (from the per-card table named ``q``)."""
    table = _TABLES.get(q)
    if table is None:
        table = per_card(q, lambda d: tuple(x for x in d.static if x.q == q))
    return [x for cid in st.fields[seat] for x in table[cid]]


def kinds(st: UnleashedState, cid: int, seat: str | None) -> list[str]:
    """The kinds card ``cid`` has in ``seat``'s Field (``kind_override`` applies to Animals
    there); a card not in a Field has its printed kind."""
    d = card(cid)
    if d.kind is None:
        return []
    if seat is not None and d.is_animal:
        for s in field_statics(st, seat, "kind_override"):
            if s.kind:
                return [s.kind]
    return [d.kind]


def can_enter(st: UnleashedState, cid: int, seat: str) -> bool:
    """Whether ``cid`` may enter ``seat``'s Field (``ban_kind`` Downgrades)."""
    d = card(cid)
    if not d.is_animal:
        return d.type in ("upgrade", "downgrade")
    banned = {s.kind for s in field_statics(st, seat, "ban_kind")}
    return not banned or not (set(kinds(st, cid, seat)) & banned)


def can_be_destroyed(st: UnleashedState, cid: int, seat: str) -> bool:
    """Whether ``cid`` in ``seat``'s Field can be destroyed (``indestructible``, ``protect``,
    the Alpaca Herd shield). A Herd Bonus holds once granted, whatever other cards do
    afterwards (rulebook, Herd Bonus): the shield covers an Animal of the shielded kind as
    printed even when a card (Goat Costume) makes it count as another kind now."""
    d = card(cid)
    if any(s.q == "indestructible" for s in d.static):
        return False
    for s in field_statics(st, seat, "protect"):
        if d.type in s.types:
            return False
    shielded = st.shields.get(seat)
    if not shielded or not d.is_animal:
        return True
    return d.kind not in shielded and not set(kinds(st, cid, seat)) & set(shielded)


def hand_limit(st: UnleashedState, seat: str) -> int:
    """Hand limit: 7 plus ``hand_limit`` statics in the seat's Field, never below 0."""
    return max(0, 7 + sum(s.v for s in field_statics(st, seat, "hand_limit")))


def base_to_win(st: UnleashedState) -> int:
    """7 Animals with 2-5 players, 6 with 6-8 (rulebook, The Game Ends)."""
    return 7 if len(st.seats) <= 5 else 6


def _animal_value(d: CardDesign) -> int:
    """What card ``d`` adds to the Animal count in a Field: an Animal 1, or its first
    ``animal_value`` static; other cards 0."""
    vals = [s.v for s in d.static if s.q == "animal_value"]
    return (vals[0] if vals else 1) if d.is_animal else 0


def animals_to_win(st: UnleashedState, seat: str) -> int:
    """Animals ``seat`` needs: the base plus ``win`` statics in their Field."""
    return base_to_win(st) + sum(s.v for s in field_statics(st, seat, "win"))


def animal_count(st: UnleashedState, seat: str) -> int:
    """Animals in ``seat``'s Field; a card with ``animal_value`` counts that many."""
    value = per_card("animal value", _animal_value)
    return sum([value[c] for c in st.fields[seat]])


def _instant_stops(d: CardDesign) -> tuple[bool, bool]:
    mine = others = False
    for s in d.static:
        if s.q == "no_instants":
            if s.scope == "you":
                mine = True
            else:
                others = True
    return mine, others


def instant_stops_table() -> tuple[tuple[bool, bool], ...]:
    """:func:`instant_stops` of every physical card id, indexed by id."""
    return per_card("instant stops", _instant_stops)


def instant_stops(cid: int) -> tuple[bool, bool]:
    """(stops its owner, stops everyone else): whether card ``cid`` carries a
    ``no_instants`` static of scope you, and one of another scope (in a Field)."""
    return instant_stops_table()[cid]


def may_play_instants(st: UnleashedState, seat: str) -> bool:
    """False when a ``no_instants`` static in the seat's own Field (scope you) or in any
    other Field (scope others) forbids it (:func:`instant_stops`)."""
    for owner in st.seats:
        for cid in st.fields[owner]:
            mine, others = instant_stops(cid)
            if mine if owner == seat else others:
                return False
    return True


def extra_plays(st: UnleashedState, seat: str) -> int:
    """Extra plays per Action phase from ``extra_plays`` statics."""
    return sum(s.v for s in field_statics(st, seat, "extra_plays"))


def skips_draw(st: UnleashedState, seat: str) -> bool:
    """True when a ``skip_draw`` static makes the seat skip the Draw phase."""
    return bool(field_statics(st, seat, "skip_draw"))


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



def mandatory_start_frames(st: UnleashedState, seat: str) -> list[Frame]:
    """The mandatory start-of-turn effects of ``seat``: its Herd Bonuses (``st.herd``)
    then its Field cards' "at the start of your turn" effects, in that order, as the
    roots of the start-of-turn link (rulebook, "Playing the Game": Start of Turn, "Herd
    Bonus", "Effects that are Triggered and Continuous"; one link, mandatory targets first)."""
    bonuses = catalog().card_set.herd.bonuses
    frames: list[Frame] = []
    for k in st.herd:
        b = bonuses[k]  # type: ignore[index]
        if not b.optional:
            frames.append(Frame(eff=b.eff.model_dump(exclude_defaults=True), actor=seat,
                                herd=k))
    for cid in st.fields[seat]:
        t = card(cid).start
        if t is not None and not t.optional:
            frames.append(Frame(eff=t.eff.model_dump(exclude_defaults=True), actor=seat,
                                source=cid))
    return frames



def resolve_magic(st: UnleashedState, item: StackItem) -> None:
    """Start resolving Magic card ``item`` of the Instant pile: its effect opens a new link,
    and a last step then moves the card to the discard pile (rulebook, "Magic Cards" and
    the card types list: a Magic card takes effect at once, then is discarded)."""
    d = card(item.card)
    assert d.play is not None
    item.resolving = True
    link = new_link(st, [Frame(eff=d.play.model_dump(exclude_defaults=True), actor=item.seat,
                               source=item.card)])
    st.work.append(Frame(eff={"op": "_finish", "card": item.card}, actor=item.seat,
                         source=item.card, link=link.id))


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


# -- candidates (shared by feasibility, planning and the operations) ------------------------


def _targeted(st: UnleashedState, fr: Frame) -> list[int]:
    return st.links.get(str(fr.link), [])


def _mark(st: UnleashedState, fr: Frame, cid: int) -> None:
    st.links.setdefault(str(fr.link), []).append(cid)


def field_cards(st: UnleashedState, seats: list[str], flt: dict[str, Any] | None,
                skip: Collection[int]) -> list[int]:
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


def candidates(st: UnleashedState, fr: Frame, exclude: int | None = None,
               skip: Collection[int] | None = None) -> list[Any]:
    """The legal first picks of the atomic operation in ``fr`` (card ids or seats), in any
    zone never a card already chosen in the frame's link (or in ``skip`` when given).
    ``exclude``: a card in the actor's hand to ignore (the Magic card being played)."""
    e = fr.eff
    op = e["op"]
    flt = e.get("filter")
    if skip is None:
        skip = _targeted(st, fr)
    hand = [c for c in st.hands[fr.actor] if c != exclude and c not in skip]
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
        return [c for c in pool if c not in skip and matches(c, flt, st, None)
                and can_enter(st, c, fr.actor)]
    if op == "take_discard":
        if e.get("top"):
            return [c for c in st.discard[-1:] if c not in skip]
        return [c for c in st.discard if c not in skip and matches(c, flt, st, None)]
    if op == "search":
        return [c for c in st.deck if c not in skip and matches(c, flt, st, None)]
    return []


#: Operations that never need a target (always possible).
_FREE = frozenset({"draw", "extra_play", "reshuffle", "shield", "search", "for_each",
                   "any_number", "may", "_finish", "_then"})


def feasible(st: UnleashedState, eff: dict[str, Any], actor: str, source: int | None = None,
             exclude: int | None = None, taken: Collection[int] = ()) -> bool:
    """Whether every required part of ``eff`` can be done for ``actor`` now, no card
    chosen twice (rulebook, Actions That Are Impossible; RULES.md: a card whose
    requirement you cannot meet cannot be played): every "and" part, both parts of a
    "then", at least one branch of a choice; an optional part never blocks (an optional
    effect is offered only when its own parts, "if you do" included, can be done).
    ``taken``: cards already chosen in the link. Targets are picked greedily (first
    candidate), which is exact for every card in the set (each asks at most one card per
    zone)."""
    return _feasible(st, eff, actor, source, exclude, set(taken))


def may_feasible(st: UnleashedState, eff: dict[str, Any], actor: str,
                 source: int | None = None, taken: Collection[int] = ()) -> bool:
    """Whether the optional effect ``eff`` (a ``may`` node) may be offered: its ``do``
    part and its "if you do" part can both be done."""
    got = set(taken)
    if not _feasible(st, eff["do"], actor, source, None, got):
        return False
    nxt = eff.get("if_you_do")
    return nxt is None or _feasible(st, nxt, actor, source, None, got)


def _feasible(st: UnleashedState, eff: dict[str, Any], actor: str, source: int | None,
              exclude: int | None, taken: set[int]) -> bool:
    op = eff["op"]
    if op == "seq":
        return all(_feasible(st, s, actor, source, exclude, taken) for s in eff["steps"])
    if op == "then":
        return (_feasible(st, eff["first"], actor, source, exclude, taken)
                and _feasible(st, eff["next"], actor, source, exclude, taken))
    if op == "choice":
        return any(_feasible(st, o["eff"], actor, source, exclude, set(taken))
                   for o in eff["options"])
    if op in _FREE:
        return True
    got = candidates(st, Frame(eff=eff, actor=actor, source=source), exclude, skip=taken)
    if not got:
        return False
    if isinstance(got[0], int):
        taken.add(got[0])
    return True


# -- choices --------------------------------------------------------------------------------


def _src(fr: Frame) -> str:
    """`` (Lasso)`` / `` (the Ram Herd Bonus)`` / ``""``: what a prompt is for."""
    if fr.source is not None:
        return f" ({name(fr.source)})"
    if fr.herd is not None:
        return f" (the {fr.herd.title()} Herd Bonus)"
    return ""


def _choose(st: UnleashedState, fr: Frame, seat: str, prompt: str,
            options: list[ChoiceOption], ask_single: bool = False) -> str | None:
    """Return the picked option value, or ``None`` after posting a choice (whoever runs
    the frame keeps it to run again with the answer in ``data["pick"]``). A single option
    is taken without asking unless ``ask_single``."""
    if "pick" in fr.data:
        return str(fr.data.pop("pick"))
    if len(options) == 1 and not ask_single:
        return options[0].value
    st.choice = Choice(id=new_id(st), seat=seat, prompt=prompt, options=options,
                       source=fr.source, herd=fr.herd)
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


def _yes_no() -> list[ChoiceOption]:
    return [ChoiceOption(value="yes", label="Yes"), ChoiceOption(value="no", label="No")]


#: What each targeting operation asks (the source is added in brackets).
_ASK = {
    "discard": "Choose a card to discard", "sacrifice": "Choose a card in your Field to "
    "sacrifice", "destroy": "Choose a card to destroy", "steal": "Choose a card to steal",
    "return_card": "Choose a card to return to its player's hand",
    "move": "Choose a card to move", "pull": "Pull a random card from whose hand?",
    "look_take": "Look at whose hand?", "swap_hands": "Swap hands with whom?",
    "skip_turn": "Who skips their next turn?", "take_discard": "Choose a card from the "
    "discard pile", "search": "Choose a card from the deck",
}
_WHERE = {"hand": "your hand", "deck": "the deck", "discard": "the discard pile",
          "nursery": "the Nursery"}


def _prompt(fr: Frame) -> str:
    """The question for the atomic op of ``fr``, naming what it is for."""
    op = fr.eff["op"]
    if op == "bring":
        return f"Choose a card from {_WHERE[fr.eff['src']]} to bring into your Field{_src(fr)}:"
    text = _ASK[op]
    if text.endswith("?"):
        return text[:-1] + _src(fr) + "?"
    return text + _src(fr) + ":"


def _key(fr: Frame) -> str:
    return f"{fr.root}:{fr.path}"


def _planned(st: UnleashedState, fr: Frame, suffix: str = "") -> tuple[bool, Any]:
    """``(True, value)`` when the target of ``fr`` was chosen before its link resolved."""
    if not fr.root:
        return False, None
    k = _key(fr) + suffix
    if k in st.plan:
        return True, st.plan[k]
    return False, None


def _push(st: UnleashedState, fr: Frame, eff: dict[str, Any], part: str,
          actor: str | None = None) -> None:
    st.work.append(Frame(eff=eff, actor=actor or fr.actor, source=fr.source, herd=fr.herd,
                         link=fr.link, root=fr.root, path=fr.path + part))


def _ok(st: UnleashedState, ok: bool) -> None:
    st.last_ok = ok


# -- links: choosing every target before the link resolves -----------------------------------

#: Operations that add cards to their actor's hand: a later pick from that hand in the same
#: effect waits until it resolves.
_FILLS_HAND = frozenset({"draw", "pull", "look_take", "take_discard", "search", "swap_hands"})


def _scan(eff: dict[str, Any], key: str, filled: list[bool], deferred: list[str]) -> None:
    """Walk ``eff`` in resolution order: a discard or a bring from the hand after a part
    that fills the actor's hand is chosen when it resolves (``deferred``)."""
    op = eff["op"]
    if op == "seq":
        for i, s in enumerate(eff["steps"]):
            _scan(s, f"{key}/s{i}", filled, deferred)
    elif op == "then":
        _scan(eff["first"], key + "/f", filled, deferred)
        _scan(eff["next"], key + "/n", filled, deferred)
    elif op == "may":
        _scan(eff["do"], key + "/d", filled, deferred)
        if eff.get("if_you_do"):
            _scan(eff["if_you_do"], key + "/y", filled, deferred)
    elif op == "choice":
        for i, o in enumerate(eff["options"]):
            _scan(o["eff"], f"{key}/o{i}", filled, deferred)
    elif op in ("discard", "bring") and filled[0] and (op == "discard" or eff["src"] == "hand"):
        deferred.append(key)
    if op in _FILLS_HAND:
        filled[0] = True


def new_link(st: UnleashedState, roots: list[Frame], open_: bool = False) -> Link:
    """Start building a link of ``roots`` (their targets are asked next)."""
    link = Link(id=new_id(st), open=open_)
    st.building = link
    for fr in roots:
        add_root(st, link, fr)
    return link


def add_root(st: UnleashedState, link: Link, fr: Frame) -> None:
    """Add the effect ``fr`` to ``link`` (it resolves after the link's other effects);
    its targets are asked in turn."""
    if not fr.root:
        fr.root = new_id(st)
    fr.link = link.id
    fr.path = ""
    link.roots.append(fr)
    link.tasks.append(fr.model_copy(update={"data": {}}))
    _scan(fr.eff, _key(fr), [False], link.deferred)


def commit_link(st: UnleashedState) -> None:
    """The link's targets are all chosen: it resolves (its effects in order)."""
    link = st.building
    assert link is not None
    st.building = None
    for fr in reversed(link.roots):
        st.work.append(fr)


def plan_step(st: UnleashedState, ev: list[Event]) -> None:
    """Ask for the next target of the link being built (``st.building``): mandatory parts
    first, then the optional ones. Posts a choice or records the pick in ``st.plan``."""
    link = st.building
    assert link is not None
    if not link.tasks:
        link.tasks, link.later = link.later, []
        link.second = True
        return
    fr = link.tasks.pop(0)
    _plan(st, link, fr, ev)
    if st.choice is not None:
        link.tasks.insert(0, fr)


def _child(fr: Frame, eff: dict[str, Any], part: str) -> Frame:
    return Frame(eff=eff, actor=fr.actor, source=fr.source, herd=fr.herd, link=fr.link,
                 root=fr.root, path=fr.path + part)


def _plan(st: UnleashedState, link: Link, fr: Frame, ev: list[Event]) -> None:
    e = fr.eff
    op = e["op"]
    key = _key(fr)
    if op == "seq":
        link.tasks[0:0] = [_child(fr, s, f"/s{i}") for i, s in enumerate(e["steps"])]
        return
    if op == "then":
        link.tasks[0:0] = [_child(fr, e["first"], "/f"), _child(fr, e["next"], "/n")]
        return
    if op == "may":
        if not link.second:
            link.later.append(fr)
            return
        if not may_feasible(st, e, fr.actor, fr.source, _targeted(st, fr)):
            st.plan[key] = None  # impossible: not offered
            return
        pick = _choose(st, fr, fr.actor, f"Do you want to use this effect{_src(fr)}?",
                       _yes_no(), True)
        if pick is None:
            return
        st.plan[key] = pick == "yes"
        if pick == "yes":
            parts = [_child(fr, e["do"], "/d")]
            if e.get("if_you_do"):
                parts.append(_child(fr, e["if_you_do"], "/y"))
            link.tasks[0:0] = parts
        return
    if op == "choice":
        taken = _targeted(st, fr)
        opts = [ChoiceOption(value=f"o{i}", label=o["label"])
                for i, o in enumerate(e["options"])
                if feasible(st, o["eff"], fr.actor, fr.source, taken=taken)]
        if not opts:
            st.plan[key] = None
            return
        pick = _choose(st, fr, fr.actor, f"Choose one{_src(fr)}:", opts, True)
        if pick is None:
            return
        branch = int(pick[1:])
        st.plan[key] = branch
        link.tasks.insert(0, _child(fr, e["options"][branch]["eff"], f"/o{branch}"))
        return
    if op == "any_number":
        chosen = _ask_players(st, fr)
        if chosen is not None:
            st.plan[key] = chosen
            say(ev, "chose_players", f"{fr.actor} chooses {', '.join(chosen) or 'nobody'}.",
                seat=fr.actor, chosen=list(chosen))
        return
    if op in _FREE or key in link.deferred or (op == "bring" and e["src"] == "deck"):
        return  # chosen when it resolves (or nothing to choose)
    if op == "discard":
        picked: list[int] = fr.data.setdefault("cards", [])
        while len(picked) < int(e.get("n", 1)):
            found = candidates(st, fr)
            if not found:
                break
            pick = _choose(st, fr, fr.actor, _prompt(fr), card_opts(st, found))
            if pick is None:
                return
            picked.append(int(pick[1:]))
            _mark(st, fr, int(pick[1:]))
        st.plan[key] = list(picked)
        return
    if op in ("pull", "look_take", "swap_hands", "skip_turn"):
        found = candidates(st, fr)
        if not found:
            st.plan[key] = None
            return
        pick = _choose(st, fr, fr.actor, _prompt(fr), seat_opts(found))
        if pick is not None:
            st.plan[key] = pick[1:]
        return
    # a card: sacrifice, destroy, steal, return_card, move, bring, take_discard
    if "card" not in fr.data:
        found = candidates(st, fr)
        if not found:
            st.plan[key] = None
            return
        pick = _choose(st, fr, fr.actor, _prompt(fr), card_opts(st, found))
        if pick is None:
            return
        fr.data["card"] = int(pick[1:])
        _mark(st, fr, int(pick[1:]))
    cid = int(fr.data["card"])
    if op == "move":
        owner = field_owner(st, cid) or fr.actor
        dests = [s for s in others(st, owner) if can_enter(st, cid, s)]
        pick = _choose(st, fr, fr.actor, f"Move {name(cid)} into whose Field{_src(fr)}?",
                       seat_opts(dests))
        if pick is None:
            return
        st.plan[key + "@to"] = pick[1:]
    st.plan[key] = cid


def _ask_players(st: UnleashedState, fr: Frame) -> list[str] | None:
    """"Any number of players": ask one player at a time until Done; ``None`` while
    waiting."""
    chosen: list[str] = fr.data.setdefault("chosen", [])
    while True:
        rest = [s for s in others(st, fr.actor) if s not in chosen]
        if not rest:
            break
        opts = [*seat_opts(rest), ChoiceOption(value="done", label="Done choosing")]
        pick = _choose(st, fr, fr.actor, f"Choose a player (or Done){_src(fr)}:", opts, True)
        if pick is None:
            return None
        if pick == "done":
            break
        chosen.append(pick[1:])
    return list(chosen)


# -- the interpreter (resolution) ---------------------------------------------------------


def _op_seq(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    for i in range(len(fr.eff["steps"]) - 1, -1, -1):
        _push(st, fr, fr.eff["steps"][i], f"/s{i}")
    _ok(st, True)


def _op_then(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    _push(st, fr, {"op": "_then", "next": fr.eff["next"]}, "")
    _push(st, fr, fr.eff["first"], "/f")


def _op__then(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    if st.last_ok:
        _push(st, fr, fr.eff["next"], "/n")


def _op_may(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    known, use = _planned(st, fr)
    if not known:
        use = None
        if may_feasible(st, fr.eff, fr.actor, fr.source, _targeted(st, fr)):
            pick = _choose(st, fr, fr.actor, f"Do you want to use this effect{_src(fr)}?",
                           _yes_no(), True)
            if pick is None:
                return
            use = pick == "yes"
    if use is False:
        say(ev, "declined", f"{fr.actor} declines an optional effect.", seat=fr.actor)
    if not use:
        return _ok(st, False)
    if fr.eff.get("if_you_do"):  # "if you do": you chose to, whatever the first part did
        _push(st, fr, fr.eff["if_you_do"], "/y")
    _push(st, fr, fr.eff["do"], "/d")


def _op_choice(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    known, branch = _planned(st, fr)
    if not known:
        opts = [ChoiceOption(value=f"o{i}", label=o["label"])
                for i, o in enumerate(fr.eff["options"])
                if feasible(st, o["eff"], fr.actor, fr.source, taken=_targeted(st, fr))]
        if not opts:
            return _ok(st, False)
        pick = _choose(st, fr, fr.actor, f"Choose one{_src(fr)}:", opts, True)
        if pick is None:
            return
        branch = int(pick[1:])
    if branch is None:
        return _ok(st, False)
    _push(st, fr, fr.eff["options"][branch]["eff"], f"/o{branch}")


def _op_for_each(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    seats = others(st, fr.actor)
    who = fr.eff.get("who", "each_player")
    if who == "each_player":
        seats = [fr.actor, *seats]
    elif who == "each_player_you_last":
        seats = [*seats, fr.actor]
    for s in reversed(seats):
        _push(st, fr, fr.eff["eff"], f"/e{s}", actor=s)
    _ok(st, True)


def _op_any_number(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    known, chosen = _planned(st, fr)
    if not known:
        chosen = _ask_players(st, fr)
        if chosen is None:
            return
        say(ev, "chose_players", f"{fr.actor} chooses {', '.join(chosen) or 'nobody'}.",
            seat=fr.actor, chosen=list(chosen))
    for s in reversed(chosen):
        _push(st, fr, fr.eff["eff"], f"/e{s}", actor=s)
    _ok(st, bool(chosen))


def _op_draw(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    _ok(st, draw(st, fr.actor, int(fr.eff.get("n", 1)), ev) > 0)


def _discard_one(st: UnleashedState, fr: Frame, cid: int, ev: list[Event]) -> None:
    st.hands[fr.actor].remove(cid)
    to_discard(st, cid)
    say(ev, "discard", f"{fr.actor} discards {name(cid)}.", seat=fr.actor, card=cid)


def _op_discard(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    known, cards = _planned(st, fr)
    if known:
        done = 0
        for cid in cards or []:
            if cid in st.hands[fr.actor]:  # a chosen card gone since is ignored
                _discard_one(st, fr, cid, ev)
                done += 1
        return _ok(st, done > 0)
    left = fr.data.setdefault("left", int(fr.eff.get("n", 1)))
    done = fr.data.setdefault("done", 0)
    while left > 0:
        opts = candidates(st, fr)
        if not opts:
            break
        pick = _choose(st, fr, fr.actor, _prompt(fr), card_opts(st, opts))
        if pick is None:
            return
        cid = int(pick[1:])
        _mark(st, fr, cid)
        _discard_one(st, fr, cid, ev)
        left -= 1
        done += 1
        fr.data["left"], fr.data["done"] = left, done
    _ok(st, done > 0)


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
    pick = _choose(st, fr, fr.actor, _prompt(fr), card_opts(st, opts))
    if pick is None:
        return None
    cid = int(pick[1:])
    fr.data["card"] = cid
    _mark(st, fr, cid)
    return cid


def _op_sacrifice(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    cid = _pick_card(st, fr)
    if cid is None:
        return
    if cid < 0:
        return _ok(st, False)
    leave_field(st, cid, "sacrifice", ev)
    _ok(st, True)


def _op_destroy(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    cid = _pick_card(st, fr)
    if cid is None:
        return
    if cid < 0:
        return _ok(st, False)
    say(ev, "destroy", f"{fr.actor} destroys {name(cid)}.", seat=fr.actor, card=cid)
    leave_field(st, cid, "destroy", ev)
    _ok(st, True)


def _op_steal(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    cid = _pick_card(st, fr)
    if cid is None:
        return
    if cid < 0:
        return _ok(st, False)
    owner = field_owner(st, cid)
    assert owner is not None
    st.fields[owner].remove(cid)
    say(ev, "steal", f"{fr.actor} steals {name(cid)} from {owner}.", seat=fr.actor, card=cid,
        victim=owner)
    enter_field(st, cid, fr.actor, ev)
    _ok(st, True)


def _op_return_card(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    cid = _pick_card(st, fr)
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
    cid = _pick_card(st, fr)
    if cid is None:
        return
    if cid < 0:
        return _ok(st, False)
    owner = field_owner(st, cid)
    assert owner is not None
    dests = [s for s in others(st, owner) if can_enter(st, cid, s)]
    known, dest = _planned(st, fr, "@to")
    if not known:
        pick = _choose(st, fr, fr.actor, f"Move {name(cid)} into whose Field{_src(fr)}?",
                       seat_opts(dests))
        if pick is None:
            return
        dest = pick[1:]
    if dest not in dests:
        return _ok(st, False)
    st.fields[owner].remove(cid)
    say(ev, "move", f"{fr.actor} moves {name(cid)} from {owner}'s Field to {dest}'s.",
        card=cid, source_seat=owner, dest=dest)
    enter_field(st, cid, dest, ev)
    _ok(st, True)


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
    pick = _choose(st, fr, fr.actor, _prompt(fr), seat_opts(opts))
    if pick is None:
        return None
    fr.data["seat"] = pick[1:]
    return pick[1:]


def _op_pull(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    victim = _pick_seat(st, fr)
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
    victim = _pick_seat(st, fr)
    if victim is None:
        return
    if not victim:
        return _ok(st, False)
    hand = [c for c in st.hands[victim] if c not in _targeted(st, fr)]
    if not hand:
        return _ok(st, False)
    pick = _choose(st, fr, fr.actor, f"{victim}'s hand: choose a card to take{_src(fr)}.",
                   card_opts(st, hand))
    if pick is None:
        return
    cid = int(pick[1:])
    _mark(st, fr, cid)
    st.hands[victim].remove(cid)
    st.hands[fr.actor].append(cid)
    say(ev, "take", f"{fr.actor} looks at {victim}'s hand and takes a card.", seat=fr.actor,
        victim=victim)
    say(ev, "take_private", f"{fr.actor} takes {name(cid)} from {victim}'s hand.",
        to=[fr.actor, victim], card=cid)
    _ok(st, True)


def _op_swap_hands(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    other = _pick_seat(st, fr)
    if other is None:
        return
    if not other:
        return _ok(st, False)
    st.hands[fr.actor], st.hands[other] = st.hands[other], st.hands[fr.actor]
    say(ev, "swap", f"{fr.actor} swaps hands with {other}.", seat=fr.actor, other=other)
    _ok(st, True)


def _op_skip_turn(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    other = _pick_seat(st, fr)
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
    cid = _pick_card(st, fr)
    if cid is None:
        return
    if cid < 0:
        if src == "deck":
            shuffle_deck(st)
        return _ok(st, False)
    pool = {"hand": st.hands[fr.actor], "deck": st.deck, "discard": st.discard,
            "nursery": st.nursery}[src]
    pool.remove(cid)
    if src == "deck":
        shuffle_deck(st)
    where = _WHERE[src].replace("your", "their")
    say(ev, "bring", f"{fr.actor} brings {name(cid)} from {where} directly into their Field.",
        seat=fr.actor, card=cid, src=src)
    enter_field(st, cid, fr.actor, ev)
    _ok(st, True)


def _op_search(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    opts = candidates(st, fr)
    if not opts:
        shuffle_deck(st)
        say(ev, "search", f"{fr.actor} searches the deck and finds nothing.", seat=fr.actor)
        return _ok(st, False)
    pick = _choose(st, fr, fr.actor, _prompt(fr), card_opts(st, opts))
    if pick is None:
        return
    cid = int(pick[1:])
    _mark(st, fr, cid)
    st.deck.remove(cid)
    st.hands[fr.actor].append(cid)
    shuffle_deck(st)
    say(ev, "search", f"{fr.actor} searches the deck, shows {name(cid)} and adds it to their "
        "hand.", seat=fr.actor, card=cid)
    _ok(st, True)


def _op_take_discard(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    known, cid = _planned(st, fr)
    if known:
        if cid is None or cid not in st.discard:
            return _ok(st, False)
    else:
        opts = candidates(st, fr)
        if not opts:
            return _ok(st, False)
        pick = _choose(st, fr, fr.actor, _prompt(fr), card_opts(st, opts))
        if pick is None:
            return
        cid = int(pick[1:])
        _mark(st, fr, cid)
    st.discard.remove(cid)
    st.hands[fr.actor].append(cid)
    say(ev, "take_discard", f"{fr.actor} takes {name(cid)} from the discard pile.",
        seat=fr.actor, card=cid)
    _ok(st, True)


def _op_extra_play(st: UnleashedState, fr: Frame, ev: list[Event]) -> None:
    if st.active == fr.actor and st.phase == "action":
        st.card_plays += 1
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
    """Carry out one frame (popped by the caller); a frame that posts a choice goes back
    on the work stack to run again with the answer. Raises ``KeyError`` for an unknown
    op."""
    OPS[fr.eff["op"]](st, fr, ev)
    if st.choice is not None:
        st.work.append(fr)
