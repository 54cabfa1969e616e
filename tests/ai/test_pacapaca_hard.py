"""Pacapaca's Hard seat: deals planned, proposed, accepted and countered from its view only,
discard and keep inference, and its values by kind."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.ai import (
    pacapaca_hard,
    pacapaca_sample,
    pacapaca_values,
)
from bot.games.pacapaca.cards import catalog, kind_table
from bot.games.pacapaca.models import (
    Accept,
    Alpaca,
    PacapacaState,
    PileCard,
    Propose,
    StartNegotiation,
)
from tests.support.ai_games import SPECS, advance, same_choice


def _deal_turn() -> tuple[PacapacaState, list[Any]]:
    """A 4-player turn of s0 (seed 4, turn 29) where a Normal partner would accept some
    deals worth more than drawing."""
    def some_offer(s: Any, seat: str, legal: list[Any]) -> bool:
        if seat != "s0" or s.phase != "turn" or s.turn_number < 29:
            return False
        view = SPECS["pacapaca"].engine.view(s, seat)
        return any(pacapaca_hard.offers(view, "s0", a.partner)
                   for a in legal if a.type == "negotiate")

    state, _, legal = advance("pacapaca", 4, 4, some_offer)
    assert isinstance(state, PacapacaState)
    return state, legal


def _hidden_swapped(state: PacapacaState, seat: str) -> PacapacaState:
    """``state`` with another seat's first pile card replaced by a card of another kind
    that is not in the game (the view shows neither which cards are in the game nor the
    others' pile cards) and the deck reversed: what ``seat`` sees is the same."""
    other = SPECS["pacapaca"].engine.fork(state)
    other.deck = list(reversed(state.deck))
    i = next(i for i, p in enumerate(state.pile) if p.by != seat)
    used = {*state.deck, *(p.card for p in state.pile)}
    for a in state.alpacas.values():
        used.update((*a.neck, *a.babies))
    kinds = kind_table()
    out = next(c for c in catalog().neck_deck
               if c not in used and kinds[c] != kinds[state.pile[i].card])
    other.pile[i] = dataclasses.replace(state.pile[i], card=out)
    assert other.pile != state.pile
    return other


def test_pacapaca_hard_opens_a_planned_deal_from_its_view_only() -> None:
    state, legal = _deal_turn()
    engine = SPECS["pacapaca"].engine
    view = engine.view(state, "s0")
    assert state.turn_number == 29
    assert pacapaca_hard.offers(view, "s0", "s2")[0] == (11.033333333333333, (24,), (9, 38))
    other = _hidden_swapped(state, "s0")
    pick = same_choice("pacapaca", pacapaca_hard.hard_policy, state, other, "s0")
    assert pick == StartNegotiation(partner="s2")


def test_pacapaca_hard_proposes_and_accepts_its_deal_from_its_view_only() -> None:
    state, _ = _deal_turn()
    engine = SPECS["pacapaca"].engine
    engine.play(state, "s0", StartNegotiation(partner="s2"))
    other = _hidden_swapped(state, "s0")
    view = engine.view(state, "s0")
    assert view == engine.view(other, "s0")
    legal = engine.legal_actions(state, "s0")
    picks = [pacapaca_hard.hard_policy(v, legal, random.Random(11))
             for v in (view, engine.view(other, "s0"))]
    assert picks[0] == picks[1] == Propose(give=[24], get=[9, 38])
    space = engine.deal_space(state, "s0")
    assert space is not None and picks[0] in space
    engine.play(state, "s0", picks[0])
    view = engine.view(state, "s0")
    mine = pacapaca_hard.hard_policy(view, engine.legal_actions(state, "s0"), random.Random(1))
    assert mine == Accept(version=1)
    engine.play(state, "s0", mine)
    normal = SPECS["pacapaca"].policy
    assert normal is not None
    answer = normal(engine.view(state, "s2"), engine.legal_actions(state, "s2"),
                    random.Random(1))
    assert answer == Accept(version=1)
    engine.play(state, "s2", answer)
    assert {9, 38} <= set(state.alpacas["s0"].neck) and 24 in state.alpacas["s2"].neck
    assert state.phase == "turn" and state.seats[state.active] == "s1"


def test_pacapaca_normal_accepts_exactly_the_deals_hard_predicts() -> None:
    state, _ = _deal_turn()
    engine = SPECS["pacapaca"].engine
    normal = SPECS["pacapaca"].policy
    assert normal is not None
    view = engine.view(state, "s0")
    checked = {True: 0, False: 0}
    for partner in ("s1", "s2", "s3"):
        a, b = state.alpacas["s0"], state.alpacas[partner]
        deals: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((g,), (t,)) for g in [*a.neck, *a.babies] for t in [*b.neck, *b.babies]]
        deals += [(g, t) for _, g, t in pacapaca_hard.offers(view, "s0", partner)]
        for give, get in deals:
            s = engine.fork(state)
            engine.play(s, "s0", StartNegotiation(partner=partner))
            engine.play(s, "s0", Propose(give=list(give), get=list(get)))
            engine.play(s, "s0", Accept(version=1))
            answer = normal(engine.view(s, partner), engine.legal_actions(s, partner),
                            random.Random(3))
            predicted = pacapaca_hard.normal_accepts(view, "s0", partner, give, get)
            assert answer.type == ("accept" if predicted else "decline")
            checked[predicted] += 1
    assert checked[True] >= 5 and checked[False] >= 5


