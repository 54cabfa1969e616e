"""``herdbot migrate-store FROM TO`` (bot/store/transfer.py): a SQLite database with played
games copied into a new database of each backend and back, row for row."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from bot.config import redacted
from bot.runtime import GameService, ManualClock
from bot.store import GuildSettings, Store
from bot.store.ratings import INSERT_HISTORY, UPSERT_RATING
from bot.store.transfer import TABLES, TargetNotEmpty, transfer
from tests.support.tinygame import Add, tiny_registry


async def _played(path) -> None:
    """A SQLite file with a game under way, a lobby, their timers (the game's rules and
    idle timers, the lobby's closing), stats, settings."""
    clock = ManualClock()
    store = await Store.open(path, clock=clock.now)
    svc = GameService(store, tiny_registry(), clock=clock)
    up = await svc.create_lobby("tiny", guild_id=1_300_000_000_000_000_000, channel_id=2,
                                host_id=10, host_name="Ana", seed=42)
    gid = up.record.id
    await svc.join(gid, 11, "Bo")
    await svc.start(gid, 10)
    await svc.act(gid, "s0", Add(n=2))
    await svc.act(gid, "s1", {"type": "wait"})  # arms a rules timer
    await svc.create_lobby("tiny", guild_id=1, channel_id=2, host_id=12, host_name="Cy", seed=1)
    await store.record_result(1, "tiny", [(10, True, 20), (11, False, 7)])
    await store.save_guild_settings(GuildSettings(guild_id=1, turn_timer="2m",
                                                  max_open_lobbies=5, end_idle_games=False))
    await store.set_member_prefs(11, dm_opt_out=True)
    # The columns of migrations 5 and 6 (a 64-bit DM channel id among them).
    await store.set_dm_channel(11, 1_400_000_000_000_000_001)
    await store.set_seat(gid, "s1", dm_hand="h1")
    # Migration 9: a rating, a rated seat's history row, the server's season.
    async with store._tx() as db:
        await db.execute(UPSERT_RATING, (1, "tiny", 0, 10, "Ana", 27.5, 7.9, 3.8, 1, 1, 5.0))
        await db.execute(INSERT_HISTORY, (9, "s0", 1, "tiny", 0, 10, None, "Ana", 0, 27.5,
                                          7.9, 3.8, 5.0))
    await store.start_season(1)
    await store.mark_shown(gid, 2)
    # Migration 14: a private line kept for a seat's next look.
    await store.keep_unseen(gid, "s1", ["You draw **Woolly Ram**."])
    await store.close()


async def _dump(target) -> dict[str, list[dict]]:
    store = await Store.open(target)
    try:
        return {t: sorted((dict(r) for r in await store._all(f"SELECT * FROM {t}")), key=repr)
                for t in TABLES}
    finally:
        await store.close()


async def test_migrate_store_copies_every_row_there_and_back(tmp_path, database):
    source = tmp_path / "source.sqlite3"
    await _played(source)
    report = await transfer(source, database)
    assert report.rows == {"games": 2, "seats": 3, "actions": 2, "timers": 3, "stats": 2,
                           "guild_settings": 1, "member_prefs": 1, "ratings": 1,
                           "rating_history": 1, "presets": 0, "unseen_lines": 1}
    back = tmp_path / "back.sqlite3"
    await transfer(database, back)
    before, there, again = await _dump(source), await _dump(database), await _dump(back)
    assert there == before and again == before
    assert sorted((r["game_id"], r["kind"]) for r in before["timers"]) == [
        (1, "idle"), (1, "rules"), (2, "lobby")]
    assert [(r["user_id"], r["dm_channel_id"]) for r in before["member_prefs"]] == [
        (11, 1_400_000_000_000_000_001)]
    assert [(r["id"], r["table_version"]) for r in before["games"]] == [(1, 2), (2, None)]
    # New rows in the copy get ids after the copied ones (PostgreSQL's sequences moved on).
    store = await Store.open(database)
    try:
        rec = await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                      host_name="Di", options={}, seed=1)
        assert rec.id == 3
    finally:
        await store.close()
    with pytest.raises(TargetNotEmpty) as info:
        await transfer(source, database)
    assert str(info.value) == (
        f"herdbot: the target database {store.name} is not empty (its table games has rows):"
        " copy into a new, empty database.")


