"""The lines kept for a player of a one-message game lead their next My hand within
Discord's Components V2 limits: an 8-player Llamas Unleashed panel of 32-character names
led by 20 long kept lines is accepted by the strict sandbox (which refuses what Discord
refuses: over 40 components counting nested ones, over 4000 characters of text), the
lines that do not fit counted, never cut mid-line."""

from __future__ import annotations

from typing import Any

import discord

from bot.app import builtin_games
from bot.discord.layout import MAX_COMPONENTS, TEXT_LIMIT, panel
from bot.discord.unseen import led_by
from bot.games.registry import Registry
from bot.runtime import ManualClock
from bot.sandbox import World
from bot.sandbox.model import walk_components
from tests.discord.conftest import make_bot
from tests.discord.test_unleashed import table_of
from tests.discord.test_v2_limits import LONG
from tests.support import texts

SPEC = builtin_games()["llamas-unleashed"]
EXTENSIONS = ("cogs.lobby", "cogs.game", "cogs.admin", "cogs.unleashed")
SINCE = "**Since you last looked:**"
#: Twenty kept lines of 240 characters each (4,800 in all: more than a message holds).
KEPT = [(f"{i:02} {LONG[0]} pulls **Woolly Ram** from your hand. " + "x" * 240)[:240]
        for i in range(20)]


def _sizes(m: Any) -> tuple[int, int]:
    """(characters over the text displays, components, nested ones counted)."""
    return sum(map(len, texts(m))), len(list(walk_components(m.components)))


async def test_twenty_long_kept_lines_lead_an_eight_player_panel_within_the_limits(tmp_path):
    world = World()
    members = [world.add_member(name) for name in LONG]
    bot = make_bot(tmp_path / "limits.sqlite3", ManualClock(), registry=Registry([SPEC]),
                   extensions=EXTENSIONS)
    await world.connect(bot)
    try:
        bot.service.seed_factory = lambda: 3
        world.install_for(*members)
        group = world.add_group_dm(*members, name="Herd")
        host = members[0]
        await host.slash("play", game="llamas-unleashed", in_channel=group)
        lobby = host.last_reply
        for member in members[1:]:
            await member.click(lobby, "Join")
        await host.click(lobby, "Start")
        # The same panel without kept lines, to compare with.
        member = members[5]
        await member.click(table_of(member, group), "My hand")
        plain = member.last_reply
        plain_chars, plain_count = _sizes(plain)
        await bot.store.keep_unseen(1, "s5", KEPT)
        await member.click(table_of(member, group), "My hand")
        led = member.last_reply
        assert led.ephemeral and led.filenames == ["my-hand.png"]
        chars, count = _sizes(led)
        assert chars <= TEXT_LIMIT and count <= MAX_COMPONENTS
        assert count == plain_count + 1  # one text display more, the panel's own unchanged
        assert texts(led)[1:] == texts(plain)
        first = texts(led)[0].split("\n")
        shown = len(first) - 2
        assert first == [SINCE, *KEPT[:shown], f"…and {20 - shown} more."]
        assert shown == (TEXT_LIMIT - plain_chars - len(SINCE) - len("…and 10 more.") - 2
                         ) // 241
        assert [r for r in world.requests if r.status >= 400] == []
        # Told once: the next look is the plain panel.
        await member.click(table_of(member, group), "My hand")
        assert texts(member.last_reply) == texts(plain)
    finally:
        await world.disconnect()


async def test_with_every_component_slot_taken_the_lines_lead_the_first_text_display(
        tmp_path):
    view = panel(accent=0, words="Your hand.", items=[
        discord.ui.Button(label=f"b{i}", custom_id=f"b{i}", row=i // 5) for i in range(25)],
        footer="foot")
    # 1 container + 2 text displays + 5 rows of 5 buttons = 33; six more text displays: 39,
    # then one more: 40, every slot taken.
    box = view.children[0]
    assert isinstance(box, discord.ui.Container)
    for n in range(7):
        box.add_item(discord.ui.TextDisplay(f"more words {n}"))
    assert len(list(view.walk_children())) == MAX_COMPONENTS
    kwargs = led_by({"view": view}, ["You draw Woolly Ram."], "en")
    assert kwargs["view"] is view and len(list(view.walk_children())) == MAX_COMPONENTS
    shown = [c.content for c in view.walk_children() if isinstance(c, discord.ui.TextDisplay)]
    assert shown[0] == f"{SINCE}\nYou draw Woolly Ram.\n\nYour hand."
    assert shown[1:] == ["-# foot", "more words 0", "more words 1", "more words 2",
                         "more words 3", "more words 4", "more words 5", "more words 6"]
    # The strict sandbox takes it: 40 components, nested ones counted.
    world = World()
    bot = make_bot(tmp_path / "full.sqlite3", ManualClock(), registry=Registry([SPEC]),
                   extensions=EXTENSIONS)
    await world.connect(bot)
    try:
        sent = await bot.get_channel(world.channel().id).send(view=view)
        assert _sizes(world.messages[sent.id]) == (
            len(f"{SINCE}\nYou draw Woolly Ram.\n\nYour hand.") + 7 * 12 + 7, MAX_COMPONENTS)
        assert [r for r in world.requests if r.status >= 400] == []
    finally:
        await world.disconnect()


def test_a_panel_already_full_of_words_is_cut_to_leave_the_lines_room():
    view = panel(accent=0, words="w" * 3990)
    kwargs = led_by({"view": view}, ["You draw Woolly Ram."] * 30, "en")
    shown = [c.content for c in kwargs["view"].walk_children()
             if isinstance(c, discord.ui.TextDisplay)]
    assert sum(map(len, shown)) <= TEXT_LIMIT
    assert shown[0].split("\n") == [SINCE, *["You draw Woolly Ram."] * 17, "…and 13 more."]
    # cut by 390 characters at least (to leave 400), with its count
    assert shown[1] == "w" * 3570 + "… (420 more characters)"
