"""Every request of the replay viewer and of a spectator, checked against Discord's
OpenAPI spec: a whole seeded Pacapaca game of two members in which Zed, without a seat,
presses Watch and Follow in the thread and a player's button; then the end message's
Replay button, Next, Last, the jump select, Export (the GIF) and /game replay."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.app import builtin_games, make_bot
from bot.config import Settings
from bot.runtime import ManualClock
from bot.sandbox.conformance import Spec
from bot.sandbox.demo import NAMES, play_game
from bot.sandbox.members import SimMember
from bot.sandbox.model import SimMessage
from bot.sandbox.world import World
from tests.support import parts

CHECKED = "requests_checked"


def reply(member: SimMember) -> SimMessage:
    """The member's last reply, which must exist."""
    message = member.last_reply
    assert message is not None
    return message


async def test_a_replay_and_a_spectator_conform(spec: Spec, record_property, tmp_path):
    world = World()
    for name in NAMES[:2]:
        world.add_member(name)
    zed = world.add_member("Zed")
    watched: list[str] = []

    async def after_action(ctx: Any) -> None:
        if watched:
            return
        table = ctx.thread.all_messages[-1]
        if "Watch" not in table.labels:
            return
        await zed.click(table, "Watch")
        await zed.click(reply(zed), "Follow in the thread")
        await zed.click(table, table.labels[0])
        watched.append(reply(zed).content)

    settings = Settings(database_path=tmp_path / "replay.sqlite3",  # type: ignore[call-arg]
                        _env_file=None, default_turn_timer="off")
    bot = make_bot(settings, registry=builtin_games(), clock=ManualClock())
    await world.connect(bot)
    try:
        game_id = await play_game(world, bot, game="pacapaca", players=2, seed=2, game_seed=2,
                                  extra_clicks=after_action)
        record = await bot.store.get_game(game_id)
        assert record is not None
        thread = world.channel(record.thread_id)
        maya = world.member(NAMES[0])
        end = next(m for m in reversed(thread.all_messages) if "Replay" in m.labels)
        await maya.click(end, "Replay")
        viewer = reply(maya)
        assert viewer.ephemeral
        await maya.click(viewer, "Next")
        await maya.click(viewer, "Last")
        assert parts(viewer)["footer"].startswith(
            f"Alpaca Pacapaca #{game_id} \N{MIDDLE DOT} Move {record.version} of {record.version}")
        await maya.select(viewer, [viewer.selects()[0]["options"][3]["label"]])
        await maya.click(viewer, "Export")
        gif = reply(maya)
        assert [a.filename for a in gif.attachments] == [f"pacapaca-{game_id}.gif"]
        with Image.open(io.BytesIO(gif.attachments[0].data)) as im:
            assert im.format == "GIF" and im.width == 500 and getattr(im, "n_frames", 1) >= 10
        assert len(gif.attachments[0].data) <= 8 * 1024 * 1024
        await zed.slash("game replay", in_channel=thread)
        assert reply(zed).ephemeral
    finally:
        await world.disconnect()
    assert watched == ["\N{NO ENTRY SIGN} You are watching this game: only its players can "
                       "use its buttons."]
    report = spec.check(list(world.requests))
    record_property(CHECKED, report.checked)
    assert not report.violations, report.summary()
    assert report.checked == len(world.requests) >= 80
