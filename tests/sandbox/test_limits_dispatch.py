"""The sandbox refuses what Discord refuses (bot/sandbox/limits.py), through discord.py: a
real discord.py bot (``ProbeBot``) against the sandbox, where every outbound route that
carries a message, a modal or a channel name answers 400 with code 50035 and Discord's
``errors`` object, and stores nothing. Each rule alone is in tests/sandbox/test_limits.py.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.sandbox import World
from tests.support import text_channel

# ---------------------------------------------------------------------------- payloads


def _dup_select_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Select(custom_id="pick", options=[
        discord.SelectOption(label="Llama", value="llama")], row=0))
    view.add_item(discord.ui.Select(custom_id="pick", options=[
        discord.SelectOption(label="Alpaca", value="alpaca")], row=1))
    return view


def _long_label_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="L" * 81, custom_id="long"))
    return view


#: Invalid keyword arguments for discord.py's send/edit calls, by name.
PAYLOADS: dict[str, Callable[[], dict[str, Any]]] = {
    "dup": lambda: {"content": "Pick", "view": _dup_select_view()},
    "long": lambda: {"content": "x" * 2001},
    "label": lambda: {"content": "Go", "view": _long_label_view()},
    "embed": lambda: {"embed": discord.Embed(title="T" * 257)},
    "image": lambda: {"embed": discord.Embed(title="Table").set_image(
        url="attachment://table.png")},
}

#: The ``errors`` object Discord answers for each payload (paths without the callback's
#: ``data`` prefix).
ERRORS: dict[str, dict[str, Any]] = {
    "dup": {"components": {"1": {"components": {"0": {"custom_id": {"_errors": [{
        "code": "COMPONENT_CUSTOM_ID_DUPLICATED",
        "message": "Component custom id was already specified"}]}}}}}},
    "long": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                      "message": "Must be 2000 or fewer in length."}]}},
    "label": {"components": {"0": {"components": {"0": {"label": {"_errors": [{
        "code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 80 or fewer in length."}]}}}}}},
    "embed": {"embeds": {"0": {"title": {"_errors": [{
        "code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 256 or fewer in length."}]}}}},
    "image": {"embeds": {"0": {"image": {"url": {"_errors": [{
        "code": "EMBED_ATTACHMENT_NOT_FOUND",
        "message": "No attachment named table.png in this message."}]}}}}},
}


class LongTitle(discord.ui.Modal, title="T" * 46):
    answer: discord.ui.TextInput[LongTitle] = discord.ui.TextInput(label="Answer", custom_id="probe:answer")


class WideInput(discord.ui.Modal, title="Name"):
    answer: discord.ui.TextInput[WideInput] = discord.ui.TextInput(label="A label much longer than forty-five characters",
                                  custom_id="probe:wide")


MODALS: dict[str, Callable[[], discord.ui.Modal]] = {"title": LongTitle, "label": WideInput}


# ---------------------------------------------------------------------------- the probe bot


def _refusal(e: discord.HTTPException) -> tuple[int, int, Any, str]:
    return e.status, e.code, e._errors, e.text


class EditView(discord.ui.View):
    """A persistent panel whose "Edit" button updates its message with ``store["kind"]``."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Edit", custom_id="probe:edit")
    async def edit(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        bot: ProbeBot = interaction.client  # type: ignore[assignment]
        try:
            await interaction.response.edit_message(**PAYLOADS[bot.store["kind"]]())
        except discord.HTTPException as e:
            bot.refused.append(_refusal(e))
            await interaction.response.send_message("refused", ephemeral=True)


class Probe(commands.Cog):
    def __init__(self, bot: ProbeBot) -> None:
        self.bot = bot

    @app_commands.command(description="Answer with a payload")
    async def say(self, interaction: discord.Interaction, kind: str) -> None:
        try:
            await interaction.response.send_message(**PAYLOADS[kind]())
        except discord.HTTPException as e:
            self.bot.refused.append(_refusal(e))
            await interaction.response.send_message("refused", ephemeral=True)

    @app_commands.command(description="Post the panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Panel", view=EditView())

    @app_commands.command(description="Open a modal")
    async def form(self, interaction: discord.Interaction, kind: str) -> None:
        try:
            await interaction.response.send_modal(MODALS[kind]())
        except discord.HTTPException as e:
            self.bot.refused.append(_refusal(e))
            await interaction.response.send_message("refused", ephemeral=True)

    @app_commands.command(description="Defer, then follow up")
    async def slow(self, interaction: discord.Interaction, kind: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.followup.send(**PAYLOADS[kind]())
        except discord.HTTPException as e:
            self.bot.refused.append(_refusal(e))
            await interaction.followup.send("refused")

    @app_commands.command(description="Answer, then edit the answer")
    async def redo(self, interaction: discord.Interaction, kind: str) -> None:
        await interaction.response.send_message("First")
        try:
            await interaction.edit_original_response(**PAYLOADS[kind]())
        except discord.HTTPException as e:
            self.bot.refused.append(_refusal(e))

    @app_commands.command(description="Answer a command with an update of a message")
    async def update(self, interaction: discord.Interaction) -> None:
        # (discord.py sends no UPDATE_MESSAGE for a command: sent as its adapter would)
        params = interaction_message_response_params(type=7, content="Updated")
        try:
            await async_context.get().create_interaction_response(
                interaction.id, interaction.token, session=interaction._session,
                params=params)
        except discord.HTTPException as e:
            self.bot.refused.append(_refusal(e))
        await interaction.response.send_message("refused", ephemeral=True)

    @app_commands.command(description="Answer twice")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("First")
        interaction.response._response_type = None  # let discord.py send a second callback
        try:
            await interaction.response.send_message("Second")
        except discord.HTTPException as e:
            self.bot.refused.append(_refusal(e))


class ProbeBot(commands.Bot):
    """Sends what the tests ask for and keeps every HTTPException it gets in ``refused``."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned,
                         intents=discord.Intents.default())
        self.store: dict[str, Any] = {}
        self.refused: list[tuple[int, int, Any, str]] = []

    async def setup_hook(self) -> None:
        self.add_view(EditView())
        await self.add_cog(Probe(self))
        await self.tree.sync()


@pytest.fixture
async def sb(world: World, alice):
    sandbox = await world.connect(ProbeBot())
    yield sandbox
    await world.disconnect()



# ---------------------------------------------------------------------------- through discord.py


async def test_two_selects_sharing_a_custom_id_are_refused_400_50035(world, sb):
    with pytest.raises(discord.HTTPException) as caught:
        await text_channel(sb, world).send(**PAYLOADS["dup"]())
    e = caught.value
    assert (e.status, e.code) == (400, 50035)
    assert e._errors == ERRORS["dup"]
    assert e.text == ("Invalid Form Body\nIn components.1.components.0.custom_id: "
                      "Component custom id was already specified")
    rec = world.requests[-1]
    assert (rec.method, rec.status) == ("POST", 400)
    assert rec.response == {"message": "Invalid Form Body", "code": 50035,
                            "errors": ERRORS["dup"]}


async def test_a_refused_message_stores_nothing(world, sb):
    ch = text_channel(sb, world)
    await ch.send("Before")
    messages, ids = dict(world.messages), list(world.main.messages)
    echoes = len(sb.bot.cached_messages)
    for kind in ("dup", "long", "label", "embed", "image"):
        with pytest.raises(discord.HTTPException):
            await ch.send(**PAYLOADS[kind]())
    assert world.messages == messages and world.main.messages == ids
    assert len(sb.bot.cached_messages) == echoes  # no MESSAGE_CREATE reached the bot
    assert [m.content for m in world.main.all_messages] == ["Before"]


@pytest.mark.parametrize("kind", ["dup", "long", "label", "embed"])
async def test_interaction_reply_type_4_is_refused_with_data_path(world, sb, alice, kind):
    it = await alice.slash("say", kind=kind)
    assert sb.bot.refused[0][:3] == (400, 50035, {"data": ERRORS[kind]})
    assert len(sb.bot.refused) == 1
    # nothing was stored for the refused callback; the fallback answer is the response
    assert [r.status for r in it.requests] == [400, 200]
    assert it.response_type == 4 and alice.last_reply.content == "refused"
    assert world.main.all_messages == [alice.last_reply]


async def test_update_message_type_7_is_refused_and_the_message_is_unchanged(world, sb, alice):
    await alice.slash("panel")
    panel = alice.last_reply
    before = dict(panel.data)
    sb.bot.store["kind"] = "embed"
    it = await alice.click(panel, "Edit")
    assert sb.bot.refused == [(400, 50035, {"data": ERRORS["embed"]},
                               "Invalid Form Body\nIn data.embeds.0.title: "
                               "Must be 256 or fewer in length.")]
    assert panel.data == before and panel.edits == 0
    assert it.response_type == 4 and alice.last_reply.content == "refused"


@pytest.mark.parametrize(("kind", "errors"), [
    ("title", {"data": {"title": {"_errors": [{
        "code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 45 in length."}]}}}),
    ("label", {"data": {"components": {"0": {"components": {"0": {"label": {"_errors": [{
        "code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 45 in length."}]}}}}}}}),
])
async def test_modal_type_9_is_refused_and_no_modal_opens(world, sb, alice, kind, errors):
    it = await alice.slash("form", kind=kind)
    assert sb.bot.refused[0][:3] == (400, 50035, errors)
    assert alice.modal is None and it.modal is None
    assert alice.last_reply.content == "refused"


async def test_followup_is_refused_and_the_deferred_answer_stays_loading(world, sb, alice):
    it = await alice.slash("slow", kind="long")
    assert sb.bot.refused[0][:3] == (400, 50035, ERRORS["long"])
    assert [r.status for r in it.requests] == [200, 400, 200]
    assert it.original is not None and it.original.content == "refused"


@pytest.mark.parametrize("kind", ["dup", "label"])
async def test_edit_of_the_original_response_is_refused(world, sb, alice, kind):
    it = await alice.slash("redo", kind=kind)
    assert sb.bot.refused[0][:3] == (400, 50035, ERRORS[kind])
    assert it.original is not None
    assert it.original.content == "First" and it.original.edits == 0


async def test_channel_message_edit_is_refused_and_unchanged(world, sb):
    msg = await text_channel(sb, world).send("Hello")
    with pytest.raises(discord.HTTPException) as caught:
        await msg.edit(content="y" * 2001)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert caught.value._errors == ERRORS["long"]
    stored = world.message(msg.id)
    assert stored.content == "Hello" and stored.edits == 0


async def test_embed_image_needs_its_file_and_an_edit_may_keep_it(world, sb):
    ch = text_channel(sb, world)
    with pytest.raises(discord.HTTPException) as caught:
        await ch.send(**PAYLOADS["image"]())
    assert caught.value._errors == ERRORS["image"]
    msg = await ch.send(embed=discord.Embed(title="Table").set_image(url="attachment://table.png"),
                        file=discord.File(io.BytesIO(b"png"), filename="table.png"))
    assert world.message(msg.id).filenames == ["table.png"]
    # the kept attachment still answers the reference; a new file may come with the edit
    await msg.edit(embed=discord.Embed(title="Turn 2").set_image(url="attachment://table.png"))
    await msg.edit(embed=discord.Embed(title="Turn 3").set_image(url="attachment://t3.png"),
                   attachments=[discord.File(io.BytesIO(b"png3"), filename="t3.png")])
    assert world.message(msg.id).filenames == ["t3.png"]
    with pytest.raises(discord.HTTPException) as caught:  # table.png is no longer kept
        await msg.edit(embed=discord.Embed(title="Turn 4").set_image(url="attachment://table.png"),
                       attachments=[])
    assert caught.value._errors == ERRORS["image"]
    assert world.message(msg.id).embeds[0]["title"] == "Turn 3"


async def test_empty_message_is_refused_with_50006(world, sb, alice):
    with pytest.raises(discord.HTTPException) as caught:
        await text_channel(sb, world).send(content="")
    e = caught.value
    assert (e.status, e.code, e.text) == (400, 50006, "Cannot send an empty message")
    assert world.main.all_messages == []


async def test_thread_names_are_1_to_100_characters(world, sb):
    ch = text_channel(sb, world)
    msg = await ch.send("Table")
    bad = {"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
                                 "message": "Must be between 1 and 100 in length."}]}}
    with pytest.raises(discord.HTTPException) as caught:
        await msg.create_thread(name="n" * 101)
    assert (caught.value.status, caught.value.code, caught.value._errors) == (400, 50035, bad)
    with pytest.raises(discord.HTTPException) as caught:
        await ch.create_thread(name="", type=discord.ChannelType.public_thread)
    assert caught.value._errors == bad
    assert world.threads == []
    thread = await msg.create_thread(name="n" * 100)
    with pytest.raises(discord.HTTPException) as caught:
        await thread.edit(name="m" * 101)
    assert caught.value._errors == bad
    with pytest.raises(discord.HTTPException) as caught:
        await ch.edit(name="c" * 101)
    assert caught.value._errors == bad
    assert world.channel(thread.id).name == "n" * 100 and world.main.name == "general"


async def test_an_update_of_a_message_answering_a_command_is_refused(world, sb, alice):
    """UPDATE_MESSAGE (callback type 7) answers a click on a message, never a command."""
    it = await alice.slash("update")
    assert [r[:2] for r in sb.bot.refused] == [(400, 50035)]
    assert [(r.json["type"], r.status) for r in it.requests] == [(7, 400), (4, 200)]
    assert it.response_type == 4 and [m.content for m in world.main.all_messages] == ["refused"]


async def test_one_initial_callback_per_interaction_40060(world, sb, alice):
    it = await alice.slash("twice")
    assert sb.bot.refused == [(400, 40060, None, "Interaction has already been acknowledged.")]
    assert [r.status for r in it.requests] == [200, 400]
    assert [m.content for m in world.main.all_messages] == ["First"]

