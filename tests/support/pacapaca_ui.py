"""Alpaca Pacapaca through the real bot in the sandbox, for the Discord tests: the bot
(``pacapaca_bot``), the fixtures (``seed``, ``world``, ``clock``, ``sb``: import them into the
test module) and the helpers that play its table through the UI (start a game, draw and
keep, open a negotiation, propose a deal, click an old snapshot)."""

from __future__ import annotations

import copy
import types

import pytest
import pytest_asyncio

import bot.runtime.service as service_mod
from bot.app import builtin_games
from bot.games.pacapaca.cards import catalog
from bot.games.pacapaca.models import Draw2, Keep
from bot.games.registry import Registry
from bot.runtime import ManualClock
from bot.sandbox import World
from bot.sandbox.demo import NAMES
from bot.sandbox.drivers import DriverContext
from bot.sandbox.drivers.pacapaca import find, perform
from bot.sandbox.model import SimMessage
from tests.discord.conftest import make_bot
from tests.support import headline, rows

#: The game as the bot offers it: its rules wired to its AI and cog (bot.app).
SPEC = builtin_games()["pacapaca"]

EXTENSIONS = ("cogs.lobby", "cogs.game", "cogs.admin", "cogs.pacapaca")
GID = 1


def pacapaca_bot(db, clock):
    return make_bot(db, clock, registry=Registry([SPEC]), extensions=EXTENSIONS)


@pytest.fixture
def seed(monkeypatch):
    """Fix the game seed the service draws for a new lobby (default 5)."""
    box = {"seed": 5}
    monkeypatch.setattr(service_mod, "secrets",
                        types.SimpleNamespace(randbits=lambda n: box["seed"]))
    return box


@pytest_asyncio.fixture
async def world():
    w = World()
    for name in [*NAMES[:4], "Zed"]:
        w.add_member(name)
    return w


@pytest_asyncio.fixture
async def clock():
    return ManualClock()


@pytest_asyncio.fixture
async def sb(world, clock, tmp_path, seed):
    sandbox = await world.connect(pacapaca_bot(tmp_path / "bot.sqlite3", clock))
    yield sandbox
    await world.disconnect()


# -- helpers ------------------------------------------------------------------------------


async def start(world, names):
    host = world.member(names[0])
    await host.slash("play", game="pacapaca")
    lobby = host.last_reply
    for n in names[1:]:
        await world.member(n).click(lobby, "Join")
    await host.click(lobby, "Start")
    return lobby.thread


async def load(bot):
    record, seats, spec, state = await bot.service.load(GID)
    return record, {s.seat: s for s in seats}, state


async def member_of(world, bot, seat):
    _, seats, _ = await load(bot)
    return world.member(seats[seat].user_id)


async def active_member(world, bot):
    _, _, st = await load(bot)
    return await member_of(world, bot, st.seats[st.active])


def table_message(member, thread):
    msgs = [m for m in member.visible(thread) if not m.ephemeral and rows(m)]
    return msgs[-1]


def names_of(cards):
    return [catalog().name_of(c) for c in cards]


async def ctx_for(world, bot, thread, seat):
    ctx = DriverContext(world, bot, await member_of(world, bot, seat), GID, seat)
    ctx._thread_id = thread.id
    return ctx


async def draw_and_keep_first(world, bot, thread):
    """The active player draws 2 and keeps the first drawn card (through the UI)."""
    _, _, st = await load(bot)
    seat = st.seats[st.active]
    ctx = await ctx_for(world, bot, thread, seat)
    await perform(ctx, Draw2())
    _, _, st = await load(bot)
    await perform(ctx, Keep(card=st.drawn[0]))


async def until_both_have_necks(world, bot, thread):
    for _ in range(12):
        _, _, st = await load(bot)
        if all(st.alpacas[s].neck for s in st.seats):
            return st
        await draw_and_keep_first(world, bot, thread)
    raise AssertionError("necks stayed empty")


async def open_negotiation(world, bot, thread, partner=None):
    """Play until everyone has neck cards, then the active player negotiates with
    ``partner`` (default: the next seat)."""
    st = await until_both_have_necks(world, bot, thread)
    active = st.seats[st.active]
    partner = partner or st.seats[(st.active + 1) % len(st.seats)]
    am = await member_of(world, bot, active)
    await am.click(table_message(am, thread), "Negotiate")
    picker = am.last_reply
    assert picker.ephemeral and picker.selects()[0]["placeholder"] == "Negotiate with..."
    _, seats, _ = await load(bot)
    assert [o["label"] for o in picker.selects()[0]["options"]] == [
        seats[s].name for s in st.seats if s != active]
    await am.select(picker, [seats[partner].name])  # the option's label (values are indexes)
    assert headline(am.last_reply) == f"You opened a negotiation with {seats[partner].name}."
    return active, partner


def by_label(message, label):
    """The custom id of the button labelled ``label`` on ``message``."""
    return next(b["custom_id"] for b in message.buttons() if b.get("label") == label)


async def propose(member, thread, give, get):
    panel = table_message(member, thread)
    await member.click(panel, "Edit deal")
    editor = member.last_reply
    assert editor.ephemeral
    await member.select(editor, [str(c) for c in give], custom_id=find(editor, "give.", prefix=True)["custom_id"])
    editor = member.last_reply
    await member.select(editor, [str(c) for c in get], custom_id=find(editor, "get.", prefix=True)["custom_id"])
    editor = member.last_reply
    await member.click(editor, "Propose")
    return editor


def snapshot(world, message):
    """The message as a client that has not refreshed still shows it."""
    return SimMessage(world, copy.deepcopy(message.data), [])


async def raw_click(world, member, message, custom_id):
    """Click ``custom_id`` on ``message`` (a :func:`snapshot` for an old client's view);
    returns the bot's answer."""
    it = await world.sandbox.run_component(member, message, {"custom_id": custom_id,
                                                             "component_type": 2})
    return it.last_touched
