"""discord.py's HTTP session as the sandbox replaces it: :class:`FakeSession` hands every
request to the sandbox's REST router (:class:`~bot.sandbox.rest.Router`) and
:class:`FakeResponse` is its answer; :func:`decode` reads a request's body."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from .model import SandboxError, SimFile


class FakeResponse:
    """Just enough of ``aiohttp.ClientResponse`` for discord.py's request loops."""

    def __init__(self, method: str, url: str, status: int, body: Any,
                 headers: dict[str, str] | None = None):
        self.method = method
        self.url = url
        self.status = status
        self.reason = _REASONS.get(status, "OK")
        self._body = body
        self.headers = {"content-type": "application/json"} if body is not None else {}
        if headers:
            self.headers.update(headers)

    async def text(self, encoding: str = "utf-8") -> str:
        if isinstance(self._body, bytes):
            return self._body.decode(encoding, "replace")
        return "" if self._body is None else json.dumps(self._body)

    async def read(self) -> bytes:
        if isinstance(self._body, bytes):
            return self._body
        return (await self.text()).encode()

    async def json(self) -> Any:
        return self._body

    async def __aenter__(self) -> FakeResponse:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None

    def release(self) -> None:
        return None


_REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 401: "Unauthorized",
            403: "Forbidden", 404: "Not Found", 429: "Too Many Requests"}


class FakeSession:
    """Replaces discord.py's ``aiohttp.ClientSession`` for one connected bot."""

    def __init__(self, sandbox: Any):  # a bot.sandbox.Sandbox (its router answers)
        self.sandbox = sandbox
        self.closed = False

    def request(self, method: str, url: str, *, data: Any = None, params: Any = None,
                headers: dict[str, str] | None = None, **_: Any) -> FakeResponse:
        return self.sandbox.router.handle(method, url, data, params, headers or {})

    def post(self, url: str, **kw: Any) -> FakeResponse:
        return self.request("POST", url, **kw)

    def get(self, url: str, **kw: Any) -> FakeResponse:
        host = urlsplit(url).netloc
        if host in ("cdn.discordapp.com", "media.discordapp.net"):
            return self.sandbox.router.cdn(url)
        return self.request("GET", url, **kw)

    async def ws_connect(self, *a: Any, **kw: Any) -> Any:
        raise SandboxError("the sandbox has no gateway websocket")

    async def close(self) -> None:
        self.closed = True


def decode(data: Any) -> tuple[Any, list[SimFile]]:
    """Decode a request body: JSON text, or an aiohttp FormData with payload_json + files."""
    if data is None:
        return None, []
    if isinstance(data, (str, bytes)):
        return (json.loads(data) if data else None), []
    fields = getattr(data, "_fields", None)
    if fields is None:
        raise SandboxError(f"cannot decode request body {type(data)!r}")
    payload: Any = None
    files: list[SimFile] = []
    for opts, hdrs, value in fields:
        name = opts["name"]
        if name == "payload_json":
            payload = json.loads(value)
            continue
        raw = value.read() if hasattr(value, "read") else value
        if isinstance(raw, str):
            raw = raw.encode()
        files.append(SimFile(name, opts.get("filename") or name, bytes(raw),
                             hdrs.get("Content-Type")))
    return payload, files
