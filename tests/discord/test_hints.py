"""The Hint button through the real discord.py dispatch against the strict sandbox: the
lobby's Hints option (off by default in rated games, on otherwise), the button on the
player's own My hand panel, the hint as an ephemeral Components V2 card, and the sentence
for a player who has nothing to decide."""

from __future__ import annotations

import random

import pytest_asyncio

from bot.ai import llamas_alpacas as la_ai
from bot.app import builtin_games
from bot.discord.text import md_name
from bot.games.registry import Registry
from bot.present import hints
from bot.present.base import named
from bot.present.llamas_alpacas_words import lines_conditions
from bot.runtime import ManualClock
from bot.sandbox import World
from bot.sandbox.demo import NAMES
from tests.discord.conftest import make_bot
from tests.discord.test_llamas_alpacas import click_injected
from tests.discord.test_unleashed import install
from tests.games.unleashed.unleashed_helpers import build
from tests.support import headline, texts

SPEC = builtin_games()["llamas-alpacas"]
EXTENSIONS = ("cogs.lobby", "cogs.game", "cogs.admin", "cogs.llamas_alpacas")
KEY = "llamas-alpacas"
BULB = "\N{ELECTRIC LIGHT BULB}"


@pytest_asyncio.fixture
async def la(tmp_path):
    world = World()
    for name in NAMES[:2]:
        world.add_member(name)
    bot = make_bot(tmp_path / "hints.sqlite3", ManualClock(), registry=Registry([SPEC]),
                   extensions=EXTENSIONS)
    await world.connect(bot)
    bot.service.seed_factory = lambda: 1
    yield world, bot
    await world.disconnect()


async def _start(world, *, rated: bool):
    members = [world.member(name) for name in NAMES[:2]]
    if rated:
        await members[0].slash("play", game=KEY)
    else:
        await members[0].slash("play", game=KEY, rated=False)
    lobby = members[0].last_reply
    await members[1].click(lobby, "Join")
    await members[0].click(lobby, "Start")
    return members, lobby


async def _after_setup(world, bot, *, rated: bool):
    members, lobby = await _start(world, rated=rated)
    thread = lobby.thread
    await members[0].click(thread.last_message, "5 · free")
    await members[1].click(thread.last_message, "5 · free")
    _, _, _, state = await bot.service.load(1)
    return state, members[state.active], members[1 - state.active], thread, lobby


async def test_hints_option_defaults_by_rated(la):
    world, _ = la
    ana = world.member(NAMES[0])
    await ana.slash("play", game=KEY)
    assert "Hints: off" in ana.last_reply.labels
    assert "Hints: off" in ana.last_reply.text
    await ana.slash("play", game=KEY, rated=False)
    assert "Hints: on" in ana.last_reply.labels
    await ana.click(ana.last_reply, "Hints: on")  # the host turns them off
    assert "Hints: off" in ana.last_reply.labels


async def test_hint_on_the_own_panel_shows_the_normal_ai_move(la):
    world, bot = la
    state, active, other, thread, _ = await _after_setup(world, bot, rated=False)
    await active.click(thread.last_message, "My hand")
    panel = active.last_reply
    assert panel.ephemeral and panel.filenames == ["my-board.png"]
    assert panel.labels == ["Hint"]
    await active.click(panel, "Hint")
    reply = active.last_reply
    assert reply.ephemeral and reply.flags & (1 << 15)  # Components V2
    record, seats, spec, state = await bot.service.load(1)
    seat = spec.engine.pending(state).seats[0]
    legal = spec.engine.legal_actions(state, seat)
    expected = spec.hint(spec.engine.view(state, seat), legal,
                         random.Random(f"hint:1:{record.version}:{seat}"))
    names = {s.seat: md_name(s.name) for s in seats}
    assert texts(reply) == [f"### {BULB} Hint", named(expected, names),
                            "-# What the Normal AI would do now, from what you can see."]
    # Asking again gives the same words (seeded by the game, its version and the seat).
    await active.click(panel, "Hint")
    assert texts(active.last_reply)[1] == named(expected, names)


async def test_hint_from_the_player_not_to_act_gets_a_sentence(la):
    world, bot = la
    state, active, other, thread, _ = await _after_setup(world, bot, rated=False)
    await other.click(thread.last_message, "My hand")
    panel = other.last_reply
    assert panel.labels == ["Hint"]
    version = (await bot.service.get(1)).version
    await other.click(panel, "Hint")
    assert headline(other.last_reply) == (
        f"\N{NO ENTRY SIGN} A hint shows the move for the player who has to decide, and "
        f"that is {active.name}, not you. Press Hint again when it is your move.")
    assert (await bot.service.get(1)).version == version  # nothing changed


