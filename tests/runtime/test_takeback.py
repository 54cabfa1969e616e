"""Take-backs in the service with the shipped games: only the asker's last move, only a
take-back point, one request at a time, the log replays exactly, and the request survives
a restart of the service."""

from __future__ import annotations

import pytest

from bot.app import builtin_games
from bot.games.llamas_alpacas.models import Place, Take
from bot.games.takeback import replay_log
from bot.runtime import GameError, GameService
from bot.runtime.takeback import TakeBackRequest, take_backs_on

REGISTRY = builtin_games()


async def _game(service: GameService, key: str, humans: int = 3) -> int:
    lobby = await service.create_lobby(key, guild_id=1, channel_id=2, host_id=10,
                                       host_name="Ana", seed=7,
                                       options={"turn_timer": "off", "rated": False})
    gid = lobby.record.id
    for n in range(1, humans):
        await service.join(gid, 10 + n, f"P{n}")
    await service.start(gid, 10)
    return gid


async def _refused(coro) -> tuple[str, str]:
    with pytest.raises(GameError) as info:
        await coro
    return info.value.code, info.value.message


def test_the_default_follows_rated():
    assert take_backs_on({}) is False
    assert take_backs_on({"rated": False}) is True
    assert take_backs_on({"rated": False, "take_backs": False}) is False
    assert take_backs_on({"take_backs": True}) is True


async def test_llamas_alpacas_only_the_last_move_and_only_a_take_back_point(store, clock):
    service = GameService(store, REGISTRY, clock=clock)
    gid = await _game(service, "llamas-alpacas")
    await service.act(gid, "s0", Place(space=4))
    await service.act(gid, "s1", Place(space=4))
    # s0 moved, then s1: s0's move is not the last
    assert await _refused(service.ask_take_back(gid, 10)) == (
        "no_take_back", "You can take back only your own last move, before anyone else moves.")
    asked = await service.ask_take_back(gid, 11)
    assert (asked.status, asked.request.version, asked.request.asked) == ("asked", 2, [10, 12])
    assert await _refused(service.ask_take_back(gid, 11)) == (
        "take_back_pending", "A take-back request is already waiting for answers in this game: "
        "one at a time.")
    await service.answer_take_back(gid, 10, 2, True)
    done = await service.answer_take_back(gid, 12, 2, True)
    assert done.status == "done"
    record, seats, spec, state = await service.load(gid)
    assert state.version == 3 and state.players[1].start_card is not None
    await service.act(gid, "s1", Place(space=0))
    await service.act(gid, "s2", Place(space=8))
    record, seats, spec, state = await service.load(gid)
    first = state.seats[state.first]
    user = 10 + state.seats.index(first)
    await service.act(gid, first, Take(position=1))
    assert await _refused(service.ask_take_back(gid, user)) == (
        "not_take_back_point", "That move cannot be taken back: only a move that shows "
        "nothing hidden (no card drawn or seen, no random draw) can be.")
    # the log, take-back included, replays to the stored state exactly
    record, seats, spec, state = await service.load(gid)
    options = service.engine_options(spec, record.options, len(seats))
    start = spec.engine.new_game(state.seats, seed=record.seed, options=options)
    log = await store.actions(gid)
    assert [r.action["type"] for r in log] == ["place", "place", "take_back", "place", "place",
                                               "take"]
    history = replay_log(spec.engine, start, [(r.seat, r.action) for r in log])
    assert history[record.version].model_dump_json() == state.model_dump_json()


@pytest.mark.parametrize("key,revealing", [("pacapaca", {"type": "draw2"}),
                                            ("llamas-unleashed", None)])
async def test_revealing_moves_are_refused(store, clock, key, revealing):
    service = GameService(store, REGISTRY, clock=clock)
    gid = await _game(service, key, humans=2)
    record, seats, spec, state = await service.load(gid)
    seat = spec.engine.pending(state).seats[0]
    user = next(s.user_id for s in seats if s.seat == seat)
    if revealing is None:  # Unleashed: a Baby chosen at random is a random draw
        revealing = {"type": "baby", "card": None}
    await service.act(gid, seat, revealing)
    assert (await _refused(service.ask_take_back(gid, user)))[0] == "not_take_back_point"


