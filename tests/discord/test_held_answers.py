"""A click whose first answer is a private reply or an edit of the clicked panel sends it as
its one response (bot/discord/ack.py, :func:`bot.discord.router.holds_answer`): a panel or
My hand opened from a table is CHANNEL_MESSAGE_WITH_SOURCE (type 4), a panel turned on a
private panel is UPDATE_MESSAGE (type 7), with no deferral before either. A move chosen on
a private panel whose first write is a new table, posted as the click's followup, is
deferred for it; one whose table is edited through an earlier click's token is answered by
its next private reply.

The real HerdBot playing Llamas & Alpacas through discord.py's own dispatch against the
sandbox, and :class:`~bot.discord.ack.Ack` alone against a scripted response."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord import ids, lean
from bot.discord.ack import Ack, ack_of
from bot.discord.router import holds_answer
from cogs.unleashed import NEUTRAL_PASS
from tests.discord.test_llamas_alpacas import _after_setup, cards_by_id
from tests.discord.test_one_ack import Response, _refusal, interaction, la, routes
from tests.discord.test_unleashed import (
    cid_of,
    install,
    new_bot,
    open_panel,
    play_card,
    start,
    trail_llama_ready,
)
from tests.games.unleashed.unleashed_helpers import build
from tests.support import description, headline

__all__ = ["la"]  # (the fixture, used by name)


@pytest.fixture
def bot_factory():
    """The bot with Llamas Unleashed (for the suite's ``sb`` fixture)."""
    return new_bot


async def test_a_panel_opened_from_the_table_is_one_request_the_private_reply(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    it = await active.click(thread.last_message, "Move a card")
    assert routes(it) == [("POST", "/interactions/I/T/callback", 4, [])]
    panel = active.last_reply
    assert panel.ephemeral and it.original is panel
    assert headline(panel) == "Move a card: which card moves? (spaces 1-9, row by row)"


async def test_a_panel_turned_on_a_private_panel_is_one_request_its_update(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    await active.click(thread.last_message, "Move a card")
    panel = active.last_reply
    card = cards_by_id()[state.players[state.active].board[4]].short()
    it = await active.click(panel, f"5 · {card}")
    assert routes(it) == [("POST", "/interactions/I/T/callback", 7, [])]
    assert active.last_reply.id == panel.id
    assert headline(panel) == f"Move **{card}** from space 5 to which free space?"


async def test_my_hand_is_one_request_the_private_reply(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    it = await other.click(thread.last_message, "My hand")
    assert [r[2] for r in routes(it)] == [4]
    assert other.last_reply.ephemeral and it.original is other.last_reply


async def test_a_move_on_a_private_panel_posting_a_new_table_is_deferred_for_it(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    await active.click(thread.last_message, "Move a card")
    panel = active.last_reply
    card = cards_by_id()[state.players[state.active].board[4]].short()
    await active.click(panel, f"5 · {card}")
    it = await active.click(panel, "1 · free")
    assert routes(it)[0] == ("POST", "/interactions/I/T/callback", 6, [])
    assert headline(panel).startswith("Moving ")


async def test_a_move_on_a_private_panel_is_answered_by_its_first_private_reply(world, sb):
    """Llamas Unleashed: Draw a card chosen on the private panel edits the table with the
    bot's token (no earlier click's token here); the private "You draw" is the click's
    response, and the fresh panel its followup."""
    ana = world.member("Ana")
    thread = await start(world)
    hand = ["trail_llama", "highland_llama", "sleepy_llama", "suri_alpaca", "shy_alpaca",
            "meadow_goat", "cliff_goat", "woolly_ram"]
    await install(world, sb.bot, build(3, hands={"s0": hand}, plays=1, fields={
        "s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]}))
    panel = await open_panel(ana, thread)
    it = await ana.click(panel, "Draw a card")
    assert [(method, kind, files) for method, _, kind, files in routes(it)] == [
        ("PATCH", None, ["table.png"]), ("POST", 4, []), ("POST", None, ["my-hand.png"])]
    assert it.original is not None and it.original.ephemeral
    assert headline(it.original).startswith("You draw ")
    assert headline(ana.last_reply) == "**Choose a card to discard:**"


@pytest.mark.parametrize(("code", "on_table", "on_panel"), [
    ("a.0a1b2c3d4e.3", True, True), ("s.0a1b2c3d4e", True, True),
    ("o.0a1b2c3d4e.mf8", True, True), ("s.0a1b2c3d4e,b1", True, True),
    ("s.0a1b2c3d4e,f0", True, True), ("s.0a1b2c3d4e,p1", True, True),
    ("hand", True, True), ("back", False, False), ("watch", False, False)])
def test_which_clicks_are_held_for_their_first_answer(code, on_table, on_panel):
    table = SimpleNamespace(message=SimpleNamespace(flags=SimpleNamespace(ephemeral=False)))
    panel = SimpleNamespace(message=SimpleNamespace(flags=SimpleNamespace(ephemeral=True)))
    cid = ids.parse(ids.select_id("g", 1, code, 7))
    assert (holds_answer(table, cid), holds_answer(panel, cid)) == (  # type: ignore[arg-type]
        on_table, on_panel)
    lobby = ids.parse(ids.select_id("l", 1, "o.0a1b2c3d4e.mf8", 7))
    assert holds_answer(table, lobby) is False  # type: ignore[arg-type]


# -- the guard alone -----------------------------------------------------------------


class Sending(Response):
    """:class:`Response` that also takes a new message (``send_message``); ``retried``:
    Discord made the first attempt and answers 40060 (a retry after a server error)."""

    def __init__(self, retried: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.retried = retried

    async def send_message(self, **kwargs: Any) -> Any:
        if self.retried:
            self.sent.append("send")
            self.refused.append(40060)
            raise _refusal(400, 40060, "Interaction has already been acknowledged.")
        if self.refuse is not None and not self.sent:
            self.refused.append(self.refuse.code)
            raise self.refuse
        return await self._callback("send")


async def test_a_private_reply_is_the_click_s_one_response():
    response = Sending()
    it = interaction(response)
    guard = Ack(it, 10.0)
    assert await guard.send(content="hi", ephemeral=True) is True
    await guard.close()
    assert (response.sent, response.refused, ack_of(it)) == (["send"], [], None)


async def test_a_private_reply_discord_made_despite_a_server_error_is_not_sent_again():
    response = Sending(retried=True)
    it = interaction(response)
    guard = Ack(it, 10.0)
    assert await guard.send(content="hi", ephemeral=True) is True  # no followup after it
    await guard.close()
    assert (response.sent, response.refused) == (["send"], [40060])


async def test_a_refused_private_reply_is_deferred_then_raised():
    response = Sending(refuse=_refusal(400, 50035, "Invalid Form Body"))
    it = interaction(response)
    guard = Ack(it, 10.0)
    with pytest.raises(discord.HTTPException) as refused:
        await guard.send(content="hi", ephemeral=True)
    assert refused.value.code == 50035
    await guard.close()
    assert (response.sent, response.refused) == (["defer"], [50035])


async def test_a_private_reply_after_the_deadline_is_a_followup():
    response = Sending()
    it = interaction(response)
    guard = Ack(it, 0.0)
    await asyncio.sleep(0.01)  # deferred at its deadline
    assert await guard.send(content="hi", ephemeral=True) is False
    await guard.close()
    assert (response.sent, response.refused) == (["defer"], [])


async def test_a_private_reply_sends_what_discord_py_sends_and_parses_no_message(
        la, monkeypatch):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    parsed: list[int] = []
    build = discord.Message.__init__

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        parsed.append(1)
        build(self, *args, **kwargs)
    monkeypatch.setattr(discord.Message, "__init__", counting)
    lean_it = await active.click(thread.last_message, "Move a card")
    assert parsed == []  # (discord.py's own would parse the new message in the answer)
    monkeypatch.setattr(lean._Response, "send_message",
                        discord.InteractionResponse.send_message)
    own_it = await active.click(thread.last_message, "Move a card")
    assert parsed == [1]
    assert [(r.method, r.json) for r in lean_it.requests] == [
        (r.method, r.json) for r in own_it.requests]
    assert [r[2] for r in routes(lean_it)] == [4]


async def test_respond_and_pass_are_answered_by_their_first_write(world, sb):
    """Llamas Unleashed's reaction window: Respond is answered by its private panel (4);
    Pass by its private note (4) while the window stays open, and by the window's table
    edited in place (7) when it closes the window, the note following; no deferral."""
    ana, bo, cy, thread, st = await trail_llama_ready(world, sb)
    await play_card(sb, ana, await open_panel(ana, thread),
                    cid_of(st, "trail_llama", st.hands["s0"]), "s0")
    window = thread.last_message
    it = await bo.click(window, "Respond")
    assert [(method, kind, files) for method, _, kind, files in routes(it)] == [
        ("POST", 4, [])]
    assert headline(it.original) == "Answer **Ana plays Trail Llama** with:"
    it = await bo.click(window, "Pass")
    assert [(method, kind, files) for method, _, kind, files in routes(it)] == [
        ("POST", 4, [])]
    assert headline(it.original) == NEUTRAL_PASS
    it = await cy.click(window, "Pass")
    assert [(method, kind, files) for method, _, kind, files in routes(it)] == [
        ("POST", 7, ["table.png"]), ("POST", None, [])]
    assert "Trail Llama enters Ana's Field." in description(window)
    assert headline(cy.last_reply) == NEUTRAL_PASS


def test_a_game_cog_s_own_codes_are_held_when_it_names_them():
    table = SimpleNamespace(message=SimpleNamespace(flags=SimpleNamespace(ephemeral=False)))
    held = frozenset({"resp", "pass"})
    for code, expected in (("resp.3", True), ("pass.12", True), ("pass", True),
                           ("respx.3", False), ("watch", False)):
        cid = ids.parse(ids.button_id("g", 1, code))
        assert holds_answer(table, cid, held) is expected  # type: ignore[arg-type]
        if code.startswith(("resp", "pass")):
            assert holds_answer(table, cid) is False  # type: ignore[arg-type]
