"""The engines' refusals in the clicking member's language, through the real discord.py
dispatch against the sandbox: a Llamas & Alpacas and a Llamas Unleashed game in French,
a member whose Discord client is German refused in German (the presenters' ``refusal``
hook, :func:`bot.present.base.refusal_words`); and every refusal the two engines raise
worded in every shipped language."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from bot.app import builtin_games
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import ChooseBaby
from bot.i18n import CATALOGUED, ENGLISH, has_translation
from bot.i18n.catalog import forget
from bot.present.llamas_alpacas_words import REFUSALS as LA_REFUSALS
from bot.present.unleashed_words import REFUSALS as UL_REFUSALS
from tests.discord.test_llamas_alpacas import la  # noqa: F401 - fixture
from tests.discord.test_unleashed import press_as, sb  # noqa: F401 - fixture
from tests.support import headline

ROOT = Path(__file__).resolve().parents[2]
NO = "\N{NO ENTRY SIGN}"


def _engine_refusals(*paths: str) -> set[str]:
    """The messages of every ``IllegalAction(code, "...")`` in ``paths`` (seat ids and
    f-string seats written ``{name}``)."""
    found = set()
    for path in paths:
        text = (ROOT / path).read_text()
        for m in re.finditer(r'IllegalAction\(\s*"\w+",\s*(f?)((?:"[^"]*"\s*)+),?\s*\)', text):
            message = "".join(re.findall(r'"([^"]*)"', m.group(2)))
            if m.group(1):
                message = re.sub(r"\{[^}]*\}", "{name}", message)
            found.add(message)
    return found


@pytest.mark.parametrize("paths,known,count", [
    (("bot/games/llamas_alpacas/legal.py",), LA_REFUSALS, 14),
    (("bot/games/unleashed/engine.py",), UL_REFUSALS, 3),
])
def test_every_engine_refusal_is_catalogued_in_every_language(paths, known, count):
    raised = _engine_refusals(*paths)
    assert len(raised) == count and set(known) <= raised
    for lang in CATALOGUED:
        if lang != ENGLISH:
            missing = [m for m in raised if not has_translation(lang, None, m)]
            assert missing == [], (lang, missing)


def test_the_presenters_word_refusals_and_keep_an_unknown_one_english(caplog):
    lap = builtin_games()["llamas-alpacas"].presenter
    ul = builtin_games()["llamas-unleashed"].presenter
    names = {"s0": "Maya", "s1": "Tomasz"}
    assert lap.refusal("It is s1's turn.", names, lang="de") == "Tomasz ist am Zug."
    assert lap.refusal("Keep exactly 10 treats out of those you hold.", names, lang="fr") == (
        "Garde exactement 10 de tes friandises.")
    assert lap.refusal("First place your starting card on an empty space of your board.",
                      names, lang="pl") == (
        "Najpierw połóż kartę startową na pustym polu swojej planszy.")
    assert ul.refusal("You cannot do that right now.", names, lang="es") == (
        "Ahora no puedes hacer eso.")
    assert ul.refusal("It is not your decision right now.", names, lang="pt_BR") == (
        "Agora não é você quem decide.")
    assert ul.refusal("The game is over.", names, lang="de") == "Das Spiel ist vorbei."
    # A refusal no catalogue has: English with the names, logged once per language.
    forget()
    with caplog.at_level(logging.WARNING, logger="bot.i18n.catalog"):
        for _ in range(2):
            assert lap.refusal("s0 may not do that.", names, lang="de") == (
                "Maya may not do that.")
    assert [r.getMessage() for r in caplog.records] == [
        "no de translation of '{name} may not do that.': shown in English"]
    assert lap.refusal("It is s1's turn.", names) == "It is Tomasz's turn."


async def test_a_german_client_is_refused_in_german_in_a_french_llamas_alpacas_game(la):  # noqa: F811
    world, bot = la
    maya, tomasz = world.member("Maya"), world.member("Tomasz")
    await maya.slash("play", game="llamas-alpacas", language="fr")
    lobby = maya.last_reply
    await tomasz.click(lobby, "Rejoindre")
    await maya.click(lobby, "Lancer")
    tomasz.locale = "de"
    table = lobby.thread.last_message
    await tomasz.click(table, "5 · libre")
    await tomasz.click(lobby.thread.last_message, "1 · libre")
    assert tomasz.last_reply.ephemeral
    assert headline(tomasz.last_reply) == f"{NO} Du hast deine Startkarte schon gelegt."
    maya.locale = "fr"
    await maya.click(lobby.thread.last_message, "9 · libre")
    _, _, _, state = await bot.service.load(1)
    waiting = (maya, tomasz)[1 - state.active]
    await waiting.click(lobby.thread.last_message, "Prendre 1 (libre)")
    expected = {"de": "Maya ist am Zug.", "fr": "C'est à Tomasz de jouer."}
    assert headline(waiting.last_reply) == f"{NO} " + expected[waiting.locale]


async def test_a_german_client_is_refused_in_german_in_a_french_unleashed_game(world, sb):  # noqa: F811
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="llamas-unleashed", language="fr")
    lobby = ana.last_reply
    await bo.click(lobby, "Rejoindre")
    await ana.click(lobby, "Lancer")
    ana.locale = "de"
    table = lobby.thread.last_message
    await ana.click(table, "Choisis ton Petit")
    await press_as(sb, ana, ana.last_reply, ChooseBaby(card=catalog().ids_of("kid_clover")[0]))
    await ana.click(table, "Choisis ton Petit")
    assert headline(ana.last_reply) == f"{NO} Gerade bist nicht du am Zug."
