"""A small discord.py bot exercising every sandbox capability (tests only).

``store`` is a plain dict that stands in for a database: it survives a bot restart when the
same dict is handed to the new bot.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

CARDS = ["llama", "alpaca", "llama king", "baby alpaca"]


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sbx:join:(?P<gid>\d+)"):
    """Persistent Join button: its state lives in the custom_id and the bot's store."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label="Join", style=discord.ButtonStyle.primary,
                                           custom_id=f"sbx:join:{gid}"))
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> JoinButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: SampleBot = interaction.client  # type: ignore[assignment]
        players = bot.store.setdefault("games", {}).setdefault(self.gid, [])
        if interaction.user.id in players:
            await interaction.response.send_message("You are already in.", ephemeral=True)
            return
        players.append(interaction.user.id)
        names = ", ".join(f"<@{p}>" for p in players)
        await interaction.response.edit_message(content=f"Game {self.gid}: {names}")


class AckView(discord.ui.View):
    """A persistent view (timeout None, fixed custom_id) used in DMs and threads."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Got it", custom_id="sbx:ack", emoji="\N{THUMBS UP SIGN}")
    async def ack(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        where = "dm" if interaction.guild is None else type(interaction.channel).__name__
        await interaction.response.edit_message(
            content=f"Acknowledged by {interaction.user.name} in {where}", view=None)


class YesView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=600)
        self.answer: str | None = None

    @discord.ui.button(label="Yes")
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.answer = "yes"
        await interaction.response.defer()
        self.stop()


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=180)
        self.message: discord.InteractionMessage | None = None

    async def on_timeout(self) -> None:
        if self.message is not None:
            await self.message.edit(content="Timed out", view=None)

    @discord.ui.select(custom_id="sbx:pick", placeholder="Pick an animal", options=[
        discord.SelectOption(label="Llama", value="llama"),
        discord.SelectOption(label="Alpaca", value="alpaca"),
    ])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"You picked {select.values[0]}", ephemeral=True)

    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="sbx:who", placeholder="Who")
    async def who(self, interaction: discord.Interaction, select: discord.ui.UserSelect) -> None:
        await interaction.response.send_message(f"Chosen: {select.values[0].display_name}")

    @discord.ui.button(label="Boom", custom_id="sbx:boom")
    async def boom(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        raise RuntimeError("view callback exploded")

    @discord.ui.button(label="Off", custom_id="sbx:off", disabled=True)
    async def off(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("unreachable")


class Feedback(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[Feedback] = discord.ui.TextInput(
        label="Your thoughts", custom_id="sbx:fb:text")
    mood: discord.ui.TextInput[Feedback] = discord.ui.TextInput(label="Mood", custom_id="sbx:fb:mood", required=False,
                                default="fine")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Thanks: {self.text.value} ({self.mood.value})",
                                                ephemeral=True)


class HandCard(discord.ui.LayoutView):
    """Components v2: a container with text and a section whose accessory is a button."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        play: discord.ui.Button[HandCard] = discord.ui.Button(label="Play llama",
                                                             custom_id="sbx:v2:play")
        play.callback = self.play  # type: ignore[method-assign]
        box: discord.ui.Container[HandCard] = discord.ui.Container(discord.ui.TextDisplay("Your hand: 3 llamas"))
        box.add_item(discord.ui.Section(discord.ui.TextDisplay("Llama"), accessory=play))
        self.add_item(box)

    async def play(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(LabelModal())


class LabelModal(discord.ui.Modal, title="Play"):
    target: discord.ui.Label[LabelModal] = discord.ui.Label(
        text="Target", component=discord.ui.TextInput(custom_id="sbx:m:t"))
    animal: discord.ui.Label[LabelModal] = discord.ui.Label(text="Animal", component=discord.ui.Select(
        custom_id="sbx:m:a", options=[discord.SelectOption(label="Llama", value="llama"),
                                      discord.SelectOption(label="Alpaca", value="alpaca")]))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        target = self.target.component.value  # type: ignore[attr-defined]
        animal = self.animal.component.values  # type: ignore[attr-defined]
        await interaction.response.send_message(f"{target} gets {animal}", ephemeral=True)


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description="Game commands")
    admin = app_commands.Group(name="admin", description="Admin", parent=game)

    def __init__(self, bot: SampleBot) -> None:
        self.bot = bot

    @app_commands.command(description="Open a lobby")
    @app_commands.describe(game="Which game", seats="Seats")
    @app_commands.choices(game=[app_commands.Choice(name="Tiny", value="tiny"),
                                app_commands.Choice(name="Big", value="big")])
    async def play(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                   seats: app_commands.Range[int, 2, 5] = 2) -> None:
        gid = self.bot.store["next"] = self.bot.store.get("next", 0) + 1
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(gid))
        await interaction.response.send_message(
            f"Lobby {gid} for {game.value} with {seats} seats", view=view)

    @game.command(description="Your hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hand of {interaction.user.display_name}",
                                                ephemeral=True)

    @admin.command(description="Reset")
    async def reset(self, interaction: discord.Interaction, confirm: bool) -> None:
        if not interaction.permissions.manage_guild:
            await interaction.response.send_message("Only managers.", ephemeral=True)
            return
        await interaction.response.send_message(f"Reset confirm={confirm}", ephemeral=True)

    @app_commands.command(description="Pick something")
    async def pick(self, interaction: discord.Interaction) -> None:
        view = PickView()
        await interaction.response.send_message("Pick one", view=view)
        view.message = await interaction.original_response()

    @app_commands.command(description="Give feedback")
    async def feedback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())

    @app_commands.command(description="DM me")
    async def dm(self, interaction: discord.Interaction, text: str) -> None:
        try:
            await interaction.user.send(text, view=AckView())
        except discord.Forbidden as e:
            self.bot.store["dm_error"] = e.code
            await interaction.response.send_message("I cannot DM you.", ephemeral=True)
            return
        await interaction.response.send_message("Sent.", ephemeral=True)

    @app_commands.command(description="Open a thread")
    async def thread(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"Table {name}")
        msg = await interaction.original_response()
        th = await msg.create_thread(name=name)
        await th.add_user(interaction.user)
        await th.send(f"Welcome {interaction.user.mention}", view=AckView())
        self.bot.store["thread"] = th.id

    @app_commands.command(description="Archive the last thread")
    async def archive(self, interaction: discord.Interaction) -> None:
        th = self.bot.get_channel(self.bot.store["thread"])
        assert isinstance(th, discord.Thread)
        await interaction.response.send_message("Archiving.", ephemeral=True)
        await th.edit(archived=True, locked=True)

    @app_commands.command(description="Slow work")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.followup.send("Done slowly.")
            await interaction.followup.send("And a second note.", ephemeral=True)
        except discord.HTTPException as e:
            self.bot.store["followup_error"] = (e.status, e.code)

    @app_commands.command(description="Answer")
    async def late(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("On time?")
        except discord.NotFound as e:
            self.bot.store["late_error"] = e.code

    @app_commands.command(description="A card")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"Card: {name}")

    @card.autocomplete("name")
    async def card_name(self, interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c.title(), value=c) for c in CARDS if current in c]

    @app_commands.command(description="Upload a file")
    async def upload(self, interaction: discord.Interaction) -> None:
        import io

        await interaction.response.send_message(
            "Here", file=discord.File(io.BytesIO(b"hello bytes"), filename="hello.txt"),
            embed=discord.Embed(title="Picture", description="A file"))

    @app_commands.command(description="Blows up")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("command exploded")

    @app_commands.command(description="Answer later from a background task")
    async def later(self, interaction: discord.Interaction, delay: float = 0.0) -> None:
        await interaction.response.send_message("Working.", ephemeral=True)
        task = asyncio.create_task(self._later(interaction.channel, delay))
        self.bot.background.add(task)
        task.add_done_callback(self.bot.background.discard)

    async def _later(self, channel: Any, delay: float) -> None:
        await asyncio.to_thread(time.sleep, 0.01)  # like an aiosqlite query in its thread
        if delay:
            await asyncio.sleep(delay)
        await channel.send(f"Later ({delay}).")

    @app_commands.command(description="Fire and forget a failing task")
    async def fireforget(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Fired.", ephemeral=True)
        self.bot.store["ff"] = asyncio.create_task(self._fail())

    async def _fail(self) -> None:
        await asyncio.sleep(0)
        raise ValueError("nobody awaited me")

    @app_commands.command(description="Say nothing at all")
    async def silent(self, interaction: discord.Interaction) -> None:
        return None

    @app_commands.command(description="Read back an uploaded file")
    async def echo(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        data = await file.read()
        await interaction.response.send_message(f"{file.filename}: {data.decode()}")

    @app_commands.command(description="Ask and wait for the answer")
    async def ask(self, interaction: discord.Interaction) -> None:
        view = YesView()
        await interaction.response.send_message("Ready?", view=view)
        await view.wait()
        await interaction.followup.send(f"Answer: {view.answer}")

    @app_commands.command(description="Wait for an event that never comes")
    async def hang(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Hanging.", ephemeral=True)
        await self.bot.store.get("event", asyncio.Event()).wait()  # a test's, or none's
        self.bot.store["hung"] = True

    @app_commands.command(description="Show a components v2 card")
    async def v2(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=HandCard(), ephemeral=True)

    @app_commands.command(description="Name a channel")
    async def where(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        await interaction.response.send_message(f"In #{channel.name}")

    @app_commands.command(description="Poke someone")
    async def poke(self, interaction: discord.Interaction, who: discord.Member) -> None:
        await interaction.response.send_message(f"Poked {who.display_name}")


class SampleBot(commands.Bot):
    """The bot under test; ``store`` persists across restarts like a database would."""

    def __init__(self, store: dict[str, Any] | None = None) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents)
        self.store: dict[str, Any] = store if store is not None else {}
        self.ready_count = 0
        self.background: set[asyncio.Task[None]] = set()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        self.add_view(AckView())
        await self.add_cog(GameCog(self))
        await self.tree.sync()
        self.store["setup_hook_ran"] = self.store.get("setup_hook_ran", 0) + 1

    async def on_ready(self) -> None:
        self.ready_count += 1

    async def on_message(self, message: discord.Message) -> None:
        if self.user is not None and message.author.id != self.user.id:
            self.store.setdefault("heard", []).append(message.content)
