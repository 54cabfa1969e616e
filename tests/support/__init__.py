"""Test-only support code (never shipped in /play)."""

import re
from typing import Any

import discord


async def close_world(world) -> None:  # type: ignore[no-untyped-def]
    """Fixture teardown: disconnect a bot a failed test left connected, so aiosqlite's
    worker thread ends and pytest can exit (errors there belong to the failed test)."""
    shards = getattr(world, "shards", None)  # every shard's bot
    connected = (list(dict.fromkeys(shards.values())) if shards is not None
                 else [s for s in [getattr(world, "sandbox", None)] if s is not None])
    for sandbox in connected:
        try:
            await sandbox.close()
        except BaseException:  # noqa: BLE001 - teardown after a failure; already reported
            pass


def table_lines(thread) -> list[str]:  # type: ignore[no-untyped-def]
    """Every line a thread shows: message contents (a V2 table's headline), the lines of
    embeds and of the tables' moves and turn (:func:`description`; a timeout's note leads
    the next table's lines: it has no message of its own)."""
    out: list[str] = []
    for m in thread.all_messages:
        out.append(headline(m))
        for embed in m.embeds:
            out += (embed.get("description") or "").split("\n")
        if texts(m):
            out += description(m).split("\n")
    return out


def rows(m) -> list[dict]:  # type: ignore[no-untyped-def,type-arg]
    """The action rows of a message (its buttons and selects), wherever they sit: at the
    top of a classic message, inside the container of a V2 one; ``[]`` when it offers no
    choice (a retired table keeps its words and picture, not its rows)."""
    from bot.sandbox.model import walk_components
    return [c for c in walk_components(m.components) if c.get("type") == 1]


def texts(m) -> list[str]:  # type: ignore[no-untyped-def]
    """The text displays of a Components V2 message, in order."""
    from bot.sandbox.model import walk_components
    return [c["content"] for c in walk_components(m.components) if c.get("type") == 10]


def parts(m) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """A V2 table message (``TableLook.table_card``) read back by part: ``head`` (the
    headline or pings, above the picture), ``said`` (the moves' bullets), ``turn`` (whose
    turn and the timer), ``ai`` (the AI seats), ``footer`` (title and move, without its
    ``-# ``), ``heading`` (a ``### `` title, without it) and ``alt`` (the picture's
    alternative text); ``""`` for a part it lacks."""
    from bot.sandbox.model import walk_components
    out = dict.fromkeys(("head", "said", "turn", "ai", "footer", "heading", "alt"), "")
    seen_picture = False
    for c in walk_components(m.components):
        if c.get("type") == 12:
            seen_picture = True
            out["alt"] = (c.get("items") or [{}])[0].get("description") or ""
        if c.get("type") != 10:
            continue
        text = c["content"]
        if text.startswith("-# "):
            out["footer"] = text[3:]
        elif text.startswith("**AI seats**"):
            out["ai"] = text
        elif text.startswith("### "):
            out["heading"] = text[4:]
        elif out["heading"]:  # the final scores: the body under its heading
            out["said"] = "\n\n".join(x for x in (out["said"], text) if x)
        elif seen_picture or (out["head"] and not text.startswith(("\N{BULLET} ", "("))):
            out["turn"] = text  # after the picture (a copy without it: after the headline)
        elif text.startswith("\N{BULLET} ") or text.startswith("("):
            out["said"] = text
        else:
            out["head"] = text
    return out


def description(m) -> str:  # type: ignore[no-untyped-def]
    """What a table's embed description said before tables were V2 messages: the moves'
    bullets, a blank line, whose turn (with the timer)."""
    if m.embeds:  # a message that is not V2 (a side panel)
        return m.embeds[0].get("description") or ""
    p = parts(m)
    if p["heading"] or (not p["alt"] and not p["said"] and not p["turn"]):  # final scores
        # (a panel's pings, its first text, were its content: see headline)
        return "\n\n".join(t for t in texts(m) if not t.startswith(("-# ", "### "))
                           and not re.fullmatch(r"(<@!?\d+>\s*)+", t))
    return "\n\n".join(x for x in (p["said"], p["turn"]) if x)


def headline(m) -> str:  # type: ignore[no-untyped-def]
    """What a table's ``content`` said before tables were V2 messages: its headline
    (the content of a message that is not V2)."""
    return parts(m)["head"] if texts(m) else m.content


def title(m) -> str:  # type: ignore[no-untyped-def]
    """A table's title ("Llamas & Alpacas #1"; the ``### `` heading of a message that has
    one, such as the final scores; an embed's title in a message not V2)."""
    if m.embeds:
        return m.embeds[0].get("title") or ""
    if parts(m)["heading"]:  # the final scores, a panel: its own title
        return parts(m)["heading"]
    return parts(m)["footer"].rpartition(" \N{MIDDLE DOT} ")[0]


def footer(m) -> str:  # type: ignore[no-untyped-def]
    """A table's footer ("Move 5"; an embed's footer in a message not V2)."""
    if m.embeds:
        return (m.embeds[0].get("footer") or {}).get("text") or ""
    return parts(m)["footer"].rpartition(" \N{MIDDLE DOT} ")[2]


def pictures(m) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """The pictures a message shows, in order: (file name, alternative text) of each item
    of a V2 message's media galleries; an embed's image (its ``attachment://`` name, ``""``)
    in a message not V2."""
    from bot.sandbox.model import walk_components
    out = [(str(i["media"]["url"]).split("?")[0].rsplit("/", 1)[-1], i.get("description") or "")
           for c in walk_components(m.components) if c.get("type") == 12
           for i in c.get("items") or []]
    out += [(str(e["image"]["url"]).removeprefix("attachment://"), "")
            for e in m.embeds if e.get("image")]
    return out


def fields(m) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    """The titled blocks of a V2 message, in order: each text display whose first line is
    all bold (``**Seats (2/4)**``) as ``{"name": "Seats (2/4)", "value": <the lines under
    it>}`` (what an embed's fields said before such messages were V2)."""
    out = []
    for text in texts(m):
        first, _, rest = text.partition("\n")
        if re.fullmatch(r"\*\*[^*]+\*\*", first):
            out.append({"name": first[2:-2], "value": rest})
    return out


def body(m) -> str:  # type: ignore[no-untyped-def]
    """The words under a V2 message's ``### `` heading (what an embed's description said
    before such messages were V2): the first text display after it that is neither a titled
    block (:func:`fields`) nor the footer; an embed's description in a message not V2."""
    if m.embeds:
        return m.embeds[0].get("description") or ""
    seen = False
    for text in texts(m):
        if text.startswith("### "):
            seen = True
        elif seen and not text.startswith("-# ") and not re.fullmatch(
                r"\*\*[^*]+\*\*", text.partition("\n")[0]):
            return text
    return ""


def text_channel(sb: Any, world: Any) -> discord.TextChannel:
    """The bot's ``discord.TextChannel`` for the world's main channel (AssertionError
    when it is not one)."""
    ch = sb.bot.get_channel(world.main.id)
    assert isinstance(ch, discord.TextChannel)
    return ch
