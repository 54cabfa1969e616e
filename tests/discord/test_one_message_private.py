"""Private events in a game played in one message (a group DM, no DMs): what a player
would have been sent by DM (a card pulled from their hand, the card they drew) starts
their next private answer, My hand, and is never shown to anyone else; a hidden card
never reaches another player's screen."""

from __future__ import annotations

import pytest_asyncio

from bot.i18n import CARD_NAME, translate_in
from tests.discord.test_unleashed import (
    CAT,
    cid_of,
    install,
    new_bot,
    open_panel,
    play_card,
    state_of,
    table_of,
)
from tests.discord.test_unleashed_dms import seen_as_dealt
from tests.games.unleashed.unleashed_helpers import build

SINCE = "**Since you last looked:**"


@pytest_asyncio.fixture
async def sb(world, clock, tmp_path):
    sandbox = await world.connect(new_bot(tmp_path / "one.sqlite3", clock))
    yield sandbox
    await world.disconnect()


async def start_in_group(world):  # type: ignore[no-untyped-def]
    """Llamas Unleashed #1 of Ana, Bo and Cy (s0, s1, s2) in their group DM; the group."""
    ana, bo, cy = world.member("Ana"), world.member("Bo"), world.member("Cy")
    world.install_for(ana, bo, cy)
    group = world.add_group_dm(ana, bo, cy, name="Herd")
    await ana.slash("play", game="llamas-unleashed", in_channel=group)
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    await cy.click(lobby, "Join")
    await ana.click(lobby, "Start")
    return group


async def test_a_pulled_card_is_told_to_its_owner_only_at_their_next_look(world, sb):
    ana, bo, cy = (world.member(n) for n in ("Ana", "Bo", "Cy"))
    group = await start_in_group(world)
    st = build(3, hands={"s0": ["pickpocket_goat", "hay_harvest"],
                         "s1": ["meadow_goat", "trail_llama"], "s2": []},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]},
               deck=["woolly_ram"], plays=1)
    await install(world, sb.bot, st)
    st = await state_of(sb.bot)
    await seen_as_dealt(sb.bot, st)
    await play_card(sb, ana, await open_panel(ana, group),
                    cid_of(st, "pickpocket_goat", st.hands["s0"]), "s0")
    after = await state_of(sb.bot)
    pulled = next(c for c in after.hands["s0"] if c not in st.hands["s0"])
    secret = CAT[pulled].name
    # Ana made the change and read it in her own answer.
    assert f"Ana pulls {secret} from Bo's hand." in [
        line for m in ana.ephemerals for line in m.text.splitlines()]
    # Nothing was sent by DM; Bo's next look starts with what happened to his hand.
    assert ana.dms == [] and bo.dms == [] and cy.dms == []
    await open_panel(bo, group)
    assert bo.last_reply.text.splitlines()[:3] == [
        SINCE, f"Ana pulls {secret} from Bo's hand.", "You draw Woolly Ram."]
    # Told once: his next look shows his hand only.
    await open_panel(bo, group)
    assert SINCE not in bo.last_reply.text
    # Cy's look and everything Cy can see never name the card pulled from Bo's hand.
    await open_panel(cy, group)
    assert SINCE not in cy.last_reply.text
    seen = [m.text for m in cy.visible(group)]
    assert seen and all(secret not in text for text in seen)
    assert [r for r in world.requests if r.status >= 400] == []


async def _bo_is_told(world, sb, group) -> str:  # type: ignore[no-untyped-def]
    """Ana's Pickpocket Goat pulls a card from Bo's hand (Bo then draws Woolly Ram); the
    name of the card pulled."""
    ana, bot = world.member("Ana"), sb.bot
    st = build(3, hands={"s0": ["pickpocket_goat", "hay_harvest"],
                         "s1": ["meadow_goat", "trail_llama"], "s2": []},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]},
               deck=["woolly_ram"], plays=1)
    await install(world, bot, st)
    st = await state_of(bot)
    await seen_as_dealt(bot, st)
    await play_card(sb, ana, await open_panel(ana, group),
                    cid_of(st, "pickpocket_goat", st.hands["s0"]), "s0")
    after = await state_of(bot)
    pulled = next(c for c in after.hands["s0"] if c not in st.hands["s0"])
    return CAT[pulled].name


async def test_the_lines_kept_for_a_player_outlive_a_restart_and_are_told_once(
        world, clock, tmp_path):
    db = tmp_path / "restart.sqlite3"
    sb = await world.connect(new_bot(db, clock))
    bo, cy = world.member("Bo"), world.member("Cy")
    group = await start_in_group(world)
    secret = await _bo_is_told(world, sb, group)
    assert [tuple(r) for r in await sb.bot.store._all(
        "SELECT seat, line FROM unseen_lines ORDER BY id")] == [
        ("s1", f"Ana pulls {secret} from Bo's hand."), ("s1", "You draw Woolly Ram.")]
    await world.disconnect()
    sb = await world.connect(new_bot(db, clock))  # a new bot, the same database
    try:
        await open_panel(bo, group)
        assert bo.last_reply.text.splitlines()[:3] == [
            SINCE, f"Ana pulls {secret} from Bo's hand.", "You draw Woolly Ram."]
        await open_panel(bo, group)
        assert SINCE not in bo.last_reply.text
        await open_panel(cy, group)
        assert SINCE not in cy.last_reply.text
        assert await sb.bot.store._all("SELECT * FROM unseen_lines") == []
        assert [r for r in world.requests if r.status >= 400] == []
    finally:
        await world.disconnect()


async def test_the_kept_lines_are_in_the_members_language(world, sb):
    """Bo's client is German (the game English): the lines kept for him and their heading
    are German, in his next look."""
    bo = world.member("Bo")
    bo.locale = "de"
    group = await start_in_group(world)
    assert await sb.bot.store.member_locale(bo.id) == "de"
    secret = await _bo_is_told(world, sb, group)
    await bo.click(table_of(bo, group), "My hand")
    german = translate_in("de", CARD_NAME, secret)
    assert (secret, german) in {("Trail Llama", "Wanderlama"), ("Meadow Goat", "Wiesenziege")}
    assert bo.last_reply.text.splitlines()[:3] == [
        "**Seit du zuletzt nachgesehen hast:**", f"Ana zieht {german} aus der Hand von Bo.",
        "Du ziehst Wollwidder."]
    # Told once; Ana, whose client is English, read her own line in English.
    await bo.click(table_of(bo, group), "My hand")
    assert "**Seit du zuletzt nachgesehen hast:**" not in bo.last_reply.text
    assert f"Ana pulls {secret} from Bo's hand." in [
        line for m in world.member("Ana").ephemerals for line in m.text.splitlines()]


async def test_the_lines_kept_go_when_the_game_is_ended(world, sb):
    ana = world.member("Ana")
    group = await start_in_group(world)
    await _bo_is_told(world, sb, group)
    assert len(await sb.bot.store._all("SELECT * FROM unseen_lines")) == 2
    await ana.slash("game end", in_channel=group)
    await ana.click(ana.last_reply, "Yes, end the game")
    assert (await sb.bot.store.get_game(1)).status == "ended"
    assert await sb.bot.store._all("SELECT * FROM unseen_lines") == []
    assert [r for r in world.requests if r.status >= 400] == []
