"""The open-loop capacity bench with the bot in its own process(es).

Same games, players, think times, Poisson arrivals and UI drivers as
:mod:`bench.capacity`, but the bot is one or more real ``herdbot run`` processes connected
to the local Discord (:mod:`bot.sandbox.loopback`) over HTTP and the gateway websocket on
127.0.0.1, so the bot's CPU is measured on its own processes (``/proc/<pid>/stat``: user
plus system time, all threads) and nothing of the simulated Discord or the bench is
charged to it. Configurations (``CONFIGS``): 1 process on SQLite, 1 on PostgreSQL, 2 (shards
0 and 1 of 2) on PostgreSQL.

Per rate, in addition to the capacity row: ``bot_cpu_ms_per_move`` (bot processes' CPU in
the window / moves whose table showed in it), ``bot_cpu_share`` and ``harness_cpu_share``
(cores used over the window), with ``--bot-cpus`` (:mod:`bench.botprocs`) ``pinning_check``
and with ``--pin-postgres`` ``pg_cpu_share`` (the server's processes, every database), and on
PostgreSQL ``pg_commit`` p50/p99: a probe in the bench process runs, every 50 ms of the
window, a transaction shaped like a move's commit (row lock, update, insert, COMMIT) on the
bot's database and times it: what a commit waits for in the server under that load (the
bot's own commits are not timed from outside).

Click-to-new-table: the bench cannot see which click's handling made a write (the bot
is in another process), so writes are charged by token: a write made with an
interaction's token is that click's, except while a later click in the same thread is
being handled (a table posted as an earlier click's followup is retired or edited with
that click's token by the later one): then it is the later click's; a bot-token write
(no token) is charged to the click in flight in that thread. Only writes within
``ATTRIBUTE_S`` seconds of a click count for it (a reaction window closed by its timer 5 s
later is not the click's); a move with no write in that time counts as unfinished.

Run: ``python -m bench.procs --rates 5,10 --configs sqlite,pg1,pg2`` (PostgreSQL needs
``HERDBOT_BENCH_DATABASE_URL``, a database the bench may create schemas in).
"""


from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bench.botprocs import (
    Pinning,
    add_pinning_options,
    pinning_from_options,
)
from bench.figures import (
    rates_table,
)
from bench.players import TRIES
from bench.procs_bench import ProcessCapacityBench
from bot.store.postgres import drop_schemas, new_schema

#: name -> (backend, shard processes).
CONFIGS: dict[str, tuple[str, int]] = {"sqlite": ("sqlite", 1), "pg1": ("postgres", 1),
                                       "pg2": ("postgres", 2)}


@dataclass(frozen=True)
class Options:
    """How :func:`bench_processes` runs the bot processes.

    Attributes:
        checkout: run the bot from that checkout (its ``.venv`` if it has one).
        profile_rate, profile_dir: profile the bot processes over that rate's window into
            ``<profile_dir>/<config>-bot<shard>.*``.
        burst: ``(base, peak, seconds)``, see :meth:`ProcessCapacityBench.run`.
        bot_nice: the bot processes' niceness (``nice -n``), so that the simulated Discord
            and players, which live on other machines in life, are served first and offer
            the load as scheduled.
        tries: a refused player's tries of one decision (1: no retry; :mod:`bench.players`).
        pinning: the CPUs of the bot processes (and PostgreSQL) and of this process, put
            back at the end (each config's result has it under ``"pinning"``).
        bot_env: settings for every bot process.
        bot_logs: copy the bot processes' logs there at the end, as
            ``<config>-bot<shard>.log``.
        fresh: each rate (and the burst) on bot processes, a database and games of its
            own (bench/README.md, "Rows that compare"); their logs are kept as
            ``<config>-<rate or burst>-bot<shard>.log``.
        quiet_probe_ms: with ``fresh``, a rate whose CPU probe p90 (ms) is over this is
            run again, up to ``quiet_tries`` runs in all: its window met a slower CPU. The
            rows set aside are kept under ``"noisy_rows"``; the row kept has
            ``probe_runs`` and, when every run was over the bound, ``noisy``.
        before: with ``fresh``, each rate (and the burst) also runs with the bot from that
            checkout, just before this one's, so that the two meet the same machine; its
            rows are the config's ``"before"`` (``rates``, ``burst``, ``noisy_rows``).
    """

    checkout: Path | None = None
    profile_rate: float | None = None
    profile_dir: Path | None = None
    burst: tuple[float, float, float] | None = None
    bot_nice: int = 0
    tries: int = TRIES
    pinning: Pinning | None = None
    bot_env: dict[str, str] = field(default_factory=dict)
    bot_logs: Path | None = None
    fresh: bool = False
    quiet_probe_ms: float | None = None
    quiet_tries: int = 3
    before: Path | None = None


