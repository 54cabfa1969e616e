"""Names and other text members typed, in the one right form for where Discord shows them.

Discord renders markdown (and mentions) in message content and in embed titles,
descriptions and field names/values; it shows plain text, with no markdown at all, in
component labels (buttons, select options and their descriptions), select placeholders,
modal titles and labels, thread names, embed footers and author names, and autocomplete
choices. So a member's text is :func:`md_name` in the first group (a backslash before each
markdown character, mentions broken so they neither render nor ping) and :func:`plain_name`
in the second (as typed: a backslash there would be shown as a backslash).

Pings are never decided by the text: the bot's default allowed mentions ping nobody, and
a message meant to ping passes :func:`pinging` with the exact members.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

import discord
from babel.lists import format_list

from bot.i18n import ENGLISH, PSEUDO, supported, translate_n

ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"
#: Breaks a mention: Discord does not parse ``@everyone``/``<@id>`` with this after the @.
ZERO_WIDTH_SPACE = "\u200b"

# ``@everyone``, ``@here``, and the @ of ``<@id>``, ``<@!id>``, ``<@&id>`` (any digits).
_AT_MENTION = re.compile(r"@(?=everyone|here|[!&]?\d)")
# A numbered-list marker at the start of a line ("1. "), which escape_markdown leaves.
_LIST_NUMBER = re.compile(r"^(\s*\d+)\.(?=\s)", re.MULTILINE)
# Channel links, custom emojis, timestamps and slash-command links: ``<#``, ``<:``,
# ``<a:``, ``<t:``, ``</``. They do not ping, but a name should not render as one.
_ANGLE_TOKEN = re.compile(r"<(?=[#:/]|a:|t:)")


def cut(text: str, limit: int | None) -> str:
    """``text`` cut to ``limit`` characters, the last one an ellipsis when it was longer
    (``None``: no limit)."""
    if limit is None or len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + ELLIPSIS


def and_list(lang: str | None, items: Sequence[str]) -> str:
    """``items`` joined the way ``lang`` lists things ("A, B and C"; Babel's list
    patterns; the pseudo-locale as English)."""
    if not items:
        return ""
    return str(format_list(list(items), locale=supported(lang) if lang not in (None, PSEUDO)
                           else ENGLISH))


def listed(items: Sequence[str], *, most: int = 10, budget: int = 1200,
           lang: str | None = None) -> str:
    """``items`` joined with ", ", the first ``most`` of them at most and no more than
    ``budget`` characters (the first item always), the rest counted in ``lang``: "A, B, …
    and 62 more". Keeps a list of unbounded length within Discord's 2,000-character
    messages."""
    shown: list[str] = []
    size = 0
    for item in items[:most]:
        if shown and size + 2 + len(item) > budget:
            break
        size += (2 if shown else 0) + len(item)
        shown.append(item)
    rest = len(items) - len(shown)
    if not rest:
        return ", ".join(shown)
    return translate_n(lang, "{items}, … and {count} more", "{items}, … and {count} more",
                       rest, items=", ".join(shown))


#: Display names whose markdown-safe text :func:`md_name` keeps (every table names each
#: seat again on every change).
MD_NAMES_KEPT = 4096


@lru_cache(maxsize=MD_NAMES_KEPT)
def md_name(name: str, limit: int | None = None) -> str:
    """A member's text for markdown-rendered places (content, embed title/description/
    fields): trimmed, cut to ``limit`` characters of the text as typed, then markdown
    escaped with backslashes and every mention (``@everyone``, ``@here``, ``<@id>``,
    ``<@&id>``) broken by a zero-width space after the @, so it shows as typed and
    never pings or renders as a mention."""
    text = discord.utils.escape_markdown(cut(name.strip(), limit))
    text = _LIST_NUMBER.sub(r"\1\\.", text)
    text = _ANGLE_TOKEN.sub("<" + ZERO_WIDTH_SPACE, text)
    return _AT_MENTION.sub("@" + ZERO_WIDTH_SPACE, text)


def plain_name(name: str, limit: int | None = None) -> str:
    """A member's text for places Discord shows without markdown (button and option
    labels, option descriptions, placeholders, modal titles and labels, thread names,
    embed footers): as typed, only trimmed and cut to ``limit`` characters (the field's
    documented limit, e.g. 80 for a button label, 100 for an option label)."""
    return cut(name.strip(), limit)


def pinging(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly the members ``user_ids`` (no one else, no roles,
    no @everyone/@here, not the author of a replied-to message), whatever the text says."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(id=uid) for uid in dict.fromkeys(user_ids)],
    )
