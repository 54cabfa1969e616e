"""The store: games, seats, the action log, timers, stats, settings. With its backends the
only code that writes SQL.

Two backends over ``bot.store.db``: a SQLite file (``bot.store.sqlite``, the default; every
write transaction behind one asyncio lock, one process per file) or a PostgreSQL URL
(``bot.store.postgres``: a pool; several processes may share the database). Every write
is one transaction, so nothing is ever half-written: :meth:`Store.commit_action` writes the
new state and its action row together, under a row lock on the game in PostgreSQL plus the
version check. A committed change to a game's play is noted for the request that made it
(``bot.store.tracking``).

The store is put together from its parts over one backend (``base``): ``games``,
``moves``, ``seats``, ``timers``, ``prefs``, ``stats``, ``ratings``, ``rematches``, ``presets`` and ``unseen``; its records are in ``records``.
"""

from __future__ import annotations

from bot.store.games import GameStore
from bot.store.moves import MoveStore
from bot.store.prefs import PrefStore
from bot.store.presets import PresetStore
from bot.store.ratings import RatingStore
from bot.store.rematches import RematchStore
from bot.store.seats import SeatStore
from bot.store.stats import StatStore
from bot.store.timers import TimerStore
from bot.store.unseen import UnseenStore


class Store(GameStore, MoveStore, SeatStore, TimerStore, PrefStore, StatStore, RatingStore,
            RematchStore, PresetStore, UnseenStore):
    """Async repository over one database: a SQLite file or a PostgreSQL URL.

    Use :meth:`open` (which migrates) and :meth:`close`. A path may be ``":memory:"``.
    """
