"""Replay: every game kind is reproduced exactly from its seed, options and action log."""

from __future__ import annotations

import pytest

from bot.app import builtin_games
from bot.runtime import GameService

REGISTRY = builtin_games()


@pytest.mark.parametrize("key,players", [(s.key, min(s.max_players, 4)) for s in REGISTRY])
async def test_replay_reproduces_the_stored_state(store, clock, key, players):
    service = GameService(store, REGISTRY, clock=clock)
    lobby = await service.create_lobby(key, guild_id=1, channel_id=2, host_id=10,
                                       host_name="Ana", seed=1234, options={"turn_timer": "off"})
    gid = lobby.record.id
    for _ in range(players - 1):
        await service.add_ai(gid, 10)
    await service.start(gid, 10)
    # Hand the host's seat to the AI too: the whole game plays out through the service.
    update = await service.set_takeover(gid, 10, True)
    for _ in range(50):  # timed decisions (reaction windows, negotiations) need the clock
        if update.record.status != "active":
            break
        clock.advance(3600)
        await service.timers.fire_due()
        update.record = await service.get(gid)
    record = await service.get(gid)
    assert record.status == "finished"
    spec = REGISTRY[key]
    seats = [s.seat for s in await store.seats(gid)]
    log = await store.actions(gid)
    assert len(log) == record.version
    options = service.engine_options(spec, record.options, players)
    replayed = spec.engine.replay(
        seats, seed=record.seed, options=options,
        actions=[(a.seat, spec.engine.parse_action(a.action)) for a in log],
    )
    assert replayed.model_dump() == spec.engine.load_state(record.state).model_dump()
    assert spec.engine.result(replayed) is not None
