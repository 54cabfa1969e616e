"""Helpers of the rating tests: a finished tiny game of two members, and members put on a
server's tiny table directly."""

from __future__ import annotations

from openskill.models import PlackettLuce

from bot.store.ratings import UPSERT_RATING

#: Names with markdown and mentions, as members may type them.
NAMES = ["**Bold**", "@everyone", "<@123>", "_it_", "`code`", "> quote", "~~gone~~", "1. list"]


async def finish_game(world, sb, winner: str = "Ana", loser: str = "Bo", rated: bool = True):
    """A tiny game of two members, played to its end: ``winner`` adds 2, ``loser`` 1."""
    first, second = world.member(winner), world.member(loser)
    await first.slash("play", game="tiny", **({} if rated else {"rated": False}))
    lobby = first.last_reply
    await second.click(lobby, "Join")
    await first.click(lobby, "Start")
    thread = lobby.thread
    gid = (await sb.bot.store.game_by_thread(thread.id)).id
    while (await sb.bot.store.get_game(gid)).status == "active":
        state = sb.bot.registry["tiny"].engine.load_state((await sb.bot.store.get_game(gid)).state)
        who, label = (first, "Add 2") if state.turn == 0 else (second, "Add 1")
        await who.click(thread.last_message, label)
    return lobby


async def seed_ratings(sb, guild: int, count: int, season: int = 0) -> None:
    """``count`` members rated in ``tiny`` (ids 5000.., ordinals count-1 .. 0)."""
    rows = [(guild, "tiny", season, 5000 + i, NAMES[i % len(NAMES)], 20.0 + count - i, 5.0,
             5.0 + count - i, i + 1, i // 2, 0.0) for i in range(count)]
    async with sb.bot.store._tx() as db:
        await db.executemany(UPSERT_RATING, rows)


def library(teams: list[tuple[float, float]], *orders: list[int]) -> list[tuple[float, float]]:
    """openskill itself, from scratch: one-player teams rated by each of ``orders``
    (distinct places; a shared place is given as the orders of its seats), mean of
    ``mu`` and ``sigma`` over the orders."""
    model = PlackettLuce()
    sums = [[0.0, 0.0] for _ in teams]
    for places in orders:
        out = model.rate([[model.rating(mu=m, sigma=s)] for m, s in teams],
                         ranks=[float(p) for p in places])
        for i, t in enumerate(out):
            sums[i][0] += t[0].mu
            sums[i][1] += t[0].sigma
    return [(m / len(orders), s / len(orders)) for m, s in sums]
