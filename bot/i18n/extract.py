"""The catalogue's message ids, extracted from the source with Babel, and the template
and catalogues kept up to date with them.

:func:`update` writes ``locales/herdbot.pot`` (every sentence of ``bot/`` and ``cogs/``
passed to :func:`~bot.i18n.translate`, :func:`~bot.i18n.translate_n` or marked
:func:`~bot.i18n.N_`, plus the slash commands' strings) and merges it into each
language's ``.po`` (new sentences come in untranslated, gone ones are marked obsolete),
as ``pybabel update`` would. ``python -m bot.sandbox.messages`` runs it with the strings
of the bot's command tree; ``python -m bot.i18n.extract`` keeps the command strings the
template already has.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n.catalog import DOMAIN, LOCALES, po_path
from bot.i18n.languages import CATALOGUED, ENGLISH

#: The functions whose arguments are message ids (Babel's keyword specs: argument
#: positions from 1).
KEYWORDS = {"translate": (2,), "translate_n": (2, 3), "N_": None}
#: The folders whose Python files are searched, under the source tree's root.
SOURCES = ("bot", "cogs")
#: The source tree's root.
ROOT = Path(__file__).resolve().parents[2]
#: The template: every message id, untranslated.
TEMPLATE = LOCALES / f"{DOMAIN}.pot"

Message = str | tuple[str, str]


def source_messages(root: Path = ROOT) -> dict[Message, list[str]]:
    """Every message id in the Python files of :data:`SOURCES` under ``root`` (a plural
    one as ``(singular, plural)``) -> where it is used (``path:line``), in file order.
    A call whose message is not a string literal is not a message id (nothing found)."""
    found: dict[Message, list[str]] = {}
    for folder in SOURCES:
        for filename, line, message, _comments, _context in extract_from_dir(
                root / folder, method_map=[("**.py", "python")], keywords=KEYWORDS):
            if isinstance(message, tuple):
                if not all(message[:2]):
                    continue
                message = (message[0], message[1])
            elif not message:
                continue
            found.setdefault(message, []).append(f"{folder}/{filename}:{line}")
    return found


def template(extra: Sequence[tuple[str, str]] = (), root: Path = ROOT) -> Catalog:
    """The template catalogue: :func:`source_messages` of ``root`` and ``extra``
    (``(context, English string)``: the command strings)."""
    catalog = Catalog(locale=ENGLISH, domain=DOMAIN, project="herdbot")
    for message, places in source_messages(root).items():
        catalog.add(message, locations=[(p.rsplit(":", 1)[0], int(p.rsplit(":", 1)[1]))
                                        for p in places],
                    flags=("python-brace-format",) if "{" in str(message) else ())
    for context, text in extra:
        catalog.add(text, context=context)
    return catalog


def command_strings_of(path: Path = TEMPLATE) -> list[tuple[str, str]]:
    """The command strings (messages with a context) of the template at ``path``."""
    if not path.exists():
        return []
    with path.open("rb") as fp:
        pot = read_po(fp)
    return [(m.context, str(m.id)) for m in pot if m.id and m.context]


def update(root: Path = ROOT, extra: list[tuple[str, str]] | None = None) -> list[str]:
    """Write the template and merge it into each catalogue (module docstring); returns
    the files written. ``extra``: the command strings (default: those the template
    already has)."""
    pot = template(command_strings_of() if extra is None else extra, root)
    LOCALES.mkdir(parents=True, exist_ok=True)
    with TEMPLATE.open("wb") as fp:
        write_po(fp, pot, width=100, sort_output=False)
    written = [str(TEMPLATE)]
    for lang in CATALOGUED:
        if lang == ENGLISH:
            continue
        path = po_path(lang)
        with path.open("rb") as fp:
            catalog = read_po(fp, locale=lang, domain=DOMAIN)
        catalog.update(pot, no_fuzzy_matching=True)
        with path.open("wb") as fp:
            write_po(fp, catalog, width=100, omit_header=False, ignore_obsolete=False)
        written.append(str(path))
    return written


if __name__ == "__main__":  # pragma: no cover - a contributor's tool
    for name in update():
        print(name)
    sys.exit(0)
