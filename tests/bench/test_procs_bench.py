"""bench.procs_bench: the bots' CPU at steady speed, each interval's CPU divided by the
scale of the quota in it."""

from __future__ import annotations

from bench.procs_bench import steady_cpu


def test_steady_cpu_divides_each_interval_by_the_scale_at_its_start():
    cpu = [(0.0, 0.0), (1.0, 0.3), (2.0, 0.75), (3.0, 1.35), (4.0, 1.65)]
    scales = [(0.0, 1.0), (1.0, 1.5), (2.0, 2.0), (3.0, 1.0), (4.0, 1.0)]
    # In [1, 3]: 0.45 at scale 1.5 and 0.6 at scale 2: 0.3 + 0.3 at steady speed.
    steady, scale = steady_cpu(cpu, scales, 1.0, 3.0)
    assert round(steady, 9) == 0.6 and scale == 1.75
    steady, scale = steady_cpu(cpu, scales, 0.0, 4.0)
    assert round(steady, 9) == 1.2 and scale == 1.38


def test_steady_cpu_spans_the_samples_nearest_the_window_as_the_raw_cpu_does():
    cpu = [(0.0, 0.0), (0.25, 0.1), (0.5, 0.2), (0.75, 0.3), (1.0, 0.4)]
    scales = [(0.0, 2.0), (0.25, 2.0), (0.5, 1.0), (0.75, 1.0), (1.0, 1.0)]
    # Window 0.2-0.9: from the sample at 0.25 to the one at 1.0.
    steady, scale = steady_cpu(cpu, scales, 0.2, 0.9)
    assert round(steady, 9) == 0.25 and scale == 1.33


def test_steady_cpu_counts_scale_one_without_a_scale_and_nothing_past_the_samples():
    assert steady_cpu([(0.0, 0.0), (1.0, 0.4)], [], 0.0, 1.0) == (0.4, 1.0)
    assert steady_cpu([(0.0, 0.0), (1.0, 0.4)], [], 5.0, 9.0) == (0.0, 1.0)
    assert steady_cpu([], [], 0.0, 1.0) == (0.0, 1.0)
