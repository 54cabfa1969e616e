"""``herdbot backup PATH`` copies the live database while another process holds the writer
lock and writes; the copy opens and holds whole games."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store
from bot.store.migrations import SCHEMA_VERSION

ENV = {k: v for k, v in os.environ.items()
       if k != "DISCORD_TOKEN" and (not k.startswith("HERDBOT_") or k == "HERDBOT_ROOT")}

#: A writer like the bot: holds the writer lock and plays games of three actions each, one
#: transaction per step, printing the number of finished games after each.
WRITER = """
import asyncio, sys
from bot.store import Store
from bot.store.lock import WriterLock

async def play(path):
    with WriterLock(path):
        store = await Store.open(path)
        n = 0
        while True:
            rec = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                          host_name="Ana", options={}, seed=n)
            await store.start_game(rec.id, state='{"v": 0}', version=0)
            for v in (1, 2, 3):
                await store.commit_action(rec.id, expected_version=v - 1,
                                          state='{"v": %d}' % v, version=v, seat="s0",
                                          action={"type": "add", "n": v}, events=[])
            n += 1
            print(n, flush=True)

asyncio.run(play(sys.argv[1]))
"""


def _games_in(path: Path) -> list[tuple[int, str, int, str | None, int, int]]:
    """Per game: id, status, version, state, seats, actions; checks the actions are 1..v."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT g.id, g.status, g.version, g.state,"
            " (SELECT COUNT(*) FROM seats s WHERE s.game_id=g.id),"
            " (SELECT COUNT(*) FROM actions a WHERE a.game_id=g.id)"
            " FROM games g ORDER BY g.id").fetchall()
        for gid, _, version, _, _, _ in rows:
            versions = [v for (v,) in conn.execute(
                "SELECT version FROM actions WHERE game_id=? ORDER BY version", (gid,))]
            assert versions == list(range(1, version + 1))
    finally:
        conn.close()
    return rows


def test_a_backup_taken_while_another_process_writes_is_whole(tmp_path):
    db = tmp_path / "herdbot.sqlite3"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], env=ENV, cwd=tmp_path,
                              text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finished = [0]

    def follow() -> None:
        assert writer.stdout is not None
        for line in writer.stdout:
            finished[0] = int(line)

    threading.Thread(target=follow, daemon=True).start()
    try:
        deadline = time.monotonic() + 60
        while finished[0] < 30:
            assert writer.poll() is None, writer.stderr.read() if writer.stderr else ""
            assert time.monotonic() < deadline, "the writer is too slow"
            time.sleep(0.01)
        done_before = finished[0]
        copy = tmp_path / "copy.sqlite3"
        proc = subprocess.run([sys.executable, "-m", "bot", "backup", str(copy)],
                              env={**ENV, "HERDBOT_DATABASE": str(db)}, cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
        time.sleep(0.2)
        assert writer.poll() is None  # still writing: the backup did not stop it
        done_after = finished[0]
    finally:
        writer.kill()
        writer.communicate()
    assert proc.returncode == 0, proc.stderr
    games = _games_in(copy)
    assert proc.stdout == (f"herdbot: backed up {db} to {copy} ({len(games)} games, schema "
                           f"version {SCHEMA_VERSION}, {copy.stat().st_size} bytes).\n")
    assert done_after > done_before  # the writer went on during and after the backup
    assert len(games) >= done_before
    whole = [g for g in games if g[1] == "active" and g[2] == 3]
    assert len(whole) >= done_before
    for gid, status, version, state, seats, actions in games:
        assert seats == 1 and actions == version
        assert state == (None if status == "lobby" else f'{{"v": {version}}}'), gid
    assert not Path(f"{copy}-wal").exists()
    conn = sqlite3.connect(copy)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()

    async def reopen() -> None:  # what a restore does: the bot opens the copy
        store = await Store.open(copy)
        record = await store.get_game(whole[0][0])
        assert record is not None and (record.status, record.version) == ("active", 3)
        assert [a.version for a in await store.actions(whole[0][0])] == [1, 2, 3]
        await store.close()

    asyncio.run(reopen())


def test_backup_into_a_folder_names_the_copy_by_time(tmp_path, monkeypatch, capsys):
    db = tmp_path / "herdbot.sqlite3"

    async def make() -> None:
        store = await Store.open(db)
        await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                host_name="Ana", options={}, seed=1)
        await store.close()

    asyncio.run(make())
    folder = tmp_path / "backups"
    folder.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HERDBOT_DATABASE", str(db))
    assert main(["backup", str(folder)]) == 0
    (copy,) = folder.iterdir()
    assert copy.name.startswith("herdbot-") and copy.suffix == ".sqlite3"
    assert len(copy.name) == len("herdbot-20261201-120000.sqlite3")
    assert capsys.readouterr().out == (f"herdbot: backed up {db} to {copy} (1 game, schema "
                                       f"version {SCHEMA_VERSION}, {copy.stat().st_size} "
                                       "bytes).\n")


@pytest.mark.parametrize("case", ["no database", "target folder under a file"])
def test_backup_failures_are_one_line_and_create_nothing(tmp_path, monkeypatch, capsys, case):
    db = tmp_path / "herdbot.sqlite3"
    if case == "target folder under a file":
        sqlite3.connect(db).close()
        (tmp_path / "afile").write_text("")
    target = tmp_path / "afile" / "backups" / "copy.sqlite3" \
        if case == "target folder under a file" else tmp_path / "copy.sqlite3"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HERDBOT_DATABASE", str(db))
    assert main(["backup", str(target)]) == 1
    expected = (f"herdbot: cannot use the database {db}: no such file.\n"
                if case == "no database" else
                f"herdbot: cannot write the backup {target}: cannot create its folder "
                f"{target.parent} (Not a directory).\n")
    assert capsys.readouterr() == ("", expected)
    assert db.exists() == (case != "no database")  # a backup never creates the database
    assert not target.exists()


@pytest.mark.parametrize("given", ["backups/2026/herdbot-2026-12-01.sqlite3", "backups/new/"])
def test_backup_creates_the_missing_folders_of_its_target(tmp_path, monkeypatch, capsys,
                                                          given):
    db = tmp_path / "herdbot.sqlite3"
    sqlite3.connect(db).close()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HERDBOT_DATABASE", str(db))
    assert main(["backup", given]) == 0
    (copy,) = (tmp_path / given).parent.iterdir() if not given.endswith("/") \
        else (tmp_path / given).iterdir()
    if given.endswith("/"):
        assert copy.name.startswith("herdbot-") and copy.suffix == ".sqlite3"
    else:
        assert copy == tmp_path / given
    assert capsys.readouterr() == (
        f"herdbot: backed up {db} to {copy.relative_to(tmp_path)} (0 games, schema version "
        f"0, {copy.stat().st_size} bytes).\n", "")