async def test_a_request_survives_a_restart(store, clock):
    service = GameService(store, REGISTRY, clock=clock)
    gid = await _game(service, "llamas-alpacas", humans=2)
    await service.act(gid, "s0", Place(space=4))
    await service.ask_take_back(gid, 10)
    await service.note_take_back_message(gid, 1, 555)
    again = GameService(store, REGISTRY, clock=clock)  # a new process on the same store
    timer = await store.timer(gid, "takeback")
    placed = (await store.actions(gid))[-1].events[0]["text"]
    assert placed.startswith("s0 places the starting card, ")
    assert TakeBackRequest.of(timer) == TakeBackRequest(
        "s0", 10, 1, [11], [], clock.now() + 60.0, 555, said=placed)
    done = await again.answer_take_back(gid, 11, 1, True)
    assert done.status == "done" and done.update is not None
    assert done.update.state.version == 2
    assert await store.timer(gid, "takeback") is None


async def test_pacapaca_opening_a_negotiation_until_the_partner_speaks(store, clock):
    service = GameService(store, REGISTRY, clock=clock)
    gid = await _game(service, "pacapaca", humans=2)
    record, seats, spec, state = await service.load(gid)
    first = state.seats[state.active]
    other = next(s for s in state.seats if s != first)
    user = {s.seat: s.user_id for s in seats}
    await service.act(gid, first, {"type": "draw2"})
    record, seats, spec, state = await service.load(gid)
    await service.act(gid, first, {"type": "keep", "card": state.drawn[0]})
    assert (await _refused(service.ask_take_back(gid, user[first])))[0] == "not_take_back_point"
    await service.act(gid, other, {"type": "negotiate", "partner": first})
    asked = await service.ask_take_back(gid, user[other])
    assert (asked.status, asked.request.asked) == ("asked", [user[first]])
    refused = await service.answer_take_back(gid, user[first], asked.request.version, False)
    assert refused.status == "refused"
    record, seats, spec, state = await service.load(gid)
    neck = state.alpacas[first].neck[-1]
    await service.act(gid, first, {"type": "propose", "give": [neck], "get": []})
    assert await _refused(service.ask_take_back(gid, user[other])) == (
        "no_take_back", "You can take back only your own last move, before anyone else moves.")


async def test_unleashed_a_named_baby_until_another_player_chooses(store, clock):
    service = GameService(store, REGISTRY, clock=clock)
    gid = await _game(service, "llamas-unleashed", humans=3)
    record, seats, spec, state = await service.load(gid)
    await service.act(gid, "s0", {"type": "baby", "card": state.nursery[0]})
    await service.act(gid, "s1", {"type": "baby", "card": state.nursery[1]})
    assert (await _refused(service.ask_take_back(gid, 10)))[0] == "no_take_back"
    asked = await service.ask_take_back(gid, 11)
    assert (asked.status, asked.request.version, asked.request.asked) == ("asked", 2, [10, 12])
    await service.answer_take_back(gid, 10, 2, True)
    done = await service.answer_take_back(gid, 12, 2, True)
    assert done.update is not None and done.update.state.babies_chosen == ["s0"]
    assert done.update.steps[0].events[0].text == (
        "s1 took back their last move, with the table's consent.")


async def test_two_processes_asking_at_once_store_one_request(store, clock):
    """Two services on one store (two processes) each pass their own checks; the store
    keeps one request about the version, and the other ask is refused in words."""
    first = GameService(store, REGISTRY, clock=clock)
    second = GameService(store, REGISTRY, clock=clock)
    gid = await _game(first, "llamas-alpacas", humans=2)
    await first.act(gid, "s0", Place(space=4))
    record = await store.get_game(gid)
    row = TakeBackRequest("s0", 10, 1, [11], due_at=clock.now() + 60).row(gid)
    assert await store.claim_timer(*row, version=record.version) is True
    assert await store.claim_timer(*row, version=record.version) is False
    assert await store.claim_timer(*row, version=record.version + 1) is False  # stale
    assert await _refused(second.ask_take_back(gid, 10)) == (
        "take_back_pending", "A take-back request is already waiting for answers in this "
        "game: one at a time.")
    await store.delete_timer(gid, "takeback")
    asked = await second.ask_take_back(gid, 10)
    assert asked.status == "asked"
    assert await _refused(first.ask_take_back(gid, 10)) == (
        "take_back_pending", "A take-back request is already waiting for answers in this "
        "game: one at a time.")
