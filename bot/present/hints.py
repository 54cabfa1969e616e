"""Hints in words: the move the Normal AI would choose and why, in one or two sentences.

Each function takes what the AI weighed (a :class:`Weighed`: ``bot.ai.weighed.Weighed``
read through a Protocol, since the AI and the presenters are siblings) and returns
markdown naming players by seat id (the caller replaces them with names, as for events),
in the language asked for (the member's: a hint is an ephemeral answer).
The facts come from the player's own view only, so a hint names nothing the player cannot
see. :func:`not_yours` is the sentence for a Hint pressed by a player with nothing to
decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from bot.games.base import Action
from bot.games.pacapaca.cards import catalog as pacapaca_catalog
from bot.i18n import ENGLISH, N_, number, translate, translate_n
from bot.present.llamas_alpacas_words import card_short, lines_conditions


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


def not_yours(waiting_for: list[str], lang: str = ENGLISH) -> str:
    """The answer to a Hint from a player who has nothing to decide now (seat ids of the
    players who do), in ``lang``."""
    if not waiting_for:
        return translate(lang, "There is no move to hint right now: nobody has to decide "
                               "anything.")
    if len(waiting_for) == 1:
        return translate(lang, "A hint shows the move for the player who has to decide, and "
                               "that is {name}, not you. Press Hint again when it is your move.",
                         name=waiting_for[0])
    return translate(lang, "A hint shows the move for the player who has to decide, and that "
                           "are {names} and {last}, not you. Press Hint again when it is your "
                           "move.", names=" and ".join(waiting_for[:-1]) if lang == ENGLISH
                     else ", ".join(waiting_for[:-1]), last=waiting_for[-1])


def hints_off(lang: str = ENGLISH) -> str:
    """The answer to a Hint in a game whose lobby turned hints off, in ``lang``."""
    return translate(lang, "Hints are off in this game (the lobby's Hints option).")


def _points(n: float, lang: str = ENGLISH) -> str:
    """``n`` to one decimal, a trailing ``.0`` dropped, written the way ``lang`` writes
    numbers."""
    shown = f"{n:.1f}".rstrip("0").rstrip(".")
    return shown if lang == ENGLISH else number(lang, float(shown))


# -- Llamas & Alpacas ---------------------------------------------------------------------

#: How a scoring move compares with the others (a clause of the hint's sentence).
_THAN = {
    "more": N_("more than any other move"),
    "same": N_("as much as the best other move, and it leaves the better board"),
    "less": N_("and it leaves a better board than the moves that score more now"),
}


def llamas_alpacas(w: Weighed, lang: str = ENGLISH) -> str:
    """A Llamas & Alpacas hint (tags of ``bot.ai.llamas_alpacas.weigh``), in ``lang``."""
    f = w.facts
    if w.reason == "start":
        return translate(lang, "Place your starting card in the middle, on space 5: the Normal "
                               "AI always starts there, with room for its row and its column on "
                               "both sides.")
    if w.reason == "keep":
        clovers = translate_n(lang, "{count} clover", "{count} clovers", int(f["clovers"]))
        carrots = translate_n(lang, "{count} carrot", "{count} carrots", int(f["carrots"]))
        return translate_n(
            lang, "Keep {clovers} and {carrots}: {count} of the first three cards in the row is "
                  "a llama (llamas are paid with clovers, alpacas with carrots), so this split "
                  "fits the cards you can take next.",
            "Keep {clovers} and {carrots}: {count} of the first three cards in the row are "
            "llamas (llamas are paid with clovers, alpacas with carrots), so this split fits "
            "the cards you can take next.", int(f["llamas"]), clovers=clovers, carrots=carrots)
    card = card_short(f["card"], lang)
    space = int(f["space"]) + 1
    if w.reason == "take":
        move = translate(lang, "Take card {position} (**{card}**) and place it on space {space}",
                         position=f["position"], card=card, space=space)
    elif w.reason == "move":
        move = translate(lang, "Move **{card}** from space {src} to space {space}", card=card,
                         src=int(f["src"]) + 1, space=space)
    else:
        move = translate(lang, "Place **{card}** on space {space}", card=card, space=space)
    points = int(f["points"])
    treats = int(f.get("treats", 0))
    extra = (" " + translate_n(lang, "You also pick up the {count} treat lying on it.",
                          "You also pick up the {count} treats lying on it.", treats)
             if treats else "")
    if points:
        others = int(f["others_points"])
        than = _THAN["more" if points > others else "same" if points == others else "less"]
        return translate_n(lang, "{move}: it completes a line ({lines}) for {count} point, "
                                 "{than}.", "{move}: it completes a line ({lines}) for {count} "
                                            "points, {than}.", points, move=move,
                           lines=lines_conditions(f["lines"], lang), than=translate(lang, than)) + extra
    return translate(lang, "{move}: it scores nothing yet, but it leaves your board the most "
                           "promising (lines one card from scoring count most, full lines that "
                           "score nothing count against it).", move=move) + extra


# -- Alpaca Pacapaca ----------------------------------------------------------------------


def _gain(g: float, lang: str) -> str:
    """``"gains you about 2.5 projected points"`` or ``"costs you about 4.2 ..."``."""
    if g >= 0:
        return translate(lang, "gains you about {points} projected points",
                         points=_points(g, lang))
    return translate(lang, "costs you about {points} projected points",
                     points=_points(abs(g), lang))


def _cards(cards: list[int], lang: str) -> str:
    cat = pacapaca_catalog()
    return ("; ".join(f"**{cat.name_of(c)}**" for c in cards) if cards
            else translate(lang, "nothing"))


def pacapaca(w: Weighed, lang: str = ENGLISH) -> str:
    """An Alpaca Pacapaca hint (tags of ``bot.ai.pacapaca.weigh``), in ``lang``; gains
    are projected points (fashion points plus neck length against the other alpacas, with
    a bonus for parts that may still complete)."""
    f = w.facts
    r = w.reason

    def pts(value: float) -> str:
        return _points(value, lang)

    if r == "only":
        return translate(lang, "You have one move here, so that is the hint: make it.")
    if r == "keep":
        return translate(lang, "Keep {card}: it adds about {gain} projected points to your "
                               "alpaca, against {other_gain} for {other}.",
                         card=_cards([f["card"]], lang), gain=pts(f["gain"]),
                         other_gain=pts(f["other_gain"]), other=_cards([f["other"]], lang))
    if r in ("draw", "pile", "pass"):
        draw, pile = f.get("draw"), f.get("pile")
        if r == "pass":
            return translate(lang, "Pass: you can neither draw nor take the pile.")
        if r == "draw":
            if pile is None:
                return translate(lang, "Draw two cards: the better of two cards from the ones "
                                       "you have not seen should add about {gain} projected "
                                       "points (the pile is empty).", gain=pts(draw or 0.0))
            return translate(lang, "Draw two cards: the better of two cards from the ones you "
                                   "have not seen should add about {gain} projected points, more "
                                   "than taking the pile ({pile}).", gain=pts(draw or 0.0),
                             pile=pts(pile))
        if draw is None:
            return translate(lang, "Take the discard pile: your own discards in it and the "
                                   "average of the rest should add about {gain} projected "
                                   "points.", gain=pts(pile or 0.0))
        return translate(lang, "Take the discard pile: your own discards in it and the average "
                               "of the rest should add about {gain} projected points, more than "
                               "drawing two ({draw}).", gain=pts(pile or 0.0), draw=pts(draw))
    if r == "negotiate":
        return translate(lang, "Negotiate with {partner}: giving {give} for {get} gains you "
                               "about {gain} projected points more than them, better than "
                               "drawing or the pile ({base}), and they should like it too.",
                         partner=f["partner"], give=_cards(f["give"], lang),
                         get=_cards(f["get"], lang), gain=pts(f["gain"]), base=pts(f["base"]))
    if r == "propose":
        return translate(lang, "Propose giving {give} for {get}: of the deals {partner} should "
                               "accept, it helps you most (about {gain} projected points ahead "
                               "of them).", give=_cards(f["give"], lang),
                         get=_cards(f["get"], lang), partner=f["partner"], gain=pts(f["gain"]))
    if r in ("accept", "decline"):
        values = {"gain": _gain(f["gain"], lang), "partner_gain": pts(f["partner_gain"]),
                  "partner": f["partner"]}
        if r == "accept":
            return translate(lang, "Accept: the deal {gain} against {partner_gain} for "
                                   "{partner}.", **values)
        return translate(lang, "Decline: the deal {gain} against {partner_gain} for {partner}; "
                               "it helps them more than you.", **values)
    return translate(lang, "Give up the negotiation: no deal that helps you is one the other "
                           "player should accept.")


# -- Llamas Unleashed ---------------------------------------------------------------------

_PLAY = {
    "win": N_("it gives you the Animals you need to win"),
    "animal": N_("an Animal in your own Field is one step nearer to winning, and nothing in "
                 "your hand does more"),
    "upgrade": N_("an Upgrade helps you where nothing in your hand does more"),
    "downgrade": N_("a Downgrade hurts another player and nothing in your hand does more"),
    "downgrade_leader": N_("{lead} is closest to winning, so a Downgrade goes into their Field"),
    "attack": N_("it takes an Animal away from another player, and nothing in your hand "
                 "does more"),
    "bring": N_("it brings an Animal into your Field, as good as playing one"),
    "reshuffle": N_("the deck is running low, so the discard pile goes back into it"),
    "refill": N_("nothing in your hand does more"),
    "magic": N_("nothing in your hand does more"),
    "wrong_field": N_("nothing else is possible"),
}

_CHOICE = {
    "yes": N_("using the effect helps you"),
    "no": N_("using the effect would not help you"),
    "yes_pointless": N_("its second part has nothing to act on, so the first would only cost "
                        "you"),
    "done": N_("nobody else is worth choosing"),
    "branch": N_("it is the first choice the Normal AI takes"),
    "move_downgrade": N_("a Downgrade is best in the Field of the player closest to winning"),
    "move_good": N_("a helpful card is best in your own Field"),
    "player": N_("it acts on another player, not on you"),
    "swap": N_("that player holds the most cards"),
    "threat": N_("that player is closest to winning"),
    "discard_least": N_("it is the card you need least"),
    "keep_best": N_("it is the most useful card"),
    "sacrifice_downgrade": N_("a Downgrade in your Field only hurts you"),
    "sacrifice_least": N_("it is the card in your Field you need least"),
    "move_own_downgrade": N_("it takes a Downgrade out of your Field"),
    "move_their_upgrade": N_("it takes an Upgrade away from another player"),
    "move_other": N_("nothing better can move"),
    "own": N_("it is the least harmful choice"),
    "hurt_leader": N_("it hurts the player closest to winning most"),
    "pick": N_("it is as good as any other"),
}


def _play_why(r: str, f: Mapping[str, Any], lang: str) -> str:
    """Why a card is played (a clause), in ``lang``."""
    if r == "attack_pressing":
        left = f.get("left")
        return translate_n(lang, "{lead} needs only {count} more Animal to win, so taking one "
                                 "away comes before building your own herd",
                           "{lead} needs only {count} more Animals to win, so taking one away "
                           "comes before building your own herd",
                           int(left) if left is not None else 0, lead=f.get("lead"))
    why = translate(lang, _PLAY[r])
    return why.format(lead=f.get("lead")) if "{lead}" in why else why


def unleashed(w: Weighed, lang: str = ENGLISH) -> str:
    """A Llamas Unleashed hint (tags of ``bot.ai.unleashed.weigh``), in ``lang``."""
    f = w.facts
    r = w.reason
    if r == "only":
        return translate(lang, "You have one move here, so that is the hint: make it.")
    if r == "baby":
        return translate(lang, "Pick any Baby: each counts as one Animal, and none does more "
                               "than another.")
    if r == "activate":
        return translate(lang, "Use {words}: an optional start-of-turn effect is lost once you "
                               "move on, and this one helps you now.", words=f["words"])
    if r == "proceed":
        return translate(lang, "Move on to drawing: no start-of-turn effect left is worth "
                               "using.")
    if r == "draw":
        return translate(lang, "Draw a card instead of playing one: nothing in your hand helps "
                               "more than a new card now.")
    if r in _PLAY or r == "attack_pressing":
        field = f.get("field")
        why = _play_why(r, f, lang)
        if field is None:
            return translate(lang, "Play **{card}**: {why}.", card=f["card"], why=why)
        if field == f.get("me"):
            return translate(lang, "Play **{card}** into your Field: {why}.", card=f["card"],
                             why=why)
        return translate(lang, "Play **{card}** into {seat}'s Field: {why}.", card=f["card"],
                         seat=field, why=why)
    if r == "no_answer":
        return translate(lang, "Pass: no Instant in your hand can answer **{card}**.",
                         card=f["card"])
    if r == "let_pass":
        return translate(lang, "Pass: **{card}** does not help a player close to winning, so "
                               "keep your Instant for a card that does.", card=f["card"])
    if r == "ambush":
        return translate(lang, "Answer with **{answer}**: it destroys an Animal of {seat} as "
                               "they play one.", answer=f["answer"], seat=f["seat"])
    if r == "counter":
        return translate(lang, "Answer with **{answer}**: **{card}** would help {seat} too "
                               "much.", answer=f["answer"], card=f["card"], seat=f["seat"])
    if r == "counter_same":
        return translate(lang, "Answer with **{answer}**: it cancels **{card}** and, being of "
                               "its kind, you take the card.", answer=f["answer"],
                         card=f["card"])
    why = translate(lang, _CHOICE.get(r, _CHOICE["pick"]))
    return translate(lang, "Choose **{label}**: {why}.", label=f["label"], why=why)


__all__ = ["Weighed", "hints_off", "llamas_alpacas", "not_yours", "pacapaca", "unleashed"]
