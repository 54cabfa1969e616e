"""The bot's requests to the simulated Discord, counted by route while switched on.

:class:`RouteCount` stands in for a sandbox world's ``requests`` list (which the benches
clear as they prune): every request appended while :attr:`RouteCount.on` is counted by
:func:`bench.clickpath.route_of` (method, path with ids as ``N``, a callback's type,
``+file``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bench.clickpath import route_of


class RouteCount(list[Any]):
    """A list of recorded requests that counts those appended while :attr:`on`."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.on = False
        self.routes: Counter[str] = Counter()

    def append(self, request: Any) -> None:
        super().append(request)
        if self.on:
            self.routes[route_of(request)] += 1


def count_routes(world: Any) -> RouteCount:
    """``world.requests`` replaced by a :class:`RouteCount` holding the same requests."""
    if not isinstance(world.requests, RouteCount):
        world.requests = RouteCount(world.requests)
    return world.requests


def per_move(routes: Counter[str], moves: int, top: int = 12) -> dict[str, Any]:
    """``{"all": requests per move, "by_route": {route: per move}}`` (the ``top`` most)."""
    n = max(1, moves)
    return {"all": round(sum(routes.values()) / n, 2),
            "by_route": {k: round(v / n, 2) for k, v in routes.most_common(top)}}
