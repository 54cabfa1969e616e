"""What the operator's terminal shows while Discord is away: one WARNING line per
reconnect attempt, no traceback (before: discord.py's "Attempting a reconnect" at ERROR
with the whole traceback of the refused connection, some sixty lines a try), and one INFO
line when the connection is back."""

from __future__ import annotations

import asyncio
import logging
import re
import signal
import sys

from bot.discord.logs import ReconnectLines, cause_of
from bot.sandbox.loopback import LocalDiscord
from bot.sandbox.processes import BOT_ENV, clean_environ
from tests.support.botproc import bot_process, log_text

#: A reconnect attempt as ``herdbot run`` logs it (the delay is discord.py's backoff).
RECONNECT = re.compile(
    r"^\S+ \S+ WARNING discord\.shard: lost the connection to Discord \(shard 0\); "
    r"reconnecting in \d+\.\d s \((ConnectionRefusedError|ConnectionResetError|"
    r"ConnectionClosed 1006)\)$")


async def _line(stream: asyncio.StreamReader, seen: list[str], want: re.Pattern[str],
                timeout: float) -> None:
    """Read ``stream`` into ``seen`` (one str per line) until a line matches ``want``."""
    async def read() -> None:
        while True:
            raw = await stream.readline()
            if not raw:
                raise AssertionError("stderr ended:\n" + "".join(seen))
            seen.append(raw.decode())
            if want.search(seen[-1]):
                return
    try:
        await asyncio.wait_for(read(), timeout)
    except TimeoutError:
        raise AssertionError(f"no line like {want.pattern}:\n" + "".join(seen)) from None


async def test_killing_the_local_discord_logs_one_warning_per_reconnect_attempt(tmp_path):
    """``herdbot run`` against ``herdbot local-discord``, which is then killed (SIGKILL:
    no close frame, every later connection refused): two attempts, each one line; then
    SIGTERM stops the bot with status 0. The ready line came first; nothing on stderr
    holds a traceback or an ERROR."""
    discord_proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "local-discord", "--port", "0", cwd=tmp_path,
        env=clean_environ(), stdout=asyncio.subprocess.PIPE)
    bot = None
    try:
        assert discord_proc.stdout is not None
        first = (await asyncio.wait_for(discord_proc.stdout.readline(), 60)).decode()
        api = first.split(" on ", 1)[1].split(" with ", 1)[0]
        env = {**clean_environ(), **BOT_ENV, "DISCORD_TOKEN": "local-token",
               "HERDBOT_DISCORD_API_URL": api,
               "HERDBOT_DATABASE": str(tmp_path / "db.sqlite3")}
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        assert bot.stderr is not None
        seen: list[str] = []
        await _line(bot.stderr, seen, re.compile("herdbot ready"), 120)
        assert seen[-1].endswith(" INFO bot.discord.bot: herdbot ready: 1 server, "
                                 "commands synced\n")
        discord_proc.kill()
        await discord_proc.wait()
        before = len(seen)
        for _ in range(2):
            await _line(bot.stderr, seen, re.compile(r" discord\."), 120)
        bot.send_signal(signal.SIGTERM)
        rest = (await asyncio.wait_for(bot.stderr.read(), 60)).decode()
        assert await asyncio.wait_for(bot.wait(), 60) == 0
        after = seen[before:] + rest.splitlines(keepends=True)
        text = "".join(seen) + rest
        assert "Traceback" not in text and " ERROR " not in text, text
        assert "local-token" not in text
        reconnects = [line for line in after if " discord." in line]
        assert len(reconnects) >= 2, text
        assert [line for line in reconnects if not RECONNECT.match(line.rstrip("\n"))] == []
    finally:
        for proc in (bot, discord_proc):
            if proc is not None and proc.returncode is None:
                proc.kill()
                await proc.wait()


