"""The figures of one capacity phase: when each move's table showed, the per-rate row
(rates, latencies, late acknowledgements, CPU per move) and its one-line summary."""

from __future__ import annotations

import time
from typing import Any

from bench.common import loadavg, pct, summary_ms
from bench.schedule import Game, Move
from bot.sandbox.drivers import refused_busy

#: A click-to-new-table time counts as "fast" under this.
P99_LIMIT_S = 1.0
#: Discord refuses an interaction answered later than this (documented 3 s limit).
ACK_LIMIT_S = 3.0


class Figures:
    """The figures part of :class:`~bench.capacity.CapacityBench`: reads its games and
    the writes its hooks noted on each interaction."""

    ATTRIBUTION: str
    games: list[Game]

    def table_time(self, mv: Move, thread_id: int | None = None) -> None:
        """Fill ``mv.t_table``: the last public write in a thread (or, failing that, the
        last write) the bot made while handling the committing interaction (its own
        writes: see ``stamp`` in :meth:`install`; :attr:`ATTRIBUTION`), and
        ``mv.t_table_token`` the same over the writes made with its token (kept for
        comparison)."""
        c = mv.commit
        writes = getattr(c, "bench_writes", None) or [] if c is not None else []
        for attr, col in (("t_table", 3 if self.ATTRIBUTION == "own" else 4),
                          ("t_table_token", 4)):
            mine = [w for w in writes if w[col]]
            public = [w[0] for w in mine if w[1]]
            if public:
                setattr(mv, attr, max(public))
            elif mine:
                setattr(mv, attr, max(w[0] for w in mine))
            if attr == "t_table":
                mv.public = bool(public)

    def figures(self, rate: float, n: int, setup_s: float, moves: list[Move],
                lobby: list[Any], window: tuple[float, float], cpu: dict[str, float],
                rss: float, offered: int, missed: int, lag: list[float],
                la_start: list[float]) -> dict[str, Any]:
        w0, w1 = window
        span = w1 - w0
        for mv in moves:
            if mv.finished:
                self.table_time(mv)
        # A move belongs to the window of its first try; only a move made (no driver
        # error, not given up after refusals) has a table.
        in_window = [mv for mv in moves if w0 <= mv.t_sched < w1]
        done = [mv for mv in in_window if mv.t_table is not None and mv.made]
        shown = [mv for mv in moves if mv.t_table is not None and w0 <= mv.t_table < w1
                 and mv.made]
        # A move still without its table when the phase ended counts with the time it
        # had waited so far (a lower bound), so a backlog raises the percentiles.
        now = time.perf_counter()
        unfinished = [mv for mv in in_window if mv.t_table is None and mv.made]
        click = [mv.t_table - mv.t_commit for mv in done if mv.t_table is not None] + [
            now - (mv.t_commit or mv.t_sched) for mv in unfinished]
        whole = [mv.t_table - (mv.t_try or mv.t_sched) for mv in done
                 if mv.t_table is not None] + [
            now - (mv.t_try or mv.t_sched) for mv in unfinished]
        # From the first try: a player refused waits through the refusal and the pause.
        first = [mv.t_table - mv.t_sched for mv in done if mv.t_table is not None] + [
            now - mv.t_sched for mv in unfinished]
        no_wait = [mv.t_table - mv.t_commit for mv in done
                   if mv.t_table is not None and mv.opens_wait is None] + [
            now - (mv.t_commit or mv.t_sched) for mv in unfinished if mv.opens_wait is None]
        by_token = [mv.t_table_token - mv.t_commit for mv in in_window
                    if mv.t_table_token is not None and mv.made]
        waits: dict[str, int] = {}
        for mv in in_window:
            if mv.opens_wait is not None:
                waits[mv.opens_wait] = waits.get(mv.opens_wait, 0) + 1
        its = [it for mv in in_window for it in mv.its] + [
            it for it in lobby if w0 <= getattr(it, "bench_t0", 0.0) < w1]
        acks = [it.bench_ack - it.bench_t0 for it in its
                if getattr(it, "bench_ack", None) is not None and hasattr(it, "bench_t0")]
        late = sum(1 for it in its if it.failed or getattr(it, "bench_ack", None) is None
                   or it.bench_ack - it.bench_t0 > ACK_LIMIT_S)
        per_game: dict[str, list[float]] = {}
        for mv in done:
            if mv.t_table is not None:
                per_game.setdefault(mv.game, []).append(mv.t_table - mv.t_commit)
        by_game: dict[str, dict[str, int]] = {}
        for mv in in_window:
            counts = by_game.setdefault(mv.game, {"moves": 0, "made": 0, "interactions": 0})
            counts["moves"] += 1
            counts["made"] += mv.made
            counts["interactions"] += len(mv.its)
        moves_n = max(1, len(shown))
        active = sum(1 for g in self.games if g.game_id is not None)
        row: dict[str, Any] = {
            "offered_per_s": rate, "games": n, "active_games": active,
            "setup_s": round(setup_s, 1), "window_s": round(span, 1),
            "arrivals": offered, "arrivals_missed": missed,
            "achieved_per_s": round(len(shown) / span, 1),
            "moves": len(in_window), "moves_shown": len(shown),
            "moves_made": len(done),
            "moves_busy": sum(1 for mv in in_window if mv.busy),
            "moves_unanswered": sum(1 for mv in in_window if mv.unanswered),
            "retries": sum(mv.tries - 1 for mv in in_window),
            "moves_abandoned": sum(1 for mv in in_window if mv.abandoned),
            "moves_errors": sum(1 for mv in in_window if mv.error),
            "moves_no_public_write": sum(1 for mv in done if not mv.public),
            "busy_clicks": busy_clicks(in_window),
            "moves_unfinished": len(unfinished),
            "interactions_per_move": round(sum(len(mv.its) for mv in in_window)
                                           / max(1, len(in_window)), 2),
            "click_to_table": summary_ms(click),
            "click_to_table_no_rule_wait": summary_ms(no_wait),
            "moves_leaving_rule_wait": dict(sorted(waits.items())),
            "click_to_table_by_token": summary_ms(by_token),
            "move_to_table": summary_ms(whole),
            "first_try_to_table": summary_ms(first),
            "per_game_click_p99_ms": {k: round(pct(v, 99) * 1000, 1)
                                      for k, v in sorted(per_game.items())},
            "moves_by_game": dict(sorted(by_game.items())),
            "schedule_lag_p99_ms": round(pct(lag, 99) * 1000, 1) if lag else None,
            "ack": summary_ms(acks),
            "interactions": len(its), "late_acks": late,
            "cpu_ms_per_move": {k: round(v * 1000 / moves_n, 2) for k, v in cpu.items()
                                if k != "handles"},
            "cpu_share_of_window": {k: round(v / span, 2) for k, v in cpu.items()
                                    if k != "handles"},
            "asyncio_callbacks_per_move": round(cpu["handles"] / moves_n),
            "rss_mib": round(rss, 1),
            "loadavg_start": la_start, "loadavg_end": loadavg(),
        }
        row["p99_ok"] = bool(click) and row["click_to_table"]["p99_ms"] <= P99_LIMIT_S * 1000
        return row


