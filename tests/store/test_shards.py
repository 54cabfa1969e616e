"""bot/store/shards.py: the shards a live process serves on a PostgreSQL database are
claimed there, so a second process for the same shard, one for all shards beside others,
or one with another shard count is refused in one sentence; other schemas never meet.
Runs when HERDBOT_TEST_DATABASE_URL is set."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading

import pytest

from bot.config import redacted
from bot.store.shards import ShardClaim, ShardsInUse
from tests.faults.test_startup import HOLDER, _env, herdbot
from tests.support.databases import PG_URL, SKIP_REASON, databases

pytestmark = pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)


def refusal(url: str, count: int | None, ids: list[int] | None) -> str:
    with pytest.raises(ShardsInUse) as info:
        ShardClaim(url, count, ids).acquire()
    return str(info.value)


async def test_two_processes_for_one_shard_are_refused_and_other_shards_fit(tmp_path):
    async with databases("postgres", tmp_path) as new:
        url, elsewhere = str(await new()), str(await new())
        where = f"on the database {redacted(url)}"
        zero = ShardClaim(url, 2, [0]).acquire()
        try:
            assert refusal(url, 2, [0]) == (
                f"herdbot: shard 0 is already served by another herdbot process {where}: "
                "each shard must be served by one process only; give this one other "
                "HERDBOT_SHARD_IDS, or stop the other first.")
            assert refusal(url, None, None) == (
                f"herdbot: other herdbot processes already serve shards {where}, and this "
                "one would serve all of them (HERDBOT_SHARD_IDS is empty or names every "
                "shard): give each process its own HERDBOT_SHARD_IDS, or stop the others "
                "first.")
            assert refusal(url, 4, [3]) == (
                f"herdbot: another herdbot process {where} runs with HERDBOT_SHARD_COUNT=2, "
                "this one with 4: every process needs the same count.")
            one = ShardClaim(url, 2, [1]).acquire()  # the other shard: fine
            one.release()
            ShardClaim(elsewhere, 2, [0]).acquire().release()  # another schema: fine
        finally:
            zero.release()
        again = ShardClaim(url, 2, [0]).acquire()  # released: free again
        again.release()
        everything = ShardClaim(url, None, None).acquire()
        try:
            assert refusal(url, 2, [1]) == (
                f"herdbot: another herdbot process already serves every shard {where} (its "
                "HERDBOT_SHARD_IDS is empty): give it its own HERDBOT_SHARD_IDS, or stop it "
                "first.")
        finally:
            everything.release()


async def test_a_second_herdbot_run_for_the_same_shard_is_refused(tmp_path):
    async with databases("postgres", tmp_path) as new:
        url = str(await new())
        env = _env(tmp_path / "unused", HERDBOT_DATABASE=url, HERDBOT_SHARD_COUNT="2",
                   HERDBOT_SHARD_IDS="0")
        first = await asyncio.to_thread(_start_holder_on, env, tmp_path)
        try:
            second = await asyncio.to_thread(herdbot, "run", env=env, cwd=tmp_path)
            other = await asyncio.to_thread(
                herdbot, "run", cwd=tmp_path, env={
                    **env, "HERDBOT_SHARD_IDS": "1",
                    "HERDBOT_DISCORD_API_URL": "http://127.0.0.1:9/api/v10"})
        finally:
            first.kill()
            first.communicate(timeout=30)
    assert (second.returncode, second.stdout) == (1, "")
    assert second.stderr == (
        f"herdbot: shard 0 is already served by another herdbot process on the database "
        f"{redacted(url)}: each shard must be served by one process only; give this one "
        "other HERDBOT_SHARD_IDS, or stop the other first.\n")
    # shard 1 is free: that process gets past the claim (to the unreachable local Discord)
    assert other.stderr.startswith("herdbot: cannot reach the local Discord"), other.stderr


def _start_holder_on(env: dict[str, str], cwd) -> subprocess.Popen[str]:
    """A real ``herdbot run`` (HOLDER: Discord replaced by a sleep) once it runs."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER], env=env, cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: list[str] = []
    assert proc.stdout is not None
    out = proc.stdout
    reader = threading.Thread(target=lambda: lines.append(out.readline()), daemon=True)
    reader.start()
    reader.join(60)
    if lines != ["running\n"]:
        proc.kill()
        pytest.fail(f"the first bot did not start: {proc.communicate()[1][-2000:]}")
    return proc
