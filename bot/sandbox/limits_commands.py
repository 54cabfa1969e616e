"""Discord's rules for a command sync (``PUT .../commands``), checked by the sandbox so a
localised command that Discord would refuse is refused here too (400, 50035, the field
named, like :mod:`bot.sandbox.limits`).

From Discord's developer documentation (interactions/application-commands: "Application
Command Naming", "Localization", the option and choice structures) and
``discord-api-spec/openapi.json`` (``ApplicationCommandCreateRequest``, the option and
choice schemas: the lengths and ``maxProperties``):

=====================================  =====================  ============================
rule                                   limit                  source
=====================================  =====================  ============================
commands per sync (chat input)         <= 100                 D Registering a Command
name, each name localisation           1-32, the name regex,  D Naming; S maxLength 32
                                       lowercase where a
                                       letter has a lowercase
description, each localisation         1-100 (chat input)     D; S maxLength 100
localisation keys                      Discord's locales      D Localization (ours: code)
options per command or subcommand      <= 25                  D; S maxItems 25
option names among siblings            unique                 D (ours: code)
choices per option                     <= 25                  D; S maxItems 25
choice name, each localisation         1-100                  D; S
string choice value                    <= 100                 D Option Choice Structure
all of a command's names,              <= 8,000 per locale    D "combined sum ... 8000"
descriptions, choice names and values
=====================================  =====================  ============================
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.sandbox.limits import Path, _Errors

#: Discord's locales (the keys a localisation may have).
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
    "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru",
    "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
})
#: Discord's naming rule for chat input commands and options.
NAME = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
#: The most characters of one command's text per locale.
COMMAND_CHARS = 8000
#: Option types that are subcommands or groups (their options are checked the same way).
NESTED = (1, 2)


def _name(err: _Errors, path: Path, name: Any) -> None:
    if not isinstance(name, str) or not NAME.fullmatch(name) or name != name.lower():
        err.add(path, "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid")  # Discord's code and words


def _localised(err: _Errors, path: Path, mapping: Any, check: Any) -> None:
    if mapping is None:
        return
    if not isinstance(mapping, Mapping):
        err.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    for locale, text in mapping.items():
        if locale not in LOCALES:
            err.add((*path, locale), "LOCALE_INVALID", "Invalid locale")  # ours
            continue
        check((*path, locale), text)


def _texts(node: Mapping[str, Any], locale: str | None) -> int:
    """Characters of ``node``'s name and description in ``locale`` (``None``: default)."""
    total = 0
    for key in ("name", "description"):
        text = node.get(key) or ""
        if locale is not None:
            text = (node.get(f"{key}_localizations") or {}).get(locale) or text
        total += len(str(text))
    return total


def _option(err: _Errors, path: Path, opt: Mapping[str, Any], sizes: dict[str | None, int],
            locales: set[str]) -> None:
    _name(err, (*path, "name"), opt.get("name"))
    err.length((*path, "description"), opt.get("description"), 1, 100)
    _localised(err, (*path, "name_localizations"), opt.get("name_localizations"),
               lambda p, t: _name(err, p, t))
    _localised(err, (*path, "description_localizations"),
               opt.get("description_localizations"), lambda p, t: err.length(p, t, 1, 100))
    locales.update(opt.get("name_localizations") or {})
    locales.update(opt.get("description_localizations") or {})
    for loc in sizes:
        sizes[loc] += _texts(opt, loc)
    if opt.get("type") in NESTED:
        _options(err, (*path, "options"), opt.get("options") or [], sizes, locales)
        return
    choices = opt.get("choices") or []
    err.length((*path, "choices"), choices, 0, 25)
    for i, choice in enumerate(choices):
        cpath = (*path, "choices", i)
        err.length((*cpath, "name"), choice.get("name"), 1, 100)
        _localised(err, (*cpath, "name_localizations"), choice.get("name_localizations"),
                   lambda p, t: err.length(p, t, 1, 100))
        locales.update(choice.get("name_localizations") or {})
        if isinstance(choice.get("value"), str):
            err.length((*cpath, "value"), choice["value"], 0, 100)
        for loc in sizes:
            name = choice.get("name") or ""
            if loc is not None:
                name = (choice.get("name_localizations") or {}).get(loc) or name
            sizes[loc] += len(str(name)) + len(str(choice.get("value", "")))


def _options(err: _Errors, path: Path, options: Sequence[Mapping[str, Any]],
             sizes: dict[str | None, int], locales: set[str]) -> None:
    err.length(path, options, 0, 25)
    seen: set[str] = set()
    for i, opt in enumerate(options):
        if opt.get("name") in seen:
            err.add((*path, i, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    "Option name already exists")  # ours
        seen.add(str(opt.get("name")))
        _option(err, (*path, i), opt, sizes, locales)


def check_commands(body: Any) -> None:
    """Check a command sync's body (a list of commands). Raises
    :class:`~bot.sandbox.limits.Refusal` (400, 50035) naming every field that breaks a
    rule of the module docstring."""
    err = _Errors()
    commands = list(body or [])
    err.length((), [c for c in commands if c.get("type", 1) == 1], 0, 100)
    for i, cmd in enumerate(commands):
        if cmd.get("type", 1) != 1:  # a context menu: a name of 1-32 characters, any case
            err.length((i, "name"), cmd.get("name"), 1, 32)
            _localised(err, (i, "name_localizations"), cmd.get("name_localizations"),
                       lambda p, t: err.length(p, t, 1, 32))
            continue
        path: Path = (i,)
        _name(err, (*path, "name"), cmd.get("name"))
        err.length((*path, "description"), cmd.get("description"), 1, 100)
        _localised(err, (*path, "name_localizations"), cmd.get("name_localizations"),
                   lambda p, t: _name(err, p, t))
        _localised(err, (*path, "description_localizations"),
                   cmd.get("description_localizations"), lambda p, t: err.length(p, t, 1, 100))
        # The size per locale: first gather every locale any part of the command names.
        locales: set[str] = set(cmd.get("name_localizations") or {})
        locales.update(cmd.get("description_localizations") or {})
        probe: dict[str | None, int] = {None: 0}
        _options(_Errors(), (), cmd.get("options") or [], probe, locales)
        sizes: dict[str | None, int] = {loc: _texts(cmd, loc)
                                        for loc in [None, *sorted(locales & LOCALES)]}
        _options(err, (*path, "options"), cmd.get("options") or [], sizes, set())
        for loc, size in sizes.items():
            if size > COMMAND_CHARS:
                err.add(path, "APPLICATION_COMMAND_TOO_LARGE",  # ours
                        f"Command exceeds maximum size ({COMMAND_CHARS}) in {loc or 'default'}")
    err.raise_if_any()
