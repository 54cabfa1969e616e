"""Several processes on one PostgreSQL database. Two GameServices, each on its own Store
(its own connection pool), stand for two ``herdbot run`` processes: their asyncio locks are
separate, so only the database serialises them. Conflicting moves apply once (the other gets
"This table has moved on."), a lobby started and cancelled at once ends up one or the other,
every due timer fires exactly once, and the timers a dead process had claimed are taken over
after the lease. Needs HERDBOT_TEST_DATABASE_URL."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.app import builtin_games
from bot.games.registry import Registry
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import Play
from bot.runtime import GameError, GameService, Update
from bot.store import Store
from cogs.unleashed import passing_in, window_of
from tests.games.unleashed.unleashed_helpers import build
from tests.support.databases import PG_URL, SKIP_REASON, databases
from tests.support.tinygame import Add, tiny_registry

MOVED_ON = ("stale", "This table has moved on.")
LOBBY_CLOSED = ("not_lobby", "This lobby is closed: the game has started or ended.")


@pytest_asyncio.fixture
async def pg_url(tmp_path) -> AsyncIterator[str]:
    """A fresh PostgreSQL schema's URL (skipped without a server)."""
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    async with databases("postgres", tmp_path) as new:
        yield str(await new())


@pytest_asyncio.fixture
async def two(pg_url, clock) -> AsyncIterator[tuple[GameService, GameService]]:
    """Two services ("processes") on one database, one clock; timer loops not started
    (each test fires timers explicitly)."""
    a = GameService(await Store.open(pg_url, clock=clock.now), tiny_registry(), clock=clock)
    b = GameService(await Store.open(pg_url, clock=clock.now), tiny_registry(), clock=clock)
    try:
        yield a, b
    finally:
        await a.store.close()
        await b.store.close()


async def started_game(service: GameService, host: int = 10) -> int:
    up = await service.create_lobby("tiny", guild_id=1, channel_id=2, host_id=host,
                                    host_name="Ana", seed=42)
    await service.join(up.record.id, host + 1, "Bo")
    await service.start(up.record.id, host)
    return up.record.id


def meet_before_commit(*services: GameService, once: bool = False) -> None:
    """Each service's next commits wait until every service reached its commit: both
    moves were computed from the same stored version, and only the database decides.
    With ``once`` only each service's first commit waits (a second one goes straight)."""
    barrier = asyncio.Barrier(len(services))
    for service in services:
        original = service.store.commit_moves
        met: list[bool] = []

        async def commit(*args: object, _original=original, _met=met,
                         **kwargs: object) -> object:
            if not (once and _met):
                _met.append(True)
                await barrier.wait()
            return await _original(*args, **kwargs)

        service.store.commit_moves = commit  # type: ignore[method-assign,assignment]


async def test_conflicting_moves_from_two_processes_apply_exactly_once(two):
    """Ten rounds: both processes move the same seat of one game at once (Add 1 in one,
    Add 2 in the other; both computed from the same version), with the button's version
    and without it. Each round exactly one move is stored; the other is refused with the
    stale answer; the log has every applied move and nothing else."""
    a, b = two
    gid = await started_game(a)
    meet_before_commit(a, b)
    applied: list[tuple[int, str, dict[str, object]]] = []
    for version in range(10):
        seat = f"s{version % 2}"
        expected = version if version % 3 else None  # also the path with no button version
        results = await asyncio.gather(
            a.act(gid, seat, Add(n=1), expected_version=expected),
            b.act(gid, seat, Add(n=2), expected_version=expected),
            return_exceptions=True)
        won = [r for r in results if isinstance(r, Update)]
        lost = [r for r in results if isinstance(r, GameError)]
        assert (len(won), len(lost)) == (1, 1), results
        assert (lost[0].code, lost[0].message) == MOVED_ON
        n = won[0].steps[0].action.n
        applied.append((version + 1, seat, {"type": "add", "n": n}))
    log = await b.store.actions(gid)
    assert [(x.version, x.seat, x.action) for x in log] == applied
    state = b.registry["tiny"].engine.load_state((await b.get(gid)).state)
    assert (state.version, state.counter) == (10, sum(int(m["n"]) for _, _, m in applied))


def write_after(first: Store, first_write: str, second: Store, second_write: str) -> None:
    """``second.<second_write>`` waits until ``first.<first_write>`` has finished (its
    transaction committed or failed): a fixed order of two processes' writes."""
    done = asyncio.Event()
    run_first, run_second = getattr(first, first_write), getattr(second, second_write)

    async def first_then_signal(*args: object, **kwargs: object) -> object:
        try:
            return await run_first(*args, **kwargs)
        finally:
            done.set()

    async def wait_then_second(*args: object, **kwargs: object) -> object:
        await done.wait()
        return await run_second(*args, **kwargs)

    setattr(first, first_write, first_then_signal)
    setattr(second, second_write, wait_then_second)


