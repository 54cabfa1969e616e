"""The Options form and the options model's refusals in the member's language: the number
options' labels (their ``description``, translated), and every refusal of an options model
as our own short sentence (:func:`bot.present.lobby.options_reason`), never pydantic's
English; through the real discord.py dispatch against the sandbox where a member can
meet them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from pydantic import BaseModel, Field, ValidationError, field_validator

from bot.app import builtin_games
from bot.discord.options_form import check_options
from bot.games.registry import Registry
from bot.present.lobby import option_labels, options_reason
from bot.runtime import GameError
from tests.discord.conftest import make_bot
from tests.support import headline
from tests.support.tinygame import TINY_SPEC

UL = builtin_games()["llamas-unleashed"]
PP = builtin_games()["pacapaca"]


@pytest.fixture
def bot_factory():
    def factory(path, clock):
        return make_bot(path, clock, registry=Registry([UL]),
                        extensions=("cogs.lobby", "cogs.game", "cogs.admin", "cogs.unleashed"))
    return factory


def _why(spec, options, lang) -> str:
    with pytest.raises(ValidationError) as info:
        spec.options_model.model_validate(options)
    return options_reason(dict(info.value.errors()[0]), option_labels(spec.options_model), lang)


def test_every_refusal_of_an_options_model_is_our_own_sentence():
    assert _why(UL, {"reaction_seconds": 700.0}, "de") == "Reaktionsfenster: höchstens 600 Sekunden."
    assert _why(UL, {"reaction_seconds": 0.0}, "fr") == (
        "Fenêtre de réaction : il faut plus de 0 seconde.")
    assert _why(UL, {"setup_seconds": 4000.0}, "en") == (
        "Time to choose a Baby must be at most 3,600 seconds.")
    assert _why(UL, {"setup_seconds": "soon"}, "es") == (
        "Tiempo para elegir la Cría: tiene que ser un número.")
    assert _why(UL, {"open_windows": "maybe"}, "pt_BR") == (
        "Ocultar quem tem Instantâneas: só sim ou não.")
    assert _why(PP, {"players": 9}, "pl") == "Gracze: najwyżej 6."
    assert _why(PP, {"players": 1.5}, "de") == "Spieler: muss eine ganze Zahl sein."
    assert _why(UL, {"speed": 3}, "de") == "Dieses Spiel hat keine Option „speed“."
    assert _why(UL, {"reaction_seconds": 700.0}, "pl") == "Okno reakcji: najwyżej 600 sekund."
    # A model's own check is refused in our words too, never the game's English.
    assert _why(TINY_SPEC, {"double": True, "target": 5}, "de") == (
        "Einige dieser Optionen passen nicht zusammen.")
    assert _why(TINY_SPEC, {"double": True, "target": 5}, "fr") == (
        "Certaines de ces options sont incompatibles entre elles.")
    assert _why(TINY_SPEC, {"double": True, "target": 5}, "en") == (
        "Some of these options do not go together.")
    checked = SimpleNamespace(options_model=_Checked)
    assert _why(checked, {"window": 4}, "pl") == (
        "Okno reakcji: ta gra nie przyjmuje takiej wartości.")
    assert _why(checked, {"window": 4}, "en") == (
        "Reaction window: that value is not one this game takes.")


class _Checked(BaseModel):
    """An options model with a check of its own on one option, in English words."""

    window: int = Field(default=5, description="Reaction window")

    @field_validator("window")
    @classmethod
    def _odd(cls, value: int) -> int:
        if value % 2:
            return value
        raise ValueError("the window must be an odd number of seconds")


def test_the_form_check_refuses_in_the_members_language():
    with pytest.raises(GameError) as info:
        check_options(UL, {"reaction_seconds": 601.0}, 2)
    assert info.value.text("de") == (
        "Diese Optionen funktionieren nicht: Reaktionsfenster: höchstens 600 Sekunden.")
    assert info.value.message == (
        "These options do not work: Reaction window must be at most 600 seconds.")


async def test_a_german_host_sees_the_form_and_a_stored_bad_option_in_german(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    ana.locale = "de"
    await ana.slash("play", game="llamas-unleashed", language="fr")
    lobby = ana.last_reply
    await bo.click(lobby, "Rejoindre")
    await ana.click(lobby, "Options")
    top = ana.modal["data"]["components"]
    assert [c["label"] for c in top] == [
        "Zugzeit", "Regeln", "Reaktionsfenster", "Zeit für die Wahl des Jungtiers",
        "Als Server-Vorlage speichern (optional)"]
    # A value no form offers (stored before, say, a range changed): refused at the start
    # in our words, in the host's language.
    await sb.bot.service.set_options(1, ana.id, {"reaction_seconds": 900.0})
    await ana.click(lobby, "Lancer")
    assert headline(ana.last_reply) == (
        "\N{NO ENTRY SIGN} Diese Optionen funktionieren nicht: Reaktionsfenster: höchstens "
        "600 Sekunden.")
    assert (await sb.bot.service.get(1)).status == "lobby"
