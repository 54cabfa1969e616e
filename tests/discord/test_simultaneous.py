"""Decisions several seats make at once, clicked at the same moment, through real
discord.py dispatch in the sandbox: every click of a seat still entitled to act is
applied against the state it finds, whatever the other seat did meanwhile; only a click
whose action is no longer legal is refused, with the current table.

- Llamas Unleashed: Pass on a reaction window (the table's Pass and the Respond panel's),
  a Pass once another seat answered with an Instant, the Baby picks and the Baby menu;
- Alpaca Pacapaca: Accept by both negotiators, two proposals, Accept against Decline;
- Llamas & Alpacas: the starting placements, and a press once set-up is over.

"At the same moment" is either :func:`at_once` (every interaction delivered in the same
loop iteration, as players pressing within milliseconds) or :func:`in_order` (each click
delivered, acknowledged and decoded against the same state, then held at the game's lock
until the next one is too, so the order in which they are applied is fixed).
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import pytest
import pytest_asyncio

from bot.app import builtin_games
from bot.games.registry import Registry
from bot.games.unleashed.models import UnleashedState
from bot.sandbox import SimInteraction, SimMember, SimMessage
from bot.sandbox.drivers.unleashed import find
from cogs.unleashed import NEUTRAL_PASS
from tests.discord.conftest import make_bot
from tests.discord.test_unleashed import cid_of, install, keys, open_panel, play_card
from tests.discord.test_unleashed import start as start_unleashed
from tests.faults.common import answers, press_all
from tests.games.unleashed.unleashed_helpers import build
from tests.support import description, footer, headline, title
from tests.support.pacapaca_ui import (
    load,
    member_of,
    open_negotiation,
    propose,
    snapshot,
    table_message,
)
from tests.support.pacapaca_ui import start as start_pacapaca

#: The answer to a click whose action is no longer legal (GameCog.answer_stale).
MOVED_ON = "This table has moved on. Here is the current one:"
GAMES = builtin_games()
EXTENSIONS = {"llamas-unleashed": "cogs.unleashed", "pacapaca": "cogs.pacapaca",
              "llamas-alpacas": "cogs.llamas_alpacas"}

Press = tuple[SimMember, SimMessage, dict[str, Any]]


async def connect(world, clock, tmp_path, game: str) -> Any:
    """The real bot with ``game`` only, seeded with 5, connected to ``world``."""
    bot = make_bot(tmp_path / "bot.sqlite3", clock, registry=Registry([GAMES[game]]),
                   extensions=("cogs.lobby", "cogs.game", "cogs.admin", EXTENSIONS[game]),
                   default_dm_notifications=True)
    sandbox = await world.connect(bot)
    bot.service.seed_factory = lambda: 5
    return sandbox


@pytest_asyncio.fixture
async def unleashed(world, clock, tmp_path):
    yield await connect(world, clock, tmp_path, "llamas-unleashed")
    await world.disconnect()


@pytest_asyncio.fixture
async def pacapaca(world, clock, tmp_path):
    yield await connect(world, clock, tmp_path, "pacapaca")
    await world.disconnect()


@pytest_asyncio.fixture
async def llamas(world, clock, tmp_path):
    yield await connect(world, clock, tmp_path, "llamas-alpacas")
    await world.disconnect()


# -- helpers --------------------------------------------------------------------------------


def click(member: SimMember, message: SimMessage, custom_id: str,
          values: list[str] | None = None) -> Press:
    """A press of ``custom_id`` on ``message`` as it is now (a select with ``values``)."""
    if values is None:
        return member, message, {"custom_id": custom_id, "component_type": 2}
    return member, message, {"custom_id": custom_id, "component_type": 3, "values": values}


def button(message: SimMessage, label: str) -> str:
    """The custom id of the button labelled ``label`` on ``message``."""
    return str(next(b["custom_id"] for b in message.buttons() if b.get("label") == label))


def option(message: SimMessage, label: str) -> tuple[str, list[str]]:
    """``(custom id, [value])`` of the option labelled ``label`` of the select of
    ``message``."""
    sel = find(message, "s.")
    return str(sel["custom_id"]), [next(o["value"] for o in sel["options"]
                                        if o["label"] == label)]


async def pick(member: SimMember, message: SimMessage, label: str) -> None:
    """``member`` chooses the option labelled ``label`` in the select of ``message``."""
    custom_id, values = option(message, label)
    await member.select(message, values, custom_id=custom_id)


async def at_once(sb: Any, presses: list[Press]) -> list[SimInteraction]:
    """Every press delivered in the same loop iteration, then settled."""
    its = press_all(sb, presses)
    await sb.settle()
    return its


class _Gate(asyncio.Lock):
    """A game's lock that counts the requests that came to take it."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived = 0

    async def acquire(self) -> Literal[True]:
        self.arrived += 1
        return await super().acquire()


