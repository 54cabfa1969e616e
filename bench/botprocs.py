"""How :mod:`bench.procs` starts and places the bot processes: the interpreter (another
checkout's), the profiler's start and stop signals, a PostgreSQL schema per run and the
commit probe, and CPU pinning: the bot processes (and optionally the PostgreSQL server)
on some CPUs, the harness (the simulated Discord and players) on the others, so the bot's
share of the machine does not change with the load the harness offers.

Affinity is set per thread (``os.sched_setaffinity`` on every ``/proc/<pid>/task/<tid>``)
and inherited by the threads and processes a pinned thread starts later (a bot's render
workers, a PostgreSQL backend forked by the pinned postmaster). Linux only.

A CPU quota (``--bot-share``, :class:`CpuQuota`) caps the bot processes together at a
fraction of one CPU, through a cgroup of their own (v1 ``cpu`` or v2 ``cpu.max``; needs
root): a smaller bot, whose saturation point and twice it are loads the harness can offer
on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import asyncpg


class ProfileSignals:
    """The ``profile`` of a phase when the bot runs under ``bench/botprofile.py``:
    ``start`` and ``stop`` signal every bot process (SIGUSR1, SIGUSR2)."""

    def __init__(self, procs: list[Any]):
        self.procs = procs

    def _send(self, sig: int) -> None:
        for p in self.procs:
            if p.returncode is None:
                os.kill(p.pid, sig)

    def start(self) -> None:
        self._send(signal.SIGUSR1)

    def stop(self) -> None:
        self._send(signal.SIGUSR2)


def bot_python(checkout: Path | None) -> tuple[tuple[str, ...], str | None]:
    """The interpreter to start the bot processes with and their ``PYTHONPATH``: this
    one and the caller's path, or for another ``checkout`` its ``.venv``'s interpreter
    (this one when it has none) and the checkout itself, so the bot is imported from it."""
    if checkout is None:
        return (), None
    venv = checkout / ".venv" / "bin" / "python"
    return (str(venv) if venv.exists() else sys.executable,), str(checkout.resolve())


async def probe_commits(url: str, samples: list[tuple[float, float]],
                        stopped: Callable[[], bool]) -> None:
    """Until ``stopped()``, every 50 ms a transaction shaped like a move's commit (row
    lock, update, insert, COMMIT) on the database at ``url``; appends ``(perf_counter at
    the start, seconds)`` of each to ``samples``."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS bench_probe (id int PRIMARY KEY, "
                           "n bigint NOT NULL); CREATE TABLE IF NOT EXISTS bench_probe_log "
                           "(n bigint NOT NULL, at double precision NOT NULL)")
        await conn.execute("INSERT INTO bench_probe VALUES (1, 0) ON CONFLICT DO NOTHING")
        while not stopped():
            t0 = time.perf_counter()
            async with conn.transaction():
                n = await conn.fetchval("SELECT n FROM bench_probe WHERE id=1 FOR UPDATE")
                await conn.execute("UPDATE bench_probe SET n=$1 WHERE id=1", n + 1)
                await conn.execute("INSERT INTO bench_probe_log VALUES ($1, $2)", n + 1,
                                   time.time())
            samples.append((t0, time.perf_counter() - t0))
            await asyncio.sleep(0.05)
    finally:
        await conn.close()


def parse_cpus(text: str, allowed: Iterable[int] | None = None) -> frozenset[int]:
    """CPU numbers of a CPU list as ``taskset -c`` takes it (``"1"``, ``"0,2"``,
    ``"2-3,5"``). ValueError when it is malformed or empty, names a CPU outside
    ``allowed`` (default: the CPUs this process may run on) or names all of them (the
    harness needs the others)."""
    usable = frozenset(os.sched_getaffinity(0) if allowed is None else allowed)
    cpus: set[int] = set()
    for part in text.replace(" ", "").split(","):
        lo, dash, hi = part.partition("-")
        if not lo.isdigit() or (dash and not hi.isdigit()):
            raise ValueError(f"not a CPU list: {text!r} (e.g. 1 or 0,2 or 2-3)")
        first, last = int(lo), int(hi) if dash else int(lo)
        if last < first:
            raise ValueError(f"not a CPU list: {text!r} ({part} runs backwards)")
        cpus.update(range(first, last + 1))
    if not cpus <= usable:
        raise ValueError(f"CPU(s) {sorted(cpus - usable)} not available; this process may "
                         f"use {sorted(usable)}")
    if cpus == usable:
        raise ValueError(f"{text!r} is every available CPU: leave one for the harness")
    return frozenset(cpus)


