"""The games herdbot ships are one list of full specs (``bot.app.games.GAMES``): a game
added to it is offered, loaded and playable through the sandbox with nothing else wired,
and nothing in ``bot/discord`` or ``bot/runtime`` names a game."""

from __future__ import annotations

from pathlib import Path

from bot.app import CORE_EXTENSIONS, make_bot
from bot.app.games import BUILTIN_PACKAGES, GAMES
from bot.config import Settings
from bot.games.registry import Registry
from bot.runtime import ManualClock
from bot.sandbox import World
from bot.sandbox.demo import play_game
from tests.support.tinygame import TINY_SPEC

ROOT = Path(__file__).resolve().parents[2]


def test_the_list_holds_each_shipped_game_once_in_play_order():
    assert [s.key for s in GAMES] == ["llamas-alpacas", "pacapaca", "llamas-unleashed"]
    assert BUILTIN_PACKAGES == ("llamas_alpacas", "pacapaca", "unleashed")
    assert [(s.cog, s.driver) for s in GAMES] == [
        ("cogs.llamas_alpacas", "bot.sandbox.drivers.llamas_alpacas"),
        ("cogs.pacapaca", "bot.sandbox.drivers.pacapaca"),
        ("cogs.unleashed", "bot.sandbox.drivers.unleashed"),
    ]
    assert [s.offered_levels() for s in GAMES] == [["easy", "normal", "hard"]] * 3
    assert all(s.presenter is not None and s.table_renderer is not None for s in GAMES)
    assert [s.hidden_info for s in GAMES] == [False, True, True]


async def test_a_fourth_game_is_its_spec_plus_one_line_and_plays_through_the_sandbox(
        tmp_path):
    registry = Registry([*GAMES, TINY_SPEC])  # the one line a new game adds to GAMES
    settings = Settings(database_path=tmp_path / "four.sqlite3", _env_file=None,  # type: ignore[call-arg]
                        default_turn_timer="off")
    bot = make_bot(settings, registry=registry, clock=ManualClock())
    world = World()
    for name in ("Ana", "Bo"):
        world.add_member(name)
    await world.connect(bot)
    try:
        assert list(bot.extensions) == [*CORE_EXTENSIONS, "cogs.llamas_alpacas",
                                        "cogs.pacapaca", "cogs.unleashed",
                                        "tests.support.tiny_cog"]
        assert [c.kind for c in bot.cogs.values() if hasattr(c, "kind")] == [
            "llamas-alpacas", "pacapaca", "llamas-unleashed", "tiny"]
        game_id = await play_game(world, bot, game="tiny", players=2, seed=3,
                                  names=("Ana", "Bo"))
        record, seats, spec, state = await bot.service.load(game_id)
        assert spec is TINY_SPEC
        assert (record.status, record.kind, record.version) == ("finished", "tiny", 10)
        assert (state.counter, state.winner) == (20, seats[1].seat)
        assert [s.name for s in seats] == ["Ana", "Bo"]
    finally:
        await world.disconnect()


def test_discord_and_runtime_name_no_game():
    words = {w.lower() for s in GAMES for w in (s.key, s.name, *s.name.split(" & "))}
    words |= set(BUILTIN_PACKAGES) | {"llama", "alpaca", TINY_SPEC.key}
    found = [f"{path.relative_to(ROOT)}: {word}"
             for folder in ("bot/discord", "bot/runtime")
             for path in sorted((ROOT / folder).rglob("*.py"))
             for word in sorted(words) if word in path.read_text().lower()]
    assert found == []
