"""discord.py's rate-limit buckets swept at most once a minute (:func:`throttle_bucket_sweep`)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

#: How often at most discord.py's HTTP client sweeps its rate-limit buckets (seconds):
#: see :func:`throttle_bucket_sweep`.
BUCKET_SWEEP_S = 60.0


def throttle_bucket_sweep(http: Any, every_s: float = BUCKET_SWEEP_S,
                          clock: Callable[[], float] = time.monotonic) -> None:
    """Make ``http`` (discord.py's ``HTTPClient``) sweep its rate-limit buckets at most
    once every ``every_s`` seconds of ``clock``. discord.py keeps a bucket per route and
    channel (every game thread, every DM channel) and, once it holds 256, scans all of
    them for ones inactive 300 s each time it makes a new one: with thousands of channels
    that scan ran on most requests to a new channel. The buckets dropped are the same,
    at most ``every_s`` s later. Patches the instance only."""
    sweep = http._try_clear_expired_ratelimits
    last = -math.inf

    def throttled() -> None:
        nonlocal last
        now = clock()
        if now - last >= every_s:
            last = now
            sweep()

    http._try_clear_expired_ratelimits = throttled
