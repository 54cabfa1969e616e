"""The bot's requests to the simulated Discord, counted by route while switched on.

:class:`RouteCount` stands in for a sandbox world's ``requests`` list (which the benches
clear as they prune): every request appended while :attr:`RouteCount.on` is counted by
:func:`kind_of` (method, path with ids as ``N``, a callback's type, ``+file``, and
which refusal a private reply is)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bench.clickpath import route_of
from bot.discord.errors import BUSY, BUSY_COMMAND

#: How a private reply (a response or followup) that begins with the no-entry sign is
#: told apart: the busy refusal, or another refusal (stale click, error).
REFUSAL = "\N{NO ENTRY SIGN}"


def kind_of(request: Any) -> str:
    """:func:`bench.clickpath.route_of`, with `` busy`` for a busy refusal (of a click or
    a command) and `` refused`` for another refusal sentence (the reply's content starts with the
    no-entry sign)."""
    route = route_of(request)
    body = request.json if isinstance(request.json, dict) else {}
    data = body.get("data") if isinstance(body.get("data"), dict) else body
    content = data.get("content") if isinstance(data, dict) else None
    if isinstance(content, str) and content.startswith(REFUSAL):
        return route + (" busy" if BUSY in content or BUSY_COMMAND in content else " refused")
    return route


class RouteCount(list[Any]):
    """A list of recorded requests that counts those appended while :attr:`on`."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.on = False
        self.routes: Counter[str] = Counter()

    def append(self, request: Any) -> None:
        super().append(request)
        if self.on:
            self.routes[kind_of(request)] += 1


def count_routes(world: Any) -> RouteCount:
    """``world.requests`` replaced by a :class:`RouteCount` holding the same requests."""
    if not isinstance(world.requests, RouteCount):
        world.requests = RouteCount(world.requests)
    return world.requests


def per_move(routes: Counter[str], moves: int, top: int = 16) -> dict[str, Any]:
    """``{"all": requests per move, "by_route": {route: per move}}`` (the ``top`` most)."""
    n = max(1, moves)
    return {"all": round(sum(routes.values()) / n, 2),
            "by_route": {k: round(v / n, 2) for k, v in routes.most_common(top)}}


def busy_answers(routes: Counter[str]) -> int:
    """How many of the counted requests were busy refusals (:func:`kind_of`'s `` busy``)."""
    return sum(n for route, n in routes.items() if route.endswith(" busy"))
