"""herdbot's words in its players' languages: gettext catalogues (Babel), plural forms,
number formats, and the pseudo-locale. Pure: no Discord, no asyncio; the catalogues are
read from the package's own files when first needed (:mod:`bot.i18n.catalog`).

Usage: ``translate(lang, "{name} joined.", name=...)`` and
``translate_n(lang, "{count} card", "{count} cards", n, ...)``; a sentence defined away
from where it is shown is marked ``N_("...")`` for the extraction and translated there.
Message ids are whole English sentences with named placeholders, never pieces glued
together, so each language orders its own words.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from babel.numbers import format_decimal

from bot.i18n.catalog import (
    CARD_NAME,
    CARD_TEXT,
    COMMAND_NAME,
    COMMAND_TEXT,
    MENU_NAME,
    SAID_MAX,
    catalogue,
    kept_until_forget,
)
from bot.i18n.catalog import said as _said
from bot.i18n.languages import (
    CATALOGUED,
    ENGLISH,
    NATIVE_NAMES,
    PSEUDO,
    SHIPPED,
    discord_locales,
    game_language,
    member_language,
    operator_language,
    supported,
)
from bot.i18n.pseudo import pseudo, pseudo_of

#: A language: one of :data:`SHIPPED` (a plain ``str`` so models and the store keep it).
Lang = str
#: A sentence not yet in a language: the language -> the sentence in it.
Sentence = Callable[[str], str]


def N_(msgid: str) -> str:  # noqa: N802 - gettext's name for a marker
    """Mark ``msgid`` for the catalogue without translating it here (gettext_noop)."""
    return msgid


def _lang(lang: str | None) -> str:
    return supported(lang) or ENGLISH


def _fill(text: str, placeholders: dict[str, Any]) -> str:
    return text.format(**placeholders) if placeholders else text


def translate(lang: str | None, msgid: str, /, **placeholders: Any) -> str:
    """``msgid`` (an English sentence with ``{named}`` placeholders) in ``lang``, filled
    with ``placeholders``. An unknown ``lang`` is English; a message the catalogue lacks
    is English and logged once (:mod:`bot.i18n.catalog`). Raises ``KeyError`` for a
    placeholder the sentence names but ``placeholders`` lacks."""
    text = _said.get((lang, msgid))
    if text is None:
        text = _keep((lang, msgid), _gettext(_lang(lang), msgid))
    return _fill(text, placeholders)


def _gettext(lang: str, msgid: str) -> str:
    return pseudo_of(msgid) if lang == PSEUDO else catalogue(lang).gettext(msgid)


def _keep(key: tuple[Any, ...], words: Any) -> Any:
    """``words`` kept in :data:`bot.i18n.catalog.said` under ``key``; returned."""
    if len(_said) >= SAID_MAX:
        _said.clear()
    _said[key] = words
    return words


def translate_n(lang: str | None, singular: str, plural: str, count: int, /,
                **placeholders: Any) -> str:
    """The plural form of ``singular``/``plural`` (English) for ``count`` in ``lang``
    (as many forms as the language has: Polish three), filled with ``placeholders`` and
    ``count`` (as ``{count}``, formatted for the language: :func:`number`)."""
    key = (lang, singular, plural, count)
    found = _said.get(key)
    if found is None:
        found = _keep(key, _ngettext(_lang(lang), singular, plural, count))
    text, written = found
    return _fill(text, {"count": written, **placeholders})


def _ngettext(lang: str, singular: str, plural: str, count: int) -> tuple[str, str]:
    """The plural form of ``singular``/``plural`` for ``count`` in ``lang`` (unfilled)
    and ``count`` written in ``lang``."""
    if lang == PSEUDO:
        return pseudo_of(singular if count == 1 else plural), number(lang, count)
    return catalogue(lang).ngettext(singular, plural, count), number(lang, count)


def translate_in(lang: str | None, context: str, msgid: str, /) -> str:
    """``msgid`` of ``context`` (``msgctxt``: :data:`COMMAND_NAME`, :data:`COMMAND_TEXT`)
    in ``lang``; English when missing (logged once)."""
    key = (lang, context, msgid, None)
    text = _said.get(key)
    if text is None:
        lang = _lang(lang)
        text = _keep(key, pseudo_of(msgid) if lang == PSEUDO
                     else catalogue(lang).pgettext(context, msgid))
    return text  # type: ignore[no-any-return]


def has_translation(lang: str, context: str | None, msgid: str) -> bool:
    """True when the catalogue of ``lang`` has ``msgid`` (of ``context``) translated;
    always for English and the pseudo-locale."""
    lang = _lang(lang)
    if lang in (ENGLISH, PSEUDO):
        return True
    key = msgid if context is None else f"{context}\x04{msgid}"
    found = getattr(catalogue(lang), "_catalog", {})
    return key in found or (key, 0) in found


def sentence(msgid: str, /, **placeholders: Any) -> Sentence:
    """The catalogue sentence ``msgid`` (marked ``N_`` where it is written) as a
    :data:`Sentence`, filled with ``placeholders``; a placeholder that is itself a
    :data:`Sentence` is put in the same language."""
    def say(lang: str) -> str:
        return translate(lang, msgid, **{key: value(lang) if callable(value) else value
                                         for key, value in placeholders.items()})
    return say


class LocalisedError(Exception):
    """An error whose message is a catalogue sentence: ``message`` is the English text
    or a :data:`Sentence`. ``str()`` is English (logs, tests); :meth:`text` is the
    sentence in a language (the operator's terminal)."""

    def __init__(self, message: str | Sentence) -> None:
        self._say = message if callable(message) else None
        super().__init__(message(ENGLISH) if callable(message) else message)

    def text(self, lang: str | None) -> str:
        """The message in ``lang`` (English for text given as English)."""
        return self._say(_lang(lang)) if self._say is not None else str(self)


def number(lang: str | None, value: float) -> str:
    """``value`` written the way ``lang`` writes numbers (``1,234.5`` in English,
    ``1.234,5`` in German; the pseudo-locale as English). Whole numbers are kept once
    formatted (Babel's formatting takes tens of microseconds)."""
    lang = _lang(lang)
    if isinstance(value, int):
        return _whole(lang, value)
    return format_decimal(value, locale=ENGLISH if lang == PSEUDO else lang)


def decimal(lang: str | None, value: float, places: int = 1) -> str:
    """``value`` with exactly ``places`` decimals the way ``lang`` writes them
    (``12.5`` in English, ``12,5`` in German; the pseudo-locale as English)."""
    lang = _lang(lang)
    pattern = "0." + "0" * places if places > 0 else "0"
    return str(format_decimal(value, format=pattern, locale=ENGLISH if lang == PSEUDO else lang))


@functools.lru_cache(maxsize=4096)
def _whole(lang: str, value: int) -> str:
    return str(format_decimal(value, locale=ENGLISH if lang == PSEUDO else lang))


__all__ = [
    "CARD_NAME", "CARD_TEXT", "CATALOGUED", "COMMAND_NAME", "COMMAND_TEXT", "ENGLISH", "Lang", "MENU_NAME",
    "LocalisedError", "NATIVE_NAMES", "N_", "Sentence", "decimal",
    "PSEUDO", "SHIPPED", "discord_locales", "game_language", "has_translation", "kept_until_forget",
    "member_language", "number", "operator_language", "sentence", "pseudo", "supported", "translate", "translate_in",
    "translate_n",
]
