"""HerdBot: the discord.py bot class and its setup_hook.

The bot is handed its parts (:class:`Parts`: store, service, outbox, notifier, render
pool) by the composition root, ``bot.app``, through the ``assemble`` callable it is built
with; :meth:`HerdBot.start` assembles them before logging in to Discord, so a database
that cannot be used is refused first. ``setup_hook`` then loads every cog as an
extension, registers the persistent DynamicItem components, re-arms stored timers and
syncs the app commands (globally, or to ``HERDBOT_DEV_GUILDS``).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.discord.components import HerdButton, HerdSelect
from bot.discord.errors import (
    BUSY,
    BUSY_COMMAND,
    OOPS,
    OOPS_AFTER_CHANGE,
    STORE_DOWN,
    STORE_DOWN_AFTER_CHANGE,
    log_store_error,
)
from bot.discord.host import DirectMessages, GameDisplay
from bot.discord.http_buckets import throttle_bucket_sweep
from bot.discord.lean import Click
from bot.discord.permissions import check_refusal
from bot.discord.replay_view import ReplayViewer
from bot.discord.replies import defer_command, lang_of, quoted, send_error
from bot.discord.router import (
    GamesBefore,
    Router,
    carries_on,
    click_key,
    refuse_busy,
    refuse_unbuilt,
)
from bot.discord.translator import CatalogueTranslator, translatable_choices
from bot.games.registry import Registry
from bot.i18n import ENGLISH, supported, translate
from bot.render.pool import Job, PictureCache, RenderPool, forget_pool
from bot.runtime import Clock, GameError, GameService, Update
from bot.runtime.admission import Admission, LagProbe, snowflake_time
from bot.store import STORE_FAILURES, Store, track_writes

log = logging.getLogger(__name__)

#: Pictures (tables and close-ups) kept by their inputs (:meth:`HerdBot.draw`; 20-60 KB
#: each).
PICTURES_KEPT = 128

T = TypeVar("T")

# herdbot never joins voice: silence discord.py's start-up warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False

#: Name prefixes of the tasks discord.py runs handlers in (events, component callbacks,
#: app commands, herdbot's own clicks): :meth:`HerdBot.close` lets them finish.
HANDLER_TASKS = ("discord.py: ", "discord-ui-", "CommandTree-invoker", "herdbot-click: ")


#: Component types herdbot's own components are: buttons and string selects.
HERD_COMPONENT_TYPES = (2, 3)


def take_interactions(bot: HerdBot) -> None:
    """Patch ``bot``'s connection state so that an interaction (click, command, modal,
    autocomplete) goes through the router's admission first: one it finds too old
    (:meth:`bot.runtime.admission.Admission.too_old`: received over 2 s after Discord made
    it, by its snowflake id) is dropped before discord.py builds anything for it, as its
    answer could not reach Discord in time; a click on a herdbot button or select (custom
    id ``hb:`` / ``hs:``) or a slash command that the admission refuses is answered
    :data:`~bot.discord.errors.BUSY` (:data:`~bot.discord.errors.BUSY_COMMAND`) from its
    gateway form (:func:`bot.discord.router.refuse_unbuilt`), with nothing built for it;
    a step of a move already begun (:func:`~bot.discord.router.carries_on`: a choice on a
    fresh private panel; one per member at a time, a second one while it is in flight is
    new work) is refused only at the admission's limit or its longer backlog for steps,
    and a click its member was refused lately and makes again
    (:func:`~bot.discord.router.click_key`, ``Admission.refused_clicks``) at its limit or
    backlog (:meth:`~bot.runtime.admission.Admission.enter`'s ``step`` and
    ``continuing``).
    An admitted click is built as a :class:`bot.discord.lean.Click` (Discord's answers to
    its writes read for ids only) and goes straight to :meth:`HerdBot.route_component`,
    holding its place, in a task of its own (named ``herdbot-click: <custom id>``), without
    discord.py's rebuilding of the message's whole view for its dynamic items, and the
    member's client locale is noted once it is answered (:meth:`HerdBot.note_locale`);
    everything else goes to discord.py."""
    state = bot._connection
    parse = state.parse_interaction_create
    running: set[asyncio.Task[None]] = set()

    def spawn(coro: Awaitable[None], name: str) -> None:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        running.add(task)
        task.add_done_callback(running.discard)

    async def route(interaction: discord.Interaction, custom_id: str, values: list[str],
                    admission: Admission, started: float, stepper: int | None) -> None:
        try:
            await bot.route_component(interaction, custom_id, values, admitted=True)
        except Exception:  # the router answers its own errors: this is a bug
            log.exception("component %s failed", custom_id)
        finally:
            admission.leave(started, stepper)
        await bot.note_locale(interaction.user.id, str(interaction.locale))

    def parse_fresh(data: Any) -> None:
        admission = bot.router.admission
        try:
            made_at: float | None = snowflake_time(int(data["id"]))
        except (KeyError, TypeError, ValueError):  # no id to tell its age: taken
            made_at = None
        if made_at is not None and admission.too_old(
                made_at, f"interaction {data['id']} (type {data.get('type')})"):
            return
        kind = data.get("type")
        if kind == 2 and admission.refuses():
            spawn(refuse_unbuilt(state.http, data, BUSY_COMMAND), "herdbot-busy")
            return
        inner = data.get("data") if kind == 3 else None
        if not isinstance(inner, dict):
            inner = {}
        custom_id = inner.get("custom_id")
        if (isinstance(custom_id, str) and custom_id.startswith(("hb:", "hs:"))
                and inner.get("component_type") in HERD_COMPONENT_TYPES):
            raw_values = inner.get("values")
            values = [str(v) for v in raw_values] if isinstance(raw_values, list) else []
            key = click_key(data)
            # a member's step while another of theirs is in flight is new work
            stepper = (key[0] if key is not None and key[0] not in admission.stepping
                       and carries_on(data, admission.clock()) else None)
            if not admission.enter(step=stepper, continuing=(
                    key is not None and admission.refused_clicks.retried(key))):
                if key is not None:
                    admission.refused_clicks.note(key)
                spawn(refuse_unbuilt(state.http, data, BUSY), "herdbot-busy")
                return
            started = admission.monotonic()
            try:
                interaction: discord.Interaction = Click(data=data, state=state)
            except BaseException:
                admission.leave(started, stepper)
                raise
            spawn(route(interaction, custom_id, values, admission, started, stepper),
                  f"herdbot-click: {custom_id}")
            return
        parse(data)

    state.parse_interaction_create = parse_fresh  # type: ignore[method-assign]
    state.parsers["INTERACTION_CREATE"] = parse_fresh


#: Key of :attr:`discord.Interaction.extras` holding the games a command may change, as
#: stored before it ran (:meth:`HerdBot.games_before`).
BEFORE = "herdbot.before"
#: Key of :attr:`discord.Interaction.extras` holding the ids of the games the command's own
#: writes changed (``bot.store.tracking``), filled while it runs.
WRITTEN = "herdbot.written"


@dataclass
class Parts:
    """What the composition root (``bot.app.assemble``) builds for a bot, in the bot's
    event loop: the opened store, the service over it, the outbox subscribed to the
    service, the notifier (DMs), the render process pool (``None``: pictures are drawn in
    the render thread) and the kept pictures (``None``: none kept)."""

    store: Store
    service: GameService
    outbox: Callable[[Update], Awaitable[None]]
    notifier: DirectMessages
    render_pool: RenderPool | None
    pictures: PictureCache | None


class HerdTree(app_commands.CommandTree["HerdBot"]):
    """CommandTree whose errors become a short ephemeral message; tracebacks go to the log.

    Before a slash command runs, the stored games it may change are noted (see
    :meth:`HerdBot.games_before`) and its own writes start being tracked
    (``bot.store.tracking``; tasks it creates count too), so that an error afterwards can
    say truly whether something it did was saved (``STORE_DOWN_AFTER_CHANGE``,
    ``OOPS_AFTER_CHANGE``) or not: a game another player, an AI seat or a timer changed
    meanwhile is not the member's change."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.type is discord.InteractionType.application_command:
            # Acknowledge first, before any store read or picture: ephemeral unless the
            # command answers in public (``extras={"public": True}``: /play, /stats show).
            public = bool(getattr(interaction.command, "extras", {}).get("public"))
            await defer_command(interaction, public=public)
            # set in the invoker task's context: the command and on_error run in it too
            interaction.extras[WRITTEN] = track_writes()
            interaction.extras[BEFORE] = await self.client.games_before(interaction)
        return True

    async def _call(self, interaction: discord.Interaction[HerdBot]) -> None:
        """discord.py's entry for every app command interaction: a command is run under
        the router's admission (:class:`bot.runtime.admission.Admission`, shared with the
        clicks); one beyond it is answered :data:`~bot.discord.errors.BUSY_COMMAND` and
        not run. Autocomplete is not bounded (it answers from memory)."""
        if interaction.type is not discord.InteractionType.application_command:
            await super()._call(interaction)
            return
        with self.client.router.admission.slot() as admitted:
            if not admitted:
                await refuse_busy(interaction, BUSY_COMMAND)
                return
            await super()._call(interaction)

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, GameError):
            await send_error(interaction, original)
            return
        if isinstance(error, app_commands.CheckFailure):
            await send_error(interaction, check_refusal(error))  # (not discord.py's English)
            return
        if isinstance(error, app_commands.TransformerError):
            await send_error(interaction, translate(
                lang_of(interaction), "That value does not fit: “{value}”.",
                value=quoted(error.value)))
            return
        changed = await self.client.changed_games(interaction.extras.get(BEFORE), interaction,
                                                  interaction.extras.get(WRITTEN, set()))
        if isinstance(original, STORE_FAILURES):
            log_store_error(f"command {getattr(interaction.command, 'qualified_name', '?')}",
                            original)
            if changed:
                # The rest of those games (AI moves, timers, the table) is caught up once
                # writes work.
                for game_id in changed:
                    self.client.service.start_catch_up(game_id)
                await send_error(interaction, translate(lang_of(interaction),
                                                        STORE_DOWN_AFTER_CHANGE))
            else:
                await send_error(interaction, translate(lang_of(interaction), STORE_DOWN))
            return
        log.error("command %s failed", getattr(interaction.command, "qualified_name", "?"),
                  exc_info=original)
        await send_error(interaction, translate(lang_of(interaction),
                                                OOPS_AFTER_CHANGE if changed else OOPS))