async def bench_processes(configs: list[str], rates: tuple[float, ...], warmup: float,
                          window: float, options: Options) -> dict[str, Any]:
    """Each configuration at each offered rate, run as ``options`` says;
    ``{config: {"rates": [row...]}}``, the goodput table of each printed."""
    out: dict[str, Any] = {}
    pg = os.environ.get("HERDBOT_BENCH_DATABASE_URL", "").strip()
    pinning = options.pinning
    if pinning is not None:
        print(pinning.header())
        pinning.pin_harness()
        pinning.pin_postgres()
    try:
        for name in configs:
            out[name] = await _config(name, pg, rates, warmup, window, options)
    finally:
        if pinning is not None:
            pinning.release()
    return {k: v for k, v in out.items() if v is not None}


async def _config(name: str, pg: str, rates: tuple[float, ...], warmup: float,
                  window: float, o: Options) -> dict[str, Any] | None:
    """One configuration of :func:`bench_processes`; None when skipped."""
    backend, procs = CONFIGS[name]
    if backend == "postgres" and not pg:
        print(f"{name}: skipped (HERDBOT_BENCH_DATABASE_URL is not set)")
        return None
    print(f"{name}: {procs} bot process(es) on {backend}"
          f"{f', bot from {o.checkout}' if o.checkout else ''}"
          f"{', each rate from new bot processes and games' if o.fresh else ''}"
          f"{f', each just after the bot from {o.before}' if o.before else ''}")
    if not o.fresh:
        result = await _run(name, pg, rates, warmup, window, o, o.burst)
    else:
        parts: list[tuple[tuple[float, ...], tuple[float, float, float] | None]] = [
            ((rate,), None) for rate in rates]
        if o.burst is not None:
            parts.append(((), o.burst))
        sides = [("", o)]
        if o.before is not None:
            sides.insert(0, ("before-", replace(o, checkout=o.before)))
        results: dict[str, dict[str, Any]] = {side: {"rates": []} for side, _ in sides}
        errors: dict[str, Counter[str]] = {side: Counter() for side, _ in sides}
        for part_rates, burst in parts:
            label = f"{part_rates[0]:g}" if part_rates else "burst"
            for side, so in sides:
                part = await _quiet_part(name, pg, part_rates, warmup, window, so, burst,
                                         side + label, results[side])
                errors[side].update(part["driver_errors"])
        for side, _ in sides:
            results[side]["driver_errors"] = dict(errors[side].most_common(10))
        result = results[""]
        if o.before is not None:
            result["before"] = results["before-"]
            print(f"{name}: goodput against offered load, bot from {o.before}")
            for line in rates_table(result["before"]["rates"]):
                print("  " + line)
    result["fresh"] = o.fresh
    result["bot_nice"] = o.bot_nice
    result["bot_env"] = o.bot_env
    result["pinning"] = None if o.pinning is None else o.pinning.describe()
    print(f"{name}: goodput against offered load"
          f"{'' if o.pinning is None else ' (' + o.pinning.header() + ')'}")
    for line in rates_table(result["rates"]):
        print("  " + line)
    return result


