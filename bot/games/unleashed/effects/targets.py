"""What an operation may target and how a player is asked.

:func:`candidates` lists the legal first picks of an atomic operation (card ids or
seats), never a card already chosen in the same link; :func:`feasible` says whether an
effect's required parts can all be done now. :func:`choose` posts a
:class:`~bot.games.unleashed.models.Choice` (or takes the answer once given), with the
prompts and option lists the operations share.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from bot.games.unleashed.effects.statics import can_be_destroyed, can_enter, name
from bot.games.unleashed.effects.zones import field_owner, matches, new_id, others
from bot.games.unleashed.models import Choice, ChoiceOption, Frame, UnleashedState

# -- candidates (shared by feasibility, planning and the operations) ------------------------


def targeted(st: UnleashedState, fr: Frame) -> list[int]:
    """The cards already chosen in the link of ``fr``."""
    return st.links.get(str(fr.link), [])


def mark(st: UnleashedState, fr: Frame, cid: int) -> None:
    """Note ``cid`` as chosen in the link of ``fr`` (no card is chosen twice in a link)."""
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
        skip = targeted(st, fr)
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
UNTARGETED = frozenset({"draw", "extra_play", "reshuffle", "shield", "search", "for_each",
                        "any_number", "may", "_finish", "_then"})


def feasible(st: UnleashedState, eff: dict[str, Any], actor: str, source: int | None = None,
             exclude: int | None = None, taken: Collection[int] = ()) -> bool:
    """Whether every required part of ``eff`` can be done for ``actor`` now, no card
    chosen twice (rulebook, Actions That Are Impossible; RULES.md: a card whose
    requirement you cannot meet cannot be played): every "and" part, both parts of a
    "then", at least one branch of a choice; an optional part never blocks. An "if you
    do" needs only its first part: its second part follows the player's choice and is
    ignored when impossible (rulebook, Dealing with Card Effects that Have Multiple
    Actions: "you should only perform the second action if you choose to perform the
    first action"; Actions That Are Impossible: "just ignore it").
    ``taken``: cards already chosen in the link. Targets are picked greedily (first
    candidate), which is exact for every card in the set (each asks at most one card per
    zone)."""
    return _feasible(st, eff, actor, source, exclude, set(taken))


def may_feasible(st: UnleashedState, eff: dict[str, Any], actor: str,
                 source: int | None = None, taken: Collection[int] = ()) -> bool:
    """Whether the optional effect ``eff`` (a ``may`` node) may be offered: its ``do``
    part can be done (its "if you do" part, when impossible, is then ignored; see
    :func:`feasible`)."""
    return _feasible(st, eff["do"], actor, source, None, set(taken))


def _feasible(st: UnleashedState, eff: dict[str, Any], actor: str, source: int | None,
              exclude: int | None, taken: set[int]) -> bool:
    op = eff["op"]
    if op == "seq":
        return all(_feasible(st, s, actor, source, exclude, taken) for s in eff["steps"])
    if op == "then":
        return (_feasible(st, eff["first"], actor, source, exclude, taken)
                and _feasible(st, eff["next"], actor, source, exclude, taken))
    if op == "if_you_do":
        return _feasible(st, eff["first"], actor, source, exclude, taken)
    if op == "choice":
        return any(_feasible(st, o["eff"], actor, source, exclude, set(taken))
                   for o in eff["options"])
    if op in UNTARGETED:
        return True
    got = candidates(st, Frame(eff=eff, actor=actor, source=source), exclude, skip=taken)
    if not got:
        return False
    if isinstance(got[0], int):
        taken.add(got[0])
    return True


# -- asking ---------------------------------------------------------------------------------


def source_note(fr: Frame) -> str:
    """`` (Lasso)`` / `` (the Ram Herd Bonus)`` / ``""``: what a prompt is for."""
    if fr.source is not None:
        return f" ({name(fr.source)})"
    if fr.herd is not None:
        return f" (the {fr.herd.title()} Herd Bonus)"
    return ""


def choose(st: UnleashedState, fr: Frame, seat: str, prompt: str,
            options: list[ChoiceOption], ask_single: bool = False, *, ask: str = "",
            about: int | None = None, whose: str | None = None) -> str | None:
    """Return the picked option value, or ``None`` after posting a choice (whoever runs
    the frame keeps it to run again with the answer in ``data["pick"]``). A single option
    is taken without asking unless ``ask_single``. ``ask``, ``about``, ``whose``: what is
    asked, for the presenter's words (:class:`~bot.games.unleashed.models.Choice`)."""
    if "pick" in fr.data:
        return str(fr.data.pop("pick"))
    if len(options) == 1 and not ask_single:
        return options[0].value
    st.choice = Choice(id=new_id(st), seat=seat, prompt=prompt, options=options,
                       source=fr.source, herd=fr.herd, ask=ask, about=about, whose=whose)
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


def yes_no() -> list[ChoiceOption]:
    """The options of a "you may" question."""
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
WHERE = {"hand": "your hand", "deck": "the deck", "discard": "the discard pile",
          "nursery": "the Nursery"}


def target_ask(fr: Frame) -> str:
    """The key of :func:`target_prompt`'s question: the op, ``"bring:<src>"`` for bring."""
    op = fr.eff["op"]
    return f"bring:{fr.eff['src']}" if op == "bring" else str(op)


def target_prompt(fr: Frame) -> str:
    """The question for the atomic op of ``fr``, naming what it is for."""
    op = fr.eff["op"]
    if op == "bring":
        return f"Choose a card from {WHERE[fr.eff['src']]} to bring into your Field{source_note(fr)}:"
    text = _ASK[op]
    if text.endswith("?"):
        return text[:-1] + source_note(fr) + "?"
    return text + source_note(fr) + ":"

