"""bot/store/lock.py: the writer lock follows the database file, not the path given (a
symlink or a linked folder finds the same lock), and a database missing where herdbot ran
before is refused rather than replaced by an empty one. Real ``herdbot`` processes where
it matters (helpers of tests/faults/test_startup.py)."""

from __future__ import annotations

import os
import signal

import pytest

from bot import cli
from bot.store.lock import DatabaseInUse, DatabaseMissing, WriterLock, lock_path
from tests.faults.test_startup import _env, _migrated, _start_holder, herdbot


def test_a_symlink_to_the_database_finds_the_same_lock(tmp_path):
    db = tmp_path / "data" / "herdbot.sqlite3"
    db.parent.mkdir()
    (tmp_path / "link.sqlite3").symlink_to(db)
    (tmp_path / "folder").symlink_to(db.parent)
    assert lock_path(tmp_path / "link.sqlite3") == tmp_path / "data" / "herdbot.sqlite3.lock"
    with WriterLock(db):
        for other in (tmp_path / "link.sqlite3", tmp_path / "folder" / "herdbot.sqlite3",
                      tmp_path / "data" / ".." / "data" / "herdbot.sqlite3"):
            with pytest.raises(DatabaseInUse) as info:
                WriterLock(other).acquire()
            assert info.value.pid == os.getpid()
    assert sorted(p.name for p in db.parent.iterdir()) == ["herdbot.sqlite3.lock"]


def test_a_second_herdbot_run_on_a_symlink_to_the_file_is_refused(tmp_path):
    db = tmp_path / "herdbot.sqlite3"
    (tmp_path / "link.sqlite3").symlink_to(db)
    first = _start_holder(db, tmp_path)
    try:
        second = herdbot("run", env=_env(tmp_path / "link.sqlite3"), cwd=tmp_path)
        assert (second.returncode, second.stdout) == (1, "")
        assert second.stderr == (
            f"herdbot: another herdbot (process {first.pid}) is already running on the "
            f"database {tmp_path / 'link.sqlite3'} (the file {db}): stop it first, or set "
            "HERDBOT_DATABASE to another file.\n")
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
    assert not (tmp_path / "link.sqlite3.lock").exists()


def test_a_database_missing_where_herdbot_ran_before_is_refused_unless_asked_for(tmp_path):
    db = tmp_path / "herdbot.sqlite3"
    _migrated(db)
    with WriterLock(db):  # a run leaves its .lock file beside the database
        pass
    db.unlink()
    refused = herdbot("run", env=_env(db), cwd=tmp_path)
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == (
        f"herdbot: the database {db} is missing, but herdbot has run on it before "
        "(herdbot.sqlite3.lock is beside it): put the file back or restore a backup "
        "(README: The database), or start a new, empty database with "
        "`herdbot run --new-database`.\n")
    assert not db.exists()
    lock = WriterLock(db).acquire()
    with pytest.raises(DatabaseMissing):
        lock.check_not_lost()
    lock.release()


def test_the_first_run_and_a_new_database_on_request_start_the_bot(tmp_path, monkeypatch,
                                                                   capsys):
    started: list[str] = []
    monkeypatch.setattr(cli, "_run_bot", lambda settings, lang: started.append("bot") or 0)
    for key, value in _env(tmp_path / "herdbot.sqlite3").items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run"]) == 0  # never used: nothing to refuse
    assert cli.main(["run"]) == 1  # ran there (its .lock is left), and no file came
    assert cli.main(["run", "--new-database"]) == 0
    assert started == ["bot", "bot"]
    assert capsys.readouterr().err.startswith("herdbot: the database ")
