"""Every request of a take-back (asked, allowed, refused, lapsed) and of the lobby's
Options form (the modal with its label, radio group, checkbox group, select and text
input; a preset saved, listed and used), checked against Discord's OpenAPI spec."""

from __future__ import annotations

from bot.sandbox.conformance import Spec
from tests.discord.test_live_service import expire
from tests.discord.test_takeback import request_of, start
from tests.support import rows

CHECKED = "requests_checked"


async def test_take_backs_and_the_options_form_conform(spec: Spec, record_property, world,
                                                        sb, clock):
    ana = world.member("Ana")
    await ana.slash("play", game="tiny")
    lobby = ana.last_reply
    await world.member("Bo").click(lobby, "Join")
    await ana.click(lobby, "Options")
    assert ana.modal is not None
    await ana.submit_modal({"turn_timer": "2m", "rules": ["take_backs"], "n.target": "30",
                            "preset": "Quick @here"})
    await world.member("Mo").slash("settings", presets=True)
    (ana, bo, cy), _, thread = await start(world)
    await ana.click(thread.last_message, "Add 1")
    await ana.slash("game takeback", in_channel=thread)
    await bo.click(request_of(thread), "Allow")
    await cy.click(request_of(thread), "Allow")
    await ana.click(thread.last_message, "Add 2")
    await ana.slash("game takeback", in_channel=thread)
    await bo.click(request_of(thread), "Refuse")
    await bo.click([m for m in thread.all_messages if rows(m)][-1], "Add 1")
    await bo.slash("game takeback", in_channel=thread)
    await expire(sb, clock, 60)
    report = spec.check(list(world.requests))
    record_property(CHECKED, report.checked)
    assert not report.violations, report.summary()
    assert report.checked == len(world.requests) >= 30
