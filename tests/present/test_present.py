"""The presenter layer (bot/present): decision keys, codes, decoding a click, and the two
converted games' models, all pure (no Discord)."""

from __future__ import annotations

import random

import pytest

from bot.games.base import IllegalAction
from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.games.llamas_alpacas.models import Keep, Move, Place, Take
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import Accept, Decline, Draw2, GiveUp, Propose, StartNegotiation
from bot.present import base as present
from bot.present.base import Choice, Seen, Select
from bot.present.llamas_alpacas import LlamasAlpacasPresenter
from bot.present.pacapaca import PacapacaPresenter

LA = LlamasAlpacasEngine()
NAMES = {"s0": "Maya", "s1": "Tomasz", "s2": "Ana"}


def seen(engine, state, seat):
    legal_of = {s: legal for s in state.seats if (legal := engine.legal_actions(state, s))}
    return Seen(seat, engine.view(state, None), engine.pending(state), legal_of.get(seat, []),
                [], NAMES, NAMES, legal_of)


def play(engine, state, seat, action):
    return engine.apply(state, seat, action)[0]


def test_codes_round_trip_and_fit_discords_100_characters():
    key = "0123456789"
    assert present.action_code(key, 12) == "a.0123456789.12"
    assert present.parse_code("a.0123456789.12") == ("a", key, "12")
    assert present.parse_code(present.select_code(key)) == ("s", key, "")
    assert present.parse_code(present.panel_code(key, "mf4")) == ("o", key, "mf4")
    for bad in ("a.0123456789.x", "a.0123456789", "s.0123456789.1", "a.012345678.1",
                "tk.1", "o.0123456789.", "a.0123456789.1.2"):
        assert present.parse_code(bad) is None, bad
    with pytest.raises(ValueError):
        present.panel_code(key, "no spaces")
    # The longest id: an 18-digit game id and a 4-digit index.
    longest = f"hb:g:{'9' * 18}:x:{present.action_code(key, 9999)}"
    assert len(longest) == 43
    with pytest.raises(present.ForgedChoice):
        present.index_of("\u00b2")
    with pytest.raises(present.ForgedChoice):
        present.index_of("10000")


def test_set_up_keys_are_equal_for_every_player_still_placing():
    state = LA.new_game(["s0", "s1"], seed=1)
    keys = [present.decision_key(LA.pending(state), LA.legal_actions(state, s)) for s in state.seats]
    assert keys[0] == keys[1] and len(keys[0]) == 10
    # Maya's placement leaves Tomasz's key (and so the table's buttons) as they were.
    after = play(LA, state, "s0", Place(space=0))
    assert present.decision_key(LA.pending(after), LA.legal_actions(after, "s1")) == keys[0]
    assert present.decode(LA, after, "s1", keys[0], 8) == Place(space=8)
    # Maya pressing again gets her own refusal from the engine.
    action = present.decode(LA, after, "s0", keys[0], 3)
    assert action == Place(space=3)
    with pytest.raises(IllegalAction) as info:
        LA.apply(after, "s0", action)
    assert info.value.message == "You have already placed your starting card."


def test_decode_refuses_stale_keys_and_forged_indexes():
    state = play(LA, play(LA, LA.new_game(["s0", "s1"], seed=1), "s0", Place(space=4)),
                 "s1", Place(space=4))
    active = state.seats[state.active]
    legal = LA.legal_actions(state, active)
    key = present.decision_key(LA.pending(state), legal)
    assert present.decode(LA, state, active, key, 0) == legal[0] == Take(position=1)
    with pytest.raises(present.ForgedChoice):
        present.decode(LA, state, active, key, len(legal))
    after = play(LA, state, active, Take(position=1))  # a step of the same turn
    with pytest.raises(present.StaleChoice):
        present.decode(LA, after, active, key, 0)
    other = next(s for s in state.seats if s != active)
    assert present.seat_for(LA, state, other, key) == active
    err = present.refusal(LA, state, other, legal[0])
    assert err.code == "not_your_turn" and err.message == f"It is {active}'s turn."