async def test_rated_game_has_no_hint_button(la):
    world, bot = la
    state, active, other, thread, _ = await _after_setup(world, bot, rated=True)
    await active.click(thread.last_message, "My hand")
    assert active.last_reply.labels == []
    # A forged Hint in a game with hints off: a sentence, nothing else.
    await click_injected(world.sandbox, active, thread, "hb:g:1:x:hint")
    assert headline(active.last_reply) == (
        "\N{NO ENTRY SIGN} Hints are off in this game (the lobby's Hints option).")


# -- Llamas Unleashed: the hand panel's own buttons, and hidden cards ---------------------

UL = builtin_games()["llamas-unleashed"]


@pytest_asyncio.fixture
async def ul(tmp_path):
    world = World()
    for name in ("Ana", "Bo"):
        world.add_member(name)
    bot = make_bot(tmp_path / "ul.sqlite3", ManualClock(), registry=Registry([UL]),
                   extensions=("cogs.lobby", "cogs.game", "cogs.admin", "cogs.unleashed"))
    await world.connect(bot)
    yield world, bot
    await world.disconnect()


async def _ul_hint(world, bot, bo_hand: list[str]) -> tuple[str, list[str]]:
    """Install a position (Ana to play, Bo holding ``bo_hand``), press My hand then Hint
    as Ana; (the hint's text, the panel's labels)."""
    ana = world.member("Ana")
    state = build(hands={"s0": ["trail_llama", "lasso", "golden_bell"], "s1": bo_hand},
                  fields={"s1": ["suri_alpaca", "sleepy_llama"]})
    await install(world, bot, state)
    thread = world.channel((await bot.store.get_game(1)).thread_id)
    table = [m for m in ana.visible(thread) if not m.ephemeral and m.buttons()][-1]
    await ana.click(table, "My hand")
    panel = ana.last_reply
    await ana.click(panel, "Hint")
    reply = ana.last_reply
    assert reply.ephemeral and reply.flags & (1 << 15)
    return texts(reply)[1], panel.labels


async def test_unleashed_hint_is_the_same_whatever_the_other_hand_holds(ul):
    world, bot = ul
    ana = world.member("Ana")
    await ana.slash("play", game="llamas-unleashed", rated=False)
    lobby = ana.last_reply
    await world.member("Bo").click(lobby, "Join")
    await ana.click(lobby, "Start")
    first, labels = await _ul_hint(world, bot, ["stampede", "llama_spit"])
    assert labels[-2:] == ["Refresh", "Hint"]  # after the panel's own buttons
    second, _ = await _ul_hint(world, bot, ["hay_harvest", "alpaca_huff"])
    record, seats, spec, state = await bot.service.load(1)
    legal = spec.engine.legal_actions(state, "s0")
    expected = spec.hint(spec.engine.view(state, "s0"), legal,
                         random.Random(f"hint:1:{record.version}:s0"))
    assert first == second == named(expected, {s.seat: md_name(s.name) for s in seats})
    assert first == "Play **Trail Llama** into your Field: an Animal in your own Field is " \
        "one step nearer to winning, and nothing in your hand does more."


async def test_a_scoring_hint_words_its_line_in_the_members_language(la):
    """A French game, the player to move with a German client: the hint (theirs) names
    the line's conditions in German, from the AI's data (``la_ai.weigh``'s ``lines``)."""
    world, bot = la
    members = [world.member(name) for name in NAMES[:2]]
    await members[0].slash("play", game=KEY, rated=False, language="fr")
    lobby = members[0].last_reply
    await members[1].click(lobby, "Rejoindre")
    await members[0].click(lobby, "Lancer")
    rand = random.Random(4)
    for _ in range(300):
        record, seats, spec, state = await bot.service.load(1)
        seat = spec.engine.pending(state).seats[0]
        legal = spec.engine.legal_actions(state, seat)
        rng = random.Random(f"hint:1:{record.version}:{seat}")
        w = la_ai.weigh(spec.engine.view(state, seat), legal, rng)
        if w.reason == "take" and w.facts["points"]:
            break
        await bot.service.act(1, seat, rand.choice(legal), expected_version=state.version)
        await world.settle()
    else:
        raise AssertionError("no scoring hint reached")
    member = next(m for m in members if m.name == next(s.name for s in seats if s.seat == seat))
    member.locale = "de"
    table = [m for m in member.visible(lobby.thread) if not m.ephemeral and m.buttons()][-1]
    await member.click(table, "Ma main")
    await member.click(member.last_reply, "Tipp")
    said = texts(member.last_reply)[1]
    names = {s.seat: md_name(s.name) for s in seats}
    assert said == named(hints.llamas_alpacas(w, "de"), names)
    assert f"Linie ({lines_conditions(w.facts['lines'], 'de')}) für" in said
    assert said.startswith(f"Nimm Karte {w.action.position} (**")
    words = lines_conditions(w.facts["lines"], "de")
    assert not any(english in words for english in ("all ", "three ", " and ")), words
