"""The replay viewer end to end (sandbox, tiny game): ``/game replay`` opens it to the
member alone, its buttons step and jump, they work after a restart, and the refusals
(another server's game, a running one, a quarantined one, no such game) are sentences.
A game of 2,000 moves opens and jumps in bounded work (states kept every 32 moves)."""

from __future__ import annotations

import sqlite3
import time

from bot.discord.replay_view import jump_steps
from bot.runtime.replays import CHECKPOINT_EVERY
from tests.discord.conftest import make_bot
from tests.support import parts, texts
from tests.support.tinygame import TinyEngine, Wait

NO = "\N{NO ENTRY SIGN} "


def footer(m) -> str:  # type: ignore[no-untyped-def]
    return parts(m)["footer"]


async def finished_game(world, sb) -> tuple:
    """Tiny Race #1 of Ana (host) and Bo with an AI seat, target 3, played to its end."""
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Add AI seat")
    record = await sb.bot.store.get_game(1)
    await sb.bot.store.update_game(1, options={**record.options, "target": 3})
    await ana.click(lobby, "Start")
    thread = lobby.thread
    await ana.click(thread.last_message, "Add 1")
    await bo.click(thread.last_message, "Add 2")
    assert (await sb.bot.store.get_game(1)).status == "finished"
    return ana, bo, thread


async def test_replay_steps_through_a_finished_game_privately(world, sb):
    ana, bo, thread = await finished_game(world, sb)
    record = await sb.bot.store.get_game(1)
    log = await sb.bot.store.actions(1)
    last = record.version
    assert len(log) == last == 2
    count = len(thread.all_messages)
    await ana.slash("game replay", in_channel=thread)
    viewer = ana.last_reply
    assert viewer.ephemeral and viewer.flags & (1 << 15)  # only Ana, a V2 message
    assert [m for m in thread.all_messages[count:] if not m.ephemeral] == []
    assert parts(viewer)["heading"] == "Replay: Tiny Race #1"
    assert footer(viewer) == "Tiny Race #1 \N{MIDDLE DOT} Move 0 of 2 \N{MIDDLE DOT} only you see this replay"
    assert texts(viewer)[1] == "\N{BULLET} The game begins: the cards are dealt."
    assert viewer.labels == ["First", "Previous", "Next", "Last", "Export"]
    assert [b.get("disabled", False) for b in viewer.buttons()] == [True, True, False, False, False]
    assert [a.filename for a in viewer.attachments] == ["replay.png"]
    options = viewer.selects()[0]["options"]
    assert [o["label"] for o in options] == ["Move 0", "Move 1", "Move 2 (end)"]
    assert [o.get("description") for o in options] == ["The deal", "Ana adds 1: 1.",
                                                       "Bo adds 2: 3."]
    # Next: move 1, Ana's move, in words with her name
    await ana.click(viewer, "Next")
    assert ana.last_reply.id == viewer.id
    assert footer(viewer).startswith("Tiny Race #1 \N{MIDDLE DOT} Move 1 of 2")
    assert texts(viewer)[1] == "\N{BULLET} Ana adds 1: 1."
    # the jump select to the end: the final scores under the picture, Next and Last off
    await ana.select(viewer, ["Move 2 (end)"])
    assert footer(viewer).startswith("Tiny Race #1 \N{MIDDLE DOT} Move 2 of 2")
    assert texts(viewer)[1] == "\N{BULLET} Bo adds 2: 3."
    assert "### Tiny Race #1: final scores" in texts(viewer)
    assert [b.get("disabled", False) for b in viewer.buttons()] == [False, False, True, True, False]
    await ana.click(viewer, "First")
    assert footer(viewer).startswith("Tiny Race #1 \N{MIDDLE DOT} Move 0 of 2")
    # the member's private move is not told: the events stored for everyone are
    assert not any("token" in t for t in texts(viewer))
    # a member who did not play may watch it too (any finished game of the server)
    ed = world.member("Ed")
    await ed.slash("game replay", number=1)
    assert ed.last_reply.ephemeral and footer(ed.last_reply).startswith(
        "Tiny Race #1 \N{MIDDLE DOT} Move 0 of 2")


async def test_the_viewer_buttons_work_after_a_restart(world, clock, tmp_path):
    db = tmp_path / "replay.sqlite3"
    sb = await world.connect(make_bot(db, clock))
    ana, bo, thread = await finished_game(world, sb)
    await ana.slash("game replay", in_channel=thread)
    viewer = ana.last_reply
    await ana.click(viewer, "Next")
    await world.disconnect()
    sb = await world.connect(make_bot(db, clock))
    await ana.click(viewer, "Next")
    assert ana.last_reply.id == viewer.id
    assert footer(viewer).startswith("Tiny Race #1 \N{MIDDLE DOT} Move 2 of 2")
    await ana.click(viewer, "First")
    assert footer(viewer).startswith("Tiny Race #1 \N{MIDDLE DOT} Move 0 of 2")
    await ana.select(viewer, ["Move 1"])
    assert footer(viewer).startswith("Tiny Race #1 \N{MIDDLE DOT} Move 1 of 2")
    await ana.click(viewer, "Last")
    assert footer(viewer).startswith("Tiny Race #1 \N{MIDDLE DOT} Move 2 of 2")
    await world.disconnect()