async def _arrived(gate: _Gate, n: int) -> None:
    """Wait until ``n`` requests came to ``gate``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 10.0
    while gate.arrived < n:
        assert loop.time() < end, f"press {n - 1} never reached the game's lock"
        await asyncio.sleep(0.001)


async def in_order(sb: Any, monkeypatch, presses: list[Press],
                   game_id: int = 1) -> list[SimInteraction]:
    """The presses delivered one after another while the game's lock is held, each
    waiting at the lock (acknowledged, its game read and its click decoded against the
    state every press saw) before the next is delivered; then the lock is released, so
    they are applied in this order, and settled."""
    gate = _Gate()
    real = sb.bot.service.lock

    def lock(gid: int) -> asyncio.Lock:
        return gate if gid == game_id else real(gid)

    monkeypatch.setattr(sb.bot.service, "lock", lock)
    its: list[SimInteraction] = []
    async with gate:
        for n, press in enumerate(presses, 2):
            its += press_all(sb, [press])
            await _arrived(gate, n)
    await sb.settle()
    return its


def contents(it: SimInteraction) -> list[str]:
    """The texts the clicker of ``it`` was told privately (its ephemeral answers)."""
    return [headline(m) for m in answers(it) if m.ephemeral and headline(m)]


async def log_since(sb: Any, version: int, game_id: int = 1) -> list[tuple[str, dict]]:
    """``(seat, action)`` of the stored actions after ``version``, in order."""
    return [(r.seat, r.action) for r in await sb.bot.store.actions(game_id)
            if r.version > version]


async def stored_version(sb: Any, game_id: int = 1) -> int:
    return (await sb.bot.store.get_game(game_id)).version


# -- Llamas Unleashed: reaction windows ---------------------------------------------------------


async def _window(world, sb: Any) -> tuple[Any, SimMessage, UnleashedState]:
    """A 3-player game (Ana s0, Bo s1, Cy s2) where Ana played a Trail Llama: Bo holds
    Llama Spit and Cy Alpaca Huff, both Instants that may answer it. Returns the thread,
    the window's table message and the state before the play."""
    thread = await start_unleashed(world)
    st = build(3, hands={"s0": ["trail_llama"], "s1": ["llama_spit"], "s2": ["alpaca_huff"]},
               fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]},
               plays=2)
    await install(world, sb.bot, st)
    await play_card(sb, world.member("Ana"), await open_panel(world.member("Ana"), thread),
                    cid_of(st, "trail_llama", st.hands["s0"]), "s0")
    window = thread.last_message
    assert window.labels == ["Respond", "Pass", "My hand", "Watch"]
    return thread, window, st


async def _closed_by_both_passes(sb: Any, thread, before: int, st: UnleashedState) -> None:
    after = UnleashedState.model_validate_json((await sb.bot.store.get_game(1)).state)
    assert sorted(await log_since(sb, before)) == [("s1", {"type": "pass"}),
                                                   ("s2", {"type": "pass"})]
    assert after.reaction is None
    assert keys(after.fields["s0"]) == ["cria_button", "trail_llama"]
    assert "Trail Llama enters Ana's Field." in description(thread.last_message)


