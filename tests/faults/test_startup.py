"""Start-up refuses a newer schema, an unusable database file, a second bot on the same file
and a bad setting, each with one line and a non-zero exit status, and the process really
exits. Real ``herdbot`` processes where it matters."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import SchemaTooNew, Store, StoreUnavailable
from bot.store.lock import DatabaseInUse, WriterLock
from bot.store.migrations import SCHEMA_VERSION

ENV = {k: v for k, v in os.environ.items()
       if k != "DISCORD_TOKEN" and (not k.startswith("HERDBOT_") or k == "HERDBOT_ROOT")}

#: A real ``herdbot run`` whose connection to Discord is replaced by a long sleep: the
#: lock, the database check and everything before ``HerdBot.start`` are the real code.
HOLDER = """
import asyncio
from bot.discord.bot import HerdBot
async def start(self, token, **kwargs):
    print("running", flush=True)
    await asyncio.sleep(600)
HerdBot.start = start
from bot.cli import main
raise SystemExit(main(["run"]))
"""


def _env(db: Path, **extra: str) -> dict[str, str]:
    return {**ENV, "DISCORD_TOKEN": "not.a.real.token", "HERDBOT_DATABASE": str(db), **extra}


def herdbot(*args: str, env: dict[str, str], cwd: Path, prefix: tuple[str, ...] = ()
            ) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bot ARGS``; a process that does not exit fails the test (timeout)."""
    return subprocess.run([*prefix, sys.executable, "-m", "bot", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=60)


def without_root_powers() -> tuple[str, ...]:
    """A command prefix under which file permissions apply: none for a normal user; for
    root, ``setpriv`` dropping the capabilities that bypass them."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:  # pragma: no cover - depends on the machine
        pytest.skip("running as root without setpriv: permissions cannot be tested")
    return ("setpriv", "--bounding-set=-dac_override,-dac_read_search")


def _migrated(path: Path) -> None:
    async def go() -> None:
        store = await Store.open(path)
        await store.create_game(kind="tiny", guild_id=1, channel_id=2, host_id=3,
                                host_name="Ana", options={}, seed=7)
        await store.close()

    asyncio.run(go())


def _workers() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}


# -- item 3: schema guard, unusable files -------------------------------------------------


def test_a_newer_schema_is_refused_with_one_line_and_left_untouched(tmp_path):
    db = tmp_path / "herdbot.sqlite3"
    _migrated(db)
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 2}")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    proc = herdbot("run", env=_env(db), cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr == (f"herdbot: the database {db} has schema version {SCHEMA_VERSION + 2}"
                           f", newer than this herdbot's {SCHEMA_VERSION}: run the newer "
                           "herdbot that wrote it, or restore a backup.\n")
    assert db.read_bytes() == before


def test_a_read_only_file_is_refused_with_one_line_and_the_process_exits(tmp_path):
    db = tmp_path / "herdbot.sqlite3"
    _migrated(db)
    db.chmod(0o444)
    proc = herdbot("run", env=_env(db), cwd=tmp_path, prefix=without_root_powers())
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == (f"herdbot: cannot use the database {db}: the file is read-only "
                           "(herdbot must write it).\n")


def test_a_read_only_folder_is_refused_with_one_line(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "herdbot.sqlite3"
    _migrated(db)
    folder.chmod(0o555)
    try:
        proc = herdbot("run", env=_env(db), cwd=tmp_path, prefix=without_root_powers())
    finally:
        folder.chmod(0o755)
    assert proc.returncode == 1
    assert proc.stderr == (f"herdbot: cannot use the database {db}: its folder {folder} is "
                           "read-only (SQLite writes herdbot.sqlite3-wal and "
                           "herdbot.sqlite3-shm beside the file).\n")


@pytest.mark.parametrize("case", ["missing folder", "a folder", "not a database"])
def test_an_unopenable_file_is_refused_with_one_line(tmp_path, case):
    db = {"missing folder": tmp_path / "nowhere" / "herdbot.sqlite3", "a folder": tmp_path,
          "not a database": tmp_path / "notes.txt"}[case]
    if case == "not a database":
        db.write_text("these are not the rows you are looking for\n" * 100)
    cause = {"missing folder": f"its folder {tmp_path / 'nowhere'} does not exist",
             "a folder": "that is a folder, not a file",
             "not a database": "file is not a database"}[case]
    proc = herdbot("run", env=_env(db), cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr == f"herdbot: cannot use the database {db}: {cause}.\n"


@pytest.mark.parametrize("case", ["a folder", "not a database", "newer schema"])
async def test_a_failed_open_leaves_no_database_thread(tmp_path, case):
    db = tmp_path / "x.db"
    if case == "a folder":
        db.mkdir()
    elif case == "not a database":
        db.write_bytes(b"\x00garbage" * 1000)
    else:
        conn = sqlite3.connect(db)
        conn.execute("PRAGMA user_version=99")
        conn.close()
    before = _workers()
    error = SchemaTooNew if case == "newer schema" else StoreUnavailable
    with pytest.raises(error):
        await Store.open(db)
    assert _workers() - before == set()  # aiosqlite's thread is gone: nothing keeps the
    # process alive


# -- item 4: one writer per file ------------------------------------------------------------


def _start_holder(db: Path, cwd: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER], env=_env(db), cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = ""

    def read() -> None:
        nonlocal line
        assert proc.stdout is not None
        line = proc.stdout.readline()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(60)
    if line != "running\n":
        proc.kill()
        _, err = proc.communicate()
        pytest.fail(f"the first bot did not start: {line!r} {err[-2000:]}")
    return proc


def test_a_second_bot_on_the_same_file_is_refused_and_a_killed_ones_lock_does_not_block(
        tmp_path):
    db = tmp_path / "herdbot.sqlite3"
    _migrated(db)  # (the holder never opens it, as a real run would: the restart needs it)
    first = _start_holder(db, tmp_path)
    try:
        second = herdbot("run", env=_env(db), cwd=tmp_path)
        assert second.returncode == 1
        assert second.stderr == (f"herdbot: another herdbot (process {first.pid}) is already "
                                 f"running on the database {db}: stop it first, or set "
                                 "HERDBOT_DATABASE to another file.\n")
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
    assert first.returncode == -signal.SIGKILL
    assert (tmp_path / "herdbot.sqlite3.lock").read_text() == f"{first.pid}\n"  # left behind
    third = _start_holder(db, tmp_path)  # starts: the kernel dropped the dead one's lock
    try:
        assert (tmp_path / "herdbot.sqlite3.lock").read_text() == f"{third.pid}\n"
    finally:
        third.terminate()
        third.communicate(timeout=30)


def test_the_writer_lock_is_exclusive_and_released(tmp_path):
    db = tmp_path / "a.db"
    with WriterLock(db) as lock:
        assert lock.held
        with pytest.raises(DatabaseInUse) as info:
            WriterLock(db).acquire()
        assert info.value.pid == os.getpid()
    assert not lock.held
    again = WriterLock(db).acquire()
    with WriterLock(tmp_path / "b.db"):  # the lock is per file
        pass
    again.release()


# -- item 5: configuration errors ----------------------------------------------------------

BAD = [
    ("HERDBOT_DEFAULT_TURN_TIMER", "5m", "off, 2m, 10m, 1h or 24h"),
    ("HERDBOT_DEV_GUILDS", "abc", "server ids (positive whole numbers) separated by commas, "
                                  "or empty"),
    ("HERDBOT_DEV_GUILDS", "123,-4", "server ids (positive whole numbers) separated by "
                                     "commas, or empty"),
    ("HERDBOT_REACTION_WINDOW_S", "2", "a whole number of seconds from 5 to 120"),
    ("HERDBOT_REACTION_WINDOW_S", "20s", "a whole number of seconds from 5 to 120"),
    ("HERDBOT_LOG_LEVEL", "loud", "DEBUG, INFO, WARNING or ERROR"),
    ("HERDBOT_DEFAULT_DM_NOTIFICATIONS", "maybe", "true or false"),
    ("HERDBOT_ARCHIVE_AFTER_S", "-1", "a whole number of seconds, 0 or more"),
    ("HERDBOT_SHARD_COUNT", "0", "a whole number of shards from 1 to 1024, or empty"),
    ("HERDBOT_SHARD_COUNT", "two", "a whole number of shards from 1 to 1024, or empty"),
    ("HERDBOT_SHARD_IDS", "0,x", "shard ids (different whole numbers from 0) separated by "
                                 "commas, or empty for all"),
    ("HERDBOT_SHARD_IDS", "1,1", "shard ids (different whole numbers from 0) separated by "
                                 "commas, or empty for all"),
]
COMMANDS = [["run"], ["demo", "--out", "demo-out"], ["simulate", "pacapaca", "--games", "1"],
            ["backup", "copy.sqlite3"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize(("var", "value", "allowed"), BAD)
def test_a_bad_setting_is_one_line_and_exit_2_for_every_command(tmp_path, monkeypatch, capsys,
                                                                 command, var, value, allowed):
    monkeypatch.chdir(tmp_path)
    for key in [k for k in os.environ if k.startswith("HERDBOT_") and k != "HERDBOT_ROOT"]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("DISCORD_TOKEN", "not.a.real.token")
    monkeypatch.setenv(var, value)
    assert main(command) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"herdbot: {var}='{value}' is not allowed; use {allowed} "
                              "(set in the environment or .env).\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing started


SHARDS_REFUSED = [
    ({"HERDBOT_SHARD_IDS": "1"},
     "herdbot: HERDBOT_SHARD_IDS=1 needs HERDBOT_SHARD_COUNT, the number of shards over all "
     "processes (set in the environment or .env)."),
    ({"HERDBOT_SHARD_COUNT": "2", "HERDBOT_SHARD_IDS": "0,2"},
     "herdbot: HERDBOT_SHARD_IDS=0,2 is not allowed with HERDBOT_SHARD_COUNT=2; use shard ids "
     "from 0 to 1 (set in the environment or .env)."),
    # SQLite (the default database) serves one process: not only some of the shards.
    ({"HERDBOT_SHARD_COUNT": "2", "HERDBOT_SHARD_IDS": "1"},
     "herdbot: HERDBOT_SHARD_IDS=1 serves only some of the 2 shards, so other processes must "
     "serve the rest, and a SQLite file serves one process; use a PostgreSQL "
     "HERDBOT_DATABASE (README: Running at scale) or leave HERDBOT_SHARD_IDS empty."),
]


@pytest.mark.parametrize("command", [["run"], ["simulate", "pacapaca", "--games", "1"]],
                         ids=lambda c: c[0])
@pytest.mark.parametrize(("env", "line"), SHARDS_REFUSED)
def test_shard_settings_that_do_not_fit_are_one_line_and_exit_2(tmp_path, monkeypatch,
                                                                capsys, command, env, line):
    monkeypatch.chdir(tmp_path)
    for key in [k for k in os.environ if k.startswith("HERDBOT_") and k != "HERDBOT_ROOT"]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("DISCORD_TOKEN", "not.a.real.token")
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert main(command) == 2
    assert capsys.readouterr() == ("", line + "\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing started


def test_shard_settings_reach_the_sharded_bot(tmp_path, monkeypatch):
    """Every shard in one process is fine on SQLite; some of them need PostgreSQL."""
    from bot.app import make_bot
    from bot.config import Settings

    for key in [k for k in os.environ if k.startswith("HERDBOT_") and k != "HERDBOT_ROOT"]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("HERDBOT_SHARD_COUNT", "2")
    monkeypatch.setenv("HERDBOT_SHARD_IDS", " 1, 0")
    all_here = Settings(_env_file=None, database_path=tmp_path / "bot.sqlite3")
    assert (all_here.shard_count, all_here.shard_ids) == (2, [0, 1])
    monkeypatch.setenv("HERDBOT_SHARD_IDS", "1")
    some = Settings(_env_file=None, database_path="postgresql://herdbot@db:5432/herdbot")
    bot = make_bot(some, sync_commands=False)
    assert (bot.shard_count, bot.shard_ids) == (2, [1])
    # Its start-up catch-up looks at the games of shard 1's servers: (id >> 22) % 2 == 1.
    assert [bot.serves_guild(g) for g in (3 << 22, 2 << 22, None)] == [True, False, False]
    monkeypatch.delenv("HERDBOT_SHARD_COUNT")
    monkeypatch.delenv("HERDBOT_SHARD_IDS")
    default = make_bot(Settings(_env_file=None), sync_commands=False)
    assert (default.shard_count, default.shard_ids) == (None, None)  # Discord's count, all
    assert [default.serves_guild(g) for g in (3 << 22, 2 << 22, None)] == [True, True, True]


def test_bad_settings_in_a_dotenv_file_give_one_line_each_from_a_real_process(tmp_path):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=secret.token.value\n"
                                   "HERDBOT_DEFAULT_TURN_TIMER=5m\nHERDBOT_DEV_GUILDS=abc\n")
    proc = herdbot("demo", env=ENV, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == (
        "herdbot: HERDBOT_DEV_GUILDS='abc' is not allowed; use server ids (positive whole "
        "numbers) separated by commas, or empty (set in the environment or .env).\n"
        "herdbot: HERDBOT_DEFAULT_TURN_TIMER='5m' is not allowed; use off, 2m, 10m, 1h or 24h "
        "(set in the environment or .env).\n"
    )
    assert "secret" not in proc.stderr + proc.stdout
