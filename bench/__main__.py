"""``python -m bench [--quick] [--only SECTIONS] [--profile] [--memory]``.

Runs the sections (engine, render, store, startup, load), prints a table of the figures
against the targets, writes the full JSON to ``bench/out/bench-<mode>-<UTC time>.json``
and, in full mode, the summary ``bench/summary.json`` (committed). ``--quick`` finishes
in under two minutes; the full mode takes about ten.

``--only capacity`` runs the open-loop capacity bench (``bench/capacity.py``: the real
games, players thinking 5-15 s, moves arriving at each offered rate); it is not part of
the default sections (about 4 minutes). In full mode it writes its summary under the
``"capacity"`` key of ``bench/summary.json``, leaving the other keys as they are.

``--only ai`` times the Hard AI seats' decisions (``bench/ai.py``: CPU time per decision,
p50/p99 per game at 2 and 4 players); not a default section either. Hard-against-Normal
win rates: ``python -m bench.ai GAME --games N --players P``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import loadavg, machine, peak_rss_mb

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
SECTIONS = ("engine", "render", "store", "startup", "load")
#: Sections run only when named with ``--only``.
EXTRA_SECTIONS = ("capacity", "ai")

#: (name, limit, unit) of the targets.
TARGETS = {
    "ack_p99_500": (150.0, "ms"),
    # every table at every player count
    "render_p50": (25.0, "ms"),
    "render_png": (300.0, "KiB"),
    "commit_p50": (2.0, "ms"),
    "startup": (3.0, "s"),
    "rss_1000": (150.0, "MiB"),
    # floors (at least): random playouts per second on one core
    "playouts_llamas_alpacas": (300.0, "games/s"),
    "playouts_pacapaca": (1000.0, "games/s"),
    "playouts_unleashed": (50.0, "games/s"),
}

#: Targets that are floors (measured >= limit) rather than ceilings.
FLOORS = {"playouts_llamas_alpacas", "playouts_pacapaca", "playouts_unleashed"}

MODES: dict[str, dict[str, Any]] = {
    # engine s/config, render iterations, commits, load window s, load Ns
    "quick": {"engine_s": 0.5, "render_n": 8, "commits": 300, "load_s": 5.0,
              "games": (100, 500, 1000), "rates": (10, 40), "cap_warmup_s": 3.0,
              "cap_window_s": 8.0, "ai_games": 1},
    "full": {"engine_s": 5.0, "render_n": 60, "commits": 3000, "load_s": 30.0,
             "games": (100, 500, 1000), "rates": (10, 20, 40, 60, 80, 120),
             "cap_warmup_s": 5.0, "cap_window_s": 25.0, "ai_games": 4},
}


def check(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The targets with the measured value and ``ok`` (None when not measured)."""
    rows: list[dict[str, Any]] = []

    def add(name: str, what: str, value: float | None) -> None:
        limit, unit = TARGETS[name]
        ok = None if value is None else (value >= limit if name in FLOORS else value <= limit)
        rows.append({"target": name, "what": what, "limit": limit, "unit": unit,
                     "value": value, "ok": ok})

    load = {r["games"]: r for r in results.get("load", [])}
    add("ack_p99_500", "ack p99 at 500 games", load.get(500, {}).get("ack", {}).get("p99_ms"))
    render = [r for r in results.get("render", []) if r.get("status") == "ok"]
    worst = max(render, key=lambda r: r["render"]["p50_ms"], default=None)
    add("render_p50", "render p50, slowest table"
        + (f" ({worst['game']} {worst['players']}p)" if worst else ""),
        worst["render"]["p50_ms"] if worst else None)
    big = max(render, key=lambda r: r["png_kib"], default=None)
    add("render_png", "largest table PNG"
        + (f" ({big['game']} {big['players']}p)" if big else ""),
        big["png_kib"] if big else None)
    commit = results.get("store", {}).get("commit")
    add("commit_p50", "commit_action p50 (WAL)", commit["p50_ms"] if commit else None)
    start = results.get("startup")
    add("startup", "setup_hook with 10,000 games", start["setup_hook_s"] if start else None)
    add("rss_1000", "RSS at 1,000 games", load.get(1000, {}).get("rss_mib"))
    engine = results.get("engine", [])
    # The playout targets name no player count; 2 players (the count of the AI
    # targets) is checked, the other counts are in the engine table.
    for name, key, what in (
        ("playouts_llamas_alpacas", "llamas-alpacas", "random playouts/s, Llamas & Alpacas 2p"),
        ("playouts_pacapaca", "pacapaca", "random playouts/s, Alpaca Pacapaca 2p"),
        ("playouts_unleashed", "llamas-unleashed", "random playouts/s, Llamas Unleashed 2p"),
    ):
        rate = next((r["playouts_per_s"] for r in engine
                     if r["game"] == key and r["players"] == 2), None)
        add(name, what, rate)
    return rows


def fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 100 else f"{v:.0f}"
    return str(v)


def print_table(results: dict[str, Any]) -> None:
    """Print every section's rows and the targets."""
    out = sys.stdout.write
    if "engine" in results:
        out("\nengine (random playouts, one core; playouts/s = median of the rounds)\n")
        out(f"{'game':18}{'pl':>3}{'playouts/s':>12}{'best':>7}{'via apply':>11}{'act/game':>10}"
            f"{'apply p50 ms':>14}{'p99 ms':>9}\n")
        for r in results["engine"]:
            out(f"{r['game']:18}{r['players']:>3}{fmt(r['playouts_per_s']):>12}"
                f"{fmt(r['playouts_per_s_best']):>7}{fmt(r['apply_playouts_per_s']):>11}"
                f"{fmt(r['actions_per_playout']):>10}{fmt(r['apply']['p50_ms']):>14}"
                f"{fmt(r['apply']['p99_ms']):>9}\n")
    if "render" in results:
        out("\nrender (table PNG of a mid-game spectator view)\n")
        out(f"{'game':18}{'pl':>3}{'p50 ms':>9}{'p99 ms':>9}{'KiB':>7}{'cold ms':>9}\n")
        for r in results["render"]:
            if r.get("status") != "ok":
                out(f"{r['game']:18}{r['players']:>3}  {r['status']}\n")
                continue
            out(f"{r['game']:18}{r['players']:>3}{fmt(r['render']['p50_ms']):>9}"
                f"{fmt(r['render']['p99_ms']):>9}{fmt(r['png_kib']):>7}{fmt(r['cold_ms']):>9}\n")
    if "store" in results:
        c = results["store"]["commit"]
        out(f"\nstore: commit_action ({c['journal_mode']}, {c['state_bytes']} B state) "
            f"p50 {fmt(c['p50_ms'])} ms, p99 {fmt(c['p99_ms'])} ms over {c['n']}\n")
    if "startup" in results:
        s = results["startup"]
        out(f"\nstart-up: {s['games']} games ({s['active']} active, {s['actions']} actions, "
            f"{s['timers']} timers, {s['db_mib']} MiB): setup_hook {fmt(s['setup_hook_s'])} s "
            f"{s['phases_s']}; every active game's timers reconciled after "
            f"{fmt(s['timers_reconciled_s'])} s; process start to settled {fmt(s['process_s'])} s; "
            f"one full timer scan {fmt(s['timer_scan_ms'])} ms\n")
    if "capacity" in results:
        print_capacity(results["capacity"])
    if "ai" in results:
        out("\nai: Hard seat decision CPU time (thread time; one Hard seat, Normal elsewhere; "
            "decisions with one legal action not counted)\n")
        out(f"{'game':18}{'pl':>3}{'decisions':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}\n")
        for r in results["ai"]:
            out(f"{r['game']:18}{r['players']:>3}{r['n']:>10}{fmt(r['p50_ms']):>9}"
                f"{fmt(r['p99_ms']):>9}{fmt(r['max_ms']):>9}\n")
    if "load" in results:
        out("\nSTRESS TEST, closed loop: service under load (tiny game through the sandbox; "
            "clicks as fast as the bot answers; not a capacity figure)\n")
        out(f"{'games':>6}{'moves/s':>9}{'ack p50':>9}{'ack p99':>9}{'handled p50':>13}"
            f"{'late':>6}{'RSS MiB':>9}{'errors':>8}  loadavg\n")
        for r in results["load"]:
            out(f"{r['games']:>6}{fmt(r['moves_per_s']):>9}{fmt(r['ack']['p50_ms']):>9}"
                f"{fmt(r['ack']['p99_ms']):>9}{fmt(r['handled']['p50_ms']):>13}"
                f"{r['unacked_or_late']:>6}{fmt(r['rss_mib']):>9}{r.get('bot_errors', 0):>8}"
                f"  {r['loadavg']}\n")
            if "heap" in r:
                out(f"{'':6}live heap: {r['heap']}\n")
    out("\ntargets\n")
    for t in results["targets"]:
        mark = {True: "ok", False: "MISSED", None: "not measured"}[t["ok"]]
        sign = ">=" if t["target"] in FLOORS else "<="
        out(f"  {t['what']:52} {fmt(t['value']):>8} {t['unit']:7} {sign} {fmt(t['limit'])}  "
            f"{mark}\n")
    out(f"\nload average at the end: {results['loadavg_end']}\n")


