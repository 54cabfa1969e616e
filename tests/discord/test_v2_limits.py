"""A table as a Components V2 message stays within Discord's limits whatever it holds: a
full 8-player Llamas Unleashed table with 32-character names (Discord's longest display
name), and the same table made to hold far more words than fit, are trimmed with a count
and accepted by the strict sandbox (which refuses what Discord refuses)."""

from __future__ import annotations

from bot.app import builtin_games
from bot.discord.layout import ALT_LIMIT, MAX_COMPONENTS, TEXT_LIMIT
from bot.games.registry import Registry
from bot.sandbox import World
from bot.sandbox.model import walk_components
from tests.discord.conftest import make_bot
from tests.support import parts, texts

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
