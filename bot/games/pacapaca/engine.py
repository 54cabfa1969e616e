"""The Alpaca Pacapaca rules engine (pure).

Rules: the rulebook ``alpaca-pacapaca.txt`` and RULES.md, "Alpaca Pacapaca". Turn flow:

- phase ``turn``: the active player picks A (:class:`Draw2`), B (:class:`TakePile`) or
  C (:class:`StartNegotiation`); :class:`Pass` only when the deck and the pile are empty.
- phase ``drawn``: :class:`Keep` one of the two drawn cards; the other goes face down on
  the pile. With one card left in the deck, Draw2 adds it at once.
- phase ``negotiation``: both negotiators :class:`Propose` / :class:`Accept`; the partner
  may :class:`Decline`; the active player may :class:`GiveUp`; the runtime applies
  :class:`NegotiationTimeout` as ``SYSTEM_SEAT`` after 60 s. A deal both accepted ends the
  turn; a failed negotiation returns to phase ``turn`` with C no longer allowed.
- When the deck is empty at the end of a turn, every player takes one more turn starting
  with the next player; then the game is scored (:mod:`bot.games.pacapaca.scoring`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import ClassVar

from bot.games.base import (
    SYSTEM_SEAT,
    Action,
    Engine,
    Event,
    IllegalAction,
    Pending,
    Result,
    Timeout,
    rng,
    say,
)
from bot.games.pacapaca.cards import catalog
from bot.games.pacapaca.legal import (
    DECLINE,
    DRAW2,
    GIVE_UP,
    PASS,
    TAKE_PILE,
    TIMEOUT,
    accept_action,
    catalog_tables,
    check,
    deal_space_of,
    keep_action,
    listed_deals,
    start_action,
)
from bot.games.pacapaca.models import (
    ACTION_ADAPTER,
    Accept,
    Alpaca,
    DealSpace,
    Decline,
    Draw2,
    GiveUp,
    Keep,
    Negotiation,
    NegotiationTimeout,
    PacapacaOptions,
    PacapacaState,
    PacapacaView,
    Pass,
    PileCard,
    Propose,
    StartNegotiation,
    TakePile,
)
from bot.games.pacapaca.scoring import SeatScore, score_all
from bot.games.pacapaca.views import final_view, table_view

_NEGOTIATION_SECONDS = float(catalog().negotiation.seconds)
_TIMEOUT_RULE = Timeout(seat=SYSTEM_SEAT, action={"type": "negotiation_timeout"})


def _name(card: int) -> str:
    return catalog().name_of(card)


def _names(cards: Sequence[int]) -> str:
    if not cards:
        return "nothing"
    return ", ".join(_name(c) for c in cards)


def _clone(s: PacapacaState) -> PacapacaState:
    """A deep-enough copy: every list the engine mutates is copied (pile cards, options
    and the catalog are never mutated). Equal to ``s.model_copy(deep=True)``."""
    neg = s.negotiation
    replace = dataclasses.replace
    return replace(
        s,
        alpacas={
            k: replace(a, neck=list(a.neck), babies=list(a.babies)) for k, a in s.alpacas.items()
        },
        deck=list(s.deck),
        pile=list(s.pile),
        drawn=list(s.drawn),
        seats=list(s.seats),
        negotiation=None if neg is None else replace(
            neg,
            active_gives=list(neg.active_gives),
            partner_gives=list(neg.partner_gives),
            accepted=list(neg.accepted),
        ),
    )


class PacapacaEngine(Engine[PacapacaState, PacapacaOptions]):
    """Alpaca Pacapaca (key ``"pacapaca"``), 2-6 players."""

    key: ClassVar[str] = "pacapaca"
    state_model: ClassVar[type[PacapacaState]] = PacapacaState
    options_model: ClassVar[type[PacapacaOptions]] = PacapacaOptions
    action_adapter: ClassVar = ACTION_ADAPTER

    # -- set-up ------------------------------------------------------------------------

    def new_game(
        self, players: Sequence[str], *, seed: int, options: PacapacaOptions | None = None
    ) -> PacapacaState:
        """Set up: one head and one body each (distinct random designs), the deck =
        primary set + 10/20/30/40 random cards for 2-5 players or everything for 6
        (babies in the random pool when the option is on; always with 6), shuffled; a
        random starting player (rulebook "Set Up"; RULES.md: Alpaca Pacapaca).

        Raises ``ValueError`` for fewer than 2 or more than 6 distinct seats, or when
        ``options.players`` disagrees with ``len(players)``.
        """
        options = options or PacapacaOptions()
        cat = catalog()
        n = len(players)
        if not (cat.players.min <= n <= cat.players.max):
            raise ValueError(f"Alpaca Pacapaca needs 2 to 6 players, not {n}")
        if len(set(players)) != n or SYSTEM_SEAT in players:
            raise ValueError("seats must be distinct player ids")
        if options.players is not None and options.players != n:
            raise ValueError(f"options say {options.players} players, but {n} seats were given")
        s = PacapacaState(seats=list(players), seed=seed, options=options)
        r = rng(s)
        s.babies = cat.babies_in(n, options.babies)
        tables = catalog_tables()
        heads = list(tables.heads)
        bodies = list(tables.bodies)
        r.shuffle(heads)
        r.shuffle(bodies)
        s.alpacas = {p: Alpaca(head=heads[i], body=bodies[i]) for i, p in enumerate(players)}
        primary = list(tables.primary)
        rest = list(tables.rest)
        if s.babies:
            rest += tables.baby_ids
        extra = cat.random_count(n)
        chosen = rest if extra is None else r.sample(rest, extra)
        deck = primary + chosen
        r.shuffle(deck)
        s.deck = deck
        s.pool_size = len(deck)
        s.active = r.randrange(n)
        return s

    # -- queries -----------------------------------------------------------------------

    def _active(self, s: PacapacaState) -> str:
        return s.seats[s.active]
    def legal_actions(self, state: PacapacaState, player: str) -> list[Action]:
        """Every action ``player`` may take now, the deals included in this documented
        form: a negotiator who may still propose gets, after Accept / Decline / GiveUp,
        the :class:`Propose` entries of :meth:`deal_space`: the whole space (ascending,
        in its index order) when it has at most :data:`~bot.games.pacapaca.legal.DEAL_LIST_LIMIT` deals, else every
        deal moving at most one card each way (its one-card deals, then 1-for-1). The
        rest of a large space is reached through :meth:`deal_space` (index or
        :meth:`DealSpace.deal`); :meth:`apply` accepts exactly the listed actions plus
        the deals of :meth:`deal_space`, and refuses every other with
        :class:`IllegalAction`.

        A space can hold billions of deals (2**33 - 1 for 33 tradeable cards between the
        two alpacas; ``python -m bench.deal_space`` measures the sizes met in play).
        ``SYSTEM_SEAT`` gets ``[NegotiationTimeout()]`` during a negotiation."""
        s = state
        phase = s.phase
        if phase == "finished":
            return []
        if player == SYSTEM_SEAT:
            return [TIMEOUT] if phase == "negotiation" else []
        active = s.seats[s.active]
        if phase == "turn":
            if player != active:
                return []
            acts: list[Action] = []
            if s.deck:
                acts.append(DRAW2)
            if s.pile:
                acts.append(TAKE_PILE)
            if not s.negotiated:
                alpacas = s.alpacas
                a = alpacas[active]
                mine = bool(a.neck or a.babies)
                for p in s.seats:
                    if p != active and (mine or alpacas[p].neck or alpacas[p].babies):
                        acts.append(start_action(p))
            if not s.deck and not s.pile:
                acts.append(PASS)
            return acts
        if phase == "drawn":
            if player != active:
                return []
            return [keep_action(c) for c in s.drawn]
        # negotiation
        neg = s.negotiation
        assert neg is not None
        partner = neg.partner
        if player != active and player != partner:
            return []
        acts = []
        has_deal = bool(neg.active_gives or neg.partner_gives)
        if has_deal and player not in neg.accepted:
            acts.append(accept_action(neg.deal_version))
        if has_deal and player == partner:
            acts.append(DECLINE)
        if player == active:
            acts.append(GIVE_UP)
        if neg.proposals < catalog_tables().max_proposals:
            alpacas = s.alpacas
            me = alpacas[player]
            them = alpacas[partner if player == active else active]
            acts += listed_deals(tuple(me.neck), tuple(me.babies), tuple(them.neck),
                                tuple(them.babies))
        return acts

    def deal_space(self, state: PacapacaState, player: str) -> DealSpace | None:
        """Every deal ``player`` may propose now (see :class:`DealSpace`; index it, it can
        hold 2**33 deals), or ``None`` when ``player`` may not propose: no negotiation,
        not one of its two players, or no proposals left (rulebook C, seed
        ``negotiation.max_proposals``). A :class:`Propose` passes :meth:`apply`'s checks
        exactly when it is in this space."""
        s = state
        neg = s.negotiation
        if s.phase != "negotiation" or neg is None:
            return None
        active = s.seats[s.active]
        if player not in (active, neg.partner) or neg.proposals >= catalog_tables().max_proposals:
            return None
        me = s.alpacas[player]
        them = s.alpacas[neg.partner if player == active else active]
        return deal_space_of(tuple(sorted(me.neck + me.babies)), tuple(sorted(them.neck + them.babies)))

    def is_legal(self, state: PacapacaState, player: str, action: Action) -> bool:
        """True when :meth:`apply` would accept ``action`` (any valid deal for Propose)."""
        try:
            check(state, player, action)
        except IllegalAction:
            return False
        return True

    # -- apply -------------------------------------------------------------------------

    def apply(
        self, state: PacapacaState, player: str, action: Action
    ) -> tuple[PacapacaState, list[Event]]:
        """Apply ``action`` for ``player`` on a copy. Raises :class:`IllegalAction` (state
        unchanged) for a refused action: codes ``game_over``, ``not_in_game``,
        ``not_your_turn``, ``deck_empty``, ``pile_empty``, ``self_partner``,
        ``bad_partner``, ``already_negotiated``, ``nothing_to_trade``, ``not_drawn``,
        ``keep_first``, ``nothing_drawn``, ``negotiating``, ``not_negotiating``,
        ``empty_deal``, ``stale_deal``, ``already_accepted``, ``not_partner``,
        ``not_active``, ``head_or_body``, ``duplicate_card``, ``not_your_card``,
        ``not_their_card``, ``too_many_proposals``, ``system_only``, ``no_negotiation``,
        ``must_act``, ``bad_action``."""
        if isinstance(action, (dict, str)):
            action = self.parse_action(action)
        check(state, player, action)
        s = _clone(state)
        ev: list[Event] = []
        self._step(s, player, action, ev)
        return s, ev

    def take_back_point(self, before: PacapacaState, seat: str, action: Action,
                        after: PacapacaState) -> bool:
        """Only opening a negotiation may be taken back: it shows nothing hidden and the
        turn is still the opener's. Drawing and taking the pile show hidden cards, keeping
        shows the kept card, and the talk (proposals, answers) was read by the partner."""
        return type(action) is StartNegotiation and after.rng_calls == before.rng_calls

    def play(self, state: PacapacaState, player: str, action: Action) -> None:
        """:meth:`apply` in place and without events, for playouts (bench, AI search).

        Any state may be played on, also one given to or returned by :meth:`apply` (they
        share only parts no step changes in place); :meth:`fork` first to keep the
        original. Same rules, refusals and action forms (dict or JSON too) as
        :meth:`apply`; afterwards ``state`` equals what :meth:`apply` would have returned.
        Raises :class:`IllegalAction` (state unchanged)."""
        if isinstance(action, (dict, str)):
            action = self.parse_action(action)
        check(state, player, action)
        self._step(state, player, action, None)

    def fork(self, state: PacapacaState) -> PacapacaState:
        """An independent copy of ``state`` (every list the engine changes is copied)."""
        return _clone(state)

    def _step(
        self, s: PacapacaState, player: str, action: Action, ev: list[Event] | None
    ) -> None:
        """Carry out a checked ``action`` on ``s`` (owned by the caller); events are
        produced only when ``ev`` is a list."""
        s.version += 1
        active = s.seats[s.active]
        if type(action) is Propose:  # the commonest action in playouts
            neg = s.negotiation
            assert neg is not None
            if player == active:
                neg.active_gives, neg.partner_gives = list(action.give), list(action.get)
            else:
                neg.active_gives, neg.partner_gives = list(action.get), list(action.give)
            neg.deal_version += 1
            neg.proposals += 1
            neg.accepted = []
            neg.proposed_by = player
            if ev is not None:
                say(ev, "proposed",
                    f"{player} proposed: {active} gives {_names(neg.active_gives)}; "
                    f"{neg.partner} gives {_names(neg.partner_gives)}.",
                    seat=player, active=active, partner=neg.partner,
                    active_gives=neg.active_gives, partner_gives=neg.partner_gives,
                    deal_version=neg.deal_version)
        elif type(action) is Draw2:
            self._draw(s, active, ev)
        elif type(action) is Keep:
            other = [c for c in s.drawn if c != action.card]
            if other:
                alpacas = s.alpacas
                moment = tuple([(*alpacas[p].neck, *alpacas[p].babies) for p in s.seats])
                deck = len(s.deck)
                for c in other:
                    s.pile.append(PileCard(card=c, by=active, kept=action.card, deck=deck,
                                           alpacas=moment))
            self._add(s, active, [action.card])
            s.drawn = []
            if ev is not None:
                say(ev, "kept",
                    f"{active} added a {_name(action.card)} and put the other card face down on the pile.",
                    seat=active, card=action.card)
                say(ev, "discarded",
                    f"You put your {_names(other)} face down on the pile.",
                    to=[active], seat=active, cards=other)
            self._end_turn(s, ev)
        elif type(action) is TakePile:
            cards = [pc.card for pc in s.pile]
            s.pile = []
            self._add(s, active, cards)
            if ev is not None:
                say(ev, "took_pile",
                    f"{active} took the discard pile ({len(cards)} card{'s' * (len(cards) != 1)}): "
                    f"{_names(cards)}.",
                    seat=active, cards=cards)
            self._end_turn(s, ev)
        elif type(action) is StartNegotiation:
            s.phase = "negotiation"
            s.negotiation = Negotiation(partner=action.partner)
            secs = catalog().negotiation.seconds
            if ev is not None:
                say(ev, "negotiation_started",
                    f"{active} opened a negotiation with {action.partner} ({secs} seconds).",
                    seat=active, partner=action.partner, seconds=secs)
        elif type(action) is Accept:
            neg = s.negotiation
            assert neg is not None
            neg.accepted.append(player)
            if ev is not None:
                say(ev, "accepted",
                    f"{player} accepted the deal.",
                    seat=player, deal_version=neg.deal_version)
            if set(neg.accepted) == {active, neg.partner}:
                self._trade(s, active, neg, ev)
                self._end_turn(s, ev)
        elif type(action) is Decline:
            neg = s.negotiation
            assert neg is not None
            neg.active_gives, neg.partner_gives = [], []
            neg.accepted = []
            neg.deal_version += 1
            neg.proposed_by = None
            if ev is not None:
                say(ev, "declined",
                    f"{player} declined the deal.",
                    seat=player, deal_version=neg.deal_version)
        elif type(action) in (GiveUp, NegotiationTimeout):
            why = (
                f"{active} gave up the negotiation"
                if type(action) is GiveUp
                else "Time ran out, so the negotiation failed"
            )
            self._fail_negotiation(
                s, ev, why, "gave_up" if type(action) is GiveUp else "timeout"
            )
        elif type(action) is Pass:
            if ev is not None:
                say(ev, "passed",
                    f"{active} cannot draw or take the pile, so they pass.",
                    seat=active)
            self._end_turn(s, ev)

    # -- steps -------------------------------------------------------------------------

    def _add(self, s: PacapacaState, seat: str, cards: Sequence[int]) -> None:
        babies = catalog_tables().babies
        a = s.alpacas[seat]
        for c in cards:
            (a.babies if c in babies else a.neck).append(c)

    def _draw(self, s: PacapacaState, active: str, ev: list[Event] | None) -> None:
        if len(s.deck) == 1:
            card = s.deck.pop()
            self._add(s, active, [card])
            if ev is not None:
                say(ev, "drew_last",
                    f"{active} drew the last card, a {_name(card)}, and added it.",
                    seat=active, card=card)
            self._end_turn(s, ev)
            return
        drawn = [s.deck.pop(), s.deck.pop()]
        s.drawn = drawn
        s.phase = "drawn"
        if ev is not None:
            say(ev, "drew",
                f"{active} drew two cards and is choosing one.",
                seat=active, deck_size=len(s.deck))
            say(ev, "drew_private",
                f"You drew {_names(drawn)}: keep one, the other goes face down on the pile.",
                to=[active], seat=active, cards=drawn)

    def _trade(self, s: PacapacaState, active: str, neg: Negotiation, ev: list[Event] | None) -> None:
        a, p = s.alpacas[active], s.alpacas[neg.partner]
        for src, dst, cards in (
            (a, neg.partner, neg.active_gives),
            (p, active, neg.partner_gives),
        ):
            for c in cards:
                if c in src.neck:
                    src.neck.remove(c)
                else:
                    src.babies.remove(c)
            self._add(s, dst, cards)
        if ev is not None:
            say(ev, "traded",
                f"Deal! {active} gave {_names(neg.active_gives)} and got "
                f"{_names(neg.partner_gives)} from {neg.partner}.",
                seat=active, partner=neg.partner, active_gives=list(neg.active_gives),
                partner_gives=list(neg.partner_gives))

    def _fail_negotiation(self, s: PacapacaState, ev: list[Event] | None, why: str, code: str) -> None:
        active = self._active(s)
        neg = s.negotiation
        assert neg is not None
        s.negotiation = None
        s.phase = "turn"
        s.negotiated = True
        if s.deck or s.pile:
            then = "they must now draw or take the pile"
        else:
            then = "they can only pass"
        if ev is not None:
            say(ev, "negotiation_failed",
                f"{why}; {then}.",
                seat=active, partner=neg.partner, reason=code,
                can_draw=bool(s.deck or s.pile))

    def _end_turn(self, s: PacapacaState, ev: list[Event] | None) -> None:
        s.phase = "turn"
        s.drawn = []
        s.negotiation = None
        s.negotiated = False
        if s.final_turns_left is not None:
            s.final_turns_left -= 1
            if s.final_turns_left <= 0:
                self._finish(s, ev)
                return
        elif not s.deck:
            s.final_turns_left = len(s.seats)
            if ev is not None:
                say(ev, "final_round",
                    "The deck is empty: everyone takes one last turn.",
                    turns=len(s.seats))
        s.active = (s.active + 1) % len(s.seats)
        s.turn_number += 1
        if ev is not None:
            say(ev, "turn",
                f"It is {self._active(s)}'s turn.",
                seat=self._active(s), turn_number=s.turn_number)

    def _finish(self, s: PacapacaState, ev: list[Event] | None) -> None:
        s.phase = "finished"
        if ev is not None:
            res = self.result(s)
            assert res is not None
            win = " and ".join(res.winners)
            say(ev, "game_over",
                f"The game is over: {win} {'wins' if len(res.winners) == 1 else 'share the win'}.",
                scores=res.scores, winners=res.winners)

    # -- outputs -----------------------------------------------------------------------

    def scores(self, state: PacapacaState) -> dict[str, SeatScore]:
        """Score the alpacas as they stand (also usable mid-game for a preview)."""
        return score_all({p: (state.alpacas[p].neck, state.alpacas[p].babies) for p in state.seats})

    def result(self, state: PacapacaState) -> Result | None:
        """Final scores, winners (all seats sharing the highest total) and per-seat score
        lines (neck length first, then bows, scarves, charms, bonus, mud, babies);
        ``None`` while the game runs."""
        if state.phase != "finished":
            return None
        sc = self.scores(state)
        totals = {p: sc[p].total for p in state.seats}
        best = max(totals.values())
        return Result(
            scores=totals,
            winners=[p for p in state.seats if totals[p] == best],
            breakdown={p: sc[p].lines for p in state.seats},
            reason="The deck ran out and everyone took one last turn.",
        )

    def pending(self, state: PacapacaState) -> Pending:
        """Who must decide now.

        - finished: no seats, kind ``finished``;
        - turn / drawn: the active seat, kind ``turn``, key ``turn:<n>`` (``turn:<n>:after``
          after a failed negotiation, so a turn timer restarts);
        - negotiation: kind ``negotiation``, key ``neg:<n>``, 60 seconds, timeout
          ``NegotiationTimeout`` for ``SYSTEM_SEAT``. ``seats`` lists who owes a decision:
          the active player while the deal is empty; otherwise each negotiator who has not
          accepted the current version. (The other negotiator may still act: propose a
          change or give up; use :meth:`legal_actions`, not ``seats``, to validate.)
        """
        s = state
        phase = s.phase
        if phase == "finished":
            return Pending([], "finished", "end")
        active = s.seats[s.active]
        if phase == "negotiation":
            neg = s.negotiation
            assert neg is not None
            if not (neg.active_gives or neg.partner_gives):
                seats = [active]
            elif neg.accepted:
                seats = [p for p in (active, neg.partner) if p not in neg.accepted]
            else:
                seats = [active, neg.partner]
            return Pending(
                seats, "negotiation", f"neg:{s.turn_number}", _NEGOTIATION_SECONDS,
                [_TIMEOUT_RULE],  # the Timeout is shared (read-only)
            )
        n = s.turn_number
        key = f"turn:{n}:after" if s.negotiated else f"turn:{n}"
        return Pending([active], "turn", key)

    def view(self, state: PacapacaState, viewer: str | None) -> PacapacaView:
        """Everything ``viewer`` may see (:func:`~bot.games.pacapaca.views.table_view`),
        with the final scoring once the game is over."""
        final = None
        if state.phase == "finished":
            res = self.result(state)
            assert res is not None
            final = final_view(state, self.scores(state), res.winners)
        return table_view(state, viewer, final)
