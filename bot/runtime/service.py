"""GameService: load -> lock -> validate -> apply -> persist -> publish.

The only path by which a game changes. Lobby operations (join, leave, add an AI seat,
start, cancel) also live here so that the cogs stay thin. The service is put together
from its parts: ``core`` (state, reads, publishing), ``advance`` (the AI and the one
commit of a change), ``lobby``, ``lessons``, ``rematch``, ``play`` and ``deadlines`` (timers and catch-up); what it
hands out is in ``updates``.

Several processes (shards) may run a GameService each on one PostgreSQL database, so the
per-game asyncio lock (:meth:`GameService.lock`) is only an optimisation within one
process. What keeps a game consistent is the database: a move commits only if the stored
version is still the one it was computed from (:meth:`bot.store.Store.commit_moves`: the
versioned update holds the game's row lock), otherwise the click gets "This table has
moved on."; status changes (start, cancel, end, expire) apply only from the status they
expect; and each due timer is claimed by one process (a lease).
"""

from __future__ import annotations

import asyncio
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Callable

from bot.games.registry import Registry
from bot.runtime.advance import turn_key as _turn_key  # noqa: F401 - bench.store's name
from bot.runtime.clock import Clock
from bot.runtime.core import (  # noqa: F401 - re-exported: their home was this module
    END_IDLE_GAMES_DEFAULT,
    IDLE_END_S,
    IDLE_ENDED,
    IDLE_NOTICE_S,
    LOBBY_EXPIRES_S,
    MAX_AI_STEPS,
    MAX_MISSED_TURNS,
    TURN_TIMERS,
    Latest,
)
from bot.runtime.deadlines import DeadlineOps
from bot.runtime.lessons import LessonOps
from bot.runtime.lobby import AI_NAMES, LobbyOps  # noqa: F401
from bot.runtime.play import PlayOps
from bot.runtime.rematch import Rematch, RematchOps  # noqa: F401
from bot.runtime.supervisor import Supervisor
from bot.runtime.takeback import TakeBackOps
from bot.runtime.timers import TimerService
from bot.runtime.updates import (  # noqa: F401 - re-exported: their home was this module
    UNREADABLE,
    UNREADABLE_LOBBY,
    GameError,
    GameUnreadable,
    Known,
    Step,
    Subscriber,
    Update,
    UpdateKind,
)
from bot.store import Store


class GameService(LessonOps, RematchOps, PlayOps, DeadlineOps, TakeBackOps):
    """Runs games: creates lobbies, seats players, applies actions, drives AI seats and
    timers, and publishes :class:`Update` objects to subscribers (the cogs).

    Errors: every refusal raises :class:`GameError` with a player-facing sentence and
    changes nothing.
    """

    def __init__(
        self, store: Store, registry: Registry, *, clock: Clock | None = None,
        archive_after_s: float = 600,
    ) -> None:
        self.store = store
        self.archive_after_s = archive_after_s
        self.registry = registry
        self.clock = clock or Clock()
        #: Runs the long-lived background work (timers, reconciliation) with restarts.
        self.supervisor = Supervisor(self.clock)
        self.timers = TimerService(store, self.clock, self._on_timer, self.supervisor,
                                   on_dropped=self.resync_timers)
        #: Quarantined games: id -> why their saved data could not be read (logged once).
        self.quarantined: dict[int, str] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._subscribers: list[Subscriber] = []
        #: Where new lobbies get their seed (the demo and tests make it deterministic).
        self.seed_factory: Callable[[], int] = lambda: secrets.randbits(31)
        #: Whether this process serves the games of server ``guild_id`` (``None``: no
        #: server): the start-up catch-up (:meth:`reconcile_timers`) looks only at those,
        #: so that with several processes (shards) each catches up its own servers' games
        #: and none posts a table another process is posting. Default: every server.
        self.serves: Callable[[int | None], bool] = lambda guild_id: True
        #: Games whatever their server whose change this process could not show (a
        #: database failure while showing it): its next catch-up shows them too.
        self._behind: set[int] = set()
        #: game id -> how many changes this process wrote to it: a read made before
        #: (:meth:`peek`) serves :meth:`act` only if the count did not move since.
        self._stamps: dict[int, int] = {}
        #: game id -> the last state this process committed (see :meth:`parsed`), the
        #: most recently used last, at most :data:`~bot.runtime.core.LATEST_STATES`.
        self._latest: OrderedDict[int, Latest] = OrderedDict()
