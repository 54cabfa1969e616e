"""``herdbot migrate-store FROM TO`` (bot/store/transfer.py): a SQLite database with played
games copied into a new database of each backend and back, row for row."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.runtime import GameService, ManualClock
from bot.store import GuildSettings, Store
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
    await store.mark_shown(gid, 2)
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
                           "guild_settings": 1, "member_prefs": 1}
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
                           "3 timers, 2 stats, 1 guild_settings, 1 member_prefs).\n")
    proc = cli("a.sqlite3", "b.sqlite3")
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == ("herdbot: the target database b.sqlite3 is not empty (its table "
                           "games has rows): copy into a new, empty database.\n")
    proc = cli("missing.sqlite3", "c.sqlite3")
    assert (proc.returncode, proc.stderr) == (
        1, "herdbot: there is no database file missing.sqlite3 to copy.\n")
    assert not (tmp_path / "c.sqlite3").exists()
