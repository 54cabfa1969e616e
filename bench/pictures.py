"""``python -m bench.pictures [--games G ...] [--seed N] [--repeat R] [--json]``: the
pictures one click draws, counted and timed over the seeded games of
:mod:`bench.clickpath` (one member, one Normal AI seat, SQLite).

Every call the bot runs in its render thread (``HerdBot.render``: table pictures,
hand and keep panels, close-ups) is counted by the function drawn, with the render
thread's CPU time (``time.thread_time``) it took; table pictures found in the bot's
:class:`~bot.render.pool.PictureCache` are counted as ``kept``, close-ups found kept by
their drawing function (``bot.render.common.kept_by``) as ``closeups_kept`` (they are
counted among the calls, at the cost of finding them). Per game it prints the
clicks, the versions (moves of every seat), then per drawing function: calls, calls per
click, and CPU ms per call (median over ``--repeat`` runs of the same seeded game, each
with warm sprites but no pictures kept from the run before).
Counts are deterministic for a seed; CPU times move with the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Hashable
from typing import Any

from bench import clickpath

GAMES = clickpath.GAMES


class Drawn:
    """Render-thread calls by function name: counts and CPU seconds (one list per name)."""

    def __init__(self) -> None:
        self.on = False
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.kept = 0

    def clear(self) -> None:
        self.cpu.clear()
        self.kept = 0


def _name(func: Any) -> str:
    """The drawing function's name: a job's renderer, a method's or function's own."""
    inner = func.func if isinstance(func, functools.partial) else func
    job = getattr(inner, "__self__", None)
    target = getattr(job, "func", None) if type(job).__name__ == "Job" else None
    target = target or inner
    module = getattr(target, "__module__", "") or ""
    return f"{module.rsplit('.', 1)[-1]}.{getattr(target, '__qualname__', repr(target))}"


def _kept_caches() -> list[Any]:
    """Every picture function's kept pictures (``bot.render.common.kept_by``)."""
    found: dict[int, Any] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("bot.render."):
            continue
        for value in list(vars(module).values()):
            kept = getattr(value, "kept", None)
            if callable(getattr(kept, "clear", None)):
                found[id(kept)] = kept
    return list(found.values())


def forget_kept() -> None:
    """Clear every picture function's kept pictures, so that a repeated game finds only
    its own pictures (its sprites stay warm)."""
    for kept in _kept_caches():
        kept.clear()


def kept_hits() -> int:
    """Close-ups found kept (not drawn again) since :func:`forget_kept`."""
    return sum(kept.hits for kept in _kept_caches())


def instrument(drawn: Drawn) -> None:
    """Patch ``HerdBot.render`` (and ``PictureCache.get``) to record into ``drawn``."""
    from bot.discord.bot import HerdBot
    from bot.render.pool import PictureCache

    render = HerdBot.render
    if getattr(render, "__pictures__", False):
        return

    @functools.wraps(render)
    async def timed(self: Any, func: Any, /, *args: Any, **kwargs: Any) -> Any:
        name = _name(func)

        def run() -> Any:
            t0 = time.thread_time()
            try:
                return func(*args, **kwargs)
            finally:
                if drawn.on:
                    drawn.cpu[name].append(time.thread_time() - t0)
        return await render(self, run)

    timed.__pictures__ = True  # type: ignore[attr-defined]
    HerdBot.render = timed  # type: ignore[method-assign]
    get = PictureCache.get

    def kept(self: Any, key: Hashable) -> bytes | None:
        png = get(self, key)
        if png is not None and drawn.on:
            drawn.kept += 1
        return png
    PictureCache.get = kept  # type: ignore[method-assign]


class _Counts(clickpath.Counts):
    """clickpath's counts, whose switch (``on``, thrown by clickpath's driver) also
    switches the recording of the pictures."""

    def __init__(self, drawn: Drawn) -> None:
        self._drawn = drawn
        super().__init__()

    @property  # type: ignore[override]
    def on(self) -> bool:
        return self._drawn.on

    @on.setter
    def on(self, value: bool) -> None:
        self._drawn.on = value


async def run(games: list[str], seed: int, repeat: int) -> list[dict[str, Any]]:
    from bot.app import builtin_games

    drawn = Drawn()
    counts = _Counts(drawn)
    clickpath.instrument(counts, builtin_games())
    clickpath.count_clicks(counts)
    instrument(drawn)
    rows = []
    for game in games:
        calls: dict[str, int] = {}
        per_call: dict[str, list[float]] = defaultdict(list)
        for _ in range(repeat):
            drawn.clear()
            forget_kept()
            row = await clickpath.play(game, seed=seed, database=None, counts=counts)
            calls = {k: len(v) for k, v in drawn.cpu.items()}
            for k, v in drawn.cpu.items():
                per_call[k].append(sum(v) / len(v))
            kept = drawn.kept
            closeups = kept_hits()
        total_ms = sum(calls[k] * statistics.median(per_call[k]) * 1000 for k in calls)
        rows.append({
            "game": game, "clicks": row["clicks"], "moves": row["moves"],
            "version": row["version"], "kept": kept, "closeups_kept": closeups,
            "pictures": sum(calls.values()),
            "cpu_ms_per_click": round(total_ms / max(1, row["clicks"]), 2),
            "cpu_ms_per_version": round(total_ms / max(1, row["version"]), 2),
            "by_func": {k: {"calls": calls[k],
                            "per_click": round(calls[k] / max(1, row["clicks"]), 3),
                            "cpu_ms": round(statistics.median(per_call[k]) * 1000, 2)}
                        for k in sorted(calls, key=lambda k: -calls[k])}})
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    out = []
    for r in rows:
        out.append(f"{r['game']}: {r['clicks']} clicks, {r['moves']} member moves, version "
                   f"{r['version']}; {r['pictures']} drawn ({r['kept']} kept tables, "
                   f"{r['closeups_kept']} kept close-ups); "
                   f"render CPU {r['cpu_ms_per_click']} ms/click, "
                   f"{r['cpu_ms_per_version']} ms/version")
        for name, f in r["by_func"].items():
            out.append(f"    {name:45} {f['calls']:>5} calls {f['per_click']:>6.2f}/click "
                       f"{f['cpu_ms']:>7.2f} ms CPU each")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pictures", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    import logging

    logging.basicConfig(level=logging.ERROR)
    rows = asyncio.run(run(args.games, args.seed, args.repeat))
    print(json.dumps(rows, indent=1) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
