"""Service under load: N concurrent games driven through the sandbox.

The real :class:`~bot.discord.bot.HerdBot` runs in the sandbox on a SQLite file with the
tiny test game (``tests/support/tinygame.py``: buttons "Add 1"/"Add 2"), so the figures
measure discord.py dispatch, the cogs, the GameService, the store, the rendering thread
pool and the sandbox's REST exits, not a game's rules. Each game has two simulated
members who click their table's buttons as fast as the bot answers: a member clicks as
soon as the bot has finished handling the previous click (the new table is posted), and a
finished game is replaced by a new lobby (/play, Join, Start) at once.

Measured per N: the time from dispatching the INTERACTION_CREATE payload to the
interaction callback POST (the acknowledgement) p50/p99, the time until the bot finished
handling the click, moves per second, interactions the sandbox refused as late (> 3 s),
and the process RSS.

Member actions here do NOT wait for the whole bot to settle (``Sandbox.settle`` waits
for every task of the loop, which with hundreds of games in flight couples unrelated
games): the bench replaces the sandbox's ``_dispatch`` with one that waits only for the
tasks discord.py created for that interaction.
"""

from __future__ import annotations

import asyncio
import gc
import random
import sys
import tempfile
import time
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from bench.common import loadavg, rss_mb, summary_ms
from bot.app import make_bot
from bot.config import Settings
from bot.runtime import ManualClock
from bot.sandbox.rest import current_interaction
from bot.sandbox.runner import Sandbox
from bot.sandbox.world import World
from tests.support.tinygame import tiny_registry


@dataclass
class Recorder:
    """What the bench captures: callback times per interaction token, task capture."""

    acks: dict[str, float] = field(default_factory=dict)
    capture: list[asyncio.Task[Any]] | None = None


@dataclass
class Sample:
    """One member action: kind (``move``/``lobby``), dispatch time, ack and done times."""

    kind: str
    t0: float
    ack: float | None
    done: float
    failed: bool


@dataclass
class Slot:
    """One of the N concurrent games: its two members and the current thread."""

    host: Any
    guest: Any
    thread: Any = None
    games: int = 0


def install(sb: Any, rec: Recorder) -> None:
    """Time-stamp interaction callbacks and replace ``sb._dispatch`` by a dispatch that
    awaits only the interaction's own tasks."""
    router = sb.router
    orig_handle = router.handle

    def handle(method: str, url: str, data: Any, params: Any, headers: dict[str, str]) -> Any:
        if method == "POST" and url.endswith("/callback"):
            parts = url.rstrip("/").split("/")
            rec.acks.setdefault(parts[-2], time.perf_counter())
        return orig_handle(method, url, data, params, headers)

    router.handle = handle  # instance attribute: FakeSession calls router.handle(...)

    loop = asyncio.get_running_loop()
    inner = loop.get_task_factory()

    def factory(lp: asyncio.AbstractEventLoop, coro: Any, **kw: Any) -> asyncio.Task[Any]:
        task = (cast("asyncio.Task[Any]", inner(lp, coro, **kw)) if inner
                else asyncio.Task(coro, loop=lp, **kw))
        if rec.capture is not None:
            rec.capture.append(task)
        return task

    loop.set_task_factory(factory)

    async def dispatch(it: Any, payload: dict[str, Any]) -> Any:
        rec.capture = []
        token = current_interaction.set(it)
        try:
            it.bench_t0 = time.perf_counter()
            sb.bot._connection.parse_interaction_create(payload)
        finally:
            current_interaction.reset(token)
            tasks, rec.capture = rec.capture, None
        if tasks:
            await asyncio.wait(tasks)
            for t in tasks:
                if not t.cancelled() and t.exception() is not None:
                    raise t.exception()  # type: ignore[misc]
        it.bench_done = time.perf_counter()
        return it

    sb._dispatch = dispatch


def prune(sb: Any, world: Any, keep: int = 6, older_than: float | None = None) -> None:
    """Drop what the simulated Discord keeps only for test assertions: the request log,
    answered interactions (with ``older_than``: only those the bench finished with more
    than that many seconds ago, so that late webhook calls still find their token), all
    but the last ``keep`` messages of each thread (with their attachment bytes) and
    started lobbies, so RSS shows the bot rather than the recorder. Also hands finished
    tasks to the sandbox's error check."""
    for t in [t for t in sb._tasks if t.done()]:
        sb._tasks.discard(t)
        sb._finished.append(t)
    sb._check_finished()
    world.requests.clear()
    sb.requests.clear()
    cut = time.perf_counter() - (older_than or 0.0)
    for token in [k for k, it in world.interactions.items()
                  if getattr(it, "bench_done", cut + 1) <= cut]:
        world.interactions.pop(token).requests.clear()
    for member in world.members.values():
        if len(member.interactions) > 2:
            del member.interactions[:-2]

    def drop(mid: int) -> None:
        msg = world.messages.pop(mid, None)
        for att in getattr(msg, "attachments", None) or []:
            world.attachments.pop(att.id, None)

    for channel in world.channels.values():
        if channel.is_thread and len(channel.messages) > keep:
            for mid in channel.messages[:-keep]:
                drop(mid)
            del channel.messages[:-keep]
    main = world.main
    done = [mid for mid in main.messages
            if (m := world.messages.get(mid)) is not None and not m.components and m.thread]
    for mid in done:
        drop(mid)
    gone = set(done)
    main.messages[:] = [mid for mid in main.messages if mid not in gone]


