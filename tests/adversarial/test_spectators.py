"""Spectators never see a hidden card: in seeded whole games of each game, a member
without a seat presses Watch after every move (and Follow in the thread once), and
presses a player's button now and then; every message the bot sends them (ephemeral
answers, DMs) is scanned for the strings only a seat's own view holds (its hand's cards)
at that moment, and each table picture they get is the public one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.app import builtin_games, make_bot
from bot.config import Settings
from bot.discord.watch import WATCHING
from bot.games.unleashed.cards import catalog as unleashed_catalog
from bot.present.pacapaca import card_name as pacapaca_name
from bot.runtime import ManualClock
from bot.sandbox.demo import NAMES, play_game
from bot.sandbox.model import walk_components
from bot.sandbox.world import World
from tests.support import parts

NO = "\N{NO ENTRY SIGN} "
GAMES = [("llamas-alpacas", 3), ("pacapaca", 3), ("pacapaca", 2), ("llamas-unleashed", 3),
         ("llamas-unleashed", 5)]
#: Utility buttons every member may press.
UTILITY = {"My hand", "Watch", "I'm back"}


#: Keys whose values are code words, not words of a card (an Unleashed choice's ``ask``,
#: such as ``"players"``, says what kind of question the presenter words).
CODE_KEYS = frozenset({"ask"})


def strings(data: Any) -> Iterator[str]:
    """Every string value in a view's JSON (names of cards among them), less the code
    words of :data:`CODE_KEYS`."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            if key not in CODE_KEYS:
                yield from strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from strings(value)


def hidden_now(spec: Any, state: Any) -> set[str]:
    """The strings some seat's own view holds that the spectator's view does not (names
    and texts of cards in hands), and the names of the cards face down (Llamas Unleashed:
    every hand; Alpaca Pacapaca: the deck, the discard pile and the drawn cards, whose
    views hold card ids), of at least 4 characters, less those the spectator's view
    holds."""
    public = set(strings(spec.engine.view(state, None).model_dump(mode="json")))
    own: set[str] = set()
    for seat in state.seats:
        own |= set(strings(spec.engine.view(state, seat).model_dump(mode="json")))
    if spec.key == "pacapaca":
        down = [*state.deck, *(p.card for p in state.pile), *state.drawn]
        own |= {pacapaca_name(c) for c in down}
    if spec.key == "llamas-unleashed":
        names = unleashed_catalog()
        own |= {names[c].name for hand in state.hands.values() for c in hand}
    return {s for s in own - public if len(s) >= 4}


def everything_said(message: Any) -> str:
    """A message's words: content, embeds, text displays, alternative texts, labels and
    options."""
    out = [message.text]
    for c in walk_components(message.components):
        for key in ("label", "placeholder", "description"):
            if isinstance(c.get(key), str):
                out.append(c[key])
        for item in c.get("items") or []:
            out.append(item.get("description") or "")
        for option in c.get("options") or []:
            out += [option.get("label") or "", option.get("description") or ""]
    out += [a.description or "" for a in message.attachments]
    return "\n".join(out)


@pytest.mark.parametrize(("game", "players"), GAMES, ids=[f"{g}-{n}" for g, n in GAMES])
async def test_a_spectator_never_sees_a_hidden_card(tmp_path, game, players):
    world = World()
    for name in NAMES[:players]:
        world.add_member(name)
    zed = world.add_member("Zed")
    checked = {"watch": 0, "refused": 0, "followed": 0}
    leaks: list[str] = []
    sizes: list[int] = []

    async def after_action(ctx: Any) -> None:
        bot = ctx.bot
        record, _, spec, state = await bot.service.load(ctx.game_id)
        if record.status != "active":
            return
        # what the thread shows everyone is no secret (a card named in a public move)
        shown = "\n".join(everything_said(m) for m in ctx.thread.all_messages
                           if not m.ephemeral)
        hidden = {h for h in hidden_now(spec, state) if h not in shown}
        sizes.append(len(hidden))
        table = next((m for m in reversed(ctx.thread.all_messages)
                      if not m.ephemeral and "Watch" in m.labels), None)
        if table is None:
            return
        await zed.click(table, "Watch")
        panel = zed.last_reply
        assert panel.ephemeral
        said = everything_said(panel)
        leaks.extend(f"move {state.version}: {h!r}" for h in hidden if h in said)
        assert parts(panel)["footer"].endswith(f"Move {state.version}")
        # the picture is the thread's own table picture when the two show one move
        if parts(table)["footer"] == parts(panel)["footer"]:
            assert [a.data for a in panel.attachments] == [
                a.data for a in table.attachments if a.filename == "table.png"]
        checked["watch"] += 1
        if not checked["followed"] and "Follow in the thread" in panel.labels:
            await zed.click(panel, "Follow in the thread")
            assert zed.id in ctx.thread.members
            checked["followed"] += 1
        if checked["watch"] % 4 == 1:
            playing = [b for b in table.buttons()
                       if b.get("label") not in UTILITY and not b.get("disabled")]
            if playing:
                await zed.click(table, playing[0].get("label") or playing[0]["custom_id"])
                assert zed.last_reply.ephemeral
                assert zed.last_reply.content == NO + WATCHING
                checked["refused"] += 1

    settings = Settings(database_path=tmp_path / "watch.sqlite3",  # type: ignore[call-arg]
                        _env_file=None, default_turn_timer="off")
    bot = make_bot(settings, registry=builtin_games(), clock=ManualClock())
    await world.connect(bot)
    try:
        await play_game(world, bot, game=game, players=players, seed=3, game_seed=3,
                        extra_clicks=after_action)
    finally:
        await world.disconnect()
    assert checked["watch"] >= 10 and checked["followed"] == 1 and checked["refused"] >= 1
    # everything Zed was ever sent, scanned once more (hands of the end are public then)
    received = [*zed.ephemerals, *zed.dms]
    assert received and not zed.dms
    assert leaks == []
    if game != "llamas-alpacas":  # its hidden cards are the deck's order only
        assert max(sizes) >= 5, sizes
