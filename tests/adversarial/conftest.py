"""Fixtures of the adversarial suite: the real HerdBot with all three games in the sandbox."""

from __future__ import annotations

import types
from typing import Any

import pytest

import bot.runtime.service as service_mod
from bot import app
from bot.app import builtin_games
from bot.config import Settings
from bot.discord.bot import HerdBot
from bot.runtime import ManualClock

MEMBERS = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal")


def make_bot(db_path, clock: ManualClock, **settings) -> HerdBot:
    """A HerdBot with every built-in game and its cog."""
    # These tests were written for games without a turn timer; the shipped default (24h) is
    # tested in tests/faults/test_abandoned.py.
    settings.setdefault("default_turn_timer", "off")
    fields: dict[str, Any] = {"database_path": db_path, "_env_file": None, **settings}
    cfg = Settings(**fields)
    return app.make_bot(cfg, registry=builtin_games(), clock=clock)


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    """Every new lobby draws game seed 5, so deals are reproducible."""
    monkeypatch.setattr(service_mod, "secrets", types.SimpleNamespace(randbits=lambda n: 5))


@pytest.fixture
def members() -> tuple[str, ...]:
    """Ana..Hal (Mo, with Manage Server, is added by the shared ``world``)."""
    return MEMBERS


@pytest.fixture
def bot_factory():
    """Bots with every built-in game."""
    return make_bot


async def start(world, game: str, names: list[str], ai: int = 0, **play):
    """Open a lobby of ``game`` with ``/play`` by ``names[0]``, let the others join, add
    ``ai`` AI seats, start; return the lobby message (``.thread`` is the game thread)."""
    host = world.member(names[0])
    await host.slash("play", game=game, **play)
    lobby = host.last_reply
    for n in names[1:]:
        await world.member(n).click(lobby, "Join")
    for _ in range(ai):
        await host.click(lobby, "Add AI seat")
    await host.click(lobby, "Start")
    assert lobby.thread is not None
    return lobby


async def open_negotiation(world, sb, game_id: int = 1):
    """In a 2-player Pacapaca game (s0 = host), draw and keep through the service until s0
    may negotiate, then open a negotiation with s1 through the buttons; return
    (panel message, state)."""
    from bot.games.pacapaca.models import Draw2, Keep, StartNegotiation

    svc = sb.bot.service
    record = await sb.bot.store.get_game(game_id)
    thread = world.channel(record.thread_id)
    for _ in range(40):
        _, seats, spec, st = await svc.load(game_id)
        seat = spec.engine.pending(st).seats[0]
        legal = spec.engine.legal_actions(st, seat)
        if seat == "s0" and any(isinstance(a, StartNegotiation) for a in legal):
            break
        action = next(a for a in legal if isinstance(a, Draw2 | Keep))
        await svc.act(game_id, seat, action, expected_version=st.version)
        await world.settle()
    host = world.member(next(s.user_id for s in seats if s.seat == "s0"))
    await host.click(thread.last_message, "Negotiate")
    picker = host.last_reply  # one option, s1 (values are action indexes)
    await host.select(picker, [picker.selects()[0]["options"][0]["label"]])
    _, _, _, st = await svc.load(game_id)
    return thread.last_message, st