def print_capacity(cap: dict[str, Any]) -> None:
    """The capacity bench's table (one row per offered rate) and its verdict."""
    out = sys.stdout.write
    out("\ncapacity, open loop (real games, 5-15 s think time; click->table = from the "
        "committing click to the new table its handling posted; 'no wait': moves after "
        "which no rules-timed wait (reaction window, negotiation) is pending; 'by token': "
        "p99 counting later writes made with the "
        "click's token by other clicks and timers)\n")
    out(f"{'offered':>8}{'variant':>15}{'games':>6}{'achieved':>9}{'p50 ms':>8}{'p99 ms':>8}"
        f"{'no wait':>8}{'by token':>9}"
        f"{'late':>5}{'missed':>7}{'bot ms':>7}{'main':>6}{'render':>7}{'procs':>6}{'jobs':>5}"
        f"{'db':>5}"
        f"{'sandbox':>8}{'bench':>6}{'KiB/game':>9}  loadavg\n")
    for r in cap["rates"]:
        c, cpu = r["click_to_table"], r["cpu_ms_per_move"]
        jobs = r.get("render_pool_jobs")  # pictures sent to the render pool, per move
        out(f"{r['offered_per_s']:>8}{r.get('variant') or '-':>15}{r['games']:>6}"
            f"{fmt(r['achieved_per_s']):>9}"
            f"{fmt(c['p50_ms']):>8}{fmt(c['p99_ms']):>8}"
            f"{fmt(r['click_to_table_no_rule_wait']['p99_ms']):>8}"
            f"{fmt(r['click_to_table_by_token']['p99_ms']):>9}{r['late_acks']:>5}"
            f"{r['arrivals_missed']:>7}{fmt(cpu['bot']):>7}{fmt(cpu['bot_main'] + cpu['loop']):>6}"
            f"{fmt(cpu['render_thread']):>7}{fmt(cpu.get('render_procs', 0.0)):>6}"
            f"{fmt(jobs['per_move']) if jobs else '-':>5}"
            f"{fmt(cpu['database_thread']):>5}"
            f"{fmt(cpu['sandbox']):>8}{fmt(cpu['bench']):>6}{fmt(r['rss_per_game_kib']):>9}"
            f"  {r['loadavg_end']}\n")
    for variant, top in (cap.get("max_rate_p99_ok_by_variant") or {}).items():
        out(f"  [{variant}] largest offered rate with click->table p99 <= 1 s: {top}/s\n")
    best = cap.get("max_rate_p99_ok")
    out(f"largest offered rate with click->table p99 <= 1 s (and >= 90% achieved): {best}/s; "
        f"target >= 60/s: {'met' if best is not None and best >= 60 else 'NOT met'}\n")
    if cap.get("profile_top"):
        out("bot-side profile (main thread, pyinstrument), top self time:\n")
        for row in cap["profile_top"]:
            out(f"  {row['share']:6.1%}  {row['where']}\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="under two minutes")
    ap.add_argument("--only", default=",".join(SECTIONS),
                    help=f"comma-separated sections of {', '.join(SECTIONS)}")
    ap.add_argument("--games", default="", help="load: comma-separated N (default 100,500,1000)")
    ap.add_argument("--rates", default="",
                    help="capacity: comma-separated offered moves/s (default 10,20,40,60,80,120)")
    ap.add_argument("--variants", default="",
                    help="capacity: run each rate once per way of drawing tables, alternating "
                         "(e.g. thread,process: before/after the render pool; see "
                         "bench.capacity.VARIANTS)")
    ap.add_argument("--profile-rate", type=float, default=None,
                    help="capacity: profile the phase at this rate with pyinstrument")
    ap.add_argument("--profile", action="store_true",
                    help="profile the 500-game load phase with pyinstrument (bench only)")
    ap.add_argument("--memory", action="store_true",
                    help="load: after each phase, estimate the Python objects retained by the "
                         "simulated Discord and by the bot")
    ap.add_argument("--no-summary", action="store_true", help="do not write bench/summary.json")
    ap.add_argument("--child-startup", metavar="DB", help=argparse.SUPPRESS)
    ap.add_argument("--child-load", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--child-capacity", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.child_startup:
        from bench.store import boot

        print(json.dumps(asyncio.run(boot(Path(args.child_startup)))))
        return 0

    mode = "quick" if args.quick else "full"
    cfg = MODES[mode]
    if args.child_capacity:
        return child_capacity(args, cfg)
    if args.child_load:
        from bench.load import bench_load

        profiler = None
        if args.profile:
            from pyinstrument import Profiler

            profiler = Profiler(interval=0.001, async_mode="disabled")
        games = tuple(int(x) for x in args.games.split(",")) if args.games else cfg["games"]
        rows = asyncio.run(bench_load(games, cfg["load_s"], profile=profiler,
                                      memory=args.memory))
        if profiler is not None and profiler.last_session is not None:
            OUT.mkdir(exist_ok=True)
            stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
            (OUT / f"profile-load-500-{stamp}.txt").write_text(
                profiler.output_text(unicode=False, color=False))
            (OUT / f"profile-load-500-{stamp}.html").write_text(profiler.output_html())
        print(json.dumps(rows))
        return 0
    sections = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(sections) - set(SECTIONS) - set(EXTRA_SECTIONS)
    if unknown:
        ap.error(f"unknown sections {sorted(unknown)}")
    results: dict[str, Any] = {"mode": mode, "machine": machine()}
    started = time.perf_counter()

    def log(msg: str) -> None:
        print(f"[{time.perf_counter() - started:6.1f}s] {msg}", flush=True)

    if "engine" in sections:
        from bench.engine import bench_engine

        log("engine")
        results["engine"] = bench_engine(cfg["engine_s"])
    if "render" in sections:
        from bench.render import bench_render

        log("render")
        results["render"] = bench_render(cfg["render_n"])
    if "store" in sections:
        from bench.store import bench_commit, sample_states

        log("store")
        states = sample_states()
        state = next((v for k, v in states.items() if "unleashed" in k),
                     next(iter(states.values())))
        results["store"] = {"commit": asyncio.run(bench_commit(cfg["commits"], state))}
    if "startup" in sections:
        from bench.store import bench_startup

        log("startup")
        results["startup"] = bench_startup()
    if "load" in sections:
        log("load (in a fresh process, so RSS holds only the bot and the simulated Discord)")
        cmd = [sys.executable, "-m", "bench", "--child-load"]
        cmd += ["--quick"] if args.quick else []
        cmd += ["--games", args.games] if args.games else []
        cmd += ["--profile"] if args.profile else []
        cmd += ["--memory"] if args.memory else []
        child = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=False,
                               timeout=3600)
        if child.returncode != 0:
            raise SystemExit(f"load child failed with {child.returncode}")
        lines = child.stdout.strip().splitlines()
        for line in lines[:-1]:
            print(line, flush=True)
        results["load"] = json.loads(lines[-1])
    if "capacity" in sections:
        log("capacity (open loop, in a fresh process)")
        cmd = [sys.executable, "-m", "bench", "--child-capacity"]
        cmd += ["--quick"] if args.quick else []
        cmd += ["--rates", args.rates] if args.rates else []
        cmd += ["--variants", args.variants] if args.variants else []
        if args.profile_rate is not None:
            cmd += ["--profile-rate", str(args.profile_rate)]
        # Stream the child's progress lines (one per rate); its last line is the JSON.
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) as proc:
            assert proc.stdout is not None
            last = ""
            for line in proc.stdout:
                if last:
                    print(last, end="", flush=True)
                last = line
        if proc.returncode != 0:
            print(last, end="", flush=True)
            raise SystemExit(f"capacity child failed with {proc.returncode}")
        results["capacity"] = json.loads(last)
    if "ai" in sections:
        from bench.ai import bench_ai

        log("ai (Hard seats' decision time)")
        results["ai"] = bench_ai(cfg["ai_games"])
    results["seconds"] = round(time.perf_counter() - started, 1)
    results["peak_rss_mib"] = round(peak_rss_mb(), 1)
    results["loadavg_end"] = loadavg()
    results["targets"] = check(results)

    OUT.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    path = OUT / f"bench-{mode}-{stamp}.json"
    path.write_text(json.dumps(results, indent=2))
    if (mode == "full" and not args.memory and not args.profile
            and set(sections) == set(SECTIONS) and not args.no_summary):
        summary = summarise(results)
        old = HERE / "summary.json"
        if old.exists() and "capacity" in json.loads(old.read_text()):
            summary["capacity"] = json.loads(old.read_text())["capacity"]
        (HERE / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    elif (mode == "full" and "capacity" in results and not args.no_summary
          and args.profile_rate is None and not args.rates and not args.variants):
        path_s = HERE / "summary.json"
        summary = json.loads(path_s.read_text()) if path_s.exists() else {}
        summary["capacity"] = summarise_capacity(results)
        path_s.write_text(json.dumps(summary, indent=2) + "\n")
    print_table(results)
    log(f"wrote {path.relative_to(HERE.parent)}")
    return 0


def child_capacity(args: argparse.Namespace, cfg: dict[str, Any]) -> int:
    """The capacity bench in this (fresh) process; prints progress, then one JSON line."""
    from bench.capacity import bench_capacity
    from bench.profiling import top_costs

    rates = tuple(float(x) for x in args.rates.split(",")) if args.rates else cfg["rates"]
    profiler = None
    if args.profile_rate is not None:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.001, async_mode="disabled")
    variants = tuple(v.strip() for v in args.variants.split(",") if v.strip())
    out = asyncio.run(bench_capacity(
        rates, cfg["cap_warmup_s"], cfg["cap_window_s"], profile=profiler,
        profile_rate=args.profile_rate, log=lambda m: print(m, flush=True),
        variants=variants))
    if profiler is not None and profiler.last_session is not None:
        OUT.mkdir(exist_ok=True)
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        rate = f"{args.profile_rate:g}"
        (OUT / f"profile-capacity-{rate}-{stamp}.txt").write_text(
            profiler.output_text(unicode=False, color=False))
        (OUT / f"profile-capacity-{rate}-{stamp}.html").write_text(profiler.output_html())
        profiler.last_session.save(str(OUT / f"profile-capacity-{rate}-{stamp}.pyisession"))
        out["profile_top"] = top_costs(profiler.last_session)
    print(json.dumps(out))
    return 0


