"""Ratings written with a game's final move, on both backends: exact against openskill,
AI seats at their fixed rating, unrated games, seasons, the leaderboard, forgetting."""

from __future__ import annotations

import pytest

from bot.ratings import Rating, ai_rating
from bot.runtime import GameService
from bot.store import RatedSeat, RateJob, StaleVersion
from tests.support.ratings import library
from tests.support.tinygame import Add

GUILD = 1


async def _play(service: GameService, members: list[tuple[int, str]], *, ai: int = 0,
                options: dict | None = None, winner: int = 0) -> int:
    """A tiny game (target 3) of ``members`` (host first) and ``ai`` Normal AI seats,
    played to its end by the members: seat ``winner`` adds 2 then reaches the target
    (the others add 1 and lose with score 0, all tied)."""
    host, name = members[0]
    up = await service.create_lobby("tiny", guild_id=GUILD, channel_id=2, host_id=host,
                                    host_name=name, seed=7, options={"target": 3, **(options or {})})
    gid = up.record.id
    for uid, n in members[1:]:
        await service.join(gid, uid, n)
    for _ in range(ai):
        await service.add_ai(gid, host)
    up = await service.start(gid, host)
    while up.result is None:
        assert up.state is not None
        seat = service.spec_of(up.record).engine.pending(up.state).seats[0]
        add = 2 if seat == f"s{winner}" else 1
        up = await service.act(gid, seat, Add(n=add), expected_version=up.state.version)
    return gid


async def _mu_sigma(store, kind: str, user_id: int, season: int = 0) -> tuple[float, float]:
    place = await store.rank_of(GUILD, kind, season, user_id)
    assert place is not None
    return place[1].mu, place[1].sigma


async def test_two_then_four_seats_with_a_tie_are_exactly_the_librarys(service):
    store = service.store
    await _play(service, [(10, "Ana"), (11, "Bo")], winner=1)
    want = library([(25.0, 25 / 3)] * 2, [1, 0])
    assert [await _mu_sigma(store, "tiny", u) for u in (10, 11)] == want
    before = {10: want[0], 11: want[1], 12: (25.0, 25 / 3), 13: (25.0, 25 / 3)}
    # 4 seats: s2 wins (target 3 reached on its second turn), the other three tie at 0
    gid = await _play(service, [(10, "Ana"), (11, "Bo"), (12, "Cy"), (13, "Di")], winner=2)
    # the three tied seats take places 1, 2 and 3 in turn
    want4 = library([before[u] for u in (10, 11, 12, 13)],
                     [1, 2, 0, 3], [3, 1, 0, 2], [2, 3, 0, 1])
    assert [await _mu_sigma(store, "tiny", u) for u in (10, 11, 12, 13)] == want4
    board, total = await store.leaderboard(GUILD, "tiny", 0)
    assert total == 4
    assert [(r.user_id, r.games, r.wins) for r in board] == sorted(
        [(10, 2, 0), (11, 2, 1), (12, 1, 1), (13, 1, 0)],
        key=lambda t: (-Rating(*want4[[10, 11, 12, 13].index(t[0])]).ordinal, t[0]))
    assert [(await store.rank_of(GUILD, "tiny", 0, r.user_id))[0] for r in board] == [1, 2, 3, 4]
    assert await store.rating_history(GUILD, 10, "tiny", 0) == [
        Rating(*want[0]).ordinal, Rating(*want4[0]).ordinal]
    ups = await store.matchups(GUILD, 10, "tiny")
    assert [(m.user_id, m.games, m.ahead, m.behind) for m in ups] == [
        (11, 2, 0, 1), (12, 1, 0, 1), (13, 1, 0, 0)]
    # the final move wrote it once: the game is no longer active, nothing rates it again
    assert (await store.get_game(gid)).status == "finished"


async def test_eight_seats_with_a_tie_through_commit_moves(service):
    store = service.store
    up = await service.create_lobby("tiny", guild_id=GUILD, channel_id=2, host_id=10,
                                    host_name="Ana", seed=7)
    gid = up.record.id
    await service.join(gid, 11, "Bo")
    up = await service.start(gid, 10)
    places = [0, 1, 1, 3, 4, 5, 6, 7]
    orders = ([0, 1, 2, 3, 4, 5, 6, 7], [0, 2, 1, 3, 4, 5, 6, 7])  # (the tied pair swaps)
    seats = tuple(RatedSeat(f"s{i}", 100 + i if i < 6 else None, None if i < 6 else "hard",
                            f"P{i}", places[i], places[i] == 0) for i in range(8))

    def compute(current):
        teams = [current.get(s.user_id, (25.0, 25 / 3)) if s.user_id is not None
                 else (ai_rating("tiny", "hard").mu, ai_rating("tiny", "hard").sigma)
                 for s in seats]
        out = library(teams, *orders)
        return {s.seat: (m, sg, m - 3 * sg) for s, (m, sg) in zip(seats, out, strict=True)}

    await store.commit_moves(gid, expected_version=0, state=up.state.model_dump_json(),
                             moves=[(1, "s0", {"type": "add", "n": 1}, [])], status="finished",
                             rate=RateJob(GUILD, "tiny", seats, compute))
    want = library([(25.0, 25 / 3)] * 6 + [(25.0, 25 / 3)] * 2, *orders)
    assert [await _mu_sigma(store, "tiny", 100 + i) for i in range(6)] == want[:6]
    board, total = await store.leaderboard(GUILD, "tiny", 0, limit=3)
    # the pair sharing second place ranks above the third
    assert (total, [r.user_id for r in board]) == (6, [100, 101, 102])
    # a stale final move writes no rating
    with pytest.raises(StaleVersion):
        await store.commit_moves(gid, expected_version=0, state=up.state.model_dump_json(),
                                 moves=[(1, "s0", {"type": "add", "n": 1}, [])],
                                 rate=RateJob(GUILD, "tiny", seats, compute))
    assert [await _mu_sigma(store, "tiny", 100 + i) for i in range(6)] == want[:6]
    assert (await store.rank_of(GUILD, "tiny", 0, 100))[1].games == 1


