"""Run ``herdbot run`` under a pyinstrument profiler that the bench switches on and off.

Usage (what :mod:`bench.procs` starts with ``--profile-bot``)::

    python bench/botprofile.py OUT -m bot run

runs ``python -m bot run`` in this process; SIGUSR1 starts sampling the main thread
(every thread's asyncio work runs there), SIGUSR2 stops it and writes ``OUT.txt`` (the
call tree), ``OUT.json`` (:func:`bench.profiling.top_costs`-shaped rows: self time by
function and by part of the program) and ``OUT.pyisession``. Run as a file, not a module,
so that it works whatever checkout the bot is imported from (``PYTHONPATH``).

Every garbage collection over the window is written to ``OUT.gc.json`` (rows of unix
start time, wall seconds, generation, objects collected); with ``BENCH_PROFILE_CLOCK=none``
that and the threads' CPU are all it records (no profiler). With
``BENCH_PROFILE_CLOCK=cpu`` in the environment it profiles CPU instead of wall time
(on a loaded machine wall-time samples land wherever the process was descheduled):
:mod:`cProfile` on the main thread's CPU clock (``time.thread_time``), written to
``OUT.txt`` (functions by own CPU, then by cumulative CPU) and ``OUT.prof``; and in both
every mode ``OUT.threads.json``: each thread's CPU seconds over the window (``/proc``), by
thread name, so the main thread's share of the process's CPU is known.

With ``BENCH_PROFILE_CLOCK=refuse`` nothing is profiled either: over the window the bot
refuses every click and command as busy (:meth:`bot.runtime.admission.Admission.refuses`
answers True), so the window's bot CPU over its busy answers is what one refusal costs;
``OUT.refusals.json`` has the thread CPU of the gateway's messages and of the busy answers
themselves over the window (:meth:`Refusing.figures`).
"""

from __future__ import annotations

import cProfile
import gc
import io
import json
import os
import pstats
import runpy
import signal
import sys
import threading
import time
import types
from collections.abc import Awaitable, Callable, Generator
from pathlib import Path
from typing import Any

#: The directory of this file: taken off ``sys.path`` (its modules' names would shadow).
HERE = str(Path(__file__).resolve().parent)


def _top(session: Any) -> list[dict[str, Any]]:
    sys.path.insert(0, str(Path(HERE).parent))
    try:
        from bench.profiling import top_costs  # the bench's own helper, found by path
    finally:
        sys.path.pop(0)
    return top_costs(session, n=40)


def thread_cpu_s() -> dict[str, float]:
    """CPU seconds (user + system) of each live thread of this process, by
    ``name/tid`` (``/proc/self/task``; the name Python gave the thread when it has one)."""
    tick = os.sysconf("SC_CLK_TCK")
    names = {t.native_id: t.name for t in threading.enumerate()}
    out: dict[str, float] = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as fh:
                raw = fh.read()
        except OSError:
            continue
        name = names.get(int(tid)) or raw[raw.index("(") + 1:raw.rindex(")")]
        fields = raw.rsplit(")", 1)[1].split()
        out[f"{name}/{tid}"] = (int(fields[11]) + int(fields[12])) / tick
    return out


def _cpu_text(prof: cProfile.Profile) -> str:
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf)
    stats.sort_stats("tottime").print_stats(80)
    stats.sort_stats("cumulative").print_stats(120)
    return buf.getvalue()


