"""Open-loop capacity bench: real games, players who think, moves at a set rate.

The real :class:`~bot.discord.bot.HerdBot` (all builtin cogs, the real clock, DM notices
on as by default) runs in the sandbox on a SQLite file. N games of the three real games
(a third each; 2-4 players, uniformly) are set up through ``/play``, Join and Start.

Arrivals (open loop): a Poisson schedule at the offered rate ``R`` moves per second, in
real wall-clock time, that never waits for the bot. Each arrival goes to the player who
has been ready longest: a player is ready once their turn came (the bench reads whose
decision it is) and their think time, a uniformly random 5-15 s, has passed. An arrival
that finds no ready player is counted as ``missed`` (the pool of games is sized so that
this does not happen unless the bot is so slow that turns come back late). The player then
performs one engine action, chosen at random among the ``legal_actions`` of their seat (what
the bot's table offers), through the game's UI driver (``bot.sandbox.drivers``): the real
buttons, selects and panels; a move is one action, one or more interactions.

Measured per rate (steady window after a warm-up):

- achieved rate: moves whose new table appeared in the window, per second;
- click-to-new-table: from the committing click (the interaction that carries the action
  out; for a one-click move its *scheduled* arrival time, so queueing in the loop counts)
  to the last public message write (new message or edit) in the game's thread that the
  bot made while handling that interaction (or, when it wrote nothing public, its last
  write of any kind); ``move`` is the same from the scheduled arrival of the first click;
- late acknowledgements: interactions whose callback came more than 3 s after dispatch,
  or that the simulated Discord refused as late (10062), or never acknowledged;
- CPU per move, split by thread CPU accounting (see :class:`CpuSplit`): the bot (its
  event-loop work, its render and database threads, the asyncio loop's own overhead), the
  simulated Discord (the REST router and the interaction payloads it builds), and the
  bench's own driving (reading whose turn it is, choosing, finding components); the
  render worker processes' CPU (their threads' run time, ``procs_cpu``) counts as the
  bot's;
- pictures sent to the render pool (``render_pool_jobs``): the exact count per phase and
  window, and per move (the thread variants send none);
- RSS per active game: (RSS at the end of the window - RSS right after connecting) / N.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import math
import os
import random
import resource
import sqlite3
import tempfile
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from bench.common import loadavg, pct, rss_mb, summary_ms
from bench.load import prune

#: Offered rates (moves per second) of a full run, ascending.
RATES = (10, 20, 40, 60, 80, 120)
#: Think time of a player after their turn came, seconds (uniform).
THINK = (5.0, 15.0)
#: Games per offered move per second: mean think (10 s) plus the move itself, with room
#: so that a ready player is always waiting for the next arrival.
GAMES_PER_RATE = 13.0
#: A click-to-new-table time counts as "fast" under this (the target of issue 15).
P99_LIMIT_S = 1.0
#: After a phase, how long the bench waits at most for the moves still in flight, so the
#: next phase (another rate or variant) does not start with this one's backlog.
DRAIN_S = 60.0
#: The last messages of a thread the bench's pruning keeps (beside live tables).
PRUNE_KEEP = 4
#: Discord refuses an interaction answered later than this (documented 3 s limit).
ACK_LIMIT_S = 3.0
GAMES = ("llamas-alpacas", "pacapaca", "llamas-unleashed")
#: How the bot draws its table pictures, for a before/after run (``--variants``): name ->
#: (render worker processes, pictures kept by their inputs). ``thread`` is the bot before
#: the render pool (every table drawn in its one render thread); ``process`` the default.
VARIANTS: dict[str, tuple[int, bool]] = {"thread": (0, False), "process": (1, True),
                                         "thread+keep": (0, True), "process-nokeep": (1, False)}


# --------------------------------------------------------------------------- CPU split


class CpuSplit:
    """Main-thread CPU time split into categories by thread CPU accounting.

    ``time.thread_time()`` (CLOCK_THREAD_CPUTIME_ID) is read at every switch of category
    and the time since the last switch is added to the category being left. Switches
    happen (a) around every asyncio callback (``Handle._run``, patched while the bench
    runs): a step of one of the bench's own tasks counts as ``bench``, every other step as
    ``bot``, time outside callbacks (selector, scheduling) as ``loop``; and (b) inside a
    step, around the simulated Discord's code (``sandbox``: REST router, building an
    interaction's payload) and around discord.py's parsing of an INTERACTION_CREATE the
    bench dispatches (``bot``). Other threads (render pool, aiosqlite) are all the bot's:
    the process CPU (``getrusage``) minus the main thread's."""

    def __init__(self) -> None:
        self.acc: dict[str, float] = {"bot": 0.0, "sandbox": 0.0, "bench": 0.0, "loop": 0.0}
        self.cat = "loop"
        self.last = time.thread_time()
        self.bench_tasks: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()
        self._orig_run: Any = None
        #: asyncio callbacks run so far (each costs the accounting two clock reads).
        self.handles = 0
        #: Process ids of the bot's render workers (set by the bench; their CPU is the bot's).
        self.pids: Callable[[], list[int]] = list

    def switch(self, cat: str) -> str:
        """Charge the time since the last switch to the current category; enter ``cat``;
        return the category left."""
        now = time.thread_time()
        self.acc[self.cat] += now - self.last
        self.last = now
        old, self.cat = self.cat, cat
        return old

    @contextmanager
    def charged(self, cat: str) -> Iterator[None]:
        """Charge the block to ``cat`` (synchronous code only)."""
        old = self.switch(cat)
        try:
            yield
        finally:
            self.switch(old)

    def wrap(self, cat: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` with its (synchronous) calls charged to ``cat``."""
        def wrapped(*a: Any, **kw: Any) -> Any:
            old = self.switch(cat)
            try:
                return fn(*a, **kw)
            finally:
                self.switch(old)
        return wrapped

    def install(self) -> None:
        """Patch ``asyncio.events.Handle._run`` (pure Python in CPython) to switch."""
        orig = asyncio.events.Handle._run
        self._orig_run = orig
        split = self
        tasks = self.bench_tasks

        def _run(handle: asyncio.events.Handle) -> None:
            split.handles += 1
            owner = getattr(handle._callback, "__self__", None)  # type: ignore[attr-defined]
            old = split.switch("bench" if isinstance(owner, asyncio.Task) and owner in tasks
                               else "bot")
            try:
                orig(handle)
            finally:
                split.switch(old)

        asyncio.events.Handle._run = _run  # type: ignore[method-assign,assignment]

    def uninstall(self) -> None:
        """Restore ``Handle._run``."""
        if self._orig_run is not None:
            asyncio.events.Handle._run = self._orig_run  # type: ignore[method-assign]
            self._orig_run = None

    def snapshot(self) -> dict[str, float]:
        """Seconds so far: per category, the main thread and the whole process."""
        self.switch(self.cat)
        ru = resource.getrusage(resource.RUSAGE_SELF)
        threads = {f"t_{k}": v for k, v in thread_cpu().items()}
        return dict(self.acc, main=time.thread_time(), process=ru.ru_utime + ru.ru_stime,
                    handles=float(self.handles), procs=procs_cpu(self.pids()), **threads)


def thread_cpu() -> dict[str, float]:
    """CPU seconds of this process's threads by role: ``main``, ``render`` (herdbot's
    render thread), ``database`` (aiosqlite's thread) and ``other``; each thread's run
    time to the nanosecond (:func:`_task_schedstat_s`), or where the kernel has no
    schedstat its user + system time from ``/proc/self/task/<tid>/stat`` in whole clock
    ticks."""
    import threading

    names = {t.native_id: t.name for t in threading.enumerate()}
    # aiosqlite runs each connection in a plain Thread whose target is its worker.
    db_ids = {t.native_id for t in threading.enumerate()
              if "_connection_worker_thread" in repr(getattr(t, "_target", None))}
    main_id = threading.main_thread().native_id
    tick = os.sysconf("SC_CLK_TCK")
    out = {"main": 0.0, "render": 0.0, "database": 0.0, "other": 0.0}
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:  # pragma: no cover - not Linux
        return out
    for tid in tids:
        seconds = _task_schedstat_s("self", tid)
        if seconds is None:
            try:
                with open(f"/proc/self/task/{tid}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            seconds = (int(fields[11]) + int(fields[12])) / tick
        name = names.get(int(tid), "")
        role = ("main" if int(tid) == main_id else "render" if "render" in name
                else "database" if int(tid) in db_ids else "other")
        out[role] += seconds
    return out


def procs_cpu(pids: list[int]) -> float:
    """CPU seconds of the processes ``pids`` (the render workers) so far, to the
    nanosecond: the run time of each of their threads (``/proc/<pid>/task/<tid>/schedstat``,
    first field; a thread that has ended is not counted, and a worker's threads live as
    long as it does). Where the kernel has no schedstat: user + system time from
    ``/proc/<pid>/stat``, in whole clock ticks (10 ms), whose rounding alone can add a
    tick to a window in which the process barely ran. A process that is gone counts 0."""
    total = 0.0
    for pid in pids:
        run = _schedstat_s(pid)
        if run is None:
            run = stat_cpu_s(pid)
        total += run or 0.0
    return total


def _schedstat_s(pid: int) -> float | None:
    """Run time (s) of process ``pid``'s threads from schedstat, None when unreadable."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    total, read = 0.0, 0
    for tid in tids:
        seconds = _task_schedstat_s(pid, tid)
        if seconds is not None:
            total += seconds
            read += 1
    return total if read else None


def _task_schedstat_s(pid: int | str, tid: str) -> float | None:
    """Run time (s, from ns) of thread ``tid`` of process ``pid`` (or ``"self"``), the
    first field of ``/proc/<pid>/task/<tid>/schedstat``; None when unreadable."""
    try:
        with open(f"/proc/{pid}/task/{tid}/schedstat") as fh:
            return int(fh.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def stat_cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid``, all its threads including ended ones
    (``/proc/<pid>/stat``, in whole clock ticks), None when gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def procs_rss_mib(pids: list[int]) -> float:
    """Resident memory (MiB) of the processes ``pids`` together."""
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) / 1024
        except OSError:
            continue
    return total


def cpu_between(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    """CPU seconds per part between two snapshots: ``bot`` (its main-thread work plus all
    other threads plus its render worker processes), ``loop``, ``sandbox``, ``bench``,
    ``threads``, ``render_procs`` and ``process`` (this process only)."""
    d = {k: b[k] - a[k] for k in b}
    threads = max(0.0, d["process"] - d["main"])
    return {"bot": d["bot"] + threads + d["procs"], "bot_main": d["bot"], "threads": threads,
            "render_thread": d["t_render"], "render_procs": d["procs"],
            "database_thread": d["t_database"],
            "other_threads": d["t_other"], "handles": d["handles"],
            "loop": d["loop"], "sandbox": d["sandbox"], "bench": d["bench"],
            "process": d["process"]}


# --------------------------------------------------------------------------- records


def hook_writes(router: Any, on_write: Any) -> None:
    """Make the sandbox ``router`` call ``on_write(message, interaction or None)`` after
    every message it creates or edits (the bench's way to time a click's table)."""
    orig_new, orig_edit = router.new_message, router.apply_edit

    def new_message(channel: Any, body: Any, files: Any, **kw: Any) -> Any:
        msg = orig_new(channel, body, files, **kw)
        on_write(msg, kw.get("interaction"))
        return msg

    def apply_edit(msg: Any, body: Any, files: Any, interaction: Any = None) -> Any:
        out = orig_edit(msg, body, files, interaction)
        on_write(out, interaction)
        return out

    router.new_message = new_message
    router.apply_edit = apply_edit


@dataclass
class Move:
    """One engine action performed by a player: scheduled arrival, the interactions (the
    last one commits the action), and when the new table showed."""

    game: str
    t_sched: float
    its: list[Any] = field(default_factory=list)
    t_commit: float = 0.0
    t_table: float | None = None
    public: bool = True
    error: str | None = None
    #: The table time as the bench measured it before 2026-12-01 17:10 UTC: the last write
    #: made with the committing click's token, by whatever handling (see table_time).
    t_table_token: float | None = None
    #: The kind of the rules' own timed wait the move opened (``pending.seconds`` set
    #: after it: a Llamas Unleashed reaction window, a Pacapaca negotiation), else None.
    opens_wait: str | None = None
    #: True once the player's driver returned (the move's interactions are all known).
    finished: bool = False

    @property
    def commit(self) -> Any | None:
        return self.its[-1] if self.its else None


@dataclass
class Game:
    """One of the N games: its key, members (the first hosts) and ids once started."""

    key: str
    members: list[Any]
    game_id: int | None = None
    thread_id: int = 0
    by_seat: dict[str, Any] = field(default_factory=dict)
    last: Move | None = None
    started: int = 0


class Arrivals:
    """The open-loop schedule: a Poisson process in wall-clock time that hands each
    arrival to the longest-ready player (a future in :attr:`ready`)."""

    def __init__(self, seed: int):
        self.rand = random.Random(seed)
        self.ready: deque[asyncio.Future[float]] = deque()
        self.offered = 0
        self.missed = 0
        self.lag: list[float] = []

    async def ticket(self) -> float:
        """Wait for an arrival; return its scheduled time (``perf_counter`` seconds)."""
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.ready.append(fut)
        return await fut

    def hand(self, t: float) -> bool:
        """Give the arrival at ``t`` to the longest-ready player; False when none is."""
        while self.ready:
            fut = self.ready.popleft()
            if not fut.done():
                fut.set_result(t)
                return True
        return False

    async def run(self, rate: float, until: float) -> None:
        """Arrivals at ``rate`` per second until ``until`` (``perf_counter``)."""
        t = time.perf_counter()
        while True:
            t += self.rand.expovariate(rate)
            if t >= until:
                return
            delay = t - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            self.lag.append(time.perf_counter() - t)
            self.offered += 1
            if not self.hand(t):
                self.missed += 1

    def close(self) -> None:
        """Cancel every waiting player (end of the bench)."""
        while self.ready:
            self.ready.popleft().cancel()


# --------------------------------------------------------------------------- the bench


class CapacityBench:
    """The bot in the sandbox, the games, the hooks and the per-rate phases."""

    #: Which writes make a move's table: ``"own"``, those made by the committing click's
    #: own handling (its tasks; the in-process bench sees them), or ``"token"``, those
    #: made with its token or charged to it (the bench across processes, which cannot).
    ATTRIBUTION = "own"

    def __init__(self, tmp: Path, seed: int = 15):
        from bot.app import builtin_games, make_bot
        from bot.config import Settings
        from bot.sandbox import World

        self.rand = random.Random(seed)
        self.registry = builtin_games()
        self.db_path = tmp / "capacity.sqlite3"
        # Lobbies that failed under load stay open; room for them.
        settings = Settings(database_path=self.db_path, _env_file=None,  # type: ignore[call-arg]  # pydantic-settings init arguments
                            max_open_lobbies=25)
        self.world = World()
        self.bot = make_bot(settings, registry=self.registry)
        self.games: list[Game] = []
        self.moves: list[Move] = []
        self.lobby_its: list[Any] = []
        self.errors: dict[str, int] = {}
        self.split = CpuSplit()
        self.arrivals = Arrivals(seed)
        self.stop = False
        self.tasks: list[asyncio.Task[Any]] = []
        self._db: sqlite3.Connection | None = None
        self._names = 0
        #: The render pool of the variants with workers (set when the run connects).
        self.pool: Any = None
        #: Interactions dispatched per member while the bench performs their move.
        self.member_its: dict[int, list[Any]] = {}
        #: When (``perf_counter`` s) the bot sent each picture to :attr:`pool` (see
        #: :meth:`count_pool_jobs`).
        self.pool_jobs: list[float] = []

    # -- hooks ---------------------------------------------------------------------
    def install(self) -> None:
        """Bench-only hooks on this sandbox (instance attributes; no bot file changes):
        time stamps of callbacks and message writes per interaction, CPU categories, a
        dispatch that waits only for the interaction's own tasks, and no whole-bot settle
        inside the drivers."""
        from bot.sandbox.rest import current_interaction

        sb, world, split = self.sb, self.world, self.split
        router = sb.router
        orig_handle = router.handle

        def handle(method: str, url: str, data: Any, params: Any,
                   headers: dict[str, str]) -> Any:
            old = split.switch("sandbox")
            try:
                if method == "POST" and url.endswith("/callback"):
                    it = world.interactions.get(url.rstrip("/").split("/")[-2])
                    if it is not None and getattr(it, "bench_ack", None) is None:
                        it.bench_ack = time.perf_counter()  # type: ignore[attr-defined]
                return orig_handle(method, url, data, params, headers)
            finally:
                split.switch(old)

        router.handle = handle  # type: ignore[method-assign]

        def stamp(msg: Any, interaction: Any) -> None:
            # Each write is noted as (time, public, channel, own, by_token) on the
            # interaction whose dispatch made it (the context variable every task of that
            # dispatch inherits: own) and on the interaction whose token it used, if any
            # (by_token). A move's table is its committing click's last *own* public write
            # (see table_time): a table posted as a click's followup is edited (a step
            # shown, its buttons retired) later through that click's token by other
            # members' clicks, and by timers (a reaction window closing); those writes are
            # not this click's. Before 2026-12-01 the bench charged writes by token.
            now, public = time.perf_counter(), msg.ephemeral_for is None
            ctx = current_interaction.get()
            by_token = interaction or ctx
            for it in {id(x): x for x in (ctx, by_token) if x is not None}.values():
                writes = getattr(it, "bench_writes", None)
                if writes is None:
                    writes = it.bench_writes = []  # type: ignore[union-attr]
                writes.append((now, public, msg.channel_id, it is ctx, it is by_token))

        hook_writes(router, stamp)
        sb._base_payload = split.wrap("sandbox", sb._base_payload)  # type: ignore[method-assign]
        sb._new_interaction = split.wrap("sandbox", sb._new_interaction)  # type: ignore[method-assign]

        capture: list[list[asyncio.Future[Any]]] = []
        loop = asyncio.get_running_loop()
        inner = loop.get_task_factory()

        def factory(lp: asyncio.AbstractEventLoop, coro: Any, **kw: Any) -> asyncio.Future[Any]:
            task = inner(lp, coro, **kw) if inner else asyncio.Task(coro, loop=lp, **kw)
            if capture:
                capture[-1].append(task)
            return task

        loop.set_task_factory(factory)  # type: ignore[arg-type]

        async def dispatch(it: Any, payload: dict[str, Any]) -> Any:
            token = current_interaction.set(it)
            capture.append([])
            mine = self.member_its.get(it.member.id)
            if mine is not None:
                mine.append(it)
            old = split.switch("bot")
            try:
                it.bench_t0 = time.perf_counter()
                sb.bot._connection.parse_interaction_create(payload)
            finally:
                split.switch(old)
                current_interaction.reset(token)
                tasks = capture.pop()
            if tasks:
                await asyncio.wait(tasks)
            it.bench_done = time.perf_counter()
            return it


        sb._dispatch = dispatch  # type: ignore[method-assign]

        async def no_settle() -> None:
            await asyncio.sleep(0)

        world.settle = no_settle  # type: ignore[method-assign]
        split.install()

    def set_variant(self, name: str) -> None:
        """Make the bot draw its tables as :data:`VARIANTS` ``name`` says (between phases)."""
        from bot.discord.bot import PICTURES_KEPT
        from bot.render.pool import PictureCache

        procs, keep = VARIANTS[name]
        self.bot.render_pool = self.pool if procs else None
        self.bot.pictures = PictureCache(PICTURES_KEPT) if keep else None

    def count_pool_jobs(self) -> Callable[[], None]:
        """Note in :attr:`pool_jobs` the time of every picture the bot sends to
        :attr:`pool` (``RenderPool.submit`` wrapped on that instance); returns the function
        that takes the wrapper off again (the pool is shared by every bot in the process)."""
        pool = self.pool
        before = pool.__dict__.get("submit")
        orig, jobs = pool.submit, self.pool_jobs

        def submit(key: bytes) -> Any:
            jobs.append(time.perf_counter())
            return orig(key)

        pool.submit = submit

        def undo() -> None:
            if pool.__dict__.get("submit") is submit:
                if before is None:
                    del pool.submit
                else:
                    pool.submit = before
        return undo

    async def drain_pool(self, limit: float) -> float:
        """Wait (at most ``limit`` s) until :attr:`pool` has no picture in flight (all the
        jobs sent to it finished, so its workers are idle); return the seconds waited."""
        t0 = time.perf_counter()
        while (self.pool is not None and self.pool.in_flight > 0
               and time.perf_counter() < t0 + limit):
            await asyncio.sleep(0.02)
        return time.perf_counter() - t0

    # -- reading the game (bench side, its own read-only connection) ---------------
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True,
                                       check_same_thread=False)
        return self._db

    def decide(self, g: Game) -> tuple[str, Any, Any] | str:
        """``(seat, action, member)`` for the game's next human decision (random legal
        action), ``"over"`` once it finished, ``"wait"`` when only a timer can move it."""
        row = self.db().execute("SELECT status, state FROM games WHERE id = ?",
                                (g.game_id,)).fetchone()
        if row is None or row[0] != "active" or row[1] is None:
            return "over"
        return self.pick(g, row[1])

    def pick(self, g: Game, stored_state: Any) -> tuple[str, Any, Any] | str:
        """``(seat, action, member)``: a random legal action of a member whose decision it
        is in the active game's stored state; ``"wait"`` when none has one."""
        engine = self.registry[g.key].engine
        state = engine.load_state(stored_state)
        seats = list(engine.pending(state).seats)
        self.rand.shuffle(seats)
        for seat in seats:
            member = g.by_seat.get(seat)
            if member is None:
                continue
            legal = engine.legal_actions(state, seat)
            if legal:
                return seat, self.rand.choice(legal), member
        return "wait"

    async def decision(self, g: Game) -> tuple[str, Any, Any] | str:
        """:meth:`decide`, awaitable (the bench with the bot in its own process reads the
        game through the store)."""
        return self.decide(g)

    async def rule_wait(self, g: Game) -> str | None:
        """The kind of the game's pending decision when the rules time it (a reaction
        window, a negotiation: ``pending.seconds`` set), else ``None``."""
        row = self.db().execute("SELECT status, state FROM games WHERE id = ?",
                                (g.game_id,)).fetchone()
        if row is None or row[0] != "active" or row[1] is None:
            return None
        engine = self.registry[g.key].engine
        pending = engine.pending(engine.load_state(row[1]))
        return pending.kind if pending.seconds is not None else None

    # -- games ---------------------------------------------------------------------
    def new_members(self, n: int) -> list[Any]:
        out = []
        for _ in range(n):
            self._names += 1
            out.append(self.world.add_member(f"P{self._names:05d}"))
        return out

    async def start_game(self, g: Game) -> bool:
        """/play, Join, Start for the game's members; True when the game started."""
        host = g.members[0]
        it = await host.slash("play", game=g.key)
        self.lobby_its.append(it)
        lobby = it.original
        if lobby is None:
            return False
        for m in g.members[1:]:
            live = self.world.messages.get(lobby.id, lobby)
            self.lobby_its.append(await m.click(live, "Join"))
        live = self.world.messages.get(lobby.id, lobby)
        if not live.components or live.is_disabled("Start"):
            return False
        self.lobby_its.append(await host.click(live, "Start"))
        with self.split.charged("bench"):
            row = self.db().execute(
                "SELECT id, thread_id, channel_id FROM games WHERE host_id = ? AND status = "
                "'active' ORDER BY id DESC LIMIT 1", (host.id,)).fetchone()
            if row is None:
                return False
            g.game_id, g.thread_id = row[0], row[1] or row[2]
            by_user = {m.id: m for m in g.members}
            g.by_seat = {seat: by_user[uid] for seat, uid in self.db().execute(
                "SELECT seat, user_id FROM seats WHERE game_id = ?", (g.game_id,))
                if uid in by_user}
        g.started += 1
        return True

    def add_games(self, n: int) -> list[Game]:
        """``n`` more games (not started), the three games in turn, 2-4 players."""
        fresh = []
        for _ in range(n):
            key = GAMES[len(self.games) % len(GAMES)]
            g = Game(key, self.new_members(self.rand.randint(2, 4)))
            self.games.append(g)
            fresh.append(g)
        return fresh

    async def play(self, g: Game) -> None:
        """The game's players: think after their turn came, wait for an arrival, act."""
        from bot.sandbox.drivers import DriverContext, driver_for

        perform = driver_for(g.key)
        # A fresh game's first player is somewhere in their think time already, as in a
        # steady state (otherwise every new game would become ready 5-15 s from now).
        first = True
        while not self.stop:
            if g.game_id is None:
                if not await self.start_game(g):
                    g.game_id = None
                    await asyncio.sleep(1.0)
                continue
            await asyncio.sleep(self.rand.uniform(0.0 if first else THINK[0], THINK[1]))
            first = False
            if self.stop:
                return
            t_sched = await self.arrivals.ticket()
            dec = await self.decision(g)
            if dec == "over":
                self.arrivals.hand(t_sched) or self._missed()
                g.game_id, g.last = None, None
                g.members = self.new_members(len(g.members))
                continue
            if dec == "wait":
                self.arrivals.hand(t_sched) or self._missed()
                continue
            assert not isinstance(dec, str)
            seat, action, member = dec
            move = Move(g.key, t_sched)
            its: list[Any] = []
            self.member_its[member.id] = its
            # Listed at once, so a phase's figures see a move still in flight (its wait so
            # far counts) and the phase waits for it (see phase).
            self.moves.append(move)
            ctx = DriverContext(self.world, self.bot, member, g.game_id, seat)
            ctx._thread_id = g.thread_id
            try:
                await perform(ctx, action)
            except Exception as exc:  # noqa: BLE001 - a refused click is counted, not fatal
                key = f"{g.key}: {type(exc).__name__}: {str(exc)[:80]}"
                self.errors[key] = self.errors.get(key, 0) + 1
                move.error = key
            finally:
                self.member_its.pop(member.id, None)
            if move.error is None:
                move.opens_wait = await self.rule_wait(g)
            move.its = its
            if move.its:
                c = move.its[-1]
                move.t_commit = move.t_sched if len(move.its) == 1 else c.bench_t0
            move.finished = True

    def _missed(self) -> bool:
        self.arrivals.missed += 1
        return False

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self.split.bench_tasks.add(task)
        self.tasks.append(task)
        return task

    # -- one phase -------------------------------------------------------------------
    async def grow(self, n: int, concurrency: int = 16) -> float:
        """Set up games until there are ``n``; return the seconds it took."""
        t0 = time.perf_counter()
        fresh = self.add_games(max(0, n - len(self.games)))
        sem = asyncio.Semaphore(concurrency)

        async def setup(g: Game) -> None:
            async with sem:
                for _ in range(5):
                    if await self.start_game(g):
                        return
                    g.members = self.new_members(len(g.members))

        jobs = [self.spawn(setup(g)) for g in fresh]
        for i in range(0, len(jobs), 200):
            await asyncio.gather(*jobs[i:i + 200])
            self.prune()
        for g in fresh:
            self.spawn(self.play(g))
        return time.perf_counter() - t0

    def prune(self) -> None:
        """Drop what the simulated Discord keeps only for tests (as the load bench's
        :func:`~bench.load.prune`, interactions kept 30 s), but never a public message
        with components: a live table may be older than the last few messages of its
        thread, and the bot may still edit it. The picture bytes of the kept messages are
        dropped too: the bench never looks at them, and on Discord they are not in the
        bot's memory."""
        with self.split.charged("bench"):
            world = self.world
            # Only the messages before a thread's last PRUNE_KEEP can be dropped: the
            # threads holding such a message with components are saved (and only they).
            keep: set[int] = set()
            saved: dict[int, list[int]] = {}
            for cid, channel in world.channels.items():
                if channel.is_thread and len(channel.messages) > PRUNE_KEEP:
                    here = [mid for mid in channel.messages[:-PRUNE_KEEP]
                            if (msg := world.messages.get(mid)) is not None
                            and msg.ephemeral_for is None and msg.components]
                    if here:
                        keep.update(here)
                        saved[cid] = list(channel.messages)
            kept = {mid: world.messages[mid] for mid in keep}
            prune(self.sb, world, keep=PRUNE_KEEP, older_than=30.0)
            for cid, before in saved.items():
                now = set(world.channels[cid].messages)
                if any(mid in keep and mid not in now for mid in before):
                    world.channels[cid].messages[:] = [
                        mid for mid in before if mid in now or mid in keep]
            for mid, msg in kept.items():
                world.messages.setdefault(mid, msg)
                for a in msg.attachments:
                    world.attachments.setdefault(a.id, a)
            for msg in world.messages.values():
                if msg.attachments and any(a.data for a in msg.attachments):
                    msg.attachments = [dataclasses.replace(a, data=b"")
                                       for a in msg.attachments]
                    for a in msg.attachments:
                        if a.id in world.attachments:
                            world.attachments[a.id] = a

    async def phase(self, rate: float, warmup: float, window: float,
                    profile: Any = None, variant: str | None = None) -> dict[str, Any]:
        """Arrivals at ``rate`` for ``warmup + window`` s; the figures of the window.
        ``profile`` (start()/stop()) runs around the window only; ``variant`` (a key of
        :data:`VARIANTS`) is set before the games are grown; then the bench waits until
        the render pool has finished every picture sent to it before (a move's, a timer's)
        so that none is drawn in this phase, and counts from there the pictures sent to the
        pool (``render_pool_jobs``: ``phase`` = from the variant switch to the row,
        ``window``, and ``per_move`` = window jobs per move shown; None without a pool)."""
        n = math.ceil(rate * GAMES_PER_RATE)
        if variant is not None:
            self.set_variant(variant)
        jobs0 = len(self.pool_jobs)
        pool_wait = await self.drain_pool(DRAIN_S)
        setup_s = await self.grow(n)
        self.prune()
        gc.collect()
        m0, l0 = len(self.moves), len(self.lobby_its)
        self.arrivals.offered = self.arrivals.missed = 0
        self.arrivals.lag = []
        start = time.perf_counter()
        w0, w1 = start + warmup, start + warmup + window
        runner = self.spawn(self.arrivals.run(rate, w1))
        la_start = loadavg()

        async def pruner() -> None:
            while time.perf_counter() < w1:
                await asyncio.sleep(2.0)
                self.prune()

        prune_task = self.spawn(pruner())
        await asyncio.sleep(max(0.0, w0 - time.perf_counter()))
        offered0, missed0 = self.arrivals.offered, self.arrivals.missed
        if profile is not None:
            profile.start()
        cpu0 = self.split.snapshot()
        await asyncio.sleep(max(0.0, w1 - time.perf_counter()))
        cpu1 = self.split.snapshot()
        if profile is not None:
            profile.stop()
        rss = rss_mb()
        workers_rss = procs_rss_mib(self.split.pids())
        offered = self.arrivals.offered - offered0
        missed = self.arrivals.missed - missed0
        lag = [x for x in self.arrivals.lag]
        await runner
        await prune_task
        # Let the moves in flight finish (a late table is a slow one, not a lost one), so
        # the next phase starts with no backlog of this one (up to DRAIN_S).
        drained = time.perf_counter()
        while time.perf_counter() < drained + DRAIN_S and any(
                not mv.finished for mv in self.moves[m0:] if mv.t_sched < w1):
            await asyncio.sleep(0.2)
        drained = time.perf_counter() - drained
        await asyncio.sleep(0.3)
        pictures = getattr(self.bot, "pictures", None)  # (a bot in another process: none)
        row = self.figures(rate, n, setup_s, self.moves[m0:], self.lobby_its[l0:],
                           (w0, w1), cpu_between(cpu0, cpu1), rss, offered, missed, lag,
                           la_start)
        row["variant"] = variant
        row["drain_s"] = round(drained, 1)
        row["render_pool_wait_s"] = round(pool_wait, 2)
        jobs = self.pool_jobs[jobs0:]
        in_window = sum(1 for t in jobs if w0 <= t < w1)
        row["render_pool_jobs"] = None if self.pool is None else {
            "phase": len(jobs), "window": in_window,
            "per_move": round(in_window / max(1, row["moves_shown"]), 2)}
        row["render_procs_rss_mib"] = round(workers_rss, 1)
        row["pictures_kept"] = (None if pictures is None
                                else {"hits": pictures.hits, "misses": pictures.misses})
        return row

    def table_time(self, mv: Move, thread_id: int | None = None) -> None:
        """Fill ``mv.t_table``: the last public write in a thread (or, failing that, the
        last write) the bot made while handling the committing interaction (its own
        writes: see ``stamp`` in :meth:`install`; :attr:`ATTRIBUTION`), and
        ``mv.t_table_token`` the same over the writes made with its token (the
        attribution of the runs before 2026-12-01 17:10 UTC, kept for comparison)."""
        c = mv.commit
        writes = getattr(c, "bench_writes", None) or [] if c is not None else []
        for attr, col in (("t_table", 3 if self.ATTRIBUTION == "own" else 4),
                          ("t_table_token", 4)):
            mine = [w for w in writes if w[col]]
            public = [w[0] for w in mine if w[1]]
            if public:
                setattr(mv, attr, max(public))
            elif mine:
                setattr(mv, attr, max(w[0] for w in mine))
            if attr == "t_table":
                mv.public = bool(public)

    def figures(self, rate: float, n: int, setup_s: float, moves: list[Move],
                lobby: list[Any], window: tuple[float, float], cpu: dict[str, float],
                rss: float, offered: int, missed: int, lag: list[float],
                la_start: list[float]) -> dict[str, Any]:
        w0, w1 = window
        span = w1 - w0
        for mv in moves:
            if mv.finished:
                self.table_time(mv)
        in_window = [mv for mv in moves if w0 <= mv.t_sched < w1]
        done = [mv for mv in in_window if mv.t_table is not None and mv.error is None]
        shown = [mv for mv in moves if mv.t_table is not None and w0 <= mv.t_table < w1
                 and mv.error is None]
        # A move still without its table when the phase ended counts with the time it
        # had waited so far (a lower bound), so a backlog raises the percentiles.
        now = time.perf_counter()
        unfinished = [mv for mv in in_window if mv.t_table is None and mv.error is None]
        click = [mv.t_table - mv.t_commit for mv in done if mv.t_table is not None] + [
            now - (mv.t_commit or mv.t_sched) for mv in unfinished]
        whole = [mv.t_table - mv.t_sched for mv in done if mv.t_table is not None] + [
            now - mv.t_sched for mv in unfinished]
        no_wait = [mv.t_table - mv.t_commit for mv in done
                   if mv.t_table is not None and mv.opens_wait is None] + [
            now - (mv.t_commit or mv.t_sched) for mv in unfinished if mv.opens_wait is None]
        by_token = [mv.t_table_token - mv.t_commit for mv in in_window
                    if mv.t_table_token is not None and mv.error is None]
        waits: dict[str, int] = {}
        for mv in in_window:
            if mv.opens_wait is not None:
                waits[mv.opens_wait] = waits.get(mv.opens_wait, 0) + 1
        its = [it for mv in in_window for it in mv.its] + [
            it for it in lobby if w0 <= getattr(it, "bench_t0", 0.0) < w1]
        acks = [it.bench_ack - it.bench_t0 for it in its
                if getattr(it, "bench_ack", None) is not None and hasattr(it, "bench_t0")]
        late = sum(1 for it in its if it.failed or getattr(it, "bench_ack", None) is None
                   or it.bench_ack - it.bench_t0 > ACK_LIMIT_S)
        per_game: dict[str, list[float]] = {}
        for mv in done:
            if mv.t_table is not None:
                per_game.setdefault(mv.game, []).append(mv.t_table - mv.t_commit)
        moves_n = max(1, len(shown))
        active = sum(1 for g in self.games if g.game_id is not None)
        row: dict[str, Any] = {
            "offered_per_s": rate, "games": n, "active_games": active,
            "setup_s": round(setup_s, 1), "window_s": round(span, 1),
            "arrivals": offered, "arrivals_missed": missed,
            "achieved_per_s": round(len(shown) / span, 1),
            "moves": len(in_window), "moves_shown": len(shown),
            "moves_errors": sum(1 for mv in in_window if mv.error),
            "moves_no_public_write": sum(1 for mv in done if not mv.public),
            "moves_unfinished": len(unfinished),
            "interactions_per_move": round(sum(len(mv.its) for mv in in_window)
                                           / max(1, len(in_window)), 2),
            "click_to_table": summary_ms(click),
            "click_to_table_no_rule_wait": summary_ms(no_wait),
            "moves_leaving_rule_wait": dict(sorted(waits.items())),
            "click_to_table_by_token": summary_ms(by_token),
            "move_to_table": summary_ms(whole),
            "per_game_click_p99_ms": {k: round(pct(v, 99) * 1000, 1)
                                      for k, v in sorted(per_game.items())},
            "schedule_lag_p99_ms": round(pct(lag, 99) * 1000, 1) if lag else None,
            "ack": summary_ms(acks),
            "interactions": len(its), "late_acks": late,
            "cpu_ms_per_move": {k: round(v * 1000 / moves_n, 2) for k, v in cpu.items()
                                if k != "handles"},
            "cpu_share_of_window": {k: round(v / span, 2) for k, v in cpu.items()
                                    if k != "handles"},
            "asyncio_callbacks_per_move": round(cpu["handles"] / moves_n),
            "rss_mib": round(rss, 1),
            "loadavg_start": la_start, "loadavg_end": loadavg(),
        }
        row["p99_ok"] = bool(click) and row["click_to_table"]["p99_ms"] <= P99_LIMIT_S * 1000
        return row

    # -- whole run -----------------------------------------------------------------
    async def run(self, rates: tuple[float, ...], warmup: float, window: float,
                  profile: Any = None, profile_rate: float | None = None,
                  log: Callable[[str], None] = print,
                  variants: tuple[str, ...] = ()) -> dict[str, Any]:
        """Connect, run each rate (ascending), disconnect; the rows and the run's facts.
        With ``variants`` (keys of :data:`VARIANTS`) each rate runs once per variant, the
        order turned around at every other rate (A B, B A, A B ...), so a drift of the
        machine's load falls on both alike."""
        from bot.render.pool import shared_pool

        rss_before = rss_mb()
        self.sb: Any = cast(Any, await self.world.connect(self.bot))  # a Sandbox (procs: RemoteLink)
        self.install()
        # The pool a variant with workers uses (the bot's own, or the shared one).
        self.pool = self.bot.render_pool or shared_pool(1, warm=("PIL.Image",
                                                                   "bot.render.common"))
        self.split.pids = self.pool.pids
        await asyncio.to_thread(self.pool.start)  # its start-up outside every window
        rss_connected = rss_mb()
        uncount = self.count_pool_jobs()
        rows: list[dict[str, Any]] = []
        plan = [(rate, (variants if i % 2 == 0 else variants[::-1]) or (None,))
                for i, rate in enumerate(rates)]
        try:
            with self.sb.allow_errors() as errors:
                for rate, order in plan:
                    for variant in order:
                        profiling = profile is not None and rate == profile_rate
                        row = await self.phase(rate, warmup, window,
                                               profile if profiling else None, variant)
                        row["profiled"] = profiling
                        row["rss_per_game_kib"] = round(
                            (row["rss_mib"] - rss_connected) * 1024 / max(1, row["games"]), 1)
                        rows.append(row)
                        log(f"  rate {rate}/s{f' [{variant}]' if variant else ''}: "
                            f"{brief(row)}")
                self.stop = True
                self.arrivals.close()
                for t in self.tasks:
                    t.cancel()
                await asyncio.gather(*self.tasks, return_exceptions=True)
                # The bot finishes the clicks already dispatched (a backlog at the top
                # rate can take a while) before it is disconnected.
                await self.sb.settle(timeout=300)
        finally:
            self.split.uninstall()
            uncount()
            with self.sb.allow_errors() as late_errors:
                await self.world.disconnect()
            if self._db is not None:
                self._db.close()
        kinds: dict[str, int] = {}
        for err in [*errors, *late_errors]:
            exc = err.exc
            key = f"{type(exc).__name__}: {exc}"[:120] if exc else err.message[:120]
            kinds[key] = kinds.get(key, 0) + 1
        def best(of: list[dict[str, Any]]) -> float | None:
            return max((r["offered_per_s"] for r in of if r["p99_ok"]
                        and r["achieved_per_s"] >= 0.9 * r["offered_per_s"]), default=None)

        return {"rates": rows, "rss_before_mib": round(rss_before, 1),
                "rss_connected_mib": round(rss_connected, 1), "bot_errors": kinds,
                "driver_errors": dict(sorted(self.errors.items(), key=lambda kv: -kv[1])[:20]),
                "variants": list(variants),
                "max_rate_p99_ok": best(rows),
                "max_rate_p99_ok_by_variant": {v: best([r for r in rows if r["variant"] == v])
                                               for v in variants}}


def brief(row: dict[str, Any]) -> str:
    """One line of a row."""
    c = row["click_to_table"]
    cpu = row["cpu_ms_per_move"]
    jobs = row.get("render_pool_jobs")
    pool = f", pool jobs/move {jobs['per_move']}" if jobs is not None else ""
    return (f"{row['games']} games, achieved {row['achieved_per_s']}/s, click->table p50 "
            f"{c['p50_ms']} p99 {c['p99_ms']} ms, late {row['late_acks']}, missed "
            f"{row['arrivals_missed']}, CPU/move bot {cpu['bot']} (render thread "
            f"{cpu['render_thread']}, procs {cpu['render_procs']}{pool}) sandbox {cpu['sandbox']} "
            f"bench {cpu['bench']} loop {cpu['loop']} ms, RSS {row['rss_mib']} MiB, "
            f"load {row['loadavg_end']}")


async def bench_capacity(rates: tuple[float, ...] = RATES, warmup: float = 5.0,
                         window: float = 25.0, profile: Any = None,
                         profile_rate: float | None = None,
                         log: Callable[[str], None] = print,
                         variants: tuple[str, ...] = ()) -> dict[str, Any]:
    """Run the open-loop capacity bench (see the module doc) at each offered rate
    (moves/s, ascending): ``warmup`` s then a ``window`` s measured, per rate. ``profile``
    (start()/stop()) runs around the phase at ``profile_rate``. Returns
    ``{"rates": [row...], "max_rate_p99_ok", ...}``. ``variants``: see
    :meth:`CapacityBench.run` (unknown names raise ``KeyError`` before anything runs)."""
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise KeyError(f"unknown variants {unknown}; known: {sorted(VARIANTS)}")
    with tempfile.TemporaryDirectory(prefix="herdcap-") as tmp:
        bench = CapacityBench(Path(tmp))
        return await bench.run(tuple(sorted(rates)), warmup, window, profile, profile_rate,
                               log, variants)


def area(path: str) -> str:
    """The part of the program a source file belongs to: ``sandbox`` (the simulated
    Discord), ``bench``, or the bot's part (``bot.render``, ``discord.py``, ``PIL`` ...)."""
    p = path.replace("\\", "/")
    if "/bot/sandbox/" in p:
        return "sandbox"
    if "/bench/" in p:
        return "bench"
    for mark, name in (("/site-packages/discord/", "discord.py"), ("/PIL/", "PIL"),
                       ("/pydantic", "pydantic"), ("/aiosqlite/", "aiosqlite"),
                       ("/asyncio/", "asyncio"), ("/json/", "json"),
                       ("/cogs/", "cogs")):
        if mark in p:
            return name
    if "/bot/" in p:
        return "bot." + p.split("/bot/", 1)[1].split("/", 1)[0].removesuffix(".py")
    return "other"


def top_costs(session: Any, n: int = 8) -> list[dict[str, Any]]:
    """The ``n`` largest self times in a pyinstrument session of the main thread, by
    function, with the area each runs for (see :func:`area`; a built-in function counts
    for its caller's area), as a ``share`` of the busy time (sampled time minus the loop
    waiting in ``epoll``/``select``); then one row per area (``where`` = ``area:<name>``)
    and the idle share (``where`` = ``idle``)."""
    root = session.root_frame()
    if root is None:
        return []
    by_fn: dict[str, float] = {}
    by_area: dict[str, float] = {}
    idle = 0.0
    todo: list[tuple[Any, str]] = [(root, "other")]
    while todo:
        fr, parent_area = todo.pop()
        path = fr.file_path or ""
        builtin = not path or path.startswith("<")
        a = parent_area if builtin else area(path)
        real = [c for c in fr.children if not c.is_synthetic]
        todo.extend((c, a) for c in real)
        self_t = fr.time - sum(c.time for c in real)
        if self_t <= 0:
            continue
        if builtin and fr.function in ("poll", "select", "epoll.poll", "select.select"):
            idle += self_t
            continue
        where = path if builtin else fr.file_path_short
        key = f"{fr.function} ({where}:{fr.line_no}) [{a}]"
        by_fn[key] = by_fn.get(key, 0.0) + self_t
        by_area[a] = by_area.get(a, 0.0) + self_t
    busy = sum(by_area.values()) or 1e-9
    rows = [{"where": k, "share": round(v / busy, 4), "seconds": round(v, 3)}
            for k, v in sorted(by_fn.items(), key=lambda kv: -kv[1])[:n]]
    rows += [{"where": f"area:{k}", "share": round(v / busy, 4), "seconds": round(v, 3)}
             for k, v in sorted(by_area.items(), key=lambda kv: -kv[1])]
    rows.append({"where": "idle (of all sampled time)", "share": round(idle / (idle + busy), 4),
                 "seconds": round(idle, 3)})
    return rows