def per_busy_answer(row: dict[str, Any]) -> float | None:
    """Bot CPU milliseconds per busy answer of a window in which the bot refused
    everything (``BENCH_PROFILE_CLOCK=refuse``; the caller knows), ``None`` without busy
    answers. The window's other bot work (timers, reminders, moves admitted before it)
    counts in it: an upper bound."""
    answers = row.get("busy_answers") or 0
    if not answers or row.get("bot_cpu_s") is None:
        return None
    return round(row["bot_cpu_s"] * 1000 / answers, 3)


def brief(row: dict[str, Any]) -> str:
    """One line of a row."""
    c = row["click_to_table"]
    cpu = row["cpu_ms_per_move"]
    jobs = row.get("render_pool_jobs")
    pool = f", pool jobs/move {jobs['per_move']}" if jobs is not None else ""
    first = row.get("first_try_to_table") or {}
    return (f"{row['games']} games, achieved {row['achieved_per_s']}/s, click->table p50 "
            f"{c['p50_ms']} p99 {c['p99_ms']} ms (from the first try p99 "
            f"{first.get('p99_ms')} ms), late {row['late_acks']}, busy "
            f"{row.get('moves_busy', 0)}, retries {row.get('retries', 0)}, gave up "
            f"{row.get('moves_abandoned', 0)}, missed "
            f"{row['arrivals_missed']}, CPU/move bot {cpu['bot']} (render thread "
            f"{cpu['render_thread']}, procs {cpu['render_procs']}{pool}) sandbox {cpu['sandbox']} "
            f"bench {cpu['bench']} loop {cpu['loop']} ms, RSS {row['rss_mib']} MiB, "
            f"load {row['loadavg_end']}")


