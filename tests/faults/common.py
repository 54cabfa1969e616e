"""Shared helpers of the fault suite: the real HerdBot with the tiny game in the sandbox.

Used in-process by the tests and by the kill-and-restart child script (``killrun.py``).
"""

from __future__ import annotations

import os
from typing import Any

from bot.sandbox import (
    Sandbox,
    SimChannel,
    SimInteraction,
    SimMember,
    SimMessage,
    World,
    current_interaction,
)
from bot.sandbox.members import Link

#: Extensions of a tiny-game bot (the real core cogs plus the tiny test cog).
from tests.discord.conftest import TINY_EXTENSIONS, make_bot  # noqa: E402,F401 - shared

#: ``HERDBOT_FUZZ_FULL=1`` turns on the heavy on-demand modes.
FULL = os.environ.get("HERDBOT_FUZZ_FULL", "") == "1"

#: The sentence of a stale button (GameCog.answer_stale).
MOVED_ON = "This table has moved on. Here is the current one:"


async def start_tiny(world: World, host: SimMember, others: list[SimMember], *,
                     timer: str | None = None) -> SimMessage:
    """Open a tiny lobby with ``/play``, let ``others`` join, start; return the lobby
    message (its ``thread`` holds the table)."""
    if timer:
        await host.slash("play", game="tiny", turn_timer=timer)
    else:
        await host.slash("play", game="tiny")
    lobby = host.last_reply
    assert lobby is not None
    for m in others:
        await m.click(lobby, "Join")
    await host.click(lobby, "Start")
    assert lobby.thread is not None
    return lobby


def answers(it: SimInteraction) -> list[SimMessage]:
    """Every message the bot created or edited to answer ``it`` (initial response, edited
    original, followups, the updated component message)."""
    out: list[SimMessage] = []
    if it.original is not None:
        out.append(it.original)
    out.extend(it.followups)
    if it.last_touched is not None and it.last_touched not in out:
        out.append(it.last_touched)
    return out


def answered(it: SimInteraction) -> bool:
    """True when the member saw an answer: the bot acknowledged the interaction and some
    message was created or edited for it (never a silent "thinking..." forever)."""
    if it.failed or not it.responded:
        return False
    msgs = answers(it)
    return bool(msgs) and not all(m.loading for m in msgs)


def answer_text(it: SimInteraction | None) -> str:
    """The texts of every answer of ``it``, newline-joined (empty: no interaction)."""
    return "\n".join(m.text for m in answers(it)) if it is not None else ""


def press_all(sb: Sandbox, presses: list[tuple[SimMember, SimMessage, dict[str, Any]]]
              ) -> list[SimInteraction]:
    """Deliver one MESSAGE_COMPONENT interaction per ``(member, message, data)`` in the
    same loop iteration, without settling in between (call ``await sb.settle()`` after).

    ``data`` is the interaction data (``{"custom_id": ..., "component_type": 2}``), so any
    raw custom id can be clicked on any message. This does what
    :meth:`Sandbox.run_component` does minus its per-call settle: 50 concurrent settles
    make the sandbox itself too slow to acknowledge within Discord's 3 s window.
    """
    its = []
    for member, message, data in presses:
        it = sb._new_interaction(member, "component", 3, message.channel, message)
        payload = sb._base_payload(it, dict(data))
        payload["message"] = message.data
        token = current_interaction.set(it)
        try:
            sb.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        finally:
            current_interaction.reset(token)
        its.append(it)
    return its


async def click_raw(sb: Link, member: SimMember, message: SimMessage, custom_id: str,
                    values: list[str] | None = None) -> SimInteraction:
    """Click (or, with ``values``, select) the raw ``custom_id`` on ``message``, whatever
    components the message shows, and settle."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    if values is not None:
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
    return await sb.run_component(member, message, data)


def inject_component(sb: Sandbox, channel: SimChannel, custom_id: str,
                     values: list[str] | None = None) -> SimMessage:
    """Post, as the bot, a message in ``channel`` holding one button (or, with ``values``,
    one string select offering those values) with the raw ``custom_id``; return it.

    The sandbox has no public call for this; its router's ``new_message`` builds the same
    message object a bot POST would (a message the bot itself might have sent earlier)."""
    if values is None:
        comp: dict[str, Any] = {"type": 2, "style": 2, "label": "Fuzz", "custom_id": custom_id}
    else:
        options = [{"label": v, "value": v} for v in dict.fromkeys(values)]
        comp = {"type": 3, "custom_id": custom_id, "options": options,
                "min_values": 1, "max_values": len(options)}
    body = {"content": "", "components": [{"type": 1, "components": [comp]}]}
    return sb.router.new_message(channel, body, [])


async def click_injected(sb: Sandbox, member: SimMember, channel: SimChannel, custom_id: str,
                         values: list[str] | None = None) -> SimInteraction:
    """Inject a message with the component ``custom_id`` (see :func:`inject_component`)
    and click it (or choose every one of ``values``) as ``member``; settle."""
    message = inject_component(sb, channel, custom_id, values)
    if values is None:
        return await member.click(message, custom_id)
    return await member.select(message, list(dict.fromkeys(values)), custom_id=custom_id)
