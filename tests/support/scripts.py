"""What the test scripts run as their own processes (the kill-restart runs) share."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from typing import NoReturn


def run_and_exit(body: Callable[[], object]) -> NoReturn:
    """Run ``body`` and leave the process at once: status 0, or 1 with the traceback on
    stderr when it raised (aiosqlite's worker thread would keep a failed run alive)."""
    try:
        body()
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
    sys.stdout.flush()
    os._exit(0)