def table_of_thread(world: Any, thread: Any) -> Any | None:
    """The live table message in ``thread`` (public, with an Add button), or None."""
    for mid in reversed(thread.messages):
        m = world.messages.get(mid)
        if m is None or m.ephemeral_for is not None:
            continue
        if m.components:
            return m if "Add 1" in m.labels else None
    return None


def table_of(slot: Slot) -> Any | None:
    """The live table of the slot's game, or None (no game yet, or it finished)."""
    return table_of_thread(slot.host.world, slot.thread) if slot.thread is not None else None


async def new_game(slot: Slot, samples: list[Sample], record: Callable[..., None]) -> bool:
    """/play, Join, Start for the slot's members; sets ``slot.thread``. Returns False (and
    leaves the lobby) when the bot answered a step too late for Discord (the interaction
    failed), as a member would start over."""
    world = slot.host.world
    it = await slot.host.slash("play", game="tiny")
    record("lobby", it)
    lobby = it.original
    if lobby is None:
        return False
    record("lobby", await slot.guest.click(lobby, "Join"))
    live = world.messages.get(lobby.id, lobby)
    if not live.components or live.is_disabled("Start"):
        return False
    record("lobby", await slot.host.click(live, "Start"))
    live = world.messages.get(lobby.id, lobby)
    if live.thread is None or table_of_thread(world, live.thread) is None:
        return False
    slot.thread = live.thread
    slot.games += 1
    return True


async def run_phase(slots: list[Slot], seconds: float, rec: Recorder, sb: Any, world: Any,
                    seed: int, warmup: float) -> dict[str, Any]:
    """Drive every slot's game for ``seconds``; return the figures of the phase. Each
    member's first click is spread over the first second (no synchronised burst) and
    samples dispatched in the first ``warmup`` seconds are left out of the steady-state
    figures (they are reported apart as ``ack_all``)."""
    samples: list[Sample] = []
    failed_lobbies: list[Slot] = []
    stop = False
    rand = random.Random(seed)
    start = time.perf_counter()

    def record(kind: str, it: Any) -> None:
        ack = rec.acks.pop(it.token, None)
        samples.append(Sample(kind, it.bench_t0, ack, it.bench_done, it.failed))

    async def drive(slot: Slot) -> None:
        await asyncio.sleep(rand.random())
        while not stop:
            table = table_of(slot)
            if table is None:
                slot.thread = None
                if not await new_game(slot, samples, record):
                    failed_lobbies.append(slot)
                continue
            mover = slot.host if slot.host.mention in (table.content or "") else slot.guest
            keys = [k for k in ("Add 1", "Add 2") if not table.is_disabled(k)]
            it = await mover.click(table, rand.choice(keys))
            record("move", it)

    async def pruner() -> None:
        while not stop:
            await asyncio.sleep(1.0)
            prune(sb, world)

    tasks = [asyncio.create_task(drive(s)) for s in slots]
    prune_task = asyncio.create_task(pruner())
    await asyncio.sleep(seconds)
    stop = True
    stop_at = time.perf_counter()
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - start
    await prune_task
    prune(sb, world)
    gc.collect()
    steady_from = start + warmup
    every = [s for s in samples if s.kind == "move"]
    moves = [s for s in every if steady_from <= s.t0 <= stop_at]
    lobby = [s for s in samples if s.kind == "lobby" and steady_from <= s.t0 <= stop_at]
    acked = [s.ack - s.t0 for s in moves if s.ack is not None]
    completed = sum(1 for s in every if steady_from <= s.done <= stop_at)
    steady_s = max(1e-9, stop_at - steady_from)
    return {
        "games": len(slots), "seconds": round(elapsed, 2), "warmup_s": warmup,
        "steady_s": round(steady_s, 2), "moves": completed,
        "moves_per_s": round(completed / steady_s, 1),
        "ack": summary_ms(acked),
        "ack_all": summary_ms([s.ack - s.t0 for s in every if s.ack is not None]),
        "handled": summary_ms([s.done - s.t0 for s in moves]),
        "lobby_ack": summary_ms([s.ack - s.t0 for s in lobby if s.ack is not None]),
        "unacked_or_late": sum(1 for s in moves + lobby if s.ack is None or s.failed),
        "lobbies_failed": len(failed_lobbies),
        "rss_mib": round(rss_mb(), 1), "loadavg": loadavg(),
    }


