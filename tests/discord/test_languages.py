"""Languages through the real bot in the sandbox: a game's language chosen at /play (the
server's /settings language, else its Discord locale, else English), each member's
private replies in their own client's language, the member's locale kept for DMs, and
the slash commands synced with their names, descriptions and choices in every shipped
language within Discord's rules."""

from __future__ import annotations

from typing import Any

import pytest
import pytest_asyncio

from bot.discord.translator import UNTRANSLATED, command_strings, valid_name
from bot.i18n import COMMAND_NAME, extract, has_translation
from bot.sandbox import World
from bot.sandbox.demo import lobby_button
from bot.sandbox.limits import Refusal, error_paths
from bot.sandbox.limits_commands import check_commands
from tests.discord.conftest import make_bot
from tests.discord.test_live_service import start_tiny
from tests.discord.test_llamas_alpacas import EXTENSIONS, KEY, registry, table_of
from tests.support import close_world, headline, parts, texts, title

#: The Discord locales each shipped language is synced for.
LOCALISED = {"de", "fr", "es-ES", "es-419", "pt-BR", "pl"}


@pytest_asyncio.fixture
async def herd(tmp_path):
    """(world, bot): Llamas & Alpacas; members Maya (Manage Server) and Tomasz."""
    world, bot = await herd_world(tmp_path, "Tomasz")
    yield world, bot
    await close_world(world)


async def herd_world(tmp_path, *others: str) -> tuple[World, Any]:
    """A connected world and a Llamas & Alpacas bot (seed 1) with Maya, who may manage
    the server, and ``others`` as members."""
    from bot.runtime import ManualClock

    world = World()
    world.add_member("Maya", manage_guild=True)
    for name in others:
        world.add_member(name)
    bot = make_bot(tmp_path / "lang.sqlite3", ManualClock(), registry=registry(),
                   extensions=EXTENSIONS)
    await world.connect(bot)
    bot.service.seed_factory = lambda: 1
    return world, bot


def said(m):
    """Every text a message shows: its text displays (a V2 message), else its content."""
    return "\n".join(texts(m)) if texts(m) else m.content


async def open_game(world, language=None):
    maya, tomasz = world.member("Maya"), world.member("Tomasz")
    await maya.slash("play", game=KEY, **({"language": language} if language else {}))
    lobby = maya.last_reply
    await tomasz.click(lobby, lobby_button(lobby, "join"))
    await maya.click(lobby, lobby_button(lobby, "start"))
    return lobby, lobby.thread


async def test_a_german_client_in_a_french_game_sees_its_own_replies_in_german(herd):
    world, bot = herd
    tomasz = world.member("Tomasz")
    tomasz.locale = "de"
    lobby, thread = await open_game(world, "fr")
    assert title(lobby) == "Llamas & Alpacas : salle n° 1"
    assert (await bot.service.get(1)).options["language"] == "fr"
    table = table_of(thread)
    # The thread is French: the set-up sentence and the grid.
    assert parts(table)["turn"] == (
        "Mise en place : pose ta carte de départ sur ton plateau avec les boutons 1-9 (ligne "
        "par ligne). On attend **Maya**, **Tomasz**.")
    assert table.labels[:3] == ["1 · libre", "2 · libre", "3 · libre"]
    # The table's own buttons are French too.
    assert table.labels[-2:] == ["Ma main", "Regarder"]
    # Tomasz's own reply (My hand) is German, though the game is French.
    await tomasz.click(table, "Ma main")
    reply = tomasz.last_reply
    assert reply.ephemeral
    assert said(reply).splitlines()[0] == (
        "Dieses Spiel hat keine verdeckten Karten: Alles steht auf dem Tischbild.")
    assert "Deine Startkarte, noch zu legen: **" in said(reply)
    # Maya's client is English-US: her reply is English.
    maya = world.member("Maya")
    await maya.click(table, "Ma main")
    assert said(maya.last_reply).splitlines()[0] == (
        "This game has no hidden cards: everything is on the table picture.")
    # Each member's last seen locale is kept for their DMs (English, the default, is
    # stored only over another language).
    assert await bot.store.member_locale(tomasz.id) == "de"
    assert await bot.store.member_locale(maya.id) is None
    tomasz.locale = "en-GB"
    await tomasz.click(table, "Ma main")
    assert said(tomasz.last_reply).splitlines()[0] == (
        "This game has no hidden cards: everything is on the table picture.")
    assert await bot.store.member_locale(tomasz.id) == "en-GB"


