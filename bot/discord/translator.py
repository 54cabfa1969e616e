"""Slash commands in each member's client language: discord.py's ``Translator`` over the
catalogues (:mod:`bot.i18n`), so the command sync carries ``name_localizations`` and
``description_localizations`` (and choices' ``name_localizations``) for every shipped
language, and Discord shows each member the words of their client.

Names (commands, groups, options) are looked up in the catalogue's ``command name``
context, context menus' names (Apps menu) in ``menu name``, descriptions and choices in
``command``. A string without a translation is left
to Discord's default (the English; the catalogue tests name every one); a translated
name Discord would refuse (:func:`valid_name`) is left out too and logged, so a
catalogue's slip never breaks the sync.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import (
    COMMAND_NAME,
    COMMAND_TEXT,
    ENGLISH,
    MENU_NAME,
    NATIVE_NAMES,
    has_translation,
    supported,
    translate_in,
)

log = logging.getLogger(__name__)

#: Where discord.py asks for a name (Discord's name rules apply).
NAME_PLACES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
#: Discord's rule for a command or option name (1-32 letters, digits, ``-``, ``_``,
#: ``'``, and Devanagari and Thai marks).
NAME = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
#: Strings that are never translated: each language's name in itself, and discord.py's
#: stand-in for an option described nowhere.
UNTRANSLATED = frozenset({*NATIVE_NAMES.values(), "\N{HORIZONTAL ELLIPSIS}"})


def valid_name(name: str) -> bool:
    """True when Discord takes ``name`` as a command or option name: :data:`NAME`, and
    lowercase wherever a letter has a lowercase form."""
    return bool(NAME.fullmatch(name)) and name == name.lower()


def valid_menu_name(name: str) -> bool:
    """True when Discord takes ``name`` as a context menu's name (1-32 characters)."""
    return 1 <= len(name) <= 32


def context_of(location: Where, data: object = None) -> str:
    """The catalogue context of a string asked for at ``location`` (``data``: what it
    names, a context menu's name having its own)."""
    if location == Where.command_name and isinstance(data, app_commands.ContextMenu):
        return MENU_NAME
    return COMMAND_NAME if location in NAME_PLACES else COMMAND_TEXT


class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions and choices from the catalogues (module docstring)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext[Any, Any]) -> str | None:
        lang = supported(locale.value)
        if lang is None or lang == ENGLISH or string.message in UNTRANSLATED:
            return None
        where = context_of(context.location, context.data)
        if not has_translation(lang, where, string.message):
            return None  # Discord shows the English (tests/discord/test_languages.py lists it)
        text = translate_in(lang, where, string.message)
        if (where == COMMAND_NAME and not valid_name(text)
                or where == MENU_NAME and not valid_menu_name(text)):
            log.warning("the %s command name %r is not one Discord takes: left out", lang, text)
            return None
        return text


def translatable_choices(tree: app_commands.CommandTree[Any]) -> None:
    """Make every choice of every command in ``tree`` translatable: discord.py asks the
    translator only for choices named with a ``locale_str``; a choice named with a plain
    string gets one (the language choices excepted: :data:`UNTRANSLATED`). Call before
    syncing, after the cogs set their choices."""
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Group):
            continue
        for param in command.parameters:
            for choice in param.choices:
                if choice._locale_name is None and choice.name not in UNTRANSLATED:
                    choice._locale_name = app_commands.locale_str(choice.name)


def command_strings(tree: app_commands.CommandTree[Any]) -> list[tuple[str, str]]:
    """``(context, English string)`` of every translatable string of ``tree``'s global
    commands: names, descriptions and choice names, then the context menus' names (for
    the catalogue and its tests)."""
    out: dict[tuple[str, str], None] = {}
    for command in tree.walk_commands():
        texts = [(COMMAND_NAME, command.name), (COMMAND_TEXT, command.description)]
        if not isinstance(command, app_commands.Group):
            for param in command.parameters:
                texts += [(COMMAND_NAME, param.name), (COMMAND_TEXT, param.description)]
                texts += [(COMMAND_TEXT, choice.name) for choice in param.choices]
        out.update((t, None) for t in texts if t[1] not in UNTRANSLATED)
    for kind in (discord.AppCommandType.user, discord.AppCommandType.message):
        out.update(((MENU_NAME, menu.name), None) for menu in tree.get_commands(type=kind))
    return list(out)
