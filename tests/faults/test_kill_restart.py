"""Kill the bot with SIGKILL mid-play, restart it on the same SQLite file.

A child process (``tests/faults/killrun.py drive``) runs the real HerdBot with the tiny
game in the sandbox and plays 200 games, journaling every acknowledged action with fsync.
This test kills it with SIGKILL once a seeded, random number of actions were acknowledged
(plus a seeded random delay), then runs ``killrun.py check`` on the same file, which
asserts that every journaled action is stored, old buttons still work, every pending
timer fires once and every game plays to its end, while game 2, made unreadable before
the burst, stays quarantined and is ended by its host (see killrun's docstring). Set
``HERDBOT_KILL_SEED`` to replay another seed; ``HERDBOT_FUZZ_FULL=1`` runs three seeds.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.faults.common import FULL

ROOT = Path(__file__).resolve().parents[2]
SEEDS = [int(os.environ.get("HERDBOT_KILL_SEED", "20261129"))]
if FULL:
    SEEDS += [SEEDS[0] + 1, SEEDS[0] + 2]


def _child(phase: str, out: Path, seed: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.faults.killrun", phase, str(out), "--games", "200",
         "--seed", str(seed)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.parametrize("seed", SEEDS)
def test_sigkill_mid_play_then_restart_loses_nothing(tmp_path, seed):
    rnd = random.Random(seed)
    kill_after = rnd.randint(150, 600)  # acknowledged actions before the kill
    extra_delay = rnd.uniform(0.0, 0.03)  # and a little more: the kill lands mid-click
    journal = tmp_path / "journal.jsonl"
    drive = _child("drive", tmp_path, seed)
    try:
        deadline = time.monotonic() + 150
        while _lines(journal) < kill_after:
            if drive.poll() is not None:
                _, err = drive.communicate()
                pytest.fail(f"the bot process ended by itself ({drive.returncode}):\n"
                            f"{err.decode()[-4000:]}")
            assert time.monotonic() < deadline, "the bot process is too slow"
            time.sleep(0.005)
        time.sleep(extra_delay)
        drive.send_signal(signal.SIGKILL)
        drive.communicate(timeout=30)
    finally:
        if drive.poll() is None:
            drive.kill()
            drive.communicate()
    assert drive.returncode == -signal.SIGKILL
    acknowledged = _lines(journal)
    assert acknowledged >= kill_after

    check = _child("check", tmp_path, seed)
    try:
        out, err = check.communicate(timeout=240)
    finally:
        if check.poll() is None:
            check.kill()
            check.communicate()
    assert check.returncode == 0, err.decode()[-6000:]
    figures = json.loads((tmp_path / "check.json").read_text())
    print(f"kill-restart seed {seed}: {figures}")
    assert figures["games"] == 200
    assert figures["journaled"] >= kill_after
    # At most the one click in flight at the kill was committed but not journaled.
    assert figures["unjournaled_commits"] in (0, 1)
    assert figures["old_buttons"]["applied"] > 0 and figures["old_buttons"]["my_hand"] > 0
    assert figures["timers"]["rules"] > 0 and figures["timers"]["turn"] > 0
    assert figures["timers_fired"] == sum(figures["timers"].values())
    # No game waits on a deadline without its timer (start-up re-derives them).
    assert figures["lost_timers"] == []
    # A game killed between storing a move and posting its table shows it after the
    # restart (the check asserts each caught-up table's move number); none is left behind.
    assert figures["behind_after_restart"] == []
    # The game made unreadable before the burst is quarantined, logged once (in pydantic's
    # words for an unknown field of a dataclass state, every game's kind), answered in
    # words, its timers dropped, and its host ends it.
    bad = figures["quarantined"]
    assert bad["answer"] == ("\N{NO ENTRY SIGN} This game's saved data could not be read; the "
                             "host or a member with Manage Server can end it with /game end.")
    assert bad["timers_dropped"] == ["remind", "turn"]
    assert bad["end_answer"] == "The game has ended." and bad["status"] == "ended"
    assert bad["log_lines"] == [
        "game 2 quarantined: its saved data could not be read (state: 1 validation error(s): "
        "added_by_a_newer_herdbot: Unexpected keyword argument); its players are told, "
        "and the host can end it with /game end"]