def test_herdbot_migrate_store_prints_what_it_copied(tmp_path):
    import asyncio

    asyncio.run(_played(tmp_path / "a.sqlite3"))
    env = {k: v for k, v in os.environ.items() if k != "HERDBOT_DATABASE"}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot", "migrate-store", *args],
                              capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)

    proc = cli("a.sqlite3", "b.sqlite3")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == ("herdbot: copied a.sqlite3 to b.sqlite3 (2 games, 3 seats, 2 actions, "
                           "3 timers, 2 stats, 1 guild_settings, 1 member_prefs, 1 ratings, "
                           "1 rating_history, 0 presets, 1 unseen_lines).\n")
    proc = cli("a.sqlite3", "b.sqlite3")
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == ("herdbot: the target database b.sqlite3 is not empty (its table "
                           "games has rows): copy into a new, empty database.\n")
    proc = cli("missing.sqlite3", "c.sqlite3")
    assert (proc.returncode, proc.stderr) == (
        1, "herdbot: there is no database file missing.sqlite3 to copy.\n")
    assert not (tmp_path / "c.sqlite3").exists()


def test_migrate_store_reads_a_source_it_cannot_write(tmp_path):
    """The README's Docker recipe mounts the old file read-only, and the container's user
    could not write a host-owned file anyway: the source is only read."""
    from tests.faults.test_startup import without_root_powers

    folder = tmp_path / "old"
    folder.mkdir()
    asyncio.run(_played(folder / "herdbot.sqlite3"))
    before = (folder / "herdbot.sqlite3").read_bytes()
    os.chmod(folder / "herdbot.sqlite3", 0o444)
    os.chmod(folder, 0o555)
    env = {k: v for k, v in os.environ.items() if k != "HERDBOT_DATABASE"}
    try:
        proc = subprocess.run([*without_root_powers(), sys.executable, "-m", "bot",
                               "migrate-store", str(folder / "herdbot.sqlite3"), "new.sqlite3"],
                              capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    finally:
        os.chmod(folder, 0o755)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == (f"herdbot: copied {folder / 'herdbot.sqlite3'} to new.sqlite3 "
                           "(2 games, 3 seats, 2 actions, 3 timers, 2 stats, 1 guild_settings, "
                           "1 member_prefs, 1 ratings, 1 rating_history, 0 presets, 1 unseen_lines).\n")
    assert sorted(p.name for p in folder.iterdir()) == ["herdbot.sqlite3"]
    assert (folder / "herdbot.sqlite3").read_bytes() == before
    assert asyncio.run(_dump(tmp_path / "new.sqlite3")) == asyncio.run(
        _dump(_writable_copy(folder / "herdbot.sqlite3", tmp_path)))


def _writable_copy(path, tmp_path):
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(path.read_bytes())
    return copy


async def test_migrate_store_refuses_a_target_live_processes_use(tmp_path, database):
    from bot.store.lock import WriterLock
    from bot.store.shards import ShardClaim
    from bot.store.transfer import TargetInUse

    source = tmp_path / "source.sqlite3"
    await _played(source)
    if isinstance(database, str):
        holder = ShardClaim(database, 2, [0])
        await asyncio.to_thread(holder.acquire)
        shown = redacted(database)
    else:
        holder = WriterLock(database).acquire()
        shown = str(database)
    try:
        with pytest.raises(TargetInUse) as info:
            await transfer(source, database)
    finally:
        await asyncio.to_thread(holder.release)
    assert str(info.value) == (f"herdbot: a herdbot process is running on the target "
                               f"database {shown}: stop it first, and copy into a database no "
                               "herdbot uses.")
    report = await transfer(source, database)  # stopped: copied
    assert report.rows["games"] == 2
