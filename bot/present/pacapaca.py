"""What the Alpaca Pacapaca table shows and offers (UX.md: "Alpaca Pacapaca").

- turn: ``"Draw 2"``, ``"Take discard pile (N)"`` (each disabled when the engine offers no
  such action), ``"Negotiate"`` (opens the private panel ``neg``: a select of the players
  one may negotiate with) and, when it is the only move, ``"Pass"``.
- drawn: nothing public; the drawer's private panel ``keep`` has a ``"Keep <card>"``
  button per drawn card (the cards come from the drawer's own legal actions).
- negotiation: ``"Accept deal vN"`` / ``"Decline"`` / ``"Give up"`` for the public
  negotiation panel, each bound to the legal actions of the negotiator who may take it
  (:attr:`bot.present.base.Choice.seat`), so the other one pressing it gets the engine's
  refusal in words. The deal editor's Discord components (selects, Propose) are the
  cog's; its draft (the cards a negotiator gives and gets) is worked out here:
  :func:`deal_sides`, :func:`table_draft`, :func:`redraft`, :func:`deal_text` and
  :func:`deal_choice` (the deal of the engine's deal space the draft names).

Hidden cards (the deck, the drawn pair, someone else's face-down discards) never appear
in the public lines or choices: only in the drawer's ``keep`` panel.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.games.base import Action, Event, Pending, Result
from bot.games.pacapaca.cards import catalog
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import (
    Accept,
    Decline,
    Draw2,
    GiveUp,
    Keep,
    PacapacaView,
    Pass,
    Propose,
    StartNegotiation,
    TakePile,
)
from bot.present.base import (
    Choice,
    Item,
    Panel,
    Presenter,
    Seen,
    Select,
    Style,
    TableModel,
    alt_join,
)


def card_name(card: int) -> str:
    """Display name of a card id (our own words, from ``seeds/pacapaca.json``)."""
    return catalog().name_of(card)


def card_list(cards: list[int]) -> str:
    """``"Scarf top; Bow, right loop"`` or ``"nothing"`` (semicolons: some names hold a
    comma)."""
    return "; ".join(card_name(c) for c in cards) if cards else "nothing"


def card_choices(cards: list[int]) -> list[tuple[int, str, str]]:
    """``(card id, label, blurb)`` for the deal editor's options, by kind then id; copies
    of a kind are numbered ("Plain neck #2")."""
    cat = catalog()
    ordered = sorted(cards, key=lambda c: (cat.kind_of(c), c))
    total: dict[str, int] = {}
    for c in ordered:
        total[cat.kind_of(c)] = total.get(cat.kind_of(c), 0) + 1
    seen: dict[str, int] = {}
    out = []
    for c in ordered:
        kind = cat.card_kind(c)
        seen[kind.kind] = seen.get(kind.kind, 0) + 1
        label = kind.name if total[kind.kind] == 1 else f"{kind.name} #{seen[kind.kind]}"
        out.append((c, label, kind.blurb))
    return out


def _index(legal: list[Action], action: Action) -> int | None:
    """The index of ``action`` in ``legal`` (``None``: not offered)."""
    try:
        return legal.index(action)
    except ValueError:
        return None


def keep_text(drawn: list[int]) -> str:
    """The drawer's private words for the two drawn cards ``drawn``."""
    return (f"You drew **{card_list(drawn)}**. Keep one for your alpaca; the other goes "
            "face down on the discard pile (nobody else learns which).")


#: A deal editor's draft: ``(cards given, cards got)``, card ids, seen from one negotiator.
Draft = tuple[list[int], list[int]]


def deal_sides(view: PacapacaView, seat: str) -> tuple[str, list[int], list[int]]:
    """``(the other negotiator, seat's tradeable cards, the other's)`` from the public
    ``view`` of a negotiation ``seat`` takes part in (neck cards and babies, never head or
    body: RULES.md, Alpaca Pacapaca, C)."""
    neg = view.negotiation
    assert neg is not None
    other = neg.partner if seat == neg.active else neg.active
    me, them = view.alpaca(seat), view.alpaca(other)
    return other, [*me.neck, *me.babies], [*them.neck, *them.babies]


