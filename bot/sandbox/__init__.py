r"""bot.sandbox: run a real discord.py bot in-process against a simulated Discord.

No network, no mocks of discord.py: member actions build real INTERACTION_CREATE payloads
and feed them to ``bot._connection.parse_interaction_create``, so discord.py's own
CommandTree, ViewStore, DynamicItem and Modal dispatch run. Every HTTP request leaves
through discord.py's real ``HTTPClient.request`` / ``AsyncWebhookAdapter.request`` into a
per-bot :class:`FakeSession` that answers like Discord (snowflakes, messages with
components and attachments, threads, DM channels, the InteractionCallback shape) and
records it (:class:`RecordedRequest`).

Usage (pytest-asyncio, ``asyncio_mode = "auto"``)::

    from bot.sandbox import World, SandboxError

    async def test_lobby():
        world = World()                                   # guild "Herd Hall", #general
        alice = world.add_member("Alice")
        boss = world.add_member("Boss", manage_guild=True)
        sb = await world.connect(MyBot(...))              # login + setup_hook + READY
        await alice.slash("play", game="tiny")            # options as Python values
        lobby = alice.last_reply                          # SimMessage, public
        await boss.click(lobby, "Join")                   # button by label/custom_id
        assert lobby.content.endswith("Boss") and lobby.is_disabled("Start")
        await alice.slash("game hand")                    # subcommand by path
        assert alice.last_reply.ephemeral and boss.visible() == [lobby]
        await alice.select(msg, ["llama"], custom_id="play:card")
        await alice.slash("feedback"); await alice.submit_modal({"Your thoughts": "ok"})
        choices = await alice.autocomplete("card", name="lla")
        thread = lobby.thread                             # started from the message
        world.faults.close_dms(alice)                     # 403 50007 on DM sends
        world.faults.late_ack()                           # 404 10062 on next callback
        world.faults.expire_token()                       # 401 50027 on followups
        world.faults.rate_limit("POST", r"^/channels/\d+/messages$")  # one 429
        world.deny_bot(world.main, "create_public_threads")   # 403 50013, app_permissions
        world.moderate_thread(thread, locked=True)        # bot posts: 400 50083
        await world.delete_thread(thread)                 # THREAD_DELETE; 404 10003 after
        await sb.advance(24 * 3600)                       # idle threads auto-archive
        await world.disconnect()                          # bot.close(); world persists
        await world.connect(MyBot(...))                   # restart: old buttons work
        await alice.click(lobby, "Leave")
        await world.disconnect()

Shards (Discord's gateway sharding)::

    world = World(); world.shard_count = 2
    west = world.add_guild("West", shard=1)           # its text channel; guild on shard 1
    sb0 = await world.connect(bot_serving([0]))       # AutoShardedClient, shard_ids=[0]
    sb1 = await world.connect(bot_serving([1]))       # one READY per shard, its guilds only
    await ana.slash("play", in_channel=west)          # reaches sb1: (guild_id >> 22) % 2
    await ana.click(dm_message, "Add 1")              # a DM: reaches shard 0 (sb0)
    await world.disconnect()                          # closes every shard's bot

Events go where Discord sends them: a guild's to its shard, DMs to shard 0
(:meth:`Sandbox.gateway`); each sandbox waits for and cancels only its own bot's tasks.

A fixture for a suite::

    @pytest.fixture
    async def sb(world):
        sandbox = await world.connect(make_bot())
        yield sandbox
        await world.disconnect()      # settles; raises SandboxError on captured errors

Waiting: every member action returns after :meth:`Sandbox.settle`, which waits for all
tasks the bot's loop created (command/view/modal callbacks, on_* events, the bot's own
``create_task``s, work in threads such as aiosqlite), but not for tasks parked on long
timers, ``View.wait()`` or ``Client.wait_for``. Nothing in the sandbox sleeps; use
``await sb.advance(seconds)`` to move the world clock and fire pending loop timers.

Errors: ERROR records from the ``discord``, ``bot``, ``cogs`` and ``herdbot`` loggers
(``CommandTree.on_error``, ``View.on_error``, ``Client.on_error`` defaults log there),
exceptions no one retrieved from a task, and requests to routes the sandbox does not know
make the next settle (or ``world.disconnect()``) raise :class:`SandboxError`. Expect an
error with ``with sb.allow_errors() as errors: ...``.

Limits: every body that carries a message, a modal or a channel name is checked against
Discord's documented limits (:mod:`bot.sandbox.limits`) before anything is stored; a
refused request answers 400 with code 50035 and Discord's ``errors`` object (50006 for an
empty message), which discord.py raises as ``HTTPException``.

Seeing: ``member.visible(channel)`` (public messages + own ephemerals),
``member.ephemerals``, ``member.dms``, ``member.last_reply``,
``world.last_message(channel)``, ``world.find_message(text)``, ``world.threads``;
a :class:`SimMessage` has ``content``, ``embeds``, ``text``, ``labels``,
``component(key)``, ``is_disabled(key)``, ``filenames``, ``file(name)``, ``edits``.
Recorded requests: ``world.requests``, ``sb.requests``, ``world.requests_to(method,
path_regex)``, ``interaction.requests``; each has ``json``, ``files``, ``status``,
``response``, ``flags``/``ephemeral``, ``member``.
"""


from .faults import Faults
from .members import Link, SimMember
from .model import (
    CapturedError,
    RecordedRequest,
    SandboxError,
    SimAttachment,
    SimChannel,
    SimFile,
    SimInteraction,
    SimMessage,
)
from .rest import FakeResponse, FakeSession, current_interaction
from .runner import Sandbox
from .world import World

__all__ = [
    "CapturedError", "FakeResponse", "FakeSession", "Faults", "Link", "RecordedRequest", "Sandbox",
    "SandboxError", "SimAttachment", "SimChannel", "SimFile", "SimInteraction", "SimMember",
    "SimMessage", "World", "current_interaction",
]