async def test_ai_seats_play_at_their_fixed_rating(service):
    store = service.store
    await _play(service, [(10, "Ana"), (11, "Bo")], ai=1, winner=1)
    normal = ai_rating("tiny", "normal")
    want = library([(25.0, 25 / 3), (25.0, 25 / 3), (normal.mu, normal.sigma)], [1, 0, 2],
                    [2, 0, 1])
    assert [await _mu_sigma(store, "tiny", u) for u in (10, 11)] == want[:2]
    ups = await store.matchups(GUILD, 11, "tiny")
    assert [(m.user_id, m.ai_level, m.games, m.ahead, m.behind) for m in ups] == [
        (10, None, 1, 1, 0), (None, "normal", 1, 1, 0)]


async def test_unrated_games(service):
    store = service.store
    await _play(service, [(10, "Ana"), (11, "Bo")], options={"rated": False})
    await _play(service, [(10, "Ana")], ai=1)  # fewer than 2 members
    assert await store.leaderboard(GUILD, "tiny", 0) == ([], 0)
    assert await store.rank_of(GUILD, "tiny", 0, 10) is None
    assert await store.rating_history(GUILD, 10, "tiny", 0) == []


async def test_a_new_season_starts_everybody_afresh_and_keeps_the_old_table(service):
    store = service.store
    assert await store.season(GUILD) == (0, None)
    await _play(service, [(10, "Ana"), (11, "Bo")])
    old = await store.leaderboard(GUILD, "tiny", 0)
    assert await store.start_season(GUILD) == 1
    assert (await store.season(GUILD))[0] == 1
    assert await store.leaderboard(GUILD, "tiny", 1) == ([], 0)
    await _play(service, [(10, "Ana"), (11, "Bo")], winner=1)
    want = library([(25.0, 25 / 3)] * 2, [1, 0])
    assert [await _mu_sigma(store, "tiny", u, season=1) for u in (10, 11)] == want
    assert await store.leaderboard(GUILD, "tiny", 0) == old
    assert await store.start_season(GUILD) == 2
    settings = await store.guild_settings(GUILD)
    assert settings.guild_id == GUILD  # the other settings still read


async def test_forget_removes_the_member_from_every_leaderboard(service):
    store = service.store
    await _play(service, [(10, "Ana"), (11, "Bo")])
    await store.start_season(GUILD)
    await _play(service, [(10, "Ana"), (11, "Bo")])
    assert await store.forget_ratings(10, GUILD) == 2
    for season in (0, 1):
        board, total = await store.leaderboard(GUILD, "tiny", season)
        assert ([r.user_id for r in board], total) == ([11], 1)
    assert await store.rating_history(GUILD, 10, "tiny", 1) == []
    assert [m.user_id for m in await store.matchups(GUILD, 11, "tiny")] == []


async def test_a_games_rating_changes_for_its_result_card(service):
    """Each member's ordinal after the game and before it (``None``: their first), the
    AI seats left out; an unrated game has none."""
    store = service.store
    first = await _play(service, [(10, "Ana"), (11, "Bo")], winner=1)
    want = library([(25.0, 25 / 3)] * 2, [1, 0])
    assert await store.game_rating_changes(first) == {
        "s0": (Rating(*want[0]).ordinal, None), "s1": (Rating(*want[1]).ordinal, None)}
    second = await _play(service, [(10, "Ana"), (11, "Bo")], ai=1, winner=0)
    now = [Rating(*await _mu_sigma(store, "tiny", u)).ordinal for u in (10, 11)]
    assert await store.game_rating_changes(second) == {
        "s0": (now[0], Rating(*want[0]).ordinal), "s1": (now[1], Rating(*want[1]).ordinal)}
    assert Rating(*want[0]).ordinal == -1.8330937337715376
    unrated = await _play(service, [(10, "Ana"), (11, "Bo")], options={"rated": False})
    assert await store.game_rating_changes(unrated) == {}


async def test_a_games_span_is_from_its_first_move_to_its_last(service):
    up = await service.create_lobby("tiny", guild_id=GUILD, channel_id=2, host_id=10,
                                    host_name="Ana", seed=7, options={"target": 3})
    gid = up.record.id
    await service.join(gid, 11, "Bo")
    await service.start(gid, 10)
    assert await service.store.game_span(gid) == 0.0
    await service.act(gid, "s0", Add(n=2))
    assert await service.store.game_span(gid) == 0.0
    await service.act(gid, "s1", Add(n=1))
    log = await service.store.actions(gid)
    assert len(log) == 2
    assert await service.store.game_span(gid) == log[1].created_at - log[0].created_at
