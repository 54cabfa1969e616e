"""Fresh databases for the tests that run on both store backends.

The PostgreSQL runs need a server: ``HERDBOT_TEST_DATABASE_URL`` (``.ci/run`` starts a
throw-away one and sets it). Each database is a schema of its own in that server
(``herdbot_t_<random>``, reached through the URL's ``search_path``), dropped after the test.
Without the variable the PostgreSQL runs are skipped, with :data:`SKIP_REASON`.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.store.postgres import drop_schemas, new_schema

PG_URL = os.environ.get("HERDBOT_TEST_DATABASE_URL", "").strip()
SKIP_REASON = ("PostgreSQL backend: HERDBOT_TEST_DATABASE_URL is not set (a postgresql:// URL "
               "of a server these tests may create schemas in; .ci/run starts one and sets it)")

#: ``params=`` for a fixture that runs a test on each backend (ids ``sqlite``, ``postgres``).
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.skipif(not PG_URL,
                                                                      reason=SKIP_REASON)),
]

NewDatabase = Callable[[], Awaitable["str | Path"]]


@asynccontextmanager
async def databases(backend: str, folder: Path) -> AsyncIterator[NewDatabase]:
    """``new = ...; target = await new()``: a fresh, empty database on ``backend`` per call
    (a file in ``folder``, or a new PostgreSQL schema); the schemas are dropped at exit."""
    made: list[str] = []

    async def new() -> str | Path:
        if backend == "sqlite":
            return folder / f"db{len(made)}-{secrets.token_hex(3)}.sqlite3"
        schema, url = await new_schema(PG_URL, "herdbot_t_")
        made.append(schema)
        return url

    try:
        yield new
    finally:
        if made:
            await drop_schemas(PG_URL, made)


class CuttableProxy:
    """A loopback TCP proxy to the test PostgreSQL server that the test can cut (every open
    connection dropped, new ones refused) and restore, as a network outage or a server
    restart looks to the bot. ``url(schema_url)`` points a database URL at the proxy.

    It runs on an event loop of its own in a thread, so its connections are never tasks
    of the test's loop (the sandbox's settle would wait on them as on work in progress)."""

    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._server: Any = None
        self._pipes: set[Any] = set()
        self._serving: set[Any] = set()
        self._loop: Any = None
        self._thread: Any = None
        self.port = 0

    async def _on_proxy_loop(self, coro: Any) -> Any:
        """Run ``coro`` on the proxy's loop (started on first use) and wait for it here."""
        import asyncio
        import threading

        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(target=self._loop.run_forever,
                                            name="cuttable-proxy", daemon=True)
            self._thread.start()
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self._loop))

    async def start(self) -> CuttableProxy:
        """Listen on a free loopback port (or the same one again after :meth:`cut`)."""
        await self._on_proxy_loop(self._listen())
        return self

    async def _listen(self) -> None:
        import asyncio

        async def serve(reader: Any, writer: Any) -> None:
            self._serving.add(asyncio.current_task())
            try:
                up_r, up_w = await asyncio.open_connection(*self._target)
            except OSError:
                writer.close()
                return
            self._pipes.update((writer, up_w))

            async def pump(src: Any, dst: Any) -> None:
                try:
                    while data := await src.read(65536):
                        dst.write(data)
                        await dst.drain()
                except (OSError, asyncio.CancelledError):
                    pass
                finally:
                    dst.close()

            await asyncio.gather(pump(reader, up_w), pump(up_r, writer))

        self._server = await asyncio.start_server(serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        """Drop every connection through the proxy and stop accepting new ones (the proxy's
        loop and thread end; :meth:`restore` starts them again)."""
        if self._loop is None:
            return
        await self._on_proxy_loop(self._cut())
        loop, thread = self._loop, self._thread
        self._loop = self._thread = None
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()

    async def _cut(self) -> None:
        import asyncio

        self._server.close()
        for w in list(self._pipes):
            w.transport.abort()
        self._pipes.clear()
        await self._server.wait_closed()
        serving = [t for t in self._serving if not t.done()]
        self._serving.clear()
        for t in serving:
            t.cancel()
        await asyncio.gather(*serving, return_exceptions=True)

    async def restore(self) -> None:
        """Accept connections again on the same port."""
        await self.start()

    def url(self, url: str) -> str:
        """``url`` with its host and port replaced by the proxy's."""
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        user = f"{parts.username}@" if parts.username else ""
        return parts._replace(netloc=f"{user}127.0.0.1:{self.port}").geturl()
