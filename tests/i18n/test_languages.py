"""Who sees which language: the game's (chosen at /play: the server's setting, else its
Discord locale, else English) and the member's (their client's, else the game's, else
English), and how Discord's locales map to ours."""

from __future__ import annotations

from bot.i18n import discord_locales, game_language, member_language, supported


def test_discord_locales_map_to_our_languages():
    assert [supported(loc) for loc in ("en-US", "en-GB", "de", "fr", "es-ES", "es-419",
                                       "pt-BR", "pl")] == [
        "en", "en", "de", "fr", "es", "es", "pt_BR", "pl"]
    assert [supported(loc) for loc in ("ja", "pt-PT", "", None, "xx")] == [
        None, None, None, None, None]
    assert supported("en_XA") == "en_XA" and supported("pt_BR") == "pt_BR"
    assert discord_locales("es") == ["es-ES", "es-419"]
    assert discord_locales("en") == [] and discord_locales("en_XA") == []


def test_a_games_language_the_setting_then_the_servers_locale_then_english():
    assert game_language("pl", "de") == "pl"
    assert game_language(None, "de") == "de"
    assert game_language(None, "pt-BR") == "pt_BR"
    assert game_language(None, "ja") == "en"
    assert game_language(None, None) == "en"
    assert game_language("xx", "fr") == "fr"  # a setting we no longer ship


def test_a_members_language_their_client_then_the_game_then_english():
    assert member_language("de", "fr") == "de"
    assert member_language("ja", "fr") == "fr"  # an unsupported client locale
    assert member_language("ja", None) == "en"
    assert member_language(None, "es") == "es"
    assert member_language("en-GB", "fr") == "en"
