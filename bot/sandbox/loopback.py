"""A local Discord over loopback: the sandbox's world served as Discord's REST API (HTTP)
and gateway (a websocket) on 127.0.0.1, so that unchanged ``herdbot run`` processes
connect to it (``HERDBOT_DISCORD_API_URL``, a development-only setting).

One :class:`LocalDiscord` holds one :class:`~bot.sandbox.World` with ``guilds`` guilds
(:meth:`World.add_guild`; one text channel each, :attr:`LocalDiscord.channels`). Its
connected bot is a :class:`RemoteLink`: the same :class:`~bot.sandbox.rest.Router` (with
the strict request checks of :mod:`bot.sandbox.limits`) answers the bots' HTTP requests,
and the same member API (``member.slash``, ``click``, ``select``, ``submit_modal``) sends
real INTERACTION_CREATE dispatches down the gateway websocket of the guild's shard.

Gateway: HELLO, IDENTIFY (``shard`` [id, count], intents: the events they bring), READY
then GUILD_CREATE for each guild of the shard, heartbeat / ACK, RESUME (missed dispatches
replayed, then RESUMED; an unknown session gets INVALID_SESSION), REQUEST_GUILD_MEMBERS
(one chunk), ``compress=zlib-stream`` when asked. A guild's events go to shard ``(guild_id
>> 22) % shard_count`` (Discord's formula); those without a guild (DMs) to shard 0.

Usage (in a test, on the test's event loop)::

    discord = LocalDiscord(guilds=2)
    maya = discord.world.add_member("Maya")
    await discord.start()                      # 127.0.0.1, a free port
    env = {**os.environ, **discord.bot_env()}  # DISCORD_TOKEN, HERDBOT_DISCORD_API_URL
    proc = subprocess.Popen(["herdbot", "run"], env=env)
    await discord.wait_for_shards(1)           # IDENTIFY'd and READY
    await discord.wait_for_commands()          # the bot synced its commands
    await maya.slash("play", game="pacapaca", in_channel=discord.channels[1])
    ...
    await discord.stop()

Waiting: a member action returns once its interaction was answered (or 3 s passed, after
which Discord would show "This interaction failed"), no request reached the local Discord
for :attr:`LocalDiscord.quiet` seconds and, for the bot processes it was told of
(:meth:`LocalDiscord.watch`), none of their threads ran or waited for the CPU or the disk
in that time (``/proc/<pid>/task/*/stat``: a table being drawn sends no request while it
is drawn). The bot's timers run on its own (real) clock: ``advance`` is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import BodyPartReader, WSMsgType, web

from bot.i18n import ENGLISH, translate, translate_n

from .demo import NAMES
from .intents import receives
from .model import SandboxError, SimChannel, SimInteraction
from .runner import Sandbox
from .world import World

#: Discord's heartbeat interval (milliseconds) sent in HELLO.
HEARTBEAT_MS = 41250
#: Seconds before a heartbeat is acknowledged (a short network round trip).
ACK_DELAY = 0.02
#: Dispatches a session keeps for RESUME.
RESUME_BUFFER = 5000
#: Gateway close codes (Discord's documentation, "Gateway Close Event Codes").
CLOSE_AUTH_FAILED = 4004
CLOSE_INVALID_SHARD = 4010


def _cpu_state(pid: int) -> tuple[int | None, bool]:
    """(user + system CPU ticks of process ``pid``, whether any of its threads is running,
    runnable or in uninterruptible disk wait), from ``/proc``; ``(None, False)`` when the
    process is gone or ``/proc`` is missing."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        running = False
        for tid in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{tid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("R", "D"):
                    running = True
                    break
    except (OSError, IndexError, ValueError):
        return None, False
    return ticks, running


@dataclass
class _RemoteBot:
    """Stands in for ``link.bot``: the connected bot's intents, from its last IDENTIFY."""

    intents: discord.Intents = field(default_factory=discord.Intents.none)


class RemoteLink(Sandbox):
    """One world's connected bot when the bot runs in another process.

    Builds interaction payloads like :class:`~bot.sandbox.Sandbox` (its methods are
    inherited), but hands them to the :class:`LocalDiscord` that sends them down the
    websocket of the guild's shard; the command definitions come from what the bot synced
    (``PUT .../commands``), not from its ``CommandTree``."""

    def __init__(self, hub: LocalDiscord, world: World):
        self.remote = _RemoteBot()
        super().__init__(world, self.remote)  # type: ignore[arg-type]  # no discord.Client here
        self.hub = hub

    def gateway(self, event: str, data: dict[str, Any]) -> None:
        """Send dispatch ``event`` to the shard of its guild (DM events: shard 0)."""
        self.hub.dispatch(event, data)

    def _command_def(self, root: str, guild_id: int | None) -> tuple[Any, dict[str, Any]]:
        w = self.world
        for gid in dict.fromkeys((guild_id, None)):
            synced = w.commands.get((gid, f"1:{root}"))
            if synced is not None:
                return None, {**synced, "_guild_id": gid}
        raise SandboxError(f"the bot has not synced a /{root} command")

    async def _dispatch(self, it: SimInteraction, payload: dict[str, Any]) -> SimInteraction:
        self.hub.send_interaction(it, payload)
        await self.settle()
        if self.strict_ack and not it.responded and not it.failed:
            raise SandboxError(f"the bot never acknowledged {it!r} (interaction failed)")
        return it

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until the local Discord is quiet (see :meth:`LocalDiscord.settle`)."""
        await self.hub.settle(timeout)

    async def advance(self, seconds: float) -> None:
        """Refused: the bot's timers run on its own clock in its own process."""
        raise SandboxError("advance: over loopback the bot keeps its own (real) time")

    async def close(self) -> None:
        """Nothing to close here: bot processes disconnect themselves."""
        return None


@dataclass
class _Session:
    """One gateway session (an IDENTIFY); outlives its websocket so it can RESUME."""

    id: str
    shard_id: int
    shard_count: int
    intents: int
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    conn: _Conn | None = None
    invalid: bool = False


class _Conn:
    """One websocket: a writer task sends queued payloads in order (zlib-stream if asked)."""

    def __init__(self, ws: web.WebSocketResponse, zlib_stream: bool):
        self.ws = ws
        self.compressor = zlib.compressobj() if zlib_stream else None
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._write())

    def send(self, payload: dict[str, Any]) -> None:
        self.queue.put_nowait(payload)

    async def _write(self) -> None:
        while True:
            payload = await self.queue.get()
            if payload is None or self.ws.closed:
                return
            text = json.dumps(payload)
            try:
                if self.compressor is not None:
                    data = self.compressor.compress(text.encode())
                    data += self.compressor.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    async def close(self, code: int = 1000) -> None:
        self.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await self.task
        with contextlib.suppress(Exception):
            await self.ws.close(code=code)


