"""The catalogue's message ids, extracted from the source with Babel, and the template
and catalogues kept up to date with them.

:func:`update` writes one template per part of the catalogue
(``locales/<part>.pot``, :data:`~bot.i18n.catalog.PARTS`: every sentence of ``bot/`` and
``cogs/`` passed to :func:`~bot.i18n.translate`, :func:`~bot.i18n.translate_n` or marked
:func:`~bot.i18n.N_`, the slash commands' strings, and the Llamas Unleashed cards' words
from the seeds: :func:`card_messages`) and merges each into each
language's ``<part>.po`` as ``pybabel update`` would: new sentences come in untranslated,
a sentence that moved to another part keeps its translation, and gone ones are dropped.
Places are written without line numbers, so a catalogue changes only when its sentences
do. ``python -m bot.sandbox.messages`` runs it with the strings
of the bot's command tree; ``python -m bot.i18n.extract`` keeps the command strings the
template already has.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.games.unleashed.cards import KIND_NAMES, TYPE_NAMES, Effect, load_card_set
from bot.i18n.catalog import (
    CARD_NAME,
    CARD_TEXT,
    DOMAIN,
    LOCALES,
    PARTS,
    part_of,
    po_path,
    read_catalogue,
)
from bot.i18n.languages import CATALOGUED, ENGLISH

#: The functions whose arguments are message ids (Babel's keyword specs: argument
#: positions from 1).
KEYWORDS = {"translate": (2,), "translate_n": (2, 3), "N_": None}
#: The folders whose Python files are searched, under the source tree's root.
SOURCES = ("bot", "cogs")
#: The source tree's root.
ROOT = Path(__file__).resolve().parents[2]
#: The template of the main part (the slash commands' strings are kept there).
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
#: The Llamas Unleashed seed file, from the source tree's root.
UNLEASHED_SEED = "seeds/unleashed.json"
#: Where the words of a card's type line are defined, from the source tree's root.
TYPE_LINE_SOURCE = "bot/games/unleashed/cards.py"


def template_path(part: str) -> Path:
    """The template of ``part`` (every message id of that part, untranslated)."""
    return LOCALES / f"{part}.pot"

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


def _labels(effect: Effect | None) -> list[str]:
    """The labels of every ``choice`` option in the effect tree ``effect``, in order."""
    if effect is None:
        return []
    out = [option.label for option in effect.options]
    for child in (*effect.steps, effect.first, effect.next, effect.do, effect.if_you_do,
                  effect.eff, *(option.eff for option in effect.options)):
        out += _labels(child)
    return out


def card_messages(root: Path = ROOT) -> dict[tuple[str, str], list[str]]:
    """Every word of a Llamas Unleashed card a player reads, as ``(context, English)`` ->
    its places: each design's ``name`` (:data:`~bot.i18n.catalog.CARD_NAME`), each
    design's and Herd Bonus's ``text`` and each choice option's ``label``
    (:data:`~bot.i18n.catalog.CARD_TEXT`) from :data:`UNLEASHED_SEED` under ``root``, in
    file order; and the type line's words (``TYPE_NAMES``, ``KIND_NAMES``: ``CARD_NAME``,
    placed at :data:`TYPE_LINE_SOURCE`). Raises ``pydantic.ValidationError`` for a bad
    seed file."""
    cards = load_card_set(root / UNLEASHED_SEED)
    found: dict[tuple[str, str], list[str]] = {}
    for bonus in cards.herd.bonuses.values():
        found[(CARD_TEXT, bonus.text)] = [UNLEASHED_SEED]
        for label in _labels(bonus.eff):
            found[(CARD_TEXT, label)] = [UNLEASHED_SEED]
    for design in (*cards.nursery, *cards.deck):
        found[(CARD_NAME, design.name)] = [UNLEASHED_SEED]
        found[(CARD_TEXT, design.text)] = [UNLEASHED_SEED]
        effects = (design.play, design.on_enter, design.start.eff if design.start else None)
        for label in (label for effect in effects for label in _labels(effect)):
            found[(CARD_TEXT, label)] = [UNLEASHED_SEED]
    for word in (*TYPE_NAMES.values(), *KIND_NAMES.values()):
        found.setdefault((CARD_NAME, word), [TYPE_LINE_SOURCE])
    return found


def templates(extra: Sequence[tuple[str, str]] = (), root: Path = ROOT) -> dict[str, Catalog]:
    """The template of each part of :data:`~bot.i18n.catalog.PARTS`:
    :func:`source_messages` and :func:`card_messages` of ``root``, each in its part, and
    ``extra`` (``(context, English string)``: the command strings) in the main part."""
    out = {part: Catalog(locale=ENGLISH, domain=DOMAIN, project="herdbot") for part in PARTS}
    for message, places in source_messages(root).items():
        out[part_of(places)].add(
            message, locations=[(p.rsplit(":", 1)[0], int(p.rsplit(":", 1)[1]))
                                for p in places],
            flags=("python-brace-format",) if "{" in str(message) else ())
    for (context, text), places in card_messages(root).items():
        out[part_of(places)].add(text, context=context, locations=[(p, 0) for p in places])
    for context, text in extra:
        out[DOMAIN].add(text, context=context)
    return out


def template(extra: Sequence[tuple[str, str]] = (), root: Path = ROOT) -> Catalog:
    """Every part's template as one catalogue."""
    catalog = Catalog(locale=ENGLISH, domain=DOMAIN, project="herdbot")
    for part in templates(extra, root).values():
        for message in part:
            if message.id:
                catalog[message.id] = message
    return catalog


