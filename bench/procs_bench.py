"""The bench of :mod:`bench.procs`: :class:`ProcessCapacityBench`, the capacity bench's
games, players and arrivals against real ``herdbot run`` processes on the local Discord,
with their CPU, pinning, commit probe and click-to-table attribution by token (see
:mod:`bench.procs` for what it measures and how it is run)."""


from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.botprocs import (
    Pinning,
    ProfileSignals,
    bot_python,
    probe_commits,
    tree,
)
from bench.capacity import DRAIN_S, GAMES_PER_RATE, CapacityBench, freeze_setup
from bench.common import GcPauses, loadavg, summary_ms
from bench.cpu import procs_cpu, stat_cpu_s
from bench.figures import (
    ACK_LIMIT_S,
    brief,
    burst_bucket,
    burst_table,
    per_busy_answer,
    recovered_after,
)
from bench.schedule import Game, hook_writes
from bench.speed import SpeedProbe
from bot.sandbox.drivers import refused_busy
from bot.sandbox.loopback import LocalDiscord
from bot.sandbox.processes import ProcessView, bot_process

#: A bot-token write in a thread counts for the click in flight there when it comes within

#: this many seconds of the click (the Llamas Unleashed reaction window is 5 s).
ATTRIBUTE_S = 4.0
#: Guilds of the local Discord (games are opened in them in turn; half on each shard).
GUILDS = 8


