"""Static checks run with the tests, so CI keeps them clean: mypy over the product code
(``bot/`` and ``cogs/``) and ruff over everything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_mypy_finds_no_errors(tmp_path):
    done = _run("mypy", "--cache-dir", str(tmp_path / "mypy"), "bot", "cogs", tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout


def test_ruff_finds_no_errors(tmp_path):
    done = _run("ruff", "check", "--no-cache", ".", tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