async def test_two_passes_on_one_window_at_the_same_moment_both_count(
        world, unleashed, monkeypatch):
    """Bo and Cy press the table's Pass on the same window, both before either is
    applied: both passes stand and the window closes."""
    bo, cy = world.member("Bo"), world.member("Cy")
    thread, window, st = await _window(world, unleashed)
    before = await stored_version(unleashed)
    passing = button(window, "Pass")
    its = await in_order(unleashed, monkeypatch,
                         [click(bo, window, passing), click(cy, window, passing)])
    await _closed_by_both_passes(unleashed, thread, before, st)
    assert [contents(it) for it in its] == [[NEUTRAL_PASS], [NEUTRAL_PASS]]


@pytest.mark.parametrize("first", ["table", "panel"])
async def test_a_pass_from_the_table_and_one_from_the_respond_panel_both_count(
        world, unleashed, monkeypatch, first):
    """Bo presses the table's Pass while Cy presses Pass in her Respond panel (opened
    before), in either order: both passes stand and the window closes."""
    bo, cy = world.member("Bo"), world.member("Cy")
    thread, window, st = await _window(world, unleashed)
    await cy.click(window, "Respond")
    menu = cy.last_reply
    assert headline(menu) == "Answer **Ana plays Trail Llama** with:"
    before = await stored_version(unleashed)
    table_pass = click(bo, window, button(window, "Pass"))
    panel_pass = click(cy, menu, button(menu, "Pass"))
    presses = [table_pass, panel_pass] if first == "table" else [panel_pass, table_pass]
    its = await in_order(unleashed, monkeypatch, presses)
    await _closed_by_both_passes(unleashed, thread, before, st)
    bo_it = its[0] if first == "table" else its[1]
    assert contents(bo_it) == [NEUTRAL_PASS]
    assert all(MOVED_ON not in contents(it) for it in its)


async def test_a_pass_after_another_seat_answered_gets_the_current_table(
        world, unleashed, monkeypatch):
    """Bo answers with Llama Spit and Cy presses Pass on the same window, Bo's first:
    that window is over, so Cy's Pass is refused with the current table (and the neutral
    words every Pass gets); only Bo's answer is stored."""
    bo, cy = world.member("Bo"), world.member("Cy")
    thread, window, st = await _window(world, unleashed)
    await bo.click(window, "Respond")
    menu = bo.last_reply
    before = await stored_version(unleashed)
    its = await in_order(unleashed, monkeypatch, [
        click(bo, menu, *option(menu, "Llama Spit")),
        click(cy, window, button(window, "Pass"))])
    spit = cid_of(st, "llama_spit", st.hands["s1"])
    assert await log_since(unleashed, before) == [("s1", {"type": "respond", "card": spit})]
    assert contents(its[1]) == [MOVED_ON, NEUTRAL_PASS]
    stale = answers(its[1])[0]
    assert stale.ephemeral and stale.filenames == ["table.png"]
    assert footer(stale) == f"Move {before + 1}"


# -- Llamas Unleashed: set-up ----------------------------------------------------------------------


async def test_two_babies_picked_at_the_same_moment_both_stand(world, unleashed):
    ana, bo = world.member("Ana"), world.member("Bo")
    thread = await start_unleashed(world, ("Ana", "Bo"))
    table = thread.last_message
    await ana.click(table, "Choose your Baby")
    ana_menu = ana.last_reply
    await bo.click(table, "Choose your Baby")
    bo_menu = bo.last_reply
    await at_once(unleashed, [click(ana, ana_menu, *option(ana_menu, "Cria Button")),
                              click(bo, bo_menu, *option(bo_menu, "Cria Wisp"))])
    rows = await log_since(unleashed, 0)
    assert sorted(seat for seat, _ in rows) == ["s0", "s1"]
    st = UnleashedState.model_validate_json((await unleashed.bot.store.get_game(1)).state)
    assert keys(st.fields["s0"]) == ["cria_button"] and keys(st.fields["s1"]) == ["cria_wisp"]
    assert sorted(st.babies_chosen) == ["s0", "s1"] and st.phase != "setup"


