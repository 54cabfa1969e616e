"""Alpaca Pacapaca in a language through real discord.py dispatch in the sandbox: a
French game whose thread, table and negotiation panel are French while a member whose
Discord client is German gets their own panels (My hand, the Keep panel, the partner
picker, the deal editor) in German."""

from __future__ import annotations

from bot.games.pacapaca.cards import catalog
from bot.games.pacapaca.models import StartNegotiation
from bot.i18n import translate
from bot.present.pacapaca_words import card_list
from bot.sandbox.demo import NAMES, lobby_button
from bot.sandbox.drivers.pacapaca import find, perform
from tests.support import description, headline, pictures, texts
from tests.support.pacapaca_ui import (  # noqa: F401 - fixtures
    GID,
    clock,
    ctx_for,
    load,
    member_of,
    sb,
    seed,
    table_message,
    until_both_have_necks,
    world,
)


async def start_in(world, names, language):  # noqa: F811
    host = world.member(names[0])
    await host.slash("play", game="pacapaca", language=language)
    lobby = host.last_reply
    for n in names[1:]:
        await world.member(n).click(lobby, lobby_button(lobby, "join"))
    await host.click(lobby, lobby_button(lobby, "start"))
    return lobby.thread


async def test_a_german_client_in_a_french_pacapaca_game(world, sb):  # noqa: F811
    thread = await start_in(world, NAMES[:2], "fr")
    assert (await sb.bot.service.get(GID)).options["language"] == "fr"
    _, seats, st = await load(sb.bot)
    active = st.seats[st.active]
    other = next(s for s in st.seats if s != active)
    am, om = await member_of(world, sb.bot, active), await member_of(world, sb.bot, other)
    am.locale = "de"  # the active player's client is German; the other's English (US)
    table = thread.last_message
    # The table is French.
    assert table.labels[:3] == ["Piocher 2", "Prendre la défausse (0)", "Négocier"]
    assert (f"À **{am.name}** de jouer : piocher 2.\nPioche 20 \N{MIDDLE DOT} défausse 0"
            in description(table))
    # The table picture and the end's picture are drawn in the game's language.
    cog = sb.bot.game_cog("pacapaca")
    loaded = await cog.load_table(GID)
    assert cog.picture(loaded).kwargs["lang"] == "fr"
    assert cog.end_picture(loaded).kwargs["lang"] == "fr"
    # The German member's My hand is German, the English member's English.
    await am.click(table, "Ma main")  # the game is French
    assert headline(am.last_reply) == ("Du hast keine verdeckten Karten im Ablagestapel. "
                                       "Hier ist dein Alpaka aus der Nähe.")
    [(_, alt)] = pictures(am.last_reply)
    assert alt.startswith("Dein Alpaka aus der Nähe: oben ")
    assert "ein Hals aus 0 Karten (nichts)" in alt
    await om.click(table, "Ma main")
    assert headline(om.last_reply) == ("You have no cards face down in the discard pile. "
                                       "Here is your alpaca, close up.")
    # The German member draws: the Keep panel is German, the thread's line French.
    await am.click(table, "Piocher 2")
    _, _, st = await load(sb.bot)
    drawn = list(st.drawn)
    reply = am.last_reply
    assert reply.ephemeral
    assert headline(reply).startswith(f"Du hast **{card_list(drawn, 'de')}** gezogen. "
                                      "Behalte eine für dein Alpaka;")
    assert reply.labels[0] == f"{card_list(drawn[:1], 'de')} behalten"
    assert pictures(reply) == [("drawn.png", "Die zwei Karten, die du gezogen hast: "
                                f"{card_list(drawn, 'de')}.")]
    assert (f"{am.name} a pioché deux cartes et en choisit une."
            in description(thread.last_message))
    await am.click(reply, reply.labels[0])
    assert headline(reply) == f"Du hast {card_list(drawn[:1], 'de')} behalten."
    assert any(headline(m) == f"Du hast {card_list(drawn[1:], 'de')} verdeckt auf den "
               "Ablagestapel gelegt." for m in am.ephemerals)
    assert (f"{am.name} ajoute {card_list(drawn[:1], 'fr')} et pose l'autre carte face "
            "cachée sur la défausse." in description(thread.last_message))


async def test_the_negotiation_panel_is_french_and_the_german_deal_editor_german(world, sb):  # noqa: F811
    thread = await start_in(world, NAMES[:2], "fr")
    st = await until_both_have_necks(world, sb.bot, thread)
    active, partner = st.seats[st.active], st.seats[1 - st.active]
    am, pm = await member_of(world, sb.bot, active), await member_of(world, sb.bot, partner)
    pm.locale = "de"
    # The active member (English client) opens the partner picker: English, theirs.
    await am.click(table_message(am, thread), "Négocier")
    picker = am.last_reply
    assert picker.selects()[0]["placeholder"] == "Negotiate with..."
    await perform(await ctx_for(world, sb.bot, thread, active), StartNegotiation(partner=partner))
    panel = table_message(pm, thread)
    words = "\n".join(texts(panel))
    assert f"**{am.name}** négocie avec **{pm.name}**." in words
    assert "Pas encore d'accord sur la table." in words
    assert "Propositions restantes : 8." in words
    assert panel.labels[:4] == ["Modifier l'accord", "Accepter", "Refuser", "Abandonner"]
    # The German partner's deal editor is German.
    await pm.click(panel, "Modifier l'accord")
    editor = pm.last_reply
    assert editor.ephemeral
    assert headline(editor).startswith(f"**Dein Angebot an {am.name}** (nur du siehst es, "
                                       "bis du Vorschlagen drückst)")
    assert "\N{BULLET} Du gibst: nichts" in headline(editor)
    assert find(editor, "give.", prefix=True)["placeholder"] == "Karten, die ich gebe"
    assert find(editor, "get.", prefix=True)["placeholder"] == (
        f"Karten, die ich von {am.name} bekomme")
    assert editor.labels == ["Vorschlagen"]
    # A German option's description is the card's German reminder.
    mine = find(editor, "give.", prefix=True)["options"]
    assert mine and all(o["description"] in {translate("de", k.blurb) for k in catalog().kinds}
                        for o in mine)
