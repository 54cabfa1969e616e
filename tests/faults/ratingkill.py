"""Child process of test_rating_kill.py. Not a test module.

``python -m tests.faults.ratingkill play DATABASE MODE`` plays a 2-member tiny game
(target 3) up to its final move, then makes that move and is killed by SIGKILL: with
``MODE`` ``during`` inside the final move's transaction, once the ratings are read and
computed and before anything is written; with ``after`` just after its COMMIT returned.

``python -m tests.faults.ratingkill check DATABASE`` opens the same database, makes the
final move again if the game is still active (the member presses again), presses it once
more (refused: the table moved on), and prints the ratings as JSON: each member's
``(mu, sigma, games, wins)`` and the number of history rows.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import bot.runtime.advance as advance  # noqa: E402
from bot.runtime import GameError, GameService, ManualClock  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.support.scripts import run_and_exit  # noqa: E402
from tests.support.tinygame import Add, tiny_registry  # noqa: E402

GUILD = 1


def _die() -> None:
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


async def _final_move(service: GameService, gid: int) -> None:
    """Seat s0 presses Add 2 on the table of move 2 (the final move)."""
    await service.act(gid, "s0", Add(n=2), expected_version=2)


async def play(database: str, mode: str) -> None:
    store = await Store.open(database)
    service = GameService(store, tiny_registry(), clock=ManualClock())
    up = await service.create_lobby("tiny", guild_id=GUILD, channel_id=2, host_id=10,
                                    host_name="Ana", seed=7, options={"target": 3})
    gid = up.record.id
    await service.join(gid, 11, "Bo")
    up = await service.start(gid, 10)
    up = await service.act(gid, "s0", Add(n=1), expected_version=0)  # 1
    up = await service.act(gid, "s1", Add(n=1), expected_version=1)  # 2: s0's next move ends it
    if mode == "during":
        rate = advance.rate

        def rate_then_die(*args, **kwargs):  # type: ignore[no-untyped-def]
            rate(*args, **kwargs)
            _die()

        advance.rate = rate_then_die  # type: ignore[assignment]
    else:
        commit = store.commit_moves

        async def commit_then_die(*args, **kwargs):  # type: ignore[no-untyped-def]
            out = await commit(*args, **kwargs)
            if kwargs.get("rate") is not None:
                _die()
            return out

        store.commit_moves = commit_then_die  # type: ignore[method-assign]
    print(gid, flush=True)
    await _final_move(service, gid)
    raise SystemExit("the final move did not kill the process")


async def check(database: str) -> dict[str, object]:
    store = await Store.open(database)
    service = GameService(store, tiny_registry(), clock=ManualClock())
    record = (await store.games_with_status("active", "finished"))[0]
    out: dict[str, object] = {"status_after_kill": record.status}
    if record.status == "active":
        await _final_move(service, record.id)
    try:
        await _final_move(service, record.id)
        out["again"] = "applied"
    except GameError as exc:
        out["again"] = exc.code
    out["ratings"] = {str(u): [(r := (await store.rank_of(GUILD, "tiny", 0, u))[1]).mu,  # type: ignore[index]
                               r.sigma, r.games, r.wins] for u in (10, 11)}
    out["history"] = len(await store._all("SELECT * FROM rating_history"))
    out["stats"] = [(s.user_id, s.played, s.won) for s in await store.stats(GUILD, kind="tiny")]
    await store.close()
    return out


def main() -> None:
    phase, database = sys.argv[1], sys.argv[2]

    def body() -> None:
        if phase == "play":
            asyncio.run(play(database, sys.argv[3]))
        else:
            print(json.dumps(asyncio.run(check(database))), flush=True)

    run_and_exit(body)


if __name__ == "__main__":
    main()
