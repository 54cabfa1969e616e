"""AI levels in Discord: the lobby's level select and Add AI seat, the level on the lobby
and on the table, each AI seat played by its level's policy off the event loop, and a seat
taken over after a leave played at Normal. Real discord.py dispatch in the sandbox, on the
tiny game wired with three levels."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from bot.app import builtin_games
from bot.discord.components import HerdSelect
from bot.games.registry import Registry
from bot.runtime import GameError
from cogs.lobby_card import lobby_items
from tests.discord.conftest import make_bot
from tests.support import fields, headline, parts
from tests.support.tinygame import TINY_SPEC, Add, tiny_policy

NO = "\N{NO ENTRY SIGN} "


def leveled_registry(calls: list[tuple[str, str, bool]], *, hard: bool = True) -> Registry:
    """The tiny game with an Easy (adds 1), a Normal (the tiny policy: adds 2) and, with
    ``hard``, a Hard level (adds 1 until 2 more win); every call is recorded in ``calls``
    as ``(level, seat to move, ran on the main thread)``."""

    def recorded(level: str, inner):  # type: ignore[no-untyped-def]
        def policy(view, legal, rand):  # type: ignore[no-untyped-def]
            calls.append((level, view.turn, threading.current_thread() is threading.main_thread()))
            return inner(view, legal, rand)
        return policy

    def add_one(view, legal, rand):  # type: ignore[no-untyped-def]
        return next((a for a in legal if isinstance(a, Add) and a.n == 1), legal[0])

    levels = {"easy": recorded("easy", add_one), "normal": recorded("normal", tiny_policy)}
    if hard:
        levels["hard"] = recorded("hard", add_one)
    return Registry([dataclasses.replace(TINY_SPEC, policy=levels["normal"], levels=levels)])


async def test_host_picks_levels_the_lobby_and_table_show_them_and_each_seat_plays_its_level(
        world, clock, tmp_path):
    calls: list[tuple[str, str, bool]] = []
    sb = await world.connect(make_bot(tmp_path / "levels.sqlite3", clock,
                                      registry=leveled_registry(calls)))
    try:
        ana, bo = world.member("Ana"), world.member("Bo")
        await ana.slash("play", game="tiny")
        lobby = ana.last_reply
        select = lobby.selects()[0]
        assert select["placeholder"] == "AI level for new AI seats"
        assert [(o["label"], o["value"], o.get("default", False)) for o in select["options"]] == [
            ("AI level: Easy", "easy", False), ("AI level: Normal", "normal", True),
            ("AI level: Hard", "hard", False)]
        assert [o["description"] for o in select["options"]] == [
            "A beginner: sensible moves, with mistakes", "A steady player (the default)",
            "Thinks ahead from what its seat can see"]
        await bo.click(lobby, "Join")
        await bo.select(lobby, ["easy"])
        assert bo.last_reply.ephemeral
        assert headline(bo.last_reply) == NO + "Only the host can choose the AI level."
        await ana.select(lobby, ["hard"])
        assert [o.get("default", False) for o in lobby.selects()[0]["options"]] == [
            False, False, True]
        await ana.click(lobby, "Add AI seat")
        await ana.select(lobby, ["easy"])
        await ana.click(lobby, "Add AI seat")
        assert fields(lobby)[0] == {
            "name": "Seats (4/4)",
            "value": (f"1. <@{ana.id}> \N{CROWN} host\n2. <@{bo.id}>\n"
                      "3. \N{ROBOT FACE} AI Pancho (Hard)\n4. \N{ROBOT FACE} AI Dolly (Easy)")}
        assert lobby.selects()[0]["disabled"] is True  # the table is full
        assert [(s.seat, s.is_ai, s.ai_level) for s in await sb.bot.store.seats(1)] == [
            ("s0", False, "normal"), ("s1", False, "normal"), ("s2", True, "hard"),
            ("s3", True, "easy")]

        await ana.click(lobby, "Start")
        thread = lobby.thread
        table = thread.last_message
        assert parts(table)["ai"] == (
            "**AI seats**\n\N{ROBOT FACE} AI Pancho (Hard)\n\N{ROBOT FACE} AI Dolly (Easy)")
        await ana.click(table, "Add 2")
        await bo.click(thread.last_message, "Add 2")
        # Hard (s2) and Easy (s3) each played by their own level, never on the loop's thread.
        assert calls == [("hard", "s2", False), ("easy", "s3", False)]
        log = [(a.seat, a.action) for a in await sb.bot.store.actions(1)]
        assert log == [("s0", {"type": "add", "n": 2}), ("s1", {"type": "add", "n": 2}),
                       ("s2", {"type": "add", "n": 1}), ("s3", {"type": "add", "n": 1})]

        # Bo leaves: the AI plays his seat at Normal (even were his row to say otherwise).
        await sb.bot.store.set_seat(1, "s1", ai_level="easy")
        await ana.click(thread.last_message, "Add 1")
        await bo.slash("game leave", in_channel=thread)
        assert headline(bo.last_reply) == "You left the game; the AI plays your seat."
        assert calls[2:] == [("normal", "s1", False), ("hard", "s2", False),
                             ("easy", "s3", False)]
        assert [(a.seat, a.action["n"]) for a in (await sb.bot.store.actions(1))[4:]] == [
            ("s0", 1), ("s1", 2), ("s2", 1), ("s3", 1)]
        table = [m for m in thread.all_messages if "Add 1" in m.labels][-1]
        await ana.click(table, "Add 1")
        table = [m for m in thread.all_messages if "Add 1" in m.labels][-1]
        shown = parts(table)["ai"]
        assert shown == ("**AI seats**\n\N{ROBOT FACE} Bo (Normal, until they are back)\n"
                         "\N{ROBOT FACE} AI Pancho (Hard)\n\N{ROBOT FACE} AI Dolly (Easy)")
    finally:
        await world.disconnect()


async def test_add_ai_seat_adds_a_normal_seat_until_the_host_picks_another_level(
        world, clock, tmp_path):
    calls: list[tuple[str, str, bool]] = []
    sb = await world.connect(make_bot(tmp_path / "normal.sqlite3", clock,
                                      registry=leveled_registry(calls, hard=False)))
    try:
        ana = world.member("Ana")
        await ana.slash("play", game="tiny")
        lobby = ana.last_reply
        assert [o["value"] for o in lobby.selects()[0]["options"]] == ["easy", "normal"]
        await ana.click(lobby, "Add AI seat")
        assert [(s.seat, s.ai_level) for s in await sb.bot.store.seats(1)] == [
            ("s0", "normal"), ("s1", "normal")]
        assert "2. \N{ROBOT FACE} AI Pancho (Normal)" in fields(lobby)[0]["value"]
        # A level the game does not offer cannot be added, whatever asks for it.
        await ana.click(lobby, "Remove AI seat")
        with pytest.raises(GameError) as refused:
            await sb.bot.service.add_ai(1, ana.id, "hard")
        assert (refused.value.code, refused.value.message) == (
            "no_level", "Tiny Race has no Hard AI players yet.")
        assert [s.seat for s in await sb.bot.store.seats(1)] == ["s0"]
    finally:
        await world.disconnect()


def test_the_shipped_games_offer_the_levels_wired_for_them():
    """Hard is offered only once a game has a Hard policy wired (its wiring module, bot.app.<game>)."""
    from bot.store import GameRecord, SeatRecord

    for spec in builtin_games():
        record = GameRecord(id=1, kind=spec.key, guild_id=1, channel_id=2, thread_id=None,
                            lobby_message_id=None, table_message_id=None, host_id=3,
                            status="lobby", options={}, seed=1, state=None, version=0,
                            created_at=0, updated_at=0)
        seats = [SeatRecord(game_id=1, seat="s0", position=0, user_id=3, name="Ana",
                            is_ai=False)]
        items = lobby_items(record, seats, spec)
        assert items != []
        selects = [c.item for c in items if isinstance(c, HerdSelect)]
        assert len(selects) == 1
        labels = [o.label for o in selects[0].options]
        expected = ["AI level: Easy", "AI level: Normal"]
        if "hard" in spec.levels:
            expected.append("AI level: Hard")
        assert labels == expected
        assert spec.level_policy("normal") is spec.policy
