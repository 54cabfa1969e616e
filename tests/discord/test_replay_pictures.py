"""Replays show what was posted: for a seeded whole game of every game at every player
count (played through the real bot in the sandbox, a member leaving mid-game so the AI
plays a seat in the same batches as the members' clicks), every table picture the bot
posted (``table.png``, the end's ``final.png``) is byte for byte the picture the replay
viewer draws for the move its footer names, drawn afresh from the replayed state."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import builtin_games, make_bot
from bot.config import Settings
from bot.runtime import ManualClock
from bot.sandbox.demo import NAMES, play_game
from bot.sandbox.world import World

GAMES = [(key, n) for key in ("llamas-alpacas", "pacapaca", "llamas-unleashed")
         for n in range(builtin_games()[key].min_players, builtin_games()[key].max_players + 1)]
MOVE = re.compile(r"^-# (?:.* \N{MIDDLE DOT} )?Move (\d+)$")  # a table, a negotiation panel


def footers(body: Any) -> Iterator[str]:
    """Every small footer line (``-# ...``) of a request body, wherever it is nested."""
    if isinstance(body, dict):
        content = body.get("content")
        if body.get("type") == 10 and isinstance(content, str) and content.startswith("-# "):
            yield content
        for value in body.values():
            yield from footers(value)
    elif isinstance(body, list):
        for value in body:
            yield from footers(value)


async def play_and_collect(game: str, players: int, seed: int, tmp: Path):
    """Play one seeded whole game; return (bot's replay viewer, game id, guild id,
    [(move, picture bytes)] of every table picture posted). The clock moves one second
    after each member's action, so each stored batch has its own time."""
    world = World()
    for name in NAMES[:players]:
        world.add_member(name)
    actions = 0

    async def after_action(ctx: Any) -> None:
        nonlocal actions
        actions += 1
        ctx.bot.clock.advance(1)
        if players >= 3 and actions == 3:  # the AI plays this seat from now on
            await world.member(NAMES[players - 1]).slash("game leave", in_channel=ctx.thread)
            ctx.bot.clock.advance(1)

    settings = Settings(database_path=tmp / "pictures.sqlite3",  # type: ignore[call-arg]
                        _env_file=None, default_turn_timer="off")
    bot = make_bot(settings, registry=builtin_games(), clock=ManualClock())
    await world.connect(bot)
    posted: list[tuple[int, bytes]] = []
    try:
        game_id = await play_game(world, bot, game=game, players=players, seed=seed,
                                  game_seed=seed, extra_clicks=after_action)
        for request in world.requests:
            pictures = [f for f in request.files if f.filename in ("table.png", "final.png")]
            if not pictures:
                continue
            moves = [int(m[1]) for text in footers(request.json) if (m := MOVE.match(text))]
            assert len(moves) == 1, request.json
            posted += [(moves[0], f.data) for f in pictures]
        record = await bot.store.get_game(game_id)
        assert record is not None and record.status == "finished"
        replay = await bot.replays.replay_of(game_id, record.guild_id)
        drawn = []
        for move, _ in posted:
            job = bot.replays.job(replay, move)
            assert job is not None
            drawn.append((move, job.run()))
        return posted, drawn, record.version
    finally:
        await world.disconnect()


@pytest.mark.parametrize(("game", "players"), GAMES, ids=[f"{g}-{n}" for g, n in GAMES])
async def test_replayed_pictures_are_the_posted_pictures(tmp_path, game, players):
    posted, drawn, last = await play_and_collect(game, players, 1, tmp_path)
    assert posted and max(move for move, _ in posted) == last
    assert 0 in {move for move, _ in posted}
    mismatched = [move for (move, a), (_, b) in zip(posted, drawn, strict=True) if a != b]
    assert mismatched == []
