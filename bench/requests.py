"""``python -m bench.requests [--before CHECKOUT]``: Discord requests per seeded demo game.

Plays one seeded demo game of each game at 2, 4 and its largest player count through the
real cogs in the sandbox (:func:`bot.sandbox.demo.play_game`, the same members and seeds
every run) and prints, per game: the bot-token REST requests (``RecordedRequest.exit == "http"``: the ones Discord
counts against a bot's global limit of about 50 per second), the webhook requests
(interaction callbacks, followups and original-response edits, which it does not), the
new messages in the game's thread, the turns and the thread messages per turn.

A *turn* is one player's turn (or the set-up, all players at once): replaying the game's
action log from its seed, a turn starts at every decision whose game turn number (the
state's ``turn_no``, ``turn_number`` or ``turn``) or pending seats differ from the previous
turn's. Decisions inside a turn (:data:`WITHIN`: a reaction window, an effect's choice,
a negotiation) start none.

``--one-message`` plays the same games in a group DM of members who installed herdbot to
their accounts instead (the bot user is no member there: the game is one message edited
through the players' interactions, :mod:`bot.discord.one_message`) and also prints the
edits of that message and the most followups one interaction sent (Discord's cap: 5).

``--before CHECKOUT`` also runs the same games on another checkout of herdbot (e.g.
``/work/mid``; its own ``.venv`` when it has one, else this Python) in a child process and
prints both tables and, per game, the figures before and after. ``--json`` prints the figures as JSON (what the child does).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.runtime import GameService, ManualClock
from bot.sandbox import World
from bot.sandbox.demo import NAMES, play_game

#: (game, players, seed) of the measured demo games: 2, 4 and the largest player count.
GAMES: tuple[tuple[str, int, int], ...] = (
    ("llamas-alpacas", 2, 13),
    ("llamas-alpacas", 4, 13),
    ("pacapaca", 2, 13),
    ("pacapaca", 4, 13),
    ("pacapaca", 6, 13),
    ("llamas-unleashed", 2, 13),
    ("llamas-unleashed", 4, 13),
    ("llamas-unleashed", 8, 13),
)

#: Pending kinds of decisions taken inside a player's turn (they start no turn).
WITHIN = frozenset({"reaction", "choice", "negotiation"})


def turn_of(state: Any, kind: str, seats: list[str]) -> tuple[Any, ...] | None:
    """Which turn a decision belongs to: ``("setup",)`` for the set-up, ``None`` for a
    decision inside a turn (:data:`WITHIN`), else the state's turn number and the seats."""
    if kind == "setup":
        return ("setup",)
    if kind in WITHIN:
        return None
    number = next((getattr(state, a) for a in ("turn_no", "turn_number", "turn")
                   if isinstance(getattr(state, a, None), int)), None)
    return (number, *sorted(seats))


async def _turns(bot: Any, game_id: int) -> int:
    """Turns of a stored game (the module docstring) over its replayed action log."""
    record = await bot.store.get_game(game_id)
    spec = bot.registry[record.kind]
    seats = [s.seat for s in await bot.store.seats(game_id)]
    options = GameService.engine_options(spec, record.options, len(seats))
    state = spec.engine.new_game(seats, seed=record.seed, options=options)
    turns = 0
    last: tuple[Any, ...] | None = None
    for row in await bot.store.actions(game_id):
        pending = spec.engine.pending(state)
        which = turn_of(state, pending.kind, pending.seats)
        if which is not None and which != last:
            turns += 1
            last = which
        state, _ = spec.engine.apply(state, row.seat, spec.engine.parse_action(row.action))
    return turns


def _wiring() -> tuple[Any, Any]:
    """``(builtin_games, make_bot)`` of the checkout being measured: ``bot.app`` where the
    registry is wired at the top, the older ``bot.games.registry`` and ``HerdBot`` before."""
    try:
        from bot.app import builtin_games, make_bot
    except ImportError:  # a checkout older than bot.app
        from bot.discord.bot import HerdBot as make_bot  # type: ignore[assignment]
        from bot.games.registry import builtin_games  # type: ignore[attr-defined,no-redef]
    return builtin_games, make_bot


