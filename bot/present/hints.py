"""Hints in words: the move the Normal AI would choose and why, in one or two sentences.

Each function takes what the AI weighed (a :class:`Weighed`: ``bot.ai.weighed.Weighed``
read through a Protocol, since the AI and the presenters are siblings) and returns
markdown naming players by seat id (the caller replaces them with names, as for events).
The facts come from the player's own view only, so a hint names nothing the player cannot
see. :func:`not_yours` is the sentence for a Hint pressed by a player with nothing to
decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from bot.games.base import Action
from bot.games.pacapaca.cards import catalog as pacapaca_catalog


class Weighed(Protocol):
    """What the AI weighed for its move (see ``bot.ai.weighed.Weighed``)."""

    @property
    def action(self) -> Action: ...
    @property
    def reason(self) -> str: ...
    @property
    def facts(self) -> Mapping[str, Any]: ...
    @property
    def value(self) -> float: ...
    @property
    def runner_up(self) -> float | None: ...


def not_yours(waiting_for: list[str]) -> str:
    """The answer to a Hint from a player who has nothing to decide now (seat ids of the
    players who do)."""
    if not waiting_for:
        return "There is no move to hint right now: nobody has to decide anything."
    who = " and ".join(waiting_for)
    verb = "is" if len(waiting_for) == 1 else "are"
    return (f"A hint shows the move for the player who has to decide, and that {verb} "
            f"{who}, not you. Press Hint again when it is your move.")


def hints_off() -> str:
    """The answer to a Hint in a game whose lobby turned hints off."""
    return "Hints are off in this game (the lobby's Hints option)."


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _points(n: float) -> str:
    return f"{n:.1f}".rstrip("0").rstrip(".")


# -- Llamas & Alpacas ---------------------------------------------------------------------


def llamas_alpacas(w: Weighed) -> str:
    """A Llamas & Alpacas hint (tags of ``bot.ai.llamas_alpacas.weigh``)."""
    f = w.facts
    if w.reason == "start":
        return ("Place your starting card in the middle, on space 5: the Normal AI always "
                "starts there, with room for its row and its column on both sides.")
    if w.reason == "keep":
        llamas = int(f["llamas"])
        return (f"Keep {_plural(f['clovers'], 'clover')} and {_plural(f['carrots'], 'carrot')}: "
                f"{llamas} of the first three cards in the row {'is a llama' if llamas == 1 else 'are llamas'} "
                f"(llamas are paid with clovers, alpacas with carrots), so this split fits the "
                "cards you can take next.")
    card = f["card"].short()
    space = int(f["space"]) + 1
    if w.reason == "take":
        move = f"Take card {f['position']} (**{card}**) and place it on space {space}"
    elif w.reason == "move":
        move = f"Move **{card}** from space {int(f['src']) + 1} to space {space}"
    else:
        move = f"Place **{card}** on space {space}"
    points = int(f["points"])
    treats = int(f.get("treats", 0))
    extra = (f" You also pick up the {_plural(treats, 'treat')} lying on it."
             if treats else "")
    if points:
        lines = " and ".join(f["lines"])
        if points > int(f["others_points"]):
            than = "more than any other move"
        elif points == int(f["others_points"]):
            than = "as much as the best other move, and it leaves the better board"
        else:
            than = "and it leaves a better board than the moves that score more now"
        return f"{move}: it completes a line ({lines}) for {points} points, {than}.{extra}"
    return (f"{move}: it scores nothing yet, but it leaves your board the most promising "
            f"(lines one card from scoring count most, full lines that score nothing "
            f"count against it).{extra}")


# -- Alpaca Pacapaca ----------------------------------------------------------------------


def _gain(g: float) -> str:
    """``"gains you about 2.5 projected points"`` or ``"costs you about 4.2 ..."``."""
    verb = "gains" if g >= 0 else "costs"
    return f"{verb} you about {_points(abs(g))} projected points"


def _cards(cards: list[int]) -> str:
    cat = pacapaca_catalog()
    return "; ".join(f"**{cat.name_of(c)}**" for c in cards) if cards else "nothing"


def pacapaca(w: Weighed) -> str:
    """An Alpaca Pacapaca hint (tags of ``bot.ai.pacapaca.weigh``); gains are projected
    points (fashion points plus neck length against the other alpacas, with a bonus for
    parts that may still complete)."""
    f = w.facts
    r = w.reason
    if r == "only":
        return "You have one move here, so that is the hint: make it."
    if r == "keep":
        return (f"Keep {_cards([f['card']])}: it adds about {_points(f['gain'])} projected "
                f"points to your alpaca, against {_points(f['other_gain'])} for "
                f"{_cards([f['other']])}.")
    if r in ("draw", "pile", "pass"):
        draw, pile = f.get("draw"), f.get("pile")
        if r == "pass":
            return "Pass: you can neither draw nor take the pile."
        if r == "draw":
            tail = (f", more than taking the pile ({_points(pile)})" if pile is not None
                    else " (the pile is empty)")
            return (f"Draw two cards: the better of two cards from the ones you have not seen "
                    f"should add about {_points(draw or 0.0)} projected points{tail}.")
        tail = f", more than drawing two ({_points(draw)})" if draw is not None else ""
        return (f"Take the discard pile: your own discards in it and the average of the rest "
                f"should add about {_points(pile or 0.0)} projected points{tail}.")
    if r == "negotiate":
        return (f"Negotiate with {f['partner']}: giving {_cards(f['give'])} for "
                f"{_cards(f['get'])} gains you about {_points(f['gain'])} projected points "
                f"more than them, better than drawing or the pile "
                f"({_points(f['base'])}), and they should like it too.")
    if r == "propose":
        return (f"Propose giving {_cards(f['give'])} for {_cards(f['get'])}: of the deals "
                f"{f['partner']} should accept, it helps you most (about "
                f"{_points(f['gain'])} projected points ahead of them).")
    if r in ("accept", "decline"):
        said = (f"the deal {_gain(f['gain'])} against {_points(f['partner_gain'])} for "
                f"{f['partner']}")
        if r == "accept":
            return f"Accept: {said}."
        return f"Decline: {said}; it helps them more than you."
    return ("Give up the negotiation: no deal that helps you is one the other player "
            "should accept.")


# -- Llamas Unleashed ---------------------------------------------------------------------

_PLAY = {
    "win": "it gives you the Animals you need to win",
    "animal": "an Animal in your own Field is one step nearer to winning, and nothing in "
              "your hand does more",
    "upgrade": "an Upgrade helps you where nothing in your hand does more",
    "downgrade": "a Downgrade hurts another player and nothing in your hand does more",
    "downgrade_leader": "{lead} is closest to winning, so a Downgrade goes into their Field",
    "attack": "it takes an Animal away from another player, and nothing in your hand "
              "does more",
    "attack_pressing": "{lead} needs only {left} to win, so taking one away comes "
                       "before building your own herd",
    "bring": "it brings an Animal into your Field, as good as playing one",
    "reshuffle": "the deck is running low, so the discard pile goes back into it",
    "refill": "nothing in your hand does more",
    "magic": "nothing in your hand does more",
    "wrong_field": "nothing else is possible",
}

_CHOICE = {
    "yes": "using the effect helps you",
    "no": "using the effect would not help you",
    "yes_pointless": "its second part has nothing to act on, so the first would only cost you",
    "done": "nobody else is worth choosing",
    "branch": "it is the first choice the Normal AI takes",
    "move_downgrade": "a Downgrade is best in the Field of the player closest to winning",
    "move_good": "a helpful card is best in your own Field",
    "player": "it acts on another player, not on you",
    "swap": "that player holds the most cards",
    "threat": "that player is closest to winning",
    "discard_least": "it is the card you need least",
    "keep_best": "it is the most useful card",
    "sacrifice_downgrade": "a Downgrade in your Field only hurts you",
    "sacrifice_least": "it is the card in your Field you need least",
    "move_own_downgrade": "it takes a Downgrade out of your Field",
    "move_their_upgrade": "it takes an Upgrade away from another player",
    "move_other": "nothing better can move",
    "own": "it is the least harmful choice",
    "hurt_leader": "it hurts the player closest to winning most",
    "pick": "it is as good as any other",
}


def unleashed(w: Weighed) -> str:
    """A Llamas Unleashed hint (tags of ``bot.ai.unleashed.weigh``)."""
    f = w.facts
    r = w.reason
    if r == "only":
        return "You have one move here, so that is the hint: make it."
    if r == "baby":
        return "Pick any Baby: each counts as one Animal, and none does more than another."
    if r == "activate":
        return (f"Use {f['words']}: an optional start-of-turn effect is lost once you move "
                "on, and this one helps you now.")
    if r == "proceed":
        return "Move on to drawing: no start-of-turn effect left is worth using."
    if r == "draw":
        return ("Draw a card instead of playing one: nothing in your hand helps more than "
                "a new card now.")
    if r in _PLAY:
        field = f.get("field")
        into = ("" if field is None else " into your Field" if field == f.get("me")
                else f" into {field}'s Field")
        left = f.get("left")
        why = _PLAY[r].format(lead=f.get("lead"),
                              left=_plural(int(left), "more Animal") if left is not None else "")
        return f"Play **{f['card']}**{into}: {why}."
    if r in ("no_answer", "let_pass"):
        if r == "no_answer":
            return f"Pass: no Instant in your hand can answer **{f['card']}**."
        return (f"Pass: **{f['card']}** does not help a player close to winning, so keep "
                "your Instant for a card that does.")
    if r in ("ambush", "counter", "counter_same"):
        why = {"ambush": f"it destroys an Animal of {f['seat']} as they play one",
               "counter": f"**{f['card']}** would help {f['seat']} too much",
               "counter_same": f"it cancels **{f['card']}** and, being of its kind, you "
                               "take the card"}[r]
        return f"Answer with **{f['answer']}**: {why}."
    why = _CHOICE.get(r, _CHOICE["pick"])
    return f"Choose **{f['label']}**: {why}."


__all__ = ["Weighed", "hints_off", "llamas_alpacas", "not_yours", "pacapaca", "unleashed"]
