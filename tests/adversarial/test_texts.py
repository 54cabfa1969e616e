"""What players read: many moves in one update, display names full of markdown and
mentions, 8 players, Python reprs and tracebacks that must never reach anyone."""

from __future__ import annotations

import json
import re

import discord

import bot.sandbox.demo as demo
from bot.discord.text import md_name
from bot.games.base import Event
from tests.adversarial.conftest import start
from tests.faults.common import press_all
from tests.support import description, footer, headline, rows, texts

NO = "\N{NO ENTRY SIGN} "

#: Display names a mischievous server could have (Discord allows up to 32 characters).
WEIRD = ["@everyone", "**Star**", "s1", "<@&42> role", "Ana ||spoiler||", "x" * 32, "@here",
         "~~strike~~ _it_ > quote"]


def public_table(thread):
    return [m for m in thread.all_messages if not m.ephemeral and rows(m)][-1]


async def test_every_public_move_since_the_last_table_is_told(world, sb):
    ana = world.member("Ana")
    lobby = await start(world, "llamas-unleashed", ["Ana"], ai=7)
    thread = lobby.thread
    first = public_table(thread)
    shown_from = int(footer(first).split()[-1])
    count = len(thread.all_messages)
    await ana.click(first, "Choose your Baby")
    await ana.click(ana.last_reply, "Pick one for me")
    told = "\n".join(m.text for m in thread.all_messages[count:] if not m.ephemeral)
    record, seats, _, _ = await sb.bot.service.load(1)
    names = {s.seat: s.name for s in seats}
    missing = []
    for row in await sb.bot.store.actions(1):
        if row.version <= shown_from:
            continue
        for raw in row.events:
            event = Event.model_validate(raw)
            text = re.sub(r"\bs(\d)\b", lambda m: names[m.group(0)], event.text)
            if event.to is None and event.type != "turn" and text not in told:
                missing.append(text)
    assert missing == []


async def test_markdown_in_display_names_is_escaped(world, sb):
    star = world.add_member("**Star**")
    await star.slash("play", game="pacapaca")
    lobby = star.last_reply
    await world.member("Bo").click(lobby, "Join")
    await star.click(lobby, "Start")
    desc = description(public_table(lobby.thread))
    assert discord.utils.escape_markdown("**Star**") in desc


async def test_unknown_names_are_quoted_in_words_not_python_reprs(world, sb):
    ana = world.member("Ana")
    typed = "it's a \\ game"
    await ana.slash("rules", game=typed)
    assert headline(ana.last_reply).startswith(NO + "There is no game called")
    # The typed backslash is escaped once for markdown, so Discord shows it as typed.
    assert "“it's a \\\\ game”" in headline(ana.last_reply)


async def test_eight_weird_names_stay_within_discord_limits_and_never_ping_everyone(
        world, sb, monkeypatch):
    """A whole 8-player Llamas Unleashed game through the UI with hostile display names."""
    monkeypatch.setattr(demo, "NAMES", WEIRD)
    for name in WEIRD:
        world.add_member(name)
    game_id = await demo.play_game(world, sb.bot, game="llamas-unleashed", players=8, seed=3,
                                   game_seed=3)
    record = await sb.bot.store.get_game(game_id)
    assert record.status == "finished"
    # No request ever allows @everyone/@here or role pings.
    for req in world.requests:
        body = req.json if isinstance(req.json, dict) else {}
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        allowed = data.get("allowed_mentions")
        if allowed is not None:
            assert "everyone" not in allowed.get("parse", []), req
            assert "roles" not in allowed.get("parse", []), req
    # Every message anyone saw is within Discord's limits and free of Python internals.
    seen = [m for m in world.messages.values()]
    assert len(seen) > 100
    for m in seen:
        assert len(m.content) <= 2000
        assert sum(map(len, texts(m))) <= 4000
        total = 0
        for e in m.embeds:
            assert len(e.get("title", "")) <= 256 and len(e.get("description", "")) <= 4096
            total += len(e.get("title", "")) + len(e.get("description", ""))
            total += len((e.get("footer") or {}).get("text", ""))
        assert total <= 6000
        for c in m.selects():
            assert all(len(o["label"]) <= 100 for o in c.get("options", []))
        text = m.text + json.dumps(m.components)
        for bad in ("Traceback", "object at 0x", "Exception", "NoneType", "<bot.", "KeyError"):
            assert bad not in text, (bad, m)
    final = description(world.channel(record.thread_id).last_message)
    for name in WEIRD:  # every player is listed, markdown and mentions escaped
        assert md_name(name) in final


async def test_a_double_click_on_draw_two_applies_once(world, sb):
    """Two presses of Draw 2 arriving in the same instant: one draw, one polite refusal."""
    ana = world.member("Ana")
    lobby = await start(world, "pacapaca", ["Ana", "Bo"])
    table = public_table(lobby.thread)
    version = (await sb.bot.store.get_game(1)).version
    data = {"custom_id": table.component("Draw 2")["custom_id"], "component_type": 2}
    its = press_all(sb, [(ana, table, data), (ana, table, data)])
    await sb.settle()
    assert (await sb.bot.store.get_game(1)).version == version + 1
    replies = [m.text for it in its for m in ([it.original] + list(it.followups)) if m]
    assert sum("You drew" in r for r in replies) == 1
    assert any("This table has moved on" in r for r in replies), replies
    assert not any("Something went wrong" in r for r in replies)
