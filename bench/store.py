"""Store figures: ``Store.commit_action`` p50/p99 in WAL mode, and bot start-up time with
10,000 stored games (1,000 active) in the sandbox."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import Stopwatch, rss_mb, summary_ms
from bench.render import mid_game_state
from bot.app import CORE_EXTENSIONS, assemble, builtin_games
from bot.config import Settings
from bot.discord import bot as botmod
from bot.runtime import ManualClock
from bot.runtime.service import _turn_key
from bot.runtime.timers import TimerService
from bot.sandbox.world import World
from bot.store import Store


def sample_states() -> dict[str, str]:
    """Mid-game state JSON per game at 4 players (realistic row sizes)."""
    return {spec.key: mid_game_state(spec, 4, 11).model_dump_json() for spec in builtin_games()}


async def bench_commit(commits: int, state_json: str) -> dict[str, Any]:
    """``commits`` successive :meth:`Store.commit_action` calls on one game in a temporary
    SQLite file (WAL, synchronous=NORMAL as the store opens it)."""
    with tempfile.TemporaryDirectory(prefix="herdbench-") as tmp:
        store = await Store.open(Path(tmp) / "commit.sqlite3")
        try:
            rec = await store.create_game(kind="unleashed", guild_id=1, channel_id=2, host_id=3,
                                          host_name="Maya", options={}, seed=1)
            await store.start_game(rec.id, state=state_json, version=0)
            action = {"type": "play", "card": 17, "target": "s2"}
            events = [{"type": "played", "text": "Maya plays Spitting Llama.", "to": None,
                       "data": {"card": 17}}]
            times = []
            for v in range(commits):
                t0 = time.perf_counter()
                await store.commit_action(rec.id, expected_version=v, state=state_json,
                                          version=v + 1, seat="s0", action=action, events=events)
                times.append(time.perf_counter() - t0)
            mode = await store._one("PRAGMA journal_mode")  # (was store._db: gone with the backends)
        finally:
            await store.close()
    return {"journal_mode": mode[0] if mode else None, "state_bytes": len(state_json), **summary_ms(times)}


# --------------------------------------------------------------------------- start-up


def timer_rows(kind: str, state_json: str, game_id: int, now: float,
               humans: tuple[str, ...] = ("s0", "s1")) -> list[tuple[Any, ...]]:
    """The timers the service itself keeps for an active game with a 24 h turn timer
    (same keys and payloads as ``GameService._sync_timers``), so the start-up
    reconciliation finds them up to date, as after a clean shutdown."""
    spec = builtin_games()[kind]
    state = spec.engine.load_state(state_json)
    pending = spec.engine.pending(state)
    rows: list[tuple[Any, ...]] = []
    if pending.seconds is not None and pending.timeouts:
        rows.append((game_id, "rules", pending.key, now + pending.seconds, json.dumps(
            {"timeouts": [t.model_dump(mode="json") for t in pending.timeouts]})))
    waiting = [x for x in pending.seats if x in humans]
    if waiting and pending.seconds is None:
        key = f"{pending.kind}:{pending.key}:{state.version}:{','.join(waiting)}"
        tk = _turn_key(pending, waiting)
        rows.append((game_id, "turn", key, now + 86_400,
                     json.dumps({"seats": waiting, "turn_key": tk})))
        rows.append((game_id, "remind", key, now + 43_200, json.dumps(
            {"seats": waiting, "turn_key": tk, "deadline": now + 86_400})))
    return rows


def prefill(path: Path, *, games: int, active: int, actions_per_game: int, states: dict[str, str],
            now: float) -> dict[str, Any]:
    """Bulk-insert into the (already migrated) database at ``path``: ``games`` games, the
    last ``active`` of them active with a 24 h turn timer and their timers as the service
    keeps them, the others finished; 4 seats (3 members, 1 AI) and ``actions_per_game``
    action rows each."""
    kinds = list(states)
    rand = random.Random(5)
    timers_of = {k: timer_rows(k, states[k], 0, now) for k in kinds}
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    with Stopwatch() as sw:
        game_rows, seat_rows, action_rows, timer_list = [], [], [], []
        for gid in range(1, games + 1):
            kind = kinds[gid % len(kinds)]
            is_active = gid > games - active
            version = actions_per_game
            game_rows.append((
                gid, kind, 1, 2, 10_000 + gid, 20_000 + gid, 30_000 + gid, 100 + gid % 500,
                "active" if is_active else "finished", json.dumps({"turn_timer": "24h"}),
                rand.randrange(1 << 30), states[kind], version, now - 86_400, now - 60,
            ))
            for i in range(4):
                seat_rows.append((gid, f"s{i}", i, 100 + (gid + i) % 500 if i < 3 else None,
                                  f"Player {i}", int(i == 3)))
            for v in range(1, actions_per_game + 1):
                action_rows.append((gid, v, f"s{v % 4}", '{"type":"draw"}',
                                    '[{"type":"drew","text":"Maya draws a card.","to":null,'
                                    '"data":{}}]', now - 3600))
            if is_active:
                timer_list += [(gid, *row[1:]) for row in timers_of[kind]]
        with db:
            db.executemany("INSERT INTO games (id, kind, guild_id, channel_id, thread_id,"
                           " lobby_message_id, table_message_id, host_id, status, options, seed,"
                           " state, version, created_at, updated_at)"
                           " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", game_rows)
            db.executemany("INSERT INTO seats (game_id, seat, position, user_id, name, is_ai)"
                           " VALUES (?,?,?,?,?,?)", seat_rows)
            db.executemany("INSERT INTO actions (game_id, version, seat, action, events,"
                           " created_at) VALUES (?,?,?,?,?,?)", action_rows)
            db.executemany("INSERT INTO timers (game_id, kind, key, due_at, payload)"
                           " VALUES (?,?,?,?,?)", timer_list)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return {"games": games, "active": active, "actions": len(action_rows),
            "timers": len(timer_list), "prefill_s": round(sw.seconds, 2),
            "db_mib": round(path.stat().st_size / 2**20, 1)}


def game_extensions() -> tuple[str, ...]:
    """The core cogs plus every builtin game's cog that exists in this tree."""
    cogs = [spec.cog for spec in builtin_games() if spec.cog]
    present = tuple(c for c in cogs if importlib.util.find_spec(c) is not None)
    return (*CORE_EXTENSIONS, *present)


