"""Where a pyinstrument profile of the capacity bench spends its time, by function and
by part of the program."""

from __future__ import annotations

from typing import Any


def area(path: str) -> str:
    """The part of the program a source file belongs to: ``sandbox`` (the simulated
    Discord), ``bench``, or the bot's part (``bot.render``, ``discord.py``, ``PIL`` ...)."""
    p = path.replace("\\", "/")
    if "/bot/sandbox/" in p:
        return "sandbox"
    if "/bench/" in p:
        return "bench"
    for mark, name in (("/site-packages/discord/", "discord.py"), ("/PIL/", "PIL"),
                       ("/pydantic", "pydantic"), ("/aiosqlite/", "aiosqlite"),
                       ("/asyncio/", "asyncio"), ("/json/", "json"),
                       ("/cogs/", "cogs")):
        if mark in p:
            return name
    if "/bot/" in p:
        return "bot." + p.split("/bot/", 1)[1].split("/", 1)[0].removesuffix(".py")
    return "other"


def top_costs(session: Any, n: int = 8) -> list[dict[str, Any]]:
    """The ``n`` largest self times in a pyinstrument session of the main thread, by
    function, with the area each runs for (see :func:`area`; a built-in function counts
    for its caller's area), as a ``share`` of the busy time (sampled time minus the loop
    waiting in ``epoll``/``select``); then one row per area (``where`` = ``area:<name>``)
    and the idle share (``where`` = ``idle``)."""
    root = session.root_frame()
    if root is None:
        return []
    by_fn: dict[str, float] = {}
    by_area: dict[str, float] = {}
    idle = 0.0
    todo: list[tuple[Any, str]] = [(root, "other")]
    while todo:
        fr, parent_area = todo.pop()
        path = fr.file_path or ""
        builtin = not path or path.startswith("<")
        a = parent_area if builtin else area(path)
        real = [c for c in fr.children if not c.is_synthetic]
        todo.extend((c, a) for c in real)
        self_t = fr.time - sum(c.time for c in real)
        if self_t <= 0:
            continue
        if builtin and fr.function in ("poll", "select", "epoll.poll", "select.select"):
            idle += self_t
            continue
        where = path if builtin else fr.file_path_short
        key = f"{fr.function} ({where}:{fr.line_no}) [{a}]"
        by_fn[key] = by_fn.get(key, 0.0) + self_t
        by_area[a] = by_area.get(a, 0.0) + self_t
    busy = sum(by_area.values()) or 1e-9
    rows = [{"where": k, "share": round(v / busy, 4), "seconds": round(v, 3)}
            for k, v in sorted(by_fn.items(), key=lambda kv: -kv[1])[:n]]
    rows += [{"where": f"area:{k}", "share": round(v / busy, 4), "seconds": round(v, 3)}
             for k, v in sorted(by_area.items(), key=lambda kv: -kv[1])]
    rows.append({"where": "idle (of all sampled time)", "share": round(idle / (idle + busy), 4),
                 "seconds": round(idle, 3)})
    return rows
