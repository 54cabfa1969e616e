"""The command sync the real bot sends declares, per command, the installs it works with
(0 a server's, 1 a user's) and the contexts (0 server channels, 1 the bot's DM, 2 DMs and
group DMs), and conforms to Discord's spec."""

from __future__ import annotations

from pathlib import Path

from bot.app import builtin_games, make_bot
from bot.config import Settings
from bot.runtime import ManualClock
from bot.sandbox import World
from bot.sandbox.conformance import Spec

BOTH = [0, 1]
EVERYWHERE = [0, 1, 2]

#: (command type, name) -> (integration_types, contexts). Type 1 is a slash command,
#: type 2 a member's context menu.
DECLARED = {
    (1, "play"): (BOTH, EVERYWHERE),
    (1, "game"): (BOTH, EVERYWHERE),
    (1, "rules"): (BOTH, EVERYWHERE),
    (1, "notify"): (BOTH, EVERYWHERE),
    (1, "card"): (BOTH, EVERYWHERE),
    (1, "settings"): ([0], [0]),
    (1, "stats"): ([0], [0]),
    (1, "leaderboard"): ([0], [0]),
    (1, "learn"): ([0], [0, 1]),
    (2, "Challenge to Llamas & Alpacas"): (BOTH, EVERYWHERE),
    (2, "Challenge to Alpaca Pacapaca"): (BOTH, EVERYWHERE),
    (2, "Challenge to Llamas Unleashed"): (BOTH, EVERYWHERE),
}


async def test_the_command_sync_declares_installs_and_contexts(spec: Spec, tmp_path: Path):
    world = World()
    settings = Settings(database_path=tmp_path / "sync.sqlite3", _env_file=None)  # type: ignore[call-arg]  # pydantic-settings init arguments
    bot = make_bot(settings, registry=builtin_games(), clock=ManualClock())
    await world.connect(bot)
    await world.disconnect()
    syncs = world.requests_to("PUT", r"^/applications/\d+/commands$")
    assert len(syncs) == 1
    report = spec.check(syncs)
    assert not report.violations, report.summary()
    declared = {(c.get("type", 1), c["name"]): (c.get("integration_types"), c.get("contexts"))
                for c in syncs[0].json}
    assert declared == DECLARED
