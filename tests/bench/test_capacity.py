"""The open-loop capacity bench (``bench/capacity.py``): its schedule, its CPU accounting,
and one short run of the real games through the sandbox."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bench import capacity, cpu, schedule
from bench.capacity import bench_capacity
from bench.cpu import CpuSplit
from bench.profiling import area
from bench.schedule import Arrivals


async def test_an_arrival_goes_to_the_longest_ready_player():
    arrivals = Arrivals(seed=1)
    first = asyncio.ensure_future(arrivals.ticket())
    second = asyncio.ensure_future(arrivals.ticket())
    third = asyncio.ensure_future(arrivals.ticket())
    await asyncio.sleep(0)
    first.cancel()  # a player who left: skipped, not handed the arrival
    await asyncio.sleep(0)
    assert arrivals.hand(12.5) is True
    assert await second == 12.5
    assert third.done() is False
    assert arrivals.hand(13.0) is True
    assert await third == 13.0
    assert arrivals.hand(14.0) is False  # nobody ready: the caller counts it as missed


async def test_the_schedule_is_poisson_at_the_rate_and_never_waits_for_players():
    # Nobody takes the arrivals: the schedule still offers them all, each one missed.
    rate, span = 400.0, 0.25
    arrivals = Arrivals(seed=7)
    await arrivals.run(rate, time.perf_counter() + span)
    rand, t, expected = random.Random(7), 0.0, 0
    while True:
        t += rand.expovariate(rate)
        if t >= span:
            break
        expected += 1
    assert arrivals.offered == expected
    assert arrivals.missed == expected
    assert len(arrivals.lag) == expected


def test_cpu_split_charges_a_block_to_its_category():
    split = CpuSplit()
    with split.charged("sandbox"):
        end = time.thread_time() + 0.02
        while time.thread_time() < end:
            pass
    snap = split.snapshot()
    assert snap["sandbox"] >= 0.02
    assert snap["bench"] == 0.0
    assert split.cat == "loop"


def test_area_names_the_part_of_the_program():
    assert area("/w/bot/sandbox/rest.py") == "sandbox"
    assert area("/w/bench/capacity.py") == "bench"
    assert area("/v/lib/python3.11/site-packages/discord/http.py") == "discord.py"
    assert area("/v/lib/python3.11/site-packages/PIL/Image.py") == "PIL"
    assert area("/w/bot/render/table.py") == "bot.render"
    assert area("/w/bot/store/store.py") == "bot.store"
    assert area("/w/cogs/pacapaca.py") == "cogs"


@pytest.mark.filterwarnings("ignore::ResourceWarning")
async def test_a_short_run_drives_the_three_real_games_without_errors(monkeypatch):
    monkeypatch.setattr(capacity, "GAMES_PER_RATE", 12.0)
    logged: list[str] = []
    out = await bench_capacity((2.0,), warmup=0.5, window=3.0, log=logged.append)
    (row,) = out["rates"]
    assert row["games"] == 24
    assert row["active_games"] == 24
    assert out["bot_errors"] == {}
    assert out["driver_errors"] == {}
    assert row["late_acks"] == 0
    assert row["moves_errors"] == 0
    assert row["moves"] > 0
    assert row["click_to_table"]["n"] == row["moves"]
    assert row["click_to_table_by_token"]["n"] == row["moves"]
    assert row["click_to_table_no_rule_wait"]["n"] + sum(
        row["moves_leaving_rule_wait"].values()) == row["moves"]
    assert row["cpu_ms_per_move"]["bot"] > 0
    assert logged[0].startswith("  rate 2.0/s: 24 games, achieved ")


@pytest.mark.filterwarnings("ignore::ResourceWarning")
async def test_variants_alternate_per_rate_and_switch_how_tables_are_drawn(monkeypatch):
    monkeypatch.setattr(capacity, "GAMES_PER_RATE", 6.0)
    logged: list[str] = []
    out = await bench_capacity((2.0, 1.0), warmup=0.5, window=2.0, log=logged.append,
                               variants=("thread", "process"))
    rows = out["rates"]
    assert [(r["offered_per_s"], r["variant"]) for r in rows] == [
        (1.0, "thread"), (1.0, "process"), (2.0, "process"), (2.0, "thread")]
    assert [r["pictures_kept"] is None for r in rows] == [True, False, False, True]
    assert all(r["render_procs_rss_mib"] > 0 for r in rows)
    # What each variant sent to the render pool, counted exactly (not the worker's CPU,
    # which is no such count: an idle worker still runs, its parent watch wakes every
    # second). The thread variant sends nothing in a whole phase; the process variant
    # sends every picture it does not keep (at 2/s at least the first tables of the 6
    # games set up then).
    jobs = {(r["offered_per_s"], r["variant"]): r["render_pool_jobs"] for r in rows}
    kept = {(r["offered_per_s"], r["variant"]): r["pictures_kept"] for r in rows}
    none = {"phase": 0, "window": 0, "per_move": 0.0}
    assert [jobs[1.0, "thread"], jobs[2.0, "thread"]] == [none, none]
    process = [(1.0, "process"), (2.0, "process")]
    assert [jobs[k]["phase"] for k in process] == [kept[k]["misses"] for k in process]
    assert kept[2.0, "process"]["misses"] >= 6
    assert out["bot_errors"] == {} and out["driver_errors"] == {}
    assert sorted(out["max_rate_p99_ok_by_variant"]) == ["process", "thread"]
    assert logged[0].startswith("  rate 1.0/s [thread]: 6 games, achieved ")


async def test_an_unknown_variant_is_refused_before_anything_runs():
    with pytest.raises(KeyError, match="unknown variants \\['gpu'\\]; known: "
                                       "\\['process', 'process-nokeep', 'thread', 'thread\\+keep'\\]"):
        await bench_capacity((1.0,), variants=("thread", "gpu"))


class _Click:
    """An interaction as the bench's hooks leave it: its writes (time, public, channel,
    own, by_token)."""

    def __init__(self, writes):
        self.bench_writes = writes


class _Bench:
    ATTRIBUTION = "own"


def test_a_moves_table_is_the_last_public_write_its_own_handling_made():
    # The click's own handling posted the table (1.0) and a private line (1.1); 13 s later
    # another member's click retired that table through this click's token: not its table.
    mv = schedule.Move("llamas-alpacas", t_sched=0.9, t_commit=0.9)
    mv.its = [_Click([(1.0, True, 7, True, True), (1.1, False, 7, True, True),
                      (14.0, True, 7, False, True)])]
    capacity.CapacityBench.table_time(_Bench(), mv)  # type: ignore[arg-type]
    assert (mv.t_table, mv.public, mv.t_table_token) == (1.0, True, 14.0)


def test_a_move_with_only_private_own_writes_takes_its_last_one():
    mv = schedule.Move("pacapaca", t_sched=0.0, t_commit=0.0)
    mv.its = [_Click([(0.5, False, 9, True, True), (0.7, False, 9, True, True),
                      (6.0, True, 7, False, True)])]
    capacity.CapacityBench.table_time(_Bench(), mv)  # type: ignore[arg-type]
    assert (mv.t_table, mv.public, mv.t_table_token) == (0.7, False, 6.0)


def test_the_bench_across_processes_counts_writes_by_token():
    from bench.procs_bench import ProcessCapacityBench

    mv = schedule.Move("llamas-unleashed", t_sched=0.0, t_commit=0.0)
    mv.its = [_Click([(0.2, True, 7, False, True), (0.4, True, 7, False, True)])]
    capacity.CapacityBench.table_time(ProcessCapacityBench, mv)  # type: ignore[arg-type]
    assert (mv.t_table, mv.public, mv.t_table_token) == (0.4, True, 0.4)


def test_procs_cpu_reads_a_processes_run_time_finer_than_a_clock_tick():
    # A child burns 30 ms of CPU, prints its own CPU clock and sleeps: the bench reads the
    # same time from outside, not rounded down to the 10 ms ticks of /proc/<pid>/stat
    # (which made an idle render worker gain 10 ms in 4 windows of 2.5 s out of 400).
    import subprocess
    import sys

    code = ("import time\nend = time.process_time() + 0.03\n"
            "while time.process_time() < end: pass\n"
            "print(time.process_time(), flush=True)\ntime.sleep(60)\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        own = float(child.stdout.readline())
        time.sleep(0.05)
        seen = cpu.procs_cpu([child.pid])
    finally:
        child.kill()
        child.wait()
    assert own <= seen < own + 0.005
    assert cpu.procs_cpu([child.pid]) == 0.0  # gone: counts 0


class _PoolBench:
    """The part of a CapacityBench that counts and waits for render-pool jobs."""

    def __init__(self, pool):
        self.pool, self.pool_jobs = pool, []


async def test_the_bench_counts_what_is_sent_to_the_pool_and_waits_until_it_is_drawn():
    from bot.render.pool import Job, shared_pool

    pool = shared_pool(1)
    bench = _PoolBench(pool)
    undo = capacity.CapacityBench.count_pool_jobs(bench)  # type: ignore[arg-type]
    try:
        first = pool.submit(Job(time.sleep, (0.3,)).key())
        waited = await capacity.CapacityBench.drain_pool(bench, 30.0)  # type: ignore[arg-type]
        assert (first.done(), pool.in_flight, len(bench.pool_jobs)) == (True, 0, 1)
        assert waited >= 0.25
        # The wait has a limit: a job still running then is left in flight.
        slow = pool.submit(Job(time.sleep, (1.0,)).key())
        waited = await capacity.CapacityBench.drain_pool(bench, 0.1)  # type: ignore[arg-type]
        assert (slow.done(), pool.in_flight, len(bench.pool_jobs)) == (False, 1, 2)
        assert waited < 0.9
        await capacity.CapacityBench.drain_pool(bench, 30.0)  # type: ignore[arg-type]
    finally:
        undo()
    assert "submit" not in vars(pool)  # the shared pool is itself again
    pool.submit(Job(time.sleep, (0.0,)).key()).result(timeout=30)
    assert len(bench.pool_jobs) == 2


def test_thread_cpu_reads_each_threads_run_time_finer_than_a_clock_tick():
    # A thread named like herdbot's render thread burns 30 ms and reports its own CPU
    # clock, then waits: the bench's "render" role reads the same time, not rounded down
    # to the 10 ms ticks of /proc/self/task/<tid>/stat.
    import threading

    own: list[float] = []
    done = threading.Event()

    def burn():
        end = time.thread_time() + 0.03
        while time.thread_time() < end:
            pass
        own.append(time.thread_time())
        done.wait(30)

    worker = threading.Thread(target=burn, name="herdbot-render-test")
    worker.start()
    try:
        while not own:
            time.sleep(0.01)
        seen = cpu.thread_cpu()["render"]
    finally:
        done.set()
        worker.join()
    assert own[0] <= seen < own[0] + 0.005