async def _quiet_part(name: str, pg: str, rates: tuple[float, ...], warmup: float,
                      window: float, o: Options, burst: tuple[float, float, float] | None,
                      label: str, into: dict[str, Any]) -> dict[str, Any]:
    """One rate (or the burst) of a ``fresh`` run, run again while its CPU probe is over
    ``o.quiet_probe_ms`` (see :class:`Options`); its rows, burst and rows set aside go
    ``into`` a config's result. Returns the last run's :func:`_run` result."""
    for run in range(1, o.quiet_tries + 1):
        part = await _run(name, pg, rates, warmup, window, o, burst, label)
        p90 = _probe_p90(part["rates"])
        if o.quiet_probe_ms is None or p90 is None or p90 <= o.quiet_probe_ms:
            break
        if run == o.quiet_tries:
            part["rates"][0]["noisy"] = True
            break
        print(f"  {label}/s: CPU probe p90 {p90:g} ms, over {o.quiet_probe_ms:g}: "
              f"run again ({run + 1} of {o.quiet_tries})")
        into.setdefault("noisy_rows", []).extend(part["rates"])
    if o.quiet_probe_ms is not None:
        for row in part["rates"]:
            row["probe_runs"] = run
    into["rates"].extend(part["rates"])
    if "burst" in part:
        into["burst"] = part["burst"]
    return part


def _probe_p90(rows: list[dict[str, Any]]) -> float | None:
    """The CPU probe's p90 (ms) of a one-rate run's row; None without one."""
    probe = rows[0].get("cpu_probe") if len(rows) == 1 else None
    return None if not probe else probe.get("p90_ms")


