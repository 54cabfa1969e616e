"""Hints: the Normal AI's move for a seat's view and why (bot.ai.<game>.weigh, put into
words by bot.present.hints through each game's ``spec.hint``).

For seeded positions of each game the hinted move is legal and is the Normal AI's choice
for that view with the same random generator; two worlds that differ only in cards the
player cannot see give the same hint and the same words.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.ai import llamas_alpacas as la_ai
from bot.ai import pacapaca as pp_ai
from bot.ai import unleashed as ul_ai
from bot.ai.weighed import Weighed
from bot.app import builtin_games
from bot.games.llamas_alpacas.cards import cards_by_id
from bot.games.llamas_alpacas.models import Place, Take
from bot.games.pacapaca.models import Propose, StartNegotiation
from bot.present import hints
from bot.present.llamas_alpacas_words import line_conditions, lines_conditions

GAMES = builtin_games()
AI = {"llamas-alpacas": la_ai, "pacapaca": pp_ai, "llamas-unleashed": ul_ai}


def positions(key: str, seed: int, players: int, steps: int):
    """Up to ``steps`` positions of a game played by the Normal AI from ``seed``:
    ``(state, seat)`` for each seat that must decide."""
    spec = GAMES[key]
    engine = spec.engine
    assert spec.policy is not None
    state = engine.new_game([f"s{i}" for i in range(players)], seed=seed,
                            options=spec.options_model.model_validate({}))
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        if engine.result(state) is not None:
            break
        seats = engine.pending(state).seats
        seat = next((s for s in seats if engine.legal_actions(state, s)), None)
        if seat is None:
            break
        out.append((engine.fork(state), seat))
        legal = engine.legal_actions(state, seat)
        action = spec.policy(engine.view(state, seat), legal, rng)
        state, _ = engine.apply(state, seat, action)
    return out


#: Positions checked and the reasons met, per game and player count (seeds 3 and 8).
SEEN = {
    ("llamas-alpacas", 2): (116, {"place", "start", "take"}),
    ("llamas-alpacas", 4): (180, {"place", "start", "take"}),
    ("pacapaca", 3): (77, {"draw", "keep", "only", "pass", "pile"}),
    ("llamas-unleashed", 3): (180, {
        "activate", "ambush", "animal", "attack", "attack_pressing", "baby", "branch", "bring",
        "counter", "counter_same", "discard_least", "downgrade_leader", "hurt_leader",
        "let_pass", "magic", "move_good", "move_other", "move_their_upgrade", "no", "pick",
        "sacrifice_least", "threat", "upgrade", "yes"}),
}


@pytest.mark.parametrize("key,players", list(SEEN))
def test_hinted_move_is_legal_and_the_normal_ai_s_choice(key, players):
    spec = GAMES[key]
    engine = spec.engine
    seen: set[str] = set()
    checked = 0
    for seed in (3, 8):
        for state, seat in positions(key, seed, players, 90):
            view = engine.view(state, seat)
            legal = engine.legal_actions(state, seat)
            w = AI[key].weigh(view, legal, random.Random(seed))
            assert w.action in legal
            assert w.action == spec.policy(view, legal, random.Random(seed))
            text = spec.hint(view, legal, random.Random(seed))
            assert text == getattr(hints, key.replace("-", "_").replace("llamas_unleashed",
                                                                          "unleashed"))(w)
            assert text.endswith(".") and 20 < len(text) < 450, text
            seen.add(w.reason)
            checked += 1
    assert (checked, seen) == SEEN[key, players]


def test_llamas_alpacas_hint_names_the_line_it_completes():
    spec = GAMES["llamas-alpacas"]
    engine = spec.engine
    for state, seat in positions("llamas-alpacas", 3, 2, 200):
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        w = la_ai.weigh(view, legal, random.Random(0))
        if w.reason == "take" and w.facts["points"] > 0:
            break
    else:
        raise AssertionError("no scoring take")
    card = w.facts["card"].short()
    lines = lines_conditions(w.facts["lines"])
    assert all(set(line) == {"animal", "colour", "white_as", "digits"} for line in w.facts["lines"])
    assert spec.hint(view, legal, random.Random(0)).startswith(
        f"Take card {w.action.position} (**{card}**) and place it on space "
        f"{w.facts['space'] + 1}: it completes a line ({lines}) for {w.facts['points']} points")


#: The data of a line whose only met condition is yellow (a fact of ``la_ai.weigh``).
YELLOW = {"animal": None, "colour": "yellow", "white_as": False, "digits": None}


def test_hint_texts_for_fixed_reasons():
    card = next(c for c in cards_by_id().values()
                if (c.animal, c.colour, c.digit) == ("llama", "yellow", 2))
    w = Weighed(Take(position=3), "take", {"card": card, "space": 4, "points": 6,
                                           "lines": [YELLOW], "others_points": 2,
                                           "position": 3, "treats": 0})
    assert hints.llamas_alpacas(w) == (
        "Take card 3 (**Llama yellow 2**) and place it on space 5: it completes a line "
        "(all yellow) for 6 points, more than any other move.")
    w = Weighed(Place(space=0), "place", {"card": card, "space": 0, "points": 0, "lines": [],
                                          "others_points": 0})
    assert hints.llamas_alpacas(w) == (
        "Place **Llama yellow 2** on space 1: it scores nothing yet, but it leaves your board "
        "the most promising (lines one card from scoring count most, full lines that score "
        "nothing count against it).")
    assert hints.not_yours(["s1"]) == (
        "A hint shows the move for the player who has to decide, and that is s1, not you. "
        "Press Hint again when it is your move.")


def test_pacapaca_negotiation_hints():
    """Seeds 3 and 8, 3 players: every fourth position of a turn, a negotiation opened with
    each partner and three of the active player's proposals on the table; the hint of
    each negotiator."""
    spec = GAMES["pacapaca"]
    engine = spec.engine
    seen: dict[str, int] = {}
    texts: dict[str, str] = {}
    for seed in (3, 8):
        for state, seat in positions("pacapaca", seed, 3, 60)[4::4]:
            if state.phase != "turn":
                continue
            for start in [a for a in engine.legal_actions(state, seat)
                          if isinstance(a, StartNegotiation)]:
                opened, _ = engine.apply(state, seat, start)
                props = [a for a in engine.legal_actions(opened, seat) if isinstance(a, Propose)]
                for k in (0, len(props) // 2, len(props) - 1):
                    st, _ = engine.apply(opened, seat, props[k])
                    for who in (start.partner, seat):
                        legal = engine.legal_actions(st, who)
                        view = engine.view(st, who)
                        w = pp_ai.weigh(view, legal, random.Random(1))
                        assert w.action in legal
                        assert w.action == spec.policy(view, legal, random.Random(1))
                        seen[w.reason] = seen.get(w.reason, 0) + 1
                        texts.setdefault(w.reason, spec.hint(view, legal, random.Random(1)))
    assert seen == {"decline": 40, "accept": 37, "give_up": 40, "propose": 3}
    assert texts["propose"] == (
        "Propose giving **Bell charm** for **Leaf charm**: of the deals s0 should accept, it "
        "helps you most (about 2.5 projected points ahead of them).")
    assert texts["decline"] == ("Decline: the deal costs you about 4.2 projected points "
                                "against 4.2 for s2; it helps them more than you.")
    assert texts["accept"] == ("Accept: the deal gains you about 4.2 projected points "
                               "against -4.2 for s0.")


# -- two worlds that differ only in hidden cards -------------------------------------------


def _same_hint(key: str, state, other, seat: str) -> str:
    spec = GAMES[key]
    engine = spec.engine
    assert spec.hint is not None
    view, view2 = engine.view(state, seat), engine.view(other, seat)
    assert view == view2
    legal = engine.legal_actions(state, seat)
    text = spec.hint(view, legal, random.Random(1))
    assert text == spec.hint(view2, engine.legal_actions(other, seat), random.Random(1))
    assert AI[key].weigh(view, legal, random.Random(1)).action == \
        AI[key].weigh(view2, engine.legal_actions(other, seat), random.Random(1)).action
    return text


def test_unleashed_hint_ignores_other_hands_and_the_deck():
    key = "llamas-unleashed"
    engine = GAMES[key].engine
    done = 0
    for state, seat in positions(key, 5, 3, 60)[10::7]:
        other = engine.fork(state)
        rival = next(s for s in other.seats if s != seat and other.hands[s])
        # Swap a rival's hand with the top of the deck, and reverse the deck.
        n = len(other.hands[rival])
        other.hands[rival], other.deck = list(other.deck[-n:]), other.deck[:-n] + other.hands[rival]
        other.deck.reverse()
        assert other.hands[rival] != state.hands[rival]
        _same_hint(key, state, other, seat)
        done += 1
    assert done >= 5


def test_pacapaca_hint_ignores_the_deck_order_and_others_discards():
    key = "pacapaca"
    engine = GAMES[key].engine
    done = 0
    for state, seat in positions(key, 4, 3, 60)[5::6]:
        other = engine.fork(state)
        other.deck = list(reversed(other.deck))
        theirs = [i for i, p in enumerate(other.pile) if p.by != seat]
        if theirs and other.deck:  # another player's face-down discard swapped with the deck's
            i = theirs[0]
            other.deck[0], other.pile[i] = other.pile[i].card, dataclasses.replace(
                other.pile[i], card=other.deck[0])
        if other.deck == state.deck:
            continue
        _same_hint(key, state, other, seat)
        done += 1
    assert done >= 4


def test_llamas_alpacas_hint_ignores_the_draw_order():
    key = "llamas-alpacas"
    engine = GAMES[key].engine
    done = 0
    for state, seat in positions(key, 6, 3, 40)[4::5]:
        other = engine.fork(state)
        other.draw = list(reversed(other.draw))
        assert other.draw != state.draw
        _same_hint(key, state, other, seat)
        done += 1
    assert done >= 4


def test_hints_in_the_members_language():
    card = next(c for c in cards_by_id().values()
                if (c.animal, c.colour, c.digit) == ("llama", "yellow", 2))
    w = Weighed(Take(position=3), "take", {"card": card, "space": 4, "points": 6,
                                           "lines": [YELLOW], "others_points": 2,
                                           "position": 3, "treats": 2})
    assert hints.llamas_alpacas(w, "de") == (
        "Nimm Karte 3 (**Lama gelb 2**) und lege sie auf Feld 5: Das vervollständigt eine "
        "Linie (alle gelb) für 6 Punkte, mehr als jeder andere Zug. Du nimmst auch die 2 "
        "Leckerlis mit, die darauf liegen.")
    assert hints.llamas_alpacas(dataclasses.replace(w, facts={**w.facts, "points": 5}), "pl"
                                ).startswith("Weź kartę 3 (**Lama żółta 2**) i połóż ją na polu "
                                             "5: to zamyka linię (wszystkie żółte) za 5 punktów, ")
    assert hints.not_yours(["s1", "s2", "s3"], "fr") == (
        "Un conseil montre le coup des joueurs qui doivent décider, et ce sont s1, s2 et s3, "
        "pas toi. Appuie de nouveau sur Conseil quand ce sera ton tour.")
    assert hints.hints_off("es") == (
        "Las pistas están desactivadas en esta partida (la opción Pistas de la sala).")
    accept = Weighed(None, "accept", {"gain": 4.25, "partner_gain": -4.2, "partner": "s0"})
    assert hints.pacapaca(accept, "de") == (
        "Annehmen: Das Angebot bringt dir etwa 4,2 erwartete Punkte, gegenüber -4,2 für s0.")
    assert hints.pacapaca(accept) == (
        "Accept: the deal gains you about 4.2 projected points against -4.2 for s0.")
    pressing = Weighed(None, "attack_pressing", {"card": "Spit", "field": "s1", "me": "s0",
                                                 "lead": "s1", "left": 2})
    assert hints.unleashed(pressing, "pl") == (
        "Zagraj kartę **Spit** na Pastwisko gracza s1: s1 potrzebuje do wygranej jeszcze "
        "tylko 2 Zwierząt, więc odebranie temu graczowi jednego jest ważniejsze niż budowa "
        "własnego stada.")
    assert hints.unleashed(pressing) == (
        "Play **Spit** into s1's Field: s1 needs only 2 more Animals to win, so taking one away "
        "comes before building your own herd.")
    spec = GAMES["llamas-alpacas"]
    state, seat = positions("llamas-alpacas", 3, 2, 1)[0]
    view, legal = spec.engine.view(state, seat), spec.engine.legal_actions(state, seat)
    assert spec.hint(view, legal, random.Random(0), lang="en_XA") != spec.hint(
        view, legal, random.Random(0))


def test_line_conditions_are_worded_by_the_presenter_from_the_ai_s_data():
    three = {"animal": "alpaca", "colour": "red", "white_as": False, "digits": [2, 2, 2]}
    white = {"animal": None, "colour": "red", "white_as": True, "digits": None}
    run = {"animal": "llama", "colour": None, "white_as": False, "digits": [1, 2, 3]}
    assert line_conditions(three) == "three alpacas, all red and 2-2-2"
    assert line_conditions(white) == "all red (white counts as red)"
    assert line_conditions(run, "de") == "drei Lamas und 1-2-3"
    assert line_conditions(three, "de") == "drei Alpakas, alle rot und 2-2-2"
    assert line_conditions(white, "fr") == "toutes rouges (le blanc compte comme rouge)"
    assert line_conditions({"animal": None, "colour": "white", "white_as": False,
                            "digits": None}, "es") == "todas blancas"
    assert lines_conditions([run, YELLOW], "pt_BR") == "três lhamas e 1-2-3; todas amarelas"
    assert line_conditions({"animal": None, "colour": None, "white_as": False,
                            "digits": None}, "pl") == "nic nie pasuje"
