"""The ``herdbot`` command: help, run without a token, simulate."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bot.cli import main


def run_cli(*args: str, cwd) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def test_help_lists_the_commands(tmp_path):
    proc = run_cli("--help", cwd=tmp_path)
    assert proc.returncode == 0
    assert "{run,demo,simulate}" in proc.stdout
    for line in ("run the bot on Discord (needs DISCORD_TOKEN)", "play a full game offline",
                 "AI-versus-AI games"):
        assert line in proc.stdout


def test_run_without_a_token_exits_2_and_points_to_the_demo(tmp_path):
    proc = run_cli("run", cwd=tmp_path)
    assert proc.returncode == 2
    assert "herdbot: no Discord token." in proc.stderr
    assert "https://discord.com/developers/applications" in proc.stderr
    assert "`herdbot demo` plays a whole game offline" in proc.stderr


@pytest.mark.parametrize("game", ["llamas-alpacas", "pacapaca"])
def test_simulate_prints_json_figures(game, capsys):
    assert main(["simulate", game, "--games", "3", "--seed", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"games", "finished", "errors", "turns_mean", "games_per_s"}
    assert (data["games"], data["finished"], data["errors"]) == (3, 3, 0)
    assert data["turns_mean"] > 0


def test_simulate_refuses_an_unsupported_player_count(capsys):
    with pytest.raises(SystemExit) as info:
        main(["simulate", "llamas-alpacas", "--games", "1", "--players", "9"])
    assert info.value.code == 2
    assert "Llamas & Alpacas takes 2-4 players" in capsys.readouterr().err
