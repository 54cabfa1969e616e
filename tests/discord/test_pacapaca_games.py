"""Alpaca Pacapaca through real discord.py dispatch in the sandbox: whole games to the
scoring (two players; four with negotiations under the leak check; three with a deal, a
timeout and a restart during a negotiation)."""

from __future__ import annotations

import random

from bot.sandbox.demo import NAMES, play_game
from bot.sandbox.drivers.pacapaca import perform
from tests.support import pictures, rows, texts, title
from tests.support.pacapaca_ui import (
    SPEC,
    ctx_for,
    draw_and_keep_first,
    load,
    member_of,
    names_of,
    open_negotiation,
    pacapaca_bot,
    propose,
    start,
    table_message,
)
from tests.support.pacapaca_ui import clock as clock  # noqa: F401 (fixtures)
from tests.support.pacapaca_ui import sb as sb  # noqa: F401
from tests.support.pacapaca_ui import seed as seed  # noqa: F401
from tests.support.pacapaca_ui import world as world  # noqa: F401

# -- full games and the leak check --------------------------------------------------------


def hidden_names(state, seat):
    """Names of cards ``seat`` must not see named, minus names it sees anyway."""
    hidden = list(state.deck)
    mine_drawn = state.phase == "drawn" and state.seats[state.active] == seat
    if not mine_drawn:
        hidden += list(state.drawn)
    hidden += [p.card for p in state.pile if p.by != seat]
    seen = [c for a in state.alpacas.values() for c in (*a.neck, *a.babies)]
    seen += [p.card for p in state.pile if p.by == seat]
    if mine_drawn:
        seen += list(state.drawn)
    return set(names_of(hidden)) - set(names_of(seen))


def message_words(msg):
    parts = [msg.text, *msg.labels, *msg.filenames]
    for s in msg.selects():
        for o in s.get("options") or []:
            parts += [o.get("label", ""), o.get("description", "") or ""]
    return "\n".join(parts)


class LeakWatch:
    """After every driven action: each new (or edited) message a member can see names no
    card hidden from that member."""

    def __init__(self, world, bot, thread_id):
        self.world, self.bot, self.thread_id = world, bot, thread_id
        self.seen: dict[int, int] = {}
        self.checked = 0
        self.calls = 0
        self.hands = 0

    async def __call__(self, ctx) -> None:
        self.calls += 1
        record, seats, spec, state = await self.bot.service.load(ctx.game_id)
        if self.calls % 3 == 0 and record.status == "active":
            # everyone (and an outsider) opens My hand now and then
            table = ctx.table_message()
            for name in [*NAMES[:len(seats)], "Zed"]:
                await self.world.member(name).click(table, "My hand")
                self.hands += 1
        thread = self.world.channel(record.thread_id)
        by_user = {s.user_id: s.seat for s in seats}
        for member in [self.world.member(n) for n in [*NAMES[:4], "Zed"]]:
            seat = by_user.get(member.id)
            bad = hidden_names(state, seat) if seat else set(names_of([
                *state.deck, *state.drawn, *[p.card for p in state.pile]])) - set(names_of(
                    [c for a in state.alpacas.values() for c in (*a.neck, *a.babies)]))
            msgs = [*member.visible(thread), *member.dms,
                    *[m for m in member.ephemerals if m.channel_id == thread.id]]
            for m in msgs:
                key = m.id * 10 + member.id % 7
                if self.seen.get(key) == m.edits:
                    continue
                self.seen[key] = m.edits
                words = message_words(m)
                leaked = sorted(n for n in bad if n in words)
                assert not leaked, f"{member.name} sees {leaked} in {words!r}"
                self.checked += 1


async def test_full_two_player_game_through_the_ui(world, sb, seed):
    seed["seed"] = 3
    game_id = await play_game(world, sb.bot, game="pacapaca", players=2, seed=1)
    record, seats, spec, state = await sb.bot.service.load(game_id)
    assert record.status == "finished" and state.phase == "finished"
    result = spec.engine.result(state)
    thread = world.channel(record.thread_id)
    public = [m for m in thread.all_messages if not m.ephemeral]
    # One message: the last moves, the three scoring steps, then the totals with the final
    # picture. It is the last table, edited in place (no new message for the end): it keeps
    # the moves that table told (the final take of the pile) and adds the last one (the
    # final pass), before the scoring; its ping and buttons gone.
    final = public[-1]
    assert final.id == record.table_message_id and "<@" not in final.text
    assert final.data["mentions"] == []
    head, step1, step2, step3, heading, totals, foot = texts(final)
    assert head.split("\n") == [
        "\N{BULLET} Tomasz took the discard pile (1 card): Star charm.",
        "\N{BULLET} It is Maya's turn.",
        "\N{BULLET} Maya cannot draw or take the pile, so they pass.",
        "\N{BULLET} The game is over: Tomasz wins.",
    ]
    assert totals.startswith(
        "The deck ran out and everyone took one last turn. **Tomasz** wins!")
    steps = [step1, step2, step3]
    assert steps[0].startswith("**Scoring, step 1 of 3")
    assert steps[1].startswith("**Step 2 of 3: neck lengths**")
    assert steps[2].startswith("**Step 3 of 3: bows, scarves")
    assert final.filenames == ["final.png", "result.png"]
    assert final.file("final.png")[:8] == b"\x89PNG\r\n\x1a\n"
    assert heading == f"### Alpaca Pacapaca #{game_id}: final scores" == "### " + title(final)
    assert foot == f"-# Alpaca Pacapaca #{game_id} \N{MIDDLE DOT} Move {state.version}"
    # then the result card, with the Rematch button
    assert [p[0] for p in pictures(final)] == ["final.png", "result.png"]
    assert final.file("result.png")[:8] == b"\x89PNG\r\n\x1a\n"
    assert [b["custom_id"] for b in final.buttons()] == [f"hb:l:{game_id}:x:rematch",
                                                      f"hb:r:{game_id}:x:open"]
    names = {s.seat: s.name for s in seats}
    for seat, score in result.scores.items():
        assert f"**{names[seat]}**: {score}" in totals
    # every button retired, but the end's Rematch
    assert not any(rows(m) for m in thread.all_messages if m != final)