async def boot(path: Path) -> dict[str, Any]:
    """Start the real bot on the database at ``path`` in the sandbox (ManualClock, every
    builtin game's cog present) and time ``HerdBot.setup_hook`` and its phases: store open
    + migrate, cogs loaded, timers re-armed, command sync. Also the whole
    ``world.connect``, the stored game counts, a full timer scan and RSS after."""
    clock = ManualClock()
    phases: dict[str, float] = {}

    def timed(name: str, fn: Any) -> Any:
        async def wrapper(*a: Any, **kw: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await fn(*a, **kw)
            finally:
                phases[name] = phases.get(name, 0.0) + time.perf_counter() - t0
        return wrapper

    class TimedBot(botmod.HerdBot):
        async def setup_hook(self) -> None:
            t0 = time.perf_counter()
            await super().setup_hook()
            phases["setup_hook"] = time.perf_counter() - t0

        async def load_extension(self, name: str, *, package: str | None = None) -> None:
            t0 = time.perf_counter()
            await super().load_extension(name, package=package)
            phases["cogs_loaded"] = phases.get("cogs_loaded", 0.0) + time.perf_counter() - t0

        async def sync_commands(self) -> None:
            t0 = time.perf_counter()
            await super().sync_commands()
            phases["commands_synced"] = time.perf_counter() - t0

    orig_open, orig_start = Store.open, TimerService.start
    Store.open = classmethod(timed("store_open_migrate", orig_open.__func__))  # type: ignore[method-assign,assignment,attr-defined]
    TimerService.start = timed("timers_rearmed", orig_start)  # type: ignore[method-assign]
    try:
        world = World()
        fields: dict[str, Any] = {"database_path": path, "_env_file": None}
        settings = Settings(**fields)
        bot = TimedBot(settings, registry=builtin_games(), assemble=assemble, clock=clock,
                       extensions=game_extensions())
        t0 = time.perf_counter()
        reconciled: dict[str, float] = {}
        orig_hook = TimedBot.setup_hook

        async def hook(self: Any) -> None:
            await orig_hook(self)
            task = getattr(self, "_reconcile", None)
            if task is not None:
                task.add_done_callback(
                    lambda _t: reconciled.setdefault("s", time.perf_counter() - t0))

        TimedBot.setup_hook = hook  # type: ignore[method-assign]
        await world.connect(bot, settle_timeout=600)
        connect_s = time.perf_counter() - t0
        counts = await bot.store.count_games()
        t0 = time.perf_counter()
        timers = await bot.store.timers()
        scan_s = time.perf_counter() - t0
        rss = rss_mb()
        await world.disconnect()
    finally:
        Store.open = orig_open  # type: ignore[method-assign]
        TimerService.start = orig_start  # type: ignore[method-assign]
    return {
        "extensions": list(game_extensions()), "stored": counts,
        "setup_hook_s": round(phases.get("setup_hook", float("nan")), 3),
        "phases_s": {k: round(v, 3) for k, v in phases.items() if k != "setup_hook"},
        "connect_s": round(connect_s, 3), "rss_mib_after": round(rss, 1),
        "timers_reconciled_s": round(reconciled["s"], 3) if reconciled else None,
        "timer_scan_ms": round(scan_s * 1000, 1), "timers_scanned": len(timers),
    }


def bench_startup(games: int = 10_000, active: int = 1_000,
                  actions_per_game: int = 20) -> dict[str, Any]:
    """Pre-fill a temporary database (see :func:`prefill`), then boot the bot on it in a
    fresh Python process (``python -m bench --child-startup PATH``) so module imports done
    by ``setup_hook`` (the cogs) are cold, as at a real start. Returns the child's figures
    plus ``process_s`` (interpreter start to bot ready, imports included)."""
    states = sample_states()
    with tempfile.TemporaryDirectory(prefix="herdbench-") as tmp:
        path = Path(tmp) / "startup.sqlite3"

        async def schema() -> None:
            store = await Store.open(path)
            await store.close()

        asyncio.run(schema())
        info = prefill(path, games=games, active=active, actions_per_game=actions_per_game,
                       states=states, now=1_800_000_000.0)
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "bench", "--child-startup", str(path)],
                             capture_output=True, text=True, check=False, timeout=300)
        process_s = time.perf_counter() - t0
        if out.returncode != 0:
            raise RuntimeError(f"start-up child failed:\n{out.stderr[-3000:]}")
        child = json.loads(out.stdout.strip().splitlines()[-1])
    return {**info, **child, "process_s": round(process_s, 3)}
