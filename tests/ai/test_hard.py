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
    unleashed_hard,
    unleashed_sample,
    unleashed_views,
)
from bot.ai.search import Budget, SearchGame, ismcts, squash
from bot.games.llamas_alpacas.models import LlamasAlpacasState
from bot.games.pacapaca.models import (
    PacapacaState,
)
from bot.games.unleashed.models import UnleashedState
from tests.support.ai_games import SPECS, advance, same_choice


def test_llamas_alpacas_hard_ignores_the_draw_order() -> None:
    state, seat, legal = advance("llamas-alpacas", 5, 2,
                                  lambda s, _, legal: s.phase == "turn" and len(legal) > 3)
    assert isinstance(state, LlamasAlpacasState)
    other = SPECS["llamas-alpacas"].engine.fork(state)
    other.draw = list(reversed(state.draw))
    assert other.draw != state.draw
    same_choice("llamas-alpacas", llamas_alpacas_hard.hard_policy, state, other, seat)


def test_pacapaca_hard_ignores_deck_pile_and_drawn_cards() -> None:
    # s1 holds two drawn cards (hidden from s0); s0 decides nothing then, so compare a
    # turn of s0 with the deck and the others' pile cards swapped.
    state, seat, legal = advance(
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
    same_choice("pacapaca", pacapaca_hard.hard_policy, state, other, seat)


def test_pacapaca_hard_accept_or_decline_ignores_hidden_cards() -> None:
    state, seat, legal = advance(
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
    pick = same_choice("pacapaca", pacapaca_hard.hard_policy, state, other, "s0")
    assert pick.type in ("accept", "decline", "propose")


def test_unleashed_hard_ignores_other_hands_and_deck() -> None:
    state, seat, legal = advance(
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
    same_choice("llamas-unleashed", unleashed_hard.hard_policy, state, other, seat)


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
    state, seat, legal = advance("llamas-alpacas", 5, 2,
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
    state, seat, legal = advance(key, 21, 3, lambda s, seat, legal: len(legal) >= 3)
    view = engine.view(state, seat)
    picks = {repr(policy(view, legal, random.Random(5))) for _ in range(2)}
    assert len(picks) == 1


def test_unleashed_hard_searches_the_end_of_turn_discard() -> None:
    engine = SPECS["llamas-unleashed"].engine
    state, seat, legal = advance(
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
    state, _, _ = advance("llamas-unleashed", 4, 4,
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
    state, _, _ = advance("llamas-unleashed", 4, 2,
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
    state, seat, legal = advance(
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
    same_choice("llamas-unleashed", unleashed_hard.hard_policy, state, other, seat)


def test_unleashed_chain_sample_refuses_what_it_cannot_rebuild() -> None:
    """No choice, or a choice whose source the view does not name: ``None``."""
    state, seat, legal = advance(
        "llamas-unleashed", 4, 2,
        lambda s, seat, legal: s.phase == "action" and len(legal) >= 3 and not s.stack)
    engine = SPECS["llamas-unleashed"].engine
    view = engine.view(state, seat)
    assert unleashed_sample.chain_sample(view, legal, random.Random(1)) is None
    state, seat, legal = advance(
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