async def test_full_four_player_game_with_negotiations_and_no_leaks(world, sb, seed):
    seed["seed"] = 1  # with policy seed 5: two negotiations, both ending in a deal
    watch = LeakWatch(world, sb.bot, 0)
    game_id = await play_game(world, sb.bot, game="pacapaca", players=4, seed=5,
                              extra_clicks=watch)
    record, seats, spec, state = await sb.bot.service.load(game_id)
    assert record.status == "finished"
    thread = world.channel(record.thread_id)
    texts = "\n".join(m.text for m in thread.all_messages if not m.ephemeral)
    assert texts.count("opened a negotiation with") == 2
    assert texts.count("\N{HANDSHAKE} Deal!") == 2  # both panels closed with the deal
    assert watch.checked > 200 and watch.hands > 50
    assert "Scoring, step 1 of 3" in texts


async def finish_with_policy(world, bot, thread, clock, seed):
    """Play the rest of the game with the AI policy choosing and the driver clicking."""
    rand = random.Random(seed)
    engine = SPEC.engine
    for _ in range(1000):
        record, seats, state = await load(bot)
        if record.status != "active":
            return
        for seat in engine.pending(state).seats:
            legal = engine.legal_actions(state, seat)
            if legal:
                action = SPEC.policy(engine.view(state, seat), legal, rand)
                await perform(await ctx_for(world, bot, thread, seat), action)
                await world.settle()
                break
        else:
            clock.advance(61)
            await bot.service.timers.fire_due()
            await world.settle()
    raise AssertionError("the game did not finish")


async def test_three_player_game_deal_timeout_and_restart(world, clock, tmp_path, seed):
    """A 3-player game through buttons with an accepted negotiation, a negotiation that
    times out, and a restart during a negotiation whose timer is honoured afterwards; then
    played to the scoring."""
    db = tmp_path / "three.sqlite3"
    sb = await world.connect(pacapaca_bot(db, clock))
    thread = await start(world, NAMES[:3])
    # 1. an accepted deal
    active, partner = await open_negotiation(world, sb.bot, thread)
    am, pm = await member_of(world, sb.bot, active), await member_of(world, sb.bot, partner)
    _, _, st = await load(sb.bot)
    give, get = st.alpacas[active].neck[:1], st.alpacas[partner].neck[:1]
    await propose(pm, thread, get, give)  # the partner proposes the same swap from its side
    panel = table_message(am, thread)
    await am.click(panel, "Accept deal v1")
    await pm.click(panel, "Accept deal v1")
    _, _, st = await load(sb.bot)
    assert give[0] in st.alpacas[partner].neck and get[0] in st.alpacas[active].neck
    assert st.seats[st.active] == partner
    # 2. a negotiation that times out; the player then draws
    active, partner = await open_negotiation(world, sb.bot, thread)
    clock.advance(61)
    await sb.bot.service.timers.fire_due()
    await world.settle()
    _, _, st = await load(sb.bot)
    assert st.phase == "turn" and st.negotiated and st.seats[st.active] == active
    assert thread.last_message.is_disabled("Negotiate")
    await draw_and_keep_first(world, sb.bot, thread)
    # 3. a restart in the middle of a negotiation: the stored timer still ends it
    active, partner = await open_negotiation(world, sb.bot, thread)
    _, _, st = await load(sb.bot)
    am = await member_of(world, sb.bot, active)
    await propose(am, thread, st.alpacas[active].neck[:1], [])
    clock.advance(40)
    await world.disconnect()
    sb = await world.connect(pacapaca_bot(db, clock))
    try:
        pm = await member_of(world, sb.bot, partner)
        await pm.click(table_message(pm, thread), "Accept deal v1")
        _, _, st = await load(sb.bot)
        assert st.negotiation.accepted == [partner]
        clock.advance(21)
        await sb.bot.service.timers.fire_due()
        await world.settle()
        _, _, st = await load(sb.bot)
        assert st.phase == "turn" and st.negotiated and st.seats[st.active] == active
        await finish_with_policy(world, sb.bot, thread, clock, seed=3)
        record, _, st = await load(sb.bot)
        assert record.status == "finished"
        public = [m.text for m in thread.all_messages if not m.ephemeral]
        # Each negotiation's end is told: the deal on its closed panel (the turn ended),
        # each timeout in its turn's table (the turn went on in the same message).
        assert sum("(closed)" in t and "\N{HANDSHAKE} Deal!" in t for t in public) >= 1
        assert sum("\N{BULLET} Time ran out, so the negotiation failed" in t
                   for t in public) >= 2
        # the last moves, then the scoring
        assert any(texts(m)[:1] and texts(m)[0].startswith("\N{BULLET} ")
                   and texts(m)[1].startswith("**Scoring, step 1 of 3")
                   for m in thread.all_messages if not m.ephemeral)
    finally:
        await world.disconnect()