async def test_replays_refused_in_a_sentence(world, clock, tmp_path):
    other = world.add_guild("Elsewhere")
    db = tmp_path / "replay.sqlite3"
    sb = await world.connect(make_bot(db, clock))
    ana, bo, thread = await finished_game(world, sb)
    cy = world.member("Cy")
    # a game of another server: told as if there were none
    await cy.slash("game replay", in_channel=other, number=1)
    assert cy.last_reply.ephemeral and cy.last_reply.content == (
        NO + "There is no game #1 in this server.")
    await cy.slash("game replay", number=99)
    assert cy.last_reply.content == NO + "There is no game #99 in this server."
    # outside a game's thread without a number
    await cy.slash("game replay")
    assert cy.last_reply.content == NO + (
        "Which game? Use /game replay in the game's thread, or give its number (the last "
        "line of its tables shows it).")
    # a running game
    await cy.slash("play", game="tiny")
    lobby = cy.last_reply
    await world.member("Di").click(lobby, "Join")
    await cy.slash("game replay", number=2)
    assert cy.last_reply.content == NO + "Tiny Race #2 was never played, so there is nothing to replay."
    await cy.click(lobby, "Start")
    await cy.slash("game replay", number=2)
    assert cy.last_reply.content == NO + (
        "Tiny Race #2 is still being played: its replay opens once it is over.")
    # a forged step past the end, and a forged value
    await ana.slash("game replay", in_channel=thread)
    viewer = ana.last_reply
    await sb.run_component(ana, viewer, {"custom_id": "hb:r:1:x:n9", "component_type": 2})
    assert ana.last_reply.content == NO + "Tiny Race #1 has 2 moves; there is no move 9."
    await sb.run_component(ana, viewer, {"custom_id": viewer.selects()[0]["custom_id"],
                                         "component_type": 3, "values": ["x"]})
    assert ana.last_reply.content == NO + "Choose one of the moves shown."
    # a quarantined game (its saved state no longer reads)
    await world.disconnect()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET state='{not json' WHERE id=1")
    sb = await world.connect(make_bot(db, clock))
    await ana.click(viewer, "Next")
    assert ana.last_reply.content == NO + (
        "Tiny Race #1's saved data cannot be read, so it cannot be replayed.")
    await ana.slash("game replay", number=1)
    assert ana.last_reply.content == NO + (
        "Tiny Race #1's saved data cannot be read, so it cannot be replayed.")
    await world.disconnect()


async def test_a_game_of_2000_moves_opens_and_jumps_in_bounded_work(world, sb, capsys,
                                                                     monkeypatch):
    """A long game written straight into the store (waits and their ends for 2,000 moves,
    then the adds to the target); the viewer opens at move 0, Last, a jump and Previous each
    play at most CHECKPOINT_EVERY engine steps from a kept state (timings printed)."""
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    # Wait is offered on every turn here (the tiny game forbids it on every fifth), so the
    # race to 20 lasts as long as the test needs.
    offered = TinyEngine.legal_actions
    monkeypatch.setattr(TinyEngine, "legal_actions", lambda self, state, player: (
        [*offered(self, state, player), Wait()] if not state.waiting and not state.winner
        and Wait() not in offered(self, state, player) else offered(self, state, player)))
    await ana.click(lobby, "Start")
    svc = sb.bot.service
    _, seats, spec, state = await svc.load(1)
    engine = spec.engine
    moves = []
    while engine.result(state) is None:
        seat = engine.pending(state).seats[0]
        legal = engine.legal_actions(state, seat)
        action = next((a for a in legal if a.type in ("wait", "stop_waiting")), legal[0]) \
            if len(moves) < 2000 else next(a for a in legal if a.type in ("add", "stop_waiting"))
        state, events = engine.apply(state, seat, action)
        moves.append((state.version, seat, action.model_dump(), [e.model_dump() for e in events]))
    await sb.bot.store.commit_moves(1, expected_version=0, state=state.model_dump_json(),
                                    moves=moves, status="finished")
    last = len(moves)
    assert last > 2000
    timings = {}
    start = time.perf_counter()
    await ana.slash("game replay", number=1)
    timings["open"] = time.perf_counter() - start
    viewer = ana.last_reply
    assert footer(viewer).startswith(f"Tiny Race #1 \N{MIDDLE DOT} Move 0 of {last}")
    labels = [o["label"] for o in viewer.selects()[0]["options"]]
    assert len(labels) == 25 and labels[0] == "Move 0" and labels[-1] == f"Move {last} (end)"
    assert [int(o["value"]) for o in viewer.selects()[0]["options"]] == jump_steps(last)
    for what, act in (("last", lambda: ana.click(viewer, "Last")),
                      ("jump", lambda: ana.select(viewer, [labels[12]])),
                      ("previous", lambda: ana.click(viewer, "Previous"))):
        start = time.perf_counter()
        await act()
        timings[what] = time.perf_counter() - start
    step = jump_steps(last)[12] - 1
    assert footer(viewer).startswith(f"Tiny Race #1 \N{MIDDLE DOT} Move {step} of {last}")
    replay = sb.bot.replays._kept[1]
    assert replay.checked and len(replay.kept) <= last // CHECKPOINT_EVERY + 1
    with capsys.disabled():
        print(f"\n2,000-move replay ({last} moves): " + ", ".join(
            f"{k} {v * 1000:.0f} ms" for k, v in timings.items()))
