"""Take-backs with the table's consent through the real bot in the sandbox (tiny game:
Add and Wait are its take-back points): consent, refusal, the minute running out, the
lobby option, AI seats, /game log, and requests at once."""

from __future__ import annotations

import asyncio

from bot.games.takeback import replay_log
from tests.discord.test_house_rules import options_field
from tests.discord.test_live_service import expire
from tests.support import headline, rows, table_lines, texts


def pinged(message) -> list[int]:
    return [int(u["id"]) for u in message.data["mentions"]]


async def start(world, names=("Ana", "Bo", "Cy"), *, rated=False, ai=0):
    """A tiny game of ``names`` (and ``ai`` AI seats), take-backs on by default (unrated)."""
    members = [world.member(n) for n in names]
    if rated:
        await members[0].slash("play", game="tiny")
    else:
        await members[0].slash("play", game="tiny", rated=False)
    lobby = members[0].last_reply
    for m in members[1:]:
        await m.click(lobby, "Join")
    for _ in range(ai):
        await members[0].click(lobby, "Add AI seat")
    await members[0].click(lobby, "Start")
    return members, lobby, lobby.thread


async def state_of(sb, game_id=1):
    record = await sb.bot.store.get_game(game_id)
    return record, sb.bot.registry["tiny"].engine.load_state(record.state)


def request_of(thread):
    return next(m for m in reversed(thread.all_messages)
                if any("asks to take back" in t for t in texts(m)))


async def test_everyone_allows_and_the_move_is_taken_back(world, sb):
    (ana, bo, cy), _, thread = await start(world)
    await ana.click(thread.last_message, "Add 2")
    _, before = await state_of(sb)
    assert (before.counter, before.turn, before.version) == (2, 1, 1)
    await ana.slash("game takeback", in_channel=thread)
    assert ana.last_reply.ephemeral
    assert headline(ana.last_reply) == ("The other players are asked; they have 60 seconds "
                                        "to allow it.")
    request = request_of(thread)
    assert not request.ephemeral
    assert pinged(request) == [bo.id, cy.id]
    assert texts(request)[0] == ("\N{LEFTWARDS ARROW WITH HOOK} **Ana** asks to take back their "
                                 "last move: Ana adds 2: 2.")
    assert texts(request)[1].startswith(f"<@{bo.id}> <@{cy.id}>: allow it? One Refuse, or no "
                                        "answer <t:")
    await bo.click(request, "Allow")
    assert texts(request)[1].startswith(f"<@{cy.id}>: allow it?")
    assert texts(request)[2] == "Allowed by Bo."
    _, still = await state_of(sb)
    assert still.counter == 2  # one Allow is not enough
    await cy.click(request, "Allow")
    assert texts(request)[1] == "Everyone allowed it: the move is taken back."
    assert rows(request) == []
    record, after = await state_of(sb)
    assert (after.counter, after.turn, after.version) == (0, 0, 2)
    assert after.model_dump() == {**(await _replayed(sb, 0)), "version": 2}
    assert "\N{BULLET} Ana took back their last move, with the table's consent." in table_lines(thread)
    # the log shows the move and its take-back
    await bo.slash("game log", in_channel=thread)
    log = headline(bo.last_reply)
    assert "1. Ana adds 2: 2." in log
    assert "2. Ana took back their last move, with the table's consent." in log
    # the stored log replays exactly to the stored state, take-back included
    first = sb.bot.registry["tiny"].engine.new_game(after.seats, seed=after.seed,
                                                    options=_options(sb, record))
    rows_ = [(r.seat, r.action) for r in await sb.bot.store.actions(1)]
    assert [r[1]["type"] for r in rows_] == ["add", "take_back"]
    history = replay_log(sb.bot.registry["tiny"].engine, first, rows_)
    assert history[2].model_dump_json() == after.model_dump_json()
    # Ana plays on from the restored turn
    await ana.click(thread.last_message, "Add 1")
    _, played = await state_of(sb)
    assert (played.counter, played.turn, played.version) == (1, 1, 3)


async def _replayed(sb, version):
    record, state = await state_of(sb)
    first = sb.bot.registry["tiny"].engine.new_game(state.seats, seed=state.seed,
                                                    options=_options(sb, record))
    history = replay_log(sb.bot.registry["tiny"].engine, first,
                         [(r.seat, r.action) for r in await sb.bot.store.actions(1)])
    return {**history[version].model_dump()}


def _options(sb, record):
    spec = sb.bot.registry["tiny"]
    return sb.bot.service.engine_options(spec, record.options, len(spec.engine.load_state(
        record.state).seats))


async def test_one_refusal_keeps_the_move_and_the_same_move_is_not_asked_again(world, sb):
    (ana, bo, cy), _, thread = await start(world)
    await ana.click(thread.last_message, "Add 1")
    await ana.slash("game takeback", in_channel=thread)
    request = request_of(thread)
    await bo.click(request, "Allow")
    await cy.click(request, "Refuse")
    assert texts(request)[1] == "Refused by Cy: nothing changed."
    assert rows(request) == []
    _, state = await state_of(sb)
    assert (state.counter, state.turn, state.version) == (1, 1, 1)
    await ana.slash("game takeback", in_channel=thread)
    assert headline(ana.last_reply).startswith(
        "\N{NO ENTRY SIGN} The table refused to take back this move; you may ask again <t:")
    assert request_of(thread) is request  # no second request


