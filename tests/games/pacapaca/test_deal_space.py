"""The deal space of Alpaca Pacapaca: ``legal_actions`` plus ``deal_space`` are the single
source of truth. Every listed action and every deal of the space applies; any other action
is refused with ``IllegalAction``, the state unchanged."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import SYSTEM_SEAT, Action, IllegalAction
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.legal import DEAL_LIST_LIMIT
from bot.games.pacapaca.models import (
    Accept,
    DealSpace,
    Decline,
    Draw2,
    GiveUp,
    Keep,
    NegotiationTimeout,
    PacapacaOptions,
    PacapacaState,
    Pass,
    Propose,
    StartNegotiation,
    TakePile,
)
from tests.games.pacapaca.pacapaca_helpers import c, state

E = PacapacaEngine()
#: Every card id of the game (neck cards, babies, heads 100-105, bodies 200-205) and two
#: ids no card has.
CARD_IDS = [*range(60), *range(100, 106), *range(200, 206), 60, 999]


def grown(seed: int, players: int, turns: int, *, negotiate: bool) -> PacapacaState:
    """A seeded game after ``turns`` turns of drawing or taking the pile (so alpacas hold
    up to about ``turns / players`` cards each); with ``negotiate`` the active player then
    opens a negotiation with a random partner, when the rules allow one."""
    r = random.Random(seed)
    s = E.new_game([f"p{i}" for i in range(players)], seed=seed,
                   options=PacapacaOptions(babies=seed % 2 == 0))
    for _ in range(turns):
        if s.phase == "finished" or not s.deck:
            break
        seat = s.seats[s.active]
        if s.pile and r.random() < 0.2:
            E.play(s, seat, TakePile())
            continue
        E.play(s, seat, Draw2())
        if s.phase == "drawn":
            E.play(s, seat, Keep(card=r.choice(s.drawn)))
    if negotiate and s.phase == "turn":
        seat = s.seats[s.active]
        starts = [a for a in E.legal_actions(s, seat) if isinstance(a, StartNegotiation)]
        if starts:
            E.play(s, seat, r.choice(starts))
    return s


def accepted(s: PacapacaState, seat: str, action: Action) -> bool:
    """True when ``apply`` takes ``action``; on a refusal, checks it is an
    ``IllegalAction`` and that the state did not change."""
    before = s.model_dump_json()
    try:
        E.apply(s, seat, action)
    except IllegalAction:
        assert s.model_dump_json() == before
        return False
    assert s.model_dump_json() == before
    return True


def random_action(r: random.Random, s: PacapacaState) -> Action:
    """Any well-formed action, legal or not."""
    kind = r.randrange(10)
    if kind == 0:
        return Propose(give=r.sample(CARD_IDS, r.randrange(4)), get=r.sample(CARD_IDS, r.randrange(4)))
    if kind == 1:  # a deal that may name one card twice
        card = r.choice(CARD_IDS)
        return Propose(give=[card, card] if r.random() < 0.5 else [card], get=[r.choice(CARD_IDS)])
    if kind == 2:
        return Keep(card=r.choice(CARD_IDS))
    if kind == 3:
        version = s.negotiation.deal_version if s.negotiation else 0
        return Accept(version=version + r.randrange(-1, 2))
    if kind == 4:
        return StartNegotiation(partner=r.choice([*s.seats, "zz", SYSTEM_SEAT]))
    return r.choice([Draw2(), TakePile(), Pass(), Decline(), GiveUp(), NegotiationTimeout()])


def check_state(s: PacapacaState, r: random.Random) -> None:
    """The property, for every seat of ``s`` (and the clock and a stranger)."""
    for seat in [*s.seats, SYSTEM_SEAT, "zz"]:
        legal = E.legal_actions(s, seat)
        space = E.deal_space(s, seat)
        for action in legal:
            assert accepted(s, seat, action), (seat, action)
        deals = [a for a in legal if isinstance(a, Propose)]
        if space is None:
            assert deals == []
        else:
            assert all(p in space for p in deals)
            if len(space) <= DEAL_LIST_LIMIT:
                assert deals == list(space)
            else:
                g, t = len(space.give), len(space.get)
                assert len(deals) == g + t + g * t
                assert all(len(p.give) <= 1 and len(p.get) <= 1 for p in deals)
            for _ in range(20):
                i = r.randrange(len(space))
                deal = space[i]
                assert space.index(deal) == i and deal in space
                assert accepted(s, seat, deal), (seat, deal)
        for _ in range(60):
            action = random_action(r, s)
            in_space = space is not None and action in space
            assert accepted(s, seat, action) == (action in legal or in_space), (seat, action)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 6),
    turns=st.integers(0, 60),
    negotiate=st.booleans(),
    proposals=st.integers(0, 9),
)
def test_listed_and_space_actions_apply_and_nothing_else_does(
    seed: int, players: int, turns: int, negotiate: bool, proposals: int
) -> None:
    s = grown(seed, players, turns, negotiate=negotiate)
    r = random.Random(seed)
    check_state(s, r)
    # a negotiation a few proposals (or a decline or an acceptance) later
    for _ in range(proposals):
        if s.phase != "negotiation":
            break
        assert s.negotiation is not None
        seat = r.choice([s.seats[s.active], s.negotiation.partner])
        space = E.deal_space(s, seat)
        legal = E.legal_actions(s, seat)
        others = [a for a in legal if not isinstance(a, Propose | GiveUp)]
        if space is not None and (not others or r.random() < 0.7):
            E.play(s, seat, space[r.randrange(len(space))])
        elif others:
            E.play(s, seat, r.choice(others))
    check_state(s, r)


def big_negotiation() -> PacapacaState:
    """a holds 5 cards, b holds 3: 2**8 - 1 = 255 deals, more than the list limit."""
    s = state({
        "a": [c("mud", 0), c("neck", 0), c("neck", 1), c("ribbon_left", 0)],
        "b": [c("scarf_top", 0), c("pendant_bell", 0)],
    }, babies={"a": [c("baby_male", 0)], "b": [c("baby_female", 0)]})
    s, _ = E.apply(s, "a", StartNegotiation(partner="b"))
    return s


def test_a_large_space_lists_the_one_card_each_way_deals():
    s = big_negotiation()
    space = E.deal_space(s, "a")
    assert space == DealSpace(give=(0, 1, 20, 44, 56), get=(8, 28, 58))
    assert len(space) == 255 > DEAL_LIST_LIMIT
    deals = [a for a in E.legal_actions(s, "a") if isinstance(a, Propose)]
    assert len(deals) == 5 + 3 + 5 * 3
    assert deals[:6] == [Propose(give=[0]), Propose(give=[1]), Propose(give=[20]),
                         Propose(give=[44]), Propose(give=[56]), Propose(get=[8])]
    assert deals[-1] == Propose(give=[56], get=[58])
    # a bigger deal is not listed but is in the space, and applies
    two_for_two = space.deal([44, 0], [58, 8])
    assert two_for_two == Propose(give=[0, 44], get=[8, 58]) and two_for_two not in deals
    assert space.index(two_for_two) == 0b10101001 - 1
    s2, ev = E.apply(s, "a", two_for_two)
    assert (s2.negotiation.active_gives, s2.negotiation.partner_gives) == ([0, 44], [8, 58])
    assert ev[0].text == (
        "a proposed: a gives Plain neck, Mud splat; b gives Scarf top, Baby girl."
    )


def test_the_space_refuses_what_is_not_in_it():
    s = big_negotiation()
    space = E.deal_space(s, "b")
    assert (space.give, space.get) == ((8, 28, 58), (0, 1, 20, 44, 56))
    for give, get in (([], []), ([0], []), ([8, 8], []), ([100], [0]), ([8], [60])):
        assert Propose(give=give, get=get) not in space
        with pytest.raises(ValueError):
            space.deal(give, get)
        with pytest.raises(IllegalAction):
            E.apply(s, "b", Propose(give=give, get=get))
    with pytest.raises(IndexError):
        space[255]
    assert space[-1] == Propose(give=[8, 28, 58], get=[0, 1, 20, 44, 56])
    assert E.deal_space(s, "x") is None and E.deal_space(s, SYSTEM_SEAT) is None


def test_no_space_once_the_proposals_run_out():
    s = big_negotiation()
    for i in range(8):
        s, _ = E.apply(s, "ab"[i % 2], Propose(get=[0] if i % 2 else [8]))
    assert E.deal_space(s, "a") is None and E.deal_space(s, "b") is None
    assert not [a for a in E.legal_actions(s, "a") if isinstance(a, Propose)]
    with pytest.raises(IllegalAction) as info:
        E.apply(s, "a", Propose(give=[0]))
    assert info.value.code == "too_many_proposals"
