"""The Discord layer's own words in the players' languages, through the real bot in the
sandbox: a refusal in the member's client language whatever the game's, a French game's
table footer, buttons and turn-timer line, and the server panels (/settings, /stats,
/leaderboard) in a Polish client's language."""

from __future__ import annotations

import pytest_asyncio

from bot.sandbox.demo import lobby_button
from tests.discord.test_languages import herd_world
from tests.discord.test_llamas_alpacas import KEY, table_of
from tests.support import close_world, parts, texts

NO = "\N{NO ENTRY SIGN} "


@pytest_asyncio.fixture
async def herd(tmp_path):
    """(world, bot): Llamas & Alpacas; members Maya (Manage Server), Tomasz and Kasia."""
    world, bot = await herd_world(tmp_path, "Tomasz", "Kasia")
    yield world, bot
    await close_world(world)


async def open_game(world, **options):
    maya, tomasz = world.member("Maya"), world.member("Tomasz")
    await maya.slash("play", game=KEY, **options)
    lobby = maya.last_reply
    await tomasz.click(lobby, lobby_button(lobby, "join"))
    await maya.click(lobby, lobby_button(lobby, "start"))
    return lobby.thread


async def test_a_german_client_is_refused_in_german_in_an_english_game(herd):
    world, bot = herd
    kasia = world.member("Kasia")
    kasia.locale = "de"
    thread = await open_game(world)
    table = table_of(thread)
    assert table.labels[-2:] == ["My hand", "Watch"]  # the game is English
    await kasia.click(table, "My hand")
    assert kasia.last_reply.ephemeral
    assert kasia.last_reply.content == NO + "Du spielst in diesem Spiel nicht mit."
    # A refusal with a placeholder, from the runtime (a replay of a game not in the server).
    await kasia.slash("game replay", number=99)
    assert kasia.last_reply.content == NO + "Auf diesem Server gibt es kein Spiel #99."
    # The same refusal to an English client stays English.
    await world.member("Maya").slash("game replay", number=99)
    assert world.member("Maya").last_reply.content == (
        NO + "There is no game #99 in this server.")


async def test_a_french_games_footer_buttons_and_turn_timer_line(herd):
    world, bot = herd
    thread = await open_game(world, language="fr", turn_timer="2m")
    table = table_of(thread)
    said = parts(table)
    assert said["footer"] == "Llamas & Alpacas n°1 \N{MIDDLE DOT} Coup 0"
    assert table.labels[-2:] == ["Ma main", "Regarder"]
    due = await bot.service.deadline(1, "turn")
    assert due is not None
    assert said["turn"].splitlines()[-1] == (
        f"\N{ALARM CLOCK} Minuteur : l'IA joue à ta place <t:{int(due)}:R>.")


async def test_settings_stats_and_leaderboard_in_polish_for_a_polish_client(herd):
    world, bot = herd
    maya = world.member("Maya")
    maya.locale = "pl"
    await maya.slash("settings")
    assert texts(maya.last_reply) == ["\n".join([
        "**Ustawienia herdbota**",
        "Domyślny czas na turę: Bez limitu czasu",
        "Ręka i powiadomienia o turze w DM: włączone",
        "Gry mogą się zaczynać na: dowolnym kanale",
        "Gdzie nie mogę otworzyć wątku gry: brak gry",
        "Język nowych gier: English (język Discorda serwera)",
        "Otwarte lobby na członka: 3",
        "Kończ gry po 14 dniach bez ruchu: włączone"])]
    await maya.slash("stats show")
    assert not maya.last_reply.ephemeral  # public, in the words of the member who asked
    assert texts(maya.last_reply) == [
        "### Tabela wszystkich gier", "Jeszcze nie ma zakończonych gier.",
        "**Ranking**\nMaya nie ma jeszcze rankingowych gier na tym serwerze."]
    await maya.slash("leaderboard", game=KEY)
    assert texts(maya.last_reply) == [
        "### Tabela Llamas & Alpacas",
        "Nikt nie ma jeszcze rankingowej gry Llamas & Alpacas na tym serwerze. Rankingowa "
        "jest zakończona gra z co najmniej dwoma członkami."]
    # An unknown season is refused in Polish too.
    await maya.slash("leaderboard", game=KEY, season=3)
    assert maya.last_reply.content == (
        NO + "Sezon 3 się nie zaczął; ten serwer nie ma sezonów.")


async def test_a_spectator_watches_an_english_game_in_german(herd):
    world, bot = herd
    kasia = world.member("Kasia")
    kasia.locale = "de"
    thread = await open_game(world)
    await kasia.click(table_of(thread), "Watch")
    seen = kasia.last_reply
    assert seen.ephemeral
    said = parts(seen)
    assert said["head"] == (
        "\N{EYES} Du schaust Llamas & Alpacas #1 zu. Hier ist der Tisch im Moment; nur die "
        "Spieler sehen ihre Hand. Drück noch einmal „Zuschauen“ für einen neueren Stand.")
    assert said["footer"] == "Llamas & Alpacas #1 \N{MIDDLE DOT} Zug 0"
    assert seen.labels == ["Im Thread folgen"]