async def test_nobody_answering_in_time_is_a_refusal(world, sb, clock):
    (ana, bo, cy), _, thread = await start(world)
    await ana.click(thread.last_message, "Add 1")
    await ana.slash("game takeback", in_channel=thread)
    request = request_of(thread)
    await bo.click(request, "Allow")
    await expire(sb, clock, 59)
    assert rows(request) != []
    await expire(sb, clock, 1)
    assert texts(request)[1] == ("Not everyone answered within 60 seconds, which counts as a "
                                 "refusal: nothing changed.")
    assert rows(request) == []
    _, state = await state_of(sb)
    assert (state.counter, state.turn, state.version) == (1, 1, 1)
    # a late Allow changes nothing either (the button is gone; a forged click is refused)
    assert await sb.bot.store.timer(1, "takeback") is None


async def test_a_move_meanwhile_makes_the_request_void(world, sb, clock):
    (ana, bo, cy), _, thread = await start(world)
    await ana.click(thread.last_message, "Add 1")
    await ana.slash("game takeback", in_channel=thread)
    request = request_of(thread)
    table = [m for m in thread.all_messages if rows(m) and m is not request][-1]
    await bo.click(table, "Add 1")  # Bo plays instead of answering
    await cy.click(request, "Allow")
    assert headline(cy.last_reply) == ("\N{NO ENTRY SIGN} That take-back request is over: the "
                                       "game moved on.")
    await expire(sb, clock, 60)
    _, state = await state_of(sb)
    assert (state.counter, state.version) == (2, 2)
    # Ana's move is no longer the last: she cannot ask
    await ana.slash("game takeback", in_channel=thread)
    assert headline(ana.last_reply) == ("\N{NO ENTRY SIGN} You can take back only your own last "
                                        "move, before anyone else moves.")


async def test_who_may_answer(world, sb):
    (ana, bo, cy), _, thread = await start(world)
    await ana.click(thread.last_message, "Add 1")
    await ana.slash("game takeback", in_channel=thread)
    request = request_of(thread)
    await ana.click(request, "Allow")
    assert headline(ana.last_reply) == ("\N{NO ENTRY SIGN} You asked for this take-back: the "
                                        "other players answer it.")
    di = world.member("Di")
    await di.click(request, "Allow")
    assert headline(di.last_reply) == "\N{NO ENTRY SIGN} You are not in this game."
    await bo.click(request, "Allow")
    await bo.click(request, "Allow")
    assert headline(bo.last_reply) == ("\N{NO ENTRY SIGN} You already allowed it; waiting for "
                                       "the others.")


async def test_ai_seats_allow_at_once(world, sb):
    (ana,), _, thread = await start(world, names=("Ana",), ai=1)
    await ana.click(thread.last_message, "Wait")  # Wait keeps Ana's turn
    await ana.slash("game takeback", in_channel=thread)
    assert headline(ana.last_reply) == "Your last move is taken back."
    assert not any("asks to take back" in t for m in thread.all_messages for t in texts(m))
    _, state = await state_of(sb)
    assert (state.waiting, state.version) == (False, 2)
    # after the AI moved, Ana's Add cannot be taken back
    await ana.click(thread.last_message, "Add 1")
    await ana.slash("game takeback", in_channel=thread)
    assert headline(ana.last_reply) == ("\N{NO ENTRY SIGN} You can take back only your own last "
                                        "move, before anyone else moves.")


async def test_rated_games_have_take_backs_off_until_the_lobby_turns_them_on(world, sb):
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    assert "Take-backs: off" in options_field(lobby)
    await ana.click(lobby, "Take-backs: off")
    assert "Take-backs: on" in options_field(lobby)
    await ana.click(lobby, "Take-backs: on")
    await ana.click(lobby, "Start")
    thread = lobby.thread
    await ana.click(thread.last_message, "Add 1")
    await ana.slash("game takeback", in_channel=thread)
    assert headline(ana.last_reply) == ("\N{NO ENTRY SIGN} Take-backs are off in this game (a "
                                        "lobby option).")


async def test_requests_at_once_one_wins(world, sb):
    (ana, bo, cy), _, thread = await start(world)
    await ana.click(thread.last_message, "Add 1")
    its = await asyncio.gather(ana.slash("game takeback", in_channel=thread),
                               ana.slash("game takeback", in_channel=thread),
                               bo.slash("game takeback", in_channel=thread))
    pending = ("\N{NO ENTRY SIGN} A take-back request is already waiting for answers in "
               "this game: one at a time.")
    # one of Ana's two wins; her other and Bo's, handled while it waits, get the sentence
    assert sorted(headline(it.last_touched) for it in its[:2]) == [
        "The other players are asked; they have 60 seconds to allow it.", pending]
    assert headline(its[2].last_touched) == pending
    requests = [m for m in thread.all_messages
                if any("asks to take back" in t for t in texts(m))]
    assert len(requests) == 1


async def test_a_seat_the_ai_plays_cannot_ask(world, sb):
    (ana, bo), _, thread = await start(world, names=("Ana", "Bo"))
    await ana.click(thread.last_message, "Wait")
    await ana.slash("game leave", in_channel=thread)
    await ana.slash("game takeback", in_channel=thread)
    assert headline(ana.last_reply) == ("\N{NO ENTRY SIGN} The AI is playing your seat: press "
                                        "I'm back first.")
