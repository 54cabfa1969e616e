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
from bot.i18n import ENGLISH, translate, translate_n
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
from bot.present.pacapaca_words import (
    card_blurb,
    card_list,
    card_name,
    event_line,
    names_and,
    rules_summary,
    score_label,
)


def card_choices(cards: list[int], lang: str = ENGLISH) -> list[tuple[int, str, str]]:
    """``(card id, label, blurb)`` for the deal editor's options, by kind then id, in
    ``lang``; copies of a kind are numbered ("Plain neck #2")."""
    cat = catalog()
    ordered = sorted(cards, key=lambda c: (cat.kind_of(c), c))
    total: dict[str, int] = {}
    for c in ordered:
        total[cat.kind_of(c)] = total.get(cat.kind_of(c), 0) + 1
    seen: dict[str, int] = {}
    out = []
    for c in ordered:
        kind = cat.kind_of(c)
        seen[kind] = seen.get(kind, 0) + 1
        name = card_name(c, lang)
        label = name if total[kind] == 1 else translate(lang, "{card} #{number}", card=name,
                                                         number=seen[kind])
        out.append((c, label, card_blurb(c, lang)))
    return out


def _index(legal: list[Action], action: Action) -> int | None:
    """The index of ``action`` in ``legal`` (``None``: not offered)."""
    try:
        return legal.index(action)
    except ValueError:
        return None


def keep_text(drawn: list[int], lang: str = ENGLISH) -> str:
    """The drawer's private words for the two drawn cards ``drawn``, in ``lang``."""
    return translate(lang, "You drew **{cards}**. Keep one for your alpaca; the other goes "
                     "face down on the discard pile (nobody else learns which).",
                     cards=card_list(drawn, lang))


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


def editor_refusal(view: PacapacaView, seat: str, turn: int,
                   lang: str = ENGLISH) -> tuple[str, str] | None:
    """``(error code, sentence)`` refusing ``seat`` a deal editor drawn in turn ``turn``
    (the public ``view``): that negotiation is over, or ``seat`` is not one of its two
    players (RULES.md, Alpaca Pacapaca, C: "both can shape a deal"); ``None``: it may."""
    neg = view.negotiation
    if neg is None or view.turn_number != turn:
        return "neg_over", translate(lang, "This negotiation is over.")
    if seat not in (neg.active, neg.partner):
        return "not_negotiating", translate(lang, "Only the two negotiating players can act "
                                            "now.")
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


def deal_text(other: str, draft: Draft, lang: str = ENGLISH) -> str:
    """The deal editor's words for a negotiator dealing with ``other`` (a name), in
    ``lang``."""
    give, get = draft
    return "\n".join([
        translate(lang, "**Your deal with {name}** (only you see this until you press "
                  "Propose)", name=other),
        "\N{BULLET} " + translate(lang, "You give: {cards}", cards=card_list(give, lang)),
        "\N{BULLET} " + translate(lang, "You get: {cards}", cards=card_list(get, lang)),
        translate(lang, "Change either list, then press **Propose**."),
    ])


def editor_words(other: str, lang: str = ENGLISH) -> dict[str, str]:
    """The deal editor's component words in ``lang`` for a negotiator dealing with
    ``other`` (a name as typed): ``give`` / ``get`` (the selects' placeholders),
    ``give_none`` / ``get_none`` (a side with no card to trade), ``cards`` (the options'
    noun), ``propose`` and ``edit`` (the buttons)."""
    return {
        "give": translate(lang, "Cards I give"),
        "get": translate(lang, "Cards I get from {name}", name=other),
        "give_none": translate(lang, "Your alpaca has no neck cards to give"),
        "get_none": translate(lang, "{name} has no neck cards", name=other),
        "cards": translate(lang, "Cards"),
        "propose": translate(lang, "Propose"),
        "edit": translate(lang, "Edit deal"),
    }


