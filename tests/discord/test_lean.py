"""Writes whose answers are read for ids only (bot/discord/lean.py): a click is a
:class:`Click` whose message is parsed only when read, as discord.py parses it; its
writes and :func:`lean.edit` / :func:`lean.send` send exactly what discord.py's own calls
send."""

from __future__ import annotations

import copy
from typing import Any

import discord
import pytest

from bot.discord import lean
from bot.discord.router import _component_ids
from tests.discord.test_admission import start_tiny


def gateway_clicks(sb: Any) -> list[dict[str, Any]]:
    """The INTERACTION_CREATE payloads the bot gets from now on (deep copies)."""
    state = sb.bot._connection
    seen: list[dict[str, Any]] = []
    parse = state.parse_interaction_create

    def keep(data: Any) -> None:
        seen.append(copy.deepcopy(data))
        parse(data)
    state.parse_interaction_create = keep
    return seen


def bodies(world: Any, since: int) -> list[tuple[str, str, Any]]:
    """The requests made since request ``since``: method, path and JSON body (a message
    send's random nonce left out)."""
    out = []
    for q in world.requests[since:]:
        body = q.json
        if isinstance(body, dict):
            body = {k: v for k, v in body.items() if k != "nonce"}
        out.append((q.method, q.path, body))
    return out


async def test_a_click_is_a_click_whose_message_is_parsed_when_first_read(world, sb):
    thread = await start_tiny(world)
    seen = gateway_clicks(sb)
    routed: list[discord.Interaction] = []
    route = sb.bot.route_component

    async def keep(interaction: discord.Interaction, *args: Any, **kwargs: Any) -> Any:
        routed.append(interaction)
        assert isinstance(interaction, lean.Click)
        assert (interaction._message_parsed, interaction.message_id) == (
            False, thread.last_message.id)
        return await route(interaction, *args, **kwargs)
    sb.bot.route_component = keep
    await world.member("Ana").click(thread.last_message, "Add 1")
    assert len(routed) == len(seen) == 1
    cog = sb.bot.game_cog("tiny")
    assert cog is not None
    posted = cog._posted[1]  # the click's new table, posted as its followup
    assert isinstance(posted, lean.Posted)
    assert (posted.id, posted.channel_id) == (thread.last_message.id, thread.id)
    state = sb.bot._connection
    plain = discord.Interaction(data=copy.deepcopy(seen[0]), state=state)
    click = lean.Click(data=copy.deepcopy(seen[0]), state=state)
    assert plain.message is not None
    assert not click._message_parsed
    assert (lean.message_id(click), lean.has_message(click), lean.on_ephemeral(click)) == (
        plain.message.id, True, False)
    assert not click._message_parsed
    message = click.message
    assert message is not None and click._message_parsed and click.message is message
    assert (message.id, message.channel.id, message.guild, message.flags.value) == (
        plain.message.id, plain.message.channel.id, plain.message.guild,
        plain.message.flags.value)
    assert _component_ids(message) == _component_ids(plain.message) == {
        c for c in _component_ids(plain.message) if c.startswith("hb:")}
    assert (click.id, click.user.id, click.channel_id, click.guild_id) == (
        plain.id, plain.user.id, plain.channel_id, plain.guild_id)


async def test_lean_edit_and_send_send_what_discord_py_sends(world, sb):
    thread = await start_tiny(world)
    channel = sb.bot.get_partial_messageable(thread.id)
    table = thread.last_message
    mentions = discord.AllowedMentions.none()

    def edited() -> discord.ui.LayoutView:
        view = discord.ui.LayoutView()
        view.add_item(discord.ui.TextDisplay("Edited."))
        return view
    since = len(world.requests)
    await channel.get_partial_message(table.id).edit(view=edited(), allowed_mentions=mentions)
    await lean.edit(channel, table.id, view=edited(), allowed_mentions=mentions)
    edits = bodies(world, since)
    assert len(edits) == 2 and edits[0] == edits[1]
    assert edits[0][:2] == ("PATCH", f"/channels/{thread.id}/messages/{table.id}")
    assert thread.last_message.id == table.id
    refusals = []
    for edit in (channel.get_partial_message(1).edit, lambda **kw: lean.edit(channel, 1, **kw)):
        with pytest.raises(discord.NotFound) as refused:
            await edit(view=edited())
        refusals.append((refused.value.status, refused.value.code))
    assert refusals == [(404, 10008), (404, 10008)]
    since = len(world.requests)
    sent = await channel.send("Hello.", allowed_mentions=mentions)
    sent_id = await lean.send(channel, "Hello.", allowed_mentions=mentions)
    sends = bodies(world, since)
    assert len(sends) == 2 and sends[0] == sends[1]
    assert sends[0][:2] == ("POST", f"/channels/{thread.id}/messages")
    assert sent_id == thread.last_message.id != sent.id
