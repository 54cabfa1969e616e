"""Components V2 messages through the real discord.py client against the sandbox: a
``ui.LayoutView`` table (a container with the picture in a media gallery with alternative
text, a text display and a row of buttons) sent with its file is accepted, stored as
Discord stores it and read back by discord.py (``interaction.message.components``); what
Discord refuses in a V2 message is refused with its errors and stores nothing."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord import app_commands, ui
from discord.ext import commands
from PIL import Image

from bot.sandbox import World
from bot.sandbox.model import walk_components
from tests.support import text_channel

V2 = 1 << 15
ALT = "Turn 1: Ana to play. Ana 3 Animals, Bob 2. Row: 4 cards."
LEGACY_CODE = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"


def png(width: int, height: int, colour: str = "green") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buf, "PNG")
    return buf.getvalue()


def table_file(width: int = 500, height: int = 300, name: str = "table.png") -> discord.File:
    return discord.File(io.BytesIO(png(width, height)), filename=name)


def describe(components: list[Any]) -> list[Any]:
    """What discord.py parsed, as plain values: per component its type name and what it
    says (gallery alt texts and media, text, button labels), nested lists for children."""
    out: list[Any] = []
    for c in components:
        if isinstance(c, discord.components.Container):
            out.append(("Container", c.accent_colour.value if c.accent_colour else None,
                        describe(c.children)))
        elif isinstance(c, discord.components.MediaGalleryComponent):
            out.append(("MediaGallery", [(i.description, i.media.url.rsplit("/", 1)[-1],
                                          i.media.width, i.media.height,
                                          i.media.attachment_id is not None)
                                         for i in c.items]))
        elif isinstance(c, discord.components.TextDisplay):
            out.append(("TextDisplay", c.content))
        elif isinstance(c, discord.components.SeparatorComponent):
            out.append(("Separator", c.spacing.value))
        elif isinstance(c, discord.components.ActionRow):
            out.append(("ActionRow", [b.label for b in c.children]))  # type: ignore[union-attr]
        elif isinstance(c, discord.components.SectionComponent):
            out.append(("Section", describe(c.children), describe([c.accessory])))
        elif isinstance(c, discord.components.ThumbnailComponent):
            out.append(("Thumbnail", c.description, c.media.url.rsplit("/", 1)[-1]))
        else:
            out.append((type(c).__name__,))
    return out


class TableView(ui.LayoutView):
    """The table as one V2 message: picture with alt text, the turn's line, two buttons."""

    def __init__(self, turn: int = 1, ping: int | None = None) -> None:
        super().__init__(timeout=None)
        self.turn = turn
        take: ui.Button[TableView] = ui.Button(label="Take", custom_id="t:take")
        take.callback = self.take  # type: ignore[method-assign]
        line = f"**Turn {turn}** - Ana to play" + (f" <@{ping}>" if ping else "")
        self.add_item(ui.Container(
            ui.MediaGallery(discord.MediaGalleryItem(
                "attachment://table.png", description=ALT.replace("Turn 1", f"Turn {turn}"))),
            ui.TextDisplay(line),
            ui.Separator(),
            ui.ActionRow(take, ui.Button(label="Pass", custom_id="t:pass")),
            accent_colour=0x2E8B57))

    async def take(self, interaction: discord.Interaction) -> None:
        bot: V2Bot = interaction.client  # type: ignore[assignment]
        assert interaction.message is not None
        bot.store["seen"] = describe(interaction.message.components)
        mode = bot.store.get("mode")
        try:
            if mode == "content":
                await interaction.response.edit_message(content="Taken")
            else:
                await interaction.response.edit_message(
                    view=TableView(self.turn + 1),
                    attachments=[discord.File(io.BytesIO(png(500, 320)), filename="table.png")])
        except discord.HTTPException as e:
            bot.refused.append((e.status, e.code, e._errors))
            await interaction.response.send_message("refused", ephemeral=True)