async def test_an_unsupported_client_locale_gets_the_games_language(herd):
    world, bot = herd
    tomasz = world.member("Tomasz")
    tomasz.locale = "ja"
    _lobby, thread = await open_game(world, "pl")
    await tomasz.click(table_of(thread), "Moja ręka")
    assert said(tomasz.last_reply).splitlines()[0] == (
        "Ta gra nie ma ukrytych kart: wszystko widać na obrazku stołu.")


async def test_the_games_language_setting_then_server_locale_then_english(herd):
    world, bot = herd
    maya = world.member("Maya")
    await maya.slash("settings", lobbies_per_member=5)
    # Nothing chosen, an English server: English.
    await maya.slash("play", game=KEY)
    assert title(maya.last_reply) == "Llamas & Alpacas: lobby #1"
    assert "language" not in (await bot.service.get(1)).options
    # A Spanish server: Spanish.
    world.guild_locale = "es-ES"
    await maya.slash("play", game=KEY)
    assert title(maya.last_reply) == "Llamas & Alpacas: sala n.º 2"
    # The server's setting wins over its locale; /play's own choice wins over both.
    await maya.slash("settings", language="de")
    assert "\nLanguage of new games: Deutsch (chosen)\n" in said(maya.last_reply)
    assert (await bot.store.guild_settings(world.guild_id)).language == "de"
    await maya.slash("play", game=KEY)
    assert title(maya.last_reply) == "Llamas & Alpacas: Lobby #3"
    await maya.slash("play", game=KEY, language="pt_BR")
    assert title(maya.last_reply) == "Llamas & Alpacas: sala nº 4"
    # Back to the server's Discord language.
    await maya.slash("settings", language="auto")
    assert ("\nLanguage of new games: Español (the server's Discord language)\n"
            in said(maya.last_reply))
    assert (await bot.store.guild_settings(world.guild_id)).language is None


async def test_the_lobby_in_the_pseudo_locale(herd):
    world, bot = herd
    maya = world.member("Maya")
    await maya.slash("play", game=KEY, language="en_XA")
    lobby = maya.last_reply
    assert lobby.labels[0] == "Ĵööîîñ"
    assert "Pseudo (layout check)" in said(lobby)


# -- the command sync ----------------------------------------------------------------


@pytest_asyncio.fixture
async def synced(tmp_path):
    """(world, bot): the bot as shipped (every game, every cog), which synced its
    commands on connecting."""
    from bot.app import builtin_games
    from bot.app import make_bot as shipped_bot
    from bot.config import Settings
    from bot.runtime import ManualClock

    world = World()
    settings = Settings(database_path=tmp_path / "sync.sqlite3", _env_file=None)  # type: ignore[call-arg]  # pydantic-settings init arguments
    bot = shipped_bot(settings, registry=builtin_games(), clock=ManualClock())
    await world.connect(bot)
    yield world, bot
    await close_world(world)


