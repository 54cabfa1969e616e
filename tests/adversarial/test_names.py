"""A member nicknamed ``<@OTHER> **LOUD** @everyone`` plays each game through the sandbox:
nobody but the intended members is ever pinged, the name renders escaped wherever Discord
renders markdown, and shows exactly as typed in labels, option labels and placeholders (no
backslashes)."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

import bot.sandbox.demo as demo
from bot.discord.text import ZERO_WIDTH_SPACE, md_name, pinging, plain_name
from bot.games.pacapaca.models import Draw2, Keep, StartNegotiation
from bot.sandbox.model import walk_components
from tests.support import headline, rows, texts, title

#: Mention @everyone, @here and All Roles: given to the bot so a leak would really ping.
MENTION_EVERYONE = 1 << 17


def setup_members(world) -> tuple[Any, Any, str]:
    """(the victim Hal, the member nicknamed after him, the nickname); the bot may
    mention everyone, so only allowed_mentions stands between a name and a ping."""
    victim = world.member("Hal")
    nick = f"<@{victim.id}> **LOUD** @everyone"
    loud = world.add_member(nick)
    role = world.roles[world.bot_role_id]
    role["permissions"] = str(int(role["permissions"]) | MENTION_EVERYONE)
    return victim, loud, nick


def rendered(m) -> list[str]:
    """The markdown-rendered text of a message: content, text displays, embed titles,
    descriptions and field names and values (footers render no markdown)."""
    out = [m.content, *texts(m)]
    for e in m.embeds:
        out += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            out += [f.get("name") or "", f.get("value") or ""]
    return out


def plain_texts(m) -> list[str]:
    """Button labels, select option labels and descriptions, placeholders and pictures'
    alternative texts."""
    out = list(m.labels) + [i.get("description") or "" for c in walk_components(m.components)
                            if c.get("type") == 12 for i in c.get("items") or []]
    for c in m.selects():
        out.append(c.get("placeholder") or "")
        for o in c.get("options", []):
            out += [o["label"], o.get("description") or ""]
    return out


def check_world(world, victim, loud, nick, players: set[int]) -> dict[str, int]:
    """Every message the bot sent anywhere (channels, threads, DMs, ephemerals): pings
    only seated members, never the victim, never @everyone or a role; the raw name never
    renders; every plain-text place shows the name as typed. Returns counts."""
    counts = {"pinged_loud": 0, "escaped": 0, "plain": 0}
    raw_mention = f"<@{victim.id}>"
    for m in world.messages.values():
        if m.author_id != world.application_id:
            continue
        pinged = {int(u["id"]) for u in m.data["mentions"]}
        assert victim.id not in pinged, m.text
        assert pinged <= players, (pinged, m.text)
        assert m.data["mention_everyone"] is False, m.text
        assert m.data["mention_roles"] == [], m.text
        counts["pinged_loud"] += loud.id in pinged
        for text in rendered(m):
            assert "**LOUD**" not in text, text
            assert raw_mention not in text, text
            assert "@everyone" not in text, text
            counts["escaped"] += md_name(nick) in text
        for text in plain_texts(m):
            if "LOUD" in text:
                assert nick in text and "\\" not in text and ZERO_WIDTH_SPACE not in text, text
                counts["plain"] += 1
    return counts


async def expire(world, sb, seconds: float) -> None:
    sb.bot.clock.advance(seconds)
    await sb.bot.service.timers.fire_due()
    await world.settle()


async def timed_game(world, sb, game: str, loud, others: list[str]):
    """``loud`` hosts ``game`` with a 2-minute turn timer, ``others`` join, Start; the
    clock runs (half-time reminders, timeouts) until loud's turn has run out once, then
    loud leaves with /game leave. Returns the thread."""
    await loud.slash("play", game=game, turn_timer="2m")
    lobby = loud.last_reply
    for name in others:
        await world.member(name).click(lobby, "Join")
    await loud.click(lobby, "Start")
    thread = lobby.thread
    if game == "llamas-unleashed":  # loud picks a Baby while the others still choose
        table = [m for m in thread.all_messages if rows(m)][-1]
        await loud.click(table, "Choose your Baby")
        await loud.click(loud.last_reply, "Pick one for me")
    ran_out = f"Time ran out for {md_name(loud.name)}: the AI played their turn."
    for _ in range(60):
        if any(ran_out in m.text for m in thread.all_messages):  # a line of the next table
            break
        await expire(world, sb, 61)
    else:
        pytest.fail("loud's turn never ran out")
    await loud.slash("game leave", in_channel=thread)
    assert headline(loud.last_reply) == "You left the game; the AI plays your seat."
    return thread


def test_the_helpers():
    nick = "<@123456789012345678> **LOUD** @everyone"
    assert md_name(nick) == ("<@\u200b123456789012345678> \\*\\*LOUD\\*\\* @\u200beveryone")
    assert md_name("<@&42> @here # x") == "<@\u200b&42> @\u200bhere # x"
    assert md_name("1. list") == "1\\. list"
    assert md_name("<#99> <t:1:R>") == "<\u200b#99> <\u200bt:1:R>"
    assert md_name(" x" * 40, 10) == "x x x x x\N{HORIZONTAL ELLIPSIS}"
    assert plain_name(f" {nick} ") == nick
    assert plain_name("a" * 120, 100) == "a" * 99 + "\N{HORIZONTAL ELLIPSIS}"
    assert pinging([5, 7, 5]).to_dict() == {"parse": [], "users": [5, 7]}


async def test_unleashed_with_a_loud_nickname(world, sb, monkeypatch):
    victim, loud, nick = setup_members(world)
    thread = await timed_game(world, sb, "llamas-unleashed", loud, ["Ana", "Bo"])
    texts = [line for m in thread.all_messages if not m.ephemeral for line in m.text.split("\n")]
    # The Baby line, the timer note (lines of the tables) and the leave notice name loud
    # escaped.
    assert any(t.startswith(f"\N{BULLET} {md_name(nick)} chooses ") for t in texts), texts
    assert f"\N{BULLET} Time ran out for {md_name(nick)}: the AI played their turn." in texts
    assert f"{md_name(nick)} left the game; the AI plays their seat now." in texts
    reminders = [m for m in thread.all_messages if "half your time is gone" in headline(m)]
    assert reminders and all(len(m.data["mentions"]) == 1 for m in reminders)
    # A whole game through the UI: options name loud's Field and cards in it.
    monkeypatch.setattr(demo, "NAMES", [nick, "Ana", "Bo"])
    game_id = await demo.play_game(world, sb.bot, game="llamas-unleashed", players=3, seed=4,
                                   game_seed=4)
    # /game log: escaped in the message, as typed in the attached text file.
    ana = world.member("Ana")
    record = await sb.bot.store.get_game(game_id)
    await ana.slash("game log", in_channel=record.thread_id)
    log = ana.last_reply
    assert log.filenames == [f"game-{game_id}-log.txt"]
    attached = log.file(f"game-{game_id}-log.txt").decode()
    assert f"{nick} chooses " in attached and "\\" not in attached
    assert md_name(nick) in headline(log)
    players = {loud.id, ana.id, world.member("Bo").id}
    counts = check_world(world, victim, loud, nick, players)
    assert counts["pinged_loud"] >= 3 and counts["escaped"] >= 10 and counts["plain"] >= 5, counts


async def test_pacapaca_with_a_loud_nickname(world, sb):
    victim, loud, nick = setup_members(world)
    ana = world.member("Ana")
    # Ana hosts, loud is s1: Ana negotiates with loud (the partner select, the deal panel).
    await ana.slash("play", game="pacapaca")
    lobby = ana.last_reply
    await loud.click(lobby, "Join")
    await ana.click(lobby, "Start")
    thread = lobby.thread
    svc = sb.bot.service
    for _ in range(40):
        _, _, spec, st = await svc.load(1)
        seat = spec.engine.pending(st).seats[0]
        legal = spec.engine.legal_actions(st, seat)
        if seat == "s0" and any(isinstance(a, StartNegotiation) for a in legal):
            break
        await svc.act(1, seat, next(a for a in legal if isinstance(a, Draw2 | Keep)),
                      expected_version=st.version)
        await world.settle()
    await ana.click(thread.last_message, "Negotiate")
    partner = ana.last_reply
    assert partner.selects()[0]["options"][0]["label"] == nick
    await ana.select(partner, [nick])  # the option's label (values are action indexes)
    panel = thread.last_message
    assert title(panel) == f"Negotiation: Ana \N{LEFT RIGHT ARROW} {md_name(nick)}"
    assert {int(u["id"]) for u in panel.data["mentions"]} == {ana.id}
    await ana.click(panel, "Edit deal")
    placeholders = [c.get("placeholder") for c in ana.last_reply.selects()]
    assert f"Cards I get from {nick}" in placeholders
    await ana.click(panel, "Give up")
    await world.settle()
    timed = await timed_game(world, sb, "pacapaca", loud, ["Bo"])
    assert f"{md_name(nick)} left the game; the AI plays their seat now." in [
        headline(m) for m in timed.all_messages]
    players = {loud.id, ana.id, world.member("Bo").id}
    counts = check_world(world, victim, loud, nick, players)
    assert counts["pinged_loud"] >= 2 and counts["escaped"] >= 5 and counts["plain"] >= 1, counts


async def test_llamas_alpacas_with_a_loud_nickname(world, sb, monkeypatch):
    victim, loud, nick = setup_members(world)
    thread = await timed_game(world, sb, "llamas-alpacas", loud, ["Ana", "Bo"])
    assert f"{md_name(nick)} left the game; the AI plays their seat now." in [
        headline(m) for m in thread.all_messages]
    monkeypatch.setattr(demo, "NAMES", [nick, "Ana", "Bo"])
    await demo.play_game(world, sb.bot, game="llamas-alpacas", players=3, seed=4, game_seed=4)
    players = {loud.id, world.member("Ana").id, world.member("Bo").id}
    counts = check_world(world, victim, loud, nick, players)
    assert counts["pinged_loud"] >= 3 and counts["escaped"] >= 5, counts


async def test_the_sandbox_pings_what_allowed_mentions_allows(world, sb):
    """The sandbox's message ``mentions``/``mention_everyone``/``mention_roles`` follow
    the request's allowed_mentions as Discord documents (absent: everything parses)."""
    ana, bo, victim = world.member("Ana"), world.member("Bo"), world.member("Hal")
    role = world.roles[world.bot_role_id]
    channel = sb.bot.get_partial_messageable(world.channel().id)
    text = f"<@{ana.id}> <@!{bo.id}> <@&{world.guild_id}> @everyone"

    def pinged(msg: discord.Message) -> tuple[list[int], bool, list[str]]:
        data = world.messages[msg.id].data
        return ([int(u["id"]) for u in data["mentions"]], data["mention_everyone"],
                data["mention_roles"])

    assert pinged(await channel.send(text)) == ([], False, [])  # the bot's default: nobody
    assert pinged(await channel.send(text, allowed_mentions=pinging([bo.id]))) == (
        [bo.id], False, [])
    everything = discord.AllowedMentions.all()
    assert pinged(await channel.send(text, allowed_mentions=everything)) == (
        [ana.id, bo.id], False, [])  # no Mention Everyone permission: no @everyone
    role["permissions"] = str(int(role["permissions"]) | MENTION_EVERYONE)
    assert pinged(await channel.send(text, allowed_mentions=everything)) == (
        [ana.id, bo.id], True, [str(world.guild_id)])
    # No allowed_mentions at all (a raw request): Discord parses everything.
    route = discord.http.Route("POST", "/channels/{channel_id}/messages",
                               channel_id=world.channel().id)
    raw = await sb.bot.http.request(route, json={"content": text})
    assert [int(u["id"]) for u in raw["mentions"]] == [ana.id, bo.id]
    # A reply pings the replied-to author only with replied_user.
    said = await victim.send("hello")
    target = discord.MessageReference(message_id=said.id, channel_id=said.channel_id,
                                      guild_id=world.guild_id)
    quiet = await channel.send("ok", reference=target)
    assert pinged(quiet)[0] == []
    answered = await channel.send("ok", reference=target,
                                  allowed_mentions=discord.AllowedMentions(replied_user=True))
    assert pinged(answered)[0] == [victim.id]
    raw = await sb.bot.http.request(route, json={"content": "ok", "message_reference": {
        "message_id": str(said.id)}})
    assert [int(u["id"]) for u in raw["mentions"]] == [victim.id]
    # An edit recomputes the mentions from the new content and its allowed_mentions.
    msg = await channel.send("nothing yet")
    edited = await msg.edit(content=f"<@{ana.id}>", allowed_mentions=pinging([ana.id]))
    assert pinged(edited)[0] == [ana.id]
    edited = await msg.edit(content=f"<@{ana.id}>")
    assert pinged(edited)[0] == []
    assert json.dumps(world.messages[msg.id].data["mentions"]) == "[]"
