"""CPU accounting of the capacity benches: the main thread's CPU split by who runs
(:class:`CpuSplit`), this process's threads by role, and other processes' CPU and memory
from ``/proc``."""

from __future__ import annotations

import asyncio
import os
import resource
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


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
