"""The Hard AI seats: they decide from the seat's view only, every kind of decision goes
through them, and a decision is deterministic for a seed."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.ai import (
    llamas_alpacas_hard,
    pacapaca_hard,
    pacapaca_sample,
    pacapaca_values,
    unleashed_hard,
    unleashed_sample,
    unleashed_views,
)
from bot.ai.search import Budget, SearchGame, ismcts, squash
from bot.app import builtin_games
from bot.games.llamas_alpacas.models import LlamasAlpacasState
from bot.games.pacapaca.cards import catalog, kind_table
from bot.games.pacapaca.models import (
    Accept,
    Alpaca,
    PacapacaState,
    PileCard,
    Propose,
    StartNegotiation,
)
from bot.games.unleashed.models import UnleashedState

SPECS = {s.key: s for s in builtin_games()}


def _advance(key: str, seed: int, players: int, until: Callable[[Any, str, list[Any]], bool],
             ) -> tuple[Any, str, list[Any]]:
    """Play a seeded game with the Normal policy in every seat until ``until(state, seat,
    legal)`` holds for the seat to act; return (state, seat, legal)."""
    spec = SPECS[key]
    engine = spec.engine
    seats = [f"s{i}" for i in range(players)]
    raw = {"players": players} if "players" in spec.options_model.model_fields else {}
    state = engine.new_game(seats, seed=seed, options=spec.options_model.model_validate(raw))
    rand = random.Random(seed)
    for _ in range(2000):
        assert engine.result(state) is None, "the game ended before such a decision"
        seat = next(s for s in engine.pending(state).seats if engine.legal_actions(state, s))
        legal = engine.legal_actions(state, seat)
        if until(state, seat, legal):
            return state, seat, legal
        assert spec.policy is not None
        engine.play(state, seat, spec.policy(engine.view(state, seat), legal, rand))
    raise AssertionError("no such decision in 2000 steps")


def _same_choice(key: str, policy: Callable[..., Any], a: Any, b: Any, seat: str) -> Any:
    """Both states give ``seat`` the same view and legal actions, and the Hard policy the
    same choice with the same seed; returns that choice."""
    engine = SPECS[key].engine
    view_a, view_b = engine.view(a, seat), engine.view(b, seat)
    assert view_a == view_b
    legal = engine.legal_actions(a, seat)
    assert legal == engine.legal_actions(b, seat)
    pick_a = policy(view_a, legal, random.Random(11))
    pick_b = policy(view_b, legal, random.Random(11))
    assert pick_a == pick_b
    assert pick_a in legal
    return pick_a


def test_llamas_alpacas_hard_ignores_the_draw_order() -> None:
    state, seat, legal = _advance("llamas-alpacas", 5, 2,
                                  lambda s, _, legal: s.phase == "turn" and len(legal) > 3)
    assert isinstance(state, LlamasAlpacasState)
    other = SPECS["llamas-alpacas"].engine.fork(state)
    other.draw = list(reversed(state.draw))
    assert other.draw != state.draw
    _same_choice("llamas-alpacas", llamas_alpacas_hard.hard_policy, state, other, seat)


def test_pacapaca_hard_ignores_deck_pile_and_drawn_cards() -> None:
    # s1 holds two drawn cards (hidden from s0); s0 decides nothing then, so compare a
    # turn of s0 with the deck and the others' pile cards swapped.
    state, seat, legal = _advance(
        "pacapaca", 3, 2,
        lambda s, seat, legal: s.phase == "turn" and len(legal) >= 3 and len(s.pile) >= 2
        and any(p.by != seat for p in s.pile))
    assert isinstance(state, PacapacaState)
    other = SPECS["pacapaca"].engine.fork(state)
    theirs = [i for i, p in enumerate(state.pile) if p.by != seat]
    i = theirs[0]
    # a hidden pile card of the opponent trades places with the deck's top card
    other.pile[i] = dataclasses.replace(state.pile[i], card=state.deck[-1])
    other.deck = [*state.deck[:-1], state.pile[i].card]
    other.deck.reverse()
    assert other.deck != state.deck and other.pile != state.pile
    _same_choice("pacapaca", pacapaca_hard.hard_policy, state, other, seat)


def test_pacapaca_hard_accept_or_decline_ignores_hidden_cards() -> None:
    state, seat, legal = _advance(
        "pacapaca", 8, 2,
        lambda s, seat, legal: seat == "s1" and s.phase == "turn"
        and any(a.type == "negotiate" for a in legal) and len(s.alpacas["s0"].neck) >= 2
        and len(s.alpacas["s1"].neck) >= 2)
    assert isinstance(state, PacapacaState)
    engine = SPECS["pacapaca"].engine
    engine.play(state, "s1", next(a for a in legal if a.type == "negotiate"))
    # s1 proposes a one-for-one swap; s0, the partner, must accept or decline
    deal = next(a for a in engine.legal_actions(state, "s1")
                if a.type == "propose" and len(a.give) == 1 and len(a.get) == 1)
    engine.play(state, "s1", deal)
    assert [a.type for a in engine.legal_actions(state, "s0")][:2] == ["accept", "decline"]
    other = engine.fork(state)
    other.deck = list(reversed(state.deck))
    assert other.deck != state.deck
    pick = _same_choice("pacapaca", pacapaca_hard.hard_policy, state, other, "s0")
    assert pick.type in ("accept", "decline", "propose")


def test_unleashed_hard_ignores_other_hands_and_deck() -> None:
    state, seat, legal = _advance(
        "llamas-unleashed", 4, 2,
        lambda s, seat, legal: s.phase == "action" and len(legal) >= 3 and not s.stack)
    assert isinstance(state, UnleashedState)
    engine = SPECS["llamas-unleashed"].engine
    other = engine.fork(state)
    opp = next(s for s in state.seats if s != seat)
    n = len(state.hands[opp])
    mixed = [*state.hands[opp], *state.deck]
    random.Random(1).shuffle(mixed)
    other.hands[opp], other.deck = mixed[:n], mixed[n:]
    assert other.hands[opp] != state.hands[opp]
    _same_choice("llamas-unleashed", unleashed_hard.hard_policy, state, other, seat)


def test_squash_maps_margins_into_zero_one() -> None:
    assert squash(0.0, 6.0) == 0.5
    assert round(squash(6.0, 6.0), 4) == 0.8808
    assert round(squash(-6.0, 6.0), 4) == 0.1192


def test_ismcts_refuses_no_legal_action_and_skips_a_single_candidate() -> None:
    engine = SPECS["llamas-alpacas"].engine
    budget = Budget(iterations=5, depth=2)

    def never(_: random.Random) -> Any:
        raise AssertionError("a single candidate needs no sample")

    with pytest.raises(ValueError, match="no legal action"):
        ismcts(engine, llamas_alpacas_hard.GAME, never, "s0", [], random.Random(1), budget)
    state, seat, legal = _advance("llamas-alpacas", 5, 2,
                                  lambda s, _, legal: s.phase == "turn" and len(legal) > 3)
    assert ismcts(engine, llamas_alpacas_hard.GAME, never, seat, legal, random.Random(1),
                  budget, [legal[2]]) == legal[2]


class _OneStep:
    """A game of one decision: the playout ends after the root action (nobody is
    pending), so every playout of an arm is worth that arm's value."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def fork(self, state: Any) -> Any:
        return dict(state)

    def play(self, state: Any, seat: str, action: Any) -> None:
        state["picked"] = action
        self.played.append(action)

    play_legal = play  # (never reached: nobody decides after the root action)

    def pending(self, state: Any) -> Any:
        return dataclasses.make_dataclass("P", [("seats", list)])([])

    def legal_actions(self, state: Any, seat: str) -> list[Any]:
        return []

    def result(self, state: Any) -> Any:
        return None


