"""Engine rules with exact values (rulebook "Set Up" and "Play"; RULES.md: Alpaca Pacapaca)."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.games.base import SYSTEM_SEAT, IllegalAction
from bot.games.pacapaca.cards import catalog
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import (
    Accept,
    Decline,
    DiscardView,
    Draw2,
    GiveUp,
    Keep,
    NegotiationTimeout,
    PacapacaOptions,
    Pass,
    PileCard,
    Propose,
    StartNegotiation,
    TakePile,
)
from tests.games.pacapaca.pacapaca_helpers import c, cards_in, state

E = PacapacaEngine()


def seats(n):
    return [f"s{i}" for i in range(n)]


def refused(s, seat, action, code):
    before = s.model_dump_json()
    with pytest.raises(IllegalAction) as info:
        E.apply(s, seat, action)
    assert info.value.code == code
    assert info.value.message
    assert s.model_dump_json() == before


# -- set-up ----------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "size"), [(2, 20), (3, 30), (4, 40), (5, 50), (6, 60)])
def test_deck_size_by_player_count(n, size):
    s = E.new_game(seats(n), seed=7)
    assert len(s.deck) == size == s.pool_size
    assert len(set(s.deck)) == size


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_deck_holds_the_primary_set_and_no_babies_by_default(n):
    s = E.new_game(seats(n), seed=n)
    assert set(catalog().primary_ids()) <= set(s.deck)
    assert not set(catalog().baby_ids) & set(s.deck)
    assert s.babies is False


def test_babies_option_adds_babies_to_the_random_pool():
    found = Counter()
    for seed in range(40):
        s = E.new_game(seats(5), seed=seed, options=PacapacaOptions(babies=True))
        assert len(s.deck) == 50 and s.babies
        found.update(c_ for c_ in s.deck if c_ in catalog().baby_ids)
    assert set(found) == set(catalog().baby_ids)


def test_six_players_use_every_card_and_always_babies():
    s = E.new_game(seats(6), seed=3, options=PacapacaOptions(babies=False))
    assert sorted(s.deck) == list(range(60))
    assert s.babies is True


def test_heads_and_bodies_distinct_designs_and_empty_necks():
    s = E.new_game(seats(6), seed=11)
    assert sorted(a.head for a in s.alpacas.values()) == list(range(100, 106))
    assert sorted(a.body for a in s.alpacas.values()) == list(range(200, 206))
    assert all(a.neck == [] and a.babies == [] for a in s.alpacas.values())


@pytest.mark.parametrize("n", [1, 7])
def test_player_count_out_of_range(n):
    with pytest.raises(ValueError):
        E.new_game(seats(n), seed=1)


def test_options_player_count_must_match_and_is_validated():
    with pytest.raises(ValueError):
        E.new_game(seats(3), seed=1, options=PacapacaOptions(players=4))
    with pytest.raises(ValueError):
        PacapacaOptions(players=7)


def test_same_seed_same_game():
    assert E.new_game(seats(4), seed=5) == E.new_game(seats(4), seed=5)
    assert E.new_game(seats(4), seed=5).deck != E.new_game(seats(4), seed=6).deck


def test_first_turn_actions():
    s = E.new_game(seats(3), seed=2)
    active = s.seats[s.active]
    # empty pile and no card to trade anywhere: only A
    assert E.legal_actions(s, active) == [Draw2()]
    other = next(p for p in s.seats if p != active)
    assert E.legal_actions(s, other) == []
    refused(s, other, Draw2(), "not_your_turn")


# -- A: draw 2, keep 1 -----------------------------------------------------------------


def test_draw_two_keep_one_other_face_down():
    s = state({"a": [], "b": []}, deck=[c("neck", 0), c("mud", 0), c("scarf_top", 0)])
    s2, ev = E.apply(s, "a", Draw2())
    assert s2.drawn == [c("scarf_top", 0), c("mud", 0)] and s2.phase == "drawn"
    assert s2.version == s.version + 1 and s.phase == "turn"  # input untouched
    private = [e for e in ev if e.to]
    assert private[0].to == ["a"] and private[0].data["cards"] == s2.drawn
    assert all(e.data.get("cards") is None for e in ev if e.to is None)
    assert E.legal_actions(s2, "a") == [Keep(card=c("scarf_top", 0)), Keep(card=c("mud", 0))]
    refused(s2, "a", TakePile(), "keep_first")
    refused(s2, "a", Keep(card=c("neck", 0)), "not_drawn")
    s3, ev = E.apply(s2, "a", Keep(card=c("scarf_top", 0)))
    assert s3.alpacas["a"].neck == [c("scarf_top", 0)]
    # the public moment of the discard: the card added with it, the deck size, the table
    assert s3.pile == [PileCard(card=c("mud", 0), by="a", kept=c("scarf_top", 0), deck=1,
                                alpacas=((), ()))]
    assert s3.seats[s3.active] == "b" and s3.turn_number == 2 and s3.phase == "turn"
    assert s3.deck == [c("neck", 0)]


def test_one_card_left_is_drawn_and_added():
    s = state({"a": [], "b": []}, deck=[c("pendant_star")])
    s2, ev = E.apply(s, "a", Draw2())
    assert s2.alpacas["a"].neck == [c("pendant_star")]
    assert s2.pile == [] and s2.deck == [] and s2.phase == "turn"
    assert [e.type for e in ev][:2] == ["drew_last", "final_round"]


def test_kept_baby_stands_beside_the_parent():
    s = state({"a": [], "b": []}, deck=[c("neck"), c("baby_female")])
    s, _ = E.apply(s, "a", Draw2())
    s, _ = E.apply(s, "a", Keep(card=c("baby_female")))
    assert s.alpacas["a"].babies == [c("baby_female")] and s.alpacas["a"].neck == []


# -- B: take the pile ------------------------------------------------------------------


def test_take_pile_adds_all_cards():
    s = state({"a": [c("neck")], "b": []})
    s.pile = [
        PileCard(card=c("mud"), by="b"),
        PileCard(card=c("baby_male"), by="a"),
        PileCard(card=c("ribbon_left"), by="b"),
    ]
    s2, ev = E.apply(s, "a", TakePile())
    assert s2.alpacas["a"].neck == [c("neck"), c("mud"), c("ribbon_left")]
    assert s2.alpacas["a"].babies == [c("baby_male")]
    assert s2.pile == [] and s2.seats[s2.active] == "b"
    assert ev[0].type == "took_pile" and ev[0].data["cards"] == [
        c("mud"),
        c("baby_male"),
        c("ribbon_left"),
    ]


def test_take_empty_pile_refused():
    s = state({"a": [], "b": []})
    assert TakePile() not in E.legal_actions(s, "a")
    refused(s, "a", TakePile(), "pile_empty")


# -- C: negotiation ---------------------------------------------------------------------


def neg_state():
    s = state(
        {
            "a": [c("mud", 0), c("ribbon_left", 0)],
            "b": [c("ribbon_right", 0), c("neck", 0)],
            "x": [],
        }
    )
    s, ev = E.apply(s, "a", StartNegotiation(partner="b"))
    assert ev[0].type == "negotiation_started" and ev[0].data["seconds"] == 60
    return s


def test_negotiation_pending_and_timeout_contract():
    s = neg_state()
    p = E.pending(s)
    assert p.kind == "negotiation" and p.seconds == 60 and p.key == "neg:1"
    assert p.seats == ["a"]
    assert [t.model_dump() for t in p.timeouts] == [
        {"seat": SYSTEM_SEAT, "action": {"type": "negotiation_timeout"}}
    ]
    assert E.legal_actions(s, SYSTEM_SEAT) == [NegotiationTimeout()]
    s2, _ = E.apply(s, "a", Propose(give=[c("mud", 0)], get=[c("ribbon_right", 0)]))
    p2 = E.pending(s2)
    assert p2.key == "neg:1" and p2.seats == ["a", "b"]
    s3, _ = E.apply(s2, "a", Accept(version=1))
    assert E.pending(s3).seats == ["b"] and E.pending(s3).key == "neg:1"


def test_both_accept_same_version_executes_trade_and_ends_turn():
    s = neg_state()
    s, _ = E.apply(s, "a", Propose(give=[c("mud", 0)], get=[c("ribbon_right", 0)]))
    assert s.negotiation.deal_version == 1
    s, _ = E.apply(s, "b", Accept(version=1))
    assert s.phase == "negotiation"
    s, ev = E.apply(s, "a", Accept(version=1))
    assert s.alpacas["a"].neck == [c("ribbon_left", 0), c("ribbon_right", 0)]
    assert s.alpacas["b"].neck == [c("neck", 0), c("mud", 0)]
    assert s.phase == "turn" and s.seats[s.active] == "b" and s.negotiation is None
    assert "traded" in [e.type for e in ev]


def test_partner_proposal_is_from_the_partners_side():
    s = neg_state()
    s, _ = E.apply(s, "b", Propose(give=[c("neck", 0)], get=[]))
    assert s.negotiation.partner_gives == [c("neck", 0)] and s.negotiation.active_gives == []
    s, _ = E.apply(s, "a", Accept(version=1))
    s, _ = E.apply(s, "b", Accept(version=1))
    assert c("neck", 0) in s.alpacas["a"].neck and s.alpacas["b"].neck == [c("ribbon_right", 0)]


def test_reproposal_resets_acceptance_and_old_version_is_refused():
    s = neg_state()
    s, _ = E.apply(s, "a", Propose(give=[c("mud", 0)], get=[c("neck", 0)]))
    s, _ = E.apply(s, "b", Accept(version=1))
    s, _ = E.apply(s, "a", Propose(give=[c("mud", 0)], get=[c("ribbon_right", 0)]))
    assert s.negotiation.accepted == [] and s.negotiation.deal_version == 2
    refused(s, "b", Accept(version=1), "stale_deal")
    s, _ = E.apply(s, "a", Accept(version=2))
    refused(s, "a", Accept(version=2), "already_accepted")
    assert s.phase == "negotiation"


def test_a_zero_for_two_deal():
    s = neg_state()
    s, _ = E.apply(s, "a", Propose(give=[], get=[c("ribbon_right", 0), c("neck", 0)]))
    s, _ = E.apply(s, "a", Accept(version=1))
    s, _ = E.apply(s, "b", Accept(version=1))
    assert s.alpacas["b"].neck == [] and len(s.alpacas["a"].neck) == 4


def test_babies_can_be_traded():
    s = state({"a": [c("neck")], "b": []}, babies={"b": [c("baby_male")]})
    s, _ = E.apply(s, "a", StartNegotiation(partner="b"))
    s, _ = E.apply(s, "b", Propose(give=[c("baby_male")], get=[c("neck")]))
    s, _ = E.apply(s, "a", Accept(version=1))
    s, _ = E.apply(s, "b", Accept(version=1))
    assert s.alpacas["a"].babies == [c("baby_male")] and s.alpacas["b"].neck == [c("neck")]


def test_decline_clears_the_deal_and_talks_go_on():
    s = neg_state()
    s, _ = E.apply(s, "a", Propose(give=[c("mud", 0)], get=[c("neck", 0)]))
    refused(s, "a", Decline(), "not_partner")
    s, ev = E.apply(s, "b", Decline())
    assert s.phase == "negotiation" and s.negotiation.deal_version == 2
    assert s.negotiation.active_gives == [] == s.negotiation.partner_gives
    assert ev[0].type == "declined"
    refused(s, "b", Accept(version=2), "empty_deal")


def test_bad_deals_refused_in_words():
    s = neg_state()
    refused(s, "a", Propose(give=[c("neck", 0)], get=[]), "not_your_card")
    refused(s, "a", Propose(give=[], get=[c("mud", 0)]), "not_their_card")
    refused(s, "a", Propose(give=[100], get=[]), "head_or_body")
    refused(s, "a", Propose(give=[], get=[201]), "head_or_body")
    refused(s, "a", Propose(give=[c("mud", 0), c("mud", 0)], get=[]), "duplicate_card")
    refused(s, "a", Propose(give=[], get=[]), "empty_deal")
    refused(s, "x", Propose(give=[], get=[c("neck", 0)]), "not_negotiating")
    refused(s, "a", Draw2(), "negotiating")
    refused(s, "b", GiveUp(), "not_active")
    refused(s, "a", NegotiationTimeout(), "system_only")


def test_bad_partners_refused():
    s = state({"a": [c("neck")], "b": []})
    refused(s, "a", StartNegotiation(partner="a"), "self_partner")
    refused(s, "a", StartNegotiation(partner="zz"), "bad_partner")
    empty = state({"a": [], "b": []})
    refused(empty, "a", StartNegotiation(partner="b"), "nothing_to_trade")


def test_proposal_cap_keeps_negotiations_finite():
    s = neg_state()
    cap = catalog().negotiation.max_proposals
    for i in range(cap):
        seat = "a" if i % 2 == 0 else "b"
        give = [c("mud", 0)] if seat == "a" else [c("neck", 0)]
        s, _ = E.apply(s, seat, Propose(give=give, get=[]))
    refused(s, "a", Propose(give=[c("mud", 0)], get=[]), "too_many_proposals")
    assert not any(isinstance(x, Propose) for x in E.legal_actions(s, "b"))


@pytest.mark.parametrize(("seat", "action"), [("a", GiveUp()), (SYSTEM_SEAT, NegotiationTimeout())])
def test_failed_negotiation_must_draw_or_take_never_negotiate_again(seat, action):
    s = neg_state()
    s.pile = [PileCard(card=c("mud", 1), by="x")]
    s, ev = E.apply(s, seat, action)
    assert s.phase == "turn" and s.negotiated and s.seats[s.active] == "a"
    assert ev[0].type == "negotiation_failed"
    assert E.legal_actions(s, "a") == [Draw2(), TakePile()]
    refused(s, "a", StartNegotiation(partner="b"), "already_negotiated")
    assert E.pending(s).key == "turn:1:after"
    s, _ = E.apply(s, "a", TakePile())
    # the next player may negotiate again
    assert StartNegotiation(partner="a") in E.legal_actions(s, "b")


def test_no_timeout_outside_negotiation():
    s = state({"a": [], "b": []})
    assert E.legal_actions(s, SYSTEM_SEAT) == []
    refused(s, SYSTEM_SEAT, NegotiationTimeout(), "no_negotiation")


# -- final round -----------------------------------------------------------------------


def test_final_round_everyone_incl_emptier_one_more_turn_from_next_player():
    s = state({"a": [], "b": [], "x": []}, deck=[c("neck", 0), c("neck", 1)], active=1)
    s, _ = E.apply(s, "b", Draw2())
    s, ev = E.apply(s, "b", Keep(card=c("neck", 0)))
    assert s.deck == [] and s.final_turns_left == 3 and "final_round" in [e.type for e in ev]
    order = []
    while s.phase != "finished":
        p = s.seats[s.active]
        order.append(p)
        acts = E.legal_actions(s, p)
        act = TakePile() if TakePile() in acts else Pass()
        s, _ = E.apply(s, p, act)
    assert order == ["x", "a", "b"]
    assert s.alpacas["x"].neck == [c("neck", 1)]  # x took the pile
    assert E.result(s) is not None


def test_pass_only_when_deck_and_pile_empty():
    s = state({"a": [], "b": []}, deck=[])
    s.final_turns_left = 2
    assert E.legal_actions(s, "a") == [Pass()]
    s2 = state({"a": [], "b": []})
    refused(s2, "a", Pass(), "must_act")


def test_game_over_refuses_everything_and_result_shares_ties():
    s = state({"a": [c("neck", 0)], "b": [c("neck", 1)]}, deck=[])
    s.final_turns_left = 1
    s, ev = E.apply(s, "a", Pass())
    assert s.phase == "finished"
    res = E.result(s)
    assert res.scores == {"a": 3, "b": 3} and res.winners == ["a", "b"]
    assert ev[-1].type == "game_over"
    assert E.pending(s).seats == [] and E.legal_actions(s, "b") == []
    refused(s, "b", Pass(), "game_over")


def test_result_breakdown_and_final_view_mark_removed():
    neck_a = [c("scarf_top"), c("scarf_bottom"), c("ribbon_left")]
    s = state({"a": neck_a, "b": [c("mud")]}, babies={"a": [c("baby_male")]}, deck=[])
    s.phase = "finished"
    res = E.result(s)
    assert [(x.label, x.points) for x in res.breakdown["a"]] == [
        ("Neck 2 long, longest", 4),
        ("Scarves x1 (2 cards)", 4),
        ("Baby boy x1", 3),
    ]
    assert res.scores == {"a": 11, "b": 1} and res.winners == ["a"]
    v = E.view(s, None)
    fa = v.final.alpacas[0]
    assert fa.removed == [c("ribbon_left")] and fa.scarves == [[c("scarf_top"), c("scarf_bottom")]]
    assert fa.total == 11 and v.final.winners == ["a"]
    assert E.result(state({"a": [], "b": []})) is None


# -- views ------------------------------------------------------------------------------


def test_views_hide_deck_drawn_and_others_discards():
    deck = [c("neck", 1), c("pendant_bell"), c("neck", 0), c("mud", 0), c("scarf_top", 0)]
    s = state({"a": [], "b": []}, deck=deck)
    s.pile = [PileCard(card=c("ribbon_left"), by="b")]
    s, _ = E.apply(s, "a", Draw2())
    s, _ = E.apply(s, "a", Keep(card=c("mud", 0)))
    s, _ = E.apply(s, "b", Draw2())
    va, vb, vs = E.view(s, "a"), E.view(s, "b"), E.view(s, None)
    assert va.my_discards == [c("scarf_top", 0)]
    assert vb.my_discards == [c("ribbon_left")] and vs.my_discards == []
    assert vb.drawn == [c("neck", 0), c("pendant_bell")]
    assert va.drawn == [] and vs.drawn == [] and va.drawn_count == vb.drawn_count == 2
    assert va.pile_size == 2 and va.deck_size == 1
    assert "deck" not in va.model_dump()
    assert cards_in(va.model_dump()) == {c("mud", 0), c("scarf_top", 0)}
    assert cards_in(vs.model_dump()) == {c("mud", 0)}


def test_views_show_the_public_moment_of_every_discard_but_not_the_card():
    # the pile's old card has no recorded moment; a's discard has one: what a added with
    # it (a mud), the deck size after the draw and both alpacas before the add
    deck = [c("neck", 1), c("pendant_bell"), c("neck", 0), c("mud", 0), c("scarf_top", 0)]
    s = state({"a": [c("pendant_star")], "b": [c("neck", 2)]}, deck=deck)
    s.pile = [PileCard(card=c("ribbon_left"), by="b")]
    s, _ = E.apply(s, "a", Draw2())
    s, _ = E.apply(s, "a", Keep(card=c("mud", 0)))
    old = DiscardView(by="b", kept=None, deck_size=0, before=[])
    new = DiscardView(by="a", kept=c("mud", 0), deck_size=3,
                      before=[[c("pendant_star")], [c("neck", 2)]])
    for viewer in ("a", "b", None):
        v = E.view(s, viewer)
        assert v.discards == [old, new]
    assert "card" not in E.view(s, "b").model_dump()["discards"][1]
    assert cards_in(E.view(s, "b").model_dump()) == {c("pendant_star"), c("neck", 2),
                                                     c("mud", 0), c("ribbon_left")}
    s, _ = E.apply(s, "b", TakePile())
    assert E.view(s, "a").discards == [] and E.view(s, "a").pile_size == 0


def test_parse_action_refuses_unknown_shapes():
    assert E.parse_action({"type": "keep", "card": 3}) == Keep(card=3)
    assert E.parse_action('{"type": "accept", "version": 2}') == Accept(version=2)
    for bad in ({"type": "steal"}, {"type": "keep"}, "not json"):
        with pytest.raises(IllegalAction) as info:
            E.parse_action(bad)
        assert info.value.code == "bad_action"


def test_a_deal_names_sets_of_cards_in_any_order():
    s = neg_state()
    big = Propose(give=[c("mud", 0), c("ribbon_left", 0)], get=[c("neck", 0)])
    canonical = Propose(give=[c("ribbon_left", 0), c("mud", 0)], get=[c("neck", 0)])
    assert big not in E.legal_actions(s, "a") and canonical in E.legal_actions(s, "a")
    assert big in E.deal_space(s, "a") and E.deal_space(s, "a").deal(big.give, big.get) == canonical
    assert E.is_legal(s, "a", big)
    assert not E.is_legal(s, "a", Propose(give=[c("neck", 0)], get=[]))
    s2, _ = E.apply(s, "a", big)
    assert s2.negotiation.active_gives == [c("mud", 0), c("ribbon_left", 0)]


def test_a_small_deal_space_is_listed_whole_in_index_order():
    s = neg_state()
    props = [a for a in E.legal_actions(s, "b") if isinstance(a, Propose)]
    # b holds neck (0) and ribbon_right (24); a holds ribbon_left (20) and mud (44):
    # 4 cards, 2**4 - 1 deals, deal i = bit mask i + 1 over (0, 24, 20, 44)
    space = E.deal_space(s, "b")
    assert (space.give, space.get) == ((0, 24), (20, 44))
    assert len(props) == len(space) == 15
    assert props == list(space)
    assert [(p.give, p.get) for p in props[:5]] == [
        ([0], []), ([24], []), ([0, 24], []), ([], [20]), ([0], [20])
    ]
    assert props[-1] == Propose(give=[0, 24], get=[20, 44])
    assert space.index(Propose(give=[24, 0], get=[44])) == 10
    assert space[10] == Propose(give=[0, 24], get=[44])


def test_pending_keys_through_a_turn():
    s = state({"a": [], "b": []}, deck=[c("neck", i) for i in range(4)])
    assert E.pending(s).model_dump() == {
        "seats": ["a"],
        "kind": "turn",
        "key": "turn:1",
        "seconds": None,
        "timeouts": [],
    }
    s, _ = E.apply(s, "a", Draw2())
    assert E.pending(s).key == "turn:1" and E.pending(s).seats == ["a"]
    s, _ = E.apply(s, "a", Keep(card=s.drawn[0]))
    assert E.pending(s).key == "turn:2" and E.pending(s).seats == ["b"]


def test_public_negotiation_view():
    s = neg_state()
    s, _ = E.apply(s, "b", Propose(give=[c("neck", 0)], get=[c("mud", 0)]))
    v = E.view(s, "x")
    assert v.negotiation.model_dump() == {
        "active": "a",
        "partner": "b",
        "active_gives": [c("mud", 0)],
        "partner_gives": [c("neck", 0)],
        "deal_version": 1,
        "accepted": [],
        "proposals": 1,
        "proposals_left": catalog().negotiation.max_proposals - 1,
        "proposed_by": "b",
        "deadline_seconds": 60,
    }