def summarise_capacity(results: dict[str, Any]) -> dict[str, Any]:
    """The capacity section of the committed summary."""
    cap = results["capacity"]
    return {
        "date_utc": results["machine"]["date_utc"],
        "loadavg_start": results["machine"]["loadavg_start"],
        "loadavg_end": results["loadavg_end"],
        "max_rate_p99_ok": cap["max_rate_p99_ok"],
        "rss_connected_mib": cap["rss_connected_mib"],
        "rates": [{k: r[k] for k in ("offered_per_s", "games", "achieved_per_s", "late_acks",
                                     "arrivals_missed", "moves_errors", "rss_mib",
                                     "rss_per_game_kib", "loadavg_end")}
                  | {"click_p50_ms": r["click_to_table"]["p50_ms"],
                     "click_p99_ms": r["click_to_table"]["p99_ms"],
                     "click_p99_no_rule_wait_ms": r["click_to_table_no_rule_wait"]["p99_ms"],
                     "cpu_ms_per_move": r["cpu_ms_per_move"]}
                  for r in cap["rates"]],
    }


def summarise(results: dict[str, Any]) -> dict[str, Any]:
    """The committed summary: machine, targets and the main figures of each section."""
    return {
        "machine": results["machine"],
        "loadavg_end": results["loadavg_end"],
        "targets": results["targets"],
        "engine": [{k: r[k] for k in ("game", "players", "playouts_per_s")}
                   | {"apply_p50_ms": r["apply"]["p50_ms"], "apply_p99_ms": r["apply"]["p99_ms"]}
                   for r in results["engine"]],
        "render": [{"game": r["game"], "players": r["players"], "status": r["status"]}
                   | ({"p50_ms": r["render"]["p50_ms"], "p99_ms": r["render"]["p99_ms"],
                       "png_kib": r["png_kib"]} if r["status"] == "ok" else {})
                   for r in results["render"]],
        "commit": {k: results["store"]["commit"][k] for k in ("p50_ms", "p99_ms", "n")},
        "startup": {k: results["startup"][k] for k in (
            "games", "active", "setup_hook_s", "phases_s", "process_s", "timer_scan_ms")},
        "load": [{k: r[k] for k in ("games", "moves_per_s", "rss_mib", "unacked_or_late",
                                     "loadavg")}
                 | {"ack_p50_ms": r["ack"]["p50_ms"], "ack_p99_ms": r["ack"]["p99_ms"],
                    "handled_p50_ms": r["handled"]["p50_ms"]}
                 for r in results["load"]],
    }


if __name__ == "__main__":
    sys.exit(main())
