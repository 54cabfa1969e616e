"""Links: choosing every target before a link resolves.

Effects that trigger at the same time form one link (rulebook, Order of Resolution;
RULES.md: Llamas Unleashed, effect chain; :class:`~bot.games.unleashed.models.Link`).
Before a link resolves, :func:`plan_step` asks for all its targets, mandatory parts first,
then the optional ones ("you may": asked yes/no, then their targets), and records them in
``state.plan`` under :func:`plan_key`; no card, in any zone, is chosen twice in a link.
Then the link's effects resolve in order with the chosen targets (a target no longer
legal by then is ignored); effects triggered meanwhile (a card entering a Field) are
queued and form the next link. Chosen when the part resolves instead: what cannot be seen
before (a searched deck, the hand looked at, a pull is random), the parts each player of a
"for each" does, and a discard or a bring from the hand after an earlier part of the same
effect added cards to that hand (Packmaster Llama's "draw 2, then discard").
"""

from __future__ import annotations

from typing import Any

from bot.games.base import Event, say
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.effects.statics import can_enter, card, name
from bot.games.unleashed.effects.targets import (
    UNTARGETED,
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
from bot.games.unleashed.effects.zones import field_owner, new_id, others
from bot.games.unleashed.models import ChoiceOption, Frame, Link, StackItem, UnleashedState


def plan_key(fr: Frame) -> str:
    """Where the target of ``fr`` is recorded in ``state.plan``: its root and path."""
    return f"{fr.root}:{fr.path}"


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
    elif op in ("then", "if_you_do"):
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
    _scan(fr.eff, plan_key(fr), [False], link.deferred)


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
    key = plan_key(fr)
    if op == "seq":
        link.tasks[0:0] = [_child(fr, s, f"/s{i}") for i, s in enumerate(e["steps"])]
        return
    if op in ("then", "if_you_do"):
        link.tasks[0:0] = [_child(fr, e["first"], "/f"), _child(fr, e["next"], "/n")]
        return
    if op == "may":
        if not link.second:
            link.later.append(fr)
            return
        if not may_feasible(st, e, fr.actor, fr.source, targeted(st, fr)):
            st.plan[key] = None  # impossible: not offered
            return
        pick = choose(st, fr, fr.actor, f"Do you want to use this effect{source_note(fr)}?",
                       yes_no(), True, ask="optional")
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
        taken = targeted(st, fr)
        opts = [ChoiceOption(value=f"o{i}", label=o["label"])
                for i, o in enumerate(e["options"])
                if feasible(st, o["eff"], fr.actor, fr.source, taken=taken)]
        if not opts:
            st.plan[key] = None
            return
        pick = choose(st, fr, fr.actor, f"Choose one{source_note(fr)}:", opts, True,
                      ask="choose_one")
        if pick is None:
            return
        branch = int(pick[1:])
        st.plan[key] = branch
        link.tasks.insert(0, _child(fr, e["options"][branch]["eff"], f"/o{branch}"))
        return
    if op == "any_number":
        chosen = ask_players(st, fr)
        if chosen is not None:
            st.plan[key] = chosen
            say(ev, "chose_players", f"{fr.actor} chooses {', '.join(chosen) or 'nobody'}.",
                seat=fr.actor, chosen=list(chosen))
        return
    if op in UNTARGETED or key in link.deferred or (op == "bring" and e["src"] == "deck"):
        return  # chosen when it resolves (or nothing to choose)
    if op == "discard":
        picked: list[int] = fr.data.setdefault("cards", [])
        while len(picked) < int(e.get("n", 1)):
            found = candidates(st, fr)
            if not found:
                break
            pick = choose(st, fr, fr.actor, target_prompt(fr), card_opts(st, found),
                          ask=target_ask(fr))
            if pick is None:
                return
            picked.append(int(pick[1:]))
            mark(st, fr, int(pick[1:]))
        st.plan[key] = list(picked)
        return
    if op in ("pull", "look_take", "swap_hands", "skip_turn"):
        found = candidates(st, fr)
        if not found:
            st.plan[key] = None
            return
        pick = choose(st, fr, fr.actor, target_prompt(fr), seat_opts(found),
                          ask=target_ask(fr))
        if pick is not None:
            st.plan[key] = pick[1:]
        return
    # a card: sacrifice, destroy, steal, return_card, move, bring, take_discard
    if "card" not in fr.data:
        found = candidates(st, fr)
        if not found:
            st.plan[key] = None
            return
        pick = choose(st, fr, fr.actor, target_prompt(fr), card_opts(st, found),
                          ask=target_ask(fr))
        if pick is None:
            return
        fr.data["card"] = int(pick[1:])
        mark(st, fr, int(pick[1:]))
    cid = int(fr.data["card"])
    if op == "move":
        owner = field_owner(st, cid) or fr.actor
        dests = [s for s in others(st, owner) if can_enter(st, cid, s)]
        pick = choose(st, fr, fr.actor, f"Move {name(cid)} into whose Field{source_note(fr)}?",
                       seat_opts(dests), ask="move_into", about=cid)
        if pick is None:
            return
        st.plan[key + "@to"] = pick[1:]
    st.plan[key] = cid


def ask_players(st: UnleashedState, fr: Frame) -> list[str] | None:
    """"Any number of players": ask one player at a time until Done; ``None`` while
    waiting."""
    chosen: list[str] = fr.data.setdefault("chosen", [])
    while True:
        rest = [s for s in others(st, fr.actor) if s not in chosen]
        if not rest:
            break
        opts = [*seat_opts(rest), ChoiceOption(value="done", label="Done choosing")]
        pick = choose(st, fr, fr.actor, f"Choose a player (or Done){source_note(fr)}:", opts, True,
                      ask="players")
        if pick is None:
            return None
        if pick == "done":
            break
        chosen.append(pick[1:])
    return list(chosen)


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

