"""Run ``herdbot run`` under a pyinstrument profiler that the bench switches on and off.

Usage (what :mod:`bench.procs` starts with ``--profile-bot``)::

    python bench/botprofile.py OUT -m bot run

runs ``python -m bot run`` in this process; SIGUSR1 starts sampling the main thread
(every thread's asyncio work runs there), SIGUSR2 stops it and writes ``OUT.txt`` (the
call tree), ``OUT.json`` (:func:`bench.profiling.top_costs`-shaped rows: self time by
function and by part of the program) and ``OUT.pyisession``. Run as a file, not a module,
so that it works whatever checkout the bot is imported from (``PYTHONPATH``).
"""

from __future__ import annotations

import json
import runpy
import signal
import sys
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


def main() -> None:
    if not sys.argv[2:] or sys.argv[2] != "-m":
        raise SystemExit("usage: python bench/botprofile.py OUT -m MODULE [ARGS...]")
    out = sys.argv[1]
    module, args = sys.argv[3], sys.argv[4:]
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(HERE)]
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.001, async_mode="disabled")
    state = {"on": False}

    def start(signum: int, frame: Any) -> None:
        if not state["on"]:
            state["on"] = True
            profiler.start()

    def stop(signum: int, frame: Any) -> None:
        if not state["on"]:
            return
        state["on"] = False
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