class Steps:
    """Thread CPU seconds spent in the steps of some coroutines (:meth:`timed`) and how
    many ran: what runs in the event loop's own callbacks between their steps (reading
    a socket, a response's data) is not in it."""

    def __init__(self) -> None:
        self.cpu_s = 0.0
        self.count = 0

    def wrap(self, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        """``fn`` (a coroutine function, or a method of a class) whose calls are timed."""

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await self.timed(fn(*args, **kwargs))

        return counted

    @types.coroutine
    def timed(self, awaitable: Awaitable[Any]) -> Generator[Any, Any, Any]:
        """Await ``awaitable``, adding the thread CPU of each of its steps to ``cpu_s``."""
        it = awaitable.__await__()
        value: Any = None
        error: BaseException | None = None
        while True:
            t = time.thread_time()
            try:
                yielded = it.send(value) if error is None else it.throw(error)
            except BaseException as stop:
                self.cpu_s += time.thread_time() - t
                if isinstance(stop, StopIteration):
                    return stop.value
                raise
            self.cpu_s += time.thread_time() - t
            value, error = None, None
            try:
                value = yield yielded
            except BaseException as exc:  # thrown in (a cancellation): passed on
                error = exc


class Refusing:
    """Switches :meth:`bot.runtime.admission.Admission.refuses` to "refuse everything"
    (each refusal counted as the admission counts its own) and back. From each switch on,
    the thread CPU of the gateway's messages (``received_message``: decompressing,
    decoding, the handler) and of the busy answers (``refuse_unbuilt``) is summed
    (:meth:`figures`); an answer still running at the switch off keeps its count and
    the steps it ran by then."""

    def __init__(self) -> None:
        self._saved: tuple[Any, Any, Any] | None = None
        self.messages = Steps()
        self.answers = Steps()

    def on(self) -> None:
        from discord.gateway import DiscordWebSocket

        import bot.discord.bot as herd
        from bot.runtime.admission import Admission

        if self._saved is not None:
            return
        self.messages, self.answers = Steps(), Steps()
        self._saved = (Admission.refuses, DiscordWebSocket.received_message,
                       herd.refuse_unbuilt)

        def refuses(admission: Admission, *, continuing: bool = False,
                    step: bool = False) -> bool:
            admission._refuse()
            return True

        Admission.refuses = refuses  # type: ignore[assignment]
        timed = self.messages.wrap(DiscordWebSocket.received_message)
        DiscordWebSocket.received_message = timed  # type: ignore[method-assign,assignment]
        herd.refuse_unbuilt = self.answers.wrap(herd.refuse_unbuilt)  # type: ignore[assignment]

    def off(self) -> None:
        from discord.gateway import DiscordWebSocket

        import bot.discord.bot as herd
        from bot.runtime.admission import Admission

        if self._saved is not None:
            (Admission.refuses, DiscordWebSocket.received_message,  # type: ignore[method-assign]
             herd.refuse_unbuilt) = self._saved
            self._saved = None

    def figures(self) -> dict[str, Any]:
        """The gateway's messages and the busy answers while on: how many, and their
        thread CPU seconds."""
        return {"gateway_messages": self.messages.count,
                "gateway_messages_cpu_s": round(self.messages.cpu_s, 4),
                "busy_answers": self.answers.count,
                "busy_answers_cpu_s": round(self.answers.cpu_s, 4)}


def main() -> None:
    if not sys.argv[2:] or sys.argv[2] != "-m":
        raise SystemExit("usage: python bench/botprofile.py OUT -m MODULE [ARGS...]")
    out = sys.argv[1]
    module, args = sys.argv[3], sys.argv[4:]
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(HERE)]
    from pyinstrument import Profiler

    clock = os.environ.get("BENCH_PROFILE_CLOCK", "wall")
    cpu = clock == "cpu"
    refusing = Refusing() if clock == "refuse" else None
    profiler = Profiler(interval=0.001, async_mode="disabled")
    prof = cProfile.Profile(time.thread_time)
    state: dict[str, Any] = {"on": False, "threads": {}}
    sys.path.insert(0, str(Path(HERE).parent))
    try:
        from bench.common import GcPauses  # the bench's own helper, found by path
    finally:
        sys.path.pop(0)
    pauses = GcPauses()
    gc.callbacks.append(pauses)

    def start(signum: int, frame: Any) -> None:
        if not state["on"]:
            state["on"] = pauses.on = True
            state["threads"] = thread_cpu_s()
            if refusing is not None:
                refusing.on()
            elif cpu:
                prof.enable()
            elif clock == "wall":
                profiler.start()

    def stop(signum: int, frame: Any) -> None:
        if not state["on"]:
            return
        state["on"] = pauses.on = False
        if refusing is not None:
            refusing.off()
            Path(f"{out}.refusals.json").write_text(json.dumps(refusing.figures(), indent=1))
        elif cpu:
            prof.disable()
        after = thread_cpu_s()
        Path(f"{out}.threads.json").write_text(json.dumps(
            {k: round(v - state["threads"].get(k, 0.0), 3) for k, v in after.items()},
            indent=1))
        Path(f"{out}.gc.json").write_text(json.dumps(pauses.rows))
        pauses.rows = []
        if clock in ("none", "refuse"):
            return
        if cpu:
            prof.dump_stats(f"{out}.prof")
            Path(f"{out}.txt").write_text(_cpu_text(prof))
            return
        session = profiler.stop()
        Path(f"{out}.txt").write_text(profiler.output_text(unicode=False, color=False))
        session.save(f"{out}.pyisession")
        Path(f"{out}.json").write_text(json.dumps(_top(session), indent=1))

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