def sync_body(world):
    puts = [r for r in world.requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert puts and all(r.status == 200 for r in puts)
    return puts[-1].json


def names_and_texts(node, path=()):
    """``(path, key, default, localisations)`` of every name, description and choice name
    in a synced command (options and choices nested)."""
    here = (*path, node.get("name"))
    for key in ("name", "description"):
        if key in node:
            yield here, key, node[key], node.get(f"{key}_localizations") or {}
    for option in node.get("options") or []:
        yield from names_and_texts(option, here)
    for choice in node.get("choices") or []:
        yield (*here, choice["value"]), "choice", choice["name"], choice.get(
            "name_localizations") or {}


async def test_every_command_string_is_translated_in_every_shipped_language(synced):
    world, bot = synced
    strings = command_strings(bot.tree)
    assert (COMMAND_NAME, "play") in strings and len(strings) == 100
    # The template has them all (python -m bot.sandbox.messages writes it).
    assert extract.command_strings_of() == strings
    missing = [(lang, s) for lang in ("de", "fr", "es", "pt_BR", "pl") for s in strings
               if not has_translation(lang, *s)]
    assert missing == []


async def test_the_sync_carries_localisations_for_every_language_within_discords_rules(synced):
    world, bot = synced
    body = sync_body(world)
    check_commands(body)  # Discord's rules (the sandbox accepted it too: status 200)
    play = next(c for c in body if c["name"] == "play")
    assert play["name_localizations"] == {"de": "spielen", "fr": "jouer", "es-ES": "jugar",
                                          "es-419": "jugar", "pt-BR": "jogar", "pl": "graj"}
    assert play["description_localizations"]["de"] == (
        "Öffne eine Lobby für ein Lama-und-Alpaka-Spiel.")
    timer = next(o for o in play["options"] if o["name"] == "turn_timer")
    assert timer["choices"][0]["name_localizations"]["pl"] == "Bez limitu czasu"
    language = next(o for o in play["options"] if o["name"] == "language")
    assert [c["name"] for c in language["choices"]] == [
        "English", "Deutsch", "Français", "Español", "Português do Brasil", "Polski",
        "Pseudo (layout check)"]
    assert all("name_localizations" not in c for c in language["choices"])
    seen = 0
    for cmd in body:
        for where, key, default, local in names_and_texts(cmd):
            if default in UNTRANSLATED:  # the languages' own names; "…" (no description)
                assert local == {}, where
                continue
            assert set(local) == LOCALISED, (where, key)
            seen += 1
            for text in local.values():
                if key == "name" and cmd.get("type", 1) != 1:  # a context menu's name
                    assert 1 <= len(text) <= 32, (where, text)
                elif key == "name":
                    assert valid_name(text) and 1 <= len(text) <= 32, (where, text)
                else:
                    assert 1 <= len(text) <= 100, (where, text)
    assert seen == 119
    menu = next(c for c in body if c["name"] == "Challenge to Llamas & Alpacas")
    assert menu["type"] == 2 and menu["name_localizations"]["de"] == (
        "Herausfordern: Llamas & Alpacas")


def test_the_sandbox_takes_a_context_menu_name_of_32_characters_and_refuses_33():
    menu = {"name": "Challenge to Llamas & Alpacas", "type": 2,
            "name_localizations": {"de": "Herausfordern: Llamas & Alpacas"}}
    check_commands([menu])
    check_commands([{**menu, "name_localizations": {"de": "x" * 32}}])
    with pytest.raises(Refusal) as refused:
        check_commands([{**menu, "name_localizations": {"de": "x" * 33}}])
    assert refused.value.code == 50035


def test_the_sandbox_refuses_a_sync_discord_would_refuse():
    good = {"name": "play", "description": "Open a lobby.", "type": 1,
            "name_localizations": {"de": "spielen"}, "options": [
                {"type": 3, "name": "game", "description": "Which game", "choices": [
                    {"name": "Llamas", "value": "la", "name_localizations": {"pl": "Lamy"}}]}]}
    check_commands([good])
    bad = {**good, "name_localizations": {"de": "Spielen", "xx": "spiel"},
           "description_localizations": {"fr": "x" * 101},
           "options": [{**good["options"][0], "name_localizations": {"pl": "gra w"},
                        "choices": [{"name": "L", "value": "la",
                                     "name_localizations": {"de": ""}}]}]}
    with pytest.raises(Refusal) as refused:
        check_commands([bad])
    assert refused.value.code == 50035
    assert sorted(error_paths(refused.value.errors)) == [
        ("0.description_localizations.fr", "BASE_TYPE_BAD_LENGTH"),
        ("0.name_localizations.de", "APPLICATION_COMMAND_INVALID_NAME"),
        ("0.name_localizations.xx", "LOCALE_INVALID"),
        ("0.options.0.choices.0.name_localizations.de", "BASE_TYPE_BAD_LENGTH"),
        ("0.options.0.name_localizations.pl", "APPLICATION_COMMAND_INVALID_NAME"),
    ]


async def test_a_private_panel_in_each_members_language_in_a_french_game(herd):
    world, bot = herd
    maya, tomasz = world.member("Maya"), world.member("Tomasz")
    maya.locale, tomasz.locale = "es-ES", "de"
    _lobby, thread = await open_game(world, "fr")
    await maya.click(table_of(thread), "1 · libre")
    await tomasz.click(table_of(thread), "2 · libre")
    _record, seats, spec, state = await bot.service.load(1)
    active = next(s for s in seats if s.seat == spec.engine.pending(state).seats[0])
    member = world.member(active.name)
    table = table_of(thread)
    assert "Déplacer une carte" in table.labels  # the public table: French
    await member.click(table, "Déplacer une carte")
    panel = member.last_reply
    assert panel.ephemeral
    assert said(panel) == {
        "Maya": "Mover una carta: ¿cuál se mueve? (casillas 1-9, fila a fila)",
        "Tomasz": "Karte versetzen: welche Karte? (Felder 1-9, Zeile für Zeile)",
    }[active.name]
    assert panel.labels[2] == {"Maya": "3 · libre", "Tomasz": "3 · frei"}[active.name]


async def test_a_turn_notice_dm_is_in_the_members_last_seen_language(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    bo.locale = "pl"
    await bo.slash("notify", direct_messages="on")
    _lobby, thread = await start_tiny(world)
    await ana.click(thread.last_message, "Add 1")
    assert [headline(m).splitlines()[-1] for m in bo.dms] == ["Twoja tura."]
    assert await sb.bot.store.member_locale(bo.id) == "pl"


async def test_the_table_picture_in_the_games_language_and_my_board_in_the_members(herd):
    """A French game with a German member: the thread's table picture is drawn in
    French, the member's own board close-up (My hand) in German."""
    from bot.render.llamas_alpacas import board_picture, table_picture

    world, bot = herd
    tomasz = world.member("Tomasz")
    tomasz.locale = "de"
    _lobby, thread = await open_game(world, "fr")
    table = table_of(thread)
    _record, seats, spec, state = await bot.service.load(1)
    names = {s.seat: s.name for s in seats}
    view = spec.engine.view(state, None)
    shown = table.file("table.png")
    assert shown == table_picture(view, names=names, lang="fr").png
    assert shown != table_picture(view, names=names, lang="en").png
    await tomasz.click(table, "Ma main")  # the game is French
    seat = next(s.seat for s in seats if s.name == "Tomasz")
    mine = spec.engine.view(state, seat)
    assert tomasz.last_reply.file("my-board.png") == board_picture(
        mine, seat, names=names, lang="de").png
    assert tomasz.last_reply.file("my-board.png") != board_picture(
        mine, seat, names=names, lang="fr").png


async def test_the_rules_example_picture_is_in_the_members_language(herd):
    """/rules: the example table is drawn in the member's client language, each language
    once."""
    world, bot = herd
    tomasz = world.member("Tomasz")
    tomasz.locale = "pl"
    await tomasz.slash("rules", game=KEY)
    cog = bot.game_cog(KEY)
    polish = tomasz.last_reply.file("example.png")
    assert polish == cog.build_example("pl")
    assert polish != cog.build_example("en")
    assert await cog.example_image("pl") is polish
