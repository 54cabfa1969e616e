"""Llamas & Alpacas thread lines and card names in the game's language."""

from bot.games.base import Event, Result
from bot.games.llamas_alpacas.cards import cards_by_id
from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.games.llamas_alpacas.spec import RULES_SUMMARY
from bot.i18n import translate
from bot.present.llamas_alpacas import LlamasAlpacasPresenter
from bot.present.llamas_alpacas_words import card_short, event_line

NAMES = {"s0": "Maya", "s1": "Tomasz"}


def _card(animal: str, colour: str, digit: int | None) -> int:
    return next(c.id for c in cards_by_id().values()
                if (c.animal, c.colour, c.digit) == (animal, colour, digit))


def test_thread_lines_in_the_games_language():
    took = Event(type="took", text="s0 takes card 2, ...", data={
        "seat": "s0", "card": _card("alpaca", "blue", 3), "position": 2, "paid": [[0, 1]],
        "picked_up": [2, 0]})
    assert event_line(took, NAMES, "en") == (
        "Maya takes card 2, an alpaca with a blue bandana and a 3, paying 1 carrot, picking "
        "up 2 clovers.")
    assert event_line(took, NAMES, "de") == (
        "Maya nimmt Karte 2, ein Alpaka mit blauem Halstuch und einer 3, zahlt 1 Karotte und "
        "bekommt 2 Klee.")
    placed = Event(type="placed", text="s1 places ...", data={
        "seat": "s1", "card": _card("llama", "red", 2), "space": 5})
    assert event_line(placed, NAMES, "fr") == (
        "Tomasz pose un lama à casquette rouge et un 2 en ligne 2, colonne 3.")
    scored = Event(type="scored", text="s0 scores 6 points. ...", data={
        "seat": "s0", "points": 6, "lines": [{"name": "Row 1", "points": 4},
                                             {"name": "Column 3", "points": 2}]})
    assert event_line(scored, NAMES, "pl") == (
        "Maya zdobywa 6 punktów (Wiersz 1: 4 punkty; Kolumna 3: 2 punkty); karty z "
        "punktujących linii trafiają na stos odrzuconych.")
    turn = Event(type="turn", text="It is s1's turn.", data={"seat": "s1"})
    assert event_line(turn, NAMES, "de") == "Tomasz ist am Zug."


def test_card_labels_and_winner_in_the_games_language():
    star = cards_by_id()[_card("alpaca", "white", None)]
    assert card_short(star, "en") == "Alpaca white ★"
    assert card_short(star, "es") == "Alpaca blanca ★"
    result = Result(scores={"s0": 20, "s1": 12}, winners=["s0"], reason="s0 wins with 20 points.")
    assert LlamasAlpacasPresenter().final_head(result, NAMES, lang="de") == (
        "**Maya gewinnt: 20 Punkte.**")
    assert LlamasAlpacasPresenter().final_head(result, NAMES) == "**Maya wins with 20 points.**"


def test_the_last_line_names_the_winner_in_the_games_language():
    over = Event(type="game_over", text="s0 wins with 20 points.",
                 data={"winners": ["s0"], "scores": {"s0": 20, "s1": 12}})
    assert event_line(over, NAMES, "fr") == "Maya gagne avec 20 points."
    shared = Event(type="game_over", text="Shared victory ...",
                   data={"winners": ["s0", "s1"], "scores": {"s0": 19, "s1": 19}})
    assert event_line(shared, NAMES, "en") == "Shared victory for Maya and Tomasz with 19 points each."


def test_rules_in_the_members_language():
    presenter = LlamasAlpacasPresenter()
    assert presenter.rules(RULES_SUMMARY) == RULES_SUMMARY
    assert presenter.rules(RULES_SUMMARY, lang="de").startswith(
        "**Llamas & Alpacas** – bilde auf deinem 3x3-Brett Linien aus drei passenden Tieren.\n\n"
        "**Start:** Alle haben 3 Klee, 3 Karotten und eine Startkarte")


def test_turn_and_timeout_lines_fit_any_name():
    """No French elision before a name (\"de Ana\"), no Polish gender for the seat."""
    assert translate("fr", "It is {name}'s turn.", name="Ana") == "C'est à Ana de jouer."
    assert translate("pl", "Time ran out for {seat}: the AI played their turn.", seat="Ana") == (
        "Skończył się czas gracza Ana: SI wykonała ruch za tego gracza.")


def _lines_view(*lines: list[int]):
    """A view of a new game of ``len(lines)`` seats whose players met these lines
    (scored lines per number of conditions met: 1, 2, 3)."""
    engine = LlamasAlpacasEngine()
    view = engine.view(engine.new_game([f"s{i}" for i in range(len(lines))], seed=1), None)
    players = [p.model_copy(update={"lines": list(met)}) for p, met in zip(view.players, lines, strict=True)]
    return view.model_copy(update={"players": players})


def test_the_best_line_says_who_had_it_and_how_many():
    names = {"s0": "Maya", "s1": "Tomasz", "s2": "Ana"}
    result = Result(scores={"s0": 1, "s1": 1, "s2": 1}, winners=["s0"], reason="")
    hl = LlamasAlpacasPresenter().highlight
    assert hl(_lines_view([0, 0, 0], [0, 0, 0], [0, 0, 0]), result, names) == (
        "No line met a condition.")
    one = _lines_view([2, 1, 0], [0, 0, 0], [1, 0, 0])
    assert hl(one, result, names) == "Best line: Maya had 1 line meeting 2 conditions."
    assert hl(one, result, names, lang="de") == (
        "Beste Linie: Maya hatte 1 Linie mit 2 Bedingungen.")
    several = _lines_view([0, 0, 1], [0, 0, 1], [0, 0, 1])
    assert hl(several, result, names) == (
        "Best line: Maya, Tomasz and Ana each had 1 line meeting 3 conditions.")
    assert hl(several, result, names, lang="pl") == (
        "Najlepsza linia: Maya, Tomasz i Ana – każdy z nich ma 1 linię spełniającą 3 warunki.")
    most = _lines_view([0, 0, 2], [0, 0, 1], [0, 0, 0])
    assert hl(most, result, names) == "Best lines: Maya had 2 lines meeting 3 conditions."
    assert hl(most, result, names, lang="fr") == (
        "Meilleures lignes : Maya a eu 2 lignes remplissant 3 conditions.")
    tied = _lines_view([0, 0, 2], [0, 0, 2], [0, 0, 1])
    assert hl(tied, result, names) == (
        "Best lines: Maya and Tomasz each had 2 lines meeting 3 conditions.")
    assert hl(tied, result, names, lang="pl") == (
        "Najlepsze linie: Maya i Tomasz – każdy z nich ma 2 linie spełniające 3 warunki.")
    assert hl(tied, result, names, lang="de") == (
        "Beste Linien: Maya und Tomasz hatten je 2 Linien mit 3 Bedingungen.")
    assert hl(tied, result, names, lang="es") == (
        "Mejores líneas: Maya y Tomasz tuvieron cada uno 2 líneas que cumplen 3 condiciones.")
    five = _lines_view([0, 5, 0], [0, 0, 0], [0, 0, 0])
    assert hl(five, result, names, lang="pl") == (
        "Najlepsze linie: Maya ma 5 linii spełniających 2 warunki.")
