"""Offer any number of choices in Discord, none of them cut.

Discord documents that a string select holds 1 to 25 options, that an option's label,
value and description are at most 100 characters, that a placeholder is at most 150, that
every ``custom_id`` is unique within its message and that a message holds at most 5 action
rows (a select fills a row alone). Within those limits this module offers N choices in two
ways:

- :func:`paged_select` (one choice among N): up to 25 options in one select whose custom id
  is the caller's ``code``; past 25, one page of at most 25 options at a time, in a select
  whose code is ``<code>,p<page>``, with Previous (``<code>,b<page>``) and Next
  (``<code>,f<page>``) buttons. Clicking them edits the same message to show the page
  (the game cog's ``turn_page``). 2 rows in all.
- :func:`split_selects` (several values from N, the chosen ones kept in the message as
  defaults): one select per 25 options, all shown at once, codes ``<code>,p<k>`` (just
  ``<code>`` when one select suffices), within a budget of rows.

Option values are the caller's (a card id, an index into the engine's options): a value
chosen on page k means the same as on one select, never a page-local index.
:func:`parse_page` splits a code back into the caller's code, the kind of component and
the page.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import discord

from bot.discord.components import HerdButton, HerdSelect, button, select
from bot.discord.layout import components_of
from bot.i18n import N_, translate

#: Discord's documented maximum of options in one string select.
MAX_OPTIONS = 25
#: Discord's documented maximum length of a select option's label, value and description.
OPTION_TEXT_LIMIT = 100
#: Discord's documented maximum length of a select's placeholder.
PLACEHOLDER_LIMIT = 150
#: Discord's documented maximum of action rows in one message.
MAX_ROWS = 5

_PAGED = re.compile(r"(?P<code>.*),(?P<kind>[pbf])(?P<page>\d{1,4})")


@dataclass(frozen=True)
class Option:
    """One choice: ``value`` is what the select sends back (unique among the choices, at
    most 100 characters); ``label`` and ``description`` are cut to Discord's 100."""

    label: str
    value: str
    description: str | None = None
    default: bool = False

    def select_option(self) -> discord.SelectOption:
        """The option as discord.py's :class:`discord.SelectOption`, texts cut to fit."""
        desc = _cut(self.description, OPTION_TEXT_LIMIT) if self.description else None
        return discord.SelectOption(label=_cut(self.label, OPTION_TEXT_LIMIT) or "-",
                                    value=self.value, description=desc, default=self.default)


def _cut(text: str, n: int) -> str:
    """``text`` cut to ``n`` characters, an ellipsis marking the cut."""
    return text if len(text) <= n else text[: n - 1].rstrip() + "\u2026"


def _check(options: list[Option]) -> None:
    if not options:
        raise ValueError("no options to offer")
    values = [o.value for o in options]
    if len(set(values)) != len(values):
        raise ValueError("option values must be unique")
    if any(not 1 <= len(v) <= OPTION_TEXT_LIMIT for v in values):
        raise ValueError("an option value must be 1-100 characters")


def page_count(n: int) -> int:
    """How many pages of 25 hold ``n`` options (1 for 0..25)."""
    return max(1, math.ceil(n / MAX_OPTIONS))


#: What a paged choice's options are called when its maker names them not (``noun``).
DEFAULT_NOUN = N_("Options")


def page_of(options: list[Option], value: str) -> int:
    """The page (from 0) on which the option ``value`` appears; ``ValueError`` if none."""
    for i, o in enumerate(options):
        if o.value == value:
            return i // MAX_OPTIONS
    raise ValueError(f"no option {value!r}")


def _bounds(page: int, n: int) -> tuple[int, int]:
    """The first and last option (from 1) of ``n`` that page ``page`` (from 0) shows."""
    first = page * MAX_OPTIONS + 1
    return first, min(n, first + MAX_OPTIONS - 1)


def span(page: int, n: int, noun: str, lang: str | None = None) -> str:
    """``"Cards 26-50 of 60"`` (in ``lang``; ``noun`` already in it): which of ``n``
    options page ``page`` (from 0) shows."""
    first, last = _bounds(page, n)
    return translate(lang, "{noun} {first}-{last} of {count}", noun=noun, first=first,
                     last=last, count=n)


def _placeholder(text: str, page: int, n: int, noun: str, pages: int,
                 lang: str | None = None) -> str:
    """A select's placeholder: ``text``, after which options the page holds when paged
    (``"Cards 26-50 of 60: ..."``, one sentence in ``lang``), cut to Discord's 150."""
    if pages == 1:
        return _cut(text, PLACEHOLDER_LIMIT)
    first, last = _bounds(page, n)
    return _cut(translate(lang, "{noun} {first}-{last} of {count}: {prompt}", noun=noun,
                          first=first, last=last, count=n, prompt=text), PLACEHOLDER_LIMIT)


def parse_page(code: str) -> tuple[str, str | None, int]:
    """Split a component code made here: ``("ch.7", "p", 2)`` for the select of page 2,
    ``"b"`` / ``"f"`` for the Previous / Next buttons shown on that page, and
    ``(code, None, 0)`` for any other code."""
    match = _PAGED.fullmatch(code)
    if match is None:
        return code, None, 0
    return match["code"], match["kind"], int(match["page"])


