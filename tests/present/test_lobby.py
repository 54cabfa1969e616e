"""The lobby's words (bot/present/lobby.py), pure: English as before, and the same lobby
in Polish and in the pseudo-locale."""

from __future__ import annotations

from bot.i18n import pseudo
from bot.present.lobby import LobbySeat, LobbyWords, lobby_words

LOBBY = dict(game="Llamas & Alpacas",
             description="Feed the herd, line up llamas and alpacas on your 3x3 board "
                         "(2-4 players).",
             number=7, status="lobby", seats=[LobbySeat("<@1>", True), LobbySeat("<@2>")],
             min_players=3, max_players=4, timer="2 minutes per turn",
             options=[("Hide who holds Instants", True)], rated=False, expires_at=1000.5)


def test_an_open_lobby_in_english():
    assert lobby_words("en", **LOBBY) == LobbyWords(
        title="Llamas & Alpacas: lobby #7",
        description="Feed the herd, line up llamas and alpacas on your 3x3 board (2-4 "
                    "players).\n\nThis lobby closes <t:1000:R> unless the host starts the "
                    "game.",
        seats_title="Seats (2/4)", seats="1. <@1> \N{CROWN} host\n2. <@2>\n3. *open seat*",
        options_title="Options",
        options="Turn timer: 2 minutes per turn\nHide who holds Instants: on\nRated: no",
        footer="3-4 players. Waiting for 1 more player.")


def test_the_same_lobby_in_polish():
    assert lobby_words("pl", **LOBBY) == LobbyWords(
        title="Llamas & Alpacas: lobby nr 7",
        description="Nakarm stado, ustaw lamy i alpaki w linie na planszy 3x3 (2-4 graczy)."
                    "\n\nTo lobby zamknie się <t:1000:R>, jeśli gospodarz nie rozpocznie gry.",
        seats_title="Miejsca (2/4)",
        seats="1. <@1> \N{CROWN} gospodarz\n2. <@2>\n3. *wolne miejsce*",
        options_title="Opcje",
        options="Czas na turę: 2 minuty na turę\nUkryj, kto ma karty Natychmiastowe: wł.\n"
                "Rankingowa: nie\nJęzyk: Polski",
        footer="Gracze: 3-4. Brakuje jeszcze 1 gracza.")


def test_closed_lobbies_and_the_pseudo_locale():
    cancelled = lobby_words("de", **{**LOBBY, "status": "cancelled", "seats": []})
    assert (cancelled.seats, cancelled.footer) == ("(nicht lesbar)", "Diese Lobby wurde abgesagt.")
    expired = lobby_words("fr", **{**LOBBY, "status": "cancelled", "expired": True})
    assert expired.footer == "Personne n'a lancé cette salle en une heure : elle est fermée."
    fake = lobby_words("en_XA", **LOBBY)
    assert fake.title == pseudo("{game}: lobby #{number}").format(game="Llamas & Alpacas",
                                                                  number=7)
    assert fake.options.endswith("Pseudo (layout check)")
