"""Llamas & Alpacas through the real bot in the sandbox (cogs/llamas_alpacas.py).

Full games are driven by the UI driver (bot/sandbox/drivers/llamas_alpacas.py) through
bot.sandbox.demo.play_game; particular situations are reached by playing seeded random
legal actions through the service, then the buttons are checked and pressed.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest_asyncio

from bot.app import builtin_games
from bot.games.llamas_alpacas.cards import cards_by_id
from bot.games.llamas_alpacas.models import Move
from bot.games.registry import Registry
from bot.present.base import decision_key
from bot.sandbox import World
from bot.sandbox.demo import NAMES, play_game
from tests.discord.conftest import make_bot
from tests.support import description, footer, headline, pictures, rows, title

#: The game as the bot offers it: its rules wired to its AI and cog (bot.app).
SPEC = builtin_games()["llamas-alpacas"]

EXTENSIONS = ("cogs.lobby", "cogs.game", "cogs.admin", "cogs.llamas_alpacas")
KEY = "llamas-alpacas"
GRID_FREE = [f"{n} · free" for n in range(1, 10)]


def registry() -> Registry:
    return Registry([SPEC])


@contextlib.asynccontextmanager
async def la_world(path: Path, names: Sequence[str]) -> AsyncIterator[tuple[World, Any]]:
    """(world, bot) of Llamas & Alpacas alone on a SQLite file at ``path``, with members
    ``names``, every game seeded 1; disconnected at the end."""
    world = World()
    for name in names:
        world.add_member(name)
    bot = make_bot(path, _clock(), registry=registry(), extensions=EXTENSIONS)
    await world.connect(bot)
    bot.service.seed_factory = lambda: 1
    try:
        yield world, bot
    finally:
        await world.disconnect()


@pytest_asyncio.fixture
async def la(tmp_path):
    """(world, bot): members Maya, Tomasz, Ana, Kofi (the demo's names) and Omar."""
    async with la_world(tmp_path / "la.sqlite3", [*NAMES[:4], "Omar"]) as pair:
        yield pair


def _clock():
    from bot.runtime import ManualClock

    return ManualClock()


async def start(world, bot, n=2):
    """Open a lobby, seat the first ``n`` demo names, start; return (members, thread)."""
    members = [world.member(name) for name in NAMES[:n]]
    await members[0].slash("play", game=KEY)
    lobby = members[0].last_reply
    for m in members[1:]:
        await m.click(lobby, "Join")
    await members[0].click(lobby, "Start")
    return members, lobby.thread


async def drive(world, bot, stop, seed=1, game_id=1, *, moves=True):
    """Play seeded random legal actions through the service (published, so the cog posts
    each table) until ``stop(state)``; the same choices as an engine-only playout. With
    ``moves=False`` no Move is chosen (boards fill up)."""
    rand = random.Random(seed)
    engine = SPEC.engine
    for _ in range(500):
        _, _, _, state = await bot.service.load(game_id)
        if stop(state):
            return state
        seat = engine.pending(state).seats[0]
        legal = [a for a in engine.legal_actions(state, seat) if moves or not isinstance(a, Move)]
        await bot.service.act(game_id, seat, rand.choice(legal), expected_version=state.version)
        await world.settle()
    raise AssertionError("the situation was not reached")


async def drive_takes(world, bot, stop, seed=1, game_id=1):
    """:func:`drive` without moves (boards fill up)."""
    return await drive(world, bot, stop, seed, game_id, moves=False)


async def click_injected(sb, member, channel, custom_id, values=None):
    """Click a component with a raw ``custom_id`` on a message the bot might have posted
    (built by the sandbox router as a bot POST would; the sandbox has no public call)."""
    if values is None:
        comp = {"type": 2, "style": 2, "label": "Forged", "custom_id": custom_id}
    else:
        comp = {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": 1,
                "options": [{"label": v, "value": v} for v in values]}
    message = sb.router.new_message(channel, {"content": "", "components": [
        {"type": 1, "components": [comp]}]}, [])
    if values is None:
        return await member.click(message, custom_id)
    return await member.select(message, values, custom_id=custom_id)


async def version(bot, game_id=1):
    return (await bot.service.get(game_id)).version


def table_of(thread):
    return [m for m in thread.all_messages if not m.ephemeral and rows(m)][-1]


# -- full games -------------------------------------------------------------------------


async def _full_game(world, bot, players):
    game_id = await play_game(world, bot, game=KEY, players=players, seed=5, game_seed=5)
    record, seats, spec, state = await bot.service.load(game_id)
    assert record.status == "finished"
    result = spec.engine.result(state)
    names = {s.seat: s.name for s in seats}
    thread = world.channel(record.thread_id)
    last = thread.last_message
    assert title(last) == f"Llamas & Alpacas #{game_id}: final scores"
    # The last table is replaced by the end: the last moves, then the scores.
    moves, desc = description(last).split("\n\n", 1)
    assert moves.splitlines() and all(t.startswith("\N{BULLET} ") for t in moves.splitlines())
    winner = names[result.winners[0]]
    assert desc.splitlines()[0] == f"**{winner} wins with {result.scores[result.winners[0]]} points.**" \
        or desc.startswith("**Shared victory")
    for seat, score in result.scores.items():
        assert f"**{names[seat]}**: {score} points - " in desc
    assert desc.splitlines()[1].startswith("\N{TROPHY} ")
    assert footer(last) == f"Move {state.version}"
    # The final picture and the result card are in it, and no message in the thread keeps
    # any button but its Rematch.
    assert last.filenames == ["final.png", "result.png"]
    assert last.file("final.png")[:8] == b"\x89PNG\r\n\x1a\n"
    assert last.file("result.png")[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p[0] for p in pictures(last)] == ["final.png", "result.png"]
    assert all(p[1] for p in pictures(last))  # each with its alternative text
    assert [b["custom_id"] for b in last.buttons()] == [f"hb:l:{game_id}:x:rematch",
                                                     f"hb:r:{game_id}:x:open"]
    assert all(not rows(m) for m in thread.all_messages if not m.ephemeral and m != last)
    # Stats recorded for every member.
    stats = {r.user_id: r for r in await bot.store.stats(record.guild_id, kind=KEY)}
    for s in seats:
        assert stats[s.user_id].played == 1
        assert stats[s.user_id].won == (1 if s.seat in result.winners else 0)
        assert stats[s.user_id].best_score == result.scores[s.seat]
    return thread, state


async def test_full_two_player_game_through_the_buttons(la):
    world, bot = la
    thread, state = await _full_game(world, bot, 2)
    assert state.phase == "finished" and max(p.score for p in state.players) >= 18


async def test_full_four_player_game_through_the_buttons(la):
    world, bot = la
    thread, state = await _full_game(world, bot, 4)
    assert len(state.players) == 4
    # Turns announced with names, never seat ids.
    text = "\n".join(m.text for m in thread.all_messages)
    assert "It is Tomasz's turn." in text and " s1" not in text


# -- set-up -----------------------------------------------------------------------------


async def test_starting_card_placement_grid_any_order_and_refusal(la):
    world, bot = la
    (maya, tomasz), thread = await start(world, bot)
    table = thread.last_message
    assert table.labels == [*GRID_FREE, "My hand", "Watch"]
    assert headline(table) == f"<@{maya.id}> <@{tomasz.id}>"  # both pinged once
    assert "Waiting for **Maya**, **Tomasz**." in description(table)
    # Tomasz places first: any order is fine.
    posted = len(thread.all_messages)
    await tomasz.click(table, "5 · free")
    table2 = thread.last_message
    # Set-up is one decision: the table is edited in place (no new message, no second ping).
    assert table2.id == table.id and len(thread.all_messages) == posted
    assert "Tomasz places the starting card, " in description(table2)
    assert "on row 2, column 2." in description(table2)
    assert "Waiting for **Maya**." in description(table2)
    v = await version(bot)
    await tomasz.click(table2, "1 · free")
    assert tomasz.last_reply.ephemeral
    assert headline(tomasz.last_reply) == "\N{NO ENTRY SIGN} You have already placed your starting card."
    assert await version(bot) == v
    await maya.click(table2, "9 · free")
    _, _, _, state = await bot.service.load(1)
    assert state.phase == "turn"
    assert state.players[0].board[8] is not None and state.players[1].board[4] is not None
    turn_table = thread.last_message
    assert headline(turn_table) == f"<@{world.member(('Maya', 'Tomasz')[state.first]).id}>"
    assert f"**{('Maya', 'Tomasz')[state.first]}**'s turn (3🍀 3🥕)" in description(turn_table)


async def test_two_players_placing_at_the_same_moment_both_count(la):
    world, bot = la
    (maya, tomasz), thread = await start(world, bot)
    table = thread.last_message
    await asyncio.gather(maya.click(table, "1 · free"), tomasz.click(table, "9 · free"))
    _, _, _, state = await bot.service.load(1)
    assert state.phase == "turn" and state.version == 2
    assert state.players[0].board[0] is not None and state.players[1].board[8] is not None
    # Both placements are told; only the newest table keeps buttons, and it is current.
    live = [m for m in thread.all_messages if rows(m)]
    assert len(live) == 1 and live[0].labels[0] == "Take 1 (free)"
    text = "\n".join(m.text for m in thread.all_messages)
    assert "Maya places the starting card" in text and "Tomasz places the starting card" in text


async def test_an_ai_seat_places_at_once_and_only_the_human_is_pinged(la):
    world, bot = la
    maya = world.member("Maya")
    await maya.slash("play", game=KEY)
    lobby = maya.last_reply
    await maya.click(lobby, "Add AI seat")
    await maya.click(lobby, "Start")
    thread = lobby.thread
    table = thread.last_message
    assert headline(table) == f"<@{maya.id}>"
    assert "Waiting for **Maya**." in description(table)
    await maya.click(table, "5 · free")
    _, _, _, state = await bot.service.load(1)
    # The AI answered its turn(s) at once: it is Maya's turn again, and she is pinged.
    assert state.phase == "turn" and state.seats[state.active] == "s0"
    assert headline(thread.last_message) == f"<@{maya.id}>"


async def test_the_table_tells_every_ai_turn_played_in_between(la):
    world, bot = la
    maya = world.member("Maya")
    await maya.slash("play", game=KEY)
    lobby = maya.last_reply
    for _ in range(3):
        await maya.click(lobby, "Add AI seat")
    await maya.click(lobby, "Start")
    thread = lobby.thread
    await maya.click(thread.last_message, "5 · free")
    _, seats, _, state = await bot.service.load(1)
    names = {s.seat: s.name for s in seats}
    assert state.seats[state.active] == "s0" and state.phase == "turn"
    await maya.click(thread.last_message, "Take 1 (free)")
    await maya.click(thread.last_message, thread.last_message.labels[0])
    _, _, _, after = await bot.service.load(1)
    assert after.seats[after.active] == "s0"
    desc = description(thread.last_message)
    assert desc.count("\N{BULLET}") > 12  # more than the base's 12 lines
    for seat in ("s1", "s2", "s3"):
        assert f"\N{BULLET} It is {names[seat]}'s turn." in desc
    assert desc.endswith("or move a card on your board.")


# -- take: cost labels, disabled states ---------------------------------------------------


async def test_take_buttons_show_costs_and_disable_what_cannot_be_paid(la):
    world, bot = la
    await start(world, bot)
    # Seed 1, takes only: after 6 actions Tomasz (s1) holds 3 clovers, 1 carrot and the row
    # is alpaca, alpaca, llama, alpaca, llama, alpaca.
    state = await drive_takes(world, bot, lambda s: s.phase == "turn" and s.turn_no >= 2)
    assert state.seats[state.active] == "s1"
    assert (state.players[1].clovers, state.players[1].carrots) == (3, 1)
    thread = world.channel((await bot.service.get(1)).thread_id)
    table = thread.last_message
    assert table.labels == [
        "Take 1 (free)", "Take 2 (1🥕)", "Take 3 (2🍀 1🥕)", "Take 4 (3🍀 1🥕)",
        "Take 5 (can't pay)", "Take 6 (can't pay)", "Move a card", "My hand", "Watch",
    ]
    assert [table.is_disabled(f) for f in table.labels[:7]] == [False] * 4 + [True] * 2 + [False]
    tomasz = world.member("Tomasz")
    assert headline(table) == f"<@{tomasz.id}>"
    v = await version(bot)
    await tomasz.click(table, "Take 3 (2🍀 1🥕)")
    _, _, _, after = await bot.service.load(1)
    assert after.version == v + 1 and after.phase == "choose_space"
    # Paid 2 clovers and 1 carrot, picked up what lay on card 3.
    on3 = (state.row[2].clovers, state.row[2].carrots)
    assert on3 == (1, 0)
    assert (after.players[1].clovers, after.players[1].carrots) == (2, 0)
    grid = thread.last_message
    assert grid.id == table.id  # same turn: the table is edited in place, no second ping
    board = after.players[1].board
    assert [grid.is_disabled(lab) for lab in grid.labels[:9]] == [c is not None for c in board]
    assert grid.labels[:9] == [
        f"{i + 1} · free" if c is None else f"{i + 1} · {cards_by_id()[c].short()}"
        for i, c in enumerate(board)
    ]
    assert "**Tomasz** is placing **" in description(grid)


# -- keep treats --------------------------------------------------------------------------


async def test_keep_treats_select_offers_the_splits(la):
    world, bot = la
    await start(world, bot)
    state = await drive(world, bot, lambda s: s.phase == "keep_treats")
    # Seed 1: Maya holds 5 clovers and 6 carrots; the excess goes onto card 1.
    assert state.seats[state.active] == "s0"
    assert (state.keep.clovers, state.keep.carrots, state.keep.target) == (5, 6, 0)
    thread = world.channel((await bot.service.get(1)).thread_id)
    table = thread.last_message
    sel = table.selects()[0]
    assert [o["label"] for o in sel["options"]] == [
        "Keep 4 clovers, 6 carrots", "Keep 5 clovers, 5 carrots",
    ]
    assert [o["description"] for o in sel["options"]] == [
        "1 clover and 0 carrots go onto card 1", "0 clovers and 1 carrot go onto card 1",
    ]
    assert "**Maya** holds 11 treats (5🍀 6🥕) but may keep only 10" in description(table)
    # Someone else's choice is refused; state unchanged.
    v = await version(bot)
    tomasz, maya = world.member("Tomasz"), world.member("Maya")
    await tomasz.select(table, values=["Keep 4 clovers, 6 carrots"])
    assert headline(tomasz.last_reply) == "\N{NO ENTRY SIGN} It is Maya's turn."
    assert await version(bot) == v
    row1 = (state.row[0].clovers, state.row[0].carrots)
    await maya.select(table, values=["Keep 5 clovers, 5 carrots"])
    _, _, _, after = await bot.service.load(1)
    assert (after.players[0].clovers, after.players[0].carrots) == (5, 5)
    assert (after.row[0].clovers, after.row[0].carrots) == (row1[0], row1[1] + 1)
    assert after.phase == "choose_space"
    assert "Maya keeps 5 clovers and 5 carrots and puts 1 carrot on card 1 of the row." in \
        description(thread.last_message)


# -- full board -----------------------------------------------------------------------------


async def test_full_board_grid_names_the_card_each_space_replaces(la):
    world, bot = la
    await start(world, bot)
    state = await drive_takes(
        world, bot,
        lambda s: s.phase == "choose_space" and None not in s.players[s.active].board,
    )
    seat = state.seats[state.active]
    p = state.players[state.active]
    by_id = cards_by_id()
    thread = world.channel((await bot.service.get(1)).thread_id)
    table = thread.last_message
    assert table.labels[:9] == [f"{i + 1} · replace {by_id[c].short()}" for i, c in enumerate(p.board)]
    assert not any(table.is_disabled(lab) for lab in table.labels[:9])
    name = {"s0": "Maya", "s1": "Tomasz"}[seat]
    assert f"**{name}**'s board is full: **{by_id[state.held].short()}** replaces" in \
        description(table)
    member = world.member(name)
    old, held = p.board[3], state.held
    await member.click(table, table.labels[3])
    _, _, _, after = await bot.service.load(1)
    assert old in after.discard
    assert (after.players[state.active].board[3] in (held, None))  # None when it scored
    text = description(thread.last_message)
    assert (f"{name}'s board is full: {by_id[held].describe()} replaces "
            f"{by_id[old].describe()} on row 2, column 1.") in text


# -- move ---------------------------------------------------------------------------------


async def _after_setup(world, bot):
    members, thread = await start(world, bot)
    await members[0].click(thread.last_message, "5 · free")
    await members[1].click(thread.last_message, "5 · free")
    _, _, _, state = await bot.service.load(1)
    active = members[state.active]
    other = members[1 - state.active]
    return state, active, other, thread


async def test_move_picks_from_space_then_to_space(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    table = thread.last_message
    assert not table.is_disabled("Move a card")
    # The other player cannot open the move panel.
    await other.click(table, "Move a card")
    assert headline(other.last_reply) == f"\N{NO ENTRY SIGN} It is {active.name}'s turn."
    await active.click(table, "Move a card")
    panel = active.last_reply
    assert panel.ephemeral
    card = cards_by_id()[state.players[state.active].board[4]].short()
    assert panel.labels == [*GRID_FREE[:4], f"5 · {card}", *GRID_FREE[5:]]
    assert [panel.is_disabled(lab) for lab in panel.labels] == [True] * 4 + [False] + [True] * 4
    await active.click(panel, f"5 · {card}")
    panel = active.last_reply
    assert headline(panel) == f"Move **{card}** from space 5 to which free space?"
    assert panel.labels == [*GRID_FREE[:4], f"5 · {card} (moving)", *GRID_FREE[5:], "Back"]
    await active.click(panel, "Back")  # the same panel shows the from-grid again
    assert active.last_reply.id == panel.id
    assert headline(panel) == "Move a card: which card moves? (spaces 1-9, row by row)"
    await active.click(panel, f"5 · {card}")
    assert panel.is_disabled(f"5 · {card} (moving)") and not panel.is_disabled("1 · free")
    v = await version(bot)
    await active.click(panel, "1 · free")
    _, _, _, after = await bot.service.load(1)
    assert after.version == v + 1
    board = after.players[state.active].board
    assert board[0] == state.players[state.active].board[4] and board[4] is None
    assert after.seats[after.active] != state.seats[state.active]  # the turn passed
    assert "from row 2, column 2 to row 1, column 1." in description(thread.last_message)
    assert headline(panel).startswith("Moving ") and rows(panel) == []


async def test_move_is_disabled_with_a_full_board(la):
    world, bot = la
    await start(world, bot)
    await drive_takes(
        world, bot,
        lambda s: s.phase == "turn" and None not in s.players[s.active].board,
    )
    thread = world.channel((await bot.service.get(1)).thread_id)
    assert thread.last_message.is_disabled("Move a card")


# -- refusals -----------------------------------------------------------------------------


async def test_refusals_not_your_turn_stale_and_not_in_game(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    table = thread.last_message
    v = await version(bot)
    await other.click(table, "Take 1 (free)")
    assert other.last_reply.ephemeral
    assert headline(other.last_reply) == f"\N{NO ENTRY SIGN} It is {active.name}'s turn."
    omar = world.member("Omar")
    await omar.click(table, "Take 1 (free)")
    assert headline(omar.last_reply) == "\N{NO ENTRY SIGN} You are not in this game."
    assert await version(bot) == v
    # A move panel opened before the table moved on is stale.
    await active.click(table, "Move a card")
    panel = active.last_reply
    await active.click(table, "Take 1 (free)")
    assert await version(bot) == v + 1
    await active.click(panel, panel.labels[4])
    reply = active.last_reply
    assert reply.ephemeral and headline(reply) == "This table has moved on. Here is the current one:"
    assert reply.filenames == ["table.png"] and title(reply) == "Llamas & Alpacas #1"
    assert await version(bot) == v + 1


async def test_an_old_table_button_is_answered_with_the_current_table(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    table = thread.last_message
    await active.click(table, "Take 1 (free)")
    assert thread.last_message.id == table.id  # a step inside the turn edits the table
    free = [lab for lab in table.labels if lab.endswith("\N{MIDDLE DOT} free")]
    # Retiring the old buttons (through the click's own response, an update of the
    # clicked message) is refused, so the old table stays clickable. (A 5xx is retried
    # by discord.py a second later, and would retire it then.)
    world.faults.fail("POST", r"^/interactions/\d+/[^/]+/callback$", 400, message="oops")
    await active.click(table, free[0])
    v = await version(bot)
    assert thread.last_message.id != table.id and table.components  # still clickable
    await active.click(table, free[1])
    reply = active.last_reply
    assert reply.ephemeral and headline(reply) == "This table has moved on. Here is the current one:"
    assert title(reply) == "Llamas & Alpacas #1" and reply.filenames == ["table.png"]
    assert f"**{other.name}**'s turn" in description(reply)
    assert await version(bot) == v


async def test_forged_or_out_of_range_components_are_refused_in_words(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    v = await version(bot)
    _, _, spec, st = await bot.service.load(1)
    seat = st.seats[st.active]
    legal = spec.engine.legal_actions(st, seat)
    key = decision_key(spec.engine.pending(st), legal)
    bad = "\N{NO ENTRY SIGN} This button is not one herdbot understands."
    moved = "This table has moved on. Here is the current one:"
    pick = "\N{NO ENTRY SIGN} Choose one of the options shown."
    cases = [
        (f"hb:g:1:x:a.{key}.{len(legal)}", None, bad),  # one past the legal actions
        (f"hb:g:1:x:a.{key}.9999", None, bad),
        (f"hb:g:1:x:o.{key}.zz", None, bad),  # no such panel
        (f"hb:g:1:x:o.{key}.mf0", None, bad),  # no card on space 1 to move
        (f"hs:g:1:x:s.{key}", [str(len(legal))], pick),
        (f"hs:g:1:x:s.{key}", ["x"], pick), (f"hs:g:1:x:s.{key}", ["\u00b2"], pick),
        (f"hb:g:1:x:a.{'0' * 10}.0", None, moved),  # a decision that never was
        (f"hb:g:1:{v}:tk.1", None, bad), (f"hb:g:1:{v}:st.3", None, bad),  # old codes
        (f"hb:g:1:{v}:zz", None, bad),
    ]
    for custom_id, values, answer in cases:
        await click_injected(world.sandbox, active, thread, custom_id, values=values)
        assert headline(active.last_reply) == answer, custom_id
        assert await version(bot) == v
    # A forged click of a legal index by the player not to act: the engine's refusal.
    await click_injected(world.sandbox, other, thread, f"hb:g:1:x:a.{key}.0")
    assert headline(other.last_reply) == f"\N{NO ENTRY SIGN} It is {active.name}'s turn."
    assert await version(bot) == v


async def test_my_hand_and_rules_example(la):
    world, bot = la
    state, active, other, thread = await _after_setup(world, bot)
    await other.click(thread.last_message, "My hand")
    text = headline(other.last_reply)
    assert other.last_reply.ephemeral and other.last_reply.filenames == ["my-board.png"]
    assert "This game has no hidden cards" in text
    assert "You have **0 points** and **3🍀 3🥕** (6 of at most 10 treats)." in text
    assert "Lines scored: none yet." in text
    [(closeup, alt)] = pictures(other.last_reply)
    assert closeup == "my-board.png"
    assert alt.startswith("Your board, close up: 0 points, 3 clovers, 3 carrots. ")
    me = state.players[1 - state.active]
    assert f"Row 2: free | {cards_by_id()[me.board[4]].short()} | free" in text
    await other.slash("rules", game=KEY)
    reply = other.last_reply
    assert reply.filenames == ["example.png"]
    assert reply.file("example.png")[:8] == b"\x89PNG\r\n\x1a\n"


# -- leak ---------------------------------------------------------------------------------


def _words(card):
    return (card.describe(), card.short())


def hidden_only(state):
    """Card kinds whose every copy is in the draw pile: naming one would reveal it."""
    by_id = cards_by_id()
    total = Counter(_words(c) for c in by_id.values())
    in_draw = Counter(_words(by_id[c]) for c in state.draw)
    return {k for k, n in in_draw.items() if n == total[k]}


def leaks(texts, kinds):
    return sorted({w for t in texts for k in kinds for w in k if w in t})


def message_texts(m):
    out = [m.text, *m.filenames, *m.labels]
    for sel in m.selects():
        out += [o.get("label", "") + " " + (o.get("description") or "") for o in sel.get("options", [])]
    return out


async def test_no_message_names_a_card_still_hidden_in_the_draw_pile(la):
    world, bot = la
    seen: set[tuple[int, int]] = set()
    checked = {"messages": 0, "kinds": 0}

    async def check(ctx):
        _, _, _, state = await bot.service.load(ctx.game_id)
        kinds = hidden_only(state)
        checked["kinds"] += len(kinds)
        msgs = list(ctx.thread.all_messages) + [m for mem in world.members.values()
                                                for m in (*mem.ephemerals, *mem.dms)]
        for m in msgs:
            # A table is edited in place within a turn: every version of it is checked.
            if (m.id, m.edits) in seen:
                continue
            seen.add((m.id, m.edits))
            checked["messages"] += 1
            assert leaks(message_texts(m), kinds) == [], m.text

    # The checker does catch a message naming a card whose every copy is still face down.
    probe = SPEC.engine.new_game(["s0", "s1"], seed=1)
    kinds = hidden_only(probe)
    hidden = next(cards_by_id()[c] for c in reversed(probe.draw)
                  if _words(cards_by_id()[c]) in kinds)
    assert leaks([f"Next card: {hidden.short()}"], kinds) == [hidden.short()]
    assert leaks([f"Next card: {hidden.describe()}"], kinds) == [hidden.describe()]
    await play_game(world, bot, game=KEY, players=2, seed=9, game_seed=9, extra_clicks=check)
    assert checked["messages"] > 50 and checked["kinds"] > 100

