"""Drawing in a worker process and keeping pictures by their inputs (bot/render/pool.py):
the worker draws byte-for-byte what the thread draws, equal inputs give equal keys, the
cache forgets the least recently used picture, and a renderer's error comes back."""

from __future__ import annotations

import random
import time

import pytest

from bot.app import builtin_games
from bot.render.llamas_alpacas import render_table
from bot.render.pool import Job, PictureCache, RenderPool, draw_pickled

SPEC = builtin_games()["llamas-alpacas"]
NAMES = {"s0": "Maya", "s1": "Tomasz"}


def states(n: int) -> list:
    """The first ``n`` states of a seeded random 2-player game."""
    engine = SPEC.engine
    state = engine.new_game(["s0", "s1"], seed=3, options=engine.options_model())
    rand = random.Random(3)
    out = [state]
    while len(out) < n:
        seat = engine.pending(state).seats[0]
        state, _ = engine.apply(state, seat, rand.choice(engine.legal_actions(state, seat)))
        out.append(state)
    return out


def job(state) -> Job:
    return Job(render_table, (SPEC.engine.view(state, None),), {"names": dict(NAMES)})


def broken_renderer(view: object) -> bytes:
    raise ValueError("no picture today")


def test_equal_inputs_give_equal_keys_and_the_same_picture():
    first, second = states(2)
    assert job(first).key() == job(first).key()
    assert job(first).key() != job(second).key()
    assert Job(render_table, (SPEC.engine.view(first, None),), {"names": {"s0": "Bo", "s1": "Tomasz"}}).key() != job(first).key()
    # The key is the job itself: drawn from it, it is the same picture.
    assert draw_pickled(job(second).key()) == job(second).run()


def test_cache_forgets_the_least_recently_used_picture():
    cache = PictureCache(size=2)
    cache.put(b"a", b"A")
    cache.put(b"b", b"B")
    assert cache.get(b"a") == b"A"  # a is now the most recent
    cache.put(b"c", b"C")
    assert cache.get(b"b") is None
    assert cache.get(b"a") == b"A" and cache.get(b"c") == b"C"
    assert (len(cache), cache.hits, cache.misses) == (2, 3, 1)


def test_a_worker_process_draws_the_same_bytes_as_the_thread():
    pool = RenderPool(1, warm=("PIL.Image",))
    try:
        jobs = [job(s) for s in states(3)]
        futures = [pool.submit(j.key()) for j in jobs]
        # The worker is still starting (a fresh interpreter): none can have finished.
        assert pool.in_flight == 3  # the sandbox's settle waits while this is not 0
        drawn = [f.result(timeout=120) for f in futures]
        assert drawn == [j.run() for j in jobs]
        for _ in range(100):  # done callbacks run just after the results are set
            if pool.in_flight == 0:
                break
            time.sleep(0.01)
        assert pool.in_flight == 0
        assert len(pool.pids()) == 1
        with pytest.raises(ValueError, match="^no picture today$"):
            pool.submit(Job(broken_renderer, (None,)).key()).result(timeout=60)
    finally:
        pool.shutdown()
    assert pool.pids() == []


def test_a_pool_needs_a_worker():
    with pytest.raises(ValueError, match="^a render pool needs at least one worker$"):
        RenderPool(0)


def test_a_worker_ends_when_its_bot_is_killed(tmp_path):
    """A bot killed outright never shuts its pool down: the worker notices and exits."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = ("import os, sys\n"
              "from bot.render.pool import RenderPool\n"
              "pool = RenderPool(1)\n"
              "pool.start()\n"
              "print(pool.pids()[0], flush=True)\n"
              "os.kill(os.getpid(), 9)\n")
    child = subprocess.run([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                           timeout=120, check=False)
    assert child.returncode == -signal.SIGKILL
    worker = int(child.stdout.split()[0])
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and os.path.exists(f"/proc/{worker}"):
        try:
            with open(f"/proc/{worker}/stat") as fh:
                if fh.read().rsplit(")", 1)[1].split()[0] == "Z":  # exited, not yet reaped
                    break
        except FileNotFoundError:
            break
        time.sleep(0.2)
    else:
        assert not os.path.exists(f"/proc/{worker}"), "the render worker outlived its bot"
