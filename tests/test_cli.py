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
    assert "{run,demo,simulate,backup,migrate-store,local-discord}" in proc.stdout
    for line in ("run the bot on Discord (needs DISCORD_TOKEN)", "play a full game offline",
                 "AI-versus-AI games", "copy the live database to PATH (safe while the bot"):
        assert line in proc.stdout


def test_version_prints_the_installed_version(tmp_path):
    from importlib.metadata import version

    proc = run_cli("--version", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, f"herdbot {version('herdbot')}\n")
    assert version("herdbot") == "0.1.0"


def test_run_help_names_the_token_and_the_env_file(tmp_path):
    proc = run_cli("run", "--help", cwd=tmp_path)
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert ("Settings come from the environment or from a .env file in the current folder "
            "(copy .env.example, which documents each): DISCORD_TOKEN is the bot token "
            "(required); HERDBOT_DATABASE is the SQLite file (default herdbot.sqlite3), or a "
            "PostgreSQL URL postgresql://user:password@host:port/db.") in text
    assert "a second `herdbot run` on the same file is refused" in text


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


async def test_demo_replaces_an_earlier_demos_pictures(tmp_path, capsys):
    from bot.sandbox.demo import run_demo

    (tmp_path / "turn-999.png").write_bytes(b"old")
    (tmp_path / "notes.txt").write_text("mine")
    assert await run_demo(game="pacapaca", players=2, seed=1, out=str(tmp_path)) == 0
    printed = capsys.readouterr().out
    pictures = sorted(p.name for p in tmp_path.glob("turn-*.png"))
    assert f"and {len(pictures)} pictures written" in printed
    assert pictures[0] == "turn-001.png" and "turn-999.png" not in pictures
    assert (tmp_path / "notes.txt").read_text() == "mine"  # only its own files go


