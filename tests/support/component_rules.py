"""Discord's documented component limits, checked on every message body the bot sent in
a test (until the sandbox refuses them itself): at most 5 action rows, at most 5 buttons
in a row and a select alone in its row, custom ids 1-100 characters and unique within the
message, string selects of 1-25 options with unique values, label/value/description at
most 100 characters, placeholder at most 150, min/max values within the options."""

from __future__ import annotations

from typing import Any

from bot.sandbox.world import walk_components


def component_problems(components: list[dict[str, Any]]) -> list[str]:
    """What in one message's ``components`` breaks Discord's limits (empty when none)."""
    problems = []
    if len(components) > 5:
        problems.append(f"{len(components)} action rows (> 5)")
    for i, row in enumerate(components):
        kids = row.get("components") or []
        if row.get("type") == 1:
            selects = [c for c in kids if c.get("type") in (3, 5, 6, 7, 8)]
            if selects and len(kids) > 1:
                problems.append(f"row {i}: a select shares its row")
            if len(kids) > 5:
                problems.append(f"row {i}: {len(kids)} components (> 5)")
    seen: set[str] = set()
    for c in walk_components(components):
        cid = c.get("custom_id")
        if cid is not None:
            if not 1 <= len(cid) <= 100:
                problems.append(f"custom_id {cid!r} is {len(cid)} characters")
            if cid in seen:
                problems.append(f"custom_id {cid!r} twice")
            seen.add(cid)
        if c.get("type") == 3:
            opts = c.get("options") or []
            if not 1 <= len(opts) <= 25:
                problems.append(f"select {cid!r}: {len(opts)} options")
            values = [o.get("value", "") for o in opts]
            if len(set(values)) != len(values):
                problems.append(f"select {cid!r}: duplicate option values")
            for o in opts:
                for key in ("label", "value", "description"):
                    if len(o.get(key) or "") > 100:
                        problems.append(f"select {cid!r}: option {key} over 100 characters")
            if len(c.get("placeholder") or "") > 150:
                problems.append(f"select {cid!r}: placeholder over 150 characters")
            lo, hi = c.get("min_values", 1), c.get("max_values", 1)
            if not 0 <= lo <= hi <= max(len(opts), 1):
                problems.append(f"select {cid!r}: min/max values {lo}/{hi} for {len(opts)} options")
        if c.get("type") == 2 and len(c.get("label") or "") > 80:
            problems.append(f"button {cid!r}: label over 80 characters")
    return problems


def message_bodies(world: Any) -> list[list[dict[str, Any]]]:
    """The ``components`` of every message body the bot sent or edited in ``world``
    (channel messages, interaction callbacks, followups, edits)."""
    out = []
    for req in world.requests:
        body = req.json if isinstance(req.json, dict) else {}
        if isinstance(body.get("data"), dict) and "type" in body:
            body = body["data"]
        if body.get("components"):
            out.append(body["components"])
    return out


def assert_components_ok(world: Any) -> int:
    """Assert every message the bot sent in ``world`` keeps Discord's component limits;
    returns how many messages with components were checked."""
    bodies = message_bodies(world)
    bad = [(i, p) for i, comps in enumerate(bodies) for p in component_problems(comps)]
    assert not bad, bad[:10]
    return len(bodies)
