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

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from bot.games.base import Action, Pending, Result
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

#: Card types in words (``"basic"`` -> ``"Basic Animal"``).
TYPE_WORDS = {"baby": "Baby Animal", "basic": "Basic Animal", "magical": "Magical Animal",
              "upgrade": "Upgrade", "downgrade": "Downgrade", "magic": "Magic",
              "instant": "Instant"}
BABY_BOTTLE = "\N{BABY BOTTLE}"
A = TypeVar("A", bound=Action)


def card_line(cid: int) -> str:
    """The type line of card ``cid``: ``"Basic Animal · Llama"``, ``"Magic"``."""
    d = catalog()[cid]
    kind = f" \u00b7 {d.kind.title()}" if d.kind else ""
    return f"{TYPE_WORDS[d.type]}{kind}"


def short(text: str, n: int = 100) -> str:
    """``text`` cut to ``n`` characters with an ellipsis."""
    return text if len(text) <= n else text[: n - 1].rstrip() + "\u2026"


def when(deadline: float | None) -> str:
    """A deadline as Discord's relative timestamp (``"soon"`` when unknown)."""
    return f"<t:{int(deadline)}:R>" if deadline else "soon"


def pile_line(view: UnleashedView, names: dict[str, str]) -> str:
    """The top of the pile in words (played cards are face up): ``"Ana plays Stampede"``,
    ``"Bo answers Stampede with Llama Spit"``, ``""`` for an empty pile."""
    if not view.stack:
        return ""
    top = view.stack[-1]
    who = names.get(top.seat, top.seat)
    if top.card.type == "instant" and len(view.stack) > 1:
        return f"{who} answers {view.stack[-2].card.name} with {top.card.name}"
    where = ""
    if top.field and top.field != top.seat:
        where = f" into {names.get(top.field, top.field)}'s Field"
    return f"{who} plays {top.card.name}{where}"


def _indexed(legal: list[Action], kind: type[A]) -> list[tuple[int, A]]:
    """``(index, action)`` of the actions of class ``kind`` in ``legal``."""
    return [(i, a) for i, a in enumerate(legal) if isinstance(a, kind)]