def test_llamas_alpacas_turn_model_binds_takes_and_the_move_panels():
    state = play(LA, play(LA, LA.new_game(["s0", "s1"], seed=1), "s0", Place(space=4)),
                 "s1", Place(space=4))
    active = state.seats[state.active]
    model = LlamasAlpacasPresenter().table(seen(LA, state, active))
    legal = LA.legal_actions(state, active)
    takes = [c for c in model.items if isinstance(c, Choice) and c.label.startswith("Take")]
    assert [c.label for c in takes][:1] == ["Take 1 (free)"]
    for c in takes:
        assert c.disabled == (c.index is None)
        if c.index is not None:
            assert legal[c.index] == Take(position=int(c.label.split()[1]))
    move = model.items[-1]
    assert (move.label, move.opens, move.disabled) == ("Move a card", "mv", False)
    assert sorted(model.panels) == ["mf4", "mv"]
    index = legal.index(Move(src=4, dst=0))
    assert model.panel_path(index) == ["mv", "mf4"]
    dest = next(c for c in model.panels["mf4"].items if c.index == index)
    assert dest.label == "1 · free" and dest.says.startswith("Moving ")
    assert model.panels["mf4"].items[-1] == Choice("Back", opens="mv", style="secondary", row=3)
    assert present.first_index(model, "mv") == legal.index(Move(src=4, dst=0))


def test_llamas_alpacas_keep_select_lists_the_engines_splits():
    presenter = LlamasAlpacasPresenter()
    rand = random.Random(5)  # random legal moves until someone holds more than 10 treats
    state = LA.new_game(["s0", "s1"], seed=1)
    while state.phase != "keep_treats":
        if state.phase == "finished":
            state = LA.new_game(["s0", "s1"], seed=rand.randrange(1000))
        seat = LA.pending(state).seats[0]
        state = play(LA, state, seat, rand.choice(LA.legal_actions(state, seat)))
    active = state.seats[state.active]
    model = presenter.table(seen(LA, state, active))
    [select] = model.items
    assert isinstance(select, Select) and select.placeholder == "Which 10 treats do you keep?"
    legal = LA.legal_actions(state, active)
    assert [legal[o.index] for o in select.options] == [a for a in legal if isinstance(a, Keep)]
    assert all(o.label.startswith("Keep ") for o in select.options)


def test_pacapaca_negotiation_answers_are_bound_to_the_negotiator_who_may_give_them():
    pp = PacapacaEngine()
    state = pp.new_game(["s0", "s1"], seed=3)
    for _ in range(60):
        seat = state.seats[state.active]
        legal = pp.legal_actions(state, seat)
        if any(isinstance(a, StartNegotiation) for a in legal):
            break
        state = play(pp, state, seat, next(a for a in legal if isinstance(a, Draw2)) if
                     state.phase == "turn" else legal[0])
    active = state.seats[state.active]
    partner = next(s for s in state.seats if s != active)
    turn = PacapacaPresenter().table(seen(pp, state, active))
    assert [c.label for c in turn.items][2] == "Negotiate"
    [picker] = turn.panels["neg"].items
    assert [o.label for o in picker.options] == [NAMES[partner]]
    state = play(pp, state, active, StartNegotiation(partner=partner))
    give = pp.deal_space(state, active)[0]  # one card moves
    assert isinstance(give, Propose) and len(give.give) + len(give.get) == 1
    state = play(pp, state, active, give)
    model = PacapacaPresenter().table(seen(pp, state, pp.pending(state).seats[0]))
    accept, decline, give_up = model.items
    assert (accept.label, decline.label, give_up.label) == ("Accept deal v1", "Decline", "Give up")
    assert pp.legal_actions(state, accept.seat)[accept.index] == Accept(version=1)
    assert decline.seat == partner
    assert pp.legal_actions(state, partner)[decline.index] == Decline()
    assert give_up.seat == active
    assert pp.legal_actions(state, active)[give_up.index] == GiveUp()
    # The active player pressing Decline gets the engine's words.
    key = present.decision_key(pp.pending(state), pp.legal_actions(state, partner))
    action = present.decode(pp, state, active, key, decline.index)
    assert present.refusal(pp, state, active, action).message == (
        "Only the invited player declines; you can give up.")