async def test_the_baby_menu_pressed_as_another_pick_lands_opens_with_the_nursery_now(
        world, unleashed):
    """Bo presses Choose your Baby on the table as it was before Ana's pick: he still has
    to choose, so his menu opens with the Babies left (not "moved on"), and his pick from
    it stands."""
    ana, bo = world.member("Ana"), world.member("Bo")
    thread = await start_unleashed(world, ("Ana", "Bo", "Cy"))
    table = thread.last_message
    opener = button(table, "Choose your Baby")
    as_bo_sees_it = snapshot(world, table)
    await ana.click(table, "Choose your Baby")
    await pick(ana, ana.last_reply, "Cria Button")
    it = await unleashed.run_component(*click(bo, as_bo_sees_it, opener))
    menu = it.last_touched
    assert menu.ephemeral and menu.ephemeral_for == bo.id
    assert headline(menu) == "Choose your Baby:"
    babies = [o["label"] for o in find(menu, "s.")["options"]]
    assert len(babies) == 11 and "Cria Button" not in babies
    await pick(bo, menu, "Cria Wisp")
    st = UnleashedState.model_validate_json((await unleashed.bot.store.get_game(1)).state)
    assert keys(st.fields["s0"]) == ["cria_button"] and keys(st.fields["s1"]) == ["cria_wisp"]
    assert st.babies_chosen == ["s0", "s1"]


# -- Alpaca Pacapaca: the negotiation ------------------------------------------------------------


async def _deal(world, sb: Any) -> tuple[SimMember, SimMember, str, str, SimMessage]:
    """A 2-player negotiation (Ana and Bo) with deal v1 proposed by the active player:
    ``(active member, partner member, active seat, partner seat, the panel)``."""
    thread = await start_pacapaca(world, ["Ana", "Bo"])
    active, partner = await open_negotiation(world, sb.bot, thread)
    am, pm = await member_of(world, sb.bot, active), await member_of(world, sb.bot, partner)
    _, _, st = await load(sb.bot)
    await propose(am, thread, st.alpacas[active].neck[:1], st.alpacas[partner].neck[:1])
    panel = table_message(am, thread)
    assert panel.labels == ["Edit deal", "Accept deal v1", "Decline", "Give up", "My hand"]
    return am, pm, active, partner, panel


async def _traded(sb: Any, before: int, order: list[str], partner: str) -> None:
    assert await log_since(sb, before) == [(s, {"type": "accept", "version": 1})
                                           for s in order]
    _, _, st = await load(sb.bot)
    assert st.phase == "turn" and st.seats[st.active] == partner and st.negotiation is None


@pytest.mark.parametrize("first", ["active", "partner"])
async def test_both_negotiators_accept_at_the_same_moment_the_deal_is_made(
        world, pacapaca, monkeypatch, first):
    am, pm, active, partner, panel = await _deal(world, pacapaca)
    before = await stored_version(pacapaca)
    accept = button(panel, "Accept deal v1")
    order = [(am, active), (pm, partner)] if first == "active" else [(pm, partner), (am, active)]
    its = await in_order(pacapaca, monkeypatch, [click(m, panel, accept) for m, _ in order])
    await _traded(pacapaca, before, [seat for _, seat in order], partner)
    assert all(MOVED_ON not in contents(it) for it in its)
    assert title(panel).endswith("(closed)")


async def test_two_accepts_delivered_together_both_stand(world, pacapaca):
    am, pm, active, partner, panel = await _deal(world, pacapaca)
    before = await stored_version(pacapaca)
    accept = button(panel, "Accept deal v1")
    its = await at_once(pacapaca, [click(am, panel, accept), click(pm, panel, accept)])
    rows = await log_since(pacapaca, before)
    await _traded(pacapaca, before, [seat for seat, _ in rows], partner)
    assert sorted(seat for seat, _ in rows) == sorted([active, partner])
    assert all(MOVED_ON not in contents(it) for it in its)