def paged_select(
    scope: str,
    game_id: int,
    code: str,
    options: list[Option],
    *,
    placeholder: str,
    noun: str | None = None,
    page: int = 0,
    version: int | None = None,
    row: int | None = None,
    lang: str | None = None,
) -> list[HerdSelect | HerdButton]:
    """One choice among ``options``: a select of all of them when they are 25 or fewer,
    else the select of page ``page`` (clamped to the pages there are) and Previous/Next
    buttons (disabled at the ends; labels name the options they lead to). The select's
    placeholder then starts with which options it holds (``"Cards 26-50 of 60: ..."``;
    ``noun`` in ``lang``, by default :data:`DEFAULT_NOUN` translated).

    Takes 1 row, or 2 when paged (``row`` and ``row + 1`` when ``row`` is given). Raises
    ``ValueError`` for no options, duplicate values or a value outside 1-100 characters."""
    _check(options)
    noun = translate(lang, DEFAULT_NOUN) if noun is None else noun
    n = len(options)
    pages = page_count(n)
    page = min(max(page, 0), pages - 1)
    chunk = options[page * MAX_OPTIONS:(page + 1) * MAX_OPTIONS]
    shown = [o.select_option() for o in chunk]
    text = _placeholder(placeholder, page, n, noun, pages, lang)
    if pages == 1:
        return [select(scope, game_id, code, shown, version=version, placeholder=text, row=row)]
    nav_row = None if row is None else row + 1
    prev_label = ("\N{BLACK LEFT-POINTING TRIANGLE} "
                  + (span(page - 1, n, noun, lang) if page else translate(lang, "Previous")))
    next_label = ((span(page + 1, n, noun, lang) if page < pages - 1
                   else translate(lang, "Next")) + " \N{BLACK RIGHT-POINTING TRIANGLE}")
    return [
        select(scope, game_id, f"{code},p{page}", shown, version=version, placeholder=text,
               row=row),
        button(scope, game_id, f"{code},b{page}", prev_label, version=version,
               disabled=page == 0, row=nav_row),
        button(scope, game_id, f"{code},f{page}", next_label, version=version,
               disabled=page == pages - 1, row=nav_row),
    ]


def split_selects(
    scope: str,
    game_id: int,
    code: str,
    options: list[Option],
    *,
    placeholder: str,
    noun: str | None = None,
    max_selects: int = 4,
    min_values: int = 0,
    version: int | None = None,
    lang: str | None = None,
) -> list[HerdSelect]:
    """Several values from ``options``, all shown at once: one select per 25 options, each
    letting any number of its options be chosen (at least ``min_values``, capped to its
    options), defaults kept. One select has code ``code``; several have ``<code>,p<k>``
    and placeholders ``"Cards 1-25 of 40: ..."``.

    Raises ``ValueError`` when more than ``max_selects`` selects (rows) would be needed,
    or as :func:`paged_select` for bad options."""
    _check(options)
    noun = translate(lang, DEFAULT_NOUN) if noun is None else noun
    n = len(options)
    pages = page_count(n)
    if pages > max_selects:
        raise ValueError(f"{n} options need {pages} selects; only {max_selects} rows are free")
    out = []
    for page in range(pages):
        chunk = [o.select_option() for o in options[page * MAX_OPTIONS:(page + 1) * MAX_OPTIONS]]
        out.append(select(
            scope, game_id, code if pages == 1 else f"{code},p{page}", chunk, version=version,
            placeholder=_placeholder(placeholder, page, n, noun, pages, lang),
            min_values=min(min_values, len(chunk)), max_values=len(chunk),
        ))
    return out


def selects_of(message: discord.Message | None, code: str) -> list[discord.SelectMenu]:
    """The herdbot selects of ``message`` whose code, page part aside, is ``code`` (the
    selects :func:`split_selects` made for it, as Discord sent them back)."""
    out = []
    for child in components_of(message):  # in a V2 message's container too
        cid = getattr(child, "custom_id", None) or ""
        if (isinstance(child, discord.SelectMenu) and cid.startswith("hs:")
                and parse_page(cid.split(":", 4)[-1])[0] == code):
            out.append(child)
    return out


def chosen_values(message: discord.Message | None, code: str) -> list[str]:
    """The values chosen (marked default) in the selects ``code`` of ``message``: the
    draft a :func:`split_selects` message keeps in itself."""
    return [o.value for s in selects_of(message, code) for o in s.options if o.default]


def offered_values(message: discord.Message | None, code: str,
                   custom_id: str) -> list[str] | None:
    """The values the select ``custom_id`` (one of the selects ``code`` of ``message``)
    offers, chosen or not; ``None`` when the message holds no such select."""
    changed = next((s for s in selects_of(message, code) if s.custom_id == custom_id), None)
    return [o.value for o in changed.options] if changed is not None else None


def selects_needed(n: int) -> int:
    """How many selects :func:`split_selects` uses for ``n`` options."""
    return page_count(n)


__all__ = [
    "DEFAULT_NOUN", "MAX_OPTIONS", "MAX_ROWS", "OPTION_TEXT_LIMIT", "PLACEHOLDER_LIMIT", "Option",
    "chosen_values", "offered_values", "page_count", "page_of", "paged_select", "parse_page", "selects_needed",
    "selects_of", "span", "split_selects",
]
