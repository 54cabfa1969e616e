"""``/learn`` through the real bot in the strict sandbox (cogs/learn.py): each lesson
played from start to end in the member's DMs, its explanations on the tables of their
steps, and every request of it (the command, the DM channel opened, each table and its
clicks, to the final scores) checked against Discord's OpenAPI spec; a second /learn
resumes; a lesson abandoned for a week ends quietly; a click by someone else, and closed
DMs, get a clear sentence."""

from __future__ import annotations

import pytest
import pytest_asyncio

from bot.app import builtin_games
from bot.present.lessons import HEADING, LESSONS, RESUMED
from bot.runtime import ManualClock
from bot.runtime.core import LESSON_IDLE_S
from bot.sandbox import World
from bot.sandbox.conformance import Spec
from bot.sandbox.lessons import play_lesson, texts
from cogs.learn import DMS_CLOSED
from tests.conformance.test_games import CHECKED, CHECKED_V2, is_v2
from tests.discord.conftest import make_bot
from tests.support.dms import dm_with_buttons

#: Step key -> the move number of the first table showing it, per lesson, as the member
#: plays it with the Normal AI's choices (seed 1).
TOLD: dict[str, dict[str, int]] = {
    "llamas-alpacas": {"start": 1, "take": 4, "place": 5, "picked_up": 5, "their_line": 12,
                       "paid": 13, "line": 19, "keep": 51, "last_round": 69, "over": 69},
    "pacapaca": {"start": 0, "drawn": 1, "pile": 7, "negotiation": 15, "rejected": 19,
                 "final_round": 29, "over": 30},
    "llamas-unleashed": {"baby": 1, "action": 2, "instant": 4, "chain": 5, "turn": 8,
                         "target": 10, "herd": 43, "over": 69},
}


@pytest_asyncio.fixture
async def learn(tmp_path):
    """(world, bot): members Ana and Bo; every game, every cog."""
    world = World()
    world.add_member("Ana")
    world.add_member("Bo")
    bot = make_bot(tmp_path / "learn.sqlite3", ManualClock(), registry=builtin_games(),
                   extensions=("cogs.lobby", "cogs.game", "cogs.admin", "cogs.learn",
                               "cogs.llamas_alpacas", "cogs.pacapaca", "cogs.unleashed"))
    await world.connect(bot)
    yield world, bot
    await world.disconnect()


def lesson_texts(message) -> list[str]:
    return [t for t in texts(message) if t.startswith(HEADING)]


@pytest.mark.parametrize("game", list(TOLD))
async def test_each_lesson_is_played_to_its_end_with_each_explanation_at_its_step(
        learn, spec: Spec, record_property, game):
    world, bot = learn
    ana = world.member("Ana")
    run = await play_lesson(world, bot, ana, game, seed=1)
    assert run.told == TOLD[game]
    record = await bot.store.get_game(run.game_id)
    assert record.status == "finished"
    assert record.thread_id == record.channel_id == ana.dm_channel.id
    assert record.options["lesson"] is True and record.options["rated"] is False
    assert record.guild_id is None  # not one of the server's games
    assert {k: record.options[k] for k in LESSONS[game].options} == LESSONS[game].options
    assert record.options["lesson_said"] == sorted(TOLD[game])
    # Never counted: no stats row, no rating.
    assert await bot.store.stats(world.guild_id) == []
    assert await bot.store.member_ratings(world.guild_id, ana.id, 1) == []
    # The end is the final scores with the lesson's last words: no result card, no Rematch.
    end = ana.dms[-1] if not ana.dms[-1].ephemeral else next(
        m for m in reversed(ana.dms) if not m.ephemeral)
    last = [s.text for s in LESSONS[game].steps if TOLD[game].get(s.key) == TOLD[game]["over"]]
    assert lesson_texts(end) == ["\n\n".join([HEADING, *last])]
    assert end.buttons() == [] and [a.filename for a in end.attachments] == ["final.png"]
    # Nothing of the lesson reached the server's channels: it is all in Ana's DMs.
    assert all(not m.components for m in world.main.all_messages if not m.ephemeral)
    assert not world.threads
    seats = await bot.store.seats(run.game_id)
    assert [(s.user_id, s.is_ai, s.ai_level) for s in seats] == [
        (ana.id, False, "normal"), *[(None, True, "easy")] * LESSONS[game].ai_seats]
    # Every request of the lesson, from the command to the bot's close, conforms to
    # Discord's spec: the DM channel opened, each table (Components V2) in Ana's DM.
    await world.disconnect()
    requests = list(world.requests)
    report = spec.check(requests)
    record_property(CHECKED, report.checked)
    record_property(CHECKED_V2, sum(1 for r in requests if is_v2(r.json)))
    assert not report.violations, report.summary()
    assert report.checked == len(requests) >= 30
    assert report.routes["POST /users/@me/channels"] >= 1
    assert ana.dm_channel is not None
    dm = ana.dm_channel.id
    tables = [r for r in requests if r.method == "POST" and r.path.endswith("/messages")
              and any(f.filename == "table.png" for f in r.files)]
    assert tables and all(is_v2(r.json) for r in tables)
    assert {r.path for r in tables} == {f"/channels/{dm}/messages"}


