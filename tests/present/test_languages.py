"""Presenters take the language as an input (``Seen.lang``, ``lang=``): the Llamas &
Alpacas table in other languages, the same choices (indexes, keys) in every language, and
English when no language is given."""

from __future__ import annotations

import dataclasses
import random

from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.i18n import SHIPPED
from bot.present.base import Choice, Presenter, Select
from bot.present.llamas_alpacas import LlamasAlpacasPresenter
from bot.present.pacapaca import PacapacaPresenter
from bot.present.unleashed import UnleashedPresenter
from tests.present.test_present import LA, NAMES, play, seen

P = LlamasAlpacasPresenter()


def turn_state(engine: LlamasAlpacasEngine = LA):
    state = engine.new_game(["s0", "s1"], seed=3)
    for seat in ("s0", "s1"):
        state = play(engine, state, seat, engine.legal_actions(state, seat)[0])
    return state


def labels(model):
    out = []
    for item in model.items:
        out += [o.label for o in item.options] if isinstance(item, Select) else [item.label]
    return out


def test_the_set_up_table_in_german_and_polish():
    state = LA.new_game(["s0", "s1"], seed=3)
    base = seen(LA, state, "s0")
    german = P.table(dataclasses.replace(base, lang="de"))
    assert german.lines == ["Aufbau: Lege deine Startkarte mit den Knöpfen 1-9 (Zeile für "
                            "Zeile) auf dein Brett. Warten auf **Maya**, **Tomasz**."]
    assert labels(german) == [f"{n} · frei" for n in range(1, 10)]
    polish = P.table(dataclasses.replace(base, lang="pl"))
    assert labels(polish)[0] == "1 · wolne"
    english = P.table(base)
    assert labels(english) == [f"{n} · free" for n in range(1, 10)]


def test_every_language_offers_the_same_choices():
    rand = random.Random(2)
    state = turn_state()
    for _ in range(30):
        seat = LA.pending(state).seats[0]
        base = seen(LA, state, seat)
        english = P.table(base)
        for lang in SHIPPED:
            model = P.table(dataclasses.replace(base, lang=lang))
            assert model.key == english.key
            shape = [(c.index, c.opens, c.disabled) for c in model.items if isinstance(c, Choice)]
            assert shape == [(c.index, c.opens, c.disabled) for c in english.items
                             if isinstance(c, Choice)]
            assert model.panels.keys() == english.panels.keys()
            assert all(len(label) <= 80 for label in labels(model)), lang
        state = play(LA, state, seat, rand.choice(LA.legal_actions(state, seat)))
        if LA.result(state) is not None:
            break


def test_the_turn_text_alt_text_and_private_lines_in_french():
    state = turn_state()
    view = LA.view(state, None)
    text = P.turn_text(view, NAMES, "fr")
    assert text == ("À **Maya** de jouer (3🍀 3🥕) : prends une carte de la rangée (la carte 1 "
                    "est gratuite, chaque carte sautée coûte une friandise) ou déplace une carte "
                    "de ton plateau.")
    assert "prends une carte de la rangée" in text
    alt = P.alt_text(view, LA.pending(state), NAMES, lang="fr")
    assert alt.startswith("À ") and "Pioche : " in alt
    lines = P.private_lines(LA.view(state, "s0"), "s0", NAMES, lang="fr")
    assert lines[0] == "Ce jeu n'a pas de cartes cachées : tout est sur l'image de la table."
    assert lines[-1].startswith("Ton plateau :\nLigne 1 : ")


def test_every_presenter_entry_point_takes_a_language():
    """The entry points the Discord layer calls with ``lang=`` accept it in every game."""
    import inspect

    for presenter in (Presenter(), P, PacapacaPresenter(), UnleashedPresenter()):
        for name in ("alt_text", "final_lines", "final_head", "highlight", "private_lines",
                     "headline", "hand_dm"):
            params = inspect.signature(getattr(presenter, name)).parameters
            assert params["lang"].default == "en", (type(presenter).__name__, name)