def _one_discard_state() -> PacapacaState:
    """2 players: s1 wears a bow's left loop and put one card (a mud) on the pile; the
    deck holds the rest of the primary set and two plain necks (a consistent 2-player
    game: 20 cards in play)."""
    kinds = {k.kind: k for k in catalog().kinds}
    left0 = kinds["ribbon_left"].first_id
    primary = [x for x in catalog().primary_ids() if x != left0]
    neck = kinds["neck"].first_id
    state = PacapacaState(
        seats=["s0", "s1"], seed=1, pool_size=20,
        alpacas={"s0": Alpaca(head=100, body=200), "s1": Alpaca(head=101, body=201,
                                                               neck=[left0])},
        deck=[*primary, neck, neck + 1],
        pile=[PileCard(card=kinds["mud"].first_id + 1, by="s1")])
    return state


def test_pacapaca_discard_weights_follow_the_normal_keep_rule() -> None:
    # 54 other cards could have been drawn with it (55 unseen: the catalog but s1's loop).
    # A mud is worth least to s1: every other kind beats it, its 11 other copies tie.
    # A right loop completes s1's bow: nothing beats it, its 3 other copies tie.
    view = SPECS["pacapaca"].engine.view(_one_discard_state(), "s0")
    w = pacapaca_sample.discard_weights(view, "s1")
    assert w["mud"] == (54 - 11 + 0.5 * 11) / 54
    assert w["ribbon_right"] == 0.5 * 3 / 54
    assert sorted(w, key=lambda k: (w[k], k))[:2] == ["ribbon_right", "pendant_bell"]


def test_pacapaca_samples_put_likely_discards_on_the_pile(monkeypatch: Any) -> None:
    engine = SPECS["pacapaca"].engine
    view = engine.view(_one_discard_state(), "s0")
    kinds = kind_table()

    def pile_kinds() -> dict[str, int]:
        sample = pacapaca_sample.Determinizer(view)
        rand = random.Random(1)
        out: dict[str, int] = {}
        for _ in range(300):
            s = sample(rand)
            assert engine.view(s, "s0") == view
            assert len(s.deck) == 11 and [p.by for p in s.pile] == ["s1"]
            out[kinds[s.pile[0].card]] = out.get(kinds[s.pile[0].card], 0) + 1
        return out

    weighted = pile_kinds()
    assert (weighted["mud"], weighted["ribbon_right"]) == (90, 1)
    monkeypatch.setattr(pacapaca_sample, "INFER_DISCARDS", False)
    uniform = pile_kinds()
    assert (uniform["mud"], uniform["ribbon_right"]) == (45, 30)


