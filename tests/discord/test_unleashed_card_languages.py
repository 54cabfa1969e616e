"""``/card`` in the member's client language through the real bot in the strict sandbox:
the autocomplete offers the names in that language, a name in it or in English finds the
card, and the reply (title, rules text, picture, alternative text, footer) is in it."""

from __future__ import annotations

import pytest_asyncio

from bot.render.unleashed_card import render_card
from tests.discord.test_unleashed import new_bot
from tests.support import headline, parts, texts, title

#: Llama Spit's rules text in German.
SPIT_DE = ("Spiele sie, wenn ein Mitspieler eine Karte spielt: Annulliere diese Karte. Ist sie "
           "von der Art Lama (ein Lama-Tier oder eine Lama-Sofortkarte), nimm sie auf die "
           "Hand; sonst kommt sie auf den Ablagestapel.")


@pytest_asyncio.fixture
async def sb(world, clock, tmp_path):
    sandbox = await world.connect(new_bot(tmp_path / "u.sqlite3", clock))
    yield sandbox
    await world.disconnect()


async def test_card_in_german(world, sb):
    ana = world.member("Ana")
    ana.locale = "de"
    choices = await ana.autocomplete("card", name="spuck")
    assert [c["name"] for c in choices] == ["Spuckspritz-Lama", "Lamaspucke"]
    assert [c["value"] for c in choices] == ["Spuckspritz-Lama", "Lamaspucke"]
    await ana.slash("card", name="Lamaspucke")
    reply = ana.last_reply
    assert reply.ephemeral and reply.filenames == ["card.png"]
    assert title(reply) == "Lamaspucke"
    assert texts(reply)[:2] == ["### Lamaspucke", SPIT_DE]
    assert parts(reply)["footer"] == "Sofortkarte \u00b7 Lama \u00b7 3 Exemplare"
    assert parts(reply)["alt"] == f"Die Karte Lamaspucke: {SPIT_DE}"
    first = 115  # the first Llama Spit
    assert reply.file("card.png") == render_card(first, "de") != render_card(first)
    # An English name finds the card too; the answer stays German.
    await ana.slash("card", name="nanny alpaca")
    assert title(ana.last_reply) == "Kindermädchen-Alpaka"
    assert parts(ana.last_reply)["footer"] == "Magisches Tier \u00b7 Alpaka \u00b7 2 Exemplare"
    await ana.slash("card", name="Fohlen Knöpfchen")
    assert parts(ana.last_reply)["footer"] == "Jungtier \u00b7 Lama \u00b7 1 Exemplar"
    await ana.slash("card", name="Drache")
    assert headline(ana.last_reply).endswith(
        "Es gibt keine Llamas-Unleashed-Karte namens „Drache“.")


async def test_card_in_polish_counts_copies_with_polish_plurals(world, sb):
    ana = world.member("Ana")
    ana.locale = "pl"
    await ana.slash("card", name="Splunięcie lamy")
    assert parts(ana.last_reply)["footer"] == "Natychmiastowa \u00b7 Lama \u00b7 3 egzemplarze"
    await ana.slash("card", name="jagniątko żołądź")
    assert title(ana.last_reply) == "Jagniątko Żołądź"
    assert parts(ana.last_reply)["footer"] == "Młode \u00b7 Baran \u00b7 1 egzemplarz"