class UnleashedPresenter(Presenter):
    """Turn text, the Baby opener and the private panels of Llamas Unleashed."""

    accent = 0x5B8C3A

    def alt_text(self, view: UnleashedView, pending: Pending, names: dict[str, str],
                 lines: Sequence[str] = ()) -> str:
        """The table in words: whose turn and phase, the card on the pile, each Field's
        Animals (by name) with its hand size, the deck, discard and nursery counts and
        the last move. A reaction window never says who may answer (UX.md), and no hand
        card is named."""
        if view.phase == "over":
            head = "The game is over."
        elif view.phase == "setup":
            head = "Set-up: everyone picks a Baby."
        else:
            who = names.get(view.active or "", view.active or "")
            head = f"Turn {view.turn}: {who} to play, {view.phase} phase."
        pile = pile_line(view, names)
        fields = []
        for seat in view.seats:
            f = view.fields[seat]
            animals = ", ".join(a.name for a in f.animals) or "no Animals"
            fields.append(f"{names.get(seat, seat)}: {f.animal_count} of {f.animals_to_win} "
                          f"Animals ({animals}), {view.hand_sizes.get(seat, 0)} "
                          f"card{'s' * (view.hand_sizes.get(seat, 0) != 1)} in hand.")
        return alt_join([head, f"On the pile: {pile}." if pile else "", *lines[-1:], *fields,
                         f"Deck {view.deck_count}, discard {len(view.discard)}, "
                         f"nursery {len(view.nursery)}."])

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

    def highlight(self, view: UnleashedView, result: Result, names: dict[str, str]) -> str:
        """The herd that won: the winner's Animals by kind (most first)."""
        if len(result.winners) != 1 or result.winners[0] not in view.fields:
            return ""
        seat = result.winners[0]
        kinds = Counter(c.kinds[0] if c.kinds else "animal" for c in view.fields[seat].animals)
        herd = ", ".join(f"{n} {kind}{'s' if n != 1 else ''}"
                         for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
        count = sum(kinds.values())
        return (f"The herd that won: {names.get(seat, seat)}'s {count} "
                f"Animal{'s' if count != 1 else ''}" + (f": {herd}." if herd else "."))

    def hand_cards(self, view: UnleashedView) -> list[tuple[int, str]]:
        """The own view's hand as ``(card id, name)``, in hand order."""
        return [(c.id, c.name) for c in view.hand or []]

    def table(self, seen: Seen, own: UnleashedView | None = None,
              deadline: float | None = None) -> TableModel:
        """The table for ``seen`` (spectator view; choices for ``seen.seat``), with the
        private panels drawn from ``own`` (that seat's own view) and the rules timer's
        ``deadline`` (Unix seconds) in the words."""
        view: UnleashedView = seen.view
        model = TableModel(seen.seat, seen.key, [self.turn_text(view, seen.names, deadline)])
        if seen.seat is None or view.result is not None:
            return model
        legal = seen.legal
        if view.phase == "setup" and legal:
            model.items = [Choice("Choose your Baby", opens="baby", emoji=BABY_BOTTLE)]
            model.panels["baby"] = Panel("Choose your Baby:", tuple(self._babies(legal)))
        if any(isinstance(a, Respond) for a in legal):
            model.panels["respond"] = Panel(
                f"Answer **{pile_line(view, seen.names)}** with:", tuple(self._responses(legal)))
        if own is not None:
            text, items = self.hand(own, legal, seen.names, seen.plain_names, deadline)
            model.panels["hand"] = Panel(text, tuple(items))
        return model

    @staticmethod
    def turn_text(view: UnleashedView, names: dict[str, str], deadline: float | None) -> str:
        """Whose decision it is, never naming who may answer a reaction window; a window
        is led by what is on the pile (``"⚡ **Ana plays Stampede**: anyone ..."``), so the
        table edited in place into it says what was just played."""
        if view.result is not None:
            return ""
        if view.pending_kind == "setup":
            waiting = ", ".join(names[s] for s in view.pending_seats)
            return (f"Everyone picks a Baby with **Choose your Baby** (waiting for {waiting}; "
                    f"a random one is picked {when(deadline)}).")
        if view.pending_kind == "reaction":
            pile = pile_line(view, names)
            lead = f"\N{HIGH VOLTAGE SIGN} **{pile}**: anyone" if pile else "Anyone"
            return (f"{lead} who holds a fitting Instant may answer with **Respond**; the "
                    f"window closes {when(deadline)}.")
        if view.pending_kind == "choice" and view.pending_seats:
            why = ""
            if view.choice_source is not None:
                why = f" for {view.choice_source}"
            elif view.choice_herd is not None:
                why = f" for the {view.choice_herd.title()} Herd Bonus"
            elif view.phase == "end":
                why = " what to discard down to the hand limit"
            return (f"Waiting for **{names[view.pending_seats[0]]}** to choose{why}: open "
                    "**My hand**.")
        if view.active is not None:
            what = {"start": "start-of-turn effects, then draw",
                    "action": "play a card or draw"}.get(view.phase, "finish the turn")
            return f"**{names[view.active]}**'s turn: {what} (open **My hand**)."
        return ""

    def hand(self, own: UnleashedView, legal: list[Action], names: dict[str, str],
             plain: dict[str, str], deadline: float | None = None) -> tuple[str, list[Item]]:
        """The private panel of ``own.viewer``: what they must decide now (markdown) and
        its choices, bound to indexes of ``legal`` (their legal actions)."""
        me = own.viewer
        if own.phase == "setup":
            if not legal:
                return "You have your Baby; waiting for the others.", []
            return "Choose your Baby.", self._babies(legal)
        if own.choice is not None:
            return f"**{named(own.choice.prompt, names)}**", self._choices(own, legal, plain)
        if own.pending_kind == "reaction":
            return (f"{pile_line(own, names)}: use **Respond** or **Pass** on the table "
                    f"(closes {when(deadline)}).", [])
        if own.active == me and own.phase == "start" and legal:
            words = {t.source: t.words for t in own.triggers}
            items: list[Item] = [Choice(f"Use {words.get(a.source, a.source)}", index=i)
                                 for i, a in _indexed(legal, Activate)]
            items += [Choice("Go to the Draw phase", index=i, style="success")
                      for i, _ in _indexed(legal, Proceed)]
            return ("Start of your turn: use an optional effect, or go on to the Draw phase.",
                    items)
        if own.active == me and own.phase == "action" and legal:
            left = "" if own.plays_left <= 1 else f" ({own.plays_left} plays left)"
            items = []
            plays = _indexed(legal, Play)
            if plays:
                items.append(Select("Play a card from your hand",
                                    tuple(self._plays(plays, me, plain)), noun="Cards"))
            items += [Choice("Draw a card", index=i) for i, _ in _indexed(legal, DrawCard)]
            items += [Choice("End your Action phase", index=i, style="secondary")
                      for i, _ in _indexed(legal, Proceed)]
            return f"Your Action phase{left}: play a card or draw one.", items
        if own.pending_kind == "choice" and own.pending_seats:
            return f"Waiting for {names[own.pending_seats[0]]} to choose.", []
        if own.active is not None:
            return f"It is {names[own.active]}'s turn.", []
        return "Nothing to decide right now.", []

    @staticmethod
    def _babies(legal: list[Action]) -> list[Item]:
        """The Baby select and "Pick one for me"."""
        babies = _indexed(legal, ChooseBaby)
        options = tuple(Choice(catalog()[a.card].name, index=i, description=card_line(a.card))
                        for i, a in babies if a.card is not None)
        items: list[Item] = [Select("Choose your Baby", options, noun="Babies")]
        items += [Choice("Pick one for me", index=i, style="secondary")
                  for i, a in babies if a.card is None]
        return items

    @staticmethod
    def _responses(legal: list[Action]) -> list[Item]:
        """The Instants that may answer the pile, and Pass."""
        options = tuple(Choice(catalog()[a.card].name, index=i, description=catalog()[a.card].text)
                        for i, a in _indexed(legal, Respond))
        items: list[Item] = [Select("Choose an Instant", options, noun="Instants")]
        items += [Choice("Pass", index=i, style="secondary") for i, _ in _indexed(legal, Pass)]
        return items

    @staticmethod
    def _choices(own: UnleashedView, legal: list[Action], plain: dict[str, str]) -> list[Item]:
        """A choice's options: buttons for up to five plain answers, else a select (each
        card option described by its type line)."""
        assert own.choice is not None
        opts = own.choice.options
        chosen = [(i, a) for i, a in _indexed(legal, Choose) if 0 <= a.option < len(opts)]
        if len(opts) <= 5 and all(o.card is None for o in opts):
            return [Choice(short(named(opts[a.option].label, plain), 80), index=i,
                           style="secondary" if opts[a.option].value == "no" else "primary")
                    for i, a in chosen]
        options = []
        for i, a in chosen:
            cid = opts[a.option].card
            options.append(Choice(named(opts[a.option].label, plain), index=i,
                                  description=card_line(cid) if cid is not None else None))
        return [Select(named(own.choice.prompt, plain), tuple(options), noun="Options")]

    @staticmethod
    def _plays(plays: list[tuple[int, Play]], me: str | None,
               plain: dict[str, str]) -> list[Choice]:
        """One option per legal play; a card that may go into several Fields names the
        Field in each of its options."""
        count = Counter(a.card for _, a in plays)
        out = []
        for i, a in plays:
            d = catalog()[a.card]
            label = d.name
            if count[a.card] > 1 and a.field is not None:
                label += ": your Field" if a.field == me else f": {plain[a.field]}'s Field"
            out.append(Choice(label, index=i, description=f"{card_line(a.card)}: {d.text}"))
        return out

    @staticmethod
    def hand_alt(own: UnleashedView) -> str:
        """The alternative text of the viewer's own close-up (My hand; ``own`` is their view):
        their Field's Animals, upgrades and downgrades, then every card of their hand by
        name and type. Raises ``ValueError`` for a spectator's view."""
        if own.viewer is None or own.hand is None:
            raise ValueError("a close-up needs a seat's view")
        f = own.fields[own.viewer]
        field = ", ".join(c.name for c in [*f.animals, *f.upgrades, *f.downgrades]) or "empty"
        hand = "; ".join(f"{c.name} ({card_line(c.id)})" for c in own.hand) or "no cards"
        return alt_join([f"Your Field, close up: {f.animal_count} of {f.animals_to_win} "
                         f"Animals ({field}).",
                         f"Your hand, {len(own.hand)} card{'s' * (len(own.hand) != 1)}: {hand}."])

    def final_head(self, result: Result, names: dict[str, str]) -> str:
        """Why the game ended and who wins (``"... **Ana** wins!"``), or that the tie
        stands and everyone loses (RULES.md: the deck runs out)."""
        head = named(result.reason, names)
        if result.winners:
            return head + f" **{' and '.join(names[s] for s in result.winners)}** wins!"
        return head + " Still tied on Animals and letters: everyone loses."

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
                    names: dict[str, str]) -> list[str]:
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
            tail = f" ({letters} letters in their names)" if tied and n == best else ""
            lines.append(f"{crown}**{names[seat]}**: {n} Animal{'' if n == 1 else 's'}{tail}")
        return lines
