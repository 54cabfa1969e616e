"""Discord's component limits for tests, through the sandbox's own checks
(:mod:`bot.sandbox.limits`): one message's components on their own, and every request a
test's world refused."""

from __future__ import annotations

from typing import Any

from bot.sandbox import limits


def component_problems(components: list[dict[str, Any]], *, flags: int = 0) -> list[str]:
    """What in one message's ``components`` (sent with ``flags``: pass
    ``limits.FLAG_COMPONENTS_V2`` for a Components V2 message) breaks Discord's limits, as
    ``path: CODE`` strings (empty when none), found by the sandbox's message check."""
    try:
        limits.check_message({"components": components, "flags": flags}, create=True)
    except limits.Refusal as refusal:
        return [f"{path}: {code}" for path, code in limits.error_paths(refusal.errors or {})]
    return []


def assert_components_ok(world: Any) -> int:
    """Assert the sandbox refused no request of ``world`` for its body (400, 50035) and
    return how many messages with components the bot sent or edited."""
    refused = [r for r in world.requests
               if r.status == 400 and isinstance(r.response, dict)
               and r.response.get("code") == 50035]
    assert not refused, refused[:5]
    count = 0
    for req in world.requests:
        body = req.json if isinstance(req.json, dict) else {}
        if isinstance(body.get("data"), dict) and "type" in body:
            body = body["data"]
        count += bool(body.get("components"))
    return count
