"""The UI drivers (bot/sandbox/drivers) against a bot that refuses a click as too busy:
whichever click of a move the bot refuses (a panel opener, a page turn, the last pick),
the driver returns ``"busy"`` (no exception) and the game is as it was; tried again with
no refusal, the move is made."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

from bot.app import builtin_games
from bot.discord.errors import BUSY
from bot.i18n import SHIPPED, translate
from bot.runtime import ManualClock
from bot.runtime.admission import Admission
from bot.sandbox import World
from bot.sandbox.demo import NAMES, start_lobby
from bot.sandbox.drivers import DriverContext, driver_for, opened, performs, refused_busy
from tests.discord.conftest import make_bot
from tests.support import close_world

EXTENSIONS = ("cogs.lobby", "cogs.game", "cogs.admin", "cogs.llamas_alpacas",
              "cogs.pacapaca", "cogs.unleashed")


class RefuseNth(Admission):
    """Admits every click but the ``n``-th from now (1: the next one)."""

    def __init__(self, n: int):
        super().__init__()
        self.n = n

    def enter(self, *, continuing: bool = False, step: Any = None) -> bool:
        self.n -= 1
        if self.n == 0:
            self._refuse()
            return False
        return super().enter(continuing=continuing, step=step)


async def version(bot: Any) -> int:
    """The stored version of game 1."""
    record = await bot.store.get_game(1)
    assert record is not None
    return int(record.version)


async def clicks_refused(tmp_path, game: str, want: int, seed: int = 3, players: int = 2,
                         limit: int = 80) -> list[tuple[str, int]]:
    """Play ``game`` with seeded random legal actions through its driver; refuse each
    action's 1st, 2nd, ... click in turn (checking the game unchanged after each) until
    a try passes unrefused. Returns ``(action type, clicks)`` per action, up to the first
    action of ``want`` clicks (or ``limit`` actions)."""
    world = World()
    for name in NAMES[:players]:
        world.add_member(name)
    registry = builtin_games()
    clock = ManualClock()
    bot = make_bot(tmp_path / "busy.sqlite3", clock, registry=registry,
                   extensions=EXTENSIONS)
    await world.connect(bot)
    out: list[tuple[str, int]] = []
    try:
        bot.service.seed_factory = lambda: seed
        members = [world.member(n) for n in NAMES[:players]]
        await start_lobby(members, game, None)
        by_user = {m.id: m for m in members}
        perform = driver_for(registry[game])
        rand = random.Random(seed)
        for _ in range(limit):
            record, seats, spec, state = await bot.service.load(1)
            engine = spec.engine
            choices = [(s, legal) for s in engine.pending(state).seats
                       if (legal := engine.legal_actions(state, s))]
            if not choices:  # only a timer moves the game: let it run
                clock.advance(120)
                await bot.service.timers.fire_due()
                await world.settle()
                continue
            seat, legal = choices[0]
            action = rand.choice(legal)
            user = next(r.user_id for r in seats if r.seat == seat)
            assert user is not None
            ctx = DriverContext(world, bot, by_user[user], 1, seat)
            ctx._thread_id = record.thread_id or record.channel_id or 0
            n = 1
            while True:
                bot.router.admission = RefuseNth(n)
                outcome = await perform(ctx, action)
                await world.settle()
                if outcome == "done":
                    break
                assert outcome == "busy"
                assert refused_busy(ctx.member.last_interaction)
                assert await version(bot) == record.version
                n += 1
            bot.router.admission = Admission()
            assert await version(bot) > record.version
            out.append((type(action).__name__, n - 1))
            if n - 1 >= want:
                break
    finally:
        await close_world(world)
    return out


async def test_llamas_alpacas_a_move_refused_at_its_panel_its_card_or_its_space(tmp_path):
    # A Move: the "Move a card" panel, the card's space, the space it goes to.
    assert await clicks_refused(tmp_path, "llamas-alpacas", want=3) == [
        ("Place", 1), ("Place", 1), ("Take", 1), ("Place", 1), ("Move", 3)]


async def test_pacapaca_a_negotiation_and_a_proposal_refused_at_every_step(tmp_path):
    # StartNegotiation: the Negotiate panel, the partner; Propose: Edit deal, the cards
    # given, the cards wanted, Propose.
    assert await clicks_refused(tmp_path, "pacapaca", want=4) == [
        ("Draw2", 1), ("Keep", 1), ("TakePile", 1), ("StartNegotiation", 2), ("GiveUp", 1),
        ("Draw2", 1), ("Keep", 1), ("TakePile", 1), ("Draw2", 1), ("Keep", 1),
        ("StartNegotiation", 2), ("Propose", 4)]


async def test_unleashed_a_baby_refused_at_its_panel_or_its_pick(tmp_path):
    assert await clicks_refused(tmp_path, "llamas-unleashed", want=2) == [("ChooseBaby", 2)]


def _it(*texts: str | None) -> SimpleNamespace:
    msgs = [None if t is None else SimpleNamespace(text=t) for t in texts]
    return SimpleNamespace(original=msgs[0], followups=[], last_touched=msgs[-1])


def test_the_busy_sentence_is_recognised_in_every_language():
    for lang in SHIPPED:
        text = f"\N{NO ENTRY SIGN} {translate(lang, BUSY)}"
        assert refused_busy(_it(text)), lang
    assert not refused_busy(_it("This table has moved on."))
    assert not refused_busy(_it(None))


async def test_a_panel_that_never_opens_ends_the_move_unanswered():
    ctx = SimpleNamespace(patience=0.05)
    it = _it(None)

    async def never(_ctx: Any, _action: Any) -> None:
        await opened(ctx, it)  # type: ignore[arg-type]

    assert await performs(never)(ctx, None) == "unanswered"  # type: ignore[arg-type]

    async def later() -> None:
        await asyncio.sleep(0.01)
        it.last_touched = SimpleNamespace(text="Your hand")

    task = asyncio.ensure_future(later())
    assert (await opened(SimpleNamespace(patience=1.0), it)).text == "Your hand"  # type: ignore[arg-type]
    await task
