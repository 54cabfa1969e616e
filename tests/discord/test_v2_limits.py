"""A table as a Components V2 message stays within Discord's limits whatever it holds: a
full 8-player Llamas Unleashed table with 32-character names (Discord's longest display
name), and the same table made to hold far more words than fit, are trimmed with a count
and accepted by the strict sandbox (which refuses what Discord refuses); so are a full lobby
and a private panel of that game, and a lobby made to hold too many words."""

from __future__ import annotations

import dataclasses

from bot.app import builtin_games
from bot.discord.layout import ALT_LIMIT, MAX_COMPONENTS, TEXT_LIMIT
from bot.games.registry import Registry
from bot.present.unleashed import UnleashedPresenter
from bot.sandbox import World
from bot.sandbox.model import walk_components
from cogs.lobby_card import lobby_card
from tests.discord.conftest import make_bot
from tests.support import fields, footer, parts, pictures, texts, title

SPEC = builtin_games()["llamas-unleashed"]
EXTENSIONS = ("cogs.lobby", "cogs.game", "cogs.admin", "cogs.unleashed")
#: Eight display names of Discord's longest (32 characters), markdown in them.
LONG = [f"{i} **Bold** _name_ " + "w" * (32 - len(f"{i} **Bold** _name_ ")) for i in range(8)]


def _sizes(m) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    """(characters over the text displays, components, alternative text's length)."""
    return (sum(map(len, texts(m))), len(list(walk_components(m.components))),
            len(parts(m)["alt"]))


async def test_a_full_table_of_long_names_and_an_overfull_one_are_trimmed_and_accepted(tmp_path):
    from bot.runtime import ManualClock

    world = World()
    for name in LONG:
        world.add_member(name)
    bot = make_bot(tmp_path / "v2.sqlite3", ManualClock(), registry=Registry([SPEC]),
                   extensions=EXTENSIONS)
    await world.connect(bot)
    try:
        bot.service.seed_factory = lambda: 3
        host = world.member(LONG[0])
        await host.slash("play", game="llamas-unleashed")
        lobby = host.last_reply
        for name in LONG[1:]:
            await world.member(name).click(lobby, "Join")
        await host.click(lobby, "Start")
        thread = lobby.thread
        table = thread.last_message
        # The 8-player set-up table pings all eight and fits (nothing needed trimming).
        assert {int(u["id"]) for u in table.data["mentions"]} == {
            world.member(n).id for n in LONG}
        chars, count, alt = _sizes(table)
        assert chars <= TEXT_LIMIT and count <= MAX_COMPONENTS and 0 < alt <= ALT_LIMIT
        assert not any("more characters)" in t for t in texts(table))
        for name in LONG:  # every player named in the alternative text, as typed
            assert name in parts(table)["alt"]

        # The same table told 60 long moves (about 13,000 characters): the oldest are
        # summed up with a count, and Discord (the sandbox) accepts the message.
        cog = bot.game_cog("llamas-unleashed")
        loaded = await cog.load_table(1)
        humans = [s.seat for s in loaded.seats]
        lines = [f"Move {i}: " + "a long narrated move " * 10 for i in range(60)]
        layout = cog.table_card(loaded, lines=lines, humans=humans)
        channel = bot.get_channel(thread.id)
        sent = await channel.send(view=layout, file=await cog.render_file(loaded),
                                  allowed_mentions=loaded.pings(humans))
        over = world.messages[sent.id]
        chars, count, alt = _sizes(over)
        assert chars <= TEXT_LIMIT and count <= MAX_COMPONENTS and 0 < alt <= ALT_LIMIT
        said = parts(over)["said"]
        assert said.split("\n")[0] == "(47 earlier moves: see /game log)"
        assert said.split("\n")[1:] == [f"\N{BULLET} {line}" for line in lines[47:]]
        assert parts(over)["footer"] == "Llamas Unleashed #1 \N{MIDDLE DOT} Move 0"
        assert over.labels == table.labels
    finally:
        await world.disconnect()


async def test_a_full_lobby_of_long_names_and_a_private_panel_fit_and_an_overfull_lobby_is_trimmed(
        tmp_path):
    from bot.runtime import ManualClock

    world = World()
    for name in LONG:
        world.add_member(name)
    bot = make_bot(tmp_path / "v2.sqlite3", ManualClock(), registry=Registry([SPEC]),
                   extensions=EXTENSIONS)
    await world.connect(bot)
    try:
        bot.service.seed_factory = lambda: 3
        host = world.member(LONG[0])
        await host.slash("play", game="llamas-unleashed")
        lobby = host.last_reply
        for name in LONG[1:]:
            await world.member(name).click(lobby, "Join")
        # The full 8-player lobby is one V2 message within every limit, nothing trimmed:
        # every seat listed, Join disabled, Start enabled.
        chars, count, _ = _sizes(lobby)
        assert chars <= TEXT_LIMIT and count <= MAX_COMPONENTS
        assert not any("more characters)" in t for t in texts(lobby))
        assert title(lobby) == "Llamas Unleashed: lobby #1"
        assert fields(lobby)[0] == {"name": "Seats (8/8)", "value": "\n".join(
            f"{i}. {world.member(n).mention}" + (" \N{CROWN} host" if i == 1 else "")
            for i, n in enumerate(LONG, 1))}
        assert footer(lobby) == "2-8 players. The host can start the game."
        assert lobby.is_disabled("Join") and not lobby.is_disabled("Start")
        await host.click(lobby, "Start")
        table = lobby.thread.last_message

        # A private panel (My hand at set-up) of an 8-player game fits too, its close-up
        # described in words (the presenter's: see tests/present for what it names).
        member = world.member(LONG[5])
        await member.click(table, "My hand")
        panel = member.last_reply
        assert panel.ephemeral
        chars, count, alt = _sizes(panel)
        assert chars <= TEXT_LIMIT and count <= MAX_COMPONENTS and 0 < alt <= ALT_LIMIT
        state = (await bot.service.load(1))[3]
        assert pictures(panel) == [("my-hand.png",
                                    UnleashedPresenter.hand_alt(SPEC.engine.view(state, "s5")))]

        # A lobby made to hold far more words than fit (a 6,000-character description) is
        # cut with a count and accepted.
        cog = bot.get_cog("Lobby")
        assert cog is not None
        record = await bot.service.get(1)
        seats = await bot.service.seats(1)
        wordy = dataclasses.replace(SPEC, description="a very long description " * 250)
        view = lobby_card(record.model_copy(update={"status": "lobby"}), seats, wordy)
        sent = await bot.get_channel(world.channel().id).send(view=view)
        over = world.messages[sent.id]
        chars, count, _ = _sizes(over)
        assert chars <= TEXT_LIMIT and count <= MAX_COMPONENTS
        assert any(t.endswith("more characters)") for t in texts(over))
        assert fields(over)[0]["name"] == "Seats (8/8)"
        assert over.labels[:6] == ["Join", "Leave", "Add AI seat", "Remove AI seat", "Start",
                                   "Cancel"]
    finally:
        await world.disconnect()
