"""The balance figures of ``herdbot simulate llamas-unleashed --stats``: exact values from
hand-made logs, one observed game, and the CLI's table."""

from __future__ import annotations

import pytest

from bot.cli import main
from bot.games.unleashed.models import Pass, Play, Respond
from bot.games.unleashed.stats import GameLog, format_table, summarize
from tests.games.unleashed.unleashed_helpers import E, build, find


def log(first, winners, turns, leaving, played, leaders=(), deck_out=False):
    return GameLog(players=2, first=first, turns=turns, leaving=leaving,
                   played={s: set(k) for s, k in played.items()}, leaders=list(leaders),
                   winners=list(winners), deck_out=deck_out, finished=True)


def test_summarize_exact_figures():
    logs = [
        log("s0", ["s0"], 10, 2, {"s0": ["stampede", "lasso"], "s1": ["stampede"]}, ["s0"]),
        log("s1", ["s0"], 20, 4, {"s0": ["lasso"]}, ["s1"]),
        log("s0", [], 31, 0, {"s1": ["stampede"]}, ["s0", "s1"], deck_out=True),
        GameLog(players=2),  # unfinished: left out of every figure but the count
    ]
    t = summarize(logs)
    assert (t.games, t.finished, t.turns_median) == (4, 3, 20)
    assert t.rounds_mean == pytest.approx(61 / 3 / 2)
    assert t.leaving_mean == 2.0
    assert t.first_seat_wins == pytest.approx(1 / 3)
    assert (t.leader_wins, t.leader_games) == (0.5, 2)  # the tied game has no leader
    assert t.deck_outs == pytest.approx(1 / 3) and t.no_winner == pytest.approx(1 / 3)
    # stampede: 3 seats, 1 win -> 1/3 over 1/2 = 0.67; lasso: 2 seats, 2 wins -> 2.0
    assert t.lift == {"stampede": (3, pytest.approx(2 / 3)), "lasso": (2, 2.0)}
    assert t.top(1, min_seats=1) == [("lasso", 2, 2.0)]
    lines = format_table([t], top=2, min_seats=1).splitlines()
    assert [" ".join(line.split()) for line in lines] == [
        "players 2", "games (finished) 4 (3)", "turns, median 20", "rounds, mean 10.2",
        "cards leaving Fields/game 2.00", "first seat wins % (fair) 33.3 (50.0)",
        "leader after 3 rounds wins % 50.0", "deck-outs % 33.3", "max lift (design) 2.00 lasso",
        "top 2 lift at 2p: lasso 2.00, stampede 0.67"]
    with pytest.raises(ValueError):
        summarize([])


def test_observe_counts_plays_instants_cards_leaving_fields_and_the_winner():
    st = build(2, hands={"s0": ["stampede"], "s1": ["llama_spit"]},
               fields={"s0": ["cria_button"], "s1": ["trail_llama", "sleepy_llama"]})
    g = GameLog(players=2)
    for seat, action in [("s0", Play(card=find(st, "stampede", st.hands["s0"]))),
                         ("s1", Pass())]:
        before = {s: list(v) for s, v in st.fields.items()}
        E.play(st, seat, action)
        g.observe(before, seat, action, st)
    before = {s: list(v) for s, v in st.fields.items()}
    pick = next(a for a in E.legal_actions(st, "s0"))
    E.play(st, "s0", pick)
    g.observe(before, "s0", pick, st)
    assert g.played == {"s0": {"stampede"}} and g.leaving == 1
    assert g.first == "s0" and g.turns == 1 and not g.finished
    g.observe({s: list(v) for s, v in st.fields.items()}, "s1",
              Respond(card=find(st, "llama_spit", st.hands["s1"])), st)
    assert g.played["s1"] == {"llama_spit"}


def test_cli_stats_table(capsys):
    assert main(["simulate", "llamas-unleashed", "--stats", "--games", "4", "--players",
                 "2,3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["players", "2", "3"]
    assert out[1].split()[:3] == ["games", "(finished)", "4"]
    assert [line.split("  ")[0] for line in out[2:9]] == [
        "turns, median", "rounds, mean", "cards leaving Fields/game",
        "first seat wins % (fair)", "leader after 3 rounds wins %", "deck-outs %",
        "max lift (design)"]
    assert out[9].startswith("top 5 lift at 2p: ")
    assert main(["simulate", "llamas-unleashed", "--vs-random", "--games", "2",
                 "--players", "2"]) == 0
    assert capsys.readouterr().out.startswith("2 players: the AI (seat 1) wins ")
    assert main(["simulate", "llamas-unleashed", "--stats", "--players", "9"]) == 2
