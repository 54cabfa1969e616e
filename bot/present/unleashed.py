"""What the Llamas Unleashed table shows and offers (UX.md: "Llamas Unleashed").

Hands are hidden, so the public table carries almost no choices:

- set-up: ``"Choose your Baby"``, which opens the private panel ``baby`` (the Nursery is
  public: every player still choosing faces the same actions, so the same key);
- a reaction window: Respond and Pass, drawn by the cog itself (they must look the same to
  every member whether or not they hold an Instant; see ``cogs/unleashed.py``); Respond
  then shows the private panel ``respond`` (the Instants that may answer, and Pass);
- everything else is decided in the private panel ``hand`` (opened with My hand), drawn
  from the player's own view: the Baby select, a choice's buttons or select, start-of-turn
  effects, the play select (one option per legal play, the Field named when a card may go
  into several), Draw and End your Action phase.

Every option is bound to the index of its action in the player's ``legal_actions``.
Public words come from the spectator view only; the own view feeds the private panels.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

from bot.games.base import Action, Event, Pending, Result
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import (
    Activate,
    Choose,
    ChooseBaby,
    DrawCard,
    Pass,
    Play,
    Proceed,
    Respond,
    UnleashedView,
)
from bot.i18n import ENGLISH, N_, translate, translate_n
from bot.present.base import (
    Choice,
    Item,
    Panel,
    Presenter,
    Seen,
    Select,
    TableModel,
    alt_join,
    named,
)
from bot.present.unleashed_words import (
    TYPE_WORDS,
    animals,
    card_line,
    card_name,
    card_owner,
    card_text,
    choice_source,
    event_line,
    herd_word,
    kinds_count,
    name_of,
    option_words,
    prompt_words,
    rules_summary,
    source_words,
)

BABY_BOTTLE = "\N{BABY BOTTLE}"
A = TypeVar("A", bound=Action)
#: The neutral answer to Respond/Pass from a player who cannot (or no longer can) respond.
NEUTRAL_PASS = N_("You pass: you will not answer this card.")
NEUTRAL_RESPOND = N_("You have no Instant you can play on this card right now.")
#: The words of the reaction window's public buttons.
RESPOND = N_("Respond")
PASS = N_("Pass")
#: The private panel's button that draws it anew.
REFRESH = N_("Refresh")
#: The engine's reason when the deck ran out (``Result.reason``).
DECK_OUT = "The deck ran out."


def short(text: str, n: int = 100) -> str:
    """``text`` cut to ``n`` characters with an ellipsis."""
    return text if len(text) <= n else text[: n - 1].rstrip() + "\u2026"


def when(deadline: float | None, lang: str = ENGLISH) -> str:
    """A deadline as Discord's relative timestamp (``"soon"`` when unknown)."""
    return f"<t:{int(deadline)}:R>" if deadline else translate(lang, "soon")


def pile_line(view: UnleashedView, names: dict[str, str], lang: str = ENGLISH) -> str:
    """The top of the pile in words (played cards are face up): ``"Ana plays Stampede"``,
    ``"Bo answers Stampede with Llama Spit"``, ``""`` for an empty pile."""
    if not view.stack:
        return ""
    top = view.stack[-1]
    who = names.get(top.seat, top.seat)
    card = name_of(lang, top.card.name)
    if top.card.type == "instant" and len(view.stack) > 1:
        return translate(lang, "{name} answers {card} with {instant}", name=who,
                         card=name_of(lang, view.stack[-2].card.name), instant=card)
    if top.field and top.field != top.seat:
        return translate(lang, "{name} plays {card} into {other}'s Field", name=who, card=card,
                         other=names.get(top.field, top.field))
    return translate(lang, "{name} plays {card}", name=who, card=card)


def _indexed(legal: list[Action], kind: type[A]) -> list[tuple[int, A]]:
    """``(index, action)`` of the actions of class ``kind`` in ``legal``."""
    return [(i, a) for i, a in enumerate(legal) if isinstance(a, kind)]