class PanelView(ui.LayoutView):
    """A private panel: a section with the player's close-up as thumbnail."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(ui.Container(ui.Section(
            ui.TextDisplay("Your hand: 3 cards"),
            accessory=ui.Thumbnail("attachment://me.png", description="Your alpaca, 3 charms"))))


class Probe(commands.Cog):
    def __init__(self, bot: V2Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Post the table as a V2 reply")
    async def table(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=TableView(), file=table_file())

    @app_commands.command(description="Show my private panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            view=PanelView(), file=table_file(200, 200, "me.png"), ephemeral=True)

    @app_commands.command(description="Defer, then follow up with the table")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(view=TableView(), file=table_file())


    @app_commands.command(description="Post the table, then edit the answer")
    async def redo(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=TableView(), file=table_file())
        try:
            await interaction.edit_original_response(content="Taken")
        except discord.HTTPException as e:
            self.bot.refused.append((e.status, e.code, e._errors))
        await interaction.edit_original_response(
            view=TableView(2), attachments=[table_file(400, 240)])


class V2Bot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned,
                         intents=discord.Intents.default())
        self.store: dict[str, Any] = {}
        self.refused: list[tuple[int, int, Any]] = []

    async def setup_hook(self) -> None:
        await self.add_cog(Probe(self))
        await self.tree.sync()


@pytest.fixture
async def sb(world: World, alice):
    sandbox = await world.connect(V2Bot())
    yield sandbox
    await world.disconnect()



def _legacy(field: str) -> dict[str, Any]:
    return {field: {"_errors": [{
        "code": LEGACY_CODE,
        "message": f"The '{field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"}]}}


TABLE_READ_BACK = [("Container", 0x2E8B57, [
    ("MediaGallery", [(ALT, "table.png", 500, 300, True)]),
    ("TextDisplay", "**Turn 1** - Ana to play"),
    ("Separator", 1),
    ("ActionRow", ["Take", "Pass"])])]


async def test_a_layout_view_table_with_its_picture_is_accepted_and_read_back(world, sb, alice):
    msg = await text_channel(sb, world).send(view=TableView(ping=alice.id), file=table_file())
    assert msg.flags.components_v2 and msg.attachments == []
    read = describe(msg.components)
    assert read[0][2][1] == ("TextDisplay", f"**Turn 1** - Ana to play <@{alice.id}>")
    stored = world.message(msg.id)
    assert stored.flags == V2 and stored.content == "" and stored.embeds == []
    assert stored.filenames == stored.shown_filenames == ["table.png"]
    assert stored.data["attachments"] == []  # Discord leaves shown files out of the list
    media = stored.components[0]["components"][0]["items"][0]["media"]
    att = stored.attachments[0]
    assert media == {"url": f"https://cdn.discordapp.com/attachments/{world.main.id}/{att.id}/table.png",
                     "proxy_url": f"https://media.discordapp.net/attachments/{world.main.id}/{att.id}/table.png",
                     "attachment_id": str(att.id), "flags": 0, "content_type": "image/png",
                     "width": 500, "height": 300}
    # every component got an id, 1, 2, ... in display order
    assert [c["id"] for c in walk_components(stored.components)] == list(range(1, 8))
    # the request itself was not rewritten
    assert world.requests[-1].json["components"][0]["components"][0]["items"][0]["media"] == {
        "url": "attachment://table.png"}
    # the ping in the text display pings
    assert [u["id"] for u in stored.data["mentions"]] == [str(alice.id)]

    it = await alice.click(stored, "Take")
    assert sb.bot.refused == []
    assert sb.bot.store["seen"] == [("Container", 0x2E8B57, [
        ("MediaGallery", [(ALT, "table.png", 500, 300, True)]),
        ("TextDisplay", f"**Turn 1** - Ana to play <@{alice.id}>"),
        ("Separator", 1),
        ("ActionRow", ["Take", "Pass"])])]
    assert [r.status for r in it.requests] == [200]
    assert stored.edits == 1 and stored.filenames == stored.shown_filenames == ["table.png"]
    assert Image.open(io.BytesIO(stored.file("table.png"))).size == (500, 320)
    assert "**Turn 2** - Ana to play" in stored.text
    assert stored.data["mentions"] == []
    fetched = await text_channel(sb, world).fetch_message(msg.id)
    assert describe(fetched.components) == [("Container", 0x2E8B57, [
        ("MediaGallery", [(ALT.replace("Turn 1", "Turn 2"), "table.png", 500, 320, True)]),
        ("TextDisplay", "**Turn 2** - Ana to play"), ("Separator", 1),
        ("ActionRow", ["Take", "Pass"])])]


async def test_the_table_as_an_interaction_reply_and_as_a_followup(world, sb, alice):
    it = await alice.slash("table")
    assert it.response_type == 4 and it.original is not None
    assert it.original.flags == V2 and it.original.shown_filenames == ["table.png"]
    assert describe((await text_channel(sb, world).fetch_message(it.original.id)).components) == \
        TABLE_READ_BACK
    it = await alice.slash("slow")
    assert it.response_type == 5 and it.original is not None
    assert it.original.flags == V2 and not it.original.loading  # the placeholder became V2
    assert it.original.shown_filenames == ["table.png"]


async def test_an_ephemeral_v2_panel(world, sb, alice):
    it = await alice.slash("panel")
    panel = it.original
    assert panel is not None and panel.ephemeral_for == alice.id
    assert panel.flags == V2 | 64 and panel.shown_filenames == ["me.png"]
    thumb = panel.components[0]["components"][0]["accessory"]
    assert thumb["description"] == "Your alpaca, 3 charms"
    assert (thumb["media"]["width"], thumb["media"]["height"]) == (200, 200)


async def test_content_or_an_embed_in_a_v2_message_is_refused(world, sb, alice):
    ch = text_channel(sb, world)
    with pytest.raises(discord.HTTPException) as caught:
        await ch.send("Ana's turn", view=TableView(), file=table_file())
    e = caught.value
    assert (e.status, e.code, e._errors) == (400, 50035, _legacy("content"))
    assert e.text == ("Invalid Form Body\nIn content: The 'content' field cannot be used "
                      "when using MessageFlags.IS_COMPONENTS_V2")
    assert world.main.all_messages == []
    msg = await ch.send(view=TableView(), file=table_file())
    with pytest.raises(discord.HTTPException) as caught:
        await msg.edit(embed=discord.Embed(title="Table"))
    assert caught.value._errors == _legacy("embeds")
    with pytest.raises(discord.HTTPException) as caught:
        await msg.edit(content="Taken")
    assert caught.value._errors == _legacy("content")
    assert world.message(msg.id).edits == 0
    # through the click's own answer (callback type 7) too, under "data"
    sb.bot.store["mode"] = "content"
    await alice.click(world.message(msg.id), "Take")
    assert sb.bot.refused == [(400, 50035, {"data": _legacy("content")})]
    assert world.message(msg.id).edits == 0


async def test_a_picture_that_was_not_uploaded_is_refused(world, sb):
    with pytest.raises(discord.HTTPException) as caught:
        await text_channel(sb, world).send(view=TableView())
    assert caught.value._errors == {"components": {"0": {"components": {"0": {"items": {"0": {
        "media": {"url": {"_errors": [{
            "code": "UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND",
            "message": "No attachment named table.png in this message."}]}}}}}}}}}
    assert world.main.all_messages == []


async def test_an_uploaded_file_no_component_shows_is_kept_but_not_shown(world, sb):
    view = ui.LayoutView()
    view.add_item(ui.TextDisplay("Scores"))
    msg = await text_channel(sb, world).send(view=view, file=table_file(name="extra.png"))
    assert [a.filename for a in msg.attachments] == ["extra.png"]
    stored = world.message(msg.id)
    assert stored.filenames == ["extra.png"] and stored.shown_filenames == []


async def test_a_legacy_message_becomes_v2_only_when_its_content_is_cleared(world, sb):
    msg = await text_channel(sb, world).send("Table")
    with pytest.raises(discord.HTTPException) as caught:
        await msg.edit(view=TableView(), attachments=[table_file()])
    assert caught.value._errors == _legacy("content")
    assert world.message(msg.id).flags == 0 and world.message(msg.id).content == "Table"
    msg = await msg.edit(content=None, view=TableView(), attachments=[table_file()])
    stored = world.message(msg.id)
    assert stored.flags == V2 and stored.content == ""
    assert describe(msg.components) == TABLE_READ_BACK


async def test_an_edit_of_the_original_response_keeps_the_v2_rules(world, sb, alice):
    it = await alice.slash("redo")
    assert sb.bot.refused == [(400, 50035, _legacy("content"))]
    assert [(r.method, r.status) for r in it.requests] == [
        ("POST", 200), ("PATCH", 400), ("PATCH", 200)]
    table = it.original
    assert table is not None and table.edits == 1 and "**Turn 2**" in table.text
    assert table.shown_filenames == ["table.png"]
    assert Image.open(io.BytesIO(table.file("table.png"))).size == (400, 240)
