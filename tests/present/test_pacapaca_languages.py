"""Alpaca Pacapaca's words in other languages, pure: each presenter sentence (the table,
the Keep panel, the partner picker, the negotiation panel, the deal editor, My hand, the
alternative texts, the scoring), the thread's lines for the engine's events, the card
names and the /rules summary, with exact values; English unchanged without a language."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from bot.games.base import SYSTEM_SEAT
from bot.games.pacapaca import engine, legal
from bot.games.pacapaca.models import (
    Accept,
    Draw2,
    Keep,
    NegotiationTimeout,
    Propose,
    TakePile,
)
from bot.games.pacapaca.spec import RULES_SUMMARY
from bot.i18n import SHIPPED, translate
from bot.paths import SEEDS_DIR
from bot.present import pacapaca as pp
from bot.present import pacapaca_words as words
from bot.present.pacapaca import PacapacaPresenter
from tests.present.test_pacapaca import LEAF, MUD, NAMES, RIGHT_LOOP, E, talks  # noqa: F401
from tests.present.test_present import seen

P = PacapacaPresenter()
TWO = {"s0": "Maya", "s1": "Tomasz"}


def labels(items):
    return [c.label for c in items]


def test_the_turn_table_in_german():
    state = E.new_game(["s0", "s1", "s2"], seed=3)
    model = P.table(dataclasses.replace(seen(E, state, "s0"), lang="de"))
    assert labels(model.items) == ["2 ziehen", "Ablagestapel nehmen (0)", "Verhandeln"]
    assert model.lines == ["**Maya** ist dran: 2 ziehen.\nNachziehstapel 30 \N{MIDDLE DOT} "
                           "Ablagestapel 0"]
    english = P.table(seen(E, state, "s0"))
    assert labels(english.items) == ["Draw 2", "Take discard pile (0)", "Negotiate"]
    assert english.lines == ["**Maya**'s turn: draw 2.\nDeck 30 \N{MIDDLE DOT} discard pile 0"]


def test_the_keep_panel_in_brazilian_portuguese():
    state = E.apply(E.new_game(["s0", "s1", "s2"], seed=3), "s0", Draw2())[0]
    model = P.table(dataclasses.replace(seen(E, state, "s0"), lang="pt_BR"))
    keep = model.panels["keep"]
    assert keep.text == ("Você comprou **Pingente folha; Mancha de lama**. Fique com uma para a "
                         "sua alpaca; a outra vai virada para baixo para a pilha de descarte "
                         "(ninguém mais fica sabendo qual).")
    assert labels(keep.items) == ["Ficar com Pingente folha", "Ficar com Mancha de lama"]
    assert [c.says for c in keep.items] == ["Você ficou com Pingente folha.",
                                            "Você ficou com Mancha de lama."]


def test_the_partner_picker_in_french():
    state = E.new_game(["s0", "s1"], seed=3)
    for _ in range(4):
        seat = state.seats[state.active]
        legal = E.legal_actions(state, seat)
        state = E.apply(state, seat, next(a for a in legal if isinstance(a, Draw2 | Keep)))[0]
    seat = state.seats[state.active]
    model = P.table(dataclasses.replace(seen(E, state, seat), lang="fr"))
    picker = model.panels["neg"]
    assert picker.text == ("Avec qui veux-tu négocier ? Vous aurez 60 secondes pour vous mettre "
                           "d'accord sur un échange.")
    [select] = picker.items
    assert select.placeholder == "Négocier avec\N{HORIZONTAL ELLIPSIS}"
    assert select.noun == "Joueurs"
    other = next(s for s in state.seats if s != seat)
    assert [o.says for o in select.options] == [
        f"Tu as ouvert une négociation avec {NAMES[other]}."]


def test_the_negotiation_table_and_panel_in_german_spanish_and_polish(talks):  # noqa: F811
    after = E.apply(talks, "s2", Propose(give=[MUD], get=[LEAF, RIGHT_LOOP]))[0]
    view = E.view(after, None)
    assert PacapacaPresenter.negotiation_lines(view, NAMES, 1700000000.5, "de") == [
        "**Ana** verhandelt mit **Maya**.",
        "\N{STOPWATCH} Die Verhandlung endet <t:1700000000:R>.",
        "\n**Angebot v1** (vorgeschlagen von Ana):",
        "\N{BULLET} Ana gibt: Schlammspritzer",
        "\N{BULLET} Maya gibt: Blattanhänger; Schleife, rechts",
        "Angenommen von: noch niemandem",
        "Verbleibende Vorschläge: 7.",
        "\nDrücke **Angebot bearbeiten**, um die Karten zu wählen, die du gibst und bekommst, "
        "dann **Vorschlagen**. Getauscht wird, sobald beide dieselbe Version annehmen. "
        "Chattet hier solange!",
    ]
    answers = P.table(dataclasses.replace(seen(E, after, "s0"), lang="es")).items
    assert labels(answers) == ["Aceptar trato v1", "Rechazar", "Rendirse"]
    assert pp.panel_title("Ana", "Maya", "es") == "Negociación: Ana \N{LEFT RIGHT ARROW} Maya"
    assert PacapacaPresenter.turn_text(dataclasses.replace(seen(E, talks, "s2"), lang="fr")) == (
        "**Ana** négocie avec **Maya** : vois le panneau ci-dessous.\n"
        "Pioche 20 \N{MIDDLE DOT} défausse 5")
    assert pp.editor_refusal(E.view(talks, None), "s1", 6, "fr") == (
        "not_negotiating", "Seuls les deux joueurs qui négocient peuvent agir maintenant.")
    assert pp.editor_refusal(E.view(talks, None), "s0", 5, "pl") == (
        "neg_over", "Te negocjacje już się skończyły.")


def test_the_deal_editor_in_german_and_polish():
    assert pp.deal_text("Maya", ([MUD], []), "de") == (
        "**Dein Angebot an Maya** (nur du siehst es, bis du Vorschlagen drückst)\n"
        "\N{BULLET} Du gibst: Schlammspritzer\n"
        "\N{BULLET} Du bekommst: nichts\n"
        "Ändere eine der Listen und drücke dann **Vorschlagen**.")
    assert pp.editor_words("Maya", "pl") == {
        "give": "Karty, które daję", "get": "Karty, które dostaję od: Maya",
        "give_none": "Twoja alpaka nie ma kart szyi do oddania",
        "get_none": "Maya: brak kart szyi", "cards": "Karty", "propose": "Zaproponuj",
        "edit": "Edytuj umowę"}
    assert pp.card_choices([0, 1, MUD], "de") == [
        (MUD, "Schlammspritzer", "Ein Schlammfleck: zählt als Hals, aber minus 1 Punkt."),
        (0, "Schlichter Hals #1", "Ein Stück nackter Hals: macht ihn nur länger."),
        (1, "Schlichter Hals #2", "Ein Stück nackter Hals: macht ihn nur länger."),
    ]


def test_the_closed_panel_in_german(talks):  # noqa: F811
    proposed = E.apply(talks, "s2", Propose(give=[MUD], get=[LEAF]))[0]
    traded, _ = E.apply(proposed, "s0", Accept(version=1))
    traded, events = E.apply(traded, "s2", Accept(version=1))
    [swap] = [e for e in events if e.type == "traded"]
    assert PacapacaPresenter.closed_lines(E.view(traded, None), swap, NAMES, lang="de") == (
        "Verhandlung: Ana \N{LEFT RIGHT ARROW} Maya (beendet)",
        "\N{HANDSHAKE} Abgemacht! Ana hat Schlammspritzer gegeben und Blattanhänger von Maya "
        "bekommen.")
    timed_out, events = E.apply(talks, SYSTEM_SEAT, NegotiationTimeout())
    [failed] = [e for e in events if e.type == "negotiation_failed"]
    assert PacapacaPresenter.closed_lines(E.view(timed_out, None), failed, NAMES,
                                          lang="de")[1] == (
        "\N{ALARM CLOCK} Die Zeit ist um: kein Tausch. Ana muss jetzt ziehen oder den "
        "Ablagestapel nehmen.")


def test_my_hand_and_the_alternative_texts_in_french_german_and_polish(talks):  # noqa: F811
    after = E.apply(talks, "s2", Propose(give=[MUD], get=[LEAF, RIGHT_LOOP]))[0]
    assert PacapacaPresenter.alpaca_alt(E.view(after, "s0"), "s0", "fr") == (
        "Ton alpaga de près : Paupières lourdes en haut, un cou de 2 cartes (Breloque "
        "feuille; Nœud droit), Chou à la crème en bas.")
    assert PacapacaPresenter.cards_alt("Les deux cartes", [MUD, LEAF], "fr") == (
        "Les deux cartes : Tache de boue; Breloque feuille.")
    assert P.alt_text(E.view(talks, None), E.pending(talks), NAMES, ["x"], lang="pl") == (
        "Tura 6: gra Ana. Negocjacje: Ana i Maya. x Alpaka gracza Maya: szyja z 2 kart. "
        "Alpaka gracza Tomasz: szyja z 2 kart. Alpaka gracza Ana: szyja z 1 karty. Stos do "
        "dobierania: 20 kart; stos odrzuconych: 5.")
    drawn = E.apply(E.new_game(["s0", "s1", "s2"], seed=3), "s0", Draw2())[0]
    assert P.private_lines(E.view(drawn, "s0"), "s0", NAMES, lang="de") == [
        "Du hast keine verdeckten Karten im Ablagestapel."]
    kept = E.apply(drawn, "s0", Keep(card=drawn.drawn[0]))[0]
    assert P.private_lines(E.view(kept, "s0"), "s0", NAMES, lang="de") == [
        "Deine verdeckten Karten im Ablagestapel: **Schlammspritzer**."]
    assert pp.hand_words("pl")["alpaca"] == "Oto twoja alpaka z bliska."
    assert pp.final_heading("Alpaca Pacapaca", 7, "fr") == (
        "Alpaca Pacapaca n°7 : scores finaux")


def test_the_threads_lines_for_the_events_in_polish_german_and_french(talks):  # noqa: F811
    proposed = E.apply(talks, "s2", Propose(give=[MUD], get=[LEAF]))[0]
    state, first = E.apply(proposed, "s0", Accept(version=1))
    state, then = E.apply(state, "s2", Accept(version=1))
    assert [words.event_line(e, NAMES, "pl") for e in first + then if e.to is None] == [
        "Maya przyjmuje umowę.", "Ana przyjmuje umowę.",
        "Umowa! Ana daje: Plama błota i dostaje: Listek (od: Maya).", "Tura: Maya."]
    _, events = E.apply(talks, SYSTEM_SEAT, NegotiationTimeout())
    assert [words.event_line(e, NAMES, "de") for e in events] == [
        "Die Zeit ist abgelaufen, die Verhandlung ist gescheitert; jetzt muss gezogen oder "
        "der Ablagestapel genommen werden."]
    start = E.new_game(["s0", "s1"], seed=3)
    drawn, events = E.apply(start, "s1", Draw2())
    assert [words.event_line(e, TWO, "fr") for e in events] == [
        "Tomasz a pioché deux cartes et en choisit une.",
        "Tu as pioché Breloque étoile; Tache de boue : garde une carte, l'autre va face "
        "cachée sur la défausse."]
    kept, events = E.apply(drawn, "s1", Keep(card=drawn.drawn[0]))
    assert [words.event_line(e, TWO, "fr") for e in events] == [
        "Tomasz ajoute Breloque étoile et pose l'autre carte face cachée sur la défausse.",
        "Tu as posé Tache de boue face cachée sur la défausse.", "C'est à Maya de jouer."]
    _, events = E.apply(kept, "s0", TakePile())
    assert [words.event_line(e, TWO, "pl") for e in events] == [
        "Maya bierze stos odrzuconych (1 karta): Plama błota.", "Tura: Tomasz."]
    # English: the engine's own words with the names.
    assert [words.event_line(e, TWO) for e in events] == [
        "Maya took the discard pile (1 card): Mud splat.", "It is Tomasz's turn."]


def finished():
    state = E.new_game(["s0", "s1"], seed=3)
    events: list = []
    while E.result(state) is None:
        seat = E.pending(state).seats[0]
        legal = E.legal_actions(state, seat)
        state, events = E.apply(state, seat, next(
            (a for a in legal if isinstance(a, Draw2 | Keep)), legal[0]))
    return state, events


def test_the_end_in_spanish_and_german():
    state, events = finished()
    assert [words.event_line(e, TWO, "es") for e in events if e.to is None] == [
        "Maya no puede robar ni tomar la pila de descarte, así que pasa.",
        "La partida ha terminado: gana Tomasz."]
    view = E.view(state, None)
    assert PacapacaPresenter.scoring_steps(view, TWO, "es") == [
        "**Puntuación, paso 1 de 3: se caen los adornos sin terminar** (un lazo necesita sus "
        "dos lazadas; una bufanda, su parte de arriba y de abajo).\n**Maya**: no se cae nada.\n"
        "**Tomasz**: se cae Lazo izquierdo.",
        "**Paso 2 de 3: largo de los cuellos** (el más largo +4, el segundo +2; el barro "
        "cuenta).\n**Maya**: Cuello de 5, el segundo más largo (+2)\n**Tomasz**: Cuello de 14, "
        "el más largo (+4)",
        "**Paso 3 de 3: lazos, bufandas, colgantes, barro y crías.**\n**Maya**: Colgantes x4 "
        "+4, Barro x1 -1\n**Tomasz**: Lazos x1 +6, Bufandas x1 (3 cartas) +6, Colgantes x7 +7, "
        "Bonificación por los cuatro colgantes +5, Barro x1 -1",
    ]
    assert P.highlight(view, E.result(state), TWO, lang="de") == (
        "Längster Hals: Tomasz, 14 Karten lang.")
    assert P.highlight(view, E.result(state), TWO) == "Tallest neck: Tomasz, 14 cards long."


def test_score_labels_of_every_shape_in_german():
    assert [words.score_label(label, "de") for label in (
        "Neck 3 long", "Neck 9 long, longest", "Neck 8 long, second longest",
        "Neck 9 long, tied longest, 3 each, no second place", "Neck 7 long, tied second, 1 each",
        "Bows x2", "Scarves x1 (4 cards)", "Charms x3", "All four charms bonus", "Mud x2",
        "Baby boy x1", "Baby boy x1 (no scarf)", "Baby girl x2", "Baby girl x1 (no bow)",
        "Something else")] == [
        "Hals 3 lang", "Hals 9 lang, der längste", "Hals 8 lang, der zweitlängste",
        "Hals 9 lang, gleichauf der längste, je 3, kein zweiter Platz",
        "Hals 7 lang, gleichauf der zweitlängste, je 1", "Schleifen x2",
        "Schals x1 (4 Karten)", "Anhänger x3", "Bonus für alle vier Anhänger", "Schlamm x2",
        "Hengstfohlen x1", "Hengstfohlen x1 (kein Schal)", "Stutfohlen x2",
        "Stutfohlen x1 (keine Schleife)", "Something else"]


def test_the_marked_card_words_are_the_seeds():
    seeds = json.loads((SEEDS_DIR / "pacapaca.json").read_text())
    expected = [d["name"] for d in [*seeds["heads"], *seeds["bodies"]]]
    for kind in seeds["kinds"]:
        expected += [kind["name"], kind["blurb"]]
    assert list(words.SEED_WORDS) == expected
    assert words.card_name(100, "pl") == "Puszysta grzywka"
    assert words.card_blurb(MUD, "fr") == "Une tache de boue : du cou quand même, mais -1 point."


def test_the_rules_summary_in_english_is_the_specs_and_is_translated():
    assert P.rules(RULES_SUMMARY) + "\n" == RULES_SUMMARY
    german = P.rules(RULES_SUMMARY, lang="de")
    assert german.startswith("**Alpaca Pacapaca** – lass den längsten, schönsten Alpakahals "
                             "wachsen. 2–6 Spieler.\n\nAlle beginnen mit einem Kopf und einem "
                             "Körper.")
    assert german.endswith("Die höchste Summe gewinnt; bei Gleichstand wird der Sieg geteilt.")
    for lang in SHIPPED:
        assert P.rules(RULES_SUMMARY, lang=lang).count("\n\n") == 3, lang
        assert translate(lang, words.RULES[0]) != "" and "**" in P.rules(RULES_SUMMARY, lang=lang)


def test_every_refusal_of_the_engine_is_worded_in_every_language():
    source = "\n".join(Path(module.__file__).read_text() for module in (legal, engine))
    found = set()
    for call in re.findall(r"IllegalAction\(\s*\"\w+\",\s*(f?\"[^\"]*\")", source):
        found.add(re.sub(r"\{\w+\}", "{name}", call.lstrip("f").strip('"')))
    assert found == set(words.REFUSALS)
    assert P.refusal("It is s1's turn.", NAMES, lang="de") == "Tomasz ist am Zug."
    assert P.refusal("You can only ask for cards s0's alpaca has.", NAMES, lang="pl") == (
        "Możesz prosić tylko o karty, które ma alpaka gracza Maya.")
    assert P.refusal("The discard pile is empty.", NAMES, lang="fr") == "La défausse est vide."
    # A refusal the engine does not word (the runtime's) keeps its words, names put in.
    assert P.refusal("s2 left.", NAMES, lang="de") == "Ana left."
    assert P.refusal("It is s1's turn.", NAMES) == "It is Tomasz's turn."


def test_the_final_scores_in_french_and_english():
    state, _ = finished()
    result = E.result(state)
    view = E.view(state, None)
    assert P.final_head(result, TWO, lang="fr") == (
        "La pioche s'est vidée et chacun a joué un dernier tour. **Tomasz** gagne !")
    assert P.final_lines(view, result, TWO, lang="fr") == [
        "\N{TROPHY} **Tomasz** : 27 (Cou de 14, le plus long +4, Nœuds x1 +6, Écharpes x1 "
        "(3 cartes) +6, Breloques x7 +7, Bonus des quatre breloques +5, Boue x1 -1)",
        "**Maya** : 5 (Cou de 5, le deuxième plus long +2, Breloques x4 +4, Boue x1 -1)"]
    assert P.final_head(result, TWO) == (
        "The deck ran out and everyone took one last turn. **Tomasz** wins!")
    assert P.final_lines(view, result, TWO)[1] == (
        "**Maya**: 5 (Neck 5 long, second longest +2, Charms x4 +4, Mud x1 -1)")
