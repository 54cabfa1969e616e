"""The languages herdbot speaks, and who sees which (ARCHITECTURE.md "Localisation").

A language is named by a code of ours: ``en``, ``de``, ``fr``, ``es``, ``pt_BR``, ``pl``
(each a Babel locale with a catalogue under ``locales/``) and :data:`PSEUDO` (made by
code from English, :mod:`bot.i18n.pseudo`). Discord names its client and server locales
its own way (``en-US``, ``es-419``, ``pt-BR``); :func:`supported` maps them to ours.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from babel.core import parse_locale

#: English: the source language of every message id, and the last fallback.
ENGLISH = "en"
#: The pseudo-locale: accented, about 40% longer, markup and placeholders kept.
PSEUDO = "en_XA"
#: Languages with a catalogue, English first.
CATALOGUED = ("en", "de", "fr", "es", "pt_BR", "pl")
#: Every language a game or a member can have (the pseudo-locale last).
SHIPPED = (*CATALOGUED, PSEUDO)

#: Each language's own name, as the language choices show it.
NATIVE_NAMES = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt_BR": "Português do Brasil",
    "pl": "Polski",
    PSEUDO: "Pseudo (layout check)",
}

#: Discord locale -> our language, for the locales we have a catalogue for (the English
#: ones included). The pseudo-locale is no Discord locale.
DISCORD_LOCALES = {
    "en-US": "en",
    "en-GB": "en",
    "de": "de",
    "fr": "fr",
    "es-ES": "es",
    "es-419": "es",
    "pt-BR": "pt_BR",
    "pl": "pl",
}


def supported(locale: str | None) -> str | None:
    """Our language for ``locale`` (a Discord locale such as ``"pt-BR"``, or one of our
    codes such as ``"pt_BR"``), ``None`` when we do not speak it (or ``locale`` is
    ``None`` or empty)."""
    if not locale:
        return None
    if locale in SHIPPED:
        return locale
    return DISCORD_LOCALES.get(locale)


def game_language(setting: str | None, guild_locale: str | None) -> str:
    """The language of a new game: the server's ``/settings language`` (``setting``),
    else the server's Discord locale when we speak it, else English."""
    return supported(setting) or supported(guild_locale) or ENGLISH


def member_language(client_locale: str | None, game_lang: str | None) -> str:
    """The language of what one member alone sees (an ephemeral reply, a private panel,
    a DM): their client's locale when we speak it, else the game's language, else
    English."""
    return supported(client_locale) or supported(game_lang) or ENGLISH


def discord_locales(lang: str) -> list[str]:
    """The Discord locales shown ``lang`` (``"es"`` -> ``["es-ES", "es-419"]``); none for
    English (the commands' own words) and the pseudo-locale."""
    if lang == ENGLISH:
        return []
    return [loc for loc, ours in DISCORD_LOCALES.items() if ours == lang]


#: The environment variables naming the locale of messages, strongest first (POSIX).
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def _from_locale_name(name: str) -> str | None:
    """Our language for a POSIX locale name (``"de_DE.UTF-8"`` -> ``"de"``,
    ``"pt_BR.utf8"`` -> ``"pt_BR"``), parsed by Babel; ``None`` when we do not speak it
    or the name is no locale name."""
    try:
        parts = parse_locale(name.strip())
    except ValueError:
        return None
    language, territory = parts[0], parts[1]
    for code in (f"{language}_{territory}" if territory else None, language):
        if code in SHIPPED:
            return code
    return None


def operator_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of what herdbot prints to its operator's terminal, read from
    ``environ`` (default ``os.environ``) as gettext programs read it: the locale is the
    first non-empty of :data:`LOCALE_VARIABLES` (``"de_DE.UTF-8"`` -> ``"de"``); unless
    that locale is ``C`` or ``POSIX`` (or unset), GNU's ``LANGUAGE`` list (``"fr:de"``,
    the first one herdbot speaks) stands in its place. English when none names a
    language herdbot speaks."""
    env = os.environ if environ is None else environ
    locale = next((value for var in LOCALE_VARIABLES if (value := env.get(var, ""))), "")
    if locale.split(".")[0].split("@")[0] in ("", "C", "POSIX"):
        return ENGLISH
    names = env.get("LANGUAGE", "").split(":") if env.get("LANGUAGE") else [locale]
    return next((found for name in names if name
                 and (found := _from_locale_name(name)) is not None), ENGLISH)