async def test_an_accept_after_the_deal_was_declined_gets_the_current_table(
        world, pacapaca, monkeypatch):
    """The partner declines while the active player accepts, the Decline first: the deal
    is gone, so the Accept is refused with the current table and nothing else is stored."""
    am, pm, active, partner, panel = await _deal(world, pacapaca)
    before = await stored_version(pacapaca)
    its = await in_order(pacapaca, monkeypatch, [
        click(pm, panel, button(panel, "Decline")),
        click(am, panel, button(panel, "Accept deal v1"))])
    assert await log_since(pacapaca, before) == [(partner, {"type": "decline"})]
    assert contents(its[1]) == [MOVED_ON]
    stale = answers(its[1])[0]
    assert stale.ephemeral and stale.ephemeral_for == am.id
    assert footer(stale) == f"Move {before + 1}"
    _, _, st = await load(pacapaca.bot)
    assert st.phase == "negotiation" and st.negotiation.accepted == []


async def test_two_proposals_at_the_same_moment_both_are_stored(world, pacapaca):
    """Both negotiators press Propose in their deal editors at once: both deals are
    stored, the later one is on the table."""
    thread = await start_pacapaca(world, ["Ana", "Bo"])
    active, partner = await open_negotiation(world, pacapaca.bot, thread)
    am = await member_of(world, pacapaca.bot, active)
    pm = await member_of(world, pacapaca.bot, partner)
    _, _, st = await load(pacapaca.bot)
    panel = table_message(am, thread)
    editors = []
    for m, give in ((am, st.alpacas[active].neck[:1]), (pm, st.alpacas[partner].neck[:1])):
        await m.click(panel, "Edit deal")
        editor = m.last_reply
        sel = next(s for s in editor.selects() if str(s["custom_id"]).split(":")[-1]
                   .startswith("give."))
        await m.select(editor, [str(c) for c in give], custom_id=sel["custom_id"])
        editors.append((m, m.last_reply))
    before = await stored_version(pacapaca)
    await at_once(pacapaca, [click(m, e, button(e, "Propose")) for m, e in editors])
    rows = await log_since(pacapaca, before)
    assert sorted((seat, a["type"]) for seat, a in rows) == sorted(
        [(active, "propose"), (partner, "propose")])
    _, _, st2 = await load(pacapaca.bot)
    assert st2.negotiation.deal_version == 2 and st2.negotiation.proposals == 2


# -- Llamas & Alpacas: set-up ------------------------------------------------------------------


async def test_three_starting_placements_at_the_same_moment_all_stand(world, llamas):
    names = ("Ana", "Bo", "Cy")
    ana = world.member("Ana")
    await ana.slash("play", game="llamas-alpacas")
    lobby = ana.last_reply
    for n in names[1:]:
        await world.member(n).click(lobby, "Join")
    await ana.click(lobby, "Start")
    table = lobby.thread.last_message
    its = await at_once(llamas, [click(world.member(n), table, button(table, f"{s} · free"))
                                 for n, s in zip(names, (1, 5, 9), strict=True)])
    assert sorted(await log_since(llamas, 0)) == [
        ("s0", {"type": "place", "space": 0}), ("s1", {"type": "place", "space": 4}),
        ("s2", {"type": "place", "space": 8})]
    _, _, _, st = await llamas.bot.service.load(1)
    assert st.phase == "turn"
    assert all(MOVED_ON not in contents(it) for it in its)


async def test_a_placement_pressed_once_set_up_is_over_gets_the_current_table(
        world, llamas, monkeypatch):
    """Ana and Bo place at the same moment and Ana presses a second space with them:
    both placements stand; her second press comes after set-up ended and gets the
    current table."""
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="llamas-alpacas")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    table = lobby.thread.last_message
    its = await in_order(llamas, monkeypatch, [
        click(ana, table, button(table, "1 · free")), click(bo, table, button(table, "9 · free")),
        click(ana, table, button(table, "5 · free"))])
    assert await log_since(llamas, 0) == [("s0", {"type": "place", "space": 0}),
                                          ("s1", {"type": "place", "space": 8})]
    assert contents(its[2]) == [MOVED_ON]
    assert footer(answers(its[2])[0]) == "Move 2"