@pytest.mark.parametrize("first", ["start", "cancel"])
async def test_a_lobby_started_and_cancelled_at_once_is_one_or_the_other(two, first):
    """Process a starts a lobby while process b cancels it; both read "lobby" first. The
    status changes check the status they expect in the same statement, so whichever
    commits first wins and the other is refused with "This lobby is closed"."""
    a, b = two
    up = await a.create_lobby("tiny", guild_id=1, channel_id=2, host_id=10, host_name="Ana",
                              seed=7)
    gid = up.record.id
    await a.join(gid, 11, "Bo")
    if first == "start":
        write_after(a.store, "start_game", b.store, "update_game")
    else:
        write_after(b.store, "update_game", a.store, "start_game")
    started, cancelled = await asyncio.gather(a.start(gid, 10), b.cancel(gid, 10),
                                              return_exceptions=True)
    record = await a.get(gid)
    if first == "start":
        assert isinstance(started, Update) and isinstance(cancelled, GameError)
        assert (cancelled.code, cancelled.message) == LOBBY_CLOSED
        assert (record.status, record.state is not None) == ("active", True)
    else:
        assert isinstance(cancelled, Update) and isinstance(started, GameError)
        assert (started.code, started.message) == LOBBY_CLOSED
        assert (record.status, record.state) == ("cancelled", None)


async def _waiting_games(service: GameService, count: int) -> list[int]:
    """``count`` games in which s0 pressed Wait: each has a rules timer due in 30 s."""
    games = []
    for i in range(count):
        gid = await started_game(service, host=100 + 2 * i)
        await service.act(gid, "s0", {"type": "wait"})
        games.append(gid)
    return games


def _timeouts(service: GameService, fired: Counter[tuple[str, int]], name: str) -> None:
    async def grab(update: Update) -> None:
        if update.kind == "timeout":
            fired[(name, update.record.id)] += 1

    service.subscribe(grab)


async def test_every_due_timer_fires_exactly_once_across_two_processes(two, clock):
    a, b = two
    games = await _waiting_games(a, 8)
    fired: Counter[tuple[str, int]] = Counter()
    _timeouts(a, fired, "a")
    _timeouts(b, fired, "b")
    clock.advance(30)
    counts = await asyncio.gather(a.timers.fire_due(), b.timers.fire_due(),
                                  a.timers.fire_due(), b.timers.fire_due())
    assert sum(counts) == 8
    per_game = Counter(gid for (_, gid) in fired.elements())
    assert per_game == dict.fromkeys(games, 1)
    for gid in games:
        state = b.registry["tiny"].engine.load_state((await b.get(gid)).state)
        assert (state.waiting, state.turn, state.version) == (False, 1, 2)
        assert [t.kind for t in await b.store.timers() if t.game_id == gid] == ["idle"]
    assert await asyncio.gather(a.timers.fire_due(), b.timers.fire_due()) == [0, 0]


async def test_the_timers_of_a_dead_process_are_taken_over_after_the_lease(two, clock):
    """Process a claims the due timers and dies before firing them: b leaves them alone
    while a's lease runs, then fires each exactly once."""
    a, b = two
    games = await _waiting_games(a, 4)
    fired: Counter[tuple[str, int]] = Counter()
    _timeouts(b, fired, "b")
    clock.advance(30)
    claimed = await a.store.due_timers(clock.now())  # a claims them ...
    assert sorted(t.game_id for t in claimed) == games
    await a.store.close()  # ... and dies
    assert await b.timers.fire_due() == 0
    assert await b.store.next_due() == clock.now() + Store.TIMER_LEASE_S
    clock.advance(Store.TIMER_LEASE_S - 1)
    assert await b.timers.fire_due() == 0
    clock.advance(1)
    assert await b.timers.fire_due() == 4
    assert fired == {("b", gid): 1 for gid in games}
    assert await b.timers.fire_due() == 0


async def test_two_processes_filling_the_last_seat_seat_one_member(two):
    """Both processes see one free seat (of 4) and seat a different member: the seat count
    is checked again under the game's row lock, so the second is told the table is full."""
    a, b = two
    up = await a.create_lobby("tiny", guild_id=1, channel_id=2, host_id=10, host_name="Ana",
                              seed=7)
    gid = up.record.id
    await a.join(gid, 11, "Bo")
    await a.join(gid, 12, "Cy")
    write_after(a.store, "add_seat", b.store, "add_seat")
    first, second = await asyncio.gather(a.join(gid, 13, "Di"), b.join(gid, 14, "Ed"),
                                         return_exceptions=True)
    assert isinstance(first, Update) and isinstance(second, GameError)
    assert (second.code, second.message) == ("full", "This table is full (4 players).")
    assert [s.name for s in await b.seats(gid)] == ["Ana", "Bo", "Cy", "Di"]