class HerdBot(commands.AutoShardedBot):
    """The herdbot client: a sharded bot serving ``settings.shard_ids`` of
    ``settings.shard_count`` gateway shards (by default every shard of Discord's
    recommended count). Several processes, each serving some shards, share one PostgreSQL
    database: games are serialised by the database (row lock + version check, see
    :meth:`bot.store.Store.commit_action`), timers claimed by one process (a lease), and an
    interaction never needs the game's guild in this process's cache (DM clicks reach
    shard 0 whatever the game's guild).

    Attributes:
        settings: the configuration.
        registry: the games this bot offers (``bot.app.builtin_games`` for the real ones).
        extensions: the cog extensions :meth:`setup_hook` loads, in order
            (``bot.app.extensions_for``; ``bot.app.make_bot`` passes them).
        store / service / outbox / notifier / render_pool / pictures: the :class:`Parts`
            the ``assemble`` callable (``bot.app.assemble``) builds, in :meth:`start`
            before logging in, or in :meth:`setup_hook` when logged in without it.
        router: routes herdbot's components (:class:`bot.discord.router.Router`).
        clock: wall clock (a manual clock in tests).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        registry: Registry,
        assemble: Callable[[HerdBot], Awaitable[Parts]],
        clock: Clock | None = None,
        extensions: tuple[str, ...] = (),
        sync_commands: bool = True,
        **kwargs: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        if settings.shard_ids is not None:  # these shards only (of shard_count)
            kwargs["shard_ids"] = settings.shard_ids
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=HerdTree,
            # Nobody is pinged unless a send names the members (bot.discord.text.pinging).
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            **kwargs,
        )
        throttle_bucket_sweep(self.http)
        self.settings = settings
        self.registry = registry
        self.clock = clock or Clock()
        self._extensions = extensions
        self._sync = sync_commands
        self._assemble = assemble
        self._parts: Parts | None = None
        #: Whether the first shard ready freezes the garbage collector's view of what
        #: start-up made (``herdbot run`` sets it; see :meth:`on_shard_ready`).
        self.freeze_gc_when_ready = False
        #: kind -> the game cog found for it last (:meth:`game_cog`; checked still loaded).
        self._game_cogs: dict[str, GameDisplay] = {}
        #: The event loop's lag, which :class:`Admission` refuses new requests on.
        self.lag_probe = LagProbe()
        #: Replays of finished games, privately (``/game replay``, the end's Replay button).
        self.replays = ReplayViewer(self, games=self.game_cog)
        self.router = Router(self, games=self.game_cog, lobby=self.lobby_cog,
                             admission=Admission(lag=lambda: self.lag_probe.lag_s),
                             replays=self.replays, held=self.held_codes)
        take_interactions(self)
        self.store: Store
        self.service: GameService
        self.outbox: Callable[[Update], Awaitable[None]]
        self.notifier: DirectMessages
        self.render_pool: RenderPool | None = None
        self.pictures: PictureCache | None = None
        #: member id -> the client locale last stored for them (:meth:`note_locale`).
        self._locales: dict[int, str] = {}

    # -- lifecycle ---------------------------------------------------------------------

    async def assemble(self) -> None:
        """Take this bot's :class:`Parts` from the composition root, once. Raises the
        store's :class:`~bot.store.StoreError` when the database cannot be used."""
        if self._parts is not None:
            return
        parts = self._parts = await self._assemble(self)
        self.store, self.service, self.outbox = parts.store, parts.service, parts.outbox
        self.notifier = parts.notifier
        self.render_pool, self.pictures = parts.render_pool, parts.pictures

    @property
    def publisher(self) -> Callable[[Update], Awaitable[None]]:
        """The outbox, the service's subscriber (:class:`bot.discord.outbox.Outbox`)."""
        return self.outbox

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Assemble the parts (the database opened and migrated: a database that cannot be
        used is refused before Discord is contacted), then log in and connect."""
        await self.assemble()
        await super().start(token, reconnect=reconnect)

    async def setup_hook(self) -> None:
        #: Tables rendered and posted at once over all games: under a burst of moves the
        #: pictures wait their turn instead of all being held in memory together. Made here,
        #: inside the bot's own event loop.
        self.render_slots = asyncio.Semaphore(16)
        #: Pillow work runs off the event loop in ONE worker thread: fonts (FreeType faces)
        #: are cached and shared, and FreeType must not be used from two threads at once.
        self.render_executor = ThreadPoolExecutor(max_workers=1,
                                                  thread_name_prefix="herdbot-render")
        await self.assemble()
        self.lag_probe.start()
        for ext in dict.fromkeys(self._extensions):
            await self.load_extension(ext)
        # Command names, descriptions and choices in each member's client language.
        translatable_choices(self.tree)
        await self.tree.set_translator(CatalogueTranslator())
        self.add_dynamic_items(HerdButton, HerdSelect)
        armed = await self.service.timers.start()
        # Supervised: a failure (a full disk) is logged once and the pass runs again later.
        self._reconcile = self.service.start_catch_up()
        self.service.start_store_watch()
        log.info("store %s ready; %d timers re-armed", self.store.name, armed)
        if self._sync:
            await self.sync_commands()

    def ready_line(self, shard_id: int) -> str:
        """The one line logged when shard ``shard_id`` is connected and ready, e.g.
        ``herdbot ready: shard 0/2, 3 servers, commands synced`` (no shard part when the bot
        has a single shard; "commands not synced" when syncing is off). Names no token."""
        servers = sum(1 for g in self.guilds if g.shard_id == shard_id)
        label = self._shard_label(shard_id)
        where = f"{label}, " if label else ""
        synced = "commands synced" if self._sync else "commands not synced"
        return f"herdbot ready: {where}{servers} server{'' if servers == 1 else 's'}, {synced}"

    async def on_shard_ready(self, shard_id: int) -> None:
        """Log :meth:`ready_line` at INFO (discord.py's own logger is at WARNING, so without
        it the operator sees no sign that the bot is up)."""
        log.info("%s", self.ready_line(shard_id))
        if self.freeze_gc_when_ready:
            # What start-up made (cogs, commands, catalogues, fonts, caches) lives as long
            # as the process: kept out of every later collection, which then reads only
            # what the games make.
            self.freeze_gc_when_ready = False
            gc.collect()
            gc.freeze()

    async def on_shard_resumed(self, shard_id: int) -> None:
        """One INFO line when shard ``shard_id`` is back after a lost connection (RESUME)."""
        label = self._shard_label(shard_id)
        log.info("herdbot reconnected to Discord%s", f" ({label})" if label else "")

    def _shard_label(self, shard_id: int) -> str:
        """``shard 0/2`` for a sharded bot, ``""`` with a single shard (log lines)."""
        count = self.shard_count or 1
        return f"shard {shard_id}/{count}" if count > 1 else ""

    def serves_guild(self, guild_id: int | None) -> bool:
        """Whether this process serves server ``guild_id``'s shard, ``(guild_id >> 22) %
        shard_count`` (Discord's rule; ``None``, no server: shard 0). True when it serves
        every shard (no ``HERDBOT_SHARD_IDS``)."""
        ids, count = self.settings.shard_ids, self.settings.shard_count
        if ids is None or count is None:
            return True
        return (0 if guild_id is None else (guild_id >> 22) % count) in ids

    async def sync_commands(self) -> None:
        """Sync app commands to the dev guilds (instant) or globally."""
        if self.settings.dev_guild_ids:
            for gid in self.settings.dev_guild_ids:
                guild = discord.Object(id=gid)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def render(self, func: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a Pillow rendering function in the render thread; returns its result."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.render_executor,
                                          functools.partial(func, *args, **kwargs))

    async def draw(self, job: Job) -> bytes:
        """PNG bytes of ``job`` (a table picture or a close-up): the kept picture if one with the same
        inputs was drawn lately, else drawn in a render worker process, else (no pool, the
        pool failed, or inputs that cannot be pickled) in the render thread. A failure of the
        pool is one log line and the picture is drawn in the thread: no table is lost. Errors
        of the renderer itself are raised (from the thread)."""
        cache, pool = self.pictures, self.render_pool
        try:
            key: bytes | None = job.key()
        except Exception as exc:  # inputs a worker cannot receive: drawn here, not kept
            log.warning("a %s picture cannot be sent to a render process (%s: %s); drawing "
                        "it in the render thread", job.what, type(exc).__name__, exc)
            key = None
        if key is not None and cache is not None:
            png = cache.get(key)
            if png is not None:
                return png
        data: bytes | None = None
        if key is not None and pool is not None:
            try:
                data = await asyncio.wrap_future(pool.submit(key))
            except BrokenProcessPool as exc:
                log.error("the render process pool broke (%s); pictures are drawn in the "
                          "render thread from now on", exc or "a worker died")
                forget_pool(pool)
                self.render_pool = None
            except Exception as exc:
                log.warning("drawing a %s picture in a render process failed (%s: %s); "
                            "drawing it in the render thread", job.what,
                            type(exc).__name__, exc)
        if data is None:
            data = await self.render(job.run)
        if key is not None and cache is not None:
            cache.put(key, data)
        return data

    #: Seconds :meth:`close` gives the clicks and commands already being handled to finish
    #: (``docker stop`` waits 10 s before it kills).
    CLOSE_GRACE_S = 5.0

    async def close(self) -> None:
        """Stop taking clicks and commands (one arriving now is left unanswered, as from a
        bot that is offline), stop the timers, let what is being handled finish
        (:meth:`finish_handlers`), then disconnect and close the store."""
        parsers = getattr(getattr(self, "_connection", None), "parsers", None)
        if isinstance(parsers, dict):  # the gateway's table of event handlers
            parsers["INTERACTION_CREATE"] = lambda data: None
        self.lag_probe.stop()
        service = getattr(self, "service", None)
        if service is not None:
            await service.timers.stop()
            await service.supervisor.stop()
        await self.finish_handlers()
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
        executor = getattr(self, "render_executor", None)
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    async def finish_handlers(self) -> None:
        """Wait up to :attr:`CLOSE_GRACE_S` for the event, command and component handlers
        running now (discord.py's tasks): closing the store and the connection under one
        would fail it halfway, with an ERROR and its traceback on the operator's terminal."""
        me = asyncio.current_task()
        running = [t for t in asyncio.all_tasks() if t is not me and not t.done()
                   and t.get_name().startswith(HANDLER_TASKS)]
        if running:
            await asyncio.wait(running, timeout=self.CLOSE_GRACE_S)

    # -- routing -----------------------------------------------------------------------

    def lobby_cog(self) -> Any:
        """The loaded lobby cog (``cogs.lobby.Lobby``), ``None`` when not loaded."""
        return self.get_cog("Lobby")

    def held_codes(self) -> frozenset[str]:
        """The codes of the loaded cogs' own buttons whose clicks are held for their first
        answer (each cog's ``held_codes``; :func:`bot.discord.router.holds_answer`)."""
        return frozenset().union(*(getattr(cog, "held_codes", ()) for cog in self.cogs.values()))

    def game_cog(self, kind: str) -> GameDisplay | None:
        """The loaded cog that plays game ``kind`` (the one found last while it stays
        loaded: a runtime protocol check reads every member of the protocol)."""
        found = self._game_cogs.get(kind)
        if found is not None and self.get_cog(getattr(found, "qualified_name", "")) is found:
            return found
        for cog in self.cogs.values():
            # (the kind first: it is cheaper than the protocol check)
            if getattr(cog, "kind", None) == kind and isinstance(cog, GameDisplay):
                self._game_cogs[kind] = cog
                return cog
        return None

    async def route_component(
        self, interaction: discord.Interaction, custom_id: str, values: list[str], *,
        admitted: bool = False,
    ) -> None:
        """Dispatch a herdbot button or select (:meth:`Router.route_component`)."""
        await self.router.route_component(interaction, custom_id, values, admitted=admitted)

    async def games_before(self, interaction: discord.Interaction) -> GamesBefore | None:
        """The stored games a slash command may change (:meth:`Router.games_before`)."""
        return await self.router.games_before(interaction)

    async def changed_games(self, before: GamesBefore | None,
                            interaction: discord.Interaction, written: set[int]) -> list[int]:
        """The games a slash command changed (:meth:`Router.changed_games`)."""
        return await self.router.changed_games(before, interaction, written)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer the component clicks discord.py's dispatch will not route
        (:meth:`Router.on_interaction`); note the member's client locale for their DMs
        (:meth:`note_locale`)."""
        await self.router.on_interaction(interaction)
        await self.note_locale(interaction.user.id, str(interaction.locale))

    async def note_locale(self, user_id: int, locale: str) -> None:
        """Store ``locale`` as ``user_id``'s last seen client locale (the language of their
        DMs) when it differs from what this process last stored or read for them. An
        English locale is the default: it is written only over another stored one (one
        read the first time this process sees the member), so a member who only ever
        uses English gets no row. A store failure is logged, not raised."""
        known = self._locales
        if known.get(user_id) == locale:
            return
        if len(known) >= 50_000:
            known.clear()
        try:
            if user_id not in known and supported(locale) == ENGLISH:
                stored = await self.store.member_locale(user_id)
                if stored is None or stored == locale:
                    known[user_id] = locale
                    return
            known[user_id] = locale
            await self.store.set_member_locale(user_id, locale)
        except Exception as exc:  # the next interaction tries again
            known.pop(user_id, None)
            log.info("could not store the client locale of %s: %s", user_id, exc)
