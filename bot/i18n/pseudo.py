"""The pseudo-locale: English made accented and about 40% longer by code, so a layout
that cannot take a longer language shows it (and so does a sentence that never went
through the catalogue: it stays plain English).

Only ASCII letters change. Placeholders (``{name}``), mentions and timestamps
(``<@1>``, ``<#2>``, ``<t:3:R>``), inline code and links are kept as they are, and so is
every other character: markdown marks, digits, emoji, spaces and line breaks.
"""

from __future__ import annotations

import functools
import math
import re

_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTED = "àƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"
_ACCENT = str.maketrans(_PLAIN, _ACCENTED)
_VOWELS = frozenset("aeiouAEIOU")

#: Spans kept exactly: placeholders, Discord's <...> tokens, inline code, links.
_KEPT = re.compile(r"\{[^{}]*\}|<[^<>\s]+>|`[^`]*`|https?://\S+")

#: How much longer a pseudo sentence is than its English letters (0.4: 40%).
GROWTH = 0.4
#: The pad that makes up the length vowel doubling did not reach.
PAD = "\N{MIDDLE DOT}"


def pseudo(text: str) -> str:
    """``text`` in the pseudo-locale: each ASCII letter accented, each vowel doubled,
    then padded with middle dots at the end so the letters grow by :data:`GROWTH`
    (rounded up); kept spans (module docstring) untouched. ``""`` stays ``""``."""
    if not text:
        return text
    out: list[str] = []
    letters = grown = 0
    pos = 0
    for match in [*_KEPT.finditer(text), None]:
        end = match.start() if match is not None else len(text)
        for ch in text[pos:end]:
            if ch in _VOWELS:
                out.append(ch.translate(_ACCENT) * 2)
                letters += 1
                grown += 1
            elif ch.isascii() and ch.isalpha():
                out.append(ch.translate(_ACCENT))
                letters += 1
            else:
                out.append(ch)
        if match is not None:
            out.append(match.group(0))
            pos = match.end()
    short = math.ceil(letters * GROWTH) - grown
    pad = " " + PAD * (short - 1) if short > 1 else PAD * short
    return "".join(out) + pad


@functools.lru_cache(maxsize=4096)
def pseudo_of(msgid: str) -> str:
    """:func:`pseudo` of a message id, kept once made (message ids are few)."""
    return pseudo(msgid)
