"""Test-only support code (never shipped in /play)."""


async def close_world(world) -> None:  # type: ignore[no-untyped-def]
    """Fixture teardown: disconnect a bot a failed test left connected, so aiosqlite's
    worker thread ends and pytest can exit (errors there belong to the failed test)."""
    if getattr(world, "sandbox", None) is not None:
        try:
            await world.sandbox.close()
        except BaseException:  # noqa: BLE001 - teardown after a failure; already reported
            pass