def editor_refusal(view: PacapacaView, seat: str, turn: int) -> tuple[str, str] | None:
    """``(error code, sentence)`` refusing ``seat`` a deal editor drawn in turn ``turn``
    (the public ``view``): that negotiation is over, or ``seat`` is not one of its two
    players (RULES.md, Alpaca Pacapaca, C: "both can shape a deal"); ``None``: it may."""
    neg = view.negotiation
    if neg is None or view.turn_number != turn:
        return "neg_over", "This negotiation is over."
    if seat not in (neg.active, neg.partner):
        return "not_negotiating", "Only the two negotiating players can act now."
    return None


def card_ids(values: list[str]) -> list[int]:
    """The card ids among a deal editor select's ``values`` (``"none"`` left out)."""
    return [int(v) for v in values if v.isdecimal()]


def table_draft(view: PacapacaView, seat: str) -> Draft:
    """The deal on the table seen from ``seat``'s side (what the editor starts from)."""
    neg = view.negotiation
    assert neg is not None
    return ((neg.active_gives, neg.partner_gives) if seat == neg.active
            else (neg.partner_gives, neg.active_gives))


def redraft(draft: Draft, which: str, here: set[int] | None, chosen: list[int]) -> Draft:
    """``draft`` after the select of list ``which`` (``"give"`` / ``"get"``) changed to
    ``chosen``: only the cards that select offers (``here``) are replaced, so the other
    selects of the same list (past 25 cards) keep their choices; ``None``: the whole list."""
    give, get = draft
    if which == "give":
        give = chosen if here is None else [c for c in give if c not in here] + chosen
    else:
        get = chosen if here is None else [c for c in get if c not in here] + chosen
    return give, get


def deal_text(other: str, draft: Draft) -> str:
    """The deal editor's words for a negotiator dealing with ``other`` (a name)."""
    give, get = draft
    return (f"**Your deal with {other}** (only you see this until you press Propose)\n"
            f"\N{BULLET} You give: {card_list(give)}\n"
            f"\N{BULLET} You get: {card_list(get)}\n"
            "Change either list, then press **Propose**.")


def deal_choice(engine: PacapacaEngine, seat: str, draft: Draft) -> Callable[[Any], Action]:
    """A decoder for ``GameService.act``: the deal of ``seat``'s deal space giving and
    getting ``draft``'s cards (as stored when played), or, when the space has no such
    deal, that Propose as drafted, for the engine to refuse in its own words."""
    give, get = draft

    def choose(state: Any) -> Action:
        space = engine.deal_space(state, seat)
        if space is not None and Propose(give=give, get=get) in space:
            return space.deal(give, get)
        return Propose(give=give, get=get)
    return choose


