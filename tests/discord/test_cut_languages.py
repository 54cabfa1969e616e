"""Words cut to Discord's limits say how much was left out in the language of the message
they are cut in (:func:`bot.discord.layout.fit_text`): plural forms per language, a
longer language's count still within the limit, and a German lobby made to hold too many
words cut in German and accepted by the strict sandbox."""

from __future__ import annotations

import dataclasses

from bot.app import builtin_games
from bot.discord.layout import TEXT_LIMIT, card, fit_text
from bot.games.registry import Registry
from bot.runtime import ManualClock
from bot.sandbox import World
from cogs.lobby_card import lobby_card
from tests.discord.conftest import make_bot
from tests.support import texts

SPEC = builtin_games()["llamas-unleashed"]


def test_the_cut_is_counted_in_the_messages_language():
    assert fit_text("x" * 100, 60) == "x" * 30 + "… (70 more characters)"
    assert fit_text("x" * 100, 60, "de") == "x" * 30 + "… (70 weitere Zeichen)"
    assert fit_text("x" * 100, 60, "fr") == "x" * 30 + "… (70 caractères de plus)"
    assert fit_text("x" * 100, 60, "es") == "x" * 30 + "… (70 caracteres más)"
    assert fit_text("x" * 100, 60, "pt_BR") == "x" * 30 + "… (mais 70 caracteres)"
    # Polish: 2-4 (but not 12-14) "znaki", else "znaków".
    assert fit_text("x" * 62, 60, "pl") == "x" * 30 + "… (jeszcze 32 znaki)"
    assert fit_text("x" * 65, 60, "pl") == "x" * 30 + "… (jeszcze 35 znaków)"
    assert fit_text("x" * 42, 40, "pl") == "x" * 10 + "… (jeszcze 32 znaki)"
    # A count longer than the room left for it (the pseudo-locale's) keeps less text.
    assert fit_text("x" * 1200, 60, "en_XA") == (
        "x" * 29 + "… (1,171 ɱööŕéé çĥààŕààçţééŕš)·")
    assert fit_text("short", 60, "de") == "short"


def test_a_card_cuts_its_longest_words_in_its_language():
    view = card(accent=0, before=["w" * 3000, "v" * 2000], lang="de")
    shown = [c.content for c in view.walk_children() if hasattr(c, "content")]
    assert sum(map(len, shown)) <= TEXT_LIMIT
    assert shown[0] == "w" * 1970 + "… (1.030 weitere Zeichen)"


async def test_a_german_lobby_too_long_is_cut_in_german_and_accepted(tmp_path):
    world = World()
    for name in ("Ana", "Bo"):
        world.add_member(name)
    bot = make_bot(tmp_path / "cut.sqlite3", ManualClock(), registry=Registry([SPEC]),
                   extensions=("cogs.lobby", "cogs.game", "cogs.admin", "cogs.unleashed"))
    await world.connect(bot)
    try:
        await world.member("Ana").slash("play", game="llamas-unleashed", language="de")
        record = await bot.service.get(1)
        assert record.options["language"] == "de"
        wordy = dataclasses.replace(SPEC, description="eine sehr lange Beschreibung " * 250)
        view = lobby_card(record, await bot.service.seats(1), wordy)
        sent = await bot.get_channel(world.channel().id).send(view=view)
        over = world.messages[sent.id]
        assert sum(map(len, texts(over))) <= TEXT_LIMIT
        cut = [t for t in texts(over) if t.endswith("weitere Zeichen)")]
        assert len(cut) == 1 and "more characters" not in "".join(texts(over))
        assert [r for r in world.requests if r.status >= 400] == []
    finally:
        await world.disconnect()
