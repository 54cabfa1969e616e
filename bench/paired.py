"""``python -m bench.paired --checkout DIR [--configs sqlite,pg1] [--rates 20] [--rounds 3]
[bench.procs options ...]``: bot CPU per move of two versions, measured side by side.

Each round runs, per configuration and rate, two :mod:`bench.procs` at once with the same
options: one with the bot processes from ``--checkout`` (``before``), one from this tree
(``after``). Whatever else loads this shared machine during a pair loads both alike, so
their ratio holds from round to round where figures of runs made one after the other do
not. Both run on the same cores: keep the sum of the two loads well under the machine
(on 2 cores, 20 moves/s each). PostgreSQL configurations need
``HERDBOT_BENCH_DATABASE_URL``; each run makes its own schema there.

Printed per round, configuration and rate: each version's achieved moves/s and bot CPU per
move (ms), and after / before; then the median ratio. A row where either run did not
keep up (:func:`keeps_up`) is marked ``!`` and left out of the median: its ratio compares
saturated runs. Moves whose driver failed are not counted. Exit status 1 when a run
failed (the other pairs still run); 2 for ``--out``, ``--bot-logs`` or ``--profile-bot``,
which each run of a pair needs for its own.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def procs_argv(configs: str, rates: str, out: Path, extra: Sequence[str],
               checkout: str | None = None) -> list[str]:
    """The command line of one :mod:`bench.procs` run (``checkout``: its bot's tree)."""
    argv = [sys.executable, "-m", "bench.procs", "--configs", configs, "--rates", rates,
            "--out", str(out), *extra]
    return [*argv, "--checkout", checkout] if checkout else argv


def rows_of(result: dict[str, Any]) -> dict[tuple[str, float], dict[str, Any]]:
    """(configuration, offered moves/s) -> its rate row, from a ``bench.procs`` JSON."""
    return {(config, row["offered_per_s"]): row
            for config, runs in result.items() for row in runs.get("rates", [])}


def keeps_up(row: dict[str, Any]) -> bool:
    """True when the run kept up: every arrival offered, no move refused as busy, and
    click-to-table p99 under 1 s (``p99_ok``)."""
    return (not row.get("arrivals_missed") and not row.get("moves_busy")
            and bool(row.get("p99_ok", True)))


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """One line per configuration and rate both runs have: their achieved rate and bot
    CPU per move, ``ratio`` (after / before; ``None`` when before's is 0) and ``ok``
    (both kept up)."""
    mine = rows_of(after)
    out = []
    for key, b in rows_of(before).items():
        a = mine.get(key)
        if a is None:
            continue
        cpu_b, cpu_a = b["bot_cpu_ms_per_move"], a["bot_cpu_ms_per_move"]
        out.append({"config": key[0], "offered": key[1],
                    "before": (b["achieved_per_s"], cpu_b),
                    "after": (a["achieved_per_s"], cpu_a),
                    "ratio": round(cpu_a / cpu_b, 3) if cpu_b else None,
                    "ok": keeps_up(b) and keeps_up(a)})
    return out


def line(round_no: int, c: dict[str, Any]) -> str:
    """A printed row of :func:`compare`."""
    ratio = "-" if c["ratio"] is None else f"{c['ratio']:.3f}"
    return (f"{round_no:>5} {c['config']:<7} {c['offered']:>7g} {c['before'][0]:>8g} "
            f"{c['before'][1]:>9.2f} {c['after'][0]:>8g} {c['after'][1]:>9.2f} "
            f"{ratio:>6}{'' if c['ok'] else ' !'}")


def medians(lines: list[dict[str, Any]]) -> dict[tuple[str, float], float]:
    """(configuration, offered) -> the median ratio over the rounds' lines that kept up."""
    by: dict[tuple[str, float], list[float]] = {}
    for c in lines:
        if c["ok"] and c["ratio"] is not None:
            by.setdefault((c["config"], c["offered"]), []).append(c["ratio"])
    return {k: round(statistics.median(v), 3) for k, v in by.items()}


#: bench.procs options a pair cannot share: each run gets its own.
OWN_OPTIONS = ("--out", "--bot-logs", "--profile-bot")


def run_pair(config: str, rate: str, extra: Sequence[str], checkout: str, tmp: Path,
             tag: str) -> tuple[dict[str, Any], dict[str, Any]] | str:
    """Both versions' ``bench.procs`` runs of one configuration and rate, started together
    (their stderr kept in files in ``tmp``): their results (before, after), or why one
    failed."""
    outs = {v: tmp / f"{v}-{tag}.json" for v in ("before", "after")}
    errs = {v: tmp / f"{v}-{tag}.err" for v in ("before", "after")}
    runs = {}
    for v in ("before", "after"):
        with errs[v].open("w") as err:
            runs[v] = subprocess.Popen(
                procs_argv(config, rate, outs[v], extra, checkout if v == "before" else None),
                stdout=subprocess.DEVNULL, stderr=err)
    for v, proc in runs.items():
        if proc.wait() != 0 or not outs[v].exists():
            said = errs[v].read_text().strip()[-500:]
            return f"the {v} run failed (exit {proc.returncode}): {said}"
    before, after = (json.loads(outs[v].read_text()) for v in ("before", "after"))
    return before, after


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.paired",
        description="Bot CPU per move of two versions, measured side by side: per round, "
                    "configuration and rate, two bench.procs runs at once.",
        epilog="Other options go to each bench.procs run (python -m bench.procs --help), "
               "except --out, --bot-logs and --profile-bot.")
    parser.add_argument("--checkout", required=True, help="the tree of the 'before' bot")
    parser.add_argument("--configs", default="sqlite",
                        help="sqlite, pg1, pg2, comma-separated (default sqlite)")
    parser.add_argument("--rates", default="20",
                        help="offered moves/s, comma-separated (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="default 3")
    args, extra = parser.parse_known_args(argv)
    shared = [o for o in extra if o.split("=")[0] in OWN_OPTIONS]
    if shared:
        parser.error(f"{', '.join(shared)}: each run of a pair has its own")
    if (any(c.startswith("pg") for c in args.configs.split(","))
            and not os.environ.get("HERDBOT_BENCH_DATABASE_URL", "").strip()):
        parser.error(f"{args.configs} needs HERDBOT_BENCH_DATABASE_URL (a PostgreSQL "
                     "database the bench may make schemas in)")
    print(f"{'':>5} {'':<7} {'offered':>7} {'before':>8} {'':>9} {'after':>8}")
    print(f"{'round':>5} {'config':<7} {'moves/s':>7} {'moves/s':>8} {'ms/move':>9} "
          f"{'moves/s':>8} {'ms/move':>9} {'ratio':>6}")
    lines: list[dict[str, Any]] = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="herdbot-paired-") as tmp:
        for n in range(1, args.rounds + 1):
            for config in args.configs.split(","):
                for rate in args.rates.split(","):
                    got = run_pair(config, rate, extra, args.checkout, Path(tmp),
                                   f"{n}-{config}-{rate}")
                    if isinstance(got, str):
                        print(f"round {n}, {config} at {rate}/s: {got}", file=sys.stderr)
                        failed = True
                        continue
                    for c in compare(*got):
                        print(line(n, c), flush=True)
                        lines.append(c)
    for (config, offered), ratio in medians(lines).items():
        print(f"median ratio {config} {offered:g}/s: {ratio:.3f}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
