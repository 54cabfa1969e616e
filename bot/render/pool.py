"""Drawing pictures off the bot's process, and not drawing the same picture twice.

A :class:`Job` is one picture to draw: a module-level renderer and its picklable inputs
(a view, display names, highlights). Its :meth:`Job.key` is the pickle of those inputs,
so two jobs with the same key draw the same pixels (renderers are pure functions of their
inputs). :class:`PictureCache` keeps the last pictures by that key; :class:`RenderPool`
draws in worker processes (a second core draws while the bot's event loop runs, without
sharing its GIL). Nothing here knows a game or Discord.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bot.render.kept import Kept, inputs_key


@dataclass(frozen=True)
class Job:
    """One picture: ``func(*args, **kwargs)`` returns its PNG bytes. ``func`` must be a
    module-level function and the arguments picklable (they cross to a worker process)."""

    func: Callable[..., bytes]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)

    def run(self) -> bytes:
        """Draw it here, in the calling thread; returns PNG bytes."""
        return self.func(*self.args, **self.kwargs)

    @property
    def what(self) -> str:
        """The module of the function that draws it, for log lines (for a
        :func:`picture_png` job, that of the close-up it draws)."""
        func = self.args[0] if self.func is picture_png and self.args else self.func
        return str(getattr(func, "__module__", "?"))

    def key(self) -> bytes:
        """The job as bytes (the renderer's name and its pickled inputs,
        :func:`~bot.render.kept.inputs_key`): equal keys mean equal inputs, so the same
        picture. Raises ``pickle.PicklingError`` (or ``TypeError``/``AttributeError``)
        for inputs that cannot be pickled."""
        return inputs_key(self.func, self.args, self.kwargs)


def picture_png(draw: Callable[..., Any], /, *args: Any, **kwargs: Any) -> bytes:
    """The PNG bytes ``draw(*args, **kwargs)`` makes: its result when bytes, else its
    ``png`` (a close-up's :class:`~bot.render.common.Picture`). A close-up as a function
    of bytes, which a :class:`Job` can carry."""
    made = draw(*args, **kwargs)
    return made if isinstance(made, bytes) else made.png  # type: ignore[no-any-return]


def draw_pickled(key: bytes) -> bytes:
    """Draw the job pickled in ``key`` (:meth:`Job.key`); runs in a worker process."""
    func, args, kwargs = pickle.loads(key)
    return func(*args, **kwargs)  # type: ignore[no-any-return]


def _warm_worker(modules: tuple[str, ...], parent: int | None = None) -> None:
    """Worker start-up: import ``modules`` (Pillow, renderers) before the first job; with
    ``parent`` (the bot's process id), end this worker within a second of the bot's end,
    however the bot ended (a killed bot does not shut its pool down). Ctrl-C reaches the
    whole process group: the worker ignores it (no KeyboardInterrupt traceback on the
    operator's terminal) and is stopped by the bot's own shutdown."""
    if parent is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in modules:
        importlib.import_module(name)
    if parent is not None:
        threading.Thread(target=_orphan_watch, args=(parent,), daemon=True,
                         name="herdbot-render-watch").start()


def _orphan_watch(parent: int) -> None:
    """Exit this process once its parent ``parent`` is gone (re-parented to another)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


class PictureCache(Kept[bytes]):
    """The last ``size`` pictures drawn (PNG bytes), by :meth:`Job.key`."""


class RenderPool:
    """``workers`` worker processes (started with ``spawn``: a clean interpreter, no
    copied threads or sockets) that draw :class:`Job` keys. Workers start on the first
    :meth:`submit` and import ``warm`` (module names) first."""

    def __init__(self, workers: int = 1, warm: tuple[str, ...] = ()) -> None:
        if workers < 1:
            raise ValueError("a render pool needs at least one worker")
        self.workers = workers
        self.warm = warm
        self._executor: ProcessPoolExecutor | None = None
        #: Jobs submitted and not finished yet (the sandbox waits for them to settle).
        self.in_flight = 0

    def _done(self, _future: Future[bytes]) -> None:
        self.in_flight -= 1

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_worker, initargs=(self.warm, os.getpid()))
        return self._executor

    def submit(self, key: bytes) -> Future[bytes]:
        """Draw the job pickled in ``key`` in a worker; its future gives the PNG bytes, or
        raises the renderer's error, or ``BrokenProcessPool`` if a worker died."""
        future = self._pool().submit(draw_pickled, key)
        self.in_flight += 1
        future.add_done_callback(self._done)
        return future

    def start(self, timeout: float = 120.0) -> None:
        """Start the workers now and wait (up to ``timeout`` s) until one has run a job,
        instead of on the first picture. Raises ``TimeoutError`` or ``BrokenProcessPool``."""
        self._pool().submit(_warm_worker, ()).result(timeout=timeout)

    def pids(self) -> list[int]:
        """Process ids of the workers running now (for CPU and memory accounting)."""
        if self._executor is None:
            return []
        procs = getattr(self._executor, "_processes", None) or {}
        return list(procs)

    def shutdown(self, wait: bool = False) -> None:
        """Stop the workers (queued jobs are cancelled; with ``wait``, return once they
        have exited); a later :meth:`submit` starts new ones."""
        if self._executor is not None:
            self._executor.shutdown(wait=wait, cancel_futures=True)
            self._executor = None


#: One pool per process, shared by every bot in it (tests start many bots; a worker costs
#: an interpreter start): worker count -> pool.
_shared: dict[int, RenderPool] = {}


def shared_pool(workers: int, warm: tuple[str, ...] = ()) -> RenderPool:
    """This process's pool of ``workers`` workers (made on first use)."""
    pool = _shared.get(workers)
    if pool is None:
        pool = _shared[workers] = RenderPool(workers, warm)
    return pool


def forget_pool(pool: RenderPool) -> None:
    """Shut ``pool`` down and drop it from the shared pools (after it broke)."""
    pool.shutdown()
    for n, p in list(_shared.items()):
        if p is pool:
            del _shared[n]


def shutdown_pools() -> None:
    """Stop every shared pool's workers and wait until they have exited (a bot process's
    last step: nothing of ``multiprocessing`` is left for its exit to warn about)."""
    for pool in list(_shared.values()):
        pool.shutdown(wait=True)
    _shared.clear()
