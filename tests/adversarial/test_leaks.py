"""Hidden cards must never reach a public message, even when Discord misbehaves."""

from __future__ import annotations

import random

from bot.games.unleashed.cards import catalog
from bot.games.unleashed.models import Play
from tests.adversarial.conftest import start
from tests.support import description, rows


async def ana_holds_an_unplayable_card(world, sb):
    """Ana and Bo in Llamas Unleashed, seeded policy moves until it is Ana's Action phase
    and her hand holds a card she cannot play now; returns (thread, that card)."""
    lobby = await start(world, "llamas-unleashed", ["Ana", "Bo"])
    svc = sb.bot.service
    rand = random.Random(1)
    for _ in range(300):
        _, _, spec, st = await svc.load(1)
        pending = spec.engine.pending(st)
        if pending.kind == "turn" and st.active == "s0" and st.phase == "action":
            playable = {a.card for a in spec.engine.legal_actions(st, "s0")
                        if isinstance(a, Play)}
            stuck = [c for c in st.hands["s0"] if c not in playable]
            if stuck:
                return lobby.thread, stuck[0]
        if pending.kind == "reaction":
            sb.bot.clock.advance(60)
            await svc.timers.fire_due()
            await world.settle()
            continue
        seat = pending.seats[0]
        legal = spec.engine.legal_actions(st, seat)
        action = spec.policy(spec.engine.view(st, seat), legal, rand)
        await svc.act(1, seat, action, expected_version=st.version)
        await world.settle()
    raise AssertionError("situation not reached")


async def test_a_hand_panel_answered_late_never_falls_back_to_the_thread(world, sb):
    """My hand acknowledged too late: the panel (which names every card in the hand) goes
    to the member's DMs, never to the thread."""
    ana = world.member("Ana")
    thread, card = await ana_holds_an_unplayable_card(world, sb)
    table = [m for m in thread.all_messages if not m.ephemeral and rows(m)][-1]
    count, dms = len(thread.all_messages), len(ana.dms)
    world.faults.late_ack()
    await ana.click(table, "My hand")
    public = [m.text for m in thread.all_messages[count:] if not m.ephemeral]
    name = catalog()[card].name
    assert not any(name in text for text in public), public
    assert len(ana.dms) == dms + 1 and name in ana.dms[-1].text


async def test_an_unplayable_card_is_not_offered_and_a_forged_index_is_refused_privately(
        world, sb):
    """The play select offers only legal plays (the hand above it lists every card); a value
    past the legal actions is refused ephemerally, nothing changes."""
    ana = world.member("Ana")
    thread, card = await ana_holds_an_unplayable_card(world, sb)
    table = [m for m in thread.all_messages if not m.ephemeral and rows(m)][-1]
    await ana.click(table, "My hand")
    panel = ana.last_reply
    name = catalog()[card].name
    assert f"**{name}**" in description(panel)
    assert not any(o["label"].startswith(name) for o in panel.selects()[0]["options"])
    count = len(thread.all_messages)
    before = await sb.bot.store.get_game(1)
    await sb.run_component(ana, panel, {"custom_id": panel.selects()[0]["custom_id"],
                                        "component_type": 3, "values": ["9999"]})
    assert ana.last_reply.ephemeral
    assert ana.last_reply.content == "\N{NO ENTRY SIGN} Choose one of the options shown."
    assert [m for m in thread.all_messages[count:] if not m.ephemeral] == []
    after = await sb.bot.store.get_game(1)
    assert (after.version, after.state) == (before.version, before.state)


async def test_game_log_with_private_lines_never_falls_back_to_the_channel(world, sb):
    ana = world.member("Ana")
    lobby = await start(world, "pacapaca", ["Ana", "Bo"])
    thread = lobby.thread
    await ana.click(thread.last_message, "Draw 2")
    await ana.click(ana.last_reply, ana.last_reply.labels[0])
    await ana.slash("game log", in_channel=thread)
    private = [ln for ln in ana.last_reply.content.splitlines() if "(private)" in ln]
    assert private and any("You drew" in ln for ln in private)
    count = len(thread.all_messages)
    world.faults.late_ack()
    await ana.slash("game log", in_channel=thread)
    public = [m.text for m in thread.all_messages[count:] if not m.ephemeral]
    assert not any("(private)" in t for t in public), public