class ProcessCapacityBench(CapacityBench):
    """:class:`~bench.capacity.CapacityBench` against ``herdbot run`` processes."""

    #: The bot's requests come over HTTP from other processes, so the bench cannot see
    #: which click's handling made a write: writes count by token or click in flight.
    ATTRIBUTION = "token"
    #: A panel a click opens may come after the click's dispatch returned (the bot defers,
    #: then sends it): a driver waits this long for it before its try counts unanswered.
    PATIENCE = 5.0

    def __init__(self, tmp: Path, database: str | Path, processes: int, seed: int = 15, *,
                 checkout: Path | None = None, profile_to: str | None = None,
                 bot_nice: int = 0, pinning: Pinning | None = None):
        super().__init__(tmp, seed)
        #: The bot processes' and the harness's CPUs (``--bot-cpus``), else ``None``.
        self.pinning = pinning
        #: Another checkout to run the bot from (its ``.venv`` if it has one).
        self.checkout = checkout
        #: Path prefix of the bot processes' profiles (``--profile-bot``), else ``None``.
        self.profile_to = profile_to
        self.bot_nice = bot_nice
        #: Settings given to every bot process (``--bot-env``), e.g. ``HERDBOT_EVENT_LOOP``.
        self.bot_env: dict[str, str] = {}
        self.tmp = tmp
        self.database = database
        self.processes = processes
        self.hub = LocalDiscord(guilds=GUILDS, quiet=0.1)
        self.world = self.hub.world
        self.procs: list[Any] = []
        self.cpu_samples: list[tuple[float, float]] = []
        #: (perf_counter, CPU seconds of the PostgreSQL server's processes) when pinned.
        self.pg_samples: list[tuple[float, float]] = []
        self.commit_samples: list[tuple[float, float]] = []
        #: The speed of the bots' CPUs (all CPUs when unpinned), sampled from the start;
        #: a steady quota follows it (``--bot-share-steady``).
        self.quota = pinning.quota if pinning is not None else None
        self.speed = SpeedProbe(sorted(pinning.bot) if pinning is not None else (),
                                on_sample=None if self.quota is None else self.quota.follow)
        #: (perf_counter, the quota's scale then) at each CPU sample.
        self.scale_samples: list[tuple[float, float]] = []
        self.by_channel: dict[int, Any] = {}
        self._opened = 0
        #: The harness's own garbage collections (it holds the simulated Discord, whose
        #: pauses delay every answer and every stamp), and unix time minus perf_counter.
        self.gc = GcPauses()
        self.clock_offset = time.time() - time.perf_counter()

    # -- hooks ---------------------------------------------------------------------
    def install(self) -> None:
        """As the in-process bench (callback and write time stamps on the router), but a
        dispatch sends the interaction down the websocket and waits for its answer; a bot
        token write in a thread is charged to the interaction in flight there."""
        self.sb = self.hub.link
        super().install()
        router = self.sb.router
        hooked_handle = router.handle
        world = self.world

        def handle(method: str, url: str, data: Any, params: Any,
                   headers: dict[str, str]) -> Any:
            # The URL carries a query here (?with_response=true): match the path.
            path = urlsplit(url).path
            if method == "POST" and path.endswith("/callback"):
                it = world.interactions.get(path.rstrip("/").split("/")[-2])
                if it is not None and getattr(it, "bench_ack", None) is None:
                    it.bench_ack = time.perf_counter()  # type: ignore[attr-defined]
            return hooked_handle(method, url, data, params, headers)

        router.handle = handle  # type: ignore[method-assign]

        def in_flight(channel_id: int) -> Any:
            # A bot-token write carries no interaction: charge it to the click in flight
            # in that thread, if that click is recent (a later write in the thread, such as
            # a table after a reaction window closed, is the timer's, not the click's).
            it = self.by_channel.get(channel_id)
            if it is None or time.perf_counter() - it.bench_t0 > ATTRIBUTE_S:
                return None
            return it

        def later_click(channel_id: int, token_it: Any) -> Any:
            # A write made with the token of an earlier click while a later click in that
            # thread is being handled (retiring or editing a table posted as the earlier
            # click's followup) is the later click's.
            it = self.by_channel.get(channel_id)
            if (it is None or it is token_it or hasattr(it, "bench_done")
                    or it.bench_t0 <= getattr(token_it, "bench_t0", 0.0)):
                return None
            return it

        def charge(msg: Any, interaction: Any) -> None:
            if interaction is None:
                it = in_flight(msg.channel_id)
            else:
                it = later_click(msg.channel_id, interaction)
                if it is not None and getattr(interaction, "bench_writes", None):
                    interaction.bench_writes.pop()  # the row the base hook just added
            if it is not None:
                _stamp(it, msg)

        hook_writes(router, charge)
        hub = self.hub

        async def dispatch(it: Any, payload: dict[str, Any]) -> Any:
            mine = self.member_its.get(it.member.id)
            if mine is not None:
                mine.append(it)
            it.bench_t0 = time.perf_counter()
            before = self.by_channel.get(it.channel.id)
            self.by_channel[it.channel.id] = it
            hub.send_interaction(it, payload)
            end = it.bench_t0 + ACK_LIMIT_S + 2.0
            # The drivers read the answer: the callback, and a deferred reply's edit.
            while time.perf_counter() < end and not (
                    it.responded and (it.response_type != 5 or (
                        it.original is not None and not it.original.loading))):
                await asyncio.sleep(0.005)
            # Then its followups: until no request came with its token for 100 ms.
            seen, still = len(it.requests), time.perf_counter()
            while time.perf_counter() < end and time.perf_counter() - still < 0.1:
                await asyncio.sleep(0.01)
                if len(it.requests) != seen:
                    seen, still = len(it.requests), time.perf_counter()
            it.bench_done = time.perf_counter()
            if not it.responded or refused_busy(it):
                give_back(it, before)
            return it

        def give_back(it: Any, before: Any) -> None:
            # A click refused (or never answered) did nothing in its thread: the click in
            # flight there is again the one before it, which gets back the public writes
            # charged to this one meanwhile (its table being posted).
            channel = it.channel.id
            if self.by_channel.get(channel) is it:
                if before is None:
                    self.by_channel.pop(channel, None)
                else:
                    self.by_channel[channel] = before
            writes = getattr(it, "bench_writes", None) or []
            public = [w for w in writes if w[1]]
            if public:
                it.bench_writes = [w for w in writes if not w[1]]
                if before is not None:
                    mine = getattr(before, "bench_writes", None)
                    before.bench_writes = sorted([*(mine or []), *public])

        self.sb._dispatch = dispatch  # type: ignore[method-assign]

    # -- reading the game through the store ------------------------------------------
    async def decision(self, g: Game) -> tuple[str, Any, Any] | str:
        record = None if g.game_id is None else await self.bot.store.get_game(g.game_id)
        if record is None or record.status != "active" or record.state is None:
            return "over"
        return self.pick(g, record.state)

    async def rule_wait(self, g: Game) -> str | None:
        record = None if g.game_id is None else await self.bot.store.get_game(g.game_id)
        if record is None or record.status != "active" or record.state is None:
            return None
        engine = self.registry[g.key].engine
        pending = engine.pending(engine.load_state(record.state))
        return pending.kind if pending.seconds is not None else None

    async def still_legal(self, g: Game, seat: str, action: Any) -> bool:
        record = None if g.game_id is None else await self.bot.store.get_game(g.game_id)
        return (record is not None and record.status == "active" and record.state is not None
                and self.legal_in(g, record.state, seat, action))

    async def start_game(self, g: Game) -> bool:
        """/play in the next guild (in turn, so both shards get games), Join, Start."""
        host = g.members[0]
        channel = self.hub.channels[self._opened % len(self.hub.channels)]
        self._opened += 1
        lobby = await self.join_and_start(
            g, await host.slash("play", game=g.key, in_channel=channel))
        if lobby is None:
            return False
        row = None
        for _ in range(100):
            # One row by its lobby message (a bench-only read; reading every active game,
            # states and all, each 50 ms per starting game loaded the server and the bench).
            row = await self.bot.store._one(
                "SELECT id, thread_id, channel_id FROM games WHERE lobby_message_id=? AND "
                "status='active'", (lobby.id,))
            if row is not None and row["thread_id"] is not None:
                break  # started, and its thread made (the bot answers Start first)
            await asyncio.sleep(0.05)
        if row is None:
            return False
        g.game_id, g.thread_id = row["id"], row["thread_id"] or row["channel_id"]
        by_user = {m.id: m for m in g.members}
        g.by_seat = {s.seat: by_user[s.user_id] for s in await self.bot.store.seats(g.game_id)
                     if s.user_id in by_user}
        g.started += 1
        return True

    # -- measuring -------------------------------------------------------------------
    def table_time(self, mv: Any, thread_id: int | None = None) -> None:
        """As the in-process bench, counting only writes within ``ATTRIBUTE_S`` of the
        committing click: a table followup is later edited with its interaction's token
        by other moves, and those edits are not this move's."""
        c = mv.commit
        if c is not None and getattr(c, "bench_writes", None):
            t0 = getattr(c, "bench_t0", 0.0)
            c.bench_writes = [w for w in c.bench_writes if w[0] - t0 <= ATTRIBUTE_S]
        super().table_time(mv, thread_id)

    async def _sample_cpu(self) -> None:
        while not self.stop:
            total = sum(stat_cpu_s(p.pid) or 0.0 for p in self.procs)
            now = time.perf_counter()
            self.cpu_samples.append((now, total))
            if self.quota is not None:
                self.scale_samples.append((now, self.quota.scale))
            if self.pinning is not None and self.pinning.postgres is not None:
                self.pg_samples.append((time.perf_counter(),
                                        procs_cpu(tree(self.pinning.postgres))))
            await asyncio.sleep(0.25)

    def _cpu_at(self, t: float, samples: list[tuple[float, float]] | None = None) -> float:
        best = min(self.cpu_samples if samples is None else samples,
                   key=lambda s: abs(s[0] - t))
        return best[1]

    def figures(self, rate: float, n: int, setup_s: float, moves: list[Any],
                lobby: list[Any], window: tuple[float, float], cpu: dict[str, float],
                rss: float, offered: int, missed: int, lag: list[float],
                la_start: list[float]) -> dict[str, Any]:
        row = super().figures(rate, n, setup_s, moves, lobby, window, cpu, rss, offered,
                              missed, lag, la_start)
        w0, w1 = window
        bot_s = self._cpu_at(w1) - self._cpu_at(w0)
        shown = max(1.0, row["achieved_per_s"] * (w1 - w0))
        row["bot_processes"] = self.processes
        row["bot_cpu_ms_per_move"] = round(bot_s * 1000 / shown, 2)
        row["bot_cpu_share"] = round(bot_s / (w1 - w0), 2)
        row["bot_cpu_s"] = round(bot_s, 3)
        row["harness_cpu_share"] = row["cpu_share_of_window"]["process"]
        if self.pg_samples:
            pg_s = self._cpu_at(w1, self.pg_samples) - self._cpu_at(w0, self.pg_samples)
            row["pg_cpu_share"] = round(pg_s / (w1 - w0), 2)
        if self.pinning is not None:
            # Threads off their CPUs by the window's end (0 expected), then pinned again.
            row["pinning_check"] = self.pinning.check(p.pid for p in self.procs)
            for p in self.procs:
                self.pinning.pin_bot(p.pid)
            self.pinning.pin_postgres()
        commits = [d for t, d in self.commit_samples if w0 <= t < w1]
        row["pg_commit"] = summary_ms(commits) if commits else None
        row["cpu_probe"] = self.speed.between(w0, w1)
        if self.quota is not None and self.quota.steady_ms is not None:
            steady_s, scale = steady_cpu(self.cpu_samples, self.scale_samples, w0, w1)
            row["quota_scale"] = scale
            row["bot_cpu_ms_per_move_steady"] = round(steady_s * 1000 / shown, 2)
        row["harness_gc"] = self.gc_between(w0, w1)
        return row

    def gc_between(self, t0: float, t1: float) -> dict[str, Any]:
        """:meth:`GcPauses.summary` of the harness's collections that started between
        perf_counter times ``t0`` and ``t1``."""
        part = GcPauses()
        a, b = t0 + self.clock_offset, t1 + self.clock_offset
        part.rows = [r for r in self.gc.rows if a <= r[0] < b]
        return part.summary()

    # -- the overload burst --------------------------------------------------------------
    async def burst(self, base: float, peak: float, seconds: float, *, before_s: float = 20.0,
                    after_s: float = 60.0, bucket_s: float = 5.0,
                    log: Callable[[str], None] = print) -> dict[str, Any]:
        """Arrivals at ``base`` moves/s for ``before_s``, at ``peak`` for ``seconds`` (the
        overload burst), then at ``base`` for ``after_s``, over games enough for ``peak``.
        Returns ``{"buckets": [...], "recovered_s": ...}``: per ``bucket_s`` of committing
        clicks (``start_s`` from the burst's end), :func:`bench.figures.burst_bucket` with
        the load average and the harness's garbage collections; ``recovered_s``:
        :func:`bench.figures.recovered_after`."""
        await self.grow(math.ceil(peak * GAMES_PER_RATE))
        self.prune()
        freeze_setup()
        m0 = len(self.moves)
        t0 = time.perf_counter()
        b0 = t0 + before_s
        b1 = b0 + seconds
        end = b1 + after_s
        loads: list[tuple[float, list[float]]] = []

        async def arrive() -> None:
            await self.arrivals.run(base, b0)
            await self.arrivals.run(peak, b1)
            await self.arrivals.run(base, end)

        async def watch() -> None:
            while time.perf_counter() < end:
                loads.append((time.perf_counter(), loadavg()))
                self.prune()
                await asyncio.sleep(bucket_s)

        runner, watcher = self.spawn(arrive()), self.spawn(watch())
        await runner
        await watcher
        drained = time.perf_counter()
        while time.perf_counter() < drained + DRAIN_S and any(
                not mv.finished for mv in self.moves[m0:]):
            await asyncio.sleep(0.2)
        now = time.perf_counter()
        by_bucket: dict[int, list[Any]] = {}
        for mv in self.moves[m0:]:
            if mv.finished:
                self.table_time(mv)
            k = math.floor(((mv.t_commit or mv.t_sched) - b1) / bucket_s)
            by_bucket.setdefault(k, []).append(mv)
        buckets: list[dict[str, Any]] = []
        for k in sorted(by_bucket):
            start = k * bucket_s
            la = min(loads, key=lambda x: abs(x[0] - (b1 + start)))[1] if loads else []
            bucket = burst_bucket(by_bucket[k], now, start, la)
            bucket["harness_gc"] = self.gc_between(b1 + start, b1 + start + bucket_s)
            buckets.append(bucket)
        recovered = recovered_after(buckets)
        out = {"base_per_s": base, "peak_per_s": peak, "burst_s": seconds,
               "bucket_s": bucket_s, "buckets": buckets, "recovered_s": recovered}
        for line in burst_table(out):
            log(line)
        return out

    # -- the run -----------------------------------------------------------------------
    async def run(self, rates: tuple[float, ...], warmup: float, window: float,
                  profile: Any = None, profile_rate: float | None = None,
                  log: Callable[[str], None] = print,
                  variants: tuple[str, ...] = (),
                  burst: tuple[float, float, float] | None = None) -> dict[str, Any]:
        """As :meth:`CapacityBench.run`, with the bot in its own processes (no
        ``variants``: they change the in-process bot; ValueError). ``profile_rate``: the
        bot processes are profiled over that rate's window (``--profile-bot``). ``burst``:
        ``(base, peak, seconds)``, after the rates the overload burst of :meth:`burst`."""
        if variants:
            raise ValueError("variants are for the in-process capacity bench")
        await self.hub.start()
        if self.quota is not None:
            self.quota.reset()  # the bots start at the share, whatever a run before left
        if self.pinning is not None:
            self.pinning.pin_harness()  # the threads started since
        gc.callbacks.append(self.gc)
        self.gc.on = True
        rows: list[dict[str, Any]] = []
        result: dict[str, Any] = {}
        try:
            async with contextlib.AsyncExitStack() as stack:
                env = {"HERDBOT_MAX_OPEN_LOBBIES": "25", "HERDBOT_LOG_LEVEL": "WARNING",
                       **self.bot_env}
                if self.processes > 1:
                    env["HERDBOT_SHARD_COUNT"] = str(self.processes)
                python, path = bot_python(self.checkout)
                if path is not None:
                    env["PYTHONPATH"] = path
                for shard in range(self.processes):
                    extra = {"HERDBOT_SHARD_IDS": str(shard)} if self.processes > 1 else {}
                    argv = python
                    if self.profile_to is not None:
                        argv = (*(python or (sys.executable,)),
                                str(Path(__file__).with_name("botprofile.py")),
                                f"{self.profile_to}-bot{shard}")
                    if self.bot_nice:
                        argv = ("nice", "-n", str(self.bot_nice), *(argv or (sys.executable,)))
                    proc = await stack.enter_async_context(bot_process(
                        self.hub, self.database, self.tmp, name=f"bot{shard}",
                        env={**env, **extra}, python=argv))
                    self.procs.append(proc)
                    if self.pinning is not None:
                        self.pinning.pin_bot(proc.pid)
                    await self.hub.wait_for_shards(shard + 1, 120)
                await self.hub.wait_for_commands(120)
                for proc in self.procs:  # the bench measures; it does not wait for quiet
                    self.hub.unwatch(proc.pid)
                # What the bench reads of the bot (store, service.load) from here.
                self.bot = await ProcessView.open(self.database, self.hub)  # type: ignore[assignment]
                stack.push_async_callback(self.bot.close)
                self.install()
                await self.speed.start()
                stack.push_async_callback(self.speed.stop)
                bg = [self.spawn(self._sample_cpu())]
                if isinstance(self.database, str):
                    bg.append(self.spawn(probe_commits(self.database, self.commit_samples,
                                                      lambda: self.stop)))
                signals = ProfileSignals(self.procs)
                for rate in rates:
                    row = await self.phase(rate, warmup, window,
                                           signals if rate == profile_rate else None)
                    rows.append(row)
                    refusal = None
                    if (rate == profile_rate and self.profile_to is not None
                            and os.environ.get("BENCH_PROFILE_CLOCK") == "refuse"):
                        refusal = row["bot_cpu_ms_per_busy_answer"] = per_busy_answer(row)
                    log(f"  {self.processes} process(es) {row['games']} games at {rate}/s: "
                        f"{brief(row)}; bot CPU/move {row['bot_cpu_ms_per_move']} ms, "
                        f"PG commit {row['pg_commit']}, CPU probe {row['cpu_probe']}"
                        + ("" if refusal is None else f", bot CPU per busy answer {refusal} ms"))
                if burst is not None:
                    result["burst"] = await self.burst(*burst, log=log)
                self.stop = True
                self.arrivals.close()
                for t in self.tasks:
                    t.cancel()
                await asyncio.gather(*self.tasks, return_exceptions=True)
        finally:
            gc.unfreeze()
            self.gc.on = False
            gc.callbacks.remove(self.gc)
            self.split.uninstall()
            await self.hub.stop()
        return {"rates": rows, **result,
                "driver_errors": dict(Counter(self.errors).most_common(10))}