@functools.lru_cache(maxsize=512)
def _baby_items(babies: tuple[tuple[int, int | None], ...], lang: str) -> tuple[Item, ...]:
    """The Baby select and "Pick one for me" of ``babies`` (``(index, card id)`` of each
    Baby choice, ``None``: a random one) in ``lang``; the same for every seat of a set-up
    and kept (the items are frozen)."""
    options = tuple(Choice(short(card_name(lang, card)), index=i,
                           description=short(card_line(card, lang)))
                    for i, card in babies if card is not None)
    items: list[Item] = [Select(translate(lang, "Choose your Baby"), options,
                                noun=translate(lang, "Babies"))]
    items += [Choice(short(translate(lang, "Pick one for me"), 80), index=i,
                     style="secondary")
              for i, card in babies if card is None]
    return tuple(items)


class UnleashedPresenter(Presenter):
    """Turn text, the Baby opener and the private panels of Llamas Unleashed."""

    accent = 0x5B8C3A

    def alt_text(self, view: UnleashedView, pending: Pending, names: dict[str, str],
                 lines: Sequence[str] = (), *, lang: str = ENGLISH) -> str:
        """The table in words: whose turn and phase, the card on the pile, each Field's
        Animals (by name) with its hand size, the deck, discard and nursery counts and
        the last move. A reaction window never says who may answer (UX.md), and no hand
        card is named."""
        if view.phase == "over":
            head = translate(lang, "The game is over.")
        elif view.phase == "setup":
            head = translate(lang, "Set-up: everyone picks a Baby.")
        else:
            who = names.get(view.active or "", view.active or "")
            head = translate(lang, "Turn {turn}: {name} to play, {phase}.", turn=view.turn,
                             name=who, phase=translate(lang, ALT_PHASES[view.phase])
                             if view.phase in ALT_PHASES else view.phase)
        pile = pile_line(view, names, lang)
        fields = []
        for seat in view.seats:
            f = view.fields[seat]
            herd = ", ".join(name_of(lang, a.name) for a in f.animals) \
                or translate(lang, "no Animals")
            fields.append(translate(lang, "{name}: {count} of {target} ({animals}), {cards}.",
                                    name=names.get(seat, seat), count=f.animal_count,
                                    target=animals(lang, f.animals_to_win), animals=herd,
                                    cards=in_hand(lang, view.hand_sizes.get(seat, 0))))
        return alt_join([head, translate(lang, "On the pile: {pile}.", pile=pile) if pile else "",
                         *lines[-1:], *fields,
                         translate(lang, "Deck {deck}, discard {discard}, nursery {nursery}.",
                                   deck=view.deck_count, discard=len(view.discard),
                                   nursery=len(view.nursery))], lang=lang)

    game = "llamas-unleashed"
    #: Hands are DMed once per change of turn (one DM for the chain of moves that changed
    #: them), only for a change the player did not see in its own answer.
    hand_dm_after = "turn"
    #: Public events that move cards into or out of the hand of the seat they name (a
    #: swap of hands, a card returned or taken back to its owner's hand).
    hand_moves = frozenset({"swap", "return", "returned", "countered"})
    #: The first hand is always DMed, even when the member's own Baby choice started the
    #: game and the answer told them their cards.
    dealt = frozenset({"dealt_private"})

    def turns(self, view: UnleashedView) -> int:
        """The turns played."""
        return view.turn

    def highlight(self, view: UnleashedView, result: Result, names: dict[str, str], *,
                  lang: str = ENGLISH) -> str:
        """The herd that won: the winner's Animals by kind (most first)."""
        if len(result.winners) != 1 or result.winners[0] not in view.fields:
            return ""
        seat = result.winners[0]
        kinds = Counter(c.kinds[0] if c.kinds else "animal" for c in view.fields[seat].animals)
        herd = ", ".join(kinds_count(lang, kind, n)
                         for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
        count = sum(kinds.values())
        if not herd:
            return translate_n(lang, "The herd that won: {name}'s {count} Animal.",
                               "The herd that won: {name}'s {count} Animals.", count,
                               name=names.get(seat, seat))
        return translate_n(lang, "The herd that won: {name}'s {count} Animal: {herd}.",
                           "The herd that won: {name}'s {count} Animals: {herd}.", count,
                           name=names.get(seat, seat), herd=herd)

    def hand_cards(self, view: UnleashedView) -> list[tuple[int, str]]:
        """The own view's hand as ``(card id, name)``, in hand order."""
        return [(c.id, c.name) for c in view.hand or []]

    def table(self, seen: Seen, own: UnleashedView | None = None,
              deadline: float | None = None) -> TableModel:
        """The table for ``seen`` (spectator view; choices for ``seen.seat``), with the
        private panels drawn from ``own`` (that seat's own view) and the rules timer's
        ``deadline`` (Unix seconds) in the words, in ``seen.lang``."""
        view: UnleashedView = seen.view
        lang = seen.lang
        model = TableModel(seen.seat, seen.key,
                           [self.turn_text(view, seen.names, deadline, lang)])
        if seen.seat is None or view.result is not None:
            return model
        legal = seen.legal
        if view.phase == "setup" and legal:
            model.items = [Choice(translate(lang, "Choose your Baby"), opens="baby",
                                  emoji=BABY_BOTTLE)]
            model.panels["baby"] = Panel(translate(lang, "Choose your Baby:"),
                                         tuple(self._babies(legal, lang)))
        if any(isinstance(a, Respond) for a in legal):
            model.panels["respond"] = Panel(
                translate(lang, "Answer **{pile}** with:", pile=pile_line(view, seen.names, lang)),
                tuple(self._responses(legal, lang)))
        if own is not None:
            text, items = self.hand(own, legal, seen.names, seen.plain_names, deadline, lang)
            model.panels["hand"] = Panel(text, tuple(items))
        return model

    @staticmethod
    def turn_text(view: UnleashedView, names: dict[str, str], deadline: float | None,
                  lang: str = ENGLISH) -> str:
        """Whose decision it is, never naming who may answer a reaction window; a window
        is led by what is on the pile (``"⚡ **Ana plays Stampede**: anyone ..."``), so the
        table edited in place into it says what was just played."""
        if view.result is not None:
            return ""
        if view.pending_kind == "setup":
            waiting = ", ".join(names[s] for s in view.pending_seats)
            return translate(lang, "Everyone picks a Baby with **Choose your Baby** (waiting "
                             "for {names}; a random one is picked {when}).", names=waiting,
                             when=when(deadline, lang))
        if view.pending_kind == "reaction":
            pile = pile_line(view, names, lang)
            if pile:
                return translate(lang, "\N{HIGH VOLTAGE SIGN} **{pile}**: anyone who holds a "
                                 "fitting Instant may answer with **Respond**; the window "
                                 "closes {when}.", pile=pile, when=when(deadline, lang))
            return translate(lang, "Anyone who holds a fitting Instant may answer with "
                             "**Respond**; the window closes {when}.", when=when(deadline, lang))
        if view.pending_kind == "choice" and view.pending_seats:
            who = names[view.pending_seats[0]]
            if view.choice_source is not None:
                return translate(lang, "Waiting for **{name}** to choose for {source}: open "
                                 "**My hand**.", name=who,
                                 source=name_of(lang, view.choice_source))
            if view.choice_herd is not None:
                return translate(lang, "Waiting for **{name}** to choose for {source}: open "
                                 "**My hand**.", name=who,
                                 source=herd_word(lang, view.choice_herd))
            if view.phase == "end":
                return translate(lang, "Waiting for **{name}** to choose what to discard down "
                                 "to the hand limit: open **My hand**.", name=who)
            return translate(lang, "Waiting for **{name}** to choose: open **My hand**.",
                             name=who)
        if view.active is not None:
            who = names[view.active]
            if view.phase == "start":
                return translate(lang, "**{name}**'s turn: start-of-turn effects, then draw "
                                 "(open **My hand**).", name=who)
            if view.phase == "action":
                return translate(lang, "**{name}**'s turn: play a card or draw (open **My "
                                 "hand**).", name=who)
            return translate(lang, "**{name}**'s turn: finish the turn (open **My hand**).",
                             name=who)
        return ""

    def hand(self, own: UnleashedView, legal: list[Action], names: dict[str, str],
             plain: dict[str, str], deadline: float | None = None,
             lang: str = ENGLISH) -> tuple[str, list[Item]]:
        """The private panel of ``own.viewer``: what they must decide now (markdown) and
        its choices, bound to indexes of ``legal`` (their legal actions), in ``lang``."""
        me = own.viewer
        if own.phase == "setup":
            if not legal:
                return translate(lang, "You have your Baby; waiting for the others."), []
            return translate(lang, "Choose your Baby."), self._babies(legal, lang)
        if own.choice is not None:
            return (f"**{prompt_words(lang, own.choice, names)}**",
                    self._choices(own, legal, plain, lang))
        if own.pending_kind == "reaction":
            return translate(lang, "{pile}: use **Respond** or **Pass** on the table (closes "
                             "{when}).", pile=pile_line(own, names, lang),
                             when=when(deadline, lang)), []
        if own.active == me and own.phase == "start" and legal:
            items: list[Item] = [Choice(translate(lang, "Use {source}",
                                                  source=source_words(lang, a.source)), index=i)
                                 for i, a in _indexed(legal, Activate)]
            items += [Choice(translate(lang, "Go to the Draw phase"), index=i, style="success")
                      for i, _ in _indexed(legal, Proceed)]
            return (translate(lang, "Start of your turn: use an optional effect, or go on to "
                              "the Draw phase."), items)
        if own.active == me and own.phase == "action" and legal:
            items = []
            plays = _indexed(legal, Play)
            if plays:
                items.append(Select(translate(lang, "Play a card from your hand"),
                                    tuple(self._plays(plays, me, plain, lang)),
                                    noun=translate(lang, "Cards")))
            items += [Choice(translate(lang, "Draw a card"), index=i)
                      for i, _ in _indexed(legal, DrawCard)]
            items += [Choice(translate(lang, "End your Action phase"), index=i, style="secondary")
                      for i, _ in _indexed(legal, Proceed)]
            if own.plays_left > 1:
                return translate(lang, "Your Action phase ({count} plays left): play a card or "
                                 "draw one.", count=own.plays_left), items
            return translate(lang, "Your Action phase: play a card or draw one."), items
        if own.pending_kind == "choice" and own.pending_seats:
            return translate(lang, "Waiting for {name} to choose.",
                             name=names[own.pending_seats[0]]), []
        if own.active is not None:
            return translate(lang, "It is {name}'s turn.", name=names[own.active]), []
        return translate(lang, "Nothing to decide right now."), []

    @staticmethod
    def _babies(legal: list[Action], lang: str = ENGLISH) -> list[Item]:
        """The Baby select and "Pick one for me"."""
        return list(_baby_items(tuple((i, a.card) for i, a in _indexed(legal, ChooseBaby)),
                                lang))

    @staticmethod
    def _responses(legal: list[Action], lang: str = ENGLISH) -> list[Item]:
        """The Instants that may answer the pile, and Pass."""
        options = tuple(Choice(short(card_name(lang, a.card)), index=i,
                               description=short(card_text(lang, catalog()[a.card].text)))
                        for i, a in _indexed(legal, Respond))
        items: list[Item] = [Select(translate(lang, "Choose an Instant"), options,
                                    noun=translate(lang, "Instants"))]
        items += [Choice(short(translate(lang, PASS), 80), index=i, style="secondary")
                  for i, _ in _indexed(legal, Pass)]
        return items

    @staticmethod
    def _choices(own: UnleashedView, legal: list[Action], plain: dict[str, str],
                 lang: str = ENGLISH) -> list[Item]:
        """A choice's options: buttons for up to five plain answers, else a select (each
        card option described by its type line)."""
        assert own.choice is not None
        opts = own.choice.options
        chosen = [(i, a) for i, a in _indexed(legal, Choose) if 0 <= a.option < len(opts)]
        if len(opts) <= 5 and all(o.card is None for o in opts):
            return [Choice(short(option_words(lang, opts[a.option], plain), 80), index=i,
                           style="secondary" if opts[a.option].value == "no" else "primary")
                    for i, a in chosen]
        options = []
        for i, a in chosen:
            opt = opts[a.option]
            options.append(Choice(short(option_words(lang, opt, plain, card_owner(opt))),
                                  index=i, description=short(card_line(opt.card, lang))
                                  if opt.card is not None else None))
        return [Select(short(prompt_words(lang, own.choice, plain), 150), tuple(options),
                       noun=translate(lang, "Options"))]

    @staticmethod
    def _plays(plays: list[tuple[int, Play]], me: str | None,
               plain: dict[str, str], lang: str = ENGLISH) -> list[Choice]:
        """One option per legal play; a card that may go into several Fields names the
        Field in each of its options."""
        count = Counter(a.card for _, a in plays)
        out = []
        for i, a in plays:
            d = catalog()[a.card]
            label = card_name(lang, a.card)
            if count[a.card] > 1 and a.field is not None:
                label = (translate(lang, "{card}: your Field", card=label) if a.field == me
                         else translate(lang, "{card}: {name}'s Field", card=label,
                                        name=plain[a.field]))
            out.append(Choice(short(label), index=i, description=short(
                f"{card_line(a.card, lang)}: {card_text(lang, d.text)}")))
        return out

    @staticmethod
    def hand_alt(own: UnleashedView, lang: str = ENGLISH) -> str:
        """The alternative text of the viewer's own close-up (My hand; ``own`` is their view):
        their Field's Animals, upgrades and downgrades, then every card of their hand by
        name and type. Raises ``ValueError`` for a spectator's view."""
        if own.viewer is None or own.hand is None:
            raise ValueError("a close-up needs a seat's view")
        f = own.fields[own.viewer]
        field = ", ".join(name_of(lang, c.name) for c in [*f.animals, *f.upgrades,
                                                          *f.downgrades]) \
            or translate(lang, "empty")
        hand = "; ".join(f"{name_of(lang, c.name)} ({card_line(c.id, lang)})"
                         for c in own.hand) or translate(lang, "no cards")
        return alt_join([translate(lang, "Your Field, close up: {count} of {target} ({cards}).",
                                   count=f.animal_count, target=animals(lang, f.animals_to_win),
                                   cards=field),
                         translate_n(lang, "Your hand, {count} card: {cards}.",
                                     "Your hand, {count} cards: {cards}.", len(own.hand),
                                     cards=hand)], lang=lang)

    @staticmethod
    def hand_words(own: UnleashedView, lang: str = ENGLISH) -> list[str]:
        """The private panel's hand in words (markdown): a heading, then each card with
        its type line and rules text."""
        hand = own.hand or []
        lines = [f"**{name_of(lang, c.name)}** ({card_line(c.id, lang)}): "
                 f"{short(card_text(lang, c.text), 90)}" for c in hand]
        return [translate_n(lang, "### Your hand ({count} card)", "### Your hand ({count} cards)",
                            len(hand)),
                "\n".join(lines) or translate(lang, "No cards.")]

    def final_head(self, result: Result, names: dict[str, str], *, lang: str = ENGLISH) -> str:
        """Why the game ended and who wins (``"... **Ana** wins!"``), or that the tie
        stands and everyone loses (RULES.md: the deck runs out)."""
        if result.reason == DECK_OUT:
            head = translate(lang, "The deck ran out.")
        elif len(result.winners) == 1:
            seat = result.winners[0]
            head = translate(lang, "{name} has {animals}.", name=names[seat],
                             animals=animals(lang, result.scores.get(seat, 0)))
        else:
            head = named(result.reason, names)
        if len(result.winners) == 1:
            return translate(lang, "{reason} **{name}** wins!", reason=head,
                             name=names[result.winners[0]])
        if result.winners:
            return translate(lang, "{reason} **{names}** win!", reason=head,
                             names=translate(lang, "{first} and {second}",
                                             first=", ".join(names[s] for s in result.winners[:-1]),
                                             second=names[result.winners[-1]]))
        return translate(lang, "{reason} Still tied on Animals and letters: everyone loses.",
                         reason=head)

    def rules(self, summary: str, *, lang: str = ENGLISH) -> str:
        """The ``/rules`` summary in ``lang`` (:data:`~bot.present.unleashed_words.RULES`;
        ``summary``, the spec's English, is the same words)."""
        return rules_summary(lang)

    def event_line(self, event: Event, names: dict[str, str], *, lang: str = ENGLISH) -> str:
        """An engine event as a line of the thread in ``lang``
        (:func:`bot.present.unleashed_words.event_line`)."""
        return event_line(lang, event, names)

    def hand_dm(self, seat: str, cards: list[tuple[int, str]], rows: Sequence[Any],
                had: set[int], names: dict[str, str],
                unseen_after: int | None = None, *, lang: str = ENGLISH) -> str | None:
        """As the base, with the notes and the card names in ``lang``."""
        notes = [event_line(lang, Event.model_validate(e), names)
                 for row in rows if row.seat != seat for e in row.events
                 if seat in (e.get("to") or []) and e.get("type") not in self.dealt]
        if not notes and self.seen_by(seat, rows, had, {c for c, _ in cards}, unseen_after):
            return None
        words = ", ".join(name_of(lang, n) for _, n in cards) or translate(lang, "no cards")
        hand = translate(lang, "Your hand ({count}): {cards}.", count=len(cards), cards=words)
        return "\n".join([*notes[-8:], hand])[:1900]

    def ping_key(self, pending: Pending, view: UnleashedView | None = None) -> str:
        """One table message per turn: set-up (everyone picks a Baby) is one, then each
        player's turn (``view.turn``) with its reaction windows, their results and the
        effects' choices inside it."""
        if pending.kind == "setup":
            return "setup"
        if view is None:
            return super().ping_key(pending)
        return f"turn:{view.turn}"

    def pings(self, pending: Pending) -> bool:
        """Nobody is pinged for a reaction window (its seats are the Instant holders)."""
        return pending.kind != "reaction"

    def quiet(self, pending: Pending, steps: Sequence[tuple[str, Action]]) -> bool:
        """Passes that leave a reaction window open (saying so would tell who holds
        Instants), and a choice's private step after which the same player decides."""
        if pending.kind == "reaction" and all(isinstance(a, Pass) for _, a in steps):
            return True
        return pending.kind == "choice" and set(pending.seats) <= {seat for seat, _ in steps}

    def final_lines(self, view: UnleashedView, result: Result,
                    names: dict[str, str], *, lang: str = ENGLISH) -> list[str]:
        """Every player's Animals, best first; the letters in their names where they broke
        a tie on Animals (RULES.md: the deck runs out)."""
        best = max(result.scores.values(), default=0)
        tied = sum(n == best for n in result.scores.values()) > 1
        lines = []
        for seat in sorted(result.scores, key=lambda s: -result.scores[s]):
            parts = result.breakdown.get(seat, [])
            letters = parts[1].points if len(parts) > 1 else 0  # scoring.final_result's 2nd line
            crown = "\N{TROPHY} " if seat in result.winners else ""
            n = result.scores[seat]
            if tied and n == best:
                lines.append(crown + translate_n(
                    lang, "**{name}**: {animals} ({count} letter in their names)",
                    "**{name}**: {animals} ({count} letters in their names)", letters,
                    name=names[seat], animals=animals(lang, n)))
            else:
                lines.append(crown + translate(lang, "**{name}**: {animals}", name=names[seat],
                                               animals=animals(lang, n)))
        return lines


PHASES = {"setup": N_("choosing Babies"), "start": N_("start of turn"),
          "draw": N_("Draw phase"), "action": N_("Action phase"), "end": N_("end of turn"),
          "over": N_("game over")}


#: The phase in the alternative text's first sentence.
ALT_PHASES = {"start": N_("start phase"), "draw": N_("draw phase"),
              "action": N_("action phase"), "end": N_("end phase")}


def phase_words(lang: str, phase: str) -> str:
    """A phase of the turn in words (``"Action phase"``)."""
    return translate(lang, PHASES[phase]) if phase in PHASES else phase


def in_hand(lang: str, n: int) -> str:
    """``"1 card in hand"``, ``"5 cards in hand"``."""
    return translate_n(lang, "{count} card in hand", "{count} cards in hand", n)


__all__ = ["BABY_BOTTLE", "DECK_OUT", "NEUTRAL_PASS", "NEUTRAL_RESPOND", "PASS", "PHASES", "REFRESH",
           "RESPOND", "TYPE_WORDS", "UnleashedPresenter", "card_line", "choice_source",
           "in_hand", "phase_words", "pile_line", "short", "when"]
