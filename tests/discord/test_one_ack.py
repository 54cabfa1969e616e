"""One acknowledgement per move (bot/discord/ack.py): a move clicked on a public table is
answered by its first write to that table, Discord's UPDATE_MESSAGE (callback type 7),
when it is ready in time; past the deadline the click is deferred first and the write goes
by PATCH @original. Exactly one initial response either way: never 40060.

The real HerdBot playing Llamas & Alpacas through discord.py's own dispatch against the
sandbox, and :class:`~bot.discord.ack.Ack` alone against a scripted response."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio

from bot.discord import ids
from bot.discord.ack import Ack, ack_of, pending
from bot.discord.router import is_move
from bot.sandbox.demo import NAMES, play_game
from tests.discord.conftest import make_bot
from tests.discord.test_llamas_alpacas import EXTENSIONS, KEY, _after_setup, la_world, registry
from tests.support import description, footer, headline, title


@pytest_asyncio.fixture
async def la(tmp_path):
    """(world, bot): members Maya and Tomasz."""
    async with la_world(tmp_path / "la.sqlite3", NAMES[:2]) as pair:
        yield pair


#: The table after the first player takes card 1 (game seed 1).
TOOK_1 = ("\N{BULLET} {name} places the starting card, an alpaca with a green bandana and a 2, "
          "on row 2, column 2.\n\N{BULLET} {name} goes first.\n\N{BULLET} {name} takes card "
          "1, an alpaca with a yellow bandana and a 4.\n\n**{name}** is placing **Alpaca "
          "yellow 4** on a free space of their board.")


def routes(it: Any) -> list[tuple[str, str, Any, list[str]]]:
    """The requests answering ``it``: method, route (the click's token as ``T``), the
    callback type, the uploaded file names."""
    out = []
    for r in it.requests:
        body = r.json if isinstance(r.json, dict) else {}
        out.append((r.method, r.path.replace(it.token, "T").replace(str(it.id), "I"),
                    body.get("type") if r.path.endswith("/callback") else None,
                    [f.filename for f in r.files]))
    return out


def tables(thread):
    return [m for m in thread.all_messages
            if not m.ephemeral and title(m) == "Llamas & Alpacas #1"]


async def test_a_step_inside_a_turn_is_one_request_the_update_of_the_table(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    table = thread.last_message
    edits = table.edits
    it = await active.click(table, "Take 1 (free)")
    assert routes(it) == [("POST", "/interactions/I/T/callback", 7, ["table.png"])]
    assert it.response_type == 7 and not it.failed and it.followups == []
    # The table itself shows the move, edited in place once.
    assert thread.last_message.id == table.id and table.edits == edits + 1
    assert footer(table) == f"Move {state.version + 1}"
    assert description(table) == TOOK_1.format(name=active.name)


async def test_a_turn_s_end_retires_the_table_as_the_answer_and_posts_the_next(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    await active.click(thread.last_message, "Take 1 (free)")
    table = thread.last_message
    before = len(tables(thread))
    it = await active.click(table, table.labels[0])
    version = (await bot.store.get_game(1)).version
    assert version == state.version + 2
    webhook = f"/webhooks/{world.application_id}/T"
    assert routes(it) == [("POST", "/interactions/I/T/callback", 7, []),
                          ("POST", webhook, None, ["table.png"])]
    # The old table lost its buttons; the next one is a new message with them.
    assert table.labels == []
    shown = tables(thread)
    assert len(shown) == before + 1 and shown[-1].id != table.id
    assert footer(shown[-1]) == f"Move {version}" and shown[-1].labels != []
    assert (await bot.store.get_game(1)).table_message_id == shown[-1].id


async def test_a_next_table_refused_after_the_old_one_was_retired_comes_back(la):
    """The turn's end retired the old table as the click's answer, then Discord refused
    the next table's post: the member is told, and the catch-up posts the table with its
    buttons (no /game status needed)."""
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    await active.click(thread.last_message, "Take 1 (free)")
    table = thread.last_message
    world.faults.fail("POST", r"^/webhooks/\d+/[^/]+$", 403, code=50013,
                      message="Missing Permissions")
    it = await active.click(table, table.labels[0])
    await world.settle()
    version = (await bot.store.get_game(1)).version
    assert [headline(m) for m in it.followups if m.ephemeral] == [
        "Your move was made, but I could not post the table in the game's thread (I am "
        "missing a permission there). See /game status."]
    assert table.labels == []
    newest = tables(thread)[-1]
    assert newest.id != table.id and footer(newest) == f"Move {version}"
    assert newest.labels == ["Take 1 (free)", "Take 2 (1\N{CARROT})",
                             "Take 3 (1\N{FOUR LEAF CLOVER} 1\N{CARROT})",
                             "Take 4 (2\N{FOUR LEAF CLOVER} 1\N{CARROT})",
                             "Take 5 (3\N{FOUR LEAF CLOVER} 1\N{CARROT})",
                             "Take 6 (3\N{FOUR LEAF CLOVER} 2\N{CARROT})", "Move a card",
                             "My hand", "Watch"]
    assert headline(newest) == other.mention  # the next player, pinged once
    assert (await bot.store.get_game(1)).table_message_id == newest.id


async def test_a_move_past_its_deadline_is_deferred_first_and_still_shows_the_table(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    table = thread.last_message
    cog = bot.game_cog(KEY)
    draw = cog.render_file

    async def slow_render(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.2)  # the picture takes longer than the deadline (a busy core)
        await asyncio.sleep(0.01)  # (the loop runs the deadline's callback now)
        return await draw(*args, **kwargs)

    cog.render_file = slow_render
    bot.router.ack_by_s = 0.05
    bot.router.admission.max_age_s = 60.0  # (the age test is not what is tested here)
    it = await active.click(table, "Take 1 (free)")
    assert routes(it) == [("POST", "/interactions/I/T/callback", 6, []),
                          ("PATCH", f"/webhooks/{world.application_id}/T/messages/@original", None,
                           ["table.png"])]
    assert it.response_type == 6 and not it.failed
    assert footer(table) == f"Move {state.version + 1}"
    assert description(table) == TOOK_1.format(name=active.name)


async def test_a_whole_game_deferred_at_every_deadline_acknowledges_each_click_once(
        world, clock, tmp_path):
    """Every move's deadline at once (the deferral and the write race at each click): each
    click is acknowledged exactly once, the game is played to its end."""
    bot = make_bot(tmp_path / "g.sqlite3", clock, registry=registry(), extensions=EXTENSIONS)
    sandbox = await world.connect(bot)
    try:
        sandbox.bot.router.ack_by_s = 0.0
        game_id = await play_game(world, sandbox.bot, game=KEY, players=2, seed=3,
                                  game_seed=3, names=("Ana", "Bo"))
        assert (await sandbox.bot.store.get_game(game_id)).status == "finished"
        clicks = [it for it in world.interactions.values() if it.kind == "component"]
        assert len(clicks) == 60
        assert [it for it in clicks if not it.responded or it.failed] == []
        callbacks = [r for r in world.requests if r.path.endswith("/callback")]
        assert [(r.status, r.response) for r in callbacks if r.status != 200] == []
        assert set(Counter(r.interaction.id for r in callbacks).values()) == {1}
        assert {r.json["type"] for r in callbacks if r.interaction in clicks} == {6}
    finally:
        await world.disconnect()


async def test_a_refused_update_discord_took_as_the_answer_still_tells_the_member(la):
    """Discord refuses the update yet takes it as the click's answer: the deferral after it
    gets 400 40060, so the click counts as acknowledged; the table is posted anew by
    followup, the old table retired by ``@original`` and the member's notice goes by
    followup too (never a second response)."""
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    table = thread.last_message
    world.faults.answered_anyway(400, code=30046, message="Maximum number of edits to "
                                 "messages older than 1 hour reached. Try again later")
    it = await active.click(table, "Take 1 (free)")
    webhook = f"/webhooks/{world.application_id}/T"
    assert routes(it) == [("POST", "/interactions/I/T/callback", 7, ["table.png"]),
                          ("POST", "/interactions/I/T/callback", 6, []),
                          ("POST", webhook, None, ["table.png"]),
                          ("PATCH", f"{webhook}/messages/@original", None, []),
                          ("POST", webhook, None, [])]
    assert [r.status for r in it.requests] == [400, 400, 200, 200, 200]
    assert [headline(m) for m in it.followups if m.ephemeral] == [
        "Your move was made. I could not edit the table in the game's thread (Discord "
        "allows no more edits of it for now), so I posted it anew."]
    newest = tables(thread)[-1]
    assert newest.id != table.id and footer(newest) == f"Move {state.version + 1}"
    assert table.labels == []


async def test_an_update_made_despite_a_server_error_is_not_taken_for_a_refusal(la):
    """Discord makes the update but answers 500; discord.py's retry gets 400 40060: the
    click is answered, so the table is edited by ``@original`` (safe to repeat), not
    posted anew, and nobody is told of a refusal."""
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    table = thread.last_message
    edits, count = table.edits, len(thread.all_messages)
    world.faults.answered_anyway(500, message="Internal Server Error", applied=True)
    it = await active.click(table, "Take 1 (free)")
    await asyncio.sleep(1.2)  # discord.py retries a server error after 1 s
    await world.settle()
    assert routes(it) == [
        ("POST", "/interactions/I/T/callback", 7, ["table.png"]),
        ("POST", "/interactions/I/T/callback", 7, ["table.png"]),
        ("PATCH", f"/webhooks/{world.application_id}/T/messages/@original", None,
         ["table.png"])]
    assert [r.status for r in it.requests] == [500, 400, 200]
    assert it.followups == [] and len(thread.all_messages) == count
    assert thread.last_message.id == table.id and table.edits == edits + 2
    assert footer(table) == f"Move {state.version + 1}"
    assert table.file("table.png")[:8] == b"\x89PNG\r\n\x1a\n"


async def test_in_process_bots_defer_a_held_click_inside_the_sandbox_s_3_seconds(la):
    world, bot = la
    assert bot.router.ack_by_s == 2.5


@pytest.mark.parametrize(("code", "held"), [
    ("a.0a1b2c3d4e.3", True), ("s.0a1b2c3d4e", True), ("s.0a1b2c3d4e,p0", True), ("s.0a1b2c3d4e,p1", True),
    ("s.0a1b2c3d4e,b1", False), ("s.0a1b2c3d4e,f0", False), ("hand", False)])
def test_a_pick_from_a_paged_select_is_held_and_a_page_turn_is_not(code, held):
    on_table = SimpleNamespace(message=SimpleNamespace(flags=SimpleNamespace(ephemeral=False)))
    on_panel = SimpleNamespace(message=SimpleNamespace(flags=SimpleNamespace(ephemeral=True)))
    cid = ids.parse(ids.select_id("g", 1, code, 7))
    assert (is_move(on_table, cid), is_move(on_panel, cid)) == (held, False)  # type: ignore[arg-type]


# -- the guard alone -----------------------------------------------------------------


def _refusal(status: int, code: int, text: str) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="refused")
    return discord.HTTPException(response, {"code": code, "message": text})  # type: ignore[arg-type]


class Response:
    """A component interaction's response as Discord takes it: the first callback is
    taken after ``gate`` opens, a second is refused 40060; ``refuse`` refuses the update
    (nothing answered)."""

    def __init__(self, refuse: discord.HTTPException | None = None,
                 fail: BaseException | None = None) -> None:
        self.sent: list[str] = []
        self.refused: list[int] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.refuse = refuse
        self.fail = fail  # raised by a deferral: no answer from Discord
        self._done = False

    def is_done(self) -> bool:
        return self._done

    async def _callback(self, kind: str) -> Any:
        await self.gate.wait()
        if self.sent:
            self.refused.append(40060)
            raise _refusal(400, 40060, "Interaction has already been acknowledged.")
        if kind == "update" and self.refuse is not None:
            self.refused.append(self.refuse.code)
            raise self.refuse
        self.sent.append(kind)
        self._done = True
        return object()

    async def edit_message(self, **kwargs: Any) -> Any:
        return await self._callback("update")

    async def defer(self, **kwargs: Any) -> Any:
        if self.fail is not None:
            raise self.fail
        return await self._callback("defer")


def interaction(response: Response) -> Any:
    return SimpleNamespace(id=1, extras={}, response=response)


async def test_the_deadline_passing_while_the_update_is_on_its_way_sends_nothing_more():
    response = Response()
    response.gate.clear()
    it = interaction(response)
    guard = Ack(it, 0.01)
    assert ack_of(it) is guard and pending(it)
    update = asyncio.ensure_future(guard.update(view=None))
    await asyncio.sleep(0.05)  # the deadline passes meanwhile
    assert not pending(it)
    response.gate.set()
    assert await update is True
    await guard.close()
    assert (response.sent, response.refused, ack_of(it)) == (["update"], [], None)


async def test_an_update_after_the_deadline_waits_for_the_deferral_and_edits_after():
    response = Response()
    response.gate.clear()
    it = interaction(response)
    guard = Ack(it, 0.0)
    await asyncio.sleep(0.01)  # the deferral is on its way
    update = asyncio.ensure_future(guard.update(view=None))
    other = asyncio.ensure_future(guard.acknowledge())
    await asyncio.sleep(0.01)
    assert not update.done()
    response.gate.set()
    assert (await update, await other) == (False, True)
    await guard.close()
    assert (response.sent, response.refused) == (["defer"], [])


async def test_a_refused_update_is_deferred_then_raised_and_answered_once():
    response = Response(refuse=_refusal(400, 30046, "Maximum number of edits"))
    it = interaction(response)
    guard = Ack(it, 10.0)
    waiting = asyncio.ensure_future(guard.acknowledge())
    with pytest.raises(discord.HTTPException) as refused:
        await guard.update(view=None)
    assert refused.value.code == 30046
    assert await waiting is True
    await guard.close()
    assert (response.sent, response.refused) == (["defer"], [30046])


async def test_many_answers_at_once_send_one_deferral():
    response = Response()
    response.gate.clear()
    it = interaction(response)
    guard = Ack(it, 10.0)
    waiting = [asyncio.ensure_future(guard.acknowledge()) for _ in range(5)]
    update = asyncio.ensure_future(guard.update(view=None))
    await asyncio.sleep(0.01)
    response.gate.set()
    assert [await w for w in waiting] == [True] * 5
    assert await update is False
    await guard.close()
    assert (response.sent, response.refused) == (["defer"], [])


async def test_a_click_nothing_answered_is_deferred_when_its_handling_ends():
    response = Response()
    it = interaction(response)
    guard = Ack(it, 10.0)
    await guard.close()
    assert (response.sent, response.refused, ack_of(it)) == (["defer"], [], None)


async def test_an_update_of_a_click_answered_elsewhere_sends_nothing():
    response = Response()
    response._done = True  # answered without the guard
    it = interaction(response)
    guard = Ack(it, 10.0)
    assert await guard.update(view=None) is False
    await guard.close()
    assert (response.sent, response.refused) == ([], [])


@pytest.mark.parametrize("failure", [ConnectionResetError(104, "reset"),
                                     aiohttp.ClientOSError(), TimeoutError()])
async def test_a_deadline_deferral_without_answer_is_logged_in_a_line_and_close_returns(
        failure, caplog):
    response = Response(fail=failure)
    it = interaction(response)
    guard = Ack(it, 0.0)
    await asyncio.sleep(0.01)  # the deadline's deferral runs and fails
    await guard.close()  # (does not raise: the handler's outcome stands)
    assert await guard.acknowledge() is False
    lines = [r for r in caplog.records if r.name == "bot.discord.ack"]
    assert [(r.levelname, r.getMessage(), r.exc_info) for r in lines] == [
        ("WARNING", f"defer of 1 got no answer: {failure!r}", None)]
    assert (response.sent, ack_of(it)) == ([], None)