def postmaster_pid(where: str) -> int:
    """The PostgreSQL server's process id: ``where`` itself when it is a number, else the
    first line of ``<where>/postmaster.pid`` (``where`` a data directory). OSError when the
    file cannot be read; ValueError when it holds no process id."""
    if where.isdigit():
        return int(where)
    first = (Path(where) / "postmaster.pid").read_text().split("\n", 1)[0].strip()
    if not first.isdigit():
        raise ValueError(f"{where}/postmaster.pid does not start with a process id")
    return int(first)


def threads(pid: int) -> list[int]:
    """Thread ids of process ``pid`` (empty when it is gone)."""
    try:
        return [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def tree(pid: int) -> list[int]:
    """``pid`` and all its descendant processes (``/proc/<pid>/task/<tid>/children``)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for tid in threads(p):
            try:
                with open(f"/proc/{p}/task/{tid}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
            except OSError:
                continue
    return out


def pin_tree(pid: int, cpus: Iterable[int], *, children: bool = True) -> int:
    """Set the affinity of every thread of ``pid`` and (``children``) of its descendants
    to ``cpus``; the number of threads set (a thread that ended meanwhile is skipped)."""
    mask, n = frozenset(cpus), 0
    for p in tree(pid) if children else [pid]:
        for tid in threads(p):
            try:
                os.sched_setaffinity(tid, mask)
                n += 1
            except (ProcessLookupError, PermissionError):
                continue
    return n


def off_mask(pid: int, cpus: Iterable[int], *, children: bool = True) -> int:
    """Threads of ``pid`` and (``children``) its descendants whose affinity is not
    exactly ``cpus``."""
    mask, n = frozenset(cpus), 0
    for p in tree(pid) if children else [pid]:
        for tid in threads(p):
            try:
                if frozenset(os.sched_getaffinity(tid)) != mask:
                    n += 1
            except ProcessLookupError:
                continue
    return n


class CpuQuota:
    """A cgroup ``herdbench-<pid>`` whose processes together get at most ``share`` of one
    CPU: ``share`` of every ``period_ms`` (the kernel holds them back for the rest of a
    period once they have used it). OSError when no cgroup can be made (no cgroup ``cpu``
    controller mounted, or not root); ValueError unless ``0 < share <= 8``,
    ``1 <= period_ms <= 1000`` and the share of a period is at least the kernel's least
    quota, 1 ms.

    ``steady_ms``: the time of :mod:`bench.speed`'s loop on a quiet host. With it,
    :meth:`follow` scales the quota by each probe time over it (within ``SCALES``), so
    that the processes get the same work per second when the host's CPU runs slower: a
    CPU of steady speed. ValueError unless it is over 0 and the least scaled quota is at
    least 1 ms."""

    PERIOD_MS = 100.0
    #: The least and most a steady quota is scaled by.
    SCALES = (0.5, 3.0)
    V1 = Path("/sys/fs/cgroup/cpu")
    V2 = Path("/sys/fs/cgroup")

    def __init__(self, share: float, period_ms: float = PERIOD_MS,
                 steady_ms: float | None = None):
        if not 0 < share <= 8:
            raise ValueError(f"--bot-share {share}: use a fraction of a CPU from 0.01 to 8")
        if not 1 <= period_ms <= 1000:
            raise ValueError(f"--bot-share-period {period_ms:g}: use 1 to 1000 ms")
        period_us = round(period_ms * 1000)
        if share * period_us < 1000:
            raise ValueError(f"--bot-share {share:g} of {period_ms:g} ms is under the "
                             "kernel's least quota, 1 ms: use a longer --bot-share-period")
        if steady_ms is not None and not steady_ms > 0:
            raise ValueError(f"--bot-share-steady {steady_ms:g}: use a loop time over 0 ms")
        if steady_ms is not None and share * self.SCALES[0] * period_us < 1000:
            raise ValueError(f"--bot-share {share:g} of {period_ms:g} ms, scaled down to "
                             f"{self.SCALES[0]:g}x, is under the kernel's least quota, 1 ms: "
                             "use a longer --bot-share-period")
        self.share, self.period_ms, self.steady_ms = share, float(period_ms), steady_ms
        #: The quota's scale now (1 without ``steady_ms``).
        self.scale = 1.0
        name = f"herdbench-{os.getpid()}"
        if (self.V1 / "cpu.cfs_quota_us").exists():
            self.path, self.root = self.V1 / name, self.V1
            self.path.mkdir(exist_ok=True)
            (self.path / "cpu.cfs_period_us").write_text(str(period_us))
        elif "cpu" in (self.V2 / "cgroup.controllers").read_text().split():
            self.path, self.root = self.V2 / name, self.V2
            self.path.mkdir(exist_ok=True)
        else:
            raise OSError("no cgroup cpu controller to cap the bot processes' CPU")
        self._write(1.0)

    def _write(self, scale: float) -> None:
        """The quota, ``scale`` times the share of a period, into the cgroup."""
        period_us = round(self.period_ms * 1000)
        quota = round(self.share * scale * period_us)
        if self.root is self.V1:
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        else:
            (self.path / "cpu.max").write_text(f"{quota} {period_us}")
        self.scale = scale

    def follow(self, loop_ms: float) -> float:
        """With ``steady_ms``: the quota scaled by ``loop_ms / steady_ms`` (within
        ``SCALES``); the scale now (1 without ``steady_ms``)."""
        if self.steady_ms is None:
            return self.scale
        low, high = self.SCALES
        self._write(min(high, max(low, loop_ms / self.steady_ms)))
        return self.scale

    def reset(self) -> None:
        """With ``steady_ms``: the quota back to its share (scale 1)."""
        if self.steady_ms is not None:
            self._write(1.0)

    def add(self, pid: int) -> None:
        """Process ``pid`` (all its threads; the processes it starts later inherit it)
        and its current children into the cgroup."""
        for p in tree(pid):
            try:
                (self.path / "cgroup.procs").write_text(str(p))
            except ProcessLookupError:
                continue

    def throttled_s(self) -> float:
        """Seconds the cgroup's processes were held back by the quota so far."""
        for line in (self.path / "cpu.stat").read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "throttled_time":  # v1, ns
                return int(value) / 1e9
            if key == "throttled_usec":  # v2
                return int(value) / 1e6
        return 0.0

    def release(self) -> None:
        """Every process left in the cgroup back to the root one; the cgroup removed."""
        try:
            pids = (self.path / "cgroup.procs").read_text().split()
        except FileNotFoundError:
            return
        for p in pids:
            try:
                (self.root / "cgroup.procs").write_text(p)
            except (ProcessLookupError, OSError):
                continue
        try:
            self.path.rmdir()
        except OSError:
            pass


class Pinning:
    """Bot CPUs ``bot``; the harness gets the other CPUs it may use; ``postgres``: the
    postmaster's process id, pinned with the bots (its mask is put back by
    :meth:`release`, the harness's too); ``quota``: the bots' CPU cap, if any."""

    def __init__(self, bot: frozenset[int], postgres: int | None = None,
                 quota: CpuQuota | None = None):
        self.bot = bot
        self.quota = quota
        self.before = frozenset(os.sched_getaffinity(0))
        self.harness = self.before - bot
        self.postgres = postgres
        self.postgres_before: frozenset[int] | None = None

    def pin_harness(self) -> None:
        """Every thread of this process (not its children, the bots) on the harness
        CPUs."""
        pin_tree(os.getpid(), self.harness, children=False)

    def pin_bot(self, pid: int) -> int:
        """A bot process, its threads and its children on the bot CPUs (and in the
        quota's cgroup)."""
        if self.quota is not None:
            self.quota.add(pid)
        return pin_tree(pid, self.bot)

    def pin_postgres(self) -> int:
        """The postmaster and its current children (backends, workers) on the bot CPUs;
        backends it forks later inherit the mask. 0 when no server was named."""
        if self.postgres is None:
            return 0
        if self.postgres_before is None:
            self.postgres_before = frozenset(os.sched_getaffinity(self.postgres))
        return pin_tree(self.postgres, self.bot)

    def release(self) -> None:
        """The harness and the PostgreSQL server back on the CPUs they had."""
        pin_tree(os.getpid(), self.before, children=False)
        if self.quota is not None:
            self.quota.release()
        if self.postgres is not None and self.postgres_before is not None:
            pin_tree(self.postgres, self.postgres_before)

    def check(self, bots: Iterable[int]) -> dict[str, int]:
        """Threads not on their CPUs: of the bot processes (and their children), of the
        PostgreSQL server's tree, of this process."""
        out = {"bot_threads_off": sum(off_mask(p, self.bot) for p in bots),
               "harness_threads_off": off_mask(os.getpid(), self.harness, children=False)}
        if self.postgres is not None:
            out["postgres_threads_off"] = off_mask(self.postgres, self.bot)
        return out

    def describe(self) -> dict[str, Any]:
        """The pinning as the JSON records it."""
        return {"bot_cpus": sorted(self.bot), "harness_cpus": sorted(self.harness),
                "postgres_pid": self.postgres,
                "bot_share": None if self.quota is None else self.quota.share,
                "bot_share_period_ms": None if self.quota is None else self.quota.period_ms,
                "bot_share_steady_ms": None if self.quota is None else self.quota.steady_ms}

    def header(self) -> str:
        """One line for the run's header."""
        pg = (f", PostgreSQL (postmaster {self.postgres}) with the bots"
              if self.postgres is not None else "")
        share = ("" if self.quota is None
                 else f", the bot processes capped at {self.quota.share:g} CPU (per "
                      f"{self.quota.period_ms:g} ms)")
        if self.quota is not None and self.quota.steady_ms is not None:
            share += (f" of steady speed (the quota scaled by the CPU probe's time over "
                      f"{self.quota.steady_ms:g} ms)")
        return (f"pinned: bot processes on CPU {_cpus(self.bot)}{pg}, harness on CPU "
                f"{_cpus(self.harness)}{share}")


def add_pinning_options(ap: argparse.ArgumentParser) -> None:
    """``--bot-cpus`` and ``--pin-postgres`` on ``ap``; read by :func:`pinning_from_options`."""
    ap.add_argument("--bot-cpus", default=None, metavar="CPUS",
                    help="pin the bot processes (threads, children) to this CPU list "
                         "(e.g. 1 or 2-3) and this process to the other CPUs")
    ap.add_argument("--pin-postgres", default=None, metavar="DATADIR|PID",
                    help="with --bot-cpus: pin the PostgreSQL server (postmaster.pid in "
                         "DATADIR, or its PID) and its backends with the bots, until the end")
    ap.add_argument("--bot-share", type=float, default=None, metavar="F",
                    help="with --bot-cpus: cap the bot processes together at F of one CPU "
                         "(a cgroup CPU quota; needs root), e.g. 0.5")
    ap.add_argument("--bot-share-period", type=float, default=None, metavar="MS",
                    help="with --bot-share: the quota's period, 1 to 1000 ms; the bots get "
                         "their share of every MS ms and wait out the rest of it once they "
                         "have used that (default 100)")
    ap.add_argument("--bot-share-steady", type=float, default=None, metavar="MS",
                    help="with --bot-share: scale the quota by the CPU probe's time over MS "
                         "(its time on a quiet host), so that the bots get the same work per "
                         "second when the host's CPU runs slower")


def pinning_from_options(bot_cpus: str | None, postgres: str | None,
                         share: float | None = None, period_ms: float | None = None,
                         steady_ms: float | None = None) -> Pinning | None:
    """The :class:`Pinning` of ``--bot-cpus`` (a CPU list, see :func:`parse_cpus`),
    ``--pin-postgres`` (see :func:`postmaster_pid`) and ``--bot-share`` with
    ``--bot-share-period`` and ``--bot-share-steady`` (a :class:`CpuQuota`; its period
    100 ms when None); None when no CPUs are given. ValueError for a bad CPU list, share,
    period or steady time, a server or share without CPUs, or a period or steady time
    without a share; OSError when the server's ``postmaster.pid`` cannot be read or no
    cgroup can be made."""
    if period_ms is not None and share is None:
        raise ValueError("--bot-share-period needs --bot-share")
    if steady_ms is not None and share is None:
        raise ValueError("--bot-share-steady needs --bot-share")
    if bot_cpus is None:
        if postgres is not None or share is not None:
            raise ValueError("--pin-postgres and --bot-share need --bot-cpus")
        return None
    cpus = parse_cpus(bot_cpus)
    pid = None if postgres is None else postmaster_pid(postgres)
    if share is None:
        return Pinning(cpus, pid)
    return Pinning(cpus, pid, CpuQuota(share, CpuQuota.PERIOD_MS if period_ms is None
                                       else period_ms, steady_ms))


def _cpus(cpus: Iterable[int]) -> str:
    return ",".join(str(c) for c in sorted(cpus))
