"""Whole seeded games of every game at 2 players and at its largest count played in a
group DM through the members' user installs: each game is one message (the lobby, then
the table, then the end), edited only through the players' interactions, never the bot's
token, no followup cap reached, and every request conforms to Discord's spec."""

from __future__ import annotations

import pytest

from bot.app import builtin_games
from bot.sandbox.capture import capture_game
from bot.sandbox.conformance import Spec

GAMES = [(key, n) for key in ("llamas-alpacas", "pacapaca", "llamas-unleashed")
         for n in (2, builtin_games()[key].max_players)]
SEED = 1


def test_each_game_at_two_and_its_largest_count():
    assert GAMES == [("llamas-alpacas", 2), ("llamas-alpacas", 4), ("pacapaca", 2),
                     ("pacapaca", 6), ("llamas-unleashed", 2), ("llamas-unleashed", 8)]


@pytest.mark.parametrize(("game", "players"), GAMES, ids=[f"{g}-{n}" for g, n in GAMES])
async def test_a_whole_game_in_a_group_dm_is_one_message(spec: Spec, game: str, players: int):
    requests = await capture_game(game, players, SEED, group_dm=True)
    report = spec.check(requests)
    print(f"{game} with {players} players in a group DM: {report.summary()}")  # -s
    assert not report.violations, report.summary()
    played = [r for r in requests if r.interaction is not None]
    group = played[0].interaction.channel
    assert group.kind == "private"
    # Nothing with the bot's token reaches the group DM, and no DM is sent.
    assert [r for r in requests if r.exit == "http" and r.path.startswith("/channels/")] == []
    assert [r for r in requests if r.path == "/users/@me/channels"] == []
    # One public message: the lobby became the table and shows the end.
    public = [m for m in group.all_messages if not m.ephemeral]
    assert len(public) == 1
    assert "final scores" in public[0].text
    # Every request was answered; no interaction reached Discord's followup cap.
    assert [r for r in requests if r.status >= 400] == []
    its = {id(r.interaction): r.interaction for r in played}
    assert max(it.followup_posts for it in its.values()) <= 5
