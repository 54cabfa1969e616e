"""Engine fuzzing: random legal and illegal action sequences for the three real engines of
``builtin_games()``.

Each playout follows random legal moves to the end (or a step cap). Along the way it fires
illegal attempts at the engine and asserts that each raises :class:`IllegalAction` and
leaves the state unchanged (``model_dump`` before == after):

- random dicts through ``engine.parse_action``: mutated legal actions (fields dropped,
  added, retyped, out of range, another action's ``type``) and junk; a dict that parses
  into an action the engine does not call legal must be refused by ``apply``;
- real actions by the wrong seat: another seat's legal action played by a seat for which
  it is not legal (other players, ``SYSTEM_SEAT``, an unknown seat);
- stale choices: actions legal in an earlier state that are not legal any more.

"Legal" is ``engine.is_legal`` (``action in legal_actions`` by default; Alpaca Pacapaca
lists representative proposals and accepts any valid deal, its docstring says so).

Every refusal is checked on both paths, ``apply`` and the in-place ``play`` (same code,
state unchanged), and every legal move played with ``play`` on a ``fork`` gives the state
``apply`` returned. Every legal move conserves the cards (each game's own zones, counted as in the engines'
property tests) and bumps ``version`` by one. Default: a few playouts per game (hypothesis
picks seeds and player counts); ``HERDBOT_FUZZ_FULL=1``: 10,000 playouts per game.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import builtin_games
from bot.games.base import SYSTEM_SEAT, Action, IllegalAction, State
from bot.games.registry import GameSpec
from tests.faults.common import FULL
from tests.games.pacapaca.pacapaca_helpers import all_cards as pacapaca_cards

SPECS = {spec.key: spec for spec in builtin_games()}
PLAYOUTS = 10_000 if FULL else 6
STEP_CAP = 3000

# -- card conservation, per game (the zones of each engine's state) ----------------------


def _cards_llamas(s: Any) -> Counter[Any]:
    """Every card id and every treat (rulebook: 82 cards, 6 treats per player)."""
    out = Counter(s.draw) + Counter(s.discard) + Counter(r.card for r in s.row)
    for p in s.players:
        out.update(c for c in p.board if c is not None)
        if p.start_card is not None:
            out[p.start_card] += 1
    if s.held is not None:
        out[s.held] += 1
    treats = sum(p.clovers + p.carrots for p in s.players)
    out["treats"] = treats + sum(r.clovers + r.carrots for r in s.row)
    return out


def _cards_unleashed(s: Any) -> Counter[Any]:
    """Deck, discard, nursery, the stack, hands and fields (128 cards)."""
    out = Counter(s.deck + s.discard + s.nursery + [i.card for i in s.stack])
    for seat in s.seats:
        out.update(s.hands[seat] + s.fields[seat])
    return out


CONSERVED = {"llamas-alpacas": _cards_llamas, "pacapaca": pacapaca_cards,
             "llamas-unleashed": _cards_unleashed}
EXPECTED_TOTAL = {"llamas-alpacas": lambda n: 82, "pacapaca": None, "llamas-unleashed": lambda n: 128}


def test_every_builtin_engine_is_fuzzed():
    assert set(SPECS) == set(CONSERVED)


# -- illegal attempts ------------------------------------------------------------------


def _action_types(spec: GameSpec) -> list[str]:
    schema = spec.engine.action_adapter.json_schema()
    mapping = (schema.get("discriminator") or {}).get("mapping") or {}
    return sorted(mapping)


JUNK: list[Any] = [None, -1, 0, 1, 7, 99, -(2**63), 2**64, 1.5, "", "s0", "p0", "zz", "x" * 300,
                   [], [0], [1, 1, 1], [-5, 10**9], {}, {"a": 1}, True, False]


def _mutants(r: random.Random, legal: list[Action], types: list[str]) -> list[Any]:
    """Random dicts (and non-dicts) derived from the legal actions and the action types."""
    out: list[Any] = []
    for _ in range(4):
        base = r.choice(legal).model_dump(mode="json") if legal else {"type": r.choice(types)}
        d = dict(base)
        op = r.randrange(6)
        keys = [k for k in d if k != "type"]
        if op == 0 and keys:
            d.pop(r.choice(keys))
        elif op == 1:
            d[r.choice(["extra", "card", "seat", "n", "position"])] = r.choice(JUNK)
        elif op == 2 and keys:
            d[r.choice(keys)] = r.choice(JUNK)
        elif op == 3:
            d["type"] = r.choice(types)
        elif op == 4:
            d["type"] = r.choice(["", "TAKE", "take ", "pass;", None, 3, "wait", "add"])
        elif keys:
            k = r.choice(keys)
            if isinstance(d[k], int) and not isinstance(d[k], bool):
                d[k] = d[k] + r.choice([-100, -1, 1, 1000, 2**40])
            elif isinstance(d[k], list):
                d[k] = d[k] + [r.randint(-3, 200)]
        out.append(d)
    out.append(r.choice([None, 5, "take", [], "{", '{"type": 1}', {"type": None}]))
    return out


def _assert_refused(spec: GameSpec, state: State, seat: str, action: Action) -> None:
    before = state.model_dump()
    with pytest.raises(IllegalAction) as info:
        spec.engine.apply(state, seat, action)
    assert info.value.code and info.value.message
    assert state.model_dump() == before, "a refused action changed the state"
    # The playout path refuses it the same way and leaves its (own) state unchanged too.
    mine = spec.engine.fork(state)
    with pytest.raises(IllegalAction) as again:
        spec.engine.play(mine, seat, action)
    assert again.value.code == info.value.code
    assert mine.model_dump() == before, "a refused play changed the state"


def _illegal_attempts(spec: GameSpec, state: State, r: random.Random, seats: list[str],
                      stale: list[Action], types: list[str]) -> int:
    """Fire illegal attempts at ``state``; return how many were checked."""
    engine = spec.engine
    pend = engine.pending(state)
    checked = 0
    legal_of = {s: engine.legal_actions(state, s) for s in [*seats, SYSTEM_SEAT, "zz"]}
    # Random dicts through parse_action.
    seat = r.choice(pend.seats) if pend.seats else r.choice(seats)
    for raw in _mutants(r, legal_of[seat], types):
        try:
            action = engine.parse_action(raw)  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert exc.code == "bad_action"
            checked += 1
            continue
        if not engine.is_legal(state, seat, action):
            assert action not in legal_of[seat]
            _assert_refused(spec, state, seat, action)
            checked += 1
    # Real actions by the wrong seat.
    movers = [s for s in pend.seats if legal_of[s]]
    if movers:
        mover = r.choice(movers)
        action = r.choice(legal_of[mover])
        for other in [*seats, SYSTEM_SEAT, "zz"]:
            if not engine.is_legal(state, other, action):
                _assert_refused(spec, state, other, action)
                checked += 1
    # Stale choices: legal earlier, not now.
    for action in r.sample(stale, min(3, len(stale))):
        if not engine.is_legal(state, seat, action):
            assert action not in legal_of[seat]
            _assert_refused(spec, state, seat, action)
            checked += 1
    return checked


def playout(spec: GameSpec, players: int, seed: int, policy_seed: int, *,
            illegal_every: int = 1) -> tuple[State, int, int]:
    """One random playout with illegal attempts every ``illegal_every`` steps; returns the
    final state, the number of legal moves and of illegal attempts checked."""
    engine = spec.engine
    r = random.Random(policy_seed)
    seats = [f"s{i}" for i in range(players)]
    fields = spec.options_model.model_fields
    opts: dict[str, Any] = {"players": players} if "players" in fields else {}
    if "babies" in fields:
        opts["babies"] = r.random() < 0.5 or players == 6
    if "open_windows" in fields:
        opts["open_windows"] = r.random() < 0.5
    state = engine.new_game(seats, seed=seed, options=spec.options_model.model_validate(opts))
    count = CONSERVED[spec.key]
    start = count(state)
    total = EXPECTED_TOTAL[spec.key]
    if total is not None:
        assert sum(v for k, v in start.items() if k != "treats") == total(players)
    types = _action_types(spec)
    stale: list[Action] = []
    moves = attempts = 0
    for step in range(STEP_CAP):
        if engine.result(state) is not None:
            break
        pend = engine.pending(state)
        assert pend.seats, "a running game always waits for someone"
        if step % illegal_every == 0:
            attempts += _illegal_attempts(spec, state, r, seats, stale, types)
        seat = r.choice(pend.seats)
        legal = engine.legal_actions(state, seat)
        assert legal, "a pending seat always has an action"
        action = r.choice(legal)
        before = state.model_dump()
        new, _events = engine.apply(state, seat, action)
        assert state.model_dump() == before, "apply mutated its input"
        played = engine.fork(state)
        engine.play(played, seat, action)
        assert played.model_dump() == new.model_dump(), "play and apply disagree"
        assert state.model_dump() == before, "play on a fork changed the original"
        assert new.version == state.version + 1
        assert count(new) == start, f"cards not conserved after {action!r}"
        stale = (stale + r.sample(legal, min(2, len(legal))))[-40:]
        state = new
        moves += 1
    return state, moves, attempts


@pytest.mark.parametrize("key", sorted(CONSERVED))
@settings(max_examples=PLAYOUTS, deadline=None, derandomize=not FULL,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_legal_and_illegal_sequences(key, data):
    spec = SPECS[key]
    players = data.draw(st.integers(spec.min_players, spec.max_players), label="players")
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    policy_seed = data.draw(st.integers(0, 2**31 - 1), label="policy_seed")
    state, moves, attempts = playout(spec, players, seed, policy_seed,
                                     illegal_every=7 if FULL else 2)
    assert moves > 0 and attempts > 0
    if spec.engine.result(state) is None:
        assert moves == STEP_CAP  # only a capped playout may stop unfinished