def rates_table(rows: list[dict[str, Any]]) -> list[str]:
    """Goodput against offered load, one line per rate: achieved moves/s (the goodput:
    moves whose table showed in the window) and its share of the best row's; the moves
    whose first try was in the window and those of them made; click-to-table p50/p99, first
    try to table p99 (a retried move from its first try), late acknowledgements, moves
    refused as busy at least once (``busy``), retries, moves given up after their last try
    (``gave up``), moves whose driver failed otherwise (``errors``), busy answers per move
    shown (``busy/mv``), bot CPU per move (and its ratio to the first row's; at steady
    speed where the row has it, ``--bot-share-steady``), the cores the bot processes and
    the harness used over the window (``bot``, ``harness``), the CPU probe's p50 and p90
    in ms (``probe``, ``p90``; ``-`` where the row has none of these) and the load average
    at the start and end of the row; ``noisy`` ends a row whose every run met a slower
    CPU (``--quiet-probe``), ``scale`` and the quota's mean scale one with a steady
    quota."""
    if not rows:
        return []

    def cpu_of(r: dict[str, Any]) -> float | None:
        steady: float | None = r.get("bot_cpu_ms_per_move_steady")
        return r["bot_cpu_ms_per_move"] if steady is None else steady

    peak = max(r["achieved_per_s"] for r in rows) or 1.0
    cpu0 = cpu_of(rows[0]) or 1.0

    def num(value: float | None, width: int) -> str:
        return f"{'-':>{width}}" if value is None else f"{value:>{width}g}"

    out = [f"{'offered':>8} {'achieved':>8} {'of peak':>7} {'moves':>6} {'made':>6} "
           f"{'p50 ms':>8} {'p99 ms':>8} "
           f"{'1st p99':>8} {'late':>5} {'busy':>5} {'retries':>7} {'gave up':>7} "
           f"{'errors':>6} {'busy/mv':>7} {'CPU/move':>8} {'x':>5} {'bot':>5} {'harness':>7} "
           f"{'probe':>5} {'p90':>5}  "
           f"load avg start -> end"]
    for r in rows:
        c = r["click_to_table"]
        first = r.get("first_try_to_table") or {}
        cpu = cpu_of(r)
        ratio = f"{'-':>5}" if cpu is None else f"{cpu / cpu0:>5.2f}"
        answers, shown = r.get("busy_answers"), r.get("moves_shown")
        per_move = None if answers is None or not shown else round(answers / shown, 2)
        probe = r.get("cpu_probe") or {}
        scale = r.get("quota_scale")
        out.append(f"{r['offered_per_s']:>8g} {r['achieved_per_s']:>8g} "
                   f"{r['achieved_per_s'] / peak:>7.0%} {r['moves']:>6} "
                   f"{r.get('moves_made', '-'):>6} {num(c['p50_ms'], 8)} "
                   f"{num(c['p99_ms'], 8)} {num(first.get('p99_ms'), 8)} "
                   f"{r['late_acks']:>5} {r.get('moves_busy', 0):>5} "
                   f"{r.get('retries', 0):>7} {r.get('moves_abandoned', 0):>7} "
                   f"{r['moves_errors']:>6} {num(per_move, 7)} {num(cpu, 8)} {ratio} "
                   f"{num(r.get('bot_cpu_share'), 5)} {num(r.get('harness_cpu_share'), 7)} "
                   f"{num(probe.get('p50_ms'), 5)} {num(probe.get('p90_ms'), 5)}  "
                   f"{r['loadavg_start']} -> {r['loadavg_end']}"
                   f"{'  noisy' if r.get('noisy') else ''}"
                   f"{'' if scale is None else f'  scale {scale:g}'}")
    return out


def burst_bucket(mvs: list[Move], now: float, start: float,
                 loadavg: list[float]) -> dict[str, Any]:
    """The figures of one bucket of a burst, the moves ``mvs`` committing in it from
    ``start`` seconds after the burst's end: moves, those not made (``errors``: given up
    after refusals, or failed), those refused busy at least once, retries, late
    acknowledgements, tables shown, click-to-table p50/p99 of the moves made (a move
    without its table counts with its wait until ``now``, as in :func:`figures`), and
    ``p99_no_wait_ms`` over the moves that opened no wait of the rules (a Llamas
    Unleashed reaction window or Baby choice, a Pacapaca negotiation: their table may
    come only when the wait ends, by design), with ``slowest``: where the slowest of
    those waited (:func:`slowest_move`)."""
    ok = [mv for mv in mvs if mv.made]
    waits = [((mv.t_table if mv.t_table is not None else now) - (mv.t_commit or mv.t_sched), mv)
             for mv in ok]
    plain = [(w, mv) for w, mv in waits if mv.opens_wait is None]
    c = summary_ms([w for w, _ in waits]) if waits else None
    p = summary_ms([w for w, _ in plain]) if plain else None
    late = sum(1 for mv in mvs for it in mv.its
               if it.failed or getattr(it, "bench_ack", None) is None
               or it.bench_ack - it.bench_t0 > ACK_LIMIT_S)
    slowest = max(plain, key=lambda x: x[0], default=None)
    return {"start_s": start, "moves": len(mvs), "errors": len(mvs) - len(ok),
            "busy": sum(1 for mv in mvs if mv.busy), "retries": sum(mv.tries - 1 for mv in mvs),
            "late": late, "shown": sum(1 for mv in ok if mv.t_table is not None),
            "p50_ms": c["p50_ms"] if c else None, "p99_ms": c["p99_ms"] if c else None,
            "opened_wait": len(waits) - len(plain),
            "p99_no_wait_ms": p["p99_ms"] if p else None, "loadavg": loadavg,
            "slowest": None if slowest is None else slowest_move(*slowest)}