def test_a_set_up_pick_drawn_before_another_seats_pick_plays_by_its_fingerprint():
    from bot.games.unleashed.engine import UnleashedEngine
    from bot.games.unleashed.models import ChooseBaby

    engine = UnleashedEngine()
    state = engine.new_game(["s0", "s1", "s2"], seed=5)
    pending = engine.pending(state)
    legal = engine.legal_actions(state, "s1")
    key, prints = present.decision_key(pending, legal), present.repick_prints(pending, legal)
    assert len(prints) == len(legal) and all(len(p) == 6 for p in prints)
    value = present.choice_value(3, prints)
    assert value == f"3-{prints[3]}" and present.index_of(value) == 3
    after = play(engine, state, "s0", legal[1])  # s0 takes the first Baby (0 is "for me")
    with pytest.raises(present.StaleChoice):  # the index alone is out of date
        present.decode(engine, after, "s1", key, 3)
    assert present.decode(engine, after, "s1", key, 3, present.print_of(value)) == legal[3]
    with pytest.raises(present.StaleChoice):  # the Baby s0 took
        present.decode(engine, after, "s1", key, 1, prints[1])
    assert present.decode(engine, after, "s1", key, 0, prints[0]) == ChooseBaby(card=None)
    with pytest.raises(present.StaleChoice):  # a forged fingerprint names nothing
        present.decode(engine, after, "s1", key, 3, "abcdef")
    with pytest.raises(present.StaleChoice):  # s0 has picked: its old menu is spent
        present.decode(engine, after, "s0", key, 3, prints[3])
    assert isinstance(legal[3], ChooseBaby)


def test_only_set_up_decisions_carry_fingerprints():
    state = play(LA, play(LA, LA.new_game(["s0", "s1"], seed=1), "s0", Place(space=4)),
                 "s1", Place(space=4))
    active = state.seats[state.active]
    assert present.repick_prints(LA.pending(state), LA.legal_actions(state, active)) == ()
    assert present.choice_value(2) == "2"
    with pytest.raises(present.ForgedChoice):
        present.index_of("2-xyz")


def test_a_shared_accept_drawn_before_the_other_negotiator_accepted_plays_by_its_fingerprint():
    """Pacapaca's Accept is coded with the active player's key: once the active player
    accepted, that key is stale, and the partner's press still plays Accept by its
    fingerprint; the active player's second press is spent."""
    pp = PacapacaEngine()
    state = pp.new_game(["s0", "s1"], seed=3)
    for _ in range(60):
        seat = state.seats[state.active]
        legal = pp.legal_actions(state, seat)
        if any(isinstance(a, StartNegotiation) for a in legal):
            break
        state = play(pp, state, seat, next(a for a in legal if isinstance(a, Draw2)) if
                     state.phase == "turn" else legal[0])
    active = state.seats[state.active]
    partner = next(s for s in state.seats if s != active)
    state = play(pp, state, active, StartNegotiation(partner=partner))
    state = play(pp, state, active, pp.deal_space(state, active)[0])
    pending = pp.pending(state)
    legal_of = {s: pp.legal_actions(state, s) for s in state.seats}
    assert present.simultaneous(pending, legal_of)
    legal = legal_of[active]
    key, prints = present.decision_key(pending, legal), present.repick_prints(pending, legal, True)
    index = legal.index(Accept(version=1))
    value = present.choice_value(index, prints)
    assert value == f"{index}-{prints[index]}" and len(prints) == len(legal)
    after = play(pp, state, active, Accept(version=1))
    with pytest.raises(present.StaleChoice):  # the index alone is out of date
        present.decode(pp, after, partner, key, index)
    assert present.decode(pp, after, partner, key, index, prints[index]) == Accept(version=1)
    with pytest.raises(present.StaleChoice):  # the active player has accepted: spent
        present.decode(pp, after, active, key, index, prints[index])
    # A new deal is a new Accept: the old one names nothing.
    again = play(pp, after, partner, pp.deal_space(after, partner)[0])
    with pytest.raises(present.StaleChoice):
        present.decode(pp, again, partner, key, index, prints[index])


def test_a_turn_is_decided_by_one_seat_and_its_choices_carry_no_fingerprints():
    state = play(LA, play(LA, LA.new_game(["s0", "s1"], seed=1), "s0", Place(space=4)),
                 "s1", Place(space=4))
    legal_of = {s: LA.legal_actions(state, s) for s in state.seats}
    assert not present.simultaneous(LA.pending(state), legal_of)
    active = state.seats[state.active]
    assert present.repick_prints(LA.pending(state), legal_of[active], False) == ()
    assert not present.still_deciding(LA, state, state.seats[1 - state.active])
    assert not present.still_deciding(LA, state, active)
    fresh = LA.new_game(["s0", "s1"], seed=1)
    assert present.still_deciding(LA, fresh, "s1")
    assert not present.still_deciding(LA, play(LA, fresh, "s1", Place(space=0)), "s1")
