"""Languages against Discord's spec: a whole seeded Llamas & Alpacas game in the
pseudo-locale (every sentence about 40% longer) at every player count through the strict
sandbox, with no request refused and every request conforming, and the localised command
sync conforming."""

from __future__ import annotations

import pytest

from bot.app import builtin_games, make_bot
from bot.config import Settings
from bot.i18n import pseudo
from bot.runtime import ManualClock
from bot.sandbox.capture import capture_game
from bot.sandbox.conformance import Spec
from bot.sandbox.world import World
from tests.conformance.test_games import check_whole_game

PLAYERS = range(builtin_games()["llamas-alpacas"].min_players,
                builtin_games()["llamas-alpacas"].max_players + 1)


@pytest.mark.parametrize("players", PLAYERS, ids=[f"llamas-alpacas-{n}" for n in PLAYERS])
async def test_a_whole_game_in_the_pseudo_locale_conforms_with_no_refusal(
        spec: Spec, record_property, players: int):
    requests = await capture_game("llamas-alpacas", players, 1, language="en_XA")
    check_whole_game(spec, record_property, "llamas-alpacas", players, requests, lang="en_XA")
    refused = [(r.method, r.path, r.status) for r in requests if r.status >= 400]
    assert refused == []
    bodies = " ".join(str(r.json) for r in requests)
    # The lobby, the tables and their choices were in the pseudo-locale.
    for sentence in ("Join", "Move a card", "This is the last round."):
        assert pseudo(sentence) in bodies, sentence
    assert pseudo("Set-up: place your starting card on your board with the buttons 1-9 "
                  "(row by row). Waiting for {names}.").split("{names}")[0] in bodies
    # The Discord layer's own words too: the table's buttons, its footer, and the end's
    # heading and buttons.
    for sentence in ("My hand", "Watch", "Rematch", "Replay"):
        assert pseudo(sentence) in bodies, sentence
    for sentence, placeholder in (("{title} · Move {move}", "{move}"),
                                  ("{title}: final scores", "{title}")):
        words = pseudo(sentence).replace("{title}", "").split(placeholder)
        assert all(w in bodies for w in words), sentence


async def test_the_localised_command_sync_conforms(spec: Spec, tmp_path):
    """The commands the bot syncs when it connects, with every language's names: no game
    needs playing for them."""
    world = World()
    world.add_member("Ana", manage_guild=True)
    settings = Settings(database_path=tmp_path / "sync.sqlite3",  # type: ignore[call-arg]
                        _env_file=None)
    await world.connect(make_bot(settings, registry=builtin_games(), clock=ManualClock()))
    await world.disconnect()
    requests = list(world.requests)
    syncs = [r for r in requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert syncs and all(r.status == 200 for r in syncs)
    report = spec.check(syncs)
    assert report.checked == len(syncs)
    assert not report.violations, report.summary()
    assert any("name_localizations" in c for c in syncs[-1].json)
