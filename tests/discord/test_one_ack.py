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

import discord
import pytest
import pytest_asyncio

from bot.discord.ack import Ack, ack_of, pending
from bot.runtime import ManualClock
from bot.sandbox import World
from bot.sandbox.demo import NAMES, play_game
from tests.discord.conftest import make_bot
from tests.discord.test_llamas_alpacas import EXTENSIONS, KEY, _after_setup, registry
from tests.support import description, footer, title


@pytest_asyncio.fixture
async def la(tmp_path):
    world = World()
    for name in NAMES[:2]:
        world.add_member(name)
    bot = make_bot(tmp_path / "la.sqlite3", ManualClock(), registry=registry(),
                   extensions=EXTENSIONS)
    await world.connect(bot)
    bot.service.seed_factory = lambda: 1
    yield world, bot
    await world.disconnect()


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
    assert f"**{active.name}** is placing **" in description(table)


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
    assert f"**{active.name}** is placing **" in description(table)


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
        assert len(clicks) > 20
        assert [it for it in clicks if not it.responded or it.failed] == []
        callbacks = [r for r in world.requests if r.path.endswith("/callback")]
        assert [(r.status, r.response) for r in callbacks if r.status != 200] == []
        assert set(Counter(r.interaction.id for r in callbacks).values()) == {1}
        assert {r.json["type"] for r in callbacks if r.interaction in clicks} == {6}
    finally:
        await world.disconnect()


# -- the guard alone -----------------------------------------------------------------


def _refusal(status: int, code: int, text: str) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="refused")
    return discord.HTTPException(response, {"code": code, "message": text})  # type: ignore[arg-type]


class Response:
    """A component interaction's response as Discord takes it: the first callback is
    taken after ``gate`` opens, a second is refused 40060; ``refuse`` refuses the update
    (nothing answered)."""

    def __init__(self, refuse: discord.HTTPException | None = None) -> None:
        self.sent: list[str] = []
        self.refused: list[int] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.refuse = refuse
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