async def test_each_process_catches_up_only_the_games_of_its_own_shards(two):
    """At start each process posts the tables its servers' games missed; a game of a server
    of another shard is that shard's process's to catch up (no table posted twice)."""
    a, b = two
    a.serves = lambda guild_id: guild_id is not None and (guild_id >> 22) % 2 == 0
    b.serves = lambda guild_id: guild_id is not None and (guild_id >> 22) % 2 == 1
    games = {}
    for shard, guild_id in ((0, 2 << 22), (1, 3 << 22)):
        up = await a.create_lobby("tiny", guild_id=guild_id, channel_id=5, host_id=10,
                                  host_name="Ana", seed=3)
        await a.join(up.record.id, 11, "Bo")
        await a.start(up.record.id, 10)
        await a.act(up.record.id, "s0", Add(n=1))  # no table was posted: both are behind
        games[shard] = up.record.id
    caught: list[tuple[str, int]] = []
    for name, service in (("a", a), ("b", b)):
        async def grab(update: Update, name: str = name) -> None:
            if update.kind == "catchup":
                caught.append((name, update.record.id))
        service.subscribe(grab)
    assert await a.reconcile_timers() == 1
    assert await b.reconcile_timers() == 1
    assert caught == [("a", games[0]), ("b", games[1])]


async def test_im_back_pressed_in_another_process_while_a_turn_timer_plays_is_kept(two, clock):
    """Ana has missed two turns; her third runs out in process a, whose AI plays her turn.
    Right after that move is stored, Ana leaves and presses "I'm back" in process b. Her
    missed-turn count is read and written in the move's own transaction, so b's writes
    come after it and stay: her seat is hers (before, a wrote the count it had read before
    the move, 3 and taken over, over b's "I'm back")."""
    a, b = two
    up = await a.create_lobby("tiny", guild_id=1, channel_id=2, host_id=10, host_name="Ana",
                              options={"turn_timer": "2m"}, seed=5)
    gid = up.record.id
    await a.join(gid, 11, "Bo")
    await a.start(gid, 10)
    await a.store.set_seat(gid, "s0", missed_turns=2)
    original = a.store.commit_moves

    async def then_back_in_b(*args: object, **kwargs: object) -> object:
        counted = await original(*args, **kwargs)  # type: ignore[arg-type]
        if kwargs.get("missed_turns"):  # the AI's move for Ana and her missed turn
            await b.set_takeover(gid, 10, True)   # /game leave
            await b.set_takeover(gid, 10, False)  # I'm back
        return counted

    a.store.commit_moves = then_back_in_b  # type: ignore[method-assign]
    timeouts: list[Update] = []

    async def grab(update: Update) -> None:
        if update.kind == "timeout":
            timeouts.append(update)
    a.subscribe(grab)
    clock.advance(60)
    assert await a.timers.fire_due() == 1  # the half-time reminder
    clock.advance(60)
    assert await a.timers.fire_due() == 1  # the turn timer
    assert [u.notes for u in timeouts] == [[
        "s0 missed 3 turns in a row: the AI plays their seat until they press I'm back."]]
    seat = (await b.seats(gid))[0]
    assert (seat.seat, seat.ai_takeover, seat.missed_turns) == ("s0", False, 0)
    state = b.registry["tiny"].engine.load_state((await b.get(gid)).state)
    assert (state.version, state.turn) == (1, 1)  # the AI's move for Ana; Bo's turn now


async def test_im_back_beaten_by_another_processs_move_is_read_again_and_kept(two):
    """Bo presses "I'm back" in process a; before a's commit (no move: his seat's flags and
    the timers), Ana's move is stored in process b. a's commit, computed from version 0,
    is refused, and a reads the game again and writes Bo's flags over version 1: Bo's
    seat is his, b's move and its timers stay. Before, a commit with no move had no
    version check and wrote the timers of version 0 over those of version 1."""
    a, b = two
    gid = await started_game(a)
    await a.store.set_seat(gid, "s1", missed_turns=2, ai_takeover=True)
    original = a.store.commit_moves
    calls: list[int | None] = []

    async def b_moves_first(*args: object, **kwargs: object) -> object:
        calls.append(kwargs["expected_version"])  # type: ignore[arg-type]
        if len(calls) == 1:
            await b.act(gid, "s0", {"type": "wait"})
        return await original(*args, **kwargs)  # type: ignore[arg-type]

    a.store.commit_moves = b_moves_first  # type: ignore[method-assign]
    update = await a.set_takeover(gid, 11, False)
    assert calls == [0, 1]
    assert update.state.version == 1
    seat = (await b.seats(gid))[1]
    assert (seat.seat, seat.ai_takeover, seat.missed_turns) == ("s1", False, 0)
    assert sorted((t.kind, t.payload.get("version")) for t in await b.store.timers()) == [
        ("idle", 1), ("rules", None)]
    state = b.registry["tiny"].engine.load_state((await b.get(gid)).state)
    assert (state.version, state.waiting) == (1, True)


