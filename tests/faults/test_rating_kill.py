"""SIGKILL between a game's final move and its rating: the rating is written once, with
the move, never lost nor doubled (a child process, ``tests/faults/ratingkill.py``, is
killed inside the final move's transaction or just after its commit, then the same
database is opened again and the member presses the final move again)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from tests.support.databases import BACKENDS, databases

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tests.faults.ratingkill", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("mode", ["during", "after"])
async def test_a_kill_at_the_final_move_neither_loses_nor_doubles_the_rating(
        backend, mode, tmp_path):
    async with databases(backend, tmp_path) as new:
        database = await new()
        played = _run("play", database, mode)
        assert played.returncode == -signal.SIGKILL, played.stderr[-3000:]
        checked = _run("check", database)
        assert checked.returncode == 0, checked.stderr[-3000:]
    out = json.loads(checked.stdout)
    # killed inside the transaction: nothing of the final move was kept; after: all of it
    assert out["status_after_kill"] == ("active" if mode == "during" else "finished")
    assert out["again"] == "not_active"  # the game is over: the press changes nothing
    model = PlackettLuce()
    want = model.rate([[model.rating()], [model.rating()]], ranks=[0.0, 1.0])
    assert out["ratings"] == {"10": [want[0][0].mu, want[0][0].sigma, 1, 1],
                              "11": [want[1][0].mu, want[1][0].sigma, 1, 0]}
    assert out["history"] == 2
    assert out["stats"] == [[10, 1, 1], [11, 1, 0]]
