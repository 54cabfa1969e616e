"""A DM in the member's last seen language: Bo's client is Polish, so the hand DM a pull
sends him says his hand in Polish (the game itself is English)."""

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
    start,
    state_of,
)
from tests.discord.test_unleashed_dms import seen_as_dealt
from tests.games.unleashed.unleashed_helpers import build
from tests.support import texts


def polish(card: int) -> str:
    """A card's name in Polish."""
    return translate_in("pl", CARD_NAME, CAT[card].name)


@pytest_asyncio.fixture
async def polish_bo(world, clock, tmp_path):
    sandbox = await world.connect(new_bot(tmp_path / "dms.sqlite3", clock))
    yield sandbox
    await world.disconnect()


async def test_a_hand_dm_is_in_the_members_last_seen_language(world, polish_bo):
    sb = polish_bo
    ana, bo = world.member("Ana"), world.member("Bo")
    bo.locale = "pl"
    thread = await start(world)
    assert await sb.bot.store.member_locale(bo.id) == "pl"
    st = build(3, hands={"s0": ["pickpocket_goat", "hay_harvest"],
                         "s1": ["meadow_goat", "trail_llama"], "s2": []},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]},
               deck=["woolly_ram"], plays=1)
    await install(world, sb.bot, st)
    st = await state_of(sb.bot)
    await seen_as_dealt(sb.bot, st)
    await play_card(sb, ana, await open_panel(ana, thread),
                    cid_of(st, "pickpocket_goat", st.hands["s0"]), "s0")
    after = await state_of(sb.bot)
    pulled = next(c for c in after.hands["s0"] if c not in st.hands["s0"])
    lines = "\n".join(texts(bo.dms[0])).splitlines()
    assert lines[1:] == [f"Ana wyciąga kartę {polish(pulled)} z ręki gracza Bo.",
                         "Dobierasz: Wełniasty baran.",
                         f"Twoja ręka (2): {', '.join(map(polish, after.hands['s1']))}."]