def warmup_for(n: int) -> float:
    """Seconds left out at the start of a phase of ``n`` games: the staggered first clicks
    plus about one full round of every game (the bot handles roughly 100-150 moves/s)."""
    return 2.0 + n / 100


def deep_mib(root: Any, stop: list[Any]) -> float:
    """Approximate MiB of the objects reachable from ``root`` (``sys.getsizeof`` summed
    over ``gc.get_referents``), not entering modules, classes, functions or ``stop``."""
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
            types.MethodType, types.CodeType, types.FrameType)
    seen = {id(o) for o in stop}
    todo = [root]
    total = 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj, 0)
        todo.extend(gc.get_referents(obj))
    return round(total / 2**20, 1)


def heap_split(world: Any, sb: Any) -> dict[str, float]:
    """Python objects retained (MiB, approximate) by the simulated Discord (the
    :class:`World` without the bot) and by the bot (``HerdBot`` with its caches, service
    and store, without the world), after a garbage collection."""
    gc.collect()
    bot = sb.bot
    return {"sandbox_world_mib": deep_mib(world, [sb, bot]),
            "bot_objects_mib": deep_mib(bot, [world, sb])}


async def bench_load(ns: tuple[int, ...], seconds: float, setup_concurrency: int = 20,
                     profile: Any = None, memory: bool = False) -> list[dict[str, Any]]:
    """Grow to each N in ``ns`` (ascending) and drive all games for
    ``warmup_for(N) + seconds``; one row per N with the figures of the last ``seconds``.
    ``profile`` (an object with start()/stop()) is run around the phase at N=500."""
    extensions = ("cogs.lobby", "cogs.game", "cogs.admin", "tests.support.tiny_cog")
    rows = []
    rss_before = rss_mb()
    with tempfile.TemporaryDirectory(prefix="herdbench-") as tmp:
        world = World()
        members = [world.add_member(f"Player {i:04d}") for i in range(2 * max(ns))]
        # A slot whose lobby failed under load opens another and leaves the failed one
        # open: allow the most open lobbies per member, so the limit never stops a slot.
        fields: dict[str, Any] = {"database_path": Path(tmp) / "load.sqlite3",
                                  "_env_file": None, "max_open_lobbies": 25}
        settings = Settings(**fields)
        bot = make_bot(settings, registry=tiny_registry(), clock=ManualClock(),
                       extensions=extensions)
        sb = cast("Sandbox", await world.connect(bot))  # the bot runs in this process
        rec = Recorder()
        install(sb, rec)
        rss_connected = rss_mb()

        slots: list[Slot] = []
        try:
            with sb.allow_errors() as errors:
                for n in ns:
                    t0 = time.perf_counter()
                    sem = asyncio.Semaphore(setup_concurrency)
                    fresh = [Slot(members[2 * i], members[2 * i + 1])
                             for i in range(len(slots), n)]

                    async def setup(slot: Slot, sem: asyncio.Semaphore = sem) -> None:
                        async with sem:
                            while not await new_game(slot, [], lambda *a: None):
                                pass

                    await asyncio.gather(*(setup(s) for s in fresh))
                    slots.extend(fresh)
                    setup_s = time.perf_counter() - t0
                    prune(sb, world)
                    if profile is not None and n == 500:
                        profile.start()
                    e0 = len(sb.errors)
                    warm = warmup_for(n)
                    row = await run_phase(slots, warm + seconds, rec, sb, world, seed=n,
                                          warmup=warm)
                    if profile is not None and n == 500:
                        profile.stop()
                    row["setup_s"] = round(setup_s, 1)
                    row["bot_errors"] = len(sb.errors) - e0
                    if memory:
                        row["heap"] = heap_split(world, sb)
                    rows.append(row)
                    print(f"  load N={n}: {row}", flush=True)
                await sb.settle(timeout=120)
        finally:
            with sb.allow_errors() as late_errors:
                await world.disconnect()
        errors = [*errors, *late_errors]
        kinds: dict[str, int] = {}
        for err in errors:
            exc = err.exc
            key = f"{type(exc).__name__}: {exc}"[:120] if exc else err.message[:120]
            kinds[key] = kinds.get(key, 0) + 1
        for row in rows:
            row["bot_error_kinds_whole_run"] = kinds
        if errors:
            print(f"  load: {len(errors)} errors logged by the bot: {kinds}", flush=True)
    for row in rows:
        row["rss_before_mib"] = round(rss_before, 1)
        row["rss_connected_mib"] = round(rss_connected, 1)
    return rows
