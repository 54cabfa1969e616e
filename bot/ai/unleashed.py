"""AI seats for Llamas Unleashed: they read only the seat's view and the legal actions.

``heuristic_policy(view, legal, rng) -> Action``: plays Animals (and Magic that brings
one) into its own Field (a winning one first), but a card that destroys or steals first
when an opponent is within 3 Animals of winning, and a reshuffle when the deck runs low;
Downgrades into the leader's Field, Upgrades into its own, other Magic when it can; uses
every optional start-of-turn effect; answers with an Instant only when the card on the
pile helps the leader or a player within 2 of winning (the Field an Animal or Upgrade
enters, else the player; with two players, an opponent not behind it), is a destroying or stealing Magic card while it leads itself or
helps such a player, a Downgrade into its own Field, or an Instant against its own card;
picks targets mostly by how close their owner is to winning (the leader first) and gives
up its least useful cards. ``random_policy`` picks uniformly. What a card does is read from the
card data (:func:`hits`), so a changed card set needs no AI change.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from bot.ai.weighed import Weighed
from bot.games.base import Action
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import (
    Activate,
    CardView,
    Choose,
    ChooseBaby,
    DrawCard,
    Pass,
    Play,
    Proceed,
    Respond,
    UnleashedView,
)

#: Effect ops that take an Animal away from another player.
HITS = frozenset({"destroy", "steal"})


def _ops(eff: Any) -> set[str]:
    """Every op named in an effect tree (dict form)."""
    out: set[str] = set()
    if isinstance(eff, dict):
        if "op" in eff:
            out.add(str(eff["op"]))
        for v in eff.values():
            out |= _ops(v)
    elif isinstance(eff, list):
        for v in eff:
            out |= _ops(v)
    return out


@cache
def hits(key: str) -> bool:
    """Whether design ``key`` destroys or steals when played or when it enters a Field
    (read from the card data, so new designs need no AI change; cached per key: the
    catalog does not change while the process runs)."""
    d = catalog().designs.get(key)
    if d is None:
        return False
    eff = d.play or d.on_enter
    return eff is not None and bool(_ops(eff.model_dump()) & HITS)


#: Designs that count as more than one Animal (the AI removes them first).
TWO_ANIMALS = frozenset(d.key for d in catalog().designs.values()
                        if any(s.q == "animal_value" and s.v > 1 for s in d.static))

#: Designs that shuffle the discard pile back into the deck.
RESHUFFLES = frozenset(d.key for d in catalog().designs.values()
                       if d.play is not None and "reshuffle" in _ops(d.play.model_dump()))

#: Magic designs that bring an Animal into the player's own Field.
BRINGS = frozenset(d.key for d in catalog().designs.values()
                   if d.play is not None and "bring" in _ops(d.play.model_dump()))

#: How much the AI likes keeping a card of each type (low = discarded first).
KEEP = {"instant": 6, "magical": 5, "magic": 4, "basic": 3, "upgrade": 2, "downgrade": 1,
        "baby": 0}
#: How much the AI likes removing an opponent's card of each type.
HURT = {"magical": 6, "basic": 5, "baby": 3, "upgrade": 2, "downgrade": -5}


def _second_part(eff: Any) -> dict[str, Any] | None:
    """The second part of an "if you do" effect (dict form), else ``None``."""
    if not isinstance(eff, dict):
        return None
    if eff.get("op") == "may" and eff.get("if_you_do"):
        return dict(eff["if_you_do"])
    if eff.get("op") == "if_you_do":
        return dict(eff["next"])
    return None


def _has_target(view: UnleashedView, me: str, eff: dict[str, Any]) -> bool:
    """Whether a destroy or steal ``eff`` has a card of its types in another player's Field
    (as the view shows it; protections aside); any other op counts as possible."""
    if eff.get("op") not in HITS:
        return True
    types = set((eff.get("filter") or {}).get("types") or [])
    return any(not types or c.type in types
               for s, f in view.fields.items() if s != me
               for c in [*f.animals, *f.upgrades, *f.downgrades])


def _pointless(view: UnleashedView, me: str, eff: Any) -> bool:
    """An "if you do" whose second part has nothing to act on: its first part (a discard
    or a sacrifice) would only cost the player, unless a Downgrade of its own Field can go."""
    nxt = _second_part(eff)
    if nxt is None or _has_target(view, me, nxt):
        return False
    first = eff["do"] if eff.get("op") == "may" else eff["first"]
    if first.get("op") == "sacrifice" and view.fields[me].downgrades:
        return False
    return True


def random_policy(view: UnleashedView, legal: list[Action], rng: random.Random) -> Action:
    """A uniformly random legal action. Raises ``IndexError`` when ``legal`` is empty."""
    return rng.choice(legal)


def _cards(view: UnleashedView) -> dict[int, tuple[str, CardView]]:
    """card id -> (owner seat, card) for every card in a Field."""
    out: dict[int, tuple[str, CardView]] = {}
    for seat, f in view.fields.items():
        for c in [*f.animals, *f.upgrades, *f.downgrades]:
            out[c.id] = (seat, c)
    return out


def _threat(view: UnleashedView, seat: str) -> float:
    """How close ``seat`` is to winning (higher = more dangerous)."""
    f = view.fields[seat]
    return f.animal_count / max(1, f.animals_to_win) + 0.01 * view.hand_sizes.get(seat, 0)


def _leader(view: UnleashedView, me: str | None, pool: list[str] | None = None) -> str | None:
    seats = [s for s in (pool or view.seats) if s != me]
    return max(seats, key=lambda s: _threat(view, s)) if seats else None


def _play_score(view: UnleashedView, me: str, a: Play, hand: dict[int, CardView],
                lead: str | None = "") -> float:
    """Normal's score of play ``a`` (higher = sooner); ``lead``: :func:`_leader` of
    ``view`` for ``me`` when the caller has it (``""``: work it out)."""
    return _play_scored(view, me, a, hand, lead)[0]


def _play_scored(view: UnleashedView, me: str, a: Play, hand: dict[int, CardView],
                 lead: str | None = "") -> tuple[float, str]:
    """:func:`_play_score` with the reason as a tag: ``"win"``, ``"animal"``,
    ``"upgrade"``, ``"downgrade"``, ``"downgrade_leader"``, ``"attack"``,
    ``"attack_pressing"``, ``"bring"``, ``"reshuffle"``, ``"refill"``, ``"magic"`` or
    ``"wrong_field"``."""
    c = hand.get(a.card)
    if c is None:
        return 0.0, "magic"
    mine = view.fields[me]
    if lead == "":
        lead = _leader(view, me)
    # An opponent close to winning is attacked before the AI builds its own herd.
    pressing = lead is not None and (view.fields[lead].animals_to_win
                                     - view.fields[lead].animal_count) <= 3
    if c.type in ("basic", "magical"):
        if a.field != me:
            return -50.0, "wrong_field"
        gain = 2 if c.key == "grand_llama" else 1
        if mine.animal_count + gain >= mine.animals_to_win:
            return 100.0, "win"
        return 10.0 + (2.0 if c.type == "magical" else 0.0) + (2.0 if hits(c.key) else 0.0), \
            "animal"
    if c.type == "upgrade":
        return (5.0, "upgrade") if a.field == me else (-50.0, "wrong_field")
    if c.type == "downgrade":
        if a.field == me:
            return -50.0, "wrong_field"
        if a.field == lead:
            return 9.0, "downgrade_leader"
        return 6.0, "downgrade"
    if c.type == "magic":
        if hits(c.key):
            return (13.0, "attack_pressing") if pressing else (9.0, "attack")
        if c.key in BRINGS:
            return 10.5, "bring"  # an Animal into its own Field, like playing one
        if c.key in RESHUFFLES and view.deck_count <= 4 * len(view.seats):
            return 14.0, "reshuffle"  # the deck is running out: put the discard pile back
        if c.key == "greener_pastures":
            return 2.5, "refill"
        return 5.0, "magic"
    return 0.0, "magic"


def _respond(view: UnleashedView, me: str, legal: list[Action],
             hand: dict[int, CardView]) -> Action:
    return _responded(view, me, legal, hand)[0]


def _responded(view: UnleashedView, me: str, legal: list[Action],
               hand: dict[int, CardView]) -> tuple[Action, str]:
    """:func:`_respond` with the reason as a tag: ``"no_answer"`` (no Instant fits),
    ``"ambush"``, ``"counter_same"`` (a counter of the card's kind: it takes the card),
    ``"counter"`` or ``"let_pass"`` (the card helps nobody close to winning)."""
    responds = [a for a in legal if isinstance(a, Respond)]
    if not responds or not view.stack:
        return Pass(), "no_answer"
    top = view.stack[-1]
    below = view.stack[-2] if len(view.stack) > 1 else None
    # Who gains if the card resolves: the Field an Animal or Upgrade enters, else the player.
    gainer = top.field if top.card.type in ("basic", "magical", "upgrade") else top.seat
    lead = _leader(view, None)
    close = False
    if gainer is not None and gainer != me:
        f = view.fields[gainer]
        close = f.animal_count + 2 >= f.animals_to_win or gainer == lead
        if len(view.seats) == 2:  # the only opponent: answer it unless it is behind
            close = close or f.animal_count >= view.fields[me].animal_count
    if top.card.type == "downgrade":
        danger = top.field == me
    elif top.card.type == "instant":
        danger = below is not None and below.seat == me
    elif top.card.type == "magic" and hits(top.card.key):
        danger = close or me == lead
    else:
        danger = close
    if top.card.type in ("basic", "magical"):
        ambush = [a for a in responds if hand[a.card].key == "coyote_ambush"]
        if ambush and view.fields[top.seat].animal_count > 0:
            return ambush[0], "ambush"
    counters = [a for a in responds if hand[a.card].key != "coyote_ambush"]
    if danger and counters:
        # prefer a counter of the card's own kind: it takes the card.
        same = [a for a in counters if set(hand[a.card].kinds) & set(top.card.kinds)]
        return (same[0], "counter_same") if same else (counters[0], "counter")
    return Pass(), "let_pass"


def _choose(view: UnleashedView, me: str, legal: list[Action]) -> Action:
    assert view.choice is not None
    best = max(range(len(view.choice.options)), key=_option_scorer(view, me))
    return Choose(option=best)


def _option_scorer(view: UnleashedView, me: str) -> Callable[[int], float]:
    """Normal's score of option ``i`` of the seat's pending choice (higher = chosen)."""
    tagged = _option_tagger(view, me)
    return lambda i: tagged(i)[0]


def _option_tagger(view: UnleashedView, me: str) -> Callable[[int], tuple[float, str]]:
    """:func:`_option_scorer` with the reason as a tag: ``"yes"``, ``"no"``, ``"done"``,
    ``"branch"``, ``"move_downgrade"``, ``"move_good"``, ``"player"``, ``"swap"``,
    ``"threat"`` (the player closest to winning), ``"discard_least"``, ``"keep_best"``,
    ``"sacrifice_downgrade"``, ``"sacrifice_least"``, ``"move_own_downgrade"``,
    ``"move_their_upgrade"``, ``"move_other"``, ``"own"``, ``"hurt_leader"``, ``"pick"``."""
    assert view.choice is not None
    opts = view.choice.options
    prompt = view.choice.prompt
    where = _cards(view)
    hand = {c.id: c for c in view.hand or []}
    lead = _leader(view, me)
    pointless = prompt.startswith("Do you want to use this effect (") and _pointless(
        view, me, _effect_named(prompt[len("Do you want to use this effect ("):-2]))

    def score(i: int) -> tuple[float, str]:
        o = opts[i]
        if o.value == "yes":
            return (-1.0, "yes_pointless") if pointless else (1.0, "yes")
        if o.value == "no":
            return 0.0, "no"
        if o.value == "done":
            return 0.5, "done"
        if o.value.startswith("o"):
            return -i, "branch"
        if o.seat is not None:
            if prompt.startswith("Move"):
                moving = prompt[5:].split(" into")[0]
                is_bad = any(c.name == moving and c.type == "downgrade" for _, c in where.values())
                if is_bad:
                    return (10.0 if o.seat == lead else (-10.0 if o.seat == me else 1.0),
                            "move_downgrade")
                return 10.0 if o.seat == me else 0.0, "move_good"
            if prompt.startswith("Choose a player"):
                return 2.0 if o.seat != me else -1.0, "player"
            if prompt.startswith("Swap"):
                return float(view.hand_sizes.get(o.seat, 0)), "swap"
            return _threat(view, o.seat) + 0.1 * view.hand_sizes.get(o.seat, 0), "threat"
        if o.card is not None:
            cid = o.card
            if cid in hand:  # discard / bring from hand
                c = hand[cid]
                if "discard" in prompt:
                    return -float(KEEP.get(c.type, 0)), "discard_least"
                return float(KEEP.get(c.type, 0)), "keep_best"
            if cid in where:
                owner, c = where[cid]
                if prompt.startswith("Choose a card in your Field to sacrifice"):
                    if c.type == "downgrade":
                        return 10.0, "sacrifice_downgrade"
                    return -float(KEEP.get(c.type, 0)), "sacrifice_least"
                if prompt.startswith("Choose a card to move"):
                    if c.type == "downgrade" and owner == me:
                        return 10.0, "move_own_downgrade"
                    if c.type == "upgrade" and owner != me:
                        return 8.0, "move_their_upgrade"
                    return -5.0, "move_other"
                if owner == me:
                    return -10.0 + (12 if c.type == "downgrade" else 0), "own"
                worth = 3.0 if c.key in TWO_ANIMALS else 0.0
                return HURT.get(c.type, 0) + worth + 12 * _threat(view, owner), "hurt_leader"
            return 1.0, "pick"  # a card from the deck, discard pile, Nursery or another hand
        return 0.0, "pick"

    return score


def _effect_named(name: str) -> Any:
    """The "enters your Field" effect (dict form) of the design called ``name``, else
    ``None``."""
    try:
        d = catalog().by_name(name)
    except KeyError:
        return None
    return d.on_enter.model_dump() if d.on_enter is not None else None


def _worth(view: UnleashedView, me: str, a: Activate) -> bool:
    """Whether an optional start-of-turn effect helps: a hand swap only for a bigger hand,
    the Ram Herd Bonus only with a spare card; an "if you do" only when its second part
    has something to act on; everything else always."""
    kind, _, ref = a.source.partition(":")
    if kind == "herd":
        bonus = catalog().card_set.herd.bonuses.get(ref)  # type: ignore[call-overload]
        eff = bonus.eff.model_dump() if bonus is not None else None
        return (ref != "ram" or len(view.hand or []) >= 2) and not _pointless(view, me, eff)
    key = next((c.key for c in [*view.fields[me].animals, *view.fields[me].upgrades]
                if str(c.id) == ref), "")
    start = catalog().designs[key].start if key in catalog().designs else None
    if start is not None and _pointless(view, me, start.eff.model_dump()):
        return False
    if key == "trader_llama":
        mine = len(view.hand or [])
        return any(n > mine for s, n in view.hand_sizes.items() if s != me)
    return True


def heuristic_policy(view: UnleashedView, legal: list[Action], rng: random.Random) -> Action:
    """Pick an action for the seat ``view.viewer`` from ``legal`` (see the module
    docstring). Raises ``IndexError`` when ``legal`` is empty."""
    me = view.viewer
    if me is None or not legal:
        return rng.choice(legal)
    hand = {c.id: c for c in view.hand or []}
    kinds = {type(a) for a in legal}
    if ChooseBaby in kinds:
        babies = [a for a in legal if isinstance(a, ChooseBaby) and a.card is not None]
        return rng.choice(babies) if babies else legal[0]
    if Choose in kinds and view.choice is not None:
        return _choose(view, me, legal)
    if Pass in kinds:
        return _respond(view, me, legal, hand)
    acts = [a for a in legal if isinstance(a, Activate) and _worth(view, me, a)]
    if acts:
        return acts[0]
    plays = [a for a in legal if isinstance(a, Play)]
    lead = _leader(view, me) if plays else None
    scored: list[tuple[float, Any]] = [(_play_score(view, me, a, hand, lead), a)
                                       for a in plays]
    if any(isinstance(a, DrawCard) for a in legal):
        scored.append((3.0, DrawCard()))
    if any(isinstance(a, Proceed) for a in legal):
        scored.append((0.5, Proceed()))
    if not scored:
        return legal[0]
    best = max(s for s, _ in scored)
    return rng.choice([a for s, a in scored if s == best])


def weigh(view: UnleashedView, legal: list[Action], rng: random.Random) -> Weighed:
    """:func:`heuristic_policy`'s move for ``(view, legal, rng)`` and why, from the seat's
    own view. Tags: ``"only"``, ``"baby"``, ``"activate"`` (facts ``words``), a play's tag
    of :func:`_play_scored` (facts ``card``, ``field``, ``me``, ``lead``, ``left``: Animals the
    leader still needs), ``"draw"`` (``best_play``: the best play's score, below drawing's
    3), ``"proceed"``, a choice's tag of :func:`_option_tagger` (``prompt``, ``label``,
    ``owner``) and a response's tag of :func:`_responded` (``card``, ``seat``: the card on
    the pile and who played it; ``answer``: the Instant's name). Raises ``IndexError``
    when ``legal`` is empty."""
    action = heuristic_policy(view, legal, rng)
    me = view.viewer
    if me is None or len(legal) == 1:
        return Weighed(action, "only")
    hand = {c.id: c for c in view.hand or []}
    if isinstance(action, ChooseBaby):
        return Weighed(action, "baby")
    if isinstance(action, Choose) and view.choice is not None:
        tagged = _option_tagger(view, me)
        value, tag = tagged(action.option)
        opt = view.choice.options[action.option]
        owner = _cards(view).get(opt.card, (None,))[0] if opt.card is not None else opt.seat
        runner = max((tagged(i)[0] for i in range(len(view.choice.options))
                      if i != action.option), default=None)
        return Weighed(action, tag, {"prompt": view.choice.prompt, "label": opt.label,
                                     "owner": owner}, value, runner)
    if isinstance(action, (Respond, Pass)):
        _, tag = _responded(view, me, legal, hand)
        top = view.stack[-1] if view.stack else None
        answer = hand[action.card].name if isinstance(action, Respond) else None
        return Weighed(action, tag, {"card": top.card.name if top else "the card",
                                     "seat": top.seat if top else None, "answer": answer})
    if isinstance(action, Activate):
        words = next((t.words or t.text for t in view.triggers if t.source == action.source), "")
        return Weighed(action, "activate", {"words": words})
    lead = _leader(view, me)
    plays = [a for a in legal if isinstance(a, Play)]
    scores = [_play_scored(view, me, a, hand, lead)[0] for a in plays if a != action]
    left = None if lead is None else (view.fields[lead].animals_to_win
                                      - view.fields[lead].animal_count)
    if isinstance(action, Play):
        value, tag = _play_scored(view, me, action, hand, lead)
        others = [*scores, *([3.0] if any(isinstance(a, DrawCard) for a in legal) else [])]
        return Weighed(action, tag, {"card": hand[action.card].name, "field": action.field,
                                     "me": me, "lead": lead, "left": left},
                       value, max(others, default=None))
    if isinstance(action, DrawCard):
        return Weighed(action, "draw", {"best_play": max(scores, default=None)}, 3.0,
                       max(scores, default=None))
    return Weighed(action, "proceed")
