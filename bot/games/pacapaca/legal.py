"""What an Alpaca Pacapaca player may do: the catalog facts the rules read, the shared
action instances ``legal_actions`` returns, the deal lists of a negotiation, and
:func:`check`, which refuses an illegal action with :class:`IllegalAction` (rulebook
"Playing the Game"; RULES.md: Alpaca Pacapaca)."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import NamedTuple

from bot.games.base import SYSTEM_SEAT, Action, IllegalAction
from bot.games.pacapaca.cards import catalog, kind_table
from bot.games.pacapaca.models import (
    Accept,
    DealSpace,
    Decline,
    Draw2,
    GiveUp,
    Keep,
    NegotiationTimeout,
    PacapacaState,
    Pass,
    Propose,
    StartNegotiation,
    TakePile,
)


class Tables(NamedTuple):
    """Catalog facts the engine reads on every action (looked up once)."""

    max_proposals: int
    design_ids: frozenset[int]
    babies: frozenset[int]
    kinds: dict[int, str]
    heads: tuple[int, ...]
    bodies: tuple[int, ...]
    primary: tuple[int, ...]
    rest: tuple[int, ...]  # the neck deck without the primary set, in id order
    baby_ids: tuple[int, ...]
    tradeable: int  # neck cards and babies have ids below this


@cache
def catalog_tables() -> Tables:
    cat = catalog()
    primary = cat.primary_ids()
    return Tables(
        max_proposals=cat.negotiation.max_proposals,
        design_ids=frozenset(d.id for d in [*cat.heads, *cat.bodies]),
        babies=frozenset(cat.baby_ids),
        kinds=kind_table(),
        heads=tuple(d.id for d in cat.heads),
        bodies=tuple(d.id for d in cat.bodies),
        primary=tuple(primary),
        rest=tuple(c for c in cat.neck_deck if c not in primary),
        baby_ids=tuple(cat.baby_ids),
        tradeable=max([*cat.neck_deck, *cat.baby_ids]) + 1,
    )


# Shared, never-mutated action instances (legal_actions returns them on every call).
DRAW2 = Draw2()
TAKE_PILE = TakePile()
PASS = Pass()
GIVE_UP = GiveUp()
DECLINE = Decline()
TIMEOUT = NegotiationTimeout()
_NEGOTIATION_ACTIONS = frozenset((Propose, Accept, Decline, GiveUp))


@lru_cache(maxsize=256)
def start_action(partner: str) -> StartNegotiation:
    return StartNegotiation(partner=partner)


@cache
def keep_action(card: int) -> Keep:
    return Keep(card=card)


@lru_cache(maxsize=256)
def accept_action(version: int) -> Accept:
    return Accept(version=version)


@cache
def _deal_row(give: int | None) -> tuple[Propose, ...]:
    """The shared, never-mutated :class:`Propose` deals that give card ``give`` (``None``:
    nothing): ``row[t]`` asks for card ``t`` in return, ``row[-1]`` for nothing (made once
    per card, on first use; legal_actions lists many of them, so it indexes, not builds)."""
    wanted: list[list[int]] = [[t] for t in range(catalog_tables().tradeable)] + [[]]
    mine = [] if give is None else [give]
    return tuple(Propose(give=mine, get=get) for get in wanted)


#: ``legal_actions`` lists a negotiator's whole deal space when it has at most this many
#: deals (4 tradeable cards between the two alpacas: few enough for one Discord select,
#: which holds 25 options); above, it lists every deal moving at most one card each way,
#: and :meth:`PacapacaEngine.deal_space` is the whole space (a higher limit slows playouts:
#: every new holding builds its list).
DEAL_LIST_LIMIT = 15


@lru_cache(maxsize=2048)
def deal_space_of(give: tuple[int, ...], get: tuple[int, ...]) -> DealSpace:
    """The :class:`DealSpace` of a proposer holding ``give`` and a counterpart holding
    ``get`` (ascending tuples; cached: holdings do not change during a negotiation)."""
    return DealSpace(give=give, get=get)


@lru_cache(maxsize=4096)
def listed_deals(
    neck: tuple[int, ...], babies: tuple[int, ...], their_neck: tuple[int, ...],
    their_babies: tuple[int, ...],
) -> tuple[Propose, ...]:
    """The :class:`Propose` entries of ``legal_actions`` for a proposer holding ``neck``
    and ``babies`` and a counterpart holding ``their_neck`` and ``their_babies``: the
    whole deal space when it has at most :data:`DEAL_LIST_LIMIT` deals, else every
    1-for-0, 0-for-1 and 1-for-1 deal (gives first, then asks, then pairs). Cached by the
    holdings as they lie (they do not change during a negotiation); the deals are shared."""
    give = tuple(sorted(neck + babies))
    get = tuple(sorted(their_neck + their_babies))
    if (1 << (len(give) + len(get))) - 1 <= DEAL_LIST_LIMIT:
        return tuple(deal_space_of(give, get))
    rows = [_deal_row(g) for g in give]
    asks = _deal_row(None)
    return (*[row[-1] for row in rows], *[asks[t] for t in get],
            *[row[t] for row in rows for t in get])


def _tradeable(s: PacapacaState, seat: str) -> list[int]:
    a = s.alpacas[seat]
    return [*a.neck, *a.babies]


def check(s: PacapacaState, player: str, action: Action) -> None:
    """Raise :class:`IllegalAction` unless ``action`` is legal for ``player``."""
    if type(action) is Propose and s.phase == "negotiation":
        # The commonest action in playouts; the same checks as the general path below.
        active = s.seats[s.active]
        neg = s.negotiation
        assert neg is not None  # phase "negotiation" always has one
        partner = neg.partner
        if player == partner or player == active:
            _check_proposal(s, player, action, active)
            return
    if s.phase == "finished":
        raise IllegalAction("game_over", "The game is over.")
    if type(action) is NegotiationTimeout:
        if player != SYSTEM_SEAT:
            raise IllegalAction("system_only", "Only the clock can end a negotiation.")
        if s.phase != "negotiation":
            raise IllegalAction("no_negotiation", "No negotiation is running.")
        return
    if player not in s.seats:
        raise IllegalAction("not_in_game", "You are not in this game.")
    active = s.seats[s.active]
    neg = s.negotiation
    if s.phase == "negotiation":
        assert neg is not None
        if player not in (active, neg.partner):
            raise IllegalAction(
                "not_negotiating", "Only the two negotiating players can act now."
            )
        if type(action) not in _NEGOTIATION_ACTIONS:
            raise IllegalAction(
                "negotiating", "Finish the negotiation first: accept, propose or give up."
            )
        if type(action) is Propose:
            _check_proposal(s, player, action, active)
            return
        if type(action) is Accept:
            if not (neg.active_gives or neg.partner_gives):
                raise IllegalAction("empty_deal", "There is no deal to accept yet.")
            if action.version != neg.deal_version:
                raise IllegalAction(
                    "stale_deal", "The deal changed since you saw it; look again."
                )
            if player in neg.accepted:
                raise IllegalAction("already_accepted", "You already accepted this deal.")
            return
        if type(action) is Decline:
            if player != neg.partner:
                raise IllegalAction(
                    "not_partner", "Only the invited player declines; you can give up."
                )
            if not (neg.active_gives or neg.partner_gives):
                raise IllegalAction("empty_deal", "There is no deal to decline.")
            return
        if player != active:
            raise IllegalAction("not_active", "Only the player whose turn it is can give up.")
        return
    if player != active:
        raise IllegalAction("not_your_turn", f"It is {active}'s turn.")
    if type(action) is Keep:
        if s.phase != "drawn":
            raise IllegalAction("nothing_drawn", "You have no drawn cards to keep.")
        if action.card not in s.drawn:
            raise IllegalAction("not_drawn", "That card is not one of the two you drew.")
        return
    if s.phase == "drawn":
        raise IllegalAction("keep_first", "Keep one of the two cards you drew first.")
    if type(action) is Draw2:
        if not s.deck:
            raise IllegalAction("deck_empty", "The deck is empty.")
        return
    if type(action) is TakePile:
        if not s.pile:
            raise IllegalAction("pile_empty", "The discard pile is empty.")
        return
    if type(action) is StartNegotiation:
        if s.negotiated:
            raise IllegalAction(
                "already_negotiated", "You already negotiated this turn: draw or take the pile."
            )
        if action.partner == player:
            raise IllegalAction("self_partner", "You cannot negotiate with yourself.")
        if action.partner not in s.seats:
            raise IllegalAction("bad_partner", "That player is not in this game.")
        if not _tradeable(s, player) and not _tradeable(s, action.partner):
            raise IllegalAction("nothing_to_trade", "Neither of you has a card to trade yet.")
        return
    if type(action) is Pass:
        if s.deck or s.pile:
            raise IllegalAction("must_act", "You can still draw or take the pile.")
        return
    raise IllegalAction("wrong_phase", "That move is not possible now.")

def _check_proposal(s: PacapacaState, player: str, p: Propose, active: str) -> None:
    """Raise :class:`IllegalAction` unless ``p`` is a deal ``player`` (one of the two
    negotiators; ``active`` is the player whose turn it is) may propose now."""
    neg = s.negotiation
    assert neg is not None
    tables = catalog_tables()
    if neg.proposals >= tables.max_proposals:
        raise IllegalAction(
            "too_many_proposals", "No more proposals this time: accept, decline or give up."
        )
    give, get = p.give, p.get
    if not give and not get:
        raise IllegalAction("empty_deal", "A deal must move at least one card.")
    design_ids = tables.design_ids
    if not (design_ids.isdisjoint(give) and design_ids.isdisjoint(get)):
        raise IllegalAction("head_or_body", "Heads and bodies cannot be traded.")
    if (len(give) > 1 and len(set(give)) != len(give)) or (
        len(get) > 1 and len(set(get)) != len(get)
    ):
        raise IllegalAction("duplicate_card", "A card is named twice in that deal.")
    other = neg.partner if player == active else active
    alpacas = s.alpacas
    mine, theirs = alpacas[player], alpacas[other]
    for c in give:
        if c not in mine.neck and c not in mine.babies:
            raise IllegalAction("not_your_card", "You can only offer cards your alpaca has.")
    for c in get:
        if c not in theirs.neck and c not in theirs.babies:
            raise IllegalAction(
                "not_their_card", f"You can only ask for cards {other}'s alpaca has."
            )