def recovered_after(buckets: list[dict[str, Any]], limit_ms: float = 1000.0) -> float | None:
    """Seconds from a burst's end to the start of the first bucket from which every
    bucket's ``p99_no_wait_ms`` is at most ``limit_ms`` (``None``: never)."""
    recovered: float | None = None
    for b in buckets:
        if b["start_s"] < 0:
            continue
        p99: float | None = b.get("p99_no_wait_ms", b["p99_ms"])
        if p99 is not None and p99 > limit_ms:
            recovered = None
        elif recovered is None:
            recovered = b["start_s"]
    return recovered


def burst_table(burst: dict[str, Any]) -> list[str]:
    """The lines of an overload burst (:meth:`ProcessCapacityBench.burst`)."""
    back = burst["recovered_s"]
    when = "never" if back is None else f"{back:g} s"
    out = [f"  burst: {burst['base_per_s']:g}/s, {burst['peak_per_s']:g}/s for "
           f"{burst['burst_s']:g} s, then {burst['base_per_s']:g}/s; p99 (moves opening no "
           f"wait of the rules) back under 1 s {when} after the burst",
           f"  {'from s':>6} {'moves':>6} {'errors':>6} {'busy':>5} {'retries':>7} "
           f"{'late':>5} {'shown':>6} {'p50 ms':>8} {'p99 ms':>8} {'waits':>5} "
           f"{'p99 no wait':>11}  load avg"]
    for b in burst["buckets"]:
        out.append(f"  {b['start_s']:>6g} {b['moves']:>6} {b['errors']:>6} "
                   f"{b.get('busy', '-'):>5} {b.get('retries', '-'):>7} "
                   f"{b.get('late', '-'):>5} {b['shown']:>6} "
                   f"{b['p50_ms'] if b['p50_ms'] is not None else '-':>8} "
                   f"{b['p99_ms'] if b['p99_ms'] is not None else '-':>8} "
                   f"{b.get('opened_wait', '-'):>5} "
                   f"{b.get('p99_no_wait_ms') if b.get('p99_no_wait_ms') is not None else '-':>11}"
                   f"  {b['loadavg']}")
    return out


def slowest_move(wait_s: float, mv: Any) -> dict[str, Any]:
    """Where the slowest move of a burst bucket spent its ``wait_s`` (milliseconds from its
    commit click): its game, clicks, and for its last click the acknowledgement and the
    end of the click's handling as the harness saw them (``None``: not seen)."""
    last = mv.its[-1] if mv.its else None

    def since(t: float | None) -> float | None:
        if t is None or last is None:
            return None
        return round((t - last.bench_t0) * 1000, 1)

    return {"game": mv.game, "wait_ms": round(wait_s * 1000, 1), "clicks": len(mv.its),
            "tries": mv.tries, "opens_wait": mv.opens_wait,
            "ack_ms": since(getattr(last, "bench_ack", None)),
            "answered_ms": since(getattr(last, "bench_done", None))}


def busy_clicks(moves: list[Move]) -> dict[str, int]:
    """Clicks refused as busy among ``moves``' interactions: the move's first click or
    the first after a refusal (``first``), or another (``later``); on a private panel
    (``on_panel``: a step of a move begun, or a retry of one); in moves made
    (``in_made``) and in moves given up (``in_given_up``)."""
    out = {"first": 0, "later": 0, "on_panel": 0, "in_made": 0, "in_given_up": 0}
    for mv in moves:
        since_refused = 0
        for it in mv.its:
            if refused_busy(it):
                out["first" if since_refused == 0 else "later"] += 1
                message = getattr(it, "message", None)
                out["on_panel"] += bool(message is not None and message.ephemeral)
                out["in_made" if mv.made else "in_given_up"] += 1
                since_refused = 0
            else:
                since_refused += 1
    return out