def panel_title(active: str, partner: str, lang: str = ENGLISH, *, closed: bool = False) -> str:
    """The negotiation panel's title for ``active`` and ``partner`` (names), in ``lang``
    (``closed``: once the talks ended)."""
    if closed:
        return translate(lang, "Negotiation: {active} \N{LEFT RIGHT ARROW} {partner} (closed)",
                         active=active, partner=partner)
    return translate(lang, "Negotiation: {active} \N{LEFT RIGHT ARROW} {partner}",
                     active=active, partner=partner)


def final_heading(game: str, number: int, lang: str = ENGLISH) -> str:
    """The heading of the final scores of game ``number`` called ``game``, in ``lang``."""
    return translate(lang, "{game} #{number}: final scores", game=game, number=number)


def hand_words(lang: str = ENGLISH) -> dict[str, str]:
    """My hand's words and picture titles in ``lang``: ``alpaca`` (after the pile line,
    beside the close-up), ``discards`` (beside the face-down cards), ``drawn_title`` /
    ``discards_title`` (the cards pictures' titles), ``drawn_alt`` / ``discards_alt``
    (what the alternative texts show)."""
    return {
        "alpaca": translate(lang, "Here is your alpaca, close up."),
        "discards": translate(lang, "Only you know these; whoever takes the pile gets them."),
        "drawn_title": translate(lang, "You drew these two: keep one"),
        "discards_title": translate(lang, "Your cards face down in the pile"),
        "drawn_alt": translate(lang, "The two cards you drew"),
        "discards_alt": translate(lang, "Your cards face down in the discard pile"),
    }


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
    panel's answers of Alpaca Pacapaca (module docstring), in the language given."""

    accent = 0xD9778F

    def alt_text(self, view: PacapacaView, pending: Pending, names: dict[str, str],
                 lines: Sequence[str] = (), *, lang: str = ENGLISH) -> str:
        """The table in words: whose turn, each alpaca's neck and babies, the deck and
        the discard pile, and the last move; hands and drawn cards are never named."""
        if view.phase == "finished" or view.active is None:
            head = translate(lang, "The game is over.")
        else:
            head = translate(lang, "Turn {turn}: {name} to play.", turn=view.turn_number,
                             name=names.get(view.active, view.active))
            if view.negotiation is not None:
                n = view.negotiation
                head += " " + translate(lang, "{name} negotiates with {partner}.",
                                        name=names.get(n.active, n.active),
                                        partner=names.get(n.partner, n.partner))
        alpacas = []
        for a in view.alpacas:
            name = names.get(a.seat, a.seat)
            if a.babies:
                alpacas.append(translate(lang, "{name}'s alpaca: {neck}, {babies}.", name=name,
                                         neck=neck_of(len(a.neck), lang),
                                         babies=babies_of(len(a.babies), lang)))
            else:
                alpacas.append(translate(lang, "{name}'s alpaca: {neck}.", name=name,
                                         neck=neck_of(len(a.neck), lang)))
        return alt_join([head, *lines[-1:], *alpacas,
                         translate_n(lang, "Deck: {count} card; discard pile: {pile}.",
                                     "Deck: {count} cards; discard pile: {pile}.",
                                     view.deck_size, pile=view.pile_size)])

    game = "pacapaca"

    def turns(self, view: PacapacaView) -> int:
        """The turns played (the turn number counts on past the last)."""
        return view.turn_number - 1

    def highlight(self, view: PacapacaView, result: Result, names: dict[str, str], *,
                  lang: str = ENGLISH) -> str:
        """The tallest neck once incomplete parts were removed, and whose."""
        if view.final is None or not view.final.alpacas:
            return ""
        top = max(a.neck_length for a in view.final.alpacas)
        who = [names.get(a.seat, a.seat) for a in view.final.alpacas if a.neck_length == top]
        return translate_n(lang, "Tallest neck: {names}, {count} card long.",
                           "Tallest neck: {names}, {count} cards long.", top,
                           names=names_and(who, lang))

    def final_head(self, result: Result, names: dict[str, str], *, lang: str = ENGLISH) -> str:
        """Why the game ended and who won, in ``lang`` (the engine's reason is the deck
        running out)."""
        win = [names.get(s, s) for s in result.winners]
        head = translate(lang, "The deck ran out and everyone took one last turn.")
        if not win:
            return head
        together = f"**{names_and(win, lang)}**"
        return head + " " + (translate(lang, "{names} wins!", names=together) if len(win) == 1
                             else translate(lang, "{names} share the win!", names=together))

    def final_lines(self, view: PacapacaView, result: Result, names: dict[str, str], *,
                    lang: str = ENGLISH) -> list[str]:
        """Per player (best first): the score and its lines, in ``lang``."""
        out = []
        for seat in sorted(result.scores, key=lambda s: -result.scores[s]):
            crown = "\N{TROPHY} " if seat in result.winners else ""
            lines = ", ".join(f"{score_label(ln.label, lang)} {ln.points:+d}"
                              for ln in result.breakdown.get(seat, []))
            who = f"**{names[seat]}**"
            out.append(crown + (translate(lang, "{name}: {score} ({lines})", name=who,
                                          score=result.scores[seat], lines=lines) if lines
                                else translate(lang, "{name}: {score}", name=who,
                                               score=result.scores[seat])))
        return out

    def ping_key(self, pending: Pending, view: Any = None) -> str:
        """One table message per turn: the pending key's turn number (``turn:<n>``,
        ``neg:<n>``, ``turn:<n>:after``), so a negotiation and the turn after it edit the
        turn's table in place."""
        number = pending.key.split(":")[1] if ":" in pending.key else pending.key
        return f"turn:{number}"

    def event_line(self, event: Event, names: dict[str, str], *, lang: str = ENGLISH) -> str:
        """The thread's line for ``event`` in ``lang`` (:func:`~bot.present.pacapaca_words.event_line`)."""
        return event_line(event, names, lang)

    def rules(self, summary: str, *, lang: str = ENGLISH) -> str:
        """The ``/rules`` summary in ``lang`` (:data:`~bot.present.pacapaca_words.RULES`;
        ``summary``, the spec's English, is the same words)."""
        return rules_summary(lang)

    def table(self, seen: Seen) -> TableModel:
        """The table for ``seen`` (the spectator view; choices for ``seen.seat``), in
        ``seen.lang``."""
        view: PacapacaView = seen.view
        lang = seen.lang
        model = TableModel(seen.seat, seen.key, [self.turn_text(seen)] if view.active else [])
        if seen.seat is None or view.active is None:
            return model
        legal = seen.legal
        if view.phase == "turn":
            draw, take = _index(legal, Draw2()), _index(legal, TakePile())
            partners = [(i, a.partner) for i, a in enumerate(legal)
                        if isinstance(a, StartNegotiation)]
            items: list[Item] = [
                Choice(translate(lang, "Draw 2"), index=draw, disabled=draw is None),
                Choice(translate(lang, "Take discard pile ({count})", count=view.pile_size),
                       index=take, disabled=take is None),
                Choice(translate(lang, "Negotiate"), opens="neg" if partners else None,
                       style="success", disabled=not partners),
            ]
            passing = _index(legal, Pass())
            if passing is not None:
                items.append(Choice(translate(lang, "Pass"), index=passing, style="secondary"))
            model.items = items
            if partners:
                seconds = catalog().negotiation.seconds
                picker = Select(translate(lang, "Negotiate with..."), tuple(
                    Choice(seen.plain_names[p], index=i,
                           says=translate(lang, "You opened a negotiation with {name}.",
                                          name=seen.names[p]))
                    for i, p in partners), noun=translate(lang, "Players"))
                model.panels["neg"] = Panel(
                    translate_n(lang, "Who do you want to negotiate with? You will have "
                                "{count} second to agree on one swap.", "Who do you want to "
                                "negotiate with? You will have {count} seconds to agree on "
                                "one swap.", seconds), (picker,))
            return model
        if view.phase == "drawn":
            keeps = [(i, a.card) for i, a in enumerate(legal) if isinstance(a, Keep)]
            used: dict[str, int] = {}
            buttons: list[Item] = []
            for i, card in keeps:
                name = card_name(card, lang)
                used[name] = used.get(name, 0) + 1
                label = (translate(lang, "Keep {card}", card=name) if used[name] == 1 else
                         translate(lang, "Keep {card} ({number})", card=name,
                                   number=used[name]))
                buttons.append(Choice(label, index=i, style="success",
                                      says=translate(lang, "You kept the {card}.", card=name)))
            if keeps:
                model.panels["keep"] = Panel(keep_text([c for _, c in keeps], lang),
                                             tuple(buttons))
            return model
        if view.phase == "negotiation" and view.negotiation is not None:
            model.items = self._answers(seen)
        return model

    @staticmethod
    def _answers(seen: Seen) -> list[Item]:
        """Accept / Decline / Give up for the negotiation panel, each bound to the first
        negotiator (active player first) whose legal actions hold it."""
        neg = seen.view.negotiation
        lang = seen.lang
        dv = neg.deal_version
        has_deal = bool(neg.active_gives or neg.partner_gives)

        def bound(label: str, action: Action, style: Style) -> Choice:
            for who in (neg.active, neg.partner):
                i = _index(seen.legal_of.get(who, []), action)
                if i is not None:
                    return Choice(label, index=i, seat=who, style=style)
            return Choice(label, style=style, disabled=True)

        return [
            bound(translate(lang, "Accept deal v{version}", version=dv) if has_deal
                  else translate(lang, "Accept"), Accept(version=dv), "success"),
            bound(translate(lang, "Decline"), Decline(), "danger"),
            bound(translate(lang, "Give up"), GiveUp(), "secondary"),
        ]

    @staticmethod
    def turn_text(seen: Seen) -> str:
        """Whose turn and the choices, with deck and pile counts, in ``seen.lang``."""
        v: PacapacaView = seen.view
        lang = seen.lang
        if v.active is None:
            return ""
        who = f"**{seen.names[v.active]}**"
        counts = translate(lang, "Deck {deck} \N{MIDDLE DOT} discard pile {pile}",
                           deck=v.deck_size, pile=v.pile_size)
        if v.final_round:
            counts += " \N{MIDDLE DOT} " + translate_n(
                lang, "final round: {count} turn left", "final round: {count} turns left",
                v.final_turns_left or 0)
        if v.phase == "drawn":
            return translate(lang, "{name} is choosing which of two drawn cards to keep.",
                             name=who) + "\n" + counts
        if v.phase == "negotiation" and v.negotiation is not None:
            other = seen.names[v.negotiation.partner]
            return translate(lang, "{name} is negotiating with **{partner}**: see the panel "
                             "below.", name=who, partner=other) + "\n" + counts
        legal = seen.legal_of.get(v.active, [])
        options = []
        if any(isinstance(a, Draw2) for a in legal):
            options.append(translate(lang, "draw 2"))
        if any(isinstance(a, TakePile) for a in legal):
            options.append(translate(lang, "take the discard pile ({count})", count=v.pile_size))
        if any(isinstance(a, StartNegotiation) for a in legal):
            options.append(translate(lang, "negotiate"))
        if any(isinstance(a, Pass) for a in legal):
            options.append(translate(lang, "pass (deck and pile are empty)"))
        if not options:
            return translate(lang, "Waiting for {name}.", name=who) + "\n" + counts
        text = options[0] if len(options) == 1 else translate(
            lang, "{first} or {last}", first=", ".join(options[:-1]), last=options[-1])
        if v.negotiated:
            return translate(lang, "{name}'s turn: {options} (the negotiation failed, so no "
                             "second one this turn).", name=who, options=text) + "\n" + counts
        return translate(lang, "{name}'s turn: {options}.", name=who,
                         options=text) + "\n" + counts

    @staticmethod
    def negotiation_lines(view: PacapacaView, names: dict[str, str],
                          deadline: float | None = None, lang: str = ENGLISH) -> list[str]:
        """The negotiation panel's words in ``lang``: who, when the talks end
        (``deadline``, Unix seconds, as a Discord relative timestamp), the deal on the
        table (or none), who accepted, the proposals left and how to go on."""
        neg = view.negotiation
        assert neg is not None
        a, p = names[neg.active], names[neg.partner]
        lines = [translate(lang, "**{active}** is negotiating with **{partner}**.",
                           active=a, partner=p)]
        if deadline:
            when = f"<t:{int(deadline)}:R>"
            lines.append("\N{STOPWATCH} " + translate(lang, "The talks end {when}.", when=when))
        if neg.active_gives or neg.partner_gives:
            by = names.get(neg.proposed_by or "", "?")
            lines.append("\n" + translate(lang, "**Deal v{version}** (proposed by {name}):",
                                          version=neg.deal_version, name=by))
            lines.append("\N{BULLET} " + translate(lang, "{name} gives: {cards}", name=a,
                                                   cards=card_list(neg.active_gives, lang)))
            lines.append("\N{BULLET} " + translate(lang, "{name} gives: {cards}", name=p,
                                                   cards=card_list(neg.partner_gives, lang)))
            acc = [names[s] for s in neg.accepted]
            lines.append(translate(lang, "Accepted by: {names}", names=", ".join(acc))
                         if acc else translate(lang, "Accepted by: nobody yet"))
        else:
            lines.append("\n" + translate(lang, "No deal on the table yet."))
        lines.append(translate(lang, "Proposals left: {count}.", count=neg.proposals_left))
        lines.append("\n" + translate(
            lang, "Press **Edit deal** to pick the cards you give and get, then **Propose**. "
            "The swap happens once both accept the same version. Chat here meanwhile!"))
        return lines

    @staticmethod
    def closed_lines(view: PacapacaView, event: Event, names: dict[str, str],
                     said: str | None = None, lang: str = ENGLISH) -> tuple[str, str]:
        """``(title, text)`` of the negotiation panel once ``event`` (``"traded"`` or
        ``"negotiation_failed"``) closed it, in ``lang``: the swap (``said``: the event's
        line; ``None``: worded here), or why there is no deal and what the active player
        may do now (RULES.md, Alpaca Pacapaca, C: a failed negotiation leaves A or B;
        End: no legal action, a pass)."""
        a = names.get(event.data.get("seat", ""), "?")
        p = names.get(event.data.get("partner", ""), "?")
        can_draw = bool(view.deck_size or view.pile_size)
        if event.type == "traded":
            head = "\N{HANDSHAKE} " + (event_line(event, names, lang) if said is None else said)
        elif event.data.get("reason") == "timeout":
            head = "\N{ALARM CLOCK} " + (
                translate(lang, "Time is up: no deal. {name} must now draw or take the pile.",
                          name=a) if can_draw else
                translate(lang, "Time is up: no deal. {name} can only pass.", name=a))
        else:
            head = "\N{WHITE FLAG} " + (
                translate(lang, "{name} gave up: no deal. {name} must now draw or take the "
                          "pile.", name=a) if can_draw else
                translate(lang, "{name} gave up: no deal. {name} can only pass.", name=a))
        return panel_title(a, p, lang, closed=True), head

    @staticmethod
    def scoring_steps(view: PacapacaView, names: dict[str, str],
                      lang: str = ENGLISH) -> list[str]:
        """The scoring in three texts, in ``lang``: what falls off, neck lengths, then the
        looks, charms, mud and babies (RULES.md: Alpaca Pacapaca, the scoring order). Each
        alpaca's first score line is its neck's (``FinalAlpaca.lines``, neck first)."""
        assert view.final is not None
        off, necks, rest = [], [], []
        for fa in view.final.alpacas:
            who = f"**{names[fa.seat]}**"
            if fa.removed:
                off.append(translate_n(lang, "{name}: {cards} falls off.",
                                       "{name}: {cards} fall off.", len(fa.removed), name=who,
                                       cards=card_list(fa.removed, lang)))
            else:
                off.append(translate(lang, "{name}: nothing falls off.", name=who))
            neck, other = fa.lines[:1], fa.lines[1:]
            necks.append(f"{who}: " + ", ".join(f"{score_label(ln.label, lang)} "
                                                f"({ln.points:+d})" for ln in neck))
            rest.append(f"{who}: " + ", ".join(f"{score_label(ln.label, lang)} {ln.points:+d}"
                                               for ln in other)
                        if other else translate(lang, "{name}: nothing more.", name=who))
        return [
            translate(lang, "**Scoring, step 1 of 3: unfinished looks fall off** (a bow needs "
                      "both loops, a scarf its top and bottom).") + "\n" + "\n".join(off),
            translate(lang, "**Step 2 of 3: neck lengths** (longest +4, second +2; mud "
                      "counts).") + "\n" + "\n".join(necks),
            translate(lang, "**Step 3 of 3: bows, scarves, charms, mud and babies.**") + "\n"
            + "\n".join(rest),
        ]

    def private_lines(self, view: PacapacaView, seat: str, names: dict[str, str], *,
                      lang: str = ENGLISH) -> list[str]:
        """The first line of My hand: the seat's own face-down discards (its own view),
        in ``lang``."""
        mine = view.my_discards
        return [translate(lang, "Your cards face down in the discard pile: **{cards}**.",
                          cards=card_list(mine, lang)) if mine
                else translate(lang, "You have no cards face down in the discard pile.")]

    @staticmethod
    def alpaca_alt(view: PacapacaView, seat: str, lang: str = ENGLISH) -> str:
        """The alternative text of ``seat``'s own alpaca close-up (My hand), in ``lang``:
        its head, neck cards top to bottom by name, body and babies (all on the table
        too)."""
        a = next(a for a in view.alpacas if a.seat == seat)
        text = translate(lang, "Your alpaca, close up: {head} on top, {neck} ({cards}), "
                         "{body} below.", head=card_name(a.head, lang),
                         neck=neck_of(len(a.neck), lang), cards=card_list(a.neck, lang),
                         body=card_name(a.body, lang))
        if a.babies:
            text += " " + translate(lang, "Babies: {cards}.", cards=card_list(a.babies, lang))
        return alt_join([text])

    @staticmethod
    def cards_alt(what: str, cards: list[int], lang: str = ENGLISH) -> str:
        """The alternative text of a picture of the viewer's own ``cards`` (the drawn pair,
        their face-down discards): ``what`` (already in ``lang``) then each card by name."""
        return alt_join([translate(lang, "{what}: {cards}.", what=what,
                                   cards=card_list(cards, lang))])

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


def neck_of(length: int, lang: str = ENGLISH) -> str:
    """``"a neck of 1 card"``, ``"a neck of 5 cards"`` in ``lang``."""
    return translate_n(lang, "a neck of {count} card", "a neck of {count} cards", length)


def babies_of(count: int, lang: str = ENGLISH) -> str:
    """``"1 baby"``, ``"2 babies"`` in ``lang``."""
    return translate_n(lang, "{count} baby", "{count} babies", count)


__all__ = [
    "Draft", "PacapacaPresenter", "babies_of", "card_choices", "card_ids", "card_list",
    "card_name", "deal_choice", "deal_sides", "deal_text", "editor_refusal", "editor_words",
    "final_heading", "hand_words", "keep_text", "neck_of", "panel_title", "redraft", "table_draft",
]
