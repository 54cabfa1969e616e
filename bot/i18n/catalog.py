"""The message catalogues: gettext ``.po`` files read with Babel when first needed.

Each language of :data:`~bot.i18n.languages.CATALOGUED` but English has one ``.po`` file
per part of the code (:data:`PARTS`: ``locales/<lang>/LC_MESSAGES/<part>.po`` beside this
module), so that translators and contributors working on different games do not edit one
file; the parts of a language are read as one catalogue. The ``.po`` files are read
at run time (Babel's ``read_po``) and turned into gettext translations in memory
(``write_mo`` into a buffer): there is no compiled ``.mo`` file to build or to forget, so
an editable install, a wheel (the ``.po`` files are package data) and CI need no step of
their own, and an edited catalogue counts at the next start. Each is read when its
language is first used, once per process (all five: about 0.3 s on a loaded 2-core
machine).

Message ids are the English sentences with named placeholders (``{name}``); plural
messages have an English plural (gettext's ``ngettext``) and as many forms per language
as its ``Plural-Forms`` header says. Strings shown by Discord's command picker carry a
context (``msgctxt``): :data:`COMMAND_NAME` for names, :data:`COMMAND_TEXT` for
descriptions and choices.
"""

from __future__ import annotations

import gettext
import io
import logging
import threading
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.i18n.languages import CATALOGUED, ENGLISH

log = logging.getLogger(__name__)

#: Where the catalogues are: ``<LOCALES>/<lang>/LC_MESSAGES/<part>.po``.
LOCALES = Path(__file__).resolve().parent / "locales"
#: The gettext domain (the catalogue files' name).
DOMAIN = "herdbot"
#: The parts of a catalogue -> the source paths (from the source tree's root) whose
#: sentences it holds. A message is in the first part one of its places matches; the
#: rest, and the slash commands' strings, are in :data:`DOMAIN`'s part. The Unleashed
#: cards' part (the seeds' names and texts, the type line's words, the ``/card`` picture
#: and reply) comes before the game's, whose prefixes would match its modules too.
PARTS: dict[str, tuple[str, ...]] = {
    "llamas_alpacas": ("bot/games/llamas_alpacas", "bot/present/llamas_alpacas",
                       "bot/render/llamas_alpacas", "bot/present/lessons/llamas_alpacas"),
    "pacapaca": ("bot/games/pacapaca", "bot/present/pacapaca", "bot/render/pacapaca",
                 "bot/present/lessons/pacapaca"),
    "unleashed_cards": ("seeds/unleashed", "bot/games/unleashed/cards.py",
                        "bot/render/unleashed_card", "bot/present/unleashed_card"),
    "unleashed": ("bot/games/unleashed", "bot/present/unleashed", "bot/render/unleashed",
                  "bot/present/lessons/unleashed"),
    "discord": ("bot/discord", "cogs", "bot/runtime"),
    DOMAIN: (),
}
#: Context of command, group and option names (lowercase, Discord's name rules).
COMMAND_NAME = "command name"
#: Context of command and option descriptions and of choice names.
COMMAND_TEXT = "command"
#: Context of context menu names (Apps menu; 1-32 characters, any case, spaces allowed).
MENU_NAME = "menu name"
#: Context of a card's name from the seeds (an Unleashed design's ``name``).
CARD_NAME = "card name"
#: Context of a card's rules text from the seeds (a design's or Herd Bonus's ``text``).
CARD_TEXT = "card text"


def po_path(lang: str, root: Path = LOCALES, part: str = DOMAIN) -> Path:
    """The ``.po`` file of ``part`` of ``lang``'s catalogue under ``root``."""
    return root / lang / "LC_MESSAGES" / f"{part}.po"


def po_paths(lang: str, root: Path = LOCALES) -> list[Path]:
    """The ``.po`` files of ``lang`` under ``root`` that exist, in :data:`PARTS` order."""
    return [path for part in PARTS if (path := po_path(lang, root, part)).is_file()]


def part_of(places: list[str]) -> str:
    """The part of :data:`PARTS` of a message used at ``places`` (``path`` or
    ``path:line`` from the source tree's root)."""
    for part, prefixes in PARTS.items():
        if any(place.startswith(prefix) for place in places for prefix in prefixes):
            return part
    return DOMAIN


def read_catalogue(lang: str, root: Path = LOCALES) -> Catalog:
    """Every part of ``lang``'s catalogue under ``root`` as one Babel catalogue (the
    header of the first part). Raises ``FileNotFoundError`` when ``lang`` has none."""
    paths = po_paths(lang, root)
    if not paths:
        raise FileNotFoundError(po_path(lang, root))
    merged: Catalog | None = None
    for path in paths:
        with path.open("rb") as fp:
            part = read_po(fp, locale=lang, domain=DOMAIN)
        if merged is None:
            merged = part
            continue
        for message in part:
            if message.id:
                merged[message.id] = message
    assert merged is not None
    return merged


class _English(gettext.NullTranslations):
    """The fallback of a catalogue: English (the message id), with each message id the
    catalogue lacks logged once per language (WARNING, one line)."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.told: set[tuple[str | None, str]] = set()
        self._lock = threading.Lock()

    def _missing(self, context: str | None, msgid: str) -> None:
        key = (context, msgid)
        with self._lock:
            if key in self.told:
                return
            self.told.add(key)
        log.warning("no %s translation of %r%s: shown in English", self.lang, msgid,
                    f" (context {context!r})" if context else "")

    def gettext(self, message: str) -> str:
        self._missing(None, message)
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self._missing(None, msgid1)
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context: str, message: str) -> str:
        self._missing(context, message)
        return message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        self._missing(context, msgid1)
        return msgid1 if n == 1 else msgid2


def load(lang: str, root: Path = LOCALES) -> gettext.NullTranslations:
    """The translations of ``lang`` read from its ``.po`` files under ``root`` (fuzzy
    entries left out), falling back to English per message (:class:`_English`). English
    itself is the message ids. Raises ``FileNotFoundError`` for a language without a
    catalogue."""
    if lang == ENGLISH:
        return gettext.NullTranslations()
    catalog = read_catalogue(lang, root)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    translations = Translations(buffer, domain=DOMAIN)
    translations.add_fallback(_English(lang))
    return translations


_loaded: dict[str, gettext.NullTranslations] = {}
_load_lock = threading.Lock()
#: Words already looked up, kept until :func:`forget`: the lookup's arguments (as
#: :func:`bot.i18n.translate`, :func:`~bot.i18n.translate_in` and
#: :func:`~bot.i18n.translate_n` are given them) -> the catalogue's words, unfilled.
said: dict[tuple[Any, ...], Any] = {}
#: Lookups :data:`said` keeps at most (emptied when full).
SAID_MAX = 50_000


def catalogue(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (one of :data:`CATALOGUED`), read once per process.
    Raises ``KeyError`` for another language."""
    if lang not in CATALOGUED:
        raise KeyError(lang)
    found = _loaded.get(lang)
    if found is None:
        with _load_lock:
            found = _loaded.get(lang)
            if found is None:
                found = _loaded[lang] = load(lang)
    return found


def forget() -> None:
    """Drop the catalogues read so far (tests; the next use reads them again)."""
    with _load_lock:
        _loaded.clear()
        said.clear()
