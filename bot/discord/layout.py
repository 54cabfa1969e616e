"""Components V2 messages: one container holding a message's words, picture and choices.

A table, an end of game or a panel is a :class:`discord.ui.LayoutView` (discord.py sets the
``IS_COMPONENTS_V2`` flag for it): one :class:`~discord.ui.Container` with an accent
colour, holding text displays, the picture in a media gallery with its alternative text,
and the choices as action rows. Discord's limits for such a message (resources/message,
components/reference): at most :data:`MAX_COMPONENTS` components in all, at most
:data:`TEXT_LIMIT` characters over its text displays, a media description of at most
:data:`ALT_LIMIT`; :func:`card` trims the words to fit, saying how much it left out, so
Discord never refuses the message for its size.

A V2 message has no ``content``: its mentions are written in a text display and ping as
the message's ``allowed_mentions`` allow.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit

import discord
from discord import ui

from bot.discord.components import HerdLayout
from bot.games.registry import GameSpec
from bot.i18n import translate_n

#: Characters over all text displays of one message (Discord's documented total).
TEXT_LIMIT = 4000
#: Characters of a media gallery item's description (its alternative text).
ALT_LIMIT = 1024
#: Components of one message, nested ones included.
MAX_COMPONENTS = 40
#: The edge of a message of no game in particular (herdbot's sand).
DEFAULT_ACCENT = 0xC8A165


def accent_of(spec: GameSpec | None) -> int:
    """The accent colour of a game's messages (its presenter's; :data:`DEFAULT_ACCENT` for
    no game or a game without a presenter)."""
    presenter = None if spec is None else spec.presenter
    return DEFAULT_ACCENT if presenter is None else int(presenter.accent)


def fit_text(text: str, limit: int, lang: str | None = None) -> str:
    """``text`` cut to ``limit`` characters, the cut said with a count in ``lang``, the
    language of the message it is cut in (``"… (120 more characters)"``); unchanged when
    it fits."""
    if len(text) <= limit:
        return text
    keep = max(limit - 30, 0)
    mark = _more(len(text) - keep, lang)
    if keep + len(mark) > limit:  # a language whose words are longer
        keep = max(limit - len(mark), 0)
        mark = _more(len(text) - keep, lang)
    return f"{text[:keep]}{mark}"[:limit]


def _more(count: int, lang: str | None) -> str:
    return translate_n(lang, "… ({count} more character)",
                       "… ({count} more characters)", count)


def action_rows(items: Sequence[ui.Item[Any]]) -> list[ui.ActionRow[Any]]:
    """``items`` (buttons and selects, each with an optional ``row``) in action rows laid
    out as a classic view lays them out (a select fills a row; ``row`` pins an item; in
    order, each in the first row with room). Raises ``ValueError`` as a classic view's
    ``add_item`` does: more than 25 items, or an item that does not fit."""
    weights = [0] * 5
    rows: dict[int, list[ui.Item[Any]]] = {}
    for n, item in enumerate(items):
        if n >= 25:
            raise ValueError("maximum number of children exceeded")
        if item._is_v2():  # noqa: SLF001
            raise ValueError("v2 items cannot be added to this view")
        width = item.width
        if item.row is not None:
            at = item.row
            if weights[at] + width > 5:
                raise ValueError(f"item would not fit at row {at} ({weights[at] + width} > 5 width)")
        else:
            at = next((i for i, weight in enumerate(weights) if weight + width <= 5), -1)
            if at < 0:
                raise ValueError("could not find open space for item")
        weights[at] += width
        rows.setdefault(at, []).append(item)
    out: list[ui.ActionRow[Any]] = []
    for n in sorted(rows):
        row: ui.ActionRow[Any] = ui.ActionRow()
        for item in rows[n]:
            row.add_item(item)
        out.append(row)
    return out


def card(*, accent: int, before: Sequence[str] = (), picture: str | None = None,
         alt: str = "", after: Sequence[str] = (), rows: Sequence[ui.ActionRow[Any]] = (),
         footer: str | None = None, lang: str | None = None) -> ui.LayoutView:
    """One container of colour ``accent``: the texts ``before`` (markdown, one text display
    each, empty ones left out), the picture (``attachment://<picture>``) with its
    alternative text ``alt``, the texts ``after``, the action ``rows`` and a small
    ``footer`` line. Texts longer than Discord's total are cut from the longest first,
    each cut said with a count in ``lang``, the message's language (:func:`fit_text`);
    ``alt`` is cut to :data:`ALT_LIMIT`."""
    head = [t for t in before if t]
    tail = [t for t in after if t]
    foot = [f"-# {footer}"] if footer else []
    texts = _fit_all([*head, *tail, *foot], lang)
    head, tail, foot = texts[:len(head)], texts[len(head):len(head) + len(tail)], \
        texts[len(head) + len(tail):]
    children: list[ui.Item[Any]] = [ui.TextDisplay(t) for t in head]
    if picture is not None:
        item = discord.MediaGalleryItem(f"attachment://{picture}",
                                        description=fit_text(alt, ALT_LIMIT, lang) or None)
        children.append(ui.MediaGallery(item))
    children += [ui.TextDisplay(t) for t in tail]
    children += list(rows)
    children += [ui.TextDisplay(t) for t in foot]
    view = HerdLayout(timeout=None)
    view.add_item(ui.Container(*children, accent_colour=accent))
    return view


def panel(*, accent: int, words: str | Sequence[str], items: Sequence[ui.Item[Any]] = (),
          picture: str | None = None, alt: str = "", footer: str | None = None,
          lang: str | None = None) -> ui.LayoutView:
    """A private panel (an ephemeral answer, a DM) as one container of colour ``accent``:
    its ``words`` (one text display, or one per string), the picture (``attachment://
    <picture>``, a close-up) with its alternative text ``alt``, the buttons and selects
    ``items`` in action rows (:func:`action_rows`) and a small ``footer``; words over
    Discord's limits are cut with a count in ``lang`` (:func:`card`)."""
    texts = [words] if isinstance(words, str) else list(words)
    return card(accent=accent, before=texts, picture=picture, alt=alt,
                rows=action_rows(items), footer=footer, lang=lang)


def with_head(view: ui.LayoutView, text: str) -> ui.LayoutView:
    """``view`` (made by :func:`card`) with ``text`` as a first text display inside its
    container (a mention leading an answer posted in the channel instead)."""
    box = next((c for c in view.children if isinstance(c, ui.Container)), None)
    if box is None or not text:
        return view
    kept = list(box.children)
    out = HerdLayout(timeout=None)
    out.add_item(ui.Container(ui.TextDisplay(text), *[_detached(c, box) for c in kept],
                              accent_colour=box.accent_colour))
    return out


def _detached(item: ui.Item[Any], box: ui.Container[Any]) -> ui.Item[Any]:
    box.remove_item(item)
    return item


def _fit_all(texts: list[str], lang: str | None = None) -> list[str]:
    """``texts`` cut so that together they hold at most :data:`TEXT_LIMIT` characters: the
    longest is cut first (:func:`fit_text`, in ``lang``)."""
    texts = list(texts)
    while sum(map(len, texts)) > TEXT_LIMIT and texts:
        n = max(range(len(texts)), key=lambda i: len(texts[i]))
        over = sum(map(len, texts)) - TEXT_LIMIT
        texts[n] = fit_text(texts[n], max(len(texts[n]) - over, 40), lang)
        if len(texts[n]) <= 40:
            break
    return texts


def without_rows(view: ui.LayoutView) -> ui.LayoutView:
    """A copy of ``view`` (made by :func:`card`) without its action rows: the same words
    and picture with no buttons (a retired table)."""
    out = HerdLayout(timeout=None)
    for top in view.children:
        if isinstance(top, ui.Container):
            kept = [c for c in top.children if not isinstance(c, ui.ActionRow)]
            out.add_item(ui.Container(*kept, accent_colour=top.accent_colour))
        elif not isinstance(top, ui.ActionRow):
            out.add_item(top)
    return out


def components_of(message: discord.Message | None) -> Iterator[discord.components.Component]:
    """Every component of ``message`` as discord.py parsed it, depth first."""
    stack = list(getattr(message, "components", None) or [])[::-1]
    while stack:
        c = stack.pop()
        yield c
        stack += list(getattr(c, "children", None) or [])[::-1]


def texts_of(message: discord.Message | None) -> list[str]:
    """The text displays of a V2 ``message``, in order (``[]`` for any other message)."""
    return [c.content for c in components_of(message)
            if isinstance(c, discord.components.TextDisplay)]


def retired_copy(message: discord.Message) -> ui.LayoutView | None:
    """``message`` (a V2 message of :func:`card`) rebuilt without its action rows, its
    picture named again by its file name (``attachment://table.png``, a file it keeps);
    ``None`` when it is not a V2 message."""
    top = list(getattr(message, "components", None) or [])
    box = next((c for c in top if isinstance(c, discord.components.Container)), None)
    if box is None:
        return None
    children: list[ui.Item[Any]] = []
    for c in box.children:
        if isinstance(c, discord.components.TextDisplay):
            children.append(ui.TextDisplay(c.content))
        elif isinstance(c, discord.components.MediaGalleryComponent):
            items = [discord.MediaGalleryItem(
                f"attachment://{urlsplit(i.media.url).path.rsplit('/', 1)[-1]}",
                description=i.description) for i in c.items]
            children.append(ui.MediaGallery(*items))
        elif isinstance(c, discord.components.SeparatorComponent):
            children.append(ui.Separator())
    view = HerdLayout(timeout=None)
    view.add_item(ui.Container(*children, accent_colour=box.accent_colour))
    return view


__all__ = ["ALT_LIMIT", "DEFAULT_ACCENT", "MAX_COMPONENTS", "TEXT_LIMIT", "accent_of", "action_rows",
           "card", "components_of", "fit_text", "panel", "retired_copy", "texts_of", "with_head",
           "without_rows"]