async def _run(name: str, pg: str, rates: tuple[float, ...], warmup: float, window: float,
               o: Options, burst: tuple[float, float, float] | None,
               label: str | None = None) -> dict[str, Any]:
    """``rates`` (then ``burst``) on new bot processes of configuration ``name``, over a
    new database (a file, or a schema of ``pg`` dropped at the end):
    :meth:`ProcessCapacityBench.run`'s result. The bot logs go to ``o.bot_logs`` as
    ``<name>[-<label>]-bot<shard>.log``."""
    backend, procs = CONFIGS[name]
    schema: str | None = None
    with tempfile.TemporaryDirectory(prefix="herdprocs-") as tmp:
        database: str | Path = Path(tmp) / "bench.sqlite3"
        if backend == "postgres":
            schema, database = await new_schema(pg, "herdbot_b_")
        profile_to = (str(o.profile_dir / name) if o.profile_dir is not None
                      and o.profile_rate in rates else None)
        bench = ProcessCapacityBench(Path(tmp), database, procs, checkout=o.checkout,
                                     profile_to=profile_to, bot_nice=o.bot_nice,
                                     pinning=o.pinning)
        bench.tries = o.tries
        bench.bot_env = o.bot_env
        try:
            return await bench.run(rates, warmup, window, profile_rate=o.profile_rate,
                                   burst=burst)
        finally:
            if o.bot_logs is not None:
                part = name if label is None else f"{name}-{label}"
                for log in Path(tmp).glob("bot*.log"):
                    shutil.copyfile(log, o.bot_logs / f"{part}-{log.name}")
            if schema is not None:
                await drop_schemas(pg, [schema])


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.procs``: print the rows and write them as JSON (``--out``)."""
    ap = argparse.ArgumentParser(prog="python -m bench.procs")
    ap.add_argument("--rates", default="5,10", help="offered moves/s, comma-separated")
    ap.add_argument("--configs", default="sqlite,pg1,pg2")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--window", type=float, default=20.0)
    ap.add_argument("--out", default="bench/procs.json")
    ap.add_argument("--checkout", type=Path, default=None,
                    help="run the bot processes from this checkout (its .venv if any)")
    ap.add_argument("--burst", default=None, metavar="BASE,PEAK,SECONDS",
                    help="after the rates: BASE moves/s, PEAK for SECONDS, BASE again; "
                         "click-to-table p99 by 5 s from the burst's end")
    ap.add_argument("--profile-bot", type=Path, default=None, metavar="DIR",
                    help="profile the bot processes over --profile-rate's window (pyinstrument; "
                         "BENCH_PROFILE_CLOCK=cpu, none or refuse: see bench/botprofile.py)")
    ap.add_argument("--profile-rate", type=float, default=None)
    ap.add_argument("--bot-nice", type=int, default=0, metavar="N",
                    help="run the bot processes with nice -n N: the harness (Discord and the "
                         "players) gets the cores first and offers the load as scheduled")
    ap.add_argument("--tries", type=int, default=TRIES, metavar="N",
                    help=f"a player refused as busy tries one decision N times in all "
                         f"(default {TRIES}; 1: no retry)")
    ap.add_argument("--bot-env", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting for every bot process, e.g. HERDBOT_EVENT_LOOP=asyncio "
                         "(repeatable)")
    ap.add_argument("--bot-logs", type=Path, default=None, metavar="DIR",
                    help="keep the bot processes' logs in DIR (<config>-bot<shard>.log; with "
                         "--fresh <config>-<rate or burst>-bot<shard>.log)")
    ap.add_argument("--fresh", action="store_true",
                    help="each rate (and the burst) from new bot processes, database and "
                         "games, so that the rows meet the same mix of game phases")
    ap.add_argument("--quiet-probe", type=float, default=None, metavar="MS",
                    help="with --fresh: run a rate again when its CPU probe p90 is over MS "
                         "(its window met a slower CPU), up to --quiet-tries runs")
    ap.add_argument("--before", type=Path, default=None, metavar="CHECKOUT",
                    help="with --fresh: run each rate (and the burst) with the bot from this "
                         "checkout too, just before this one's, and print its table as well")
    ap.add_argument("--quiet-tries", type=int, default=3, metavar="N",
                    help="runs of one rate at most with --quiet-probe (default 3)")
    add_pinning_options(ap)
    args = ap.parse_args(argv)
    if args.quiet_probe is not None and not args.fresh:
        ap.error("--quiet-probe needs --fresh")
    if args.before is not None and not args.fresh:
        ap.error("--before needs --fresh")
    if args.before is not None and args.profile_bot is not None:
        ap.error("--before and --profile-bot: profile one checkout at a time")
    for option, checkout in (("--before", args.before), ("--checkout", args.checkout)):
        if checkout is not None and not (checkout / "bot" / "__main__.py").is_file():
            ap.error(f"{option} {checkout}: not a herdbot checkout (no bot/__main__.py)")
    if args.quiet_tries < 1:
        ap.error(f"--quiet-tries {args.quiet_tries}: use 1 or more")
    bot_env = dict(item.partition("=")[::2] for item in args.bot_env)
    try:
        pinning = pinning_from_options(args.bot_cpus, args.pin_postgres, args.bot_share,
                                       args.bot_share_period, args.bot_share_steady)
    except (OSError, ValueError) as e:
        ap.error(str(e))
    rates = tuple(sorted(float(r) for r in args.rates.split(","))) if args.rates else ()
    burst = None
    if args.burst:
        base, peak, secs = (float(x) for x in args.burst.split(","))
        burst = (base, peak, secs)
    for folder in (args.profile_bot, args.bot_logs):
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
    options = Options(checkout=args.checkout, profile_rate=args.profile_rate,
                      profile_dir=args.profile_bot, burst=burst, bot_nice=args.bot_nice,
                      tries=args.tries, pinning=pinning, bot_env=bot_env,
                      bot_logs=args.bot_logs, fresh=args.fresh,
                      quiet_probe_ms=args.quiet_probe, quiet_tries=args.quiet_tries,
                      before=args.before)
    result = asyncio.run(bench_processes(args.configs.split(","), rates, args.warmup,
                                         args.window, options))
    Path(args.out).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