def steady_cpu(cpu: list[tuple[float, float]], scales: list[tuple[float, float]],
               t0: float, t1: float) -> tuple[float, float]:
    """CPU seconds at steady speed between perf_counter times ``t0`` and ``t1``, and the
    quota's mean scale over them: from the CPU sample ``(t, CPU s)`` nearest ``t0`` to the
    one nearest ``t1`` (as the raw CPU of a row), each interval between two samples counts
    its CPU divided by the scale at its start, taken from ``scales`` (``(t, scale)``,
    sampled with the CPU; 1 where none). ``(0.0, 1.0)`` when both are the same sample."""
    if not cpu:
        return 0.0, 1.0
    at = dict(scales)
    first = min(range(len(cpu)), key=lambda i: abs(cpu[i][0] - t0))
    last = min(range(len(cpu)), key=lambda i: abs(cpu[i][0] - t1))
    inside = cpu[first:last + 1]
    steady, weighted, span = 0.0, 0.0, 0.0
    for (ta, ca), (tb, cb) in zip(inside, inside[1:], strict=False):
        scale = at.get(ta, 1.0)
        steady += (cb - ca) / scale
        weighted += scale * (tb - ta)
        span += tb - ta
    return steady, (round(weighted / span, 2) if span else 1.0)


def _stamp(it: Any, msg: Any) -> None:
    writes = getattr(it, "bench_writes", None)
    if writes is None:
        writes = it.bench_writes = []
    # (time, public, channel, own, by_token): charged to the click, as by its token.
    writes.append((time.perf_counter(), msg.ephemeral_for is None, msg.channel_id, False, True))
