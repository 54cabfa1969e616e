"""The SQLite file under a running bot: deleted or replaced, every later move is refused
with the "try again" answer (nothing is written to a file nobody opens again) and the log
says so in one ERROR line, once."""

from __future__ import annotations

import asyncio
import logging
import os

from bot.runtime import Clock, GameService
from bot.store import Store
from tests.faults.common import start_tiny
from tests.support.tinygame import tiny_registry

STORE_DOWN = ("\N{NO ENTRY SIGN} herdbot cannot save anything right now (its database is "
              "full or unavailable), so this was not done. Please try again in a few minutes.")


def gone_line(path: object, how: str) -> str:
    return (f"herdbot: the database file {path} was {how} while herdbot ran, so herdbot "
            "takes no more moves (they would be lost with it): stop herdbot, put the file "
            "back or restore a backup (README: The database), and start it again.")


async def test_a_database_file_deleted_under_the_bot_refuses_every_later_move(
        world, sb, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    sb.raise_errors = False  # (the sandbox raises on the one ERROR line, checked below)
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    table = lobby.thread.last_message
    (tmp_path / "bot.sqlite3").unlink()
    for _ in range(3):
        await ana.click(table, "Add 1")
        assert ana.last_reply.content == STORE_DOWN and ana.last_reply.ephemeral
    assert (await sb.bot.store.get_game(1)).version == 0  # (read from the opened file)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [(r.name, r.getMessage(), r.exc_info) for r in errors] == [
        ("bot.store.sqlite", gone_line(tmp_path / "bot.sqlite3", "deleted"), None)]
    assert not (tmp_path / "bot.sqlite3").exists()  # nothing created in its place


async def test_a_database_file_replaced_under_the_bot_refuses_every_later_move(
        world, sb, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    sb.raise_errors = False  # (the sandbox raises on the one ERROR line, checked below)
    ana, bo = world.member("Ana"), world.member("Bo")
    lobby = await start_tiny(world, ana, [bo])
    other = tmp_path / "other.sqlite3"
    other.write_bytes(b"")
    os.replace(other, tmp_path / "bot.sqlite3")
    await ana.click(lobby.thread.last_message, "Add 1")
    assert ana.last_reply.content == STORE_DOWN
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [gone_line(tmp_path / "bot.sqlite3", "replaced")]
    assert (tmp_path / "bot.sqlite3").read_bytes() == b""  # the new file is left alone


async def test_a_database_file_deleted_under_an_idle_bot_is_logged_within_seconds(
        tmp_path, caplog, monkeypatch):
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(GameService, "STORE_WATCH_EVERY_S", 0.05)
    path = tmp_path / "idle.sqlite3"
    store = await Store.open(path)
    service = GameService(store, tiny_registry(), clock=Clock())
    try:
        service.start_store_watch()
        path.unlink()
        for _ in range(100):  # nothing is read or written meanwhile: the watch sees it
            await asyncio.sleep(0.02)
            if any(r.levelno >= logging.ERROR for r in caplog.records):
                break
        errors = [(r.name, r.getMessage()) for r in caplog.records if r.levelno >= logging.ERROR]
        assert errors == [("bot.store.sqlite", gone_line(path, "deleted"))]
        await asyncio.sleep(0.2)  # later looks say nothing more
        assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1
    finally:
        await service.supervisor.stop()
        await store.close()
