"""Test-only support code (never shipped in /play)."""


async def close_world(world) -> None:  # type: ignore[no-untyped-def]
    """Fixture teardown: disconnect a bot a failed test left connected, so aiosqlite's
    worker thread ends and pytest can exit (errors there belong to the failed test)."""
    shards = getattr(world, "shards", None)  # every shard's bot
    connected = (list(dict.fromkeys(shards.values())) if shards is not None
                 else [s for s in [getattr(world, "sandbox", None)] if s is not None])
    for sandbox in connected:
        try:
            await sandbox.close()
        except BaseException:  # noqa: BLE001 - teardown after a failure; already reported
            pass


def table_lines(thread) -> list[str]:  # type: ignore[no-untyped-def]
    """Every line a thread shows: message contents and the lines of the tables' embeds
    (a timeout's note leads the next table's lines: it has no message of its own)."""
    out: list[str] = []
    for m in thread.all_messages:
        out.append(m.content)
        for embed in m.embeds:
            out += (embed.get("description") or "").split("\n")
    return out