async def measure_one(game: str, players: int, seed: int,
                      one_message: bool = False) -> dict[str, Any]:
    """Play one demo game in a fresh sandbox and count its requests and messages; with
    ``one_message`` in a group DM of the players (user installs)."""
    world = World()
    for name in NAMES[:players]:
        world.add_member(name)
    channel = None
    if one_message:
        members = [world.member(n) for n in NAMES[:players]]
        world.install_for(*members)
        channel = world.add_group_dm(*members, name="herd")
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_path=Path(tmp) / "requests.sqlite3",  # type: ignore[call-arg]
                            _env_file=None, default_dm_notifications=True)
        builtin_games, make_bot = _wiring()
        bot = make_bot(settings, registry=builtin_games(), clock=ManualClock())
        await world.connect(bot)
        try:
            before = len(world.requests)
            game_id = await play_game(world, bot, game=game, players=players, seed=seed,
                                      game_seed=seed, channel=channel)
            await world.settle()
            record = await bot.store.get_game(game_id)
            thread = world.channel(record.thread_id or record.channel_id)
            messages = [m for m in thread.all_messages if not m.ephemeral]
            played = world.requests[before:]
            turns = await _turns(bot, game_id)
            mine = [it for it in world.interactions.values() if it.channel is thread]
            return {
                "game": game, "players": players, "seed": seed,
                "table_edits": sum(m.edits for m in messages),
                "max_followups": max((it.followup_posts for it in mine), default=0),
                "http": sum(1 for r in played if r.exit == "http"),
                "webhook": sum(1 for r in played if r.exit == "webhook"),
                "user_gets": sum(1 for r in played
                                 if r.exit == "http" and r.method == "GET"
                                 and r.path.startswith("/users/")),
                "thread_messages": len(messages),
                "turns": turns,
                "moves": record.version,
            }
        finally:
            await world.disconnect()


async def measure(one_message: bool = False) -> list[dict[str, Any]]:
    """:func:`measure_one` for every game of :data:`GAMES`."""
    return [await measure_one(*g, one_message=one_message) for g in GAMES]


def one_message_table(rows: list[dict[str, Any]]) -> str:
    """The one-message figures: requests, messages, edits of the one message and the most
    followups of one interaction."""
    lines = [f"herdbot requests per seeded demo game, one message in a group DM\n"
             f"{'game':<18}{'players':>8}{'moves':>7}{'turns':>7}{'bot REST':>10}"
             f"{'webhook':>9}{'messages':>10}{'edits':>7}{'edits/turn':>12}"
             f"{'max followups':>15}"]
    for r in rows:
        lines.append(f"{r['game']:<18}{r['players']:>8}{r['moves']:>7}{r['turns']:>7}"
                     f"{r['http']:>10}{r['webhook']:>9}{r['thread_messages']:>10}"
                     f"{r['table_edits']:>7}{r['table_edits'] / max(r['turns'], 1):>12.2f}"
                     f"{r['max_followups']:>15}")
    return "\n".join(lines)


def table(rows: list[dict[str, Any]], title: str) -> str:
    """The figures as a fixed-width text table."""
    head = (f"{title}\n{'game':<18}{'players':>8}{'moves':>7}{'turns':>7}{'bot REST':>10}"
            f"{'GET user':>10}{'webhook':>9}{'thread msgs':>13}{'msgs/turn':>11}")
    lines = [head]
    for r in rows:
        lines.append(f"{r['game']:<18}{r['players']:>8}{r['moves']:>7}{r['turns']:>7}"
                     f"{r['http']:>10}{r['user_gets']:>10}{r['webhook']:>9}"
                     f"{r['thread_messages']:>13}{r['thread_messages'] / max(r['turns'], 1):>11.2f}")
    return "\n".join(lines)


def compared(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> str:
    """Per game and player count: thread messages, messages per turn and bot-token
    requests, before -> after."""
    lines = [f"{'game':<18}{'players':>8}{'turns':>7}{'thread msgs':>14}{'msgs/turn':>14}"
             f"{'bot REST':>12}"]
    for b, a in zip(before, after, strict=True):
        per = (f"{b['thread_messages'] / max(b['turns'], 1):.2f}->"
               f"{a['thread_messages'] / max(a['turns'], 1):.2f}")
        lines.append(f"{a['game']:<18}{a['players']:>8}{a['turns']:>7}"
                     f"{str(b['thread_messages']) + '->' + str(a['thread_messages']):>14}"
                     f"{per:>14}{str(b['http']) + '->' + str(a['http']):>12}")
    return "\n".join(lines)


def run_checkout(checkout: Path) -> list[dict[str, Any]]:
    """Run this measurement on another herdbot checkout (its own ``.venv``) in a child."""
    python = checkout / ".venv" / "bin" / "python"
    if not python.exists():
        python = Path(sys.executable)
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([str(python), str(Path(__file__).resolve()), "--json"], cwd=checkout,
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    """Command line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m bench.requests")
    parser.add_argument("--before", type=Path, help="another checkout to measure first")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--one-message", action="store_true",
                        help="play in a group DM (user installs): one message per game")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    if args.one_message:
        rows = asyncio.run(measure(one_message=True))
        print(json.dumps(rows) if args.json else one_message_table(rows))
        return 0
    after = asyncio.run(measure())
    if args.json:
        print(json.dumps(after))
        return 0
    if args.before is not None:
        before = run_checkout(args.before)
        print(table(before, f"BEFORE ({args.before})"))
        print()
        print(table(after, f"AFTER ({Path.cwd()})"))
        print()
        print(compared(before, after))
    else:
        print(table(after, "herdbot requests per seeded demo game"))
    return 0


if __name__ == "__main__":
    if __package__ in (None, ""):
        sys.path.insert(0, os.getcwd())
    sys.exit(main())