def test_pacapaca_keep_weights_rule_out_what_normal_would_have_kept() -> None:
    # s1 wore a bow's left loop and added the second right loop (id 25) with the deck at
    # 11: every kind is worth less to it than that, so its discard can be anything but
    # the first right loop (id 24), which Normal would have kept instead (same worth,
    # lower id).
    kinds = {k.kind: k for k in catalog().kinds}
    left0, right0 = kinds["ribbon_left"].first_id, kinds["ribbon_right"].first_id
    view = SPECS["pacapaca"].engine.view(_one_discard_state(), "s0")
    entry = view.discards[0].model_copy(update={"kept": right0 + 1, "deck_size": 11,
                                                "before": [[], [left0]]})
    w = pacapaca_sample.keep_weights(view, entry)
    assert w is not None and len(w) == 60
    assert w[right0] == pacapaca_sample.KEEP_FLOOR
    # (the kept card itself is on the neck, never in a sample's hidden cards)
    assert [c for c, x in w.items() if x != 1.0] == [right0, right0 + 1]
    # it added a mud instead (the sixth): any other kind, or one of the first five muds,
    # would have been kept, so only the last six muds stay likely
    mud = kinds["mud"].first_id
    entry = entry.model_copy(update={"kept": mud + 5})
    w = pacapaca_sample.keep_weights(view, entry)
    assert w is not None
    likely = sorted({kind_table()[c] for c, x in w.items() if x == 1.0})
    assert likely == ["mud"]
    assert [c for c, x in w.items() if x == 1.0 and kind_table()[c] == "mud"] == list(
        range(mud + 6, mud + 12))
    # no recorded moment (a state stored before moments existed): no weights
    assert pacapaca_sample.keep_weights(view, view.discards[0].model_copy(
        update={"kept": None})) is None


@pytest.mark.parametrize("players", [2, 4])
def test_pacapaca_inference_never_rules_out_what_normal_seats_did(players: int) -> None:
    """In seeded games of Normal seats, at every turn of s0 with others' cards on the
    pile: each of those cards weighs 1 by the card kept with it, and every draw the
    others chose over the pile holds for the real pile (Normal is what both model)."""
    engine = SPECS["pacapaca"].engine
    normal = SPECS["pacapaca"].policy
    assert normal is not None
    weighed = checked = 0
    for seed in (1, 2, 3):
        seats = [f"s{i}" for i in range(players)]
        state = engine.new_game(seats, seed=seed)
        rand = random.Random(seed)
        while engine.result(state) is None:
            seat = next(s for s in engine.pending(state).seats
                        if engine.legal_actions(state, s))
            legal = engine.legal_actions(state, seat)
            view = engine.view(state, seat)
            if seat == "s0" and state.phase == "turn" and any(p.by != "s0" for p in state.pile):
                sample = pacapaca_sample.Determinizer(view)
                theirs = [p.card for p in state.pile if p.by != "s0"]
                assert sample.by == [p.by for p in state.pile if p.by != "s0"]
                for weights, card in zip(sample.card_weights, theirs, strict=True):
                    assert weights is not None and weights[card] == 1.0
                    weighed += 1
                for check in sample.checks:
                    assert check.holds(theirs)
                    checked += 1
            engine.play(state, seat, normal(view, legal, rand))
    assert weighed > 20 and checked > 5


def test_pacapaca_hard_searches_deals_that_leave_the_final_pile_to_the_next_seat() -> None:
    # 2 players, seed 8, turn 14: the deck is empty and s1 must take the pile (2 cards,
    # one of them s0's) unless it makes a deal. Deals that gain s1 nothing are searched
    # then (a Normal s0 accepts them), and only then.
    state, seat, legal = advance(
        "pacapaca", 8, 2,
        lambda s, seat, legal: s.phase == "turn" and s.final_turns_left is not None
        and not s.deck and bool(s.pile) and any(a.type == "negotiate" for a in legal))
    assert (seat, state.turn_number, len(state.pile)) == ("s1", 14, 2)
    engine = SPECS["pacapaca"].engine
    view = engine.view(state, seat)
    dodges = pacapaca_hard._plans(view, seat, ["s0"], True)
    assert dodges == [pacapaca_hard.Plan("s0", (38, 50), ()),
                      pacapaca_hard.Plan("s0", (), (44,))]
    assert all(pacapaca_hard.normal_accepts(view, seat, "s0", p.give, p.get) for p in dodges)
    # the deals that gain s1 something rank lower (Normal's measure): giving up cards
    # costs s1 less than what it must give s0 for them
    assert pacapaca_hard.offers(view, seat, "s0")[0][0] < -2.5
    main = view.model_copy(update={"final_round": False, "final_turns_left": None})
    assert pacapaca_hard._plans(main, seat, ["s0"], True) == []
    other = _hidden_swapped(state, seat)
    same_choice("pacapaca", pacapaca_hard.hard_policy, state, other, seat)