def test_a_demo_stopped_by_ctrl_c_says_so_in_one_line_and_exits_130(monkeypatch, capsys,
                                                                     tmp_path):
    import bot.sandbox.demo

    async def interrupted(**kwargs: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(bot.sandbox.demo, "run_demo", interrupted)
    out = tmp_path / "demo-out"
    monkeypatch.setenv("LC_ALL", "C")
    assert main(["demo", "--game", "pacapaca", "--out", f"{out}/"]) == 130
    captured = capsys.readouterr()
    assert captured.err == f"herdbot: demo stopped; what it wrote to {out}/ is incomplete.\n"
    assert captured.out == ""
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    assert main(["demo", "--game", "pacapaca", "--out", str(out)]) == 130
    assert capsys.readouterr().err == (
        f"herdbot: die Demo wurde angehalten; was sie nach {out}/ geschrieben hat, "
        "ist unvollständig.\n")


@pytest.mark.parametrize(
    ("error", "code", "words"),
    [
        (OSError(-3, "Temporary failure in name resolution"), 1, "cannot reach Discord"),
        ("login", 2, "Discord refused the token"),
    ],
)
def test_run_explains_an_unreachable_discord_or_a_refused_token(monkeypatch, capsys, error, code,
                                                                 words, tmp_path):
    import discord

    from bot.cli import cmd_run
    from bot.config import Settings
    from bot.discord.bot import HerdBot
    from bot.store.lock import WriterLock

    async def fail(self, token, **kwargs):
        raise discord.LoginFailure("Improper token has been passed.") if error == "login" else error

    monkeypatch.setattr(HerdBot, "start", fail)
    settings = Settings(_env_file=None, DISCORD_TOKEN="abc.def.ghi",  # type: ignore[call-arg]
                        HERDBOT_DATABASE=tmp_path / "herdbot.sqlite3")
    assert cmd_run(settings) == code
    lock = WriterLock(tmp_path / "herdbot.sqlite3").acquire()  # DatabaseInUse if still held
    lock.release()
    err = capsys.readouterr().err
    assert err.startswith(f"herdbot: {words}") and "Traceback" not in err


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
def test_sigterm_with_sigint_ignored_stops_the_loop_and_no_task_gets_the_interrupt(loop):
    """``herdbot run &`` from a script (SIGINT ignored), then SIGTERM while one of the
    bot's tasks runs: the loop stops with KeyboardInterrupt (as Ctrl-C would) and that
    task is cancelled with the rest, in either event loop. Before, the KeyboardInterrupt
    was raised in the task itself, which ended holding it: "Task exception was never
    retrieved" and a traceback on stderr (seen in tests/loopback/test_shutdown.py under
    load)."""
    import asyncio
    import signal

    from bot.cli import _stop_as_ctrl_c, event_loop_factory

    tasks: list[asyncio.Task[None]] = []

    async def write() -> None:  # the signal arrives while this task runs (an aiohttp write)
        _stop_as_ctrl_c(signal.SIGTERM, None)
        await asyncio.sleep(30)

    async def bot() -> None:
        assert type(asyncio.get_running_loop()).__module__.startswith(loop)
        tasks.append(asyncio.create_task(write()))
        await asyncio.sleep(30)

    if loop == "uvloop":
        pytest.importorskip("uvloop")
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with pytest.raises(KeyboardInterrupt), asyncio.Runner(
                loop_factory=event_loop_factory(loop)) as runner:
            runner.run(bot())
    finally:
        signal.signal(signal.SIGINT, old)
    assert tasks[0].cancelled()


def test_the_event_loop_is_uvloops_unless_asyncio_is_asked_or_uvloop_is_missing(monkeypatch,
                                                                                 caplog):
    import asyncio
    import builtins
    import logging

    from bot.cli import event_loop_factory

    uvloop = pytest.importorskip("uvloop")

    assert event_loop_factory("uvloop") is uvloop.new_event_loop
    assert event_loop_factory("asyncio") is asyncio.new_event_loop
    real_import = builtins.__import__

    def no_uvloop(name, *args, **kwargs):
        if name == "uvloop":
            raise ImportError("No module named 'uvloop'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvloop)
    with caplog.at_level(logging.INFO, logger="bot.cli"):
        assert event_loop_factory("uvloop") is asyncio.new_event_loop
    assert [r.getMessage() for r in caplog.records] == [
        "uvloop is not installed; herdbot runs in asyncio's event loop"]


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
def test_herdbot_run_runs_in_the_event_loop_of_its_setting(monkeypatch, tmp_path, loop):
    import asyncio

    from bot.cli import cmd_run
    from bot.config import Settings
    from bot.discord.bot import HerdBot

    if loop == "uvloop":
        pytest.importorskip("uvloop")
    ran_in: list[str] = []

    async def start(self, token, **kwargs):
        ran_in.append(type(asyncio.get_running_loop()).__module__.split(".")[0])

    monkeypatch.setattr(HerdBot, "start", start)
    settings = Settings(_env_file=None, DISCORD_TOKEN="abc.def.ghi",  # type: ignore[call-arg]
                        HERDBOT_DATABASE=tmp_path / "herdbot.sqlite3", event_loop=loop)
    assert cmd_run(settings) == 0
    assert ran_in == [loop]


@pytest.mark.parametrize(("argv0", "expected"), [
    (".venv/bin/herdbot", ".venv/bin/herdbot"),
    ("/home/ana/my bots/.venv/bin/herdbot", "'/home/ana/my bots/.venv/bin/herdbot'"),
    ("/srv/herdbot/bot/__main__.py", "/opt/py/bin/python3 -m bot"),
])
def test_a_printed_command_starts_herdbot_as_the_operator_did(monkeypatch, argv0, expected):
    from bot.cli import invoked_as

    monkeypatch.setattr(sys, "argv", [argv0, "local-discord"])
    monkeypatch.setattr(sys, "executable", "/opt/py/bin/python3")
    assert invoked_as() == expected
