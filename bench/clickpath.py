"""``python -m bench.clickpath [--games G ...] [--seed N] [--database URL] [--json]``:
what one click costs the bot, counted (not timed) over seeded games.

Each game is played by one member and one AI seat (Normal) in the in-process sandbox, with
discord.py's real dispatch: the member runs ``/play``, adds the AI seat, starts, then
plays every decision through the table's buttons and selects (the game's sandbox driver),
choosing with the game's Normal policy from ``random.Random(seed)``. From the first click
after the start to the end of the game, the bench counts what the bot does (everything
run outside the driving task: interaction handlers, the timer loop, the catch-up, the AI's
worker threads):

- ``stmts``: statements sent to the database (each ``execute``, ``fetch``, ``fetchrow``,
  ``insert_id``, ``executemany`` of the store's connections (``bot.store.db.Conn``); a
  call made inside another counts once; and those of a batch the backend sends whole:
  each of SQLite's ``_sqlite_ops``, PostgreSQL's ``pg_alone``), and ``tx``: transactions
  opened;
- ``trips``: round trips to the database, counted where they leave the bot: each call
  that aiosqlite runs on its thread (``Connection._execute``: a statement, or a whole
  transaction sent at once), each query on the SQLite reader's direct connection (no
  thread switch, counted all the same), and each asyncpg call (``execute``, ``fetch``,
  ``fetchrow``, ``fetchval``, ``executemany`` of a connection: a transaction's
  ``BEGIN`` and ``COMMIT``, and the reset a pooled connection gets when it is released,
  included);
- ``calls``: calls of the public ``Store`` methods, by name (``--json`` lists them);
- ``parses``, ``legal``, ``view``: the engine's ``load_state``, ``legal_actions`` and
  ``view`` calls;
- ``requests``: requests the bot made to the simulated Discord, and by route (method,
  path with ids as ``N`` and tokens as ``T``, the callback type for an interaction
  response, ``+file`` when it uploads files);
- ``cpu_ms``: this process's CPU time (``time.process_time``: every thread, the render
  thread's pictures included) from the first click to the end, the simulated Discord's
  and the driving included: timed, not counted, so it moves with the machine's load
  (compare two checkouts back to back).

It prints, per game, the clicks (every button press and select choice, paging and panels
included), the member's moves, and each count per click. The counts are deterministic for
a seed (no clock is read: the bot runs on a manual clock). Runs against any version of
herdbot whose sandbox drivers and store connections have these names.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import functools
import inspect
import json
import random
import re
import secrets
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

GAMES = ("llamas-alpacas", "pacapaca", "llamas-unleashed")
#: Conn methods that send one statement (``bot.store.db.Conn``), by name.
STATEMENTS = ("execute", "fetch", "fetchrow", "insert_id", "executemany")
#: Driven actions after which an unfinished game is an error.
MAX_ACTIONS = 3000


class Counts:
    """What the bot did, counted outside the driving task (see the module docstring)."""

    def __init__(self) -> None:
        self.on = False
        self.driver: asyncio.Task[Any] | None = None
        self.loop_thread = threading.get_ident()
        self.c: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
        self._lock = threading.Lock()

    def counting(self) -> bool:
        """Whether a call made now is the bot's (not the driver's) while counting."""
        if not self.on:
            return False
        if threading.get_ident() != self.loop_thread:
            return True  # the AI's worker threads, aiosqlite's thread
        try:
            return asyncio.current_task() is not self.driver
        except RuntimeError:
            return True

    def add(self, key: str, counter: Counter[str] | None = None) -> None:
        with self._lock:
            (self.c if counter is None else counter)[key] += 1


_DEPTH: contextvars.ContextVar[int] = contextvars.ContextVar("clickpath_depth", default=0)
_TRIP_DEPTH: contextvars.ContextVar[int] = contextvars.ContextVar("clickpath_trips", default=0)


@contextmanager
def _outer(var: contextvars.ContextVar[int] = _DEPTH) -> Iterator[bool]:
    """True for the outermost call counted by ``var`` (a fetchrow made by fetch counts
    once)."""
    depth = var.get()
    token = var.set(depth + 1)
    try:
        yield depth == 0
    finally:
        var.reset(token)


def _wrap_async(fn: Callable[..., Any], on_call: Callable[[], None],
                once: bool = False,
                var: contextvars.ContextVar[int] = _DEPTH) -> Callable[..., Any]:
    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not once:
            on_call()
            return await fn(*args, **kwargs)
        with _outer(var) as outer:
            if outer:
                on_call()
            return await fn(*args, **kwargs)
    wrapper.__clickpath__ = True  # type: ignore[attr-defined]
    return wrapper


def _wrap_sync(fn: Callable[..., Any], on_call: Callable[[], None]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        on_call()
        return fn(*args, **kwargs)
    wrapper.__clickpath__ = True  # type: ignore[attr-defined]
    return wrapper


def _wrap_counted(fn: Callable[..., Any], counts: Counts,
                  size: Callable[[tuple[Any, ...]], int]) -> Callable[..., Any]:
    """``fn`` (sync or async) adding ``size(args)`` statements to ``counts`` per call."""
    def add(args: tuple[Any, ...]) -> None:
        if counts.counting():
            with counts._lock:
                counts.c["stmts"] += size(args)

    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def awrapper(*args: Any, **kwargs: Any) -> Any:
            add(args)
            return await fn(*args, **kwargs)
        awrapper.__clickpath__ = True  # type: ignore[attr-defined]
        return awrapper

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        add(args)
        return fn(*args, **kwargs)
    wrapper.__clickpath__ = True  # type: ignore[attr-defined]
    return wrapper


def _family(cls: Any) -> list[Any]:
    """``cls`` and every subclass of it, at any depth, defined so far."""
    out: list[Any] = [cls]
    for sub in cls.__subclasses__():
        out.extend(c for c in _family(sub) if c not in out)
    return out


def instrument(counts: Counts, registry: Any) -> None:
    """Patch the store's connections, the ``Store`` class and the games' engine classes to
    count into ``counts`` (for the rest of the process)."""
    from bot.store import db as dbmod
    from bot.store.store import Store

    def counter(key: str, by: Counter[str] | None = None) -> Callable[[], None]:
        def on_call() -> None:
            if counts.counting():
                counts.add(key, by)
        return on_call

    statement = counter("stmts")
    trip = counter("trips")
    import aiosqlite
    import asyncpg.connection

    hop: Any = aiosqlite.Connection._execute
    if not getattr(hop, "__clickpath__", False):
        aiosqlite.Connection._execute = _wrap_async(hop, trip)  # type: ignore[method-assign]
    for meth in ("execute", "fetch", "fetchrow", "fetchval", "executemany"):
        call: Any = getattr(asyncpg.connection.Connection, meth)
        if not getattr(call, "__clickpath__", False):
            setattr(asyncpg.connection.Connection, meth,
                    _wrap_async(call, trip, once=True, var=_TRIP_DEPTH))
    # the backends' classes, wherever they are defined (bot.store.db, or the backend
    # modules beside it: imported with the store)
    conns, backends = _family(dbmod.Conn), _family(dbmod.Backend)
    reader: Any = next((c for c in conns if c.__name__ == "SqliteReader"), None)
    fetch: Any = reader.__dict__.get("fetch") if reader is not None else None
    if fetch is not None and not getattr(fetch, "__trips__", False):
        @functools.wraps(fetch)
        async def direct_fetch(self: Any, *a: Any, **k: Any) -> Any:
            if getattr(self, "direct", None) is not None:
                trip()  # a query on the direct connection: no aiosqlite call to count
            return await fetch(self, *a, **k)
        direct_fetch.__trips__ = True  # type: ignore[attr-defined]
        reader.fetch = direct_fetch
    # statements of batches sent whole (module functions, called by their global name)
    for mod in {sys.modules[c.__module__] for c in conns}:
        for name, size in (("_sqlite_ops", lambda a: len(a[1])), ("pg_alone", lambda a: 1)):
            whole: Any = getattr(mod, name, None)
            if whole is None or getattr(whole, "__clickpath__", False):
                continue
            setattr(mod, name, _wrap_counted(whole, counts, size))
    for cls in conns:
        for meth in STATEMENTS:
            fn = cls.__dict__.get(meth)
            if fn is not None and not getattr(fn, "__clickpath__", False):
                setattr(cls, meth, _wrap_async(fn, statement, once=True))
    for cls in backends:
        if "tx" not in cls.__dict__:
            continue
        tx = cls.__dict__["tx"]
        if getattr(tx, "__clickpath__", False):
            continue

        def make(tx: Any) -> Any:
            @functools.wraps(tx)
            def wrapped(self: Any, *a: Any, **k: Any) -> Any:
                if counts.counting():
                    counts.add("tx")
                return tx(self, *a, **k)
            wrapped.__clickpath__ = True  # type: ignore[attr-defined]
            return wrapped
        cls.tx = make(tx)
    for klass in Store.__mro__:  # the store's parts, each defining some of its methods
        for name, fn in list(vars(klass).items()):
            if name.startswith("_") or getattr(fn, "__clickpath__", False):
                continue
            if inspect.iscoroutinefunction(fn):
                setattr(klass, name, _wrap_async(fn, counter(name, counts.calls)))
            elif name == "catching_up":  # an async context manager: counted as a call too
                setattr(klass, name, _wrap_sync(fn, counter(name, counts.calls)))
    for spec in registry:
        cls = type(spec.engine)
        for meth, key in (("load_state", "parses"), ("legal_actions", "legal"),
                          ("view", "view")):
            for klass in cls.__mro__:
                fn = klass.__dict__.get(meth)
                if fn is not None:
                    break
            if fn is None or getattr(fn, "__clickpath__", False):
                continue
            setattr(cls, meth, _wrap_sync(fn, counter(key)))


def count_clicks(counts: Counts) -> None:
    """Count every component interaction (button press, select choice) the sandbox
    dispatches while counting."""
    from bot.sandbox import runner

    for cls in vars(runner).values():
        if not inspect.isclass(cls):
            continue
        fn = cls.__dict__.get("run_component")
        if fn is None or getattr(fn, "__clickpath__", False):
            continue

        def on_click() -> None:
            if counts.on:
                counts.add("clicks")
        setattr(cls, "run_component", _wrap_async(fn, on_click))  # noqa: B010


async def _pg_schema(url: str) -> tuple[str, Callable[[], Any]]:
    """A fresh schema on PostgreSQL ``url``: the URL reaching it, and a coroutine
    function dropping it."""
    import asyncpg

    schema = f"herdbot_clickpath_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()

    async def drop() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        finally:
            await conn.close()
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}", drop


async def play(game: str, *, seed: int, database: str | None, counts: Counts) -> dict[str, Any]:
    """Play one seeded game (one member, one Normal AI seat) and count it."""
    from bot.app import builtin_games, make_bot
    from bot.config import Settings
    from bot.runtime import ManualClock
    from bot.sandbox import World
    from bot.sandbox.drivers import DriverContext, driver_for

    registry = builtin_games()
    world = World()
    ana = world.add_member("Ana")
    drop: Callable[[], Any] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        target: Any = Path(tmp) / "clickpath.sqlite3"
        if database:
            target, drop = await _pg_schema(database)
        settings = Settings(database_path=target, _env_file=None,  # type: ignore[call-arg]
                            render_processes=0)
        bot = make_bot(settings, registry=registry, clock=ManualClock())
        await world.connect(bot)
        try:
            seeds = iter(range(seed, seed + 1_000_000))
            bot.service.seed_factory = lambda: next(seeds)
            await ana.slash("play", game=game)
            lobby = ana.last_reply
            assert lobby is not None, "/play answered with the lobby"
            await ana.click(lobby, "Add AI seat")
            await ana.click(lobby, "Start")
            await world.settle()
            record = [g for g in await bot.store.games_with_status("active", "finished")
                      if g.lobby_message_id == lobby.id][-1]
            result = await _drive(world, bot, record.id, ana, seed, counts,
                                  driver_for(registry[game]), DriverContext)
        finally:
            counts.on = False
            await world.disconnect()
            if drop is not None:
                await drop()
    return {"game": game, **result}


async def _drive(world: Any, bot: Any, game_id: int, member: Any, seed: int, counts: Counts,
                 perform: Any, context: Any) -> dict[str, Any]:
    """Play game ``game_id`` to its end as ``member`` (see ``bot.sandbox.demo.drive_game``),
    counting what the bot does meanwhile."""
    rand = random.Random(seed)
    counts.c.clear()
    counts.calls.clear()
    counts.driver = asyncio.current_task()
    counts.on = True
    first_request = len(world.requests)
    cpu = time.process_time()
    moves = 0
    timer_rounds = 0
    for _ in range(MAX_ACTIONS):
        record, seats, spec, state = await bot.service.load(game_id)
        if record.status != "active":
            break
        pending = spec.engine.pending(state)
        mine = next((s for s in seats if s.user_id == member.id), None)
        if mine is not None and mine.seat in pending.seats and not mine.ai_takeover:
            legal = spec.engine.legal_actions(state, mine.seat)
            action = spec.policy(spec.engine.view(state, mine.seat), legal, rand)
            ctx = context(world, bot, member, game_id, mine.seat)
            ctx._thread_id = record.thread_id or record.channel_id or 0
            await perform(ctx, action)
            await world.settle()
            moves += 1
            continue
        # only timed decisions of other seats are left: let the bot's clock run
        timer_rounds += 1
        bot.clock.advance(120)
        await asyncio.get_running_loop().create_task(bot.service.timers.fire_due())
        await world.settle()
    else:
        raise RuntimeError(f"game {game_id} did not finish")
    counts.on = False
    cpu = time.process_time() - cpu
    requests = world.requests[first_request:]
    routes = Counter(route_of(q) for q in requests)
    record = await bot.store.get_game(game_id)
    c = counts.c
    dialect = bot.store.dialect
    trips = c["trips"]
    return {"dialect": dialect, "status": record.status, "version": record.version,
            "clicks": c["clicks"], "moves": moves, "timer_rounds": timer_rounds,
            "trips": trips, "stmts": c["stmts"], "tx": c["tx"],
            "calls": sum(counts.calls.values()), "parses": c["parses"],
            "legal": c["legal"], "view": c["view"], "requests": len(requests),
            "cpu_ms": round(cpu * 1000, 1),
            "by_call": dict(sorted(counts.calls.items(), key=lambda kv: -kv[1])),
            "by_route": dict(sorted(routes.items(), key=lambda kv: (-kv[1], kv[0])))}


def route_of(request: Any) -> str:
    """A request to the simulated Discord (``bot.sandbox`` ``RecordedRequest``) by route:
    method and path with snowflakes as ``N`` and tokens as ``T``, an interaction
    response's callback type, and ``+file`` when it uploads files."""
    path = re.sub(r"/\d{5,}", "/N", request.path)
    path = re.sub(r"/(interactions|webhooks)/N/[^/?]+", r"/\1/N/T", path)
    body = request.json if isinstance(request.json, dict) else {}
    kind = f" type {body.get('type')}" if path.endswith("/callback") else ""
    return f"{request.method} {path}{kind}{' +file' if request.files else ''}"


