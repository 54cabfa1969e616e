"""Proposed fixes, tried in the bench process only (``python -m bench --try-fixes``).

The bench never edits the bot: these monkeypatches show the before/after of the changes
proposed in ``bench/README.md`` ("Causes and fixes"); the lead applies the real ones in
``bot/discord/bot.py``, ``bot/store/store.py`` and ``bot/runtime/timers.py``.

- ``early_ack``: :meth:`HerdBot.route_component` acknowledges a component interaction
  (deferred update, type 6) before any store read; herdbot's components never open a
  modal, and every later reply already copes with an acknowledged interaction
  (``send_ephemeral`` uses a followup, the lobby edits the original response).
- ``one_hop_reads``: ``Store._one``/``Store._all`` use ``execute_fetchall`` (one trip to
  the aiosqlite thread instead of three: execute, fetch, close).
- ``quiet_timers``: ``Store.delete_timer`` is one autocommit ``DELETE`` returning the row
  count (one trip instead of BEGIN/DELETE/COMMIT); ``TimerService.cancel`` wakes the timer
  loop only when a row was deleted. On a tree older than commit a80ff70 it also makes the
  loop read only the due timers and the next due time (``WHERE due_at <= ?`` /
  ``ORDER BY due_at LIMIT 1``) instead of every timer twice per wake-up (that part is in
  the bot since a80ff70).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

ALL = ("early_ack", "one_hop_reads", "quiet_timers")


def apply(names: Iterable[str]) -> list[str]:
    """Apply the named patches (see :data:`ALL`); return the names applied. Irreversible
    for the process: run them in a process of their own."""
    applied = []
    for name in names:
        globals()[f"_{name}"]()
        applied.append(name)
    return applied


def _early_ack() -> None:
    from bot.discord.bot import HerdBot
    from bot.discord.replies import defer

    orig = HerdBot.route_component

    async def route_component(self: Any, interaction: Any, custom_id: str,
                              values: list[str]) -> None:
        await defer(interaction)
        await orig(self, interaction, custom_id, values)

    HerdBot.route_component = route_component  # type: ignore[method-assign]


def _one_hop_reads() -> None:
    from bot.store.store import Store

    async def _one(self: Any, sql: str, args: Iterable[Any] = ()) -> Any:
        rows = await self._db.execute_fetchall(sql, tuple(args))
        return rows[0] if rows else None

    async def _all(self: Any, sql: str, args: Iterable[Any] = ()) -> list[Any]:
        return list(await self._db.execute_fetchall(sql, tuple(args)))

    Store._one = _one  # type: ignore[method-assign]
    Store._all = _all  # type: ignore[method-assign]


def _quiet_timers() -> None:
    from bot.runtime.timers import TimerService, log
    from bot.store.store import Store, _timer

    async def delete_timer(self: Any, game_id: int, kind: str | None = None) -> int:
        async with self._lock:
            if kind is None:
                cur = await self._db.execute("DELETE FROM timers WHERE game_id=?", (game_id,))
            else:
                cur = await self._db.execute(
                    "DELETE FROM timers WHERE game_id=? AND kind=?", (game_id, kind))
            return int(cur.rowcount)

    async def due_timers(self: Any, now: float) -> list[Any]:
        rows = await self._all("SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id",
                               (now,))
        return [_timer(r) for r in rows]

    async def next_due(self: Any) -> float | None:
        row = await self._one("SELECT due_at FROM timers ORDER BY due_at, id LIMIT 1")
        return float(row[0]) if row else None

    async def cancel(self: Any, game_id: int, kind: str | None = None) -> None:
        if await self._store.delete_timer(game_id, kind):
            self.poke()

    async def fire_due(self: Any) -> int:
        fired = 0
        async with self._firing:
            for timer in await self._store.due_timers(self._clock.now()):
                current = await self._store.timer(timer.game_id, timer.kind)
                if current is None or current.id != timer.id or current.key != timer.key:
                    continue
                await self._store.delete_timer(timer.game_id, timer.kind)
                try:
                    await self._handler(timer)
                except Exception:
                    log.exception("timer %s of game %s failed", timer.kind, timer.game_id)
                fired += 1
        return fired

    async def _run(self: Any) -> None:
        while True:
            self._wake.clear()
            await self.fire_due()
            due = await self._store.next_due()
            timeout = None if due is None else max(0.0, due - self._clock.now())
            if timeout == 0.0:
                continue
            await self._clock.wait(self._wake, timeout)

    Store.delete_timer = delete_timer  # type: ignore[method-assign]
    TimerService.cancel = cancel  # type: ignore[method-assign]
    if not hasattr(Store, "due_timers"):  # before a80ff70: every timer read per wake-up
        Store.due_timers = due_timers  # type: ignore[attr-defined]
        Store.next_due = next_due  # type: ignore[attr-defined]
        TimerService.fire_due = fire_due  # type: ignore[method-assign]
        TimerService._run = _run  # type: ignore[method-assign]