@pytest.mark.parametrize(("keep", "margin", "counts", "pick"), [
    (0, 0.0, [4, 4, 4, 4, 4], "c"),
    (1, 0.0, [7, 2, 7, 2, 2], "c"),
    (2, 0.0, [5, 2, 5, 5, 2], "c"),
    (1, 0.5, [7, 2, 7, 2, 2], "a"),
])
def test_paired_search_keeps_the_default_and_the_best_for_the_second_half(
        keep: int, margin: float, counts: list[int], pick: str) -> None:
    """Budget.keep: 20 playouts over 5 arms: 2 rounds over all of them, then the rest
    (10) over the first arm and the ``keep`` best so far; ``margin`` still keeps the first
    arm unless the best beats it by more."""
    values = {"a": 0.5, "b": 0.6, "c": 0.9, "d": 0.7, "e": 0.1}
    engine = _OneStep()
    game = SearchGame(lambda *a: a[2][0], lambda state, me: values[state["picked"]])
    budget = Budget(iterations=20, depth=3, paired=True, margin=margin, keep=keep)
    arms = list("abcde")
    got = ismcts(engine, game, lambda r: {}, "s0", arms, random.Random(1),  # type: ignore[arg-type]
                 budget)
    assert got == pick
    assert [engine.played.count(a) for a in arms] == counts


