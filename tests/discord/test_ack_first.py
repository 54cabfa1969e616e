"""Acknowledge first: every slash command and every click is acknowledged (deferred or
answered) before herdbot reads its store or draws a picture, except a click held for its
first answer (:func:`bot.discord.router.holds_answer`: a presenter's choice, panel or page
turn, My hand), whose one response is that write when it can carry it (UPDATE_MESSAGE of
the clicked message, a private reply) or else a deferral, within the deadline of
:mod:`bot.discord.ack` (tests/discord/test_one_ack.py, test_held_answers.py).

Through real discord.py dispatch in the sandbox. :class:`EarlyWork` wraps every coroutine
method of the bot's store and the bot's render call; a call made inside the handling of an
interaction that Discord has not yet seen answered is recorded as early work, unless that
interaction was held (an :class:`~bot.discord.ack.Ack` was made for it: ``held``)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest_asyncio

from bot.app import builtin_games
from bot.discord.ack import Ack
from bot.games.registry import Registry
from bot.sandbox import current_interaction
from bot.sandbox.demo import play_game
from tests.discord.conftest import TINY_EXTENSIONS, make_bot
from tests.faults.common import click_injected
from tests.support import headline

ALL = ("cogs.lobby", "cogs.game", "cogs.admin", "cogs.llamas_alpacas", "cogs.pacapaca",
       "cogs.unleashed")


class EarlyWork:
    """Records store calls and renders made before the interaction they serve was
    acknowledged (``early``), and counts those made after (``after``, so a test can
    show the instrumentation saw the handlers work at all)."""

    def __init__(self, bot: Any, monkeypatch: Any) -> None:
        self._early: list[tuple[str, Any]] = []
        #: The ids of the interactions held for their first answer (an Ack made).
        self.held_ids: set[int] = set()
        made = Ack.__init__

        def holding(guard: Ack, interaction: Any, delay_s: float) -> None:
            self.held_ids.add(interaction.id)
            made(guard, interaction, delay_s)
        monkeypatch.setattr(Ack, "__init__", holding)
        self.after = 0
        self.step = "start"
        store = bot.store
        for name in dir(type(store)):
            if name.startswith("_"):
                continue
            method = getattr(store, name)
            if inspect.iscoroutinefunction(method):
                setattr(store, name, self._wrap(f"store.{name}", method))
        bot.render = self._wrap("render", bot.render)
        bot.draw = self._wrap("draw", bot.draw)  # table pictures (render process)

    @property
    def early(self) -> list[str]:
        """Work done before an acknowledgement, for interactions not held."""
        return [what for what, it in self._early if it.id not in self.held_ids]

    @property
    def unanswered(self) -> list[str]:
        """The held steps that did work whose interaction got no response, or failed."""
        return [what for what, it in self._early if it.id in self.held_ids
                and (it.response_type is None or it.failed)]

    @property
    def held(self) -> list[tuple[str, int]]:
        """The held steps whose work came before their one response, once each with the
        response's type (4: a private reply, 6: a deferral, 7: an update)."""
        return list(dict.fromkeys((what.split(": ")[0], it.response_type)
                                  for what, it in self._early
                                  if it.id in self.held_ids))

    def _wrap(self, what: str, call: Any) -> Any:
        async def wrapped(*args: Any, **kwargs: Any) -> Any:
            it = current_interaction.get()
            if it is not None and it.kind in ("command", "component"):
                if not it.responded and not it.failed:
                    self._early.append((f"{self.step}: {what}", it))
                else:
                    self.after += 1
            return await call(*args, **kwargs)

        return wrapped


@pytest_asyncio.fixture
async def tiny(world, clock, tmp_path, monkeypatch):
    sandbox = await world.connect(make_bot(tmp_path / "t.sqlite3", clock,
                                           extensions=(*TINY_EXTENSIONS, "cogs.unleashed")))
    try:
        yield sandbox, EarlyWork(sandbox.bot, monkeypatch)
    finally:
        await world.disconnect()