async def test_a_turn_timeout_beaten_after_its_moves_were_stored_is_still_published(
        two, clock):
    """Ana's turn runs out in process a: the AI's move for her and her missed turn are
    stored; before a stores the timers of the new turn, Bo moves in process b. a's second
    commit is refused, and a publishes what it stored all the same: the AI's move and
    "Time ran out for s0". Before, the timeout was stored and never shown."""
    a, b = two
    up = await a.create_lobby("tiny", guild_id=1, channel_id=2, host_id=10, host_name="Ana",
                              options={"turn_timer": "2m"}, seed=5)
    gid = up.record.id
    await a.join(gid, 11, "Bo")
    await a.start(gid, 10)
    original = a.store.commit_moves

    async def then_bo_moves_in_b(*args: object, **kwargs: object) -> object:
        out = await original(*args, **kwargs)  # type: ignore[arg-type]
        if kwargs.get("missed_turns"):  # the AI's move for Ana and her missed turn
            await b.act(gid, "s1", Add(n=1))
        return out

    a.store.commit_moves = then_bo_moves_in_b  # type: ignore[method-assign]
    timeouts: list[Update] = []

    async def grab(update: Update) -> None:
        timeouts.append(update)
    a.subscribe(grab)
    clock.advance(60)
    assert await a.timers.fire_due() == 1  # the half-time reminder
    timeouts.clear()
    clock.advance(60)
    assert await a.timers.fire_due() == 1  # the turn timer
    assert [(u.kind, u.notes, [(s.seat, s.by_ai) for s in u.steps], u.state.version)
            for u in timeouts] == [
        ("timeout", ["Time ran out for s0: the AI played their turn."], [("s0", True)], 1)]
    state = b.registry["tiny"].engine.load_state((await b.get(gid)).state)
    assert (state.version, state.turn) == (2, 0)  # Bo's move came after: Ana's turn


async def test_two_passes_on_one_window_from_two_processes_both_stand(pg_url, clock):
    """Bo's Pass reaches one process and Cy's the other, both decoded against the same
    stored reaction window: the database takes one first, and the other is decoded again
    against the game as it is then (still legal: Cy has not passed) and stored too."""
    registry = Registry([builtin_games()["llamas-unleashed"]])
    a = GameService(await Store.open(pg_url, clock=clock.now), registry, clock=clock)
    b = GameService(await Store.open(pg_url, clock=clock.now), registry, clock=clock)
    try:
        up = await a.create_lobby("llamas-unleashed", guild_id=1, channel_id=2, host_id=10,
                                  host_name="Ana", seed=42)
        gid = up.record.id
        await a.join(gid, 11, "Bo")
        await a.join(gid, 12, "Cy")
        await a.start(gid, 10)
        st = build(3, hands={"s0": ["trail_llama"], "s1": ["llama_spit"],
                             "s2": ["alpaca_huff"]},
                   fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]},
                   plays=2)
        record = await a.get(gid)
        st.version = record.version + 1
        await a.store.commit_action(gid, expected_version=record.version,
                                    state=st.model_dump_json(), version=st.version,
                                    seat="test", action={"type": "setup"}, events=[])
        llama = next(c for c in st.hands["s0"] if catalog()[c].key == "trail_llama")
        await a.act(gid, "s0", Play(card=llama, field="s0"))
        engine = registry["llamas-unleashed"].engine
        opened = engine.load_state((await b.get(gid)).state)
        window = window_of(engine.pending(opened))
        assert engine.pending(opened).seats == ["s1", "s2"] and window
        before = opened.version
        meet_before_commit(a, b, once=True)
        results = await asyncio.gather(a.act(gid, "s1", passing_in(engine, window, "s1")),
                                       b.act(gid, "s2", passing_in(engine, window, "s2")),
                                       return_exceptions=True)
        assert [type(r) for r in results] == [Update, Update], results
        log = [(x.seat, x.action) for x in await a.store.actions(gid) if x.version > before]
        assert sorted(log) == [("s1", {"type": "pass"}), ("s2", {"type": "pass"})]
        after = engine.load_state((await a.get(gid)).state)
        assert after.reaction is None and llama in after.fields["s0"]
    finally:
        await a.store.close()
        await b.store.close()
