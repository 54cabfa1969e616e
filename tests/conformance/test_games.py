"""Every request the real bot sends during whole games, checked against Discord's OpenAPI
spec: markdown-heavy 32-character names, the turn timer on (timeouts and reminders fire),
a member leaving mid-game. Each game is played here in English at its smallest player
count; every player count of every game is played in the pseudo-locale (the longest
words) by test_languages*.py, with the same checks (:func:`check_whole_game`).

The count of requests per game is recorded (``record_property("requests_checked")``) and
summed at the end of the run by tests/conftest.py; ``pytest -s`` prints each game's
summary (routes, integer IDs)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from bot.app import builtin_games
from bot.i18n import translate
from bot.sandbox.capture import MARKDOWN_NAMES, capture_game
from bot.sandbox.conformance import Spec

CHECKED = "requests_checked"  # the property tests/conftest.py sums
CHECKED_V2 = "v2_requests_checked"  # and the Components V2 messages among them
#: Discord's IS_COMPONENTS_V2 message flag.
V2_FLAG = 1 << 15


def is_v2(body) -> bool:  # type: ignore[no-untyped-def]
    """True for a message body (or an interaction callback's ``data``) flagged V2."""
    if not isinstance(body, dict):
        return False
    data: dict = body["data"] if isinstance(body.get("data"), dict) else body  # type: ignore[type-arg]
    return bool((data.get("flags") or 0) & V2_FLAG)

GAMES = [(key, n) for key in ("llamas-alpacas", "pacapaca", "llamas-unleashed")
         for n in range(builtin_games()[key].min_players, builtin_games()[key].max_players + 1)]
#: The games played in English here: each game at its smallest count.
ENGLISH_GAMES = [(key, n) for key, n in GAMES if n == builtin_games()[key].min_players]
SEED = 1
#: The smallest whole game (Pacapaca, 2 players) sends 98 requests; fewer than 80 means it
#: was not played through.
MIN_REQUESTS = 80
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
CREATE = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
FOLLOWUP = "POST /webhooks/{webhook_id}/{webhook_token}"
WEBHOOK_EDIT = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
#: The close-up pictures of the private panels (My hand, the drawn pair).
CLOSEUPS = {"my-board.png", "my-alpaca.png", "my-discards.png", "drawn.png", "my-hand.png"}
#: How a DM's first line links the game's thread.
DM_HEAD = "\N{EM DASH} https://discord.com/channels/"


def test_the_names_are_at_most_32_characters_and_some_exactly():
    # Discord's documented maximum for a nickname and a display name is 32 characters.
    assert max(len(n) for n in MARKDOWN_NAMES) == 32
    assert len(MARKDOWN_NAMES) == 8


def test_every_player_count_of_every_game_is_played():
    """Here in English at the smallest count; every count in the pseudo-locale."""
    assert ENGLISH_GAMES == [("llamas-alpacas", 2), ("pacapaca", 2), ("llamas-unleashed", 2)]
    assert GAMES == [("llamas-alpacas", 2), ("llamas-alpacas", 3), ("llamas-alpacas", 4),
                     ("pacapaca", 2), ("pacapaca", 3), ("pacapaca", 4), ("pacapaca", 5),
                     ("pacapaca", 6), *[("llamas-unleashed", n) for n in range(2, 9)]]


@pytest.mark.parametrize(("game", "players"), ENGLISH_GAMES,
                         ids=[f"{g}-{n}" for g, n in ENGLISH_GAMES])
async def test_every_request_of_a_whole_game_conforms(spec: Spec, record_property,
                                                      game: str, players: int):
    requests = await capture_game(game, players, SEED)
    check_whole_game(spec, record_property, game, players, requests)


def check_whole_game(spec: Spec, record_property: Any, game: str, players: int,
                     requests: list[Any], lang: str | None = None) -> None:
    """The checks of a whole game's ``requests`` (played in ``lang``, default English):
    each request conforms, the routes a game uses, Components V2 tables, lobby, panels
    and DMs, and the checker sees these very bodies. Counted for the run's summary."""
    report = spec.check(requests)
    record_property(CHECKED, report.checked)
    v2 = [r for r in requests if is_v2(r.json)]
    record_property(CHECKED_V2, len(v2))
    print(f"{game} with {players} players: {report.summary()}")  # shown with -s
    assert not report.violations, report.summary()
    assert report.checked == len(requests) >= MIN_REQUESTS
    assert report.with_body >= report.checked * 3 // 4
    for route in (CALLBACK, CREATE):
        assert report.routes[route] > 0, route
    # Tables are edited in place, through an interaction's token where one can (a whole
    # Llamas & Alpacas game needs no bot-token edit at all).
    assert report.routes[EDIT] + report.routes[WEBHOOK_EDIT] > 0
    assert sum(report.routes.values()) == report.checked
    # The tables are Components V2 messages, checked like every other request: each post
    # of a table picture is V2.
    tables = [r for r in requests if r.method == "POST" and r.path.endswith("/messages")
              and any(f.filename == "table.png" for f in r.files)]
    assert tables and all(is_v2(r.json) for r in tables)
    assert len(v2) >= len(tables)
    # The lobby, every private panel with a close-up picture and every DM are Components V2
    # messages too (checked above with the rest).
    title = translate(lang, "{game}: lobby #{number}")
    mark = title.split("{game}")[1].split("{number}")[0]  # ": lobby #" in English
    lobby = [r for r in requests if mark in json.dumps(r.json, ensure_ascii=False)]
    panels = [r for r in requests if any(f.filename in CLOSEUPS for f in r.files)]
    dms = [r for r in requests if DM_HEAD in json.dumps(r.json, ensure_ascii=False)]
    assert lobby and all(is_v2(r.json) for r in [*lobby, *panels, *dms])
    # (the demo opens My hand in the games with hidden cards)
    assert bool(panels) == builtin_games()[game].hidden_info
    # The checker sees these very bodies: one over-long content in a copy of this game's
    # first table post is the one violation found.
    post = next(r for r in requests if r.method == "POST" and r.path.endswith("/messages"))
    broken = copy.copy(post)
    broken.json = dict(copy.deepcopy(post.json), content="x" * 4001)
    bad = spec.check([broken]).violations
    assert [(v.where, v.field, v.message) for v in bad] == [
        ("body", "$.content", "'" + "x" * 59 + "... (4001 long) is too long")]
