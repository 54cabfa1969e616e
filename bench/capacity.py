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
buttons, selects and panels; a move is one action, one or more interactions. A player
the bot refused as busy presses again after a pause, up to a few tries
(:mod:`bench.players`); those retries are extra load on top of the schedule.

Measured per rate (steady window after a warm-up):

- achieved rate: moves whose new table appeared in the window, per second;
- click-to-new-table: from the committing click (the interaction that carries the action
  out; for a one-click move its *scheduled* arrival time, so queueing in the loop counts)
  to the last public message write (new message or edit) in the game's thread that the
  bot made while handling that interaction (or, when it wrote nothing public, its last
  write of any kind); ``move`` is the same from the scheduled arrival of the first click
  of the move's last try, ``first_try_to_table`` from that of its first try;
- refusals: moves refused as busy at least once, retries, moves given up after their
  last try (not made: no table, not in the latencies);
- late acknowledgements: interactions whose callback came more than 3 s after dispatch,
  or that the simulated Discord refused as late (10062), or never acknowledged;
- CPU per move, split by thread CPU accounting (see :class:`~bench.cpu.CpuSplit`): the bot (its
  event-loop work, its render and database threads, the asyncio loop's own overhead), the
  simulated Discord (the REST router and the interaction payloads it builds), and the
  bench's own driving (reading whose turn it is, choosing, finding components); the
  render worker processes' CPU (their threads' run time, :func:`~bench.cpu.procs_cpu`) counts as the
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
import random
import sqlite3
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from bench.common import loadavg, rss_mb
from bench.cpu import CpuSplit, cpu_between, procs_rss_mib
from bench.figures import Figures, brief
from bench.load import prune
from bench.players import Players
from bench.routes import busy_answers, count_routes, per_move
from bench.schedule import Arrivals, Game, GameReader, Move, hook_writes
from bot.app import builtin_games, make_bot
from bot.config import Settings
from bot.discord.bot import PICTURES_KEPT
from bot.render.pool import PictureCache, shared_pool
from bot.runtime.admission import LAG_FLOOR
from bot.sandbox.rest import current_interaction
from bot.sandbox.world import World

#: Offered rates (moves per second) of a full run, ascending.
RATES = (10, 20, 40, 60, 80, 120)
#: Games per offered move per second: mean think (10 s) plus the move itself, with room
#: so that a ready player is always waiting for the next arrival.
GAMES_PER_RATE = 13.0
#: After a phase, how long the bench waits at most for the moves still in flight, so the
#: next phase (another rate or variant) does not start with this one's backlog.
DRAIN_S = 60.0
#: The last messages of a thread the bench's pruning keeps (beside live tables).
PRUNE_KEEP = 4
GAMES = ("llamas-alpacas", "pacapaca", "llamas-unleashed")
#: How the bot draws its table pictures, for a before/after run (``--variants``): name ->
#: (render worker processes, pictures kept by their inputs). ``thread`` is the bot before
#: the render pool (every table drawn in its one render thread); ``process`` the default.
VARIANTS: dict[str, tuple[int, bool]] = {"thread": (0, False), "process": (1, True),
                                         "thread+keep": (0, True), "process-nokeep": (1, False)}


# --------------------------------------------------------------------------- the bench


def freeze_setup() -> None:
    """Collect, then freeze what is left (``gc.freeze``): the set-up's games and the
    simulated Discord's messages so far are not scanned by the collections during the
    measurement, whose full collections would otherwise pause every answer of the
    simulated Discord for the length of a scan of all of them. The run unfreezes them at
    its end."""
    gc.collect()
    gc.freeze()


class CapacityBench(Figures, GameReader, Players):
    """The bot in the sandbox, the games, the hooks and the per-rate phases."""

    #: Which writes make a move's table: ``"own"``, those made by the committing click's
    #: own handling (its tasks; the in-process bench sees them), or ``"token"``, those
    #: made with its token or charged to it (the bench across processes, which cannot).
    ATTRIBUTION = "own"

    def __init__(self, tmp: Path, seed: int = 15):
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
            # not this click's.
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
        if await self.join_and_start(g, await host.slash("play", game=g.key)) is None:
            return False
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

    async def join_and_start(self, g: Game, it: Any) -> Any:
        """After the host's /play (``it``): Join for the other members, then Start. The
        lobby message, or None when the lobby is not shown (yet) with those buttons."""
        self.lobby_its.append(it)
        lobby = it.original
        if lobby is None:
            return None
        for m in g.members[1:]:
            live = self.world.messages.get(lobby.id, lobby)
            if "Join" not in live.labels:  # the lobby not shown yet (a bot behind): retry
                return None
            self.lobby_its.append(await m.click(live, "Join"))
        live = self.world.messages.get(lobby.id, lobby)
        if "Start" not in live.labels or live.is_disabled("Start"):
            return None
        self.lobby_its.append(await g.members[0].click(live, "Start"))
        return lobby

    def add_games(self, n: int) -> list[Game]:
        """``n`` more games (not started), the three games in turn, 2-4 players."""
        fresh = []
        for _ in range(n):
            key = GAMES[len(self.games) % len(GAMES)]
            g = Game(key, self.new_members(self.rand.randint(2, 4)))
            self.games.append(g)
            fresh.append(g)
        return fresh

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self.split.bench_tasks.add(task)
        self.tasks.append(task)
        return task

    # -- one phase -------------------------------------------------------------------
    async def grow(self, n: int, concurrency: int = LAG_FLOOR) -> float:
        """Set up games until there are ``n``, ``concurrency`` at once (no more than the
        bot admits whatever its load: setting up is not measured); return the seconds it
        took."""
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
        freeze_setup()
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
        routes = count_routes(self.world)
        routes.routes.clear()
        routes.on = True
        cpu0 = self.split.snapshot()
        await asyncio.sleep(max(0.0, w1 - time.perf_counter()))
        cpu1 = self.split.snapshot()
        routes.on = False
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
        row["requests_per_move"] = per_move(routes.routes, row["moves_shown"])
        row["busy_answers"] = busy_answers(routes.routes)
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

    # -- whole run -----------------------------------------------------------------
    async def run(self, rates: tuple[float, ...], warmup: float, window: float,
                  profile: Any = None, profile_rate: float | None = None,
                  log: Callable[[str], None] = print,
                  variants: tuple[str, ...] = ()) -> dict[str, Any]:
        """Connect, run each rate (ascending), disconnect; the rows and the run's facts.
        With ``variants`` (keys of :data:`VARIANTS`) each rate runs once per variant, the
        order turned around at every other rate (A B, B A, A B ...), so a drift of the
        machine's load falls on both alike."""
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
            gc.unfreeze()
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
                "driver_errors": dict(Counter(self.errors).most_common(20)),
                "variants": list(variants),
                "max_rate_p99_ok": best(rows),
                "max_rate_p99_ok_by_variant": {v: best([r for r in rows if r["variant"] == v])
                                               for v in variants}}


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