@pytest.mark.parametrize("key", ["llamas-alpacas", "pacapaca", "llamas-unleashed"])
def test_hard_is_deterministic_for_a_seed(key: str) -> None:
    policies: dict[str, Callable[..., Any]] = {
        "llamas-alpacas": llamas_alpacas_hard.hard_policy,
        "pacapaca": pacapaca_hard.hard_policy,
        "llamas-unleashed": unleashed_hard.hard_policy}
    policy = policies[key]
    engine = SPECS[key].engine
    state, seat, legal = _advance(key, 21, 3, lambda s, seat, legal: len(legal) >= 3)
    view = engine.view(state, seat)
    picks = {repr(policy(view, legal, random.Random(5))) for _ in range(2)}
    assert len(picks) == 1


def test_unleashed_hard_searches_the_end_of_turn_discard() -> None:
    engine = SPECS["llamas-unleashed"].engine
    state, seat, legal = _advance(
        "llamas-unleashed", 10, 2,
        lambda s, seat, legal: s.phase == "end" and s.choice is not None and not s.stack)
    view = engine.view(state, seat)
    assert unleashed_sample.end_discard(view)
    sample = unleashed_sample.determinize(view, legal, random.Random(3))
    assert sample.hands[seat] == state.hands[seat]
    assert engine.legal_actions(sample, seat) == legal
    for action in legal:  # every option plays on the sample as on the real state
        a, b = engine.fork(sample), engine.fork(state)
        engine.play(a, seat, action)
        engine.play(b, seat, action)
        assert a.hands[seat] == b.hands[seat] and a.discard == b.discard
    assert unleashed_hard.hard_policy(view, legal, random.Random(4)) in legal


def test_unleashed_fast_view_is_the_engine_view() -> None:
    """Every seat's view at every step of a seeded 3-player game, built for playouts
    without validation, equals the engine's."""
    spec = SPECS["llamas-unleashed"]
    engine = spec.engine
    seats = ["s0", "s1", "s2"]
    state = engine.new_game(seats, seed=8, options=spec.options_model.model_validate({}))
    rand = random.Random(8)
    steps = 0
    while engine.result(state) is None:
        for s in seats:
            assert unleashed_views.fast_view(state, s).model_dump() == \
                engine.view(state, s).model_dump()
        seat = next(s for s in engine.pending(state).seats if engine.legal_actions(state, s))
        assert spec.policy is not None
        engine.play(state, seat, spec.policy(engine.view(state, seat),
                                             engine.legal_actions(state, seat), rand))
        steps += 1
    assert steps > 50