COLUMNS = ("trips", "stmts", "tx", "calls", "parses", "legal", "view", "requests", "cpu_ms")


def table(rows: list[dict[str, Any]]) -> str:
    """The per-game table: clicks, moves, then each count per click."""
    head = f"{'game':18} {'db':8} {'clicks':>6} {'moves':>5} {'ver':>4} " + " ".join(
        f"{c + '/click':>13}" for c in COLUMNS)
    out = [head, "-" * len(head)]
    for r in rows:
        n = max(1, r["clicks"])
        out.append(f"{r['game']:18} {r['dialect']:8} {r['clicks']:>6} {r['moves']:>5} "
                   f"{r['version']:>4} " + " ".join(f"{r[c] / n:>13.2f}" for c in COLUMNS))
    for r in rows:
        n = max(1, r["clicks"])
        calls = ", ".join(f"{k} {v / n:.2f}" for k, v in r["by_call"].items())
        out.append(f"{r['game']}: store calls per click: {calls}")
    out.append("requests per click by route:")
    for r in rows:
        n = max(1, r["clicks"])
        out.append(f"  {r['game']}:")
        out += [f"    {v / n:6.2f}  {k}" for k, v in r["by_route"].items()]
    return "\n".join(out)


async def run(games: list[str], seed: int, database: str | None) -> list[dict[str, Any]]:
    from bot.app import builtin_games

    counts = Counts()
    instrument(counts, builtin_games())
    count_clicks(counts)
    return [await play(g, seed=seed, database=database, counts=counts) for g in games]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.clickpath", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", default=None,
                        help="a postgresql:// URL (a fresh schema is made and dropped); "
                             "default: a SQLite file in a temporary folder")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    import logging

    logging.basicConfig(level=logging.ERROR)
    rows = asyncio.run(run(args.games, args.seed, args.database))
    print(json.dumps(rows, indent=1) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
