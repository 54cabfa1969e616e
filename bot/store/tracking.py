"""Which games the current request wrote: so that a request that fails afterwards says
"what you did was saved" only for a change it made itself, never for one another player,
an AI seat or a timer made meanwhile in the same game.

A request (a slash command, a button click) calls :func:`track_writes` (or enters
:func:`tracking_writes`) before it runs; every :class:`bot.store.Store` method that commits
a change to a game's play - its status, state and version, options, host or seats, or the
lobby itself - adds the game's id to the set afterwards (a rolled-back write adds nothing;
a write whose COMMIT raised adds it when the database applied it or cannot tell: see
``Store._tx``, the one place that calls :func:`wrote`).
Bookkeeping of what is shown (message ids, pings, the shown version, the hand a DM showed)
and timers add nothing. The set lives in a :class:`contextvars.ContextVar`: asyncio tasks
the request creates copy its context, so their writes count for the request too (they
follow from what the member did); the background jobs of ``bot.runtime.supervisor`` call
:func:`stop_tracking` first, as they are nobody's request.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_WRITTEN: ContextVar[set[int] | None] = ContextVar("herdbot_games_written", default=None)


def track_writes() -> set[int]:
    """Start noting, in the current context (the running task, and the tasks it creates
    from now on), the ids of the games whose play a store write commits; return that set
    (empty now, filled as writes commit). Replaces any set noted before in this context."""
    games: set[int] = set()
    _WRITTEN.set(games)
    return games


@contextmanager
def tracking_writes() -> Iterator[set[int]]:
    """``with tracking_writes() as games:`` :func:`track_writes` for the block only (the
    context's previous set, or none, is back after it; ``games`` stays readable)."""
    games: set[int] = set()
    token = _WRITTEN.set(games)
    try:
        yield games
    finally:
        _WRITTEN.reset(token)


def stop_tracking() -> None:
    """Note nothing more in the current context (a background job started inside a
    request: its later writes are not the request's)."""
    _WRITTEN.set(None)


def tracking() -> bool:
    """Whether a request tracks its writes in the current context (else :func:`wrote`
    does nothing, and the store need not learn a failed COMMIT's outcome)."""
    return _WRITTEN.get() is not None


def wrote(game_id: int) -> None:
    """Record that a committed write changed game ``game_id``'s play (``Store._tx`` calls
    it after the transaction commits, or after a COMMIT that raised but may have been
    applied); nothing when no request is tracking."""
    games = _WRITTEN.get()
    if games is not None:
        games.add(game_id)
