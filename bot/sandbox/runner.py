"""A real discord.py bot connected to a :class:`~bot.sandbox.World` with no network.

See the package docstring (``bot.sandbox``) for a usage example.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import weakref
from collections.abc import Iterator
from typing import Any

import discord
from discord.http import Route

from bot.runtime.clock import waits_on_manual_time

from . import installs
from . import payloads as P
from .fake_gateway import FakeGateway, FakeShard
from .inbound import Inbound
from .intents import receives
from .model import CapturedError, RecordedRequest, SandboxError, SimInteraction, SimMessage
from .rest import FakeSession, Router, current_interaction
from .state import WorldState

#: Task names the settle loop never waits for (long-lived by design): ``discord.ext.tasks``
#: loops and herdbot's timer service. (discord.py's ``discord-ui-view-timeout-*`` tasks run
#: ``View.on_timeout`` and ARE awaited; the sleeping view-timeout task is parked on its
#: loop timer anyway.)
BACKGROUND_TASK_PREFIXES = ("discord-ext-tasks", "herdbot-timers")

#: The sandbox whose bot created a task (set while a bot starts, handles an interaction or
#: a gateway event; tasks inherit it), so that with several bots on one loop (shards) each
#: sandbox waits for and cancels only its own bot's tasks. ``None``: the test's own tasks,
#: which every sandbox tracks.
_OWNER: contextvars.ContextVar[Sandbox | None] = contextvars.ContextVar(
    "sandbox_owner", default=None)


def _is_query_timeout(handle: asyncio.TimerHandle) -> bool:
    """True for the timeout asyncpg arms on every PostgreSQL query (``command_timeout``): the
    query is work in progress, not a wait for time, so settle waits for it."""
    owner = getattr(getattr(handle, "_callback", None), "__self__", None)
    return type(owner).__module__.startswith("asyncpg")


def _in_asyncpg(task: asyncio.Task[Any]) -> bool:
    """True while ``task`` awaits inside asyncpg (connecting a pooled connection under its
    connect timeout, a query on a pool): database work in progress, not a wait for time.
    Also True when the chain passes through an async generator's ``athrow``/``asend`` (an
    ``asynccontextmanager`` exiting), which hides what it awaits: counted as work."""
    coro: Any = task.get_coro()
    for _ in range(100):  # down the chain of awaited coroutines
        if type(coro).__name__ in ("async_generator_athrow", "async_generator_asend"):
            return True
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        if code is not None and "/asyncpg/" in code.co_filename:
            return True
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
        if coro is None:
            return False
    return False


class _LogCapture(logging.Handler):
    def __init__(self, sandbox: Sandbox):
        super().__init__(level=logging.ERROR)
        self.sandbox = sandbox

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        self.sandbox.errors.append(CapturedError(record.name, record.getMessage(), exc))


def idle_grace(base: float = 2.0, cap: float = 10.0) -> float:
    """Seconds a task blocked on a future counts as busy before :meth:`Sandbox.settle`
    takes it as waiting for input: ``base`` times the 1-minute load average per core (at
    least 1x), at most ``cap``."""
    try:
        per_core = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:  # no load average on this platform
        per_core = 1.0
    return min(cap, base * max(1.0, per_core))

class Sandbox(Inbound):
    """One connected bot. Created by :meth:`World.connect`; closed by
    :meth:`World.disconnect` (or :meth:`close`).

    Attributes: ``world``, ``bot``, ``requests`` (requests made by this bot),
    ``errors`` (:class:`CapturedError` list), ``raise_errors`` (raise captured errors at
    the next settle/close), ``settle_timeout`` (real seconds before a hung settle fails),
    ``short_timer`` (sleeps shorter than this are awaited by settle, longer ones are
    treated as parked timers: use :meth:`advance`), ``strict_ack`` (when True a member
    action raises :class:`SandboxError` if the bot never acknowledged the interaction;
    Discord would show "This interaction failed"), ``idle_grace`` (real seconds after
    which tasks blocked on futures that nothing completes, e.g. ``asyncio.Event.wait()``
    or ``Queue.get()``, count as waiting for input; ``View.wait()``, ``Client.wait_for``
    and timers, the loop's and waits on a ``ManualClock``, are recognised at once).
    """

    def __init__(self, world: WorldState, bot: discord.Client, *, raise_errors: bool = True,
                 settle_timeout: float = 10.0, loggers: tuple[str, ...] = ("discord",),
                 shard_ids: list[int] | None = None):
        self.world = world
        self.bot = bot
        #: The shards this bot serves (``[0]`` for a bot that is not sharded).
        self.shard_ids = list(shard_ids or [0])
        self.raise_errors = raise_errors
        self.settle_timeout = settle_timeout
        self.short_timer = 0.05
        self.strict_ack = False
        # Work in threads (the render thread, aiosqlite's) resolves the futures the bot
        # awaits, and takes longer on a loaded machine: the grace grows with the load per
        # core, measured at connect.
        self.idle_grace = idle_grace()
        self.requests: list[RecordedRequest] = []
        self.errors: list[CapturedError] = []
        self.router = Router(self, world)
        self.session = FakeSession(self)
        self.closed = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._finished: list[asyncio.Task[Any]] = []
        self._settling: set[asyncio.Task[Any]] = set()
        self._ignored: set[asyncio.Task[Any]] = set()
        self._inputs: list[asyncio.Event] = []
        self._parked_on: weakref.WeakKeyDictionary[asyncio.Task[Any], Any] = (
            weakref.WeakKeyDictionary())
        self._loggers = loggers
        self._handler = _LogCapture(self)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._prev_factory: Any = None
        self._cmd_cache: dict[tuple[int, int | None], dict[str, Any]] = {}

    # ------------------------------------------------------------------ lifecycle
    async def start(self, token: str) -> None:
        """Install the fake exits, ``await bot.login(token)`` (runs ``setup_hook``), then
        feed READY/GUILD_CREATE and wait until ``on_ready`` handlers settled."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        bot = self.bot
        http = bot.http
        sb = self

        async def static_login(tok: str) -> Any:
            http._HTTPClient__session = sb.session  # type: ignore[attr-defined]
            http._global_over = asyncio.Event()
            http._global_over.set()
            http.token = tok
            return await http.request(Route("GET", "/users/@me"))

        http.static_login = static_login  # type: ignore[method-assign,assignment]
        self._prev_factory = loop.get_task_factory()
        loop.set_task_factory(self._task_factory)
        for name in self._loggers:
            logging.getLogger(name).addHandler(self._handler)
        for shard_id in self.shard_ids:
            self.world.shards[shard_id] = self
        owner = _OWNER.set(self)
        try:
            await bot.login(token)
            bot.ws = FakeGateway(self)  # type: ignore[assignment]
            state = bot._connection
            saved = state.guild_ready_timeout
            state.guild_ready_timeout = 0
            try:
                if isinstance(bot, discord.AutoShardedClient):
                    count = self.world.shard_count
                    bot.shard_count = state.shard_count = count
                    state.shard_ids = list(self.shard_ids)  # type: ignore[attr-defined]
                    bot._AutoShardedClient__shards = {  # type: ignore[attr-defined]
                        i: FakeShard(self, i) for i in self.shard_ids}
                    for shard_id in self.shard_ids:
                        state.parse_ready(self._ready_payload(shard_id))  # type: ignore[arg-type]
                else:
                    state.parse_ready(self._ready_payload())  # type: ignore[arg-type]
                ready_task = state._ready_task
                for guild in bot.guilds:
                    state.dispatch("guild_available", guild)
                if ready_task is not None:
                    await ready_task
            finally:
                state.guild_ready_timeout = saved
            await self.settle()
        except BaseException:
            with contextlib.suppress(Exception):
                await bot.close()
            await self._teardown()
            raise
        finally:
            _OWNER.reset(owner)

    def _ready_payload(self, shard_id: int | None = None) -> dict[str, Any]:
        """READY for ``shard_id`` (its guilds only), or for a bot that is not sharded (every
        guild)."""
        w = self.world
        guilds = [w.guild_payload(g) for g in w.guilds if g not in w.uninstalled_guilds
                  and (shard_id is None or w.shard_of(g) == shard_id)]
        shard = [0, 1] if shard_id is None else [shard_id, w.shard_count]
        return {
            "v": 10, "user": w.bot_user(), "guilds": guilds,
            "session_id": f"sandbox{w.clock.snowflake()}", "resume_gateway_url": "wss://sandbox",
            "shard": shard, "application": {"id": str(w.application_id), "flags": 1 << 19},
            "private_channels": [], "relationships": [], "presences": [],
            "guild_join_requests": [], "user_settings": {}, "auth": {},
        }

    async def close(self) -> None:
        """Settle, ``await bot.close()``, cancel the bot's leftover tasks (a dead process
        keeps none), restore discord.py's exits. Raises :class:`SandboxError` if errors
        were captured (and ``raise_errors``)."""
        if self.closed:
            return
        pending_error: BaseException | None = None
        try:
            await self.settle()
        except SandboxError as e:
            pending_error = e
        try:
            await self.bot.close()
            await self._cancel_leftovers()
        finally:
            await self._teardown()
        if pending_error is not None:
            raise pending_error
        self._raise_errors()

    async def _cancel_leftovers(self) -> None:
        me = asyncio.current_task()
        left = [t for t in self._tasks if not t.done() and t is not me
                and t not in self._settling]
        for t in left:
            t.cancel()
        if left:
            await asyncio.gather(*left, return_exceptions=True)

    async def _teardown(self) -> None:
        self.closed = True
        http = self.bot.http
        http.__dict__.pop("static_login", None)
        if self._loop is not None and self._loop.get_task_factory() == self._task_factory:
            self._loop.set_task_factory(self._prev_factory)
        for name in self._loggers:
            logging.getLogger(name).removeHandler(self._handler)
        if self.bot.ws is not None and isinstance(self.bot.ws, FakeGateway):
            self.bot.ws = None  # type: ignore[assignment]
        for shard_id in self.shard_ids:
            if self.world.shards.get(shard_id) is self:
                del self.world.shards[shard_id]

    # ------------------------------------------------------------------ tasks & errors
    def _task_factory(self, loop: asyncio.AbstractEventLoop, coro: Any,
                      **kwargs: Any) -> asyncio.Task[Any]:
        prev = self._prev_factory
        ctx = kwargs.get("context")
        owner = ctx.get(_OWNER) if ctx is not None else _OWNER.get()
        if prev is not None:
            task = prev(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        if not self.closed and owner in (None, self):
            self._tasks.add(task)
        return task

    def ignore_task(self, task: asyncio.Task[Any]) -> None:
        """Never wait for ``task`` in :meth:`settle` (a permanent background consumer)."""
        self._ignored.add(task)

    def input_event(self, event: asyncio.Event) -> asyncio.Event:
        """Count a task waiting on ``event`` as waiting for input in :meth:`settle` (parked
        at once, like ``View.wait()``, instead of after ``idle_grace``): for a test that
        holds the bot's work until it sets ``event``. Returns ``event``."""
        self._inputs.append(event)
        return event

    def _timers(self) -> tuple[dict[int, float], set[asyncio.Task[Any]]]:
        """Futures that only time or a member can complete (id -> deadline; ``inf`` for
        input waits) and tasks under ``asyncio.timeout``.

        Time: futures woken by scheduled loop timers (``asyncio.sleep``, ``wait_for``
        timeouts, ``discord.ext.tasks``). Input: ``View.wait()``/``Modal.wait()`` futures of
        views in discord.py's ViewStore, ``Client.wait_for`` futures and waits on the
        events of :meth:`input_event`."""
        futs: dict[int, float] = {}
        tasks: set[asyncio.Task[Any]] = set()
        for h in getattr(self._loop, "_scheduled", ()):
            if h._cancelled or _is_query_timeout(h):
                continue
            when = h._when
            for a in h._args or ():
                if isinstance(a, asyncio.Future):
                    futs[id(a)] = when
            owner = getattr(h._callback, "__self__", None)
            if isinstance(owner, asyncio.Future):
                futs[id(owner)] = when
            elif isinstance(owner, asyncio.Timeout):
                task = getattr(owner, "_task", None)
                if task is not None and not _in_asyncpg(task):
                    tasks.add(task)
        inf = float("inf")
        for v in self._views():
            fut = getattr(v, "_BaseView__stopped", None)
            if fut is not None:
                futs[id(fut)] = inf
        for listeners in self.bot._listeners.values():
            for fut, _ in listeners:
                futs.setdefault(id(fut), inf)
        for event in self._inputs:
            for fut in event._waiters:  # type: ignore[attr-defined]
                futs.setdefault(id(fut), inf)
        return futs, tasks

    def _parked(self, fut: Any, timers: tuple[dict[int, float], set[Any]], now: float,
                depth: int = 0) -> bool:
        futs, tasks = timers
        if depth > 8:
            return False
        if isinstance(fut, asyncio.Task):
            if fut.done():
                return False
            if fut in tasks or fut in self._ignored or fut in self._settling:
                return True
            if waits_on_manual_time(fut):  # a timer on the manual clock: parked at once
                return True
            if fut.get_name().startswith(BACKGROUND_TASK_PREFIXES):
                return True
            waiter = getattr(fut, "_fut_waiter", None)
            return waiter is not None and self._parked(waiter, timers, now, depth + 1)
        when = futs.get(id(fut))
        if when is not None:
            return when - now > self.short_timer
        children = getattr(fut, "_children", None)  # asyncio.gather
        if children:
            return all(c.done() or self._parked(c, timers, now, depth + 1) for c in children)
        return False

    def _busy(self) -> list[asyncio.Task[Any]]:
        busy = []
        timers = None
        now = self._loop.time() if self._loop else 0.0
        for t in list(self._tasks):
            if t.done():
                self._tasks.discard(t)
                self._finished.append(t)
                continue
            if t in self._settling or t in self._ignored:
                continue
            if t.get_name().startswith(BACKGROUND_TASK_PREFIXES):
                continue
            waiter: Any = getattr(t, "_fut_waiter", None)
            if waiter is not None:
                if not waiter.done() and self._parked_on.get(t) is waiter:
                    continue  # still parked on the same future as last time
                if timers is None:
                    timers = self._timers()
                if self._parked(t, timers, now):
                    self._parked_on[t] = waiter
                    continue
            busy.append(t)
        return busy

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every task the bot's loop spawned since connecting (command and view
        callbacks, on_* events, the bot's own tasks, gateway echoes) is done or parked: on a
        long timer (> ``short_timer``), in ``View.wait()``/``Client.wait_for``, or blocked
        on a future nothing completed for ``idle_grace`` seconds (work in threads such
        as aiosqlite's completes well before). Raises :class:`SandboxError` when discord.py logged
        an error meanwhile (and ``raise_errors``), or after ``timeout`` real seconds."""
        loop = asyncio.get_running_loop()
        me = asyncio.current_task()
        if me is not None:
            self._settling.add(me)
        deadline = loop.time() + (timeout or self.settle_timeout)
        ready = getattr(loop, "_ready", None)
        sig: tuple[Any, ...] = ()
        still_since = loop.time()
        try:
            while True:
                await asyncio.sleep(0)
                busy = self._busy()
                if ready and self._others_ready(ready):
                    continue
                if not busy:
                    break
                now = loop.time()
                new_sig = tuple((id(t), id(getattr(t, "_fut_waiter", None))) for t in busy)
                if new_sig != sig:
                    sig, still_since = new_sig, now
                elif now - still_since > self.idle_grace and not self._drawing() and all(
                        getattr(t, "_fut_waiter", None) is not None for t in busy):
                    break  # blocked on futures nothing is completing: waiting for input
                # Past the deadline, tasks blocked on futures still get their idle grace
                # from the moment they last changed (under load the grace nears the
                # timeout), but never more than one grace beyond the deadline.
                if now > deadline and (now - still_since > self.idle_grace + 1.0
                                       or now > deadline + self.idle_grace + 1.0):
                    names = ", ".join(f"{t.get_name()}: {t.get_coro()!r}" for t in busy)
                    raise SandboxError(f"settle timed out; still busy: {names}")
                await asyncio.wait(busy, timeout=0.002, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if me is not None:
                self._settling.discard(me)
        self._check_finished()
        self._raise_errors()

    def _drawing(self) -> bool:
        """True while the bot's render process draws a picture a task waits for (a
        worker's first picture includes starting it, seconds on a loaded machine)."""
        pool = getattr(self.bot, "render_pool", None)
        return bool(getattr(pool, "in_flight", 0))

    def _others_ready(self, ready: Any) -> bool:
        """True when the loop has runnable callbacks other than settling tasks' wakeups."""
        settling = self._settling
        for h in ready:
            if h._cancelled:
                continue
            if getattr(h._callback, "__self__", None) not in settling:
                return True
        return False

    def _check_finished(self) -> None:
        for t in self._finished:
            if t.cancelled():
                continue
            if getattr(t, "_log_traceback", False):
                exc = t.exception()  # marks it retrieved
                self.errors.append(CapturedError(f"task {t.get_name()}",
                                                 "Task exception was never retrieved", exc))
        self._finished.clear()

    def _unhandled(self, what: str) -> None:
        self.errors.append(CapturedError("sandbox", f"unhandled route {what}", None))

    def _raise_errors(self) -> None:
        if self.errors and self.raise_errors:
            errs = self.take_errors()
            raise SandboxError(f"{len(errs)} error(s) in the bot:\n" + "\n".join(map(str, errs)))

    def take_errors(self) -> list[CapturedError]:
        """Return and clear the captured errors."""
        errs, self.errors = self.errors, []
        return errs

    @contextlib.contextmanager
    def allow_errors(self) -> Iterator[list[CapturedError]]:
        """Within the block captured errors are not raised; on exit the yielded list holds
        the errors captured meanwhile (they are removed from :attr:`errors`)."""
        saved, start = self.raise_errors, len(self.errors)
        self.raise_errors = False
        got: list[CapturedError] = []
        try:
            yield got
        finally:
            self.raise_errors = saved
            got.extend(self.errors[start:])
            del self.errors[start:]

    # ------------------------------------------------------------------ clock
    async def advance(self, seconds: float) -> None:
        """Move the world clock by ``seconds`` and fast-forward the loop's timers (every
        pending ``asyncio.sleep``/``call_later`` fires ``seconds`` earlier; discord.py view
        and modal timeouts are shifted too), then settle. Other code that re-checks
        ``time.monotonic()``/``time.time()`` after waking sleeps again: read the world's
        clock (``world.clock.time()``) instead.

        Threads idle for their ``auto_archive_duration`` archive on the way, at the moment
        they are due (THREAD_UPDATE): the clock stops at each such moment and settles, so
        activity from timers firing earlier counts."""
        world = self.world
        remaining = seconds
        for _ in range(10_000):
            due = world.next_auto_archive() if remaining > 0 else None
            step = remaining
            if due is not None:
                step = min(remaining, max(0.0, due - world.clock.time()))
            await self._shift(step)
            remaining -= step
            if world.archive_idle_threads():
                await self.settle()
            if remaining <= 1e-9:
                return
        raise SandboxError("advance: threads keep auto-archiving without the clock moving")

    async def _shift(self, seconds: float) -> None:
        self.world.clock.offset += seconds
        for h in getattr(self._loop, "_scheduled", ()):
            h._when -= seconds  # a uniform shift keeps the heap ordered
        for v in self._views():
            expiry = getattr(v, "_BaseView__timeout_expiry", None)
            if expiry is not None:
                v._BaseView__timeout_expiry = expiry - seconds
        await self.settle()

    def _views(self) -> list[Any]:
        """Views and modals in discord.py's ViewStore (deduplicated)."""
        store = self.bot._connection._view_store
        views: dict[int, Any] = {id(v): v for v in store._modals.values()}
        views.update((id(v), v) for v in store._synced_message_views.values())
        for items in store._views.values():
            views.update((id(i.view), i.view) for i in items.values() if i.view is not None)
        return list(views.values())

    # ------------------------------------------------------------------ gateway
    def gateway(self, event: str, data: dict[str, Any]) -> None:
        """Deliver gateway ``event`` on the next loop iteration to the bot serving its
        shard, as Discord does: a guild's events (``data["guild_id"]``) to the shard of that
        guild, others (DMs) to shard 0; dropped when no connected bot serves it, or when
        the bot's intents do not bring it (:func:`~bot.sandbox.intents.receives`)."""
        gid = data.get("guild_id")
        target = self.world.shards.get(self.world.shard_of(int(gid) if gid else None))
        if not isinstance(target, Sandbox) or target.closed or target._loop is None:
            return
        if not receives(target.bot.intents, event, data, self.world.application_id):
            return
        context = contextvars.copy_context()  # the caller's, owned by the receiving bot
        context.run(_OWNER.set, target)
        target._loop.call_soon(target._feed, event, data, context=context)

    def _feed(self, event: str, data: dict[str, Any]) -> None:
        if self.closed:
            return
        parser = self.bot._connection.parsers.get(event)
        if parser is None:
            return
        try:
            parser(data)
        except Exception as e:  # noqa: BLE001 - reported through settle
            self.errors.append(CapturedError(f"gateway {event}", str(e), e))

    def echo_message(self, event: str, msg: SimMessage) -> None:
        ch = self.world.channels.get(msg.channel_id)
        if ch is None or self.closed or not installs.guild_installed(self.world, ch):
            return  # (the bot user is no member there: no gateway events)
        if ch.kind == "dm":
            data = dict(msg.data)
        else:
            data = dict(msg.data, guild_id=str(ch.guild_id),
                        member=P.member(self.world.bot_user(), [self.world.bot_role_id],
                                        self.world.created, with_user=False))
        self.gateway(event, data)

    # ------------------------------------------------------------------ inbound
    async def _dispatch(self, it: SimInteraction, payload: dict[str, Any]) -> SimInteraction:
        """Feed ``payload`` to discord.py's INTERACTION_CREATE parser as this bot's, then
        settle every connected bot."""
        token = current_interaction.set(it)
        owner = _OWNER.set(self)
        try:
            self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        finally:
            _OWNER.reset(owner)
            current_interaction.reset(token)
        await self.settle()
        for other in dict.fromkeys(self.world.shards.values()):  # what it caused elsewhere
            if other is not self:
                await other.settle()
        if self.strict_ack and not it.responded and not it.failed:
            raise SandboxError(f"the bot never acknowledged {it!r} (interaction failed)")
        return it