async def test_every_command_and_click_acknowledges_before_store_or_render(world, tiny):
    sb, work = tiny
    ana, bo, mo = world.member("Ana"), world.member("Bo"), world.member("Mo")

    async def step(name: str, run: Any) -> Any:
        work.step = name
        return await run

    await step("/rules", ana.slash("rules", game="tiny"))
    await step("/card", ana.slash("card", name="Cria Button"))
    await step("/notify", ana.slash("notify", direct_messages="on"))
    await step("/settings", mo.slash("settings", lobbies_per_member=3))
    await step("/stats show", ana.slash("stats show"))
    await step("/stats forget", ana.slash("stats forget"))
    await step("/game hand (no game)", ana.slash("game hand"))
    await step("/play", ana.slash("play", game="tiny"))
    lobby = ana.last_reply
    await step("click Add AI seat", ana.click(lobby, "Add AI seat"))
    await step("click Remove AI seat", ana.click(lobby, "Remove AI seat"))
    await step("click Join", bo.click(lobby, "Join"))
    await step("click Start", ana.click(lobby, "Start"))
    thread = lobby.thread
    table = thread.last_message
    old_id = table.component("Add 1")["custom_id"]
    await step("click Add 1", ana.click(table, "Add 1"))
    table = thread.last_message
    await step("stale click", click_injected(sb, bo, thread, old_id))  # the table moved on
    assert headline(bo.last_reply) == "This table has moved on. Here is the current one:"
    await step("forged click", click_injected(sb, bo, thread, "hb:g:1:zz"))
    await step("foreign click", click_injected(sb, bo, thread, "xx:1"))
    await step("click My hand", bo.click(table, "My hand"))
    await step("/game hand", bo.slash("game hand", in_channel=thread))
    await step("/game log", bo.slash("game log", in_channel=thread))
    await step("/game status", bo.slash("game status", in_channel=thread))
    await step("/game leave", bo.slash("game leave", in_channel=thread))
    table = next(m for m in reversed(thread.all_messages) if "I'm back" in m.labels)
    await step("click I'm back", bo.click(table, "I'm back"))
    await step("/game end", ana.slash("game end", in_channel=thread))
    await step("click Yes, end the game", ana.click(ana.last_reply, "Yes, end the game"))

    assert work.early == []
    # the tiny game's buttons are its cog's own, not moves held; My hand's private reply
    # is its one answer
    assert work.held == [("click My hand", 4)]
    assert work.after >= 40


async def test_a_handler_that_reads_first_is_caught(world, tiny, monkeypatch):
    """The instrument itself: with the tree's acknowledgement taken away (as before this
    change), /game hand reads the store first, and that is recorded."""
    sb, work = tiny

    async def no_ack(interaction):  # type: ignore[no-untyped-def]
        return True

    monkeypatch.setattr(sb.bot.tree, "interaction_check", no_ack)
    work.step = "/game hand"
    await world.member("Ana").slash("game hand")
    assert work.early == ["/game hand: store.game_id_by_thread",
                          "/game hand: store.active_games_of"]


async def test_a_public_command_refused_after_its_ack_answers_privately(world, tiny):
    """/play is acknowledged in public before the store is read; when it is then refused
    (a server's game channel elsewhere) the placeholder is removed and the refusal is
    ephemeral: nobody else sees it."""
    sb, work = tiny
    mo = world.member("Mo")
    other = world.add_channel("games")
    await mo.slash("settings", game_channel=other)
    ana = world.member("Ana")
    it = await ana.slash("play", game="tiny")
    assert it.response_type == 5
    assert it.original is not None and it.original.deleted
    reply = ana.last_reply
    assert reply.ephemeral
    assert headline(reply) == f"\N{NO ENTRY SIGN} Games are played in <#{other.id}> on this server."
    assert [m for m in world.channel(None).all_messages if not m.ephemeral and not m.deleted] == []
    assert work.early == []


async def test_real_games_acknowledge_every_click_first(world, clock, tmp_path, monkeypatch):
    """A whole seeded demo game of each real game: every click (the game's own buttons,
    selects, pages, reaction windows, deal editor) acknowledges before any store read."""
    spec = builtin_games()
    for n, (game, players) in enumerate((("llamas-alpacas", 3), ("pacapaca", 4),
                                          ("llamas-unleashed", 3))):
        bot = make_bot(tmp_path / f"g{n}.sqlite3", clock, registry=Registry([spec[game]]),
                       extensions=ALL)
        sandbox = await world.connect(bot)
        try:
            work = EarlyWork(sandbox.bot, monkeypatch)
            work.step = game
            await play_game(world, sandbox.bot, game=game, players=players, seed=7,
                            game_seed=11, names=("Ana", "Bo", "Cy", "Di"))
            assert work.early == []
            # Moves on the public table were answered by their table's update (7); panels,
            # hands and Respond by their private reply (4); Pass by its table's update
            # (7); a move chosen on a private panel that posts a new table as its
            # followup was deferred (6) for it. Each held click was answered once.
            assert work.held == {"llamas-alpacas": [(game, 7)],
                                 "pacapaca": [(game, 7), (game, 6), (game, 4)],
                                 "llamas-unleashed": [(game, 4), (game, 6), (game, 7)]}[game]
            assert work.unanswered == []
            assert work.after > 50
        finally:
            await world.disconnect()