def test_recent_cache_keeps_what_was_used_since_the_last_rotation() -> None:
    """Size 2: the third entry rotates the young dict to old; reading ``a`` from the old
    dict moves it back; the next rotation drops ``b``, which nobody read."""
    cache = unleashed_views.Recent(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("c", 3)
    assert (cache.young, cache.old) == ({"c": 3}, {"a": 1, "b": 2})
    assert cache.get("a") == 1
    assert (cache.young, cache.old) == ({"c": 3, "a": 1}, {"b": 2})
    cache.put("d", 4)
    assert (cache.young, cache.old, len(cache)) == ({"d": 4}, {"c": 3, "a": 1}, 3)
    assert (cache.get("b"), cache.get("zz")) == (None, None)


def test_unleashed_cached_field_views_share_lists_and_fields_set() -> None:
    """Field views built for playouts share equal lists (the empty Upgrade lists of all
    seats are one list) and one fields set, so each adds only itself and its ``__dict__``
    to what the garbage collector walks; the same Field gives the same view object."""
    spec = SPECS["llamas-unleashed"]
    state = spec.engine.new_game(["s0", "s1", "s2"], seed=8,
                                 options=spec.options_model.model_validate({}))
    fields = unleashed_views.fast_view(state, "s0").fields
    assert [len(fields[s].upgrades) for s in ("s0", "s1", "s2")] == [0, 0, 0]
    assert fields["s0"].upgrades is fields["s1"].upgrades is fields["s2"].downgrades
    assert fields["s0"].shielded_kinds is fields["s1"].shielded_kinds
    assert fields["s0"].model_fields_set is fields["s2"].model_fields_set
    assert unleashed_views.fast_view(state, "s1").fields["s0"] is fields["s0"]


def test_unleashed_leaf_value_from_three_players_is_a_chance_per_seat() -> None:
    """Seed 4, 4 players, turn 10, s0's Action phase with one play left: s3 alone misses
    4 Animals, the others 5; the leaf value is a softmax of the fitted weights over the
    seats (they sum to 1), s0 first for having the turn and the bigger hand."""
    state, _, _ = _advance("llamas-unleashed", 4, 4,
                           lambda s, seat, legal: s.phase == "action" and s.turn >= 10)
    assert isinstance(state, UnleashedState)
    assert (state.turn, state.active, state.plays_left) == (10, "s0", 1)
    feats = unleashed_hard.seat_features(state)
    assert feats["s0"] == [5, 0.0, 0.0, 0.0, 1.2, 0.0, 0, 0, 0.0, 1.0, 0.0, 0.0, 0.0, 1]
    assert feats["s1"] == [5, 0.0, 0.0, 0.0, 0.8, 0.0, 0, 0, 0.0, 0.0, 1.0, 0.0, 0.0, 0]
    assert feats["s3"] == [4, 0.0, 0.0, 0.0, 0.8, 0.0, 0, 0, 0.0, 0.0, 0.0, 1.0, 0.0, 0]
    values = [round(unleashed_hard.evaluate(state, s), 4) for s in state.seats]
    assert values == [0.2743, 0.2415, 0.2219, 0.2624]
    assert round(sum(unleashed_hard.evaluate(state, s) for s in state.seats), 9) == 1.0


def test_unleashed_leaf_value_with_two_players_is_the_herd_margin() -> None:
    """With 2 players the leaf value is the squashed herd-and-hand margin: seed 4, turn
    6, s1 misses 3 Animals and s0 4, hands 5 and 7."""
    state, _, _ = _advance("llamas-unleashed", 4, 2,
                           lambda s, seat, legal: s.phase == "action" and s.turn >= 6)
    assert isinstance(state, UnleashedState)
    assert [len(state.hands[s]) for s in state.seats] == [7, 5]
    assert round(unleashed_hard.evaluate(state, "s0"), 4) == 0.3642
    assert round(unleashed_hard.evaluate(state, "s1"), 4) == 0.6358


def test_unleashed_hard_plays_out_less_at_larger_tables() -> None:
    """Playouts per decision by player count (the 300 ms budget holds at 8 players)."""
    sizes = {n: unleashed_hard.budget_for(n).iterations for n in range(2, 9)}
    assert sizes == {2: 100, 3: 42, 4: 56, 5: 44, 6: 37, 7: 32, 8: 28}
    assert {unleashed_hard.budget_for(n).depth for n in range(3, 9)} == {18}
    assert {unleashed_hard.budget_for(n).margin for n in range(3, 9)} == {0.025}
    assert {unleashed_hard.budget_for(n).keep for n in range(3, 9)} == {1}
    assert unleashed_hard.budget_for(2).keep == 0


def test_unleashed_hard_rebuilds_a_chain_choice_from_its_view_only() -> None:
    """Lasso's steal target (seed 4, turn 6): a sample rebuilt from s0's view asks s0 the
    same question, every answer steals the same card as on the real state, and the choice
    is the same when the other hand and the deck differ."""
    state, seat, legal = _advance(
        "llamas-unleashed", 4, 2,
        lambda s, seat, legal: s.choice is not None
        and s.choice.prompt.startswith("Choose a card to steal (Lasso)"))
    assert isinstance(state, UnleashedState)
    assert (seat, state.turn, len(legal)) == ("s0", 6, 4)
    engine = SPECS["llamas-unleashed"].engine
    view = engine.view(state, seat)
    sample = unleashed_sample.chain_sample(view, legal, random.Random(3))
    assert sample is not None
    assert engine.legal_actions(sample, seat) == legal
    assert engine.view(sample, seat).choice == view.choice
    for action in legal:
        a, b = engine.fork(sample), engine.fork(state)
        engine.play(a, seat, action)
        engine.play(b, seat, action)
        assert a.fields == b.fields
    other = engine.fork(state)
    n = len(state.hands["s1"])
    mixed = [*state.hands["s1"], *state.deck]
    random.Random(2).shuffle(mixed)
    other.hands["s1"], other.deck = mixed[:n], mixed[n:]
    assert other.hands["s1"] != state.hands["s1"]
    _same_choice("llamas-unleashed", unleashed_hard.hard_policy, state, other, seat)


def test_unleashed_chain_sample_refuses_what_it_cannot_rebuild() -> None:
    """No choice, or a choice whose source the view does not name: ``None``."""
    state, seat, legal = _advance(
        "llamas-unleashed", 4, 2,
        lambda s, seat, legal: s.phase == "action" and len(legal) >= 3 and not s.stack)
    engine = SPECS["llamas-unleashed"].engine
    view = engine.view(state, seat)
    assert unleashed_sample.chain_sample(view, legal, random.Random(1)) is None
    state, seat, legal = _advance(
        "llamas-unleashed", 4, 2,
        lambda s, seat, legal: s.choice is not None
        and s.choice.prompt.startswith("Choose a card to steal (Lasso)"))
    view = engine.view(state, seat).model_copy(update={"choice_source": None})
    assert unleashed_sample.chain_sample(view, legal, random.Random(1)) is None


def _sampler(key: str, view: Any, legal: list[Any]) -> Callable[[random.Random], Any] | None:
    if key == "llamas-alpacas":
        return lambda r: llamas_alpacas_hard.determinize(view, r)
    if key == "pacapaca":
        return lambda r: pacapaca_sample.determinize(view, r)
    if any(a.type == "choose" for a in legal) and not unleashed_sample.end_discard(view):
        if unleashed_sample.chain_sample(view, legal, random.Random(0)) is None:
            return None  # a chain it cannot rebuild: answered by the Normal heuristic
        return lambda r: unleashed_sample.chain_sample(view, legal, r)
    return lambda r: unleashed_sample.determinize(view, legal, r)


@pytest.mark.parametrize("key", ["llamas-alpacas", "pacapaca", "llamas-unleashed"])
@pytest.mark.parametrize("players", [2, 4])
def test_samples_offer_the_seat_exactly_its_legal_actions(key: str, players: int) -> None:
    """At every decision of a seeded game, a determinized sample shows the seat the same
    view counts and gives it the same legal actions as the real state."""
    spec = SPECS[key]
    engine = spec.engine
    seats = [f"s{i}" for i in range(players)]
    raw = {"players": players} if "players" in spec.options_model.model_fields else {}
    state = engine.new_game(seats, seed=17, options=spec.options_model.model_validate(raw))
    rand = random.Random(17)
    checked = skipped = 0
    while engine.result(state) is None:
        seat = next(s for s in engine.pending(state).seats if engine.legal_actions(state, s))
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        sample = _sampler(key, view, legal)
        if sample is None:
            skipped += 1
        else:
            fake = sample(random.Random(checked))
            assert engine.legal_actions(fake, seat) == legal, (seat, view.phase)
            assert engine.pending(fake).seats == engine.pending(state).seats
            checked += 1
        assert spec.policy is not None
        engine.play(state, seat, spec.policy(view, legal, rand))
    assert checked > 10
    assert skipped < checked


def _deal_turn() -> tuple[PacapacaState, list[Any]]:
    """A 4-player turn of s0 (seed 4, turn 29) where a Normal partner would accept some
    deals worth more than drawing."""
    def some_offer(s: Any, seat: str, legal: list[Any]) -> bool:
        if seat != "s0" or s.phase != "turn" or s.turn_number < 29:
            return False
        view = SPECS["pacapaca"].engine.view(s, seat)
        return any(pacapaca_hard.offers(view, "s0", a.partner)
                   for a in legal if a.type == "negotiate")

    state, _, legal = _advance("pacapaca", 4, 4, some_offer)
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
    pick = _same_choice("pacapaca", pacapaca_hard.hard_policy, state, other, "s0")
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
    state, seat, legal = _advance(
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
    _same_choice("pacapaca", pacapaca_hard.hard_policy, state, other, seat)


def test_pacapaca_hard_counters_a_deal_with_one_its_normal_partner_accepts() -> None:
    # 4 players, seed 1, turn 21: s1 opened with s0 and offers its 37 for s0's 26; the
    # Hard s0 asks for 33 as well, which a Normal s1 still accepts (it gains more than a
    # third of what s0 gains), and the cards change alpacas.
    def offered(s: Any, seat: str, legal: list[Any]) -> bool:
        n = s.negotiation
        return (seat == "s0" and s.phase == "negotiation" and n is not None
                and n.partner == "s0" and bool(n.active_gives or n.partner_gives))

    state, seat, legal = _advance("pacapaca", 1, 4, offered)
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
        state, seat, _ = _advance("pacapaca", seed, players, _after_turns(turns))
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