def command_strings_of(path: Path = TEMPLATE) -> list[tuple[str, str]]:
    """The command strings (messages with a context) of the main part's template."""
    if not path.exists():
        return []
    with path.open("rb") as fp:
        pot = read_po(fp)
    return [(m.context, str(m.id)) for m in pot if m.id and m.context]


def update(root: Path = ROOT, extra: list[tuple[str, str]] | None = None) -> list[str]:
    """Write the template and merge it into each catalogue (module docstring); returns
    the files written (a file whose only change would be its date is left alone). ``extra``: the command strings (default: those the template
    already has)."""
    pots = templates(command_strings_of() if extra is None else extra, root)
    LOCALES.mkdir(parents=True, exist_ok=True)
    written = []
    for part, pot in pots.items():
        path = template_path(part)
        if not len(pot) and part != DOMAIN:
            path.unlink(missing_ok=True)
            continue
        buffer = io.BytesIO()
        write_po(buffer, pot, width=100, sort_output=False, include_lineno=False)
        if _write(path, buffer.getvalue()):
            written.append(str(path))
    for lang in CATALOGUED:
        if lang == ENGLISH:
            continue
        for part, pot in pots.items():
            path = po_path(lang, part=part)
            if not len(pot) and part != DOMAIN:
                path.unlink(missing_ok=True)
                continue
            catalog = read_catalogue(lang)
            catalog.update(pot, no_fuzzy_matching=True)
            buffer = io.BytesIO()
            write_po(buffer, catalog, width=100, omit_header=False, ignore_obsolete=True,
                     include_lineno=False)
            if _write(path, buffer.getvalue()):
                written.append(str(path))
    return written


#: Header lines that change at every run (left out when deciding whether a file changed).
_DATED = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*\\n"$', re.M)


def _write(path: Path, text: bytes) -> bool:
    """Write ``text`` to ``path`` unless the file differs only in its dated header lines;
    True when written."""
    if path.exists() and _DATED.sub(b"", path.read_bytes()) == _DATED.sub(b"", text):
        return False
    path.write_bytes(text)
    return True


if __name__ == "__main__":  # pragma: no cover - a contributor's tool
    for name in update():
        print(name)
    sys.exit(0)
