"""Admission through real discord.py dispatch (sandbox): a click or command beyond the
bound on requests in flight is refused at once in one ephemeral sentence, nothing read
or stored, and the bound comes back free whatever the handling did."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import discord

from bot.discord import errors
from bot.games.llamas_alpacas.cards import cards_by_id
from bot.i18n import translate
from bot.runtime.admission import Admission
from bot.sandbox.demo import NAMES
from tests.discord.test_llamas_alpacas import _after_setup, la_world

BUSY = "\N{NO ENTRY SIGN} herdbot is very busy; your move was not made, try again in a moment."
BUSY_COMMAND = ("\N{NO ENTRY SIGN} herdbot is very busy; your command was not run, try again "
                "in a moment.")


async def start_tiny(world):
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    return lobby.thread


async def test_a_click_beyond_the_bound_is_refused_and_changes_nothing(world, sb):
    thread = await start_tiny(world)
    ana = world.member("Ana")
    sb.bot.router.admission = adm = Admission(1)
    before = await sb.bot.store.get_game(1)
    public = len([m for m in thread.all_messages if not m.ephemeral])
    assert adm.enter()  # one request in flight already: the bound is reached
    it = await ana.click(thread.last_message, "Add 1")
    assert ana.last_reply.ephemeral and ana.last_reply.content == BUSY
    assert it.response_type == 4 and not it.failed  # answered at once, not deferred
    after = await sb.bot.store.get_game(1)
    assert (after.version, after.state) == (before.version, before.state)
    assert len([m for m in thread.all_messages if not m.ephemeral]) == public
    assert (adm.in_flight, adm.refused) == (1, 1)
    adm.leave()
    await ana.click(thread.last_message, "Add 1")
    assert (await sb.bot.store.get_game(1)).version == before.version + 1
    assert (adm.in_flight, adm.admitted, adm.refused) == (0, 2, 1)


async def test_two_clicks_at_once_with_room_for_one_the_second_is_refused(world, sb):
    thread = await start_tiny(world)
    ana, bo = world.member("Ana"), world.member("Bo")
    sb.bot.router.admission = adm = Admission(1)
    version = (await sb.bot.store.get_game(1)).version
    peek = sb.bot.service.peek

    async def slow_peek(game_id, *args, **kwargs):
        # Ana's click holds the one place until Bo's click has been refused.
        for _ in range(200):
            if adm.refused:
                break
            await asyncio.sleep(0)
        return await peek(game_id, *args, **kwargs)

    sb.bot.service.peek = slow_peek
    table = thread.last_message
    await asyncio.gather(ana.click(table, "Add 1"), bo.click(table, "My hand"))
    assert bo.last_reply.ephemeral and bo.last_reply.content == BUSY
    assert (await sb.bot.store.get_game(1)).version == version + 1  # Ana's move stands
    assert (adm.in_flight, adm.admitted, adm.refused, adm.peak) == (0, 1, 1, 1)


async def test_a_refused_click_or_command_is_answered_without_building_an_interaction(
        world, sb, monkeypatch):
    thread = await start_tiny(world)
    ana = world.member("Ana")
    sb.bot.router.admission = adm = Admission(1)
    assert adm.enter()
    built = []
    init = discord.Interaction.__init__

    def counting(self, *args, **kwargs):
        built.append(kwargs.get("data", {}).get("type"))
        init(self, *args, **kwargs)

    monkeypatch.setattr(discord.Interaction, "__init__", counting)
    click = await ana.click(thread.last_message, "Add 1")
    command = await ana.slash("rules", game="tiny")
    ana.locale = "de"
    german = await ana.click(thread.last_message, "Add 1")
    assert [it.original.content for it in (click, command, german)] == [
        BUSY, BUSY_COMMAND, "\N{NO ENTRY SIGN} " + translate("de", errors.BUSY)]
    assert german.original.content != BUSY
    assert [(it.response_type, it.original.ephemeral) for it in (click, command, german)] == [
        (4, True)] * 3
    assert built == []
    assert (adm.in_flight, adm.admitted, adm.refused) == (1, 1, 3)
    adm.leave()
    await ana.click(thread.last_message, "Add 1")
    assert built == [3]


async def test_a_command_beyond_the_bound_is_refused_and_a_failed_click_frees_its_place(
        world, sb):
    thread = await start_tiny(world)
    ana = world.member("Ana")
    sb.bot.router.admission = adm = Admission(1)
    assert adm.enter()
    it = await ana.slash("rules", game="tiny")
    assert ana.last_reply.ephemeral and ana.last_reply.content == BUSY_COMMAND
    assert it.response_type == 4 and not it.failed
    adm.leave()
    await ana.slash("rules", game="tiny")
    assert ana.last_reply.content != BUSY_COMMAND
    assert (adm.in_flight, adm.admitted, adm.refused) == (0, 2, 1)  # (with the one above)

    async def broken(game_id, *args, **kwargs):
        raise RuntimeError("boom")

    sb.bot.service.peek = broken
    with sb.allow_errors():
        await ana.click(thread.last_message, "Add 1")
    assert ana.last_reply.content == ("\N{NO ENTRY SIGN} Something went wrong on our side; "
                                      "nothing was changed. Please try again.")
    assert (adm.in_flight, adm.admitted, adm.refused) == (0, 3, 1)


async def test_a_busy_refusal_too_late_for_discord_is_dropped_never_posted_in_the_thread(
        world, sb):
    thread = await start_tiny(world)
    ana = world.member("Ana")
    sb.bot.router.admission = adm = Admission(1)
    assert adm.enter()
    public = len([m for m in thread.all_messages if not m.ephemeral])
    dms = len(ana.dms)
    world.faults.late_ack()
    it = await ana.click(thread.last_message, "Add 1")
    assert it.failed and [r.status for r in it.requests] == [404]
    assert len([m for m in thread.all_messages if not m.ephemeral]) == public
    assert len(ana.dms) == dms
    assert (adm.in_flight, adm.refused) == (1, 1)


async def test_a_click_and_a_command_received_over_two_seconds_late_are_dropped_unanswered(
        world, sb):
    thread = await start_tiny(world)
    ana = world.member("Ana")
    late = [0.0]  # how long after Discord made it the bot receives the next interaction
    sb.bot.router.admission = adm = Admission(clock=lambda: time.time() + late[0])
    await ana.click(thread.last_message, "My hand")  # received at once: the clock offset
    before = await sb.bot.store.get_game(1)
    public = len([m for m in thread.all_messages if not m.ephemeral])
    replies = len(ana.interactions)
    late[0] = 2.5
    it = await ana.click(thread.last_message, "Add 1")
    assert (it.response_type, it.requests, it.failed) == (None, [], False)  # no answer at all
    command = await ana.slash("rules", game="tiny")
    assert (command.response_type, command.requests) == (None, [])
    after = await sb.bot.store.get_game(1)
    assert (after.version, after.state) == (before.version, before.state)
    assert len([m for m in thread.all_messages if not m.ephemeral]) == public
    assert len(ana.interactions) == replies + 2
    assert (adm.dropped, adm.admitted, adm.refused) == (2, 1, 0)
    late[0] = 1.5  # late, but still answerable in Discord's 3 s
    await ana.click(thread.last_message, "Add 1")
    assert (await sb.bot.store.get_game(1)).version == before.version + 1
    assert (adm.dropped, adm.admitted, adm.refused) == (2, 2, 0)


async def test_while_the_event_loop_lags_a_click_beyond_the_floor_is_refused(world, sb):
    thread = await start_tiny(world)
    ana = world.member("Ana")
    lag = [1.5]  # a fake probe: the loop runs its callbacks 1.5 s late
    sb.bot.router.admission = adm = Admission(floor=1, lag=lambda: lag[0])
    version = (await sb.bot.store.get_game(1)).version
    assert adm.enter()  # one request in flight: the floor
    it = await ana.click(thread.last_message, "Add 1")
    assert ana.last_reply.ephemeral and ana.last_reply.content == BUSY
    assert it.response_type == 4 and not it.failed
    assert (await sb.bot.store.get_game(1)).version == version
    assert (adm.in_flight, adm.refused, adm.refused_lag) == (1, 1, 1)
    lag[0] = 0.9
    await ana.click(thread.last_message, "Add 1")
    assert (await sb.bot.store.get_game(1)).version == version + 1
    assert (adm.in_flight, adm.admitted, adm.refused, adm.refused_lag) == (1, 2, 1, 1)


async def test_a_click_refused_as_busy_and_pressed_again_gets_in_past_the_floor(world, sb):
    """Told "try again in a moment", the member who presses the same button again is
    taken while the loop still lags (refused at the limit alone); a click nobody was
    refused is still refused, and a retry counts once."""
    thread = await start_tiny(world)
    ana, bo = world.member("Ana"), world.member("Bo")
    sb.bot.router.admission = adm = Admission(floor=1, lag=lambda: 1.5)
    version = (await sb.bot.store.get_game(1)).version
    assert adm.enter()  # one request in flight: the floor
    table = thread.last_message
    await ana.click(table, "Add 1")
    assert ana.last_reply.content == BUSY
    await bo.click(table, "Add 1")  # not Bo's turn, and never refused: refused as new work
    assert bo.last_reply.content == BUSY
    assert (adm.refused, adm.refused_lag, len(adm.refused_clicks)) == (2, 2, 2)
    await ana.click(table, "Add 1")  # the same button again: a retry
    assert (await sb.bot.store.get_game(1)).version == version + 1
    assert (adm.in_flight, adm.admitted, adm.refused) == (1, 2, 2)
    await ana.click(thread.last_message, "Add 1")  # a new click: refused again
    assert ana.last_reply.content == BUSY
    assert (adm.admitted, adm.refused, adm.refused_lag) == (2, 3, 3)
    adm.limit = 1  # at the limit even a retry is refused
    await ana.click(thread.last_message, "Add 1")
    assert ana.last_reply.content == BUSY
    assert (adm.admitted, adm.refused, adm.refused_lag) == (2, 4, 3)


async def test_the_bots_admission_reads_its_running_lag_probe(world, sb):
    adm = sb.bot.router.admission
    assert adm.lag is not None and adm.limit == 64 and adm.max_age_s == 2.0
    probe = sb.bot.lag_probe
    assert probe._handle is not None  # started by setup_hook
    sb.bot.lag_probe = SimpleNamespace(lag_s=0.7)
    try:
        assert adm.lag() == 0.7
    finally:
        sb.bot.lag_probe = probe


async def test_a_click_goes_to_the_router_without_rebuilding_its_messages_view(
        world, sb, monkeypatch):
    thread = await start_tiny(world)
    ana = world.member("Ana")
    version = (await sb.bot.store.get_game(1)).version
    names = []
    route = sb.bot.route_component

    async def noting(interaction, custom_id, values, **kwargs):
        names.append(asyncio.current_task().get_name())
        await route(interaction, custom_id, values, **kwargs)

    def rebuilt(*args, **kwargs):
        raise AssertionError("the message's view was rebuilt")

    monkeypatch.setattr(sb.bot, "route_component", noting)
    monkeypatch.setattr(discord.ui.View, "from_message", rebuilt)
    monkeypatch.setattr(discord.ui.LayoutView, "from_message", rebuilt)
    table = thread.last_message
    custom_id = next(b["custom_id"] for b in table.buttons() if b.get("label") == "Add 1")
    await ana.click(table, "Add 1")
    assert (await sb.bot.store.get_game(1)).version == version + 1
    assert names == [f"herdbot-click: {custom_id}"]


class Backlogged(Admission):
    """Queueing, with a backlog of one request, and of two for a step of a move begun."""

    def backlog(self, *, step: bool = False) -> float:
        return 2.0 if step else 1.0

    def queueing(self) -> bool:
        return True


async def test_past_the_backlog_a_click_on_a_private_panel_carries_on_the_move(tmp_path):
    """Past the backlog, a click on the table (new work) and the same click again (a
    retry) are refused, and so is a click on the member's private panel while another
    step of theirs is in flight; then the clicks on the panel (a move begun) are taken
    and finish it."""
    async with la_world(tmp_path / "la.sqlite3", NAMES[:2]) as (world, bot):
        state, active, _other, thread = await _after_setup(world, bot)
        table = thread.last_message
        await active.click(table, "Move a card")
        panel = active.last_reply
        card = cards_by_id()[state.players[state.active].board[4]].short()
        bot.router.admission = adm = Backlogged(floor=64)
        assert adm.enter()  # one request in flight: the backlog
        version = (await bot.store.get_game(1)).version
        await active.click(table, "Move a card")
        assert active.last_reply.content == BUSY
        await active.click(table, "Move a card")
        assert active.last_reply.content == BUSY
        adm.stepping.add(active.id)  # as if a step of theirs were in flight
        await active.click(panel, f"5 \N{MIDDLE DOT} {card}")
        assert active.last_reply.content == BUSY
        adm.stepping.discard(active.id)
        await active.click(panel, f"5 \N{MIDDLE DOT} {card}")
        await active.click(panel, "1 \N{MIDDLE DOT} free")
        assert (await bot.store.get_game(1)).version == version + 1
        assert (adm.refused, adm.refused_backlog, adm.admitted, adm.in_flight) == (3, 3, 3, 1)
        assert adm.stepping == set()


async def test_while_the_loop_lags_a_click_on_a_private_panel_carries_on_the_move(tmp_path):
    """Past the floor with the loop lagging, a click on the table (new work) is refused,
    and a click on the member's private panel (a move begun) is taken and finishes it."""
    async with la_world(tmp_path / "la.sqlite3", NAMES[:2]) as (world, bot):
        state, active, _other, thread = await _after_setup(world, bot)
        table = thread.last_message
        await active.click(table, "Move a card")
        panel = active.last_reply
        assert panel.ephemeral
        card = cards_by_id()[state.players[state.active].board[4]].short()
        bot.router.admission = adm = Admission(floor=1, lag=lambda: 1.5)
        assert adm.enter()  # one request in flight: the floor
        version = (await bot.store.get_game(1)).version
        await active.click(table, "Move a card")
        assert active.last_reply.content == BUSY
        await active.click(panel, f"5 \N{MIDDLE DOT} {card}")
        await active.click(panel, "1 \N{MIDDLE DOT} free")
        assert (await bot.store.get_game(1)).version == version + 1
        assert (adm.refused, adm.refused_lag, adm.admitted) == (1, 1, 3)
