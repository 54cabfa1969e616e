"""The SQLite file under a running bot: deleted or replaced, every later move is refused
with the "try again" answer (nothing is written to a file nobody opens again) and the log
says so in one ERROR line, once."""

from __future__ import annotations

import logging
import os

from tests.faults.common import start_tiny

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