async def test_a_resumed_connection_is_one_info_line(tmp_path):
    """A network cut the bot RESUMEs after: "herdbot reconnected to Discord" at INFO, no
    WARNING or traceback (discord.py RESUMEs at once, without a failed attempt)."""
    hub = LocalDiscord()
    await hub.start()
    try:
        async with bot_process(hub, tmp_path / "db.sqlite3", tmp_path) as proc:
            await hub.wait_for_shards(1)
            await hub.wait_until(lambda: "herdbot ready" in log_text(tmp_path), 60,
                                 "the ready line")
            await hub.drop_connections()
            await hub.wait_until(lambda: hub.resumes == 1 and hub.connected_shards() == [
                (0, 1)], 60, "the bot to RESUME")
            await hub.wait_until(lambda: "reconnected" in log_text(tmp_path), 60,
                                 "the reconnected line")
            assert proc.returncode is None
        log = log_text(tmp_path)
        lines = [line.split(" ", 2)[2] for line in log.splitlines()
                 if "herdbot re" in line]
        assert lines == ["INFO bot.discord.bot: herdbot ready: 1 server, commands synced",
                         "INFO bot.discord.bot: herdbot reconnected to Discord"], log
        assert "Traceback" not in log and " WARNING " not in log and " ERROR " not in log
    finally:
        await hub.stop()


def _raise_refused() -> None:
    try:
        raise ConnectionRefusedError(111, "Connect call failed")
    except ConnectionRefusedError as exc:
        raise OSError("Cannot connect to host 127.0.0.1:9") from exc


def test_a_client_that_is_not_sharded_gets_the_same_line(caplog):
    """discord.py's ``Client.connect`` loop (``discord.client``, logged with
    ``_log.exception``) is rewritten alike, without a shard; a record it does not know
    passes unchanged, traceback and all."""
    logger = logging.getLogger("discord.client")
    lines = ReconnectLines()
    logger.addFilter(lines)
    try:
        with caplog.at_level(logging.WARNING, logger="discord"):
            try:
                _raise_refused()
            except OSError:
                logger.exception("Attempting a reconnect in %.2fs", 3.917)
                logger.exception("Ignoring exception in %s", "on_ready")
    finally:
        logger.removeFilter(lines)
    assert [(r.levelname, r.getMessage(), r.exc_info is not None) for r in caplog.records] == [
        ("WARNING", "lost the connection to Discord; reconnecting in 3.9 s "
                    "(ConnectionRefusedError)", False),
        ("ERROR", "Ignoring exception in on_ready", True)]


def test_at_log_level_error_the_reconnect_lines_are_left_out(caplog):
    """``HERDBOT_LOG_LEVEL=ERROR``: discord.py logs at ERROR, the line would be a WARNING,
    so it is not shown at all."""
    logger = logging.getLogger("discord.shard")
    parent = logging.getLogger("discord")
    lines, level = ReconnectLines(), parent.level
    logger.addFilter(lines)
    parent.setLevel(logging.ERROR)
    try:
        with caplog.at_level(logging.DEBUG):
            logger.error("Attempting a reconnect for shard ID %s in %.2fs", 1, 0.5,
                         exc_info=TimeoutError())
            assert caplog.records == []
            parent.setLevel(logging.WARNING)
            logger.error("Failed to connect for shard_id: %s. Retrying...", 1,
                         exc_info=TimeoutError())
        assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
            ("WARNING", "could not connect to Discord (shard 1); trying again in 5 s "
                        "(TimeoutError)")]
    finally:
        logger.removeFilter(lines)
        parent.setLevel(level)


def test_the_cause_is_the_innermost_exception_with_a_close_code():
    from discord.errors import ConnectionClosed

    class Socket:
        close_code = 1006

    try:
        _raise_refused()
    except OSError as exc:
        assert cause_of(exc) == "ConnectionRefusedError"
    assert cause_of(ConnectionClosed(Socket(), shard_id=0)) == "ConnectionClosed 1006"  # type: ignore[arg-type]
    assert cause_of(None) == "unknown"