def _json(body: Any, status: int = 200) -> web.Response:
    """A JSON answer typed exactly ``application/json``, as Discord sends it (discord.py
    decodes a body only under that exact content type, not with a charset)."""
    return web.Response(status=status, body=json.dumps(body).encode(),
                        content_type="application/json")


class _Form:
    """A decoded multipart body in the shape :func:`bot.sandbox.rest._decode` reads
    (aiohttp ``FormData._fields``: ``(options, headers, value)`` triples)."""

    def __init__(self, fields: list[tuple[dict[str, str], dict[str, str], Any]]):
        self._fields = fields


class LocalDiscord:
    """Discord's REST API and gateway for ``guilds`` simulated guilds, on ``host``:``port``
    (port 0: a free one, see :attr:`port` after :meth:`start`).

    ``token`` is the only bot token accepted (others: 401, gateway close 4004). ``quiet``
    is the idle time (seconds) after which :meth:`settle` considers the bots done.
    Attributes: ``world``, ``channels`` (each guild's text channel, in order),
    ``sessions`` (gateway sessions by id), ``identifies`` (count of IDENTIFYs), ``resumes``
    (count of accepted RESUMEs), ``compressed`` (websockets that asked for zlib-stream)."""

    def __init__(self, guilds: int = 1, *, token: str = "local-token", host: str = "127.0.0.1",
                 port: int = 0, quiet: float = 0.3, guild_name: str = "Herd Hall"):
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the local Discord serves loopback addresses only")
        self.token = token
        self.host = host
        self.port = port
        self.quiet = quiet
        self.world = World(guild_name if guilds == 1 else f"{guild_name} 1")
        self.link = RemoteLink(self, self.world)
        self.world.shards[0] = self.link  # one link serves every guild; routing is here
        #: The text channel of each guild, in order (the first is ``world.main``).
        self.channels = [self.world.main]
        self.sessions: dict[str, _Session] = {}
        self.identifies = 0
        self.resumes = 0
        self.compressed = 0
        self._runner: web.AppRunner | None = None
        self._conns: set[_Conn] = set()
        self._pending: list[tuple[SimInteraction, float]] = []
        self._inflight = 0
        self._last = 0.0
        self._pids: dict[int, int] = {}  # watched bot process -> its CPU ticks last seen
        #: Called as ``before_send(shard_id, payload)`` just before each dispatch is
        #: written to a session (tests use it to act at an exact point, e.g. kill a bot
        #: process while a click is on its way to it); None: nothing.
        self.before_send: Callable[[int, dict[str, Any]], None] | None = None
        #: Counts the moments :meth:`settle` found everything quiet: every wait that began
        #: before such a moment ends with it, so that many members acting at once move in
        #: step instead of the first one back starving the others.
        self._quiet_epoch = 0
        for i in range(1, guilds):
            self.add_guild(f"{guild_name} {i + 1}")

    # ------------------------------------------------------------------ guilds
    def add_guild(self, name: str) -> SimChannel:
        """A new guild (:meth:`World.add_guild`: its id starts a new millisecond, so
        consecutive guilds fall on consecutive shards); returns its text channel. Connected
        shards get its GUILD_CREATE."""
        ch = self.world.add_guild(name)
        self.channels.append(ch)
        if self.sessions:
            self.dispatch("GUILD_CREATE", self.world.guild_payload(ch.guild_id))
        return ch

    @staticmethod
    def shard_of(guild_id: int, shard_count: int) -> int:
        """Discord's shard formula: ``(guild_id >> 22) % shard_count``."""
        return (guild_id >> 22) % shard_count

    # ------------------------------------------------------------------ server
    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def api_url(self) -> str:
        """The REST base a bot uses (``HERDBOT_DISCORD_API_URL``)."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.base_url.split('://', 1)[1]}/gateway"

    def bot_env(self) -> dict[str, str]:
        """The environment a ``herdbot run`` process needs to use this local Discord."""
        return {"DISCORD_TOKEN": self.token, "HERDBOT_DISCORD_API_URL": self.api_url}

    async def start(self) -> None:
        """Listen on :attr:`host`:`port` (the port is known afterwards)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._ws)
        app.router.add_route("*", "/api/v{version:\\d+}/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]

    async def stop(self) -> None:
        """Close every websocket and the server."""
        for conn in list(self._conns):
            await conn.close(1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def drop_connections(self, shard_id: int | None = None) -> None:
        """Close the websockets (of ``shard_id``, or all) as a network cut would; their
        sessions stay, so the bot can RESUME."""
        for s in self.sessions.values():
            if s.conn is not None and shard_id in (None, s.shard_id):
                conn, s.conn = s.conn, None
                await conn.close(4000)

    # ------------------------------------------------------------------ waiting
    def _touch(self) -> None:
        self._last = asyncio.get_running_loop().time()

    def watch(self, pid: int) -> None:
        """Count bot process ``pid`` as busy in :meth:`settle` while any of its threads
        runs, waits for the CPU or for the disk, or used CPU time (Linux ``/proc``)."""
        self._pids[pid] = -1

    def unwatch(self, pid: int) -> None:
        """Stop watching ``pid`` (it exited)."""
        self._pids.pop(pid, None)

    def _processes_busy(self) -> bool:
        busy = False
        for pid, seen in list(self._pids.items()):
            ticks, running = _cpu_state(pid)
            if ticks is None:
                continue  # gone (killed): nothing more to wait for
            if running or ticks != seen:
                busy = True
            self._pids[pid] = ticks
        return busy

    def connected_shards(self) -> list[tuple[int, int]]:
        """``(shard_id, shard_count)`` of every session with an open websocket."""
        return sorted((s.shard_id, s.shard_count) for s in self.sessions.values()
                      if s.conn is not None and not s.invalid)

    async def wait_for_shards(self, count: int, timeout: float = 60.0) -> None:
        """Wait until ``count`` shards are connected and READY was sent to them."""
        await self.wait_until(lambda: len(self.connected_shards()) >= count, timeout,
                              f"{count} shard(s) to connect")

    async def wait_for_commands(self, timeout: float = 60.0) -> None:
        """Wait until the bot synced its application commands."""
        await self.wait_until(lambda: bool(self.world.commands), timeout, "the bot's commands")

    async def wait_until(self, done: Any, timeout: float, what: str) -> None:
        """Poll ``done()`` every 50 ms until true; :class:`SandboxError` naming ``what``
        after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not done():
            if loop.time() > end:
                raise SandboxError(f"timed out after {timeout:g}s waiting for {what}")
            await asyncio.sleep(0.05)

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every interaction sent was answered (or is 3 s old: Discord would
        show "This interaction failed") and no request arrived for :attr:`quiet` seconds
        (or another waiter saw that moment since this wait began).
        Raises :class:`SandboxError` after ``timeout`` seconds (default 60), or when a
        bot requested a route the local Discord does not know."""
        loop = asyncio.get_running_loop()
        end = loop.time() + (timeout or 60.0)
        epoch = self._quiet_epoch
        while True:
            if self._quiet_epoch > epoch:
                break  # quiet was seen since this wait began (by any waiter): all go on
            now = loop.time()
            self._pending = [(it, t) for it, t in self._pending
                             if not it.responded and not it.failed and now - t < 3.0]
            if self._processes_busy():
                self._last = now
            if not self._pending and self._inflight == 0 and now - self._last >= self.quiet:
                self._quiet_epoch += 1
                break
            if now > end:
                raise SandboxError(f"settle timed out: {len(self._pending)} interaction(s) "
                                   f"unanswered, {self._inflight} request(s) in flight")
            await asyncio.sleep(min(0.05, self.quiet / 4))
        errors = self.link.take_errors()
        if errors:
            raise SandboxError(f"{len(errors)} error(s):\n" + "\n".join(map(str, errors)))

    # ------------------------------------------------------------------ dispatching
    def _shard_sessions(self, shard_of: Any) -> Iterable[_Session]:
        for s in self.sessions.values():
            if not s.invalid and s.shard_id == shard_of(s.shard_count):
                yield s

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send dispatch ``event`` to the sessions of the shard that owns ``data``'s guild
        (``guild_id`` in ``data``; without one, a DM event: shard 0) whose intents bring it
        (:func:`~bot.sandbox.intents.receives`). One without a websocket keeps it for RESUME."""
        gid = data.get("guild_id")
        if gid is None and event.startswith("GUILD_") and "id" in data:
            gid = data["id"]  # GUILD_CREATE / GUILD_UPDATE carry the guild as "id"
        self._touch()
        for s in self._shard_sessions(
                lambda count: self.shard_of(int(gid), count) if gid is not None else 0):
            if receives(s.intents, event, data, self.world.application_id):
                self._send_dispatch(s, event, data)

    def _send_dispatch(self, s: _Session, event: str, data: dict[str, Any]) -> None:
        s.seq += 1
        payload = {"op": 0, "t": event, "s": s.seq, "d": data}
        s.sent.append(payload)
        if len(s.sent) > RESUME_BUFFER:
            del s.sent[: len(s.sent) - RESUME_BUFFER]
        if self.before_send is not None:
            self.before_send(s.shard_id, payload)
        if s.conn is not None:
            s.conn.send(payload)

    def send_interaction(self, it: SimInteraction, payload: dict[str, Any]) -> None:
        """Send INTERACTION_CREATE for ``it`` (guild: its shard; DM: shard 0)."""
        self._pending.append((it, asyncio.get_running_loop().time()))
        self.dispatch("INTERACTION_CREATE", payload)

    # ------------------------------------------------------------------ gateway
    def _guilds_of(self, s: _Session) -> list[int]:
        return [gid for gid in self.world.guilds
                if self.shard_of(gid, s.shard_count) == s.shard_id]

    def _ready(self, s: _Session) -> dict[str, Any]:
        w = self.world
        return {
            "v": 10, "user": w.bot_user(), "session_id": s.id,
            "guilds": [{"id": str(gid), "unavailable": True} for gid in self._guilds_of(s)],
            "resume_gateway_url": self.gateway_url, "shard": [s.shard_id, s.shard_count],
            "application": {"id": str(w.application_id), "flags": 1 << 19},
            "private_channels": [], "relationships": [], "presences": [],
            "guild_join_requests": [], "user_settings": {}, "auth": {},
        }

    async def _ws(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = _Conn(ws, request.query.get("compress") == "zlib-stream")
        self.compressed += conn.compressor is not None
        self._conns.add(conn)
        session: _Session | None = None
        conn.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                data = json.loads(msg.data)
                op, d = data.get("op"), data.get("d")
                if op == 1:
                    # After a network's worth of delay: discord.py notes the time of its
                    # heartbeat only once the send returned, and an ACK arriving before
                    # that reads as 41 s of latency ("Can't keep up").
                    asyncio.get_running_loop().call_later(
                        ACK_DELAY, conn.send, {"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:
                    session = await self._identify(conn, d)
                    if session is None:
                        break
                elif op == 6:
                    session = await self._resume(conn, d)
                elif op == 8 and session is not None:
                    self._chunk(session, conn, d)
                # op 3 (presence) and op 4 (voice) need no answer.
        finally:
            self._conns.discard(conn)
            if session is not None and session.conn is conn:
                session.conn = None
            await conn.close()
        return ws

    async def _identify(self, conn: _Conn, d: dict[str, Any]) -> _Session | None:
        if d.get("token") != self.token:
            await conn.close(CLOSE_AUTH_FAILED)
            return None
        shard_id, count = d.get("shard") or [0, 1]
        if not (0 <= shard_id < count):
            await conn.close(CLOSE_INVALID_SHARD)
            return None
        for old in self.sessions.values():  # a new IDENTIFY replaces the shard's session
            if old.shard_id == shard_id and old.shard_count == count:
                old.invalid = True
        self.identifies += 1
        s = _Session(f"local{self.world.clock.snowflake()}", shard_id, count,
                     int(d.get("intents", 0)))
        self.sessions[s.id] = s
        self.link.remote.intents = discord.Intents._from_value(s.intents)
        s.conn = conn
        self._send_dispatch(s, "READY", self._ready(s))
        for gid in self._guilds_of(s):
            self._send_dispatch(s, "GUILD_CREATE", self.world.guild_payload(gid))
        self._touch()
        return s

    async def _resume(self, conn: _Conn, d: dict[str, Any]) -> _Session | None:
        s = self.sessions.get(str(d.get("session_id")))
        if s is None or s.invalid or d.get("token") != self.token:
            conn.send({"op": 9, "d": False, "s": None, "t": None})
            return None
        s.conn = conn
        self.resumes += 1
        seq = int(d.get("seq") or 0)
        for payload in s.sent:
            if payload["s"] > seq:
                conn.send(payload)
        self._send_dispatch(s, "RESUMED", {})
        self._touch()
        return s

    def _chunk(self, s: _Session, conn: _Conn, d: dict[str, Any]) -> None:
        gid = int(d["guild_id"])
        members = self.world.guild_payload(gid)["members"]
        self._send_dispatch(s, "GUILD_MEMBERS_CHUNK", {
            "guild_id": str(gid), "members": members, "chunk_index": 0,
            "chunk_count": 1, "nonce": d.get("nonce"), "not_found": []})

    # ------------------------------------------------------------------ REST
    async def _body(self, request: web.Request) -> Any:
        """The request's body as the router decodes it: JSON text, or a :class:`_Form`."""
        if request.content_type.startswith("multipart/"):
            fields: list[tuple[dict[str, str], dict[str, str], Any]] = []
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not isinstance(part, BodyPartReader):
                    raise web.HTTPBadRequest(text="nested multipart bodies are not supported")
                raw = await part.read()
                opts = {"name": part.name or ""}
                if part.filename:
                    opts["filename"] = part.filename
                hdrs = {"Content-Type": part.headers.get("Content-Type", "")}
                value = raw.decode() if part.name == "payload_json" else bytes(raw)
                fields.append((opts, hdrs, value))
            return _Form(fields)
        raw = await request.read()
        return raw.decode() if raw else None

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        self._inflight += 1
        self._touch()
        try:
            path = "/" + request.match_info["tail"]
            if path in ("/gateway", "/gateway/bot"):
                return self._gateway_info(request, path)
            webhook = path.startswith(("/interactions/", "/webhooks/"))
            if not webhook and request.headers.get("Authorization") != f"Bot {self.token}":
                return _json({"message": "401: Unauthorized", "code": 0}, 401)
            data = await self._body(request)
            resp = self.link.router.handle(request.method, str(request.url), data, None,
                                      dict(request.headers))
            raw = await resp.read() if resp.status != 204 else b""
            headers = {k: v for k, v in resp.headers.items() if k.lower() != "content-type"}
            return web.Response(status=resp.status, body=raw or None, headers=headers,
                                content_type=resp.headers.get("content-type") if raw else None)
        finally:
            self._inflight -= 1
            self._touch()

    def _gateway_info(self, request: web.Request, path: str) -> web.Response:
        body: dict[str, Any] = {"url": self.gateway_url}
        if path == "/gateway/bot":
            if request.headers.get("Authorization") != f"Bot {self.token}":
                return _json({"message": "401: Unauthorized", "code": 0}, 401)
            body["shards"] = 1
            body["session_start_limit"] = {"total": 1000, "remaining": 1000,
                                           "reset_after": 0, "max_concurrency": 16}
        return _json(body)


async def serve(*, port: int, guilds: int, members: int, token: str = "local-token",
                lang: str = ENGLISH, command: str = "herdbot") -> None:
    """Run a local Discord until cancelled (``herdbot local-discord``): ``guilds`` guilds
    with ``members`` members each (named as in ``herdbot demo``); it prints, in ``lang``
    (the operator's), the line that starts a bot against it with ``command``."""
    hub = LocalDiscord(guilds, token=token, port=port)
    for i in range(members):
        name = NAMES[i % len(NAMES)]
        hub.world.add_member(name if members <= len(NAMES) else f"{name} {i + 1}")
    await hub.start()
    print(translate_n(lang, "Local Discord (development only) on {url} with {count} server.",
                      "Local Discord (development only) on {url} with {count} servers.",
                      guilds, url=hub.api_url))
    print(translate(lang, "Start a bot against it with:"))
    print(f"  DISCORD_TOKEN={hub.token} HERDBOT_DISCORD_API_URL={hub.api_url} \\\n"
          f"    HERDBOT_DATABASE=local.sqlite3 {command} run", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await hub.stop()
