"""Llamas Unleashed's words in other languages (exact values): the turn text, the thread's
event lines, the effect chain's questions and options, the final lines, the hand in words
and /rules; English unchanged."""

from __future__ import annotations

from bot.games.base import Event, Pending, Result
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.engine import UnleashedEngine
from bot.games.unleashed.models import ChoiceOption, ChoiceView
from bot.games.unleashed.spec import RULES_SUMMARY
from bot.i18n import catalog as i18n_catalog
from bot.present.unleashed import UnleashedPresenter, _baby_items
from bot.present.unleashed_words import (
    ASK,
    EVENT_WORDS,
    RULES,
    event_line,
    option_words,
    prompt_words,
    rules_summary,
)
from tests.games.unleashed.unleashed_helpers import build

UL = UnleashedPresenter()
NAMES = {"s0": "Ana", "s1": "Bo", "s2": "Cy"}


LASSO = catalog().ids_of("lasso")[0]


def test_event_lines_in_german_and_polish():
    lasso = LASSO
    play = Event(type="play", text="s0 plays Lasso into s1's Field.",
                 data={"seat": "s0", "card": lasso, "field": "s1"})
    assert event_line("de", play, NAMES) == "Ana spielt Lasso auf die Weide von Bo."
    assert event_line("pl", play, NAMES) == "Ana zagrywa kartę Lasso na Pastwisko gracza Bo."
    assert event_line("en", play, NAMES) == "Ana plays Lasso into Bo's Field."
    draw = Event(type="draw", text="s1 draws 3 cards.", data={"seat": "s1", "n": 3})
    assert event_line("pl", draw, NAMES) == "Bo dobiera 3 karty."
    assert event_line("de", draw, NAMES) == "Bo zieht 3 Karten."
    one = Event(type="draw", text="s1 draws a card.", data={"seat": "s1", "n": 1})
    assert event_line("fr", one, NAMES) == "Bo pioche une carte."
    assert event_line("en", one, NAMES) == "Bo draws a card."
    herd = Event(type="activate", text="s2 uses the Ram Herd Bonus.",
                 data={"seat": "s2", "source": "herd:ram"})
    assert event_line("de", herd, NAMES) == "Cy nutzt: Widder-Herdenbonus."
    assert event_line("en", herd, NAMES) == "Cy uses the Ram Herd Bonus."
    won = Event(type="game_over", text="s0 wins. s0 has 7 Animals.",
                data={"winners": ["s0"], "count": 7})
    assert event_line("es", won, NAMES) == "Ana gana con 7 Animales."
    # An event stored before its data was kept: the engine's English, names put in.
    old = Event(type="countered", text="s1's Llama Spit cancels Lasso.",
                data={"seat": "s1", "card": lasso, "taken": False})
    assert event_line("de", old, NAMES) == "Bo's Llama Spit cancels Lasso."
    assert set(EVENT_WORDS) >= {"play", "respond", "countered", "ambush", "destroyed",
                                "sacrificed", "draw", "game_over", "baby", "turn"}


def test_event_lines_in_french_whatever_the_names_and_cards():
    """A name that starts with a vowel (Ana) and a feminine card (Chèvre fouineuse) need
    no elision ("d'Ana") nor agreement ("détruite") the catalogue could not choose."""
    goat = catalog().ids_of("scavenger_goat")[0]
    lines = [event_line("fr", Event(type=t, text="", data=d), NAMES) for t, d in (
        ("play", {"seat": "s1", "card": LASSO, "field": "s0"}),
        ("enter", {"seat": "s0", "card": goat}),
        ("fizzle", {"seat": "s0", "card": goat}),
        ("destroyed", {"seat": "s0", "card": goat}),
        ("move", {"seat": "s1", "card": goat, "source_seat": "s0", "dest": "s2"}),
        ("pull", {"seat": "s1", "victim": "s0"}),
        ("countered", {"seat": "s0", "by": LASSO, "card": goat, "taken": True}))]
    assert lines == [
        "Bo joue Lasso chez Ana, dans son Pré.",
        "Chèvre fouineuse arrive chez Ana, dans son Pré.",
        "La carte Chèvre fouineuse ne peut pas arriver chez Ana, dans son Pré : elle va à la "
        "défausse.",
        "Ana perd Chèvre fouineuse : la carte est détruite et quitte son Pré.",
        "Bo déplace Chèvre fouineuse de chez Ana vers chez Cy, d'un Pré à l'autre.",
        "Bo prend une carte au hasard dans la main que tient Ana.",
        "Ana annule Chèvre fouineuse avec Lasso, puis Ana prend la carte en main."]


