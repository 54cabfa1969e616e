"""bench.botprocs: the CPU list of ``--bot-cpus``, the server of ``--pin-postgres``, and
pinning a process with its threads and children."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest

from bench.botprocs import (
    CpuQuota,
    Pinning,
    off_mask,
    parse_cpus,
    pin_tree,
    pinning_from_options,
    postmaster_pid,
    tree,
)


def test_a_cpu_list_takes_single_cpus_and_ranges():
    assert parse_cpus("1", allowed={0, 1}) == frozenset({1})
    assert parse_cpus("2-3,0", allowed=range(4)) == frozenset({0, 2, 3})
    assert parse_cpus(" 1, 2 ", allowed=range(4)) == frozenset({1, 2})


@pytest.mark.parametrize(("text", "says"), [
    ("", "not a CPU list"), ("a", "not a CPU list"), ("1-", "not a CPU list"),
    ("3-1", "runs backwards"), ("2", "CPU(s) [2] not available"),
    ("0-1", "every available CPU"), ("1,0", "every available CPU")])
def test_a_cpu_list_that_leaves_the_harness_nothing_or_is_not_one_is_refused(text, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        parse_cpus(text, allowed={0, 1})


def test_the_server_is_read_from_its_data_directory_or_given_as_a_pid(tmp_path):
    (tmp_path / "postmaster.pid").write_text("15727\n/tmp/pg/data\n1796471222\n")
    assert postmaster_pid(str(tmp_path)) == 15727
    assert postmaster_pid("4242") == 4242
    (tmp_path / "postmaster.pid").write_text("\n")
    with pytest.raises(ValueError, match="does not start with a process id"):
        postmaster_pid(str(tmp_path))
    with pytest.raises(OSError):
        postmaster_pid(str(tmp_path / "missing"))


def test_no_cpus_no_pinning_and_a_server_needs_cpus():
    assert pinning_from_options(None, None) is None
    with pytest.raises(ValueError, match="--pin-postgres and --bot-share need --bot-cpus"):
        pinning_from_options(None, "4242")
    with pytest.raises(ValueError, match="--pin-postgres and --bot-share need --bot-cpus"):
        pinning_from_options(None, None, 0.5)


@pytest.mark.parametrize("share", [0.0, -1.0, 9.0])
def test_a_share_outside_a_cpu_fraction_is_refused(share):
    with pytest.raises(ValueError, match="use a fraction of a CPU from 0.01 to 8"):
        CpuQuota(share)


@pytest.mark.parametrize("period_ms", [0.5, 1001.0])
def test_a_period_outside_one_ms_to_one_s_is_refused(period_ms):
    with pytest.raises(ValueError, match="use 1 to 1000 ms"):
        CpuQuota(0.3, period_ms)


def test_a_share_of_a_period_under_one_ms_is_refused_not_rounded_up():
    with pytest.raises(ValueError, match="--bot-share 0.3 of 2 ms is under the kernel's "
                                         "least quota, 1 ms: use a longer"):
        CpuQuota(0.3, 2)


def test_a_period_needs_a_share():
    with pytest.raises(ValueError, match="--bot-share-period needs --bot-share"):
        pinning_from_options("1", None, None, 10)


class _Quota:
    share, period_ms, steady_ms = 0.3, 10.0, None


def test_the_pinning_names_the_quotas_period():
    pinning = Pinning(frozenset({0}), None, _Quota())  # type: ignore[arg-type]
    assert pinning.describe()["bot_share"] == 0.3
    assert pinning.describe()["bot_share_period_ms"] == 10.0
    assert pinning.describe()["bot_share_steady_ms"] is None
    assert pinning.header().endswith(", the bot processes capped at 0.3 CPU (per 10 ms)")


def test_the_pinning_names_a_steady_quotas_loop_time():
    quota = _Quota()
    quota.steady_ms = 21.0  # type: ignore[assignment]
    pinning = Pinning(frozenset({0}), None, quota)  # type: ignore[arg-type]
    assert pinning.describe()["bot_share_steady_ms"] == 21.0
    assert pinning.header().endswith(
        ", the bot processes capped at 0.3 CPU (per 10 ms) of steady speed (the quota "
        "scaled by the CPU probe's time over 21 ms)")


def test_a_steady_time_needs_a_share_and_is_over_zero():
    with pytest.raises(ValueError, match="--bot-share-steady needs --bot-share"):
        pinning_from_options("1", None, None, None, 21.0)
    with pytest.raises(ValueError, match="--bot-share-steady 0: use a loop time over 0 ms"):
        CpuQuota(0.3, steady_ms=0.0)


def test_a_steady_quota_whose_least_scale_is_under_one_ms_is_refused():
    with pytest.raises(ValueError, match="--bot-share 0.1 of 10 ms, scaled down to 0.5x, is "
                                         "under the kernel's least quota, 1 ms"):
        CpuQuota(0.1, 10, steady_ms=21.0)


@pytest.mark.parametrize(("loop_ms", "scale", "quota_us"),
                         [(21.0, 1.0, "30000"), (31.5, 1.5, "45000"), (84.0, 3.0, "90000"),
                          (7.0, 0.5, "15000")])
def test_a_steady_quota_follows_the_probes_time_within_its_scales(loop_ms, scale, quota_us):
    try:
        quota = CpuQuota(0.3, steady_ms=21.0)
    except OSError as exc:
        pytest.skip(f"no cgroup to cap CPU here: {exc}")
    try:
        assert quota.scale == 1.0
        assert quota.follow(loop_ms) == scale
        assert quota.scale == scale
        quota.reset()
        assert quota.scale == 1.0
        quota.follow(loop_ms)
        if (quota.path / "cpu.max").exists():
            assert (quota.path / "cpu.max").read_text().split() == [quota_us, "100000"]
        else:
            assert (quota.path / "cpu.cfs_quota_us").read_text().strip() == quota_us
    finally:
        quota.release()


def test_a_quota_without_a_steady_time_does_not_follow_the_probe():
    quota = _cgroup_or_skip(0.3)
    try:
        assert quota.follow(42.0) == 1.0
        path = quota.path / ("cpu.max" if (quota.path / "cpu.max").exists()
                             else "cpu.cfs_quota_us")
        assert path.read_text().split()[0] == "30000"
    finally:
        quota.release()


@pytest.mark.parametrize(("period_ms", "quota_us", "period_us"),
                         [(None, "30000", "100000"), (10, "3000", "10000"),
                          (1000, "300000", "1000000"), (3.5, "1050", "3500")])
def test_the_quota_is_its_share_of_each_period(period_ms, quota_us, period_us):
    try:
        pinning = pinning_from_options("0", None, 0.3, period_ms)
    except OSError as exc:
        pytest.skip(f"no cgroup to cap CPU here: {exc}")
    assert pinning is not None and pinning.quota is not None
    quota = pinning.quota
    try:
        if (quota.path / "cpu.max").exists():
            assert (quota.path / "cpu.max").read_text().split() == [quota_us, period_us]
        else:
            assert (quota.path / "cpu.cfs_quota_us").read_text().strip() == quota_us
            assert (quota.path / "cpu.cfs_period_us").read_text().strip() == period_us
        assert quota.period_ms == int(period_us) / 1000
    finally:
        quota.release()


def _cgroup_or_skip(share: float) -> CpuQuota:
    try:
        return CpuQuota(share)
    except OSError as exc:
        pytest.skip(f"no cgroup to cap CPU here: {exc}")


def test_a_quota_holds_a_spinning_process_to_its_share():
    quota = _cgroup_or_skip(0.2)
    spin = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        quota.add(spin.pid)
        assert (quota.path / "cgroup.procs").read_text().split() == [str(spin.pid)]
        time.sleep(1.5)
        ticks = os.sysconf("SC_CLK_TCK")
        fields = open(f"/proc/{spin.pid}/stat").read().rsplit(")", 1)[1].split()
        used = (int(fields[11]) + int(fields[12])) / ticks  # utime + stime, seconds
        assert used <= 0.5  # at most 0.2 CPU over about 1.5 s (and its start-up)
        assert quota.throttled_s() > 0
    finally:
        spin.kill()
        spin.wait()
        quota.release()
    assert not quota.path.exists()


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to pin to one")
def test_pinning_reaches_a_processes_threads_and_children():
    cpu = min(os.sched_getaffinity(0))
    code = ("import subprocess, sys, threading, time\n"
            "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
            "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
            "print('up', flush=True)\ntime.sleep(60)\n")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None and parent.stdout.readline() == "up\n"
        time.sleep(0.1)
        pids = tree(parent.pid)
        assert len(pids) == 2
        assert off_mask(parent.pid, {cpu}) == 3  # two threads and the child's one
        assert off_mask(parent.pid, {cpu}, children=False) == 2
        assert pin_tree(parent.pid, {cpu}, children=False) == 2
        assert off_mask(parent.pid, {cpu}) == 1
        assert pin_tree(parent.pid, {cpu}) == 3
        assert off_mask(parent.pid, {cpu}) == 0
        assert [os.sched_getaffinity(p) for p in pids] == [{cpu}, {cpu}]
    finally:
        for p in reversed(tree(parent.pid)):
            os.kill(p, 9)
        parent.wait()
