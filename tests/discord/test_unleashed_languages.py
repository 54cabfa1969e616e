"""Llamas Unleashed in its players' languages through the real bot in the sandbox: a
French game's table, thread lines and reaction-window buttons in French while a member
whose Discord client is German sees their panels (the Baby panel, My hand) in German."""

from __future__ import annotations

from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import ChooseBaby
from bot.i18n import CARD_NAME, translate_in
from bot.sandbox.demo import lobby_button
from bot.sandbox.drivers.unleashed import find
from tests.discord.test_unleashed import press_as, sb, state_of, table_of  # noqa: F401
from tests.support import description, headline, texts

CAT = catalog()


async def test_a_german_client_in_a_french_unleashed_game(world, sb):  # noqa: F811
    ana, bo = world.member("Ana"), world.member("Bo")
    ana.locale, bo.locale = "de", "ja"  # Japanese is not shipped: the game's language
    await ana.slash("play", game="llamas-unleashed", language="fr")
    lobby = ana.last_reply
    await bo.click(lobby, lobby_button(lobby, "join"))
    await ana.click(lobby, lobby_button(lobby, "start"))
    thread = lobby.thread
    table = thread.last_message
    # The public table: French.
    assert table.labels[0] == "Choisis ton Petit"
    assert "Chacun choisit un Petit avec **Choisis ton Petit**" in description(table)
    # Ana's Baby panel: German, the card names too.
    await ana.click(table, "Choisis ton Petit")
    menu = ana.last_reply
    assert menu.ephemeral and headline(menu) == "Wähle dein Jungtier:"
    babies = find(menu, "s.")
    assert babies["placeholder"].startswith("Wähle dein Jungtier")
    assert babies["options"][0]["label"] == "Fohlen Knöpfchen"
    assert babies["options"][0]["description"] == "Jungtier \N{MIDDLE DOT} Lama"
    # Bo's panel: the game's language.
    await bo.click(table, "Choisis ton Petit")
    assert headline(bo.last_reply) == "Choisis ton Petit :"
    await press_as(sb, ana, menu, ChooseBaby(card=CAT.ids_of("kid_clover")[0]))
    # The thread's line: French.
    assert "\N{BULLET} Ana choisit Chevreau Trèfle pour son Pré." in description(table)
    await bo.click(table, "Choisis ton Petit")  # the Nursery changed: a fresh panel
    await press_as(sb, bo, bo.last_reply, ChooseBaby(card=CAT.ids_of("cria_wisp")[0]))
    st = await state_of(sb.bot)
    assert st.phase == "action"
    who = {"s0": "Ana", "s1": "Bo"}[st.active]
    table = table_of(ana, thread)
    assert f"À **{who}** de jouer : jouer une carte ou piocher" in description(table)
    # My hand for Ana: German words around her cards (in German).
    hand_button = next(b for b in table.buttons() if b["custom_id"].endswith(":hand"))
    await ana.click(table, hand_button["custom_id"])
    panel = ana.last_reply
    assert panel.ephemeral
    words = "\n".join(texts(panel))
    assert f"### Deine Hand ({len(st.hands['s0'])} Karten)" in words
    assert all(f"**{translate_in('de', CARD_NAME, CAT[c].name)}**" in words
               for c in st.hands["s0"])