class PacapacaPresenter(Presenter):
    """Turn text, turn buttons, the partner picker, the Keep panel and the negotiation
    panel's answers of Alpaca Pacapaca (module docstring)."""

    accent = 0xD9778F

    def alt_text(self, view: PacapacaView, pending: Pending, names: dict[str, str],
                 lines: Sequence[str] = ()) -> str:
        """The table in words: whose turn, each alpaca's neck and babies, the deck and
        the discard pile, and the last move; hands and drawn cards are never named."""
        if view.phase == "finished" or view.active is None:
            head = "The game is over."
        else:
            head = f"Turn {view.turn_number}: {names.get(view.active, view.active)} to play."
            if view.negotiation is not None:
                n = view.negotiation
                head += (f" {names.get(n.active, n.active)} negotiates with "
                         f"{names.get(n.partner, n.partner)}.")
        alpacas = [f"{names.get(a.seat, a.seat)}'s alpaca: a neck of {len(a.neck)} "
                   f"card{'s' * (len(a.neck) != 1)}"
                   + (f", {len(a.babies)} bab{'ies' if len(a.babies) != 1 else 'y'}"
                      if a.babies else "") + "."
                   for a in view.alpacas]
        return alt_join([head, *lines[-1:], *alpacas,
                         f"Deck: {view.deck_size} cards; discard pile: {view.pile_size}."])

    game = "pacapaca"

    def turns(self, view: PacapacaView) -> int:
        """The turns played (the turn number counts on past the last)."""
        return view.turn_number - 1

    def highlight(self, view: PacapacaView, result: Result, names: dict[str, str]) -> str:
        """The tallest neck once incomplete parts were removed, and whose."""
        if view.final is None or not view.final.alpacas:
            return ""
        top = max(a.neck_length for a in view.final.alpacas)
        who = [names.get(a.seat, a.seat) for a in view.final.alpacas if a.neck_length == top]
        return f"Tallest neck: {' and '.join(who)}, {top} cards long."

    def ping_key(self, pending: Pending, view: Any = None) -> str:
        """One table message per turn: the pending key's turn number (``turn:<n>``,
        ``neg:<n>``, ``turn:<n>:after``), so a negotiation and the turn after it edit the
        turn's table in place."""
        number = pending.key.split(":")[1] if ":" in pending.key else pending.key
        return f"turn:{number}"

    def table(self, seen: Seen) -> TableModel:
        """The table for ``seen`` (the spectator view; choices for ``seen.seat``)."""
        view: PacapacaView = seen.view
        model = TableModel(seen.seat, seen.key, [self.turn_text(seen)] if view.active else [])
        if seen.seat is None or view.active is None:
            return model
        legal = seen.legal
        if view.phase == "turn":
            draw, take = _index(legal, Draw2()), _index(legal, TakePile())
            partners = [(i, a.partner) for i, a in enumerate(legal)
                        if isinstance(a, StartNegotiation)]
            items: list[Item] = [
                Choice("Draw 2", index=draw, disabled=draw is None),
                Choice(f"Take discard pile ({view.pile_size})", index=take,
                       disabled=take is None),
                Choice("Negotiate", opens="neg" if partners else None, style="success",
                       disabled=not partners),
            ]
            passing = _index(legal, Pass())
            if passing is not None:
                items.append(Choice("Pass", index=passing, style="secondary"))
            model.items = items
            if partners:
                seconds = catalog().negotiation.seconds
                picker = Select("Negotiate with...", tuple(
                    Choice(seen.plain_names[p], index=i,
                           says=f"You opened a negotiation with {seen.names[p]}.")
                    for i, p in partners), noun="Players")
                model.panels["neg"] = Panel(
                    "Who do you want to negotiate with? You will have "
                    f"{seconds} seconds to agree on one swap.", (picker,))
            return model
        if view.phase == "drawn":
            keeps = [(i, a.card) for i, a in enumerate(legal) if isinstance(a, Keep)]
            used: dict[str, int] = {}
            buttons: list[Item] = []
            for i, card in keeps:
                name = card_name(card)
                used[name] = used.get(name, 0) + 1
                label = f"Keep {name}" + (f" ({used[name]})" if used[name] > 1 else "")
                buttons.append(Choice(label, index=i, style="success",
                                      says=f"You kept the {name}."))
            if keeps:
                model.panels["keep"] = Panel(keep_text([c for _, c in keeps]), tuple(buttons))
            return model
        if view.phase == "negotiation" and view.negotiation is not None:
            model.items = self._answers(seen)
        return model

    @staticmethod
    def _answers(seen: Seen) -> list[Item]:
        """Accept / Decline / Give up for the negotiation panel, each bound to the first
        negotiator (active player first) whose legal actions hold it."""
        neg = seen.view.negotiation
        dv = neg.deal_version
        has_deal = bool(neg.active_gives or neg.partner_gives)

        def bound(label: str, action: Action, style: Style) -> Choice:
            for who in (neg.active, neg.partner):
                i = _index(seen.legal_of.get(who, []), action)
                if i is not None:
                    return Choice(label, index=i, seat=who, style=style)
            return Choice(label, style=style, disabled=True)

        return [
            bound(f"Accept deal v{dv}" if has_deal else "Accept", Accept(version=dv), "success"),
            bound("Decline", Decline(), "danger"),
            bound("Give up", GiveUp(), "secondary"),
        ]

    @staticmethod
    def turn_text(seen: Seen) -> str:
        """Whose turn and the choices, with deck and pile counts."""
        v: PacapacaView = seen.view
        if v.active is None:
            return ""
        who = f"**{seen.names[v.active]}**"
        counts = f"Deck {v.deck_size} \N{MIDDLE DOT} discard pile {v.pile_size}"
        if v.final_round:
            left = v.final_turns_left
            counts += f" \N{MIDDLE DOT} final round: {left} turn{'' if left == 1 else 's'} left"
        if v.phase == "drawn":
            return f"{who} is choosing which of two drawn cards to keep.\n{counts}"
        if v.phase == "negotiation" and v.negotiation is not None:
            other = seen.names[v.negotiation.partner]
            return f"{who} is negotiating with **{other}**: see the panel below.\n{counts}"
        legal = seen.legal_of.get(v.active, [])
        options = []
        if any(isinstance(a, Draw2) for a in legal):
            options.append("draw 2")
        if any(isinstance(a, TakePile) for a in legal):
            options.append(f"take the discard pile ({v.pile_size})")
        if any(isinstance(a, StartNegotiation) for a in legal):
            options.append("negotiate")
        if any(isinstance(a, Pass) for a in legal):
            options.append("pass (deck and pile are empty)")
        if not options:
            return f"Waiting for {who}.\n{counts}"
        text = ", ".join(options[:-1]) + (" or " if len(options) > 1 else "") + options[-1]
        after = " (the negotiation failed, so no second one this turn)" if v.negotiated else ""
        return f"{who}'s turn: {text}{after}.\n{counts}"

    @staticmethod
    def negotiation_lines(view: PacapacaView, names: dict[str, str],
                          deadline: float | None = None) -> list[str]:
        """The negotiation panel's words: who, when the talks end (``deadline``, Unix
        seconds, as a Discord relative timestamp), the deal on the table (or none), who
        accepted, the proposals left and how to go on."""
        neg = view.negotiation
        assert neg is not None
        a, p = names[neg.active], names[neg.partner]
        lines = [f"**{a}** is negotiating with **{p}**."]
        if deadline:
            lines.append(f"\N{STOPWATCH} The talks end <t:{int(deadline)}:R>.")
        if neg.active_gives or neg.partner_gives:
            by = names.get(neg.proposed_by or "", "?")
            lines.append(f"\n**Deal v{neg.deal_version}** (proposed by {by}):")
            lines.append(f"\N{BULLET} {a} gives: {card_list(neg.active_gives)}")
            lines.append(f"\N{BULLET} {p} gives: {card_list(neg.partner_gives)}")
            acc = [names[s] for s in neg.accepted]
            lines.append("Accepted by: " + (", ".join(acc) if acc else "nobody yet"))
        else:
            lines.append("\nNo deal on the table yet.")
        lines.append(f"Proposals left: {neg.proposals_left}.")
        lines.append(
            "\nPress **Edit deal** to pick the cards you give and get, then **Propose**. "
            "The swap happens once both accept the same version. Chat here meanwhile!"
        )
        return lines

    @staticmethod
    def closed_lines(view: PacapacaView, event: Event, names: dict[str, str],
                     said: str) -> tuple[str, str]:
        """``(title, text)`` of the negotiation panel once ``event`` (``"traded"`` or
        ``"negotiation_failed"``) closed it: the swap (``said``: the event's text with
        names), or why there is no deal and what the active player may do now (RULES.md,
        Alpaca Pacapaca, C: a failed negotiation leaves A or B; End: no legal action, a pass)."""
        a = names.get(event.data.get("seat", ""), "?")
        p = names.get(event.data.get("partner", ""), "?")
        then = ("must now draw or take the pile" if view.deck_size or view.pile_size
                else "can only pass")
        if event.type == "traded":
            head = "\N{HANDSHAKE} " + said
        elif event.data.get("reason") == "timeout":
            head = f"\N{ALARM CLOCK} Time is up: no deal. {a} {then}."
        else:
            head = f"\N{WHITE FLAG} {a} gave up: no deal. {a} {then}."
        return f"Negotiation: {a} \N{LEFT RIGHT ARROW} {p} (closed)", head

    @staticmethod
    def scoring_steps(view: PacapacaView, names: dict[str, str]) -> list[str]:
        """The scoring in three texts: what falls off, neck lengths, then the looks,
        charms, mud and babies (RULES.md: Alpaca Pacapaca, the scoring order). Each
        alpaca's first score line is its neck's (``FinalAlpaca.lines``, neck first)."""
        assert view.final is not None
        off, necks, rest = [], [], []
        for fa in view.final.alpacas:
            who = f"**{names[fa.seat]}**"
            verb = "falls" if len(fa.removed) == 1 else "fall"
            off.append(f"{who}: " + (f"{card_list(fa.removed)} {verb} off." if fa.removed
                                     else "nothing falls off."))
            neck, other = fa.lines[:1], fa.lines[1:]
            necks.append(f"{who}: " + ", ".join(f"{ln.label} ({ln.points:+d})" for ln in neck))
            rest.append(f"{who}: " + (", ".join(f"{ln.label} {ln.points:+d}" for ln in other)
                                      if other else "nothing more."))
        return [
            "**Scoring, step 1 of 3: unfinished looks fall off** (a bow needs both loops, a "
            "scarf its top and bottom).\n" + "\n".join(off),
            "**Step 2 of 3: neck lengths** (longest +4, second +2; mud counts).\n"
            + "\n".join(necks),
            "**Step 3 of 3: bows, scarves, charms, mud and babies.**\n" + "\n".join(rest),
        ]

    def private_lines(self, view: PacapacaView, seat: str, names: dict[str, str]) -> list[str]:
        """The first line of My hand: the seat's own face-down discards (its own view)."""
        mine = view.my_discards
        return [f"Your cards face down in the discard pile: **{card_list(mine)}**."
                if mine else "You have no cards face down in the discard pile."]

    @staticmethod
    def alpaca_alt(view: PacapacaView, seat: str) -> str:
        """The alternative text of ``seat``'s own alpaca close-up (My hand): its head, neck
        cards top to bottom by name, body and babies (all on the table too)."""
        a = next(a for a in view.alpacas if a.seat == seat)
        babies = (f" Babies: {card_list(a.babies)}." if a.babies else "")
        return alt_join([f"Your alpaca, close up: {card_name(a.head)} on top, a neck of "
                         f"{len(a.neck)} card{'s' * (len(a.neck) != 1)} "
                         f"({card_list(a.neck)}), {card_name(a.body)} below.{babies}"])

    @staticmethod
    def cards_alt(what: str, cards: list[int]) -> str:
        """The alternative text of a picture of the viewer's own ``cards`` (the drawn pair,
        their face-down discards): ``what`` then each card by name."""
        return alt_join([f"{what}: {card_list(cards)}."])

    def example(self) -> tuple[PacapacaView, dict[str, str]]:
        """A seeded 3-player table after a few draws, each keeping its first card."""
        engine = PacapacaEngine()
        state = engine.new_game(["s0", "s1", "s2"], seed=11)
        for _ in range(18):
            seat = state.seats[state.active]
            act = next((a for a in engine.legal_actions(state, seat)
                        if isinstance(a, Keep | Draw2)), None)
            if act is None:
                break
            state, _ = engine.apply(state, seat, act)
        return engine.view(state, None), {"s0": "Maya", "s1": "Tomasz", "s2": "Ana"}
