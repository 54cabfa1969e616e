"""A ``herdbot run`` process with its render process pool (``HERDBOT_RENDER_PROCESSES=1``)
stops cleanly: on SIGTERM (what ``docker stop``, ``compose down`` and systemd send) and on
Ctrl-C in its terminal (SIGINT to the whole process group, the pool's workers included) it
exits with status 0, leaves no worker behind and prints nothing on stderr: no "leaked
semaphore" warning from ``multiprocessing``'s resource tracker, no worker's
KeyboardInterrupt traceback."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.sandbox import SandboxError
from bot.sandbox.loopback import LocalDiscord
from bot.sandbox.processes import BOT_ENV, clean_environ
from tests.support import title


def children(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    """Whether process ``pid`` still exists (and is not a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("stop", ["sigterm", "ctrl-c", "sigterm-sigint-ignored"])
async def test_herdbot_run_with_a_render_pool_stops_with_nothing_on_stderr(tmp_path, stop):
    hub = LocalDiscord()
    names = ("Ana", "Bo", "Cy")
    for name in names:
        hub.world.add_member(name)
    await hub.start()
    env = {**clean_environ(), **hub.bot_env(), **BOT_ENV, "HERDBOT_RENDER_PROCESSES": "1",
           "HERDBOT_LOG_LEVEL": "WARNING", "HERDBOT_DATABASE": str(tmp_path / "db.sqlite3")}
    with open(tmp_path / "stdout.log", "wb") as stdout:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env, stdout=stdout,
            stderr=asyncio.subprocess.PIPE, start_new_session=True,
            # ``herdbot run &`` from a script: started with SIGINT ignored.
            preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
            if stop == "sigterm-sigint-ignored" else None)
    try:
        await hub.wait_for_shards(1)
        await hub.wait_for_commands()
        ana, bo, cy = (hub.world.member(n) for n in names)
        await ana.slash("play", game="llamas-alpacas")
        lobby = ana.last_reply
        await bo.click(lobby, "Join")
        await cy.click(lobby, "Join")
        await ana.click(lobby, "Start")
        await hub.wait_until(lambda: lobby.thread is not None and any(
            m.attachments for m in lobby.thread.all_messages), 120, "the first table")
        table = next(m for m in lobby.thread.all_messages if m.attachments)
        assert [a.filename for a in table.attachments] == ["table.png"]
        assert "My hand" in table.labels
        helpers = children(proc.pid)  # the pool's worker and the resource tracker
        assert len(helpers) == 2

        def stop_as_a_click_is_sent(shard_id: int, payload: dict[str, Any]) -> None:
            if payload["t"] != "INTERACTION_CREATE":
                return
            hub.before_send = None
            if stop.startswith("sigterm"):
                proc.send_signal(signal.SIGTERM)
            else:
                os.killpg(proc.pid, signal.SIGINT)

        # The stop reaches the bot with a click on its way: it is answered (handled before
        # the stop) or left unanswered (arrived while stopping), never failed halfway.
        hub.before_send = stop_as_a_click_is_sent
        with contextlib.suppress(SandboxError):
            await asyncio.wait_for(ana.click(table, "My hand"), 60)
        err = (await asyncio.wait_for(proc.stderr.read(), 60)).decode()
        assert (await asyncio.wait_for(proc.wait(), 60), err) == (0, ""), err
        for _ in range(100):  # the tracker ends once the bot's end closed its pipe
            if not any(alive(pid) for pid in helpers):
                break
            await asyncio.sleep(0.05)
        assert [pid for pid in helpers if alive(pid)] == []
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await hub.stop()


async def test_herdbot_run_with_commands_synced_to_a_second_server_only_answers_there(
        tmp_path):
    """``HERDBOT_DEV_GUILDS`` naming the second server: the bot process syncs its commands
    to that server only, and /play there opens a lobby (the local Discord looked up the
    commands of the server a command runs in, not only the first server's)."""
    hub = LocalDiscord(guilds=2)
    ana = hub.world.add_member("Ana")
    second = hub.channels[1]
    await hub.start()
    env = {**clean_environ(), **hub.bot_env(), **BOT_ENV,
           "HERDBOT_DEV_GUILDS": str(second.guild_id),
           "HERDBOT_DATABASE": str(tmp_path / "db.sqlite3")}
    with open(tmp_path / "bot.log", "wb") as log:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env, stdout=log,
            stderr=asyncio.subprocess.STDOUT)
    try:
        await hub.wait_for_shards(1)
        await hub.wait_until(lambda: (second.guild_id, "1:play") in hub.world.commands, 60,
                             "the commands of the second server")
        assert {g for g, _ in hub.world.commands} == {second.guild_id}
        await ana.slash("play", in_channel=second, game="llamas-alpacas")
        assert ana.last_reply is not None
        assert title(ana.last_reply) == "Llamas & Alpacas: lobby #1"
        assert ana.last_reply.channel is second
    finally:
        if proc.returncode is None:
            proc.terminate()
            await proc.wait()
        await hub.stop()
