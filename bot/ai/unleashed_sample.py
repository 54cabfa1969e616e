"""Samples of what a Llamas Unleashed view hides, for the Hard seat's search.

What the view hides: the other players' hands (their sizes are shown) and the deck order.
:func:`determinize` deals the cards nobody can see (the whole card set minus the viewer's
hand, every Field, the discard pile, the Nursery and the pile of played cards) at random
into the other hands and the deck, and rebuilds the rest of the state from the view: the
turn's phase and plays left, the open reaction window (who may still answer, who passed),
the start-of-turn link (the active player's triggers not offered any more count as used;
mandatory start effects choose their targets when they resolve), shields and skipped
turns. The seat's own legal actions (its buttons) tell whether it already acted and
whether its plays left are card plays only.

A target choice (``Choose``) in the middle of an effect chain shows only the prompt, the
options and what the choice is for, so :func:`chain_sample` restarts that card's link on
the sample and replays it to the same question.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.unleashed import heuristic_policy
from bot.ai.unleashed_views import fast_view
from bot.games.base import Action
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.effects.planning import mandatory_start_frames, new_link, resolve_magic
from bot.games.unleashed.effects.statics import (
    card,
    herd_kinds,
)
from bot.games.unleashed.effects.zones import new_id
from bot.games.unleashed.engine import UnleashedEngine
from bot.games.unleashed.models import (
    Activate,
    Choice,
    DrawCard,
    Frame,
    Link,
    Proceed,
    Reaction,
    StackItem,
    UnleashedOptions,
    UnleashedState,
    UnleashedView,
)

ENGINE = UnleashedEngine()
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