async def test_the_first_table_explains_the_first_step_and_the_reply_links_the_dm(learn):
    world, bot = learn
    ana = world.member("Ana")
    await ana.slash("learn", game="llamas-alpacas")
    reply = ana.last_reply
    assert reply.ephemeral
    table = ana.dms[-1]
    assert texts(reply) == ["Your Llamas & Alpacas lesson is in your DMs: "
                            f"https://discord.com/channels/@me/{ana.dm_channel.id}/{table.id}"]
    assert reply.data["flags"] & (1 << 15)
    assert lesson_texts(table) == [
        f"{HEADING}\n\n{LESSONS['llamas-alpacas'].step('start').text}"]
    assert table.data["flags"] & (1 << 15)  # Components V2
    # The lesson is none of the server's games: /game there does not find it.
    await ana.slash("game status")
    assert ana.last_reply.content == ("\N{NO ENTRY SIGN} You have no running game here. "
                                      "Start one with /play.")


async def test_learn_again_resumes_the_lesson_where_it_stands(learn):
    world, bot = learn
    ana = world.member("Ana")
    await ana.slash("learn", game="llamas-alpacas")
    first = await bot.service.lesson_of_member(ana.id)
    before = len(ana.dms)
    await ana.slash("learn", game="pacapaca")  # another game: still this lesson
    again = await bot.service.lesson_of_member(ana.id)
    assert again.id == first.id and again.kind == "llamas-alpacas"
    assert len(await bot.store.games_with_status("active")) == 1
    table = ana.dms[-1]
    assert len(ana.dms) == before + 1
    assert lesson_texts(table) == [RESUMED]
    assert texts(ana.last_reply) == [
        "You are in a Llamas & Alpacas lesson: it goes on in your DMs, "
        f"https://discord.com/channels/@me/{ana.dm_channel.id}/{table.id}. To start "
        "another, use /learn with restart."]
    # The old table's buttons are gone; the new one has them.
    assert not ana.dms[-2].buttons() and table.buttons()
    # /learn in the DM itself resumes it too.
    await ana.slash("learn", game="llamas-alpacas", in_channel=ana.dm_channel)
    assert len(ana.dms) == before + 3  # a new table and the answer
    assert lesson_texts([m for m in ana.dms if not m.ephemeral][-1]) == [RESUMED]
    assert (await bot.service.lesson_of_member(ana.id)).id == first.id
    # restart: the lesson in progress ends (nothing recorded) and the new one starts.
    await ana.slash("learn", game="pacapaca", restart=True)
    assert (await bot.store.get_game(first.id)).status == "ended"
    now = await bot.service.lesson_of_member(ana.id)
    assert now.kind == "pacapaca" and now.id != first.id


async def test_a_lesson_abandoned_for_a_week_ends_quietly(learn):
    world, bot = learn
    ana = world.member("Ana")
    await ana.slash("learn", game="llamas-alpacas")
    record = await bot.service.lesson_of_member(ana.id)
    shown = [(m.id, m.edits) for m in ana.dms]
    bot.clock.advance(LESSON_IDLE_S - 60)
    await bot.service.timers.fire_due()
    await world.settle()
    assert (await bot.store.get_game(record.id)).status == "active"
    bot.clock.advance(61)
    await bot.service.timers.fire_due()
    await world.settle()
    assert (await bot.store.get_game(record.id)).status == "ended"
    assert [(m.id, m.edits) for m in ana.dms] == shown  # quietly: nothing posted or edited
    assert await bot.store.timer(record.id, "idle") is None
    assert await bot.service.lesson_of_member(ana.id) is None
    # A click on the old table hears the game is over; /learn starts a new lesson.
    await ana.click(ana.dms[-1], ana.dms[-1].buttons()[0]["custom_id"])
    assert ana.last_reply.content == "\N{NO ENTRY SIGN} This game is over."
    await ana.slash("learn", game="llamas-alpacas")
    assert (await bot.service.lesson_of_member(ana.id)).id != record.id


async def test_a_click_by_someone_else_gets_a_clear_sentence(learn):
    world, bot = learn
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("learn", game="llamas-alpacas")
    record = await bot.service.lesson_of_member(ana.id)
    # Bo cannot see Ana's DM; a DM carrying the same buttons is the only way to press one.
    copy = dm_with_buttons(world, bo, ana.dms[-1])
    await bo.click(copy, copy.buttons()[0]["custom_id"])
    assert bo.last_reply.ephemeral
    assert bo.last_reply.content == "\N{NO ENTRY SIGN} You are not in this game."
    assert (await bot.store.get_game(record.id)).version == record.version


async def test_closed_dms_are_said_and_no_lesson_is_left_running(learn):
    world, bot = learn
    ana = world.member("Ana")
    world.faults.close_dms(ana)
    await ana.slash("learn", game="pacapaca")
    assert ana.last_reply.content == f"\N{NO ENTRY SIGN} {DMS_CLOSED}"
    assert await bot.service.lesson_of_member(ana.id) is None
    assert [g.status for g in await bot.store.games_with_status("active", "ended")] == ["ended"]