def test_pacapaca_hard_counters_a_deal_with_one_its_normal_partner_accepts() -> None:
    # 4 players, seed 1, turn 21: s1 opened with s0 and offers its 37 for s0's 26; the
    # Hard s0 asks for 33 as well, which a Normal s1 still accepts (it gains more than a
    # third of what s0 gains), and the cards change alpacas.
    def offered(s: Any, seat: str, legal: list[Any]) -> bool:
        n = s.negotiation
        return (seat == "s0" and s.phase == "negotiation" and n is not None
                and n.partner == "s0" and bool(n.active_gives or n.partner_gives))

    state, seat, legal = advance("pacapaca", 1, 4, offered)
    assert isinstance(state, PacapacaState) and state.negotiation is not None
    assert (state.turn_number, state.seats[state.active]) == (21, "s1")
    assert (state.negotiation.active_gives, state.negotiation.partner_gives) == ([37], [26])
    engine = SPECS["pacapaca"].engine
    other = _hidden_swapped(state, seat)
    view = engine.view(state, seat)
    assert view == engine.view(other, seat) and legal == engine.legal_actions(other, seat)
    picks = [pacapaca_hard.hard_policy(v, legal, random.Random(11))
             for v in (view, engine.view(other, seat))]
    pick = picks[0]
    assert picks[1] == pick == Propose(give=[26], get=[33, 37])
    space = engine.deal_space(state, seat)
    assert space is not None and pick in space
    assert pacapaca_hard.normal_accepts(view, seat, "s1", [26], [33, 37])
    engine.play(state, seat, pick)
    mine = pacapaca_hard.hard_policy(engine.view(state, seat),
                                     engine.legal_actions(state, seat), random.Random(1))
    assert mine == Accept(version=2)
    engine.play(state, seat, mine)
    normal = SPECS["pacapaca"].policy
    assert normal is not None
    answer = normal(engine.view(state, "s1"), engine.legal_actions(state, "s1"),
                    random.Random(1))
    assert answer == Accept(version=2)
    engine.play(state, "s1", answer)
    assert {33, 37} <= set(state.alpacas["s0"].neck) and 26 in state.alpacas["s1"].neck


def _after_turns(n: int) -> Callable[[Any, str, list[Any]], bool]:
    """An ``until`` for :func:`_advance`: the (n+1)-th start of a Pacapaca turn."""
    seen = [0]

    def until(state: Any, seat: str, legal: list[Any]) -> bool:
        if state.phase != "turn":
            return False
        seen[0] += 1
        return seen[0] > n

    return until


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (6, 8)])
def test_pacapaca_hard_values_by_kind_are_the_normal_heuristics_floats(players: int,
                                                                        seed: int) -> None:
    """The Hard seat's caches keyed by kind counts give bit-for-bit the floats of
    ``bot.ai.pacapaca`` (the same sums in the same order), so the speed-up changed no
    decision: deal gains for every one-card swap and every searched offer, and what one
    more card of each kind adds, at several points of a seeded game (6 players: babies
    in play)."""
    from bot.ai import pacapaca as normal_ai

    kinds = catalog().kinds
    checked = 0
    for turns in (2, 9, 16):
        state, seat, _ = advance("pacapaca", seed, players, _after_turns(turns))
        view = SPECS["pacapaca"].engine.view(state, seat)
        for partner in state.seats:
            if partner == seat:
                continue
            a, b = view.alpaca(seat), view.alpaca(partner)
            deals: list[tuple[tuple[int, ...], tuple[int, ...]]] = [
                ((g,), (t,)) for g in [*a.neck, *a.babies] for t in [*b.neck, *b.babies]]
            deals += [((g,), ()) for g in a.neck] + [((), (t,)) for t in b.neck]
            deals += [(g, t) for _, g, t in pacapaca_hard.offers(view, seat, partner, -1e9)]
            for give, get in deals:
                assert (pacapaca_values.deal_gains(view, seat, partner, give, get)
                        == normal_ai.deal_gains(view, seat, partner, give, get))
                checked += 1
        mine = tuple(sorted((*view.alpaca(seat).neck, *view.alpaca(seat).babies)))
        others = tuple(sorted(normal_ai.kept_length([*x.neck, *x.babies])
                              for x in view.alpacas if x.seat != seat))
        named = {f"o{i}": n for i, n in enumerate(others)}
        for hope in (0.0, 0.37, 1.0):
            base = normal_ai.evaluate(list(mine), named, hope)
            assert pacapaca_values.alpaca_value(mine, others, hope) == base
            gains = pacapaca_values.kind_gains(mine, others, hope)
            assert gains == tuple(normal_ai.evaluate([*mine, k.first_id], named, hope) - base
                                  for k in kinds)
    assert checked >= 100
