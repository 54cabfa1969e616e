"""A real ``herdbot run`` process against the local Discord (:mod:`bot.sandbox.loopback`):
discord.py's own networking (aiohttp REST, the gateway websocket with zlib-stream,
heartbeats, RESUME) end to end, on loopback addresses only."""

from __future__ import annotations

import asyncio

import pytest

from bot.sandbox.demo import NAMES, play_game
from bot.sandbox.loopback import LocalDiscord
from bot.sandbox.processes import ProcessView
from tests.support.botproc import bot_process, log_text

GAMES = ("llamas-alpacas", "pacapaca", "llamas-unleashed")
#: A whole test (three full games in parallel on two shared cores) ends well before this.
BUDGET_S = 600


async def test_herdbot_run_plays_a_full_game_of_each_game_over_loopback(tmp_path):
    """One bot process on SQLite, three guilds, one game of each kind at once, each played
    to the end by its own three members clicking; the websocket is cut once and the bot
    RESUMEs."""
    hub = LocalDiscord(guilds=3)
    players = {game: [f"{name} {i}" for name in NAMES[:3]] for i, game in enumerate(GAMES)}
    for names in players.values():
        for name in names:
            hub.world.add_member(name)
    await hub.start()
    db = tmp_path / "herdbot.sqlite3"
    try:
        async with bot_process(hub, db, tmp_path / "bot") as proc:
            await asyncio.wait_for(_play(hub, db, players), BUDGET_S)
            assert proc.returncode is None, log_text(tmp_path / "bot")
        log = log_text(tmp_path / "bot")
        assert "Traceback" not in log and " ERROR " not in log, log
    finally:
        await hub.stop()


async def _play(hub: LocalDiscord, db, players):
    await hub.wait_for_shards(1)
    await hub.wait_for_commands()
    assert hub.connected_shards() == [(0, 1)]
    assert hub.compressed == 1  # discord.py asked for zlib-stream transport compression

    # A network cut: the session stays, the bot reconnects and RESUMEs (no new IDENTIFY).
    await hub.drop_connections()
    await hub.wait_until(lambda: hub.resumes == 1 and hub.connected_shards() == [(0, 1)],
                         60, "the bot to RESUME")
    assert hub.identifies == 1

    world = hub.world
    view = await ProcessView.open(db, hub)
    try:
        ids = await asyncio.gather(*(
            play_game(world, view, game=game, players=3, seed=7, names=players[game],
                      channel=channel)
            for channel, game in zip(hub.channels, GAMES, strict=True)))
        for channel, game, game_id in zip(hub.channels, GAMES, ids, strict=True):
            record = await view.store.get_game(game_id)
            assert record is not None
            assert (record.kind, record.status, record.guild_id, record.channel_id) == (
                game, "finished", channel.guild_id, channel.id)
        # Every command and click the members made was answered, exactly once.
        assert [it for it in world.interactions.values() if not it.responded] == []
        callbacks = world.requests_to("POST", r"^/interactions/\d+/[^/]+/callback$")
        assert len(callbacks) == len(world.interactions)
        assert {r.status for r in callbacks} <= {200, 204}
    finally:
        await view.close()


async def test_a_wrong_token_is_refused_like_discord_does(tmp_path):
    """401 on login: the bot prints the token line and exits with status 2."""
    hub = LocalDiscord()
    await hub.start()
    try:
        async with bot_process(hub, tmp_path / "db.sqlite3", tmp_path,
                               env={"DISCORD_TOKEN": "wrong-token"}) as proc:
            assert await asyncio.wait_for(proc.wait(), 60) == 2
        assert "herdbot: Discord refused the token." in log_text(tmp_path)
        assert hub.identifies == 0
    finally:
        await hub.stop()


@pytest.mark.parametrize("url", [
    "http://example.com:80/api/v10",
    # a line break passed urlsplit and crashed discord.py's first request with a traceback
    "http://127.0.0.1:8080/api/v10\nX",
    "http://127.0.0.1:99999/api/v10",  # no such port: urlsplit's .port raises
    "http://127.0.0.1:8080/api v10",
], ids=["other-host", "line-break", "port-out-of-range", "space"])
def test_the_api_url_setting_takes_loopback_addresses_only(url, tmp_path, monkeypatch, capsys):
    """A URL naming another host, or no usable URL, stops herdbot with one line (a token is
    never sent to a host by mistake); exit status 2."""
    from bot.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "local-token")
    monkeypatch.setenv("HERDBOT_DISCORD_API_URL", url)
    assert main(["run"]) == 2
    assert capsys.readouterr().err == (
        f"herdbot: HERDBOT_DISCORD_API_URL={url!r} is not allowed; use "
        "a local Discord's URL http://127.0.0.1:PORT/api/v10 (development only), or nothing "
        "(set in the environment or .env).\n")


def test_an_unreachable_local_discord_is_one_line_and_status_1(tmp_path, monkeypatch, capsys):
    import socket

    from bot.cli import main

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "local-token")
    monkeypatch.setenv("HERDBOT_DATABASE", str(tmp_path / "db.sqlite3"))
    monkeypatch.setenv("HERDBOT_DISCORD_API_URL", f"http://127.0.0.1:{port}/api/v10")
    assert main(["run"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"herdbot: cannot reach the local Discord at "
                          f"http://127.0.0.1:{port}/api/v10 (")
    assert err.count("\n") == 1


async def test_herdbot_local_discord_serves_the_gateway_url(tmp_path):
    """``herdbot local-discord --port 0``: one line names the URL, then the command that
    starts a bot against it on a database of its own (a real bot's lock would refuse
    ``herdbot.sqlite3``); GET /gateway there names the websocket; Ctrl-C (SIGINT) stops it
    with status 0."""
    import json
    import shlex
    import signal
    import sys
    import urllib.request

    from tests.support.botproc import clean_environ

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "local-discord", "--port", "0", "--guilds", "2",
        cwd=tmp_path, env=clean_environ(), stdout=asyncio.subprocess.PIPE)
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
        assert line.startswith("Local Discord (development only) on http://127.0.0.1:")
        assert line.endswith("/api/v10 with 2 servers.\n")
        api = line.split(" on ", 1)[1].split(" with ", 1)[0]
        rest = [(await asyncio.wait_for(proc.stdout.readline(), 10)).decode()
                for _ in range(3)]
        assert rest == ["Start a bot against it with:\n",
                        f"  DISCORD_TOKEN=local-token HERDBOT_DISCORD_API_URL={api} \\\n",
                        f"    HERDBOT_DATABASE=local.sqlite3 {shlex.quote(sys.executable)}"
                        " -m bot run\n"]
        body = await asyncio.to_thread(
            lambda: json.loads(urllib.request.urlopen(f"{api}/gateway", timeout=10).read()))
        assert body == {"url": api.replace("http://", "ws://").replace("/api/v10", "/gateway")}
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), 30) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