def test_questions_and_options_in_german():
    lasso = LASSO
    steal = ChoiceView(prompt="Choose a card to steal (Lasso):", options=[], ask="steal",
                       source=lasso)
    assert prompt_words("de", steal, NAMES) == "Wähle eine Karte zum Stehlen (Lasso):"
    assert prompt_words("en", steal, NAMES) == "Choose a card to steal (Lasso):"
    herd = ChoiceView(prompt="", options=[], ask="optional", herd="llama")
    assert prompt_words("fr", herd, NAMES) == (
        "Veux-tu utiliser cet effet (le Bonus de troupeau des lamas) ?")
    take = ChoiceView(prompt="", options=[], ask="take_from", whose="s1")
    assert prompt_words("pl", take, NAMES) == "Ręka gracza Bo: wybierz kartę do zabrania."
    old = ChoiceView(prompt="s1's hand: pick one.", options=[])
    assert prompt_words("de", old, NAMES) == "Bo's hand: pick one."
    assert len(ASK) == 21
    yes = ChoiceOption(value="yes", label="Yes")
    card = ChoiceOption(value=f"c{lasso}", label="Lasso (s2)", card=lasso)
    seat = ChoiceOption(value="ss1", label="s1", seat="s1")
    assert [option_words("de", o, NAMES) for o in (yes, seat)] == ["Ja", "Bo"]
    assert option_words("de", card, NAMES, "s2") == "Lasso (Cy)"


def test_turn_text_final_lines_and_hand_in_other_languages():
    st = build(3)
    view = UnleashedEngine().view(st, None)
    assert UL.turn_text(view, NAMES, None, "de") == (
        "**Ana** ist am Zug: eine Karte spielen oder ziehen (öffne **Meine Hand**).")
    assert UL.turn_text(view, NAMES, None, "en") == (
        "**Ana**'s turn: play a card or draw (open **My hand**).")
    won = Result(scores={"s0": 7, "s1": 5}, winners=["s0"], reason="s0 has 7 Animals.")
    assert UL.final_head(won, NAMES, lang="de") == "Ana hat 7 Tiere. **Ana** gewinnt!"
    assert UL.final_head(won, NAMES, lang="pl") == "Ana ma 7 Zwierząt. Wygrywa **Ana**!"
    tie = Result(scores={"s0": 5, "s1": 5}, winners=[], reason="The deck ran out.")
    assert UL.final_head(tie, NAMES, lang="fr") == (
        "La pioche est épuisée. Toujours à égalité en Animaux et en lettres : tout le "
        "monde perd.")
    assert UL.final_lines(view, won, NAMES, lang="pl") == [
        "\N{TROPHY} **Ana**: 7 Zwierząt", "**Bo**: 5 Zwierząt"]
    assert UL.pings(Pending(["s1"], "reaction", "reaction:1")) is False


def test_rules_in_english_are_the_specs_and_translated_line_by_line():
    assert rules_summary("en") == RULES_SUMMARY
    assert UL.rules(RULES_SUMMARY, lang="en") == RULES_SUMMARY
    german = UL.rules(RULES_SUMMARY, lang="de").split("\n")
    assert len(german) == len(RULES) == 8
    assert german[0] == ("**Llamas Unleashed** – 2 bis 8 Spieler. Sei als Erstes mit "
                         "**7 Tieren** auf deiner Weide (**6** bei 6–8 Spielern).")


def test_the_baby_choices_kept_in_a_language_are_forgotten_with_the_catalogues():
    babies = ((0, 0), (1, 1), (2, None))  # (ids 0 and 1 are Babies)
    first = _baby_items(babies, "de")
    assert _baby_items(babies, "de") is first
    i18n_catalog.forget()
    assert _baby_items.cache_info().currsize == 0
    again = _baby_items(babies, "de")
    assert again is not first and again == first
